"""Pages set in text columns, found by their left edges (tax instructions in three, newsletters, datasheets).

rows.py reads a page of two columns left column first, by the page's middle; on a page of three, the first two
columns both lie left of the middle, so their lines interleaved by height and each line was "crowded" by the
other column's line on its baseline, which rules a heading out as a table cell or run-in head. Here the columns'
left edges are found from the lines of words: two or more edges, each starting a good share of the page's word
lines, none of whose lines reaches past the next edge, the last column no wider than their spacing allows. Rows
are then read column by column, and a row spanning the gutter (a title across the page, a band over the columns)
opens a new stretch of columns below it. Found by edges, a two-column page whose right column holds a few lines
(a newsletter's last page) reads as two columns too, where the halves' count (a quarter of the rows each) did
not.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

MIN_COLUMNS = 2
EDGE_SNAP = 4.0  # points: left edges this close are one column's margin
MIN_SHARE = 0.15  # share of the page's word lines each column starts
MIN_WORD_LINES = 30  # fewer word lines than this say too little about columns
LAST_WIDER = 1.2  # the last column's lines reach no further than this many times the columns' spacing
CROSSING = 0.05  # share of a column's lines that may reach past the next column's edge
MIN_SPACING = 0.15  # of the page's width: left edges closer than this to the one before are an indent in its column


class Box(Protocol):
    """A printed text and its horizontal extent: an extracted line or a row."""

    @property
    def text(self) -> str: ...
    @property
    def x0(self) -> float: ...
    @property
    def x1(self) -> float: ...


def _word_line(line: Box) -> bool:
    """A line of running words (three or more, mostly letters), not a figure or a label."""
    text = line.text
    return len(text.split()) >= 3 and sum(map(str.isalpha, text)) >= 0.6 * len(text)  # map: C speed, every page


def column_edges(lines: Sequence[Box], width: float) -> list[float] | None:
    """Left edges of the page's text columns, left to right, when it has two or more; else None."""
    words = [ln for ln in lines if _word_line(ln)]
    if len(words) < MIN_WORD_LINES:
        return None
    snapped = Counter(round(ln.x0 / EDGE_SNAP) for ln in words)
    edges: list[float] = []
    for key, count in sorted(snapped.items()):
        near = count + snapped.get(key - 1, 0) + snapped.get(key + 1, 0)
        if count >= snapped.get(key - 1, 0) and count > snapped.get(key + 1, 0) and near >= MIN_SHARE * len(words):
            if edges and key * EDGE_SNAP - edges[-1] < MIN_SPACING * width:
                continue  # a column's indented lines (paragraph openings, code), not a column of its own
            edges.append(key * EDGE_SNAP)
    if len(edges) < MIN_COLUMNS:
        return None
    for k, edge in enumerate(edges[:-1]):
        own = [ln for ln in words if edge - EDGE_SNAP <= ln.x0 < edges[k + 1] - EDGE_SNAP]
        if sum(ln.x1 > edges[k + 1] for ln in own) > CROSSING * len(own):
            return None  # lines run across the next edge: a table's or an indent's start, not a column
    last = [ln for ln in words if ln.x0 >= edges[-1] - EDGE_SNAP]
    reach = edges[-1] + LAST_WIDER * (edges[-1] - edges[-2])
    if sum(ln.x1 > reach for ln in last) > CROSSING * len(last):
        return None  # the last "column" runs wider than the others: an indented block or a table's text
    return edges


def column_of(x0: float, edges: list[float]) -> int:
    """Index of the column a text starting at `x0` belongs to."""
    return max(0, bisect_right(edges, x0 + EDGE_SNAP) - 1)


def column_rights(lines: Sequence[Box], edges: list[float]) -> list[float]:
    """Right text edge of each column: the furthest a word line opening in it reaches short of the next edge
    (a row spanning the gutter is no column's). A line fills its column when it reaches this edge, which is how
    a wrapped sentence is told from a heading on a page of three columns (`heading_lines.sentence_goes_on`)."""
    reach = [float("-inf")] * len(edges)
    for line in lines:
        if _word_line(line):
            k = column_of(line.x0, edges)
            if (k + 1 == len(edges) or line.x1 < edges[k + 1]) and line.x1 > reach[k]:
                reach[k] = line.x1
    # a column without a line of words ends at the next one's edge (the last at its own)
    return [found if found > float("-inf") else edges[min(k + 1, len(edges) - 1)] for k, found in enumerate(reach)]


def column_range(x0: float, edges: list[float]) -> tuple[float, float]:
    """The x range of the column a text starting at `x0` sits in (its edge to the next one's)."""
    k = column_of(x0, edges)
    return edges[k] - EDGE_SNAP if k else -1e9, edges[k + 1] - EDGE_SNAP if k + 1 < len(edges) else 1e9


def spans_gutter(x0: float, x1: float, edges: list[float]) -> bool:
    """True when a text from `x0` to `x1` reaches past the next column's edge (a title across the columns)."""
    k = column_of(x0, edges)
    return k + 1 < len(edges) and x1 > edges[k + 1]


def reading_key(x0: float, y0: float, x1: float, spanning_tops: list[float], edges: list[float]) -> tuple[float, ...]:
    """Sort key reading a columned page: stretch by stretch between spanning rows, each column top-down."""
    if spans_gutter(x0, x1, edges):
        return (bisect_right(spanning_tops, y0), 0, 0, y0, x0)
    return (bisect_right(spanning_tops, y0), 1, column_of(x0, edges), y0, x0)
