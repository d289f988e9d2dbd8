"""Numbered lists in the body: a Word report's "1. Improve the Sampling Network", "2. Publish Quarterly
Results" in the body's face and size read as numbered headings, one per item, and filled the tree (36 headings
for 12 sections on a built report).

What sets a list apart from numbered headings in the body's face: its items follow one another line after
line, counting on (1, 2, 3) at one indentation in one numbering style, with no space and no text between them;
a numbered heading has its paragraph under it. Only plain items are judged (not bold, not larger than the
body), and not a keyword's ("Item 15." over "Item 16." with no text of its own is a filing's division, not a
list): a heading set apart by weight or size is one whatever follows it.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.heading_colour import larger_than_body
from pageindex_desktop.core.outline.layout_filters import Candidate, counter_numbered
from pageindex_desktop.core.outline.numbering import leading_number, ordinal

ITEM_GAP = 0.8  # line heights: the next item starts within this far under the last line of the one before
SAME_INDENT = 2.0  # points


def _plain_numbered(cand: Candidate, body: float) -> int | None:
    """The item's count when `cand` is a row numbered by a counter, not a keyword, in the body's weight and
    size, else None."""
    if larger_than_body(cand.row.size, body) or not counter_numbered(cand):
        return None
    num = leading_number(cand.text)
    return ordinal(num) if num is not None else None


def _next_item(a: Candidate, b: Candidate, counts: tuple[int | None, int | None]) -> bool:
    """True when `b` is the list item right after `a`: same page, style and indentation, counting on by one,
    starting right under `a`'s last line."""
    first, second = counts
    if first is None or second is None or second != first + 1:
        return False
    if a.row.page != b.row.page or a.style != b.style or abs(a.row.x0 - b.row.x0) > SAME_INDENT:
        return False
    height = a.row.y1 - a.row.y0
    return -0.5 * height <= b.row.y0 - a.bottom <= ITEM_GAP * height  # tightly set boxes overlap a little


def drop_list_items(candidates: list[Candidate], body: float) -> list[Candidate]:
    """The candidates without the items of numbered lists (see the module docstring)."""
    counts = [_plain_numbered(c, body) for c in candidates]
    listed: set[int] = set()
    for i in range(len(candidates) - 1):
        if _next_item(candidates[i], candidates[i + 1], (counts[i], counts[i + 1])):
            listed.update((i, i + 1))
    return [c for i, c in enumerate(candidates) if i not in listed]
