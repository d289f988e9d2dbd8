"""The first section heading printed inside the first page's title block (issue 11, remaining class 2).

Rows of the first page above its first body line are the title block (title, authors, date) and are no
sections. A report often sets its first section ("Executive Summary", "Introduction") right under that block
with no section number, so it falls inside it and the document loses its first section. What sets it apart
from the block's own lines: it is the block's last row (or rows, wrapped in one style), directly over the
body text, set below a larger title, in the very style of headings found further on. A subtitle or a date is
set in a style no later heading shares, or stands apart from the body.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from pageindex_desktop.core.outline.layout_filters import Candidate
from pageindex_desktop.core.outline.numbering import STRONG_KINDS, leading_number, ordinal
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.size_scale import SizeScale

TITLE_LARGER = 0.5  # a row above it is set at least this much larger: the block's title
WRAPPED = 2  # lines of one style a heading at the foot of the block may run to
GAP_HEIGHTS = 3.0  # the body starts within this many of its line heights under it


def block_end(rows: list[Row], body: float) -> int:
    """Index of the first body-text row of the first page: rows above it (title, authors) are not sections."""
    for i, row in enumerate(rows):
        if abs(row.size - body) < 0.6 and not row.bold and len(row.text) >= 60:
            return i
        num = leading_number(row.text)
        if num is not None and num.kind in STRONG_KINDS and num.rest and i > 0 and ordinal(num) == 1 and (
            row.bold or row.size > body + 1 or num.rest.isupper()
        ):
            return i  # "1 Introduction" right under the title block
    return len(rows)


def block_heading(
    rows: list[Row], start: int, later: list[Candidate], sizes: SizeScale, judge: Callable[[Row], Candidate | None]
) -> Candidate | None:
    """The heading at the foot of the title block `rows[:start]`, judged by `judge`, or None (see the module
    docstring); `later` are the headings found after the block. Styles are compared by the document's size
    clusters (`sizes`): a heading at 14.4 pt has the style of the later ones at 14.6."""
    if start < 2 or start >= len(rows):
        return None  # no title above it, or no body under it (a cover page is all block)
    first = start - 1
    style = (sizes.key(rows[first].size), rows[first].bold)
    while first > start - WRAPPED and first > 1 and (sizes.key(rows[first - 1].size), rows[first - 1].bold) == style:
        first -= 1
    row = rows[first]
    if not any(r.size >= row.size + TITLE_LARGER for r in rows[:first]):
        return None
    last = rows[start - 1]
    if rows[start].y0 - last.y1 > GAP_HEIGHTS * (last.y1 - last.y0):
        return None
    text = " ".join(dict.fromkeys(r.text.strip() for r in rows[first:start]))  # a line printed twice once
    cand = judge(replace(row, text=text))
    if cand is None or (sizes.key(cand.row.size), *cand.style[1:]) not in {
            (sizes.key(c.row.size), *c.style[1:]) for c in later}:
        return None
    cand.last_index = start - 1
    cand.bottom = last.y1
    return cand
