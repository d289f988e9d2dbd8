"""A small size step as a heading's emphasis: a report's sub-heading set in regular weight a point over the body
(11 pt over 10). It is not larger by the layout pass's measure (`heading_colour.larger_than_body`, 12 % or a
point and more) nor bold, so it read as a body line, and the tree lost that level and hung its sections' text
under the level above.

What tells such a size from a body line that happens to be set a little larger (a lead paragraph, a pull
quote, a table in a larger face) is what the document prints in it: only headings. A size counts when
- its rows at regular weight are short title lines, MIN_ROWS or more of them on two pages or more;
- none of them is a line of prose, and no run of more than WRAPPED of them stands one under the other (a
  paragraph, a list or a table set in that size is text, wherever one of its lines looks like a title),
  unless the run is one long title wrapped in a narrow column, each line but its last filling the column.
Rows in such a size read as bold (as `heading_colour` and `heading_underline` do for a colour and a rule), and
the layout rules judge them as they judge a bold sub-heading at about the body's size. The test of a face that
prints only headings is `faces_of_headings`, which `heading_italic` applies to italic at the body's size.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Callable

from pageindex_desktop.core.outline.heading_colour import PROSE_WORDS, SHORT_ROW, larger_than_body
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.size_scale import SizeScale, larger_by
from pageindex_desktop.core.outline.title_shape import prose

STEP = 0.5  # points over a 10 pt body (scaled with it) a size must stand above the body
MIN_ROWS = 3
MIN_PAGES = 2
WRAPPED = 2  # lines one heading may wrap to
_ENDS_SENTENCE = (".", ",", ";", ":", "。", "，", "；", "：")


def heading_sizes(pages: list[list[Row]], body: float, sizes: SizeScale) -> frozenset[float]:
    """The size keys (`sizes.key`) whose regular rows are all headings in this document (module docstring)."""
    # sizes.key only for the few rows a step over the body: most rows are body text
    return faces_of_headings(pages, lambda row: None if row.bold or not _stepped(row.size, body)
                             else sizes.key(row.size))


def faces_of_headings(pages: list[list[Row]], face: Callable[[Row], float | None],
                      unfit: Callable[[Row], bool] = lambda row: False) -> frozenset[float]:
    """The faces that print only headings: `face` gives the face (a size key) a row is set in among those in
    question, None for every other row; a face counts when MIN_ROWS or more of its rows stand on MIN_PAGES pages
    or more and none of them is a text line, crowded, `unfit`, or the third of a run stacked one under the other
    that is not one title wrapped in a narrow column (`_wrapped_title`)."""
    rows_by_face: dict[float, list[Row]] = defaultdict(list)
    spoilt: set[float] = set()
    for rows in pages:
        run_face: float | None = None
        run: list[Row] = []
        for row in rows:
            key = face(row)
            if key is None:
                run_face, run = None, []
                continue
            if key == run_face:
                run.append(row)
            else:
                run_face, run = key, [row]
            if row.crowded or text_line(row.text) or unfit(row):
                spoilt.add(key)
            rows_by_face[key].append(row)
            # a long title wrapped in a narrow column is one heading; a list of short lines is not
            if len(run) > WRAPPED and not _wrapped_title(run, rows):
                spoilt.add(key)
    return frozenset(key for key, rows in rows_by_face.items() if key not in spoilt and len(rows) >= MIN_ROWS
                     and len({row.page for row in rows}) >= MIN_PAGES)


def _wrapped_title(run: list[Row], rows: list[Row]) -> bool:
    """`run`, rows one under the other in one face, is a single title wrapped in a narrow column (a two-column
    report's long heading over three lines): at most MAX_WRAPPED lines, each but the last filling most of its
    column (FILLED of the widest line of the page starting where it starts), the last not ending a sentence,
    each one text. A list's short lines, a table's rows or a paragraph are no such run."""
    if len(run) > MAX_WRAPPED or run[-1].text.rstrip().endswith(_ENDS_SENTENCE) or any(r.parts > 1 for r in run):
        return False  # a row of parts is a table's label and its cells ("Staff  12"), read as one line
    x0 = run[0].x0
    widest = max((r.x1 - r.x0 for r in rows if abs(r.x0 - x0) <= 2), default=0.0)
    return all(abs(r.x0 - x0) <= 2 and r.x1 - r.x0 >= FILLED * widest for r in run[:-1])


MAX_WRAPPED = 4  # lines a long title wrapped in a narrow column may take
FILLED = 0.7  # share of its column's width a wrapped title's line (not its last) fills


def with_size_emphasis(row: Row, marked: frozenset[float], sizes: SizeScale) -> Row:
    """The row read as bold when it is set in regular weight in one of the `marked` sizes (`heading_sizes`)."""
    return replace(row, bold=True) if not row.bold and marked and sizes.key(row.size) in marked else row


def _stepped(size: float, body: float) -> bool:
    """A size a step over the body but not larger by the layout's measure: where only this module sees a heading."""
    return larger_by(size, body, STEP) and not larger_than_body(size, body)


def text_line(text: str) -> bool:
    """A row that reads as running text: long, a sentence of PROSE_WORDS words or more, or ending like one."""
    stripped = text.strip()
    return (len(stripped) > SHORT_ROW or len(stripped.split()) >= PROSE_WORDS and prose(stripped)
            or stripped.endswith(_ENDS_SENTENCE))
