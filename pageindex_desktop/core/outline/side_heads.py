"""Side heads: headings set in a margin column beside the text, on the baseline of their paragraph's first line.

FrameMaker manuals, many Word templates ("side heading") and datasheets hang their sub-headings in a wide left
margin ("Scope of the Review" at the margin, "The review covered ..." opening its paragraph at the text's edge on
the same line). Sharing a baseline with another text in the page's half, the head's row is marked crowded like a
table's cell or a run-in head (`rows.py`), which rules it out as a heading; a head wrapped onto two lines is read
line by line, each after the text line beside the one before.

A side head is told from a table's label column by where it stands and by what it stands beside:
- the page's text lines keep one left edge, and the margin column left of it holds few rows: a table's labels
  fill their column row after row;
- the head's lines lie wholly left of that edge, in one style, few words each, no sentence;
- its first line stands beside a line of words at the text's edge that opens a paragraph: a gap above it in the
  text column, and a capital first.
The layout pass then judges the head as one row, its wrapped lines joined, uncrowded: as a heading it still has
to be set apart by weight, size or another mark like any other.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from pageindex_desktop.core.outline.layout_evidence import same_baseline
from pageindex_desktop.core.outline.rows import Row

EDGE_SNAP = 2.0  # points: left edges this close are one text edge
TEXT_SHARE = 0.5  # of the page's lines of words that start at the text's edge
MIN_MARGIN = 40.0  # points the margin column reaches left of the text's edge
GUTTER = 6.0  # points a head ends short of the text's edge at least
MARGIN_SHARE = 0.3  # most margin rows per text row: a table's label column fills more
MAX_WORDS = 8  # of one side head's line
MAX_LINES = 3
PARAGRAPH_GAP = 0.6  # line heights of space above the paragraph a side head opens


def side_heads(rows: list[Row]) -> tuple[dict[int, Row], set[int]]:
    """The page's side heads: the index of each head's first row mapped to the head as one uncrowded row (its
    wrapped lines joined), and the indices of the further lines it took in."""
    if not any(row.crowded and row.text[:1].isupper() and not row.text[-1:].isdigit() for row in rows):
        return {}, set()  # no title-like row beside another: most pages (a table's cells end in figures)
    edge = _text_edge(rows)
    if edge is None:
        return {}, set()
    margin = [i for i, row in enumerate(rows) if row.x1 < edge - GUTTER]
    text = [row for row in rows if abs(row.x0 - edge) <= EDGE_SNAP or row.x0 > edge]
    if not margin or len(margin) > MARGIN_SHARE * len(text) or min(rows[i].x0 for i in margin) > edge - MIN_MARGIN:
        return {}, set()
    heads: dict[int, Row] = {}
    taken: set[int] = set()
    for lines in _groups(rows, margin):
        first = rows[lines[0]]
        if not first.crowded or not all(_head_line(rows[i], first) for i in lines):
            continue
        if not _opens_paragraph(first, text, edge):
            continue
        head = replace(first, crowded=False)
        for i in lines[1:]:
            line = rows[i]
            head = replace(head, text=f"{head.text} {line.text}", x1=max(head.x1, line.x1),
                           parts=head.parts + line.parts)
        heads[lines[0]] = head
        taken.update(lines[1:])
    return heads, taken


def _text_edge(rows: list[Row]) -> float | None:
    """The left edge most of the page's lines of words start at, when most do."""
    words = [row for row in rows if row.text.count(" ") >= 3]  # four words or more
    if len(words) < 6:
        return None
    edge, count = Counter(round(row.x0 / EDGE_SNAP) for row in words).most_common(1)[0]
    return edge * EDGE_SNAP if count >= TEXT_SHARE * len(words) else None


def _groups(rows: list[Row], margin: list[int]) -> list[list[int]]:
    """The margin rows in runs of lines one under the other in one style: one head each."""
    groups: list[list[int]] = []
    for i in margin:
        row = rows[i]
        if groups:
            last = rows[groups[-1][-1]]
            height = last.y1 - last.y0
            if (row.size, row.bold) == (last.size, last.bold) and 0 <= row.y0 - last.y1 <= 0.6 * height:
                groups[-1].append(i)
                continue
        groups.append([i])
    return [group for group in groups if len(group) <= MAX_LINES]


def _head_line(row: Row, first: Row) -> bool:
    """A line a side head can hold: few words, no sentence's stop at its end, in the first line's style."""
    text = row.text.strip()
    return (len(text.split()) <= MAX_WORDS and not text.endswith((".", ";", ","))
            and (row.size, row.bold) == (first.size, first.bold))


def _opens_paragraph(head: Row, text: list[Row], edge: float) -> bool:
    """True when the text line on the head's baseline starts at the text's edge with a capital and has space
    above it in the text column: the first line of the paragraph the head names."""
    beside = [row for row in text if abs(row.x0 - edge) <= EDGE_SNAP and same_baseline(row, head)]
    if len(beside) != 1 or not beside[0].text[:1].isupper() or len(beside[0].text.split()) < 3:
        return False
    line = beside[0]
    above = [row for row in text if row.y1 <= line.y0 + 0.5 and row.x0 < line.x1 and row is not line]
    if not above:
        return True
    return line.y0 - max(row.y1 for row in above) >= PARAGRAPH_GAP * (line.y1 - line.y0)
