"""A small size step as a heading's emphasis: a report's sub-heading set in regular weight a point over the body
(11 pt over 10). It is not larger by the layout pass's measure (`heading_colour.larger_than_body`, 12 % or a
point and more) nor bold, so it read as a body line, and the tree lost that level and hung its sections' text
under the level above.

What tells such a size from a body line that happens to be set a little larger (a lead paragraph, a pull
quote, a table in a larger face) is what the document prints in it: only headings. A size counts when
- its rows at regular weight are short title lines, MIN_ROWS or more of them on two pages or more;
- none of them is a line of prose, and no run of more than WRAPPED of them stands one under the other (a
  paragraph, a list or a table set in that size is text, wherever one of its lines looks like a title).
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
    or more and none of them is a text line, crowded, `unfit`, or the third of a run stacked one under the other."""
    rows_by_face: dict[float, list[Row]] = defaultdict(list)
    spoilt: set[float] = set()
    for rows in pages:
        run_face, run = None, 0
        for row in rows:
            key = face(row)
            if key is None:
                run_face, run = None, 0
                continue
            run = run + 1 if key == run_face else 1
            run_face = key
            if run > WRAPPED or row.crowded or text_line(row.text) or unfit(row):
                spoilt.add(key)
            rows_by_face[key].append(row)
    return frozenset(key for key, rows in rows_by_face.items() if key not in spoilt and len(rows) >= MIN_ROWS
                     and len({row.page for row in rows}) >= MIN_PAGES)


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
