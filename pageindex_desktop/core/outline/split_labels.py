"""A division's label set on two lines: the word over its number ("CHAPTER" over "ONE", Sphinx's LaTeX
chapters in fncychap's Bjarne style; "PART" over "II").

Each line alone is no heading, the word has no number and the number no word, and both were kept as
headings of their own over the chapter's title. Read as one line they are the keyword label "CHAPTER ONE",
which the layout pass joins to the title under it like any "Chapter 3" line.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.numbering import STRONG_KINDS, leading_number
from pageindex_desktop.core.outline.rows import Row


def label_over_number(label: Row, number: Row, running: bool) -> bool:
    """True when `label` is a bare division word ("CHAPTER", "Part") and `number` its number alone on the
    line right under it ("ONE", "3", "II"), on one page, neither a running header nor a table cell."""
    if running or label.crowded or number.crowded or label.page != number.page:
        return False
    if len(label.text.split()) != 1 or len(number.text.split()) != 1 or leading_number(label.text) is not None:
        return False
    num = leading_number(f"{label.text} {number.text}")
    if num is None or not num.kind.startswith("keyword") or num.rest:
        return False
    height = number.y1 - number.y0
    return 0 <= number.y0 - label.y1 <= 1.5 * height


def number_above(number: Row, row: Row, running: bool) -> bool:
    """True when `number` is a bare section number ("2.1", "IV", "3.") printed on its own line just above the
    title `row`, starting where the title starts or to its left: one heading, "2.1 Sampling Plan".

    A page number, a table cell or a number to the right of the title's start is not the title's number."""
    if running or number.crowded or row.crowded or number.page != row.page or len(number.text) > 8:
        return False
    num = leading_number(number.text)
    if num is None or num.rest or num.kind not in STRONG_KINDS or leading_number(row.text) is not None:
        return False
    height = row.y1 - row.y0
    if not 0 <= row.y0 - number.y1 <= 0.8 * height or number.x0 > row.x0 + 2 or row.x0 - number.x0 > 4 * height:
        return False
    return row.text[:1].isupper() and abs(number.size - row.size) <= 2
