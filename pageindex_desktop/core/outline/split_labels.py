"""A division's label set on two lines: the word over its number ("CHAPTER" over "ONE", Sphinx's LaTeX
chapters in fncychap's Bjarne style; "PART" over "II").

Each line alone is no heading, the word has no number and the number no word, and both were kept as
headings of their own over the chapter's title. Read as one line they are the keyword label "CHAPTER ONE",
which the layout pass joins to the title under it like any "Chapter 3" line.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.numbering import leading_number
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
