"""Capitals as a heading's emphasis: a memo's, a contract's or a government report's sub-heading typed in capitals
at the body's size and weight ("SCOPE OF THE REVIEW", "BACKGROUND"). By size and weight alone it reads as a body
line, so the tree lost that level and hung its sections' text under the level above.

Capitals print much else: acronyms, a table's labels, a signature block's names, a legal notice. What tells a face
of headings from those is the test a small size step and italic use (`heading_size.faces_of_headings`): every row
the document sets in capitals at that size is a short title line, on two pages or more, none of them prose or
ending like a sentence or a label ("ASSETS:"), none stacked three deep (an address), none crowded by a table's
cells on its baseline, and each set apart from the line over it in its column unless that line is its own
first (a typed heading stands after a blank line; a signature block's "TIMOTHY D. COOK" sits right under "/s/
Timothy D. Cook"). A notice in capitals anywhere ("THE SECURITIES OFFERED HEREBY ...") keeps the document's
capitals read as text. Rows without a word of three letters ("FY", "Q3 2023") and captions count neither way. A
face that numbers any of its rows ("I. INTRODUCTION") is the numbering's to judge (a paper's small-capitals
sections, whose unnumbered "REFERENCES" `layout_filters.numbered_system` keeps in their face); it is not marked.
"""

from __future__ import annotations

from dataclasses import replace

from pageindex_desktop.core.outline.heading_colour import larger_than_body
from pageindex_desktop.core.outline.heading_lines import CAPTION
from pageindex_desktop.core.outline.heading_size import faces_of_headings
from pageindex_desktop.core.outline.numbering import leading_number
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.size_scale import SizeScale

BELOW_BODY = 0.5  # points a heading in capitals may sit under the body's size
MIN_WORD = 3  # letters of the longest word: fewer is an acronym or a code
APART = 0.5  # of its height: the space over a heading in capitals, more than a line of text leaves


def heading_capitals(pages: list[list[Row]], body: float, sizes: SizeScale) -> frozenset[float]:
    """The size keys (`sizes.key`) whose regular rows in capitals at about the body's size are all headings."""
    tight: set[int] = set()  # ids of rows in question right under a line of another face
    for rows in pages:
        for row in rows:
            if not _in_question(row, body):
                continue
            above = max((r for r in rows if r.y0 < row.y0 - 1 and min(row.x1, r.x1) > max(row.x0, r.x0)),
                        key=lambda r: r.y0, default=None)  # the nearest line over it in its column
            if above is not None and not _in_question(above, body) and \
                    row.y0 - above.y1 < APART * (row.y1 - row.y0):
                tight.add(id(row))
    return faces_of_headings(pages, lambda row: sizes.key(row.size) if _in_question(row, body) else None,
                             lambda row: id(row) in tight or leading_number(row.text) is not None)


def with_capitals_emphasis(row: Row, marked: frozenset[float], body: float, sizes: SizeScale) -> Row:
    """The row read as bold when it is set in capitals at about the body's size in one of the `marked` faces."""
    if marked and _in_question(row, body) and sizes.key(row.size) in marked:
        return replace(row, bold=True)
    return row


def _in_question(row: Row, body: float) -> bool:
    """A regular upright row in capitals at about the body's size that is words, not a caption or a code."""
    return (not row.bold and not row.italic and row.size >= body - BELOW_BODY and not larger_than_body(row.size, body)
            and row.text.isupper() and not CAPTION.match(row.text)
            and max((sum(ch.isalpha() for ch in word) for word in row.text.split()), default=0) >= MIN_WORD)
