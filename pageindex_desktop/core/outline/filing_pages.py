"""Pages a filing's readers jump to that the layout rules took for something else: an exhibit's own title page
("Exhibit 31.1" alone at the head of its page), a section, not a caption; and the filing's table of contents.

Filings end with their exhibits (consents, certifications, subsidiaries lists), each opening a page under a
bare "Exhibit 23.1" line set above everything else on it. The caption rule in layout.py reads "Exhibit 99.1"
as a figure's or table's caption, which it is in the body of a report ("Exhibit 3: Revenue by segment"
under a chart, or anywhere down a page); at the head of a page with nothing after its number it names the
document that page begins, and readers of a filing navigate by it. Such titles sit beside the filing's parts,
not under its last item, so they get a kind of their own that `division_levels` puts at the top level.

A filing (three or more "Item" divisions on three or more pages: the SEC forms' layout) is navigated by its
table of contents: each page links back to it and its bookmarks list it. Its heading ("Table of Contents") is
then a section beside the parts. Elsewhere (a thesis, a manual) the contents page is front matter that the
authors' outline leaves out, so there it stays none.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from pageindex_desktop.core.outline.layout_filters import CONTENTS_PAGE, EXHIBIT_PAGE, Candidate
from pageindex_desktop.core.outline.rows import Row

FILING_ITEMS = 3  # "Item" headings, on as many pages, that make a document a filing
# "Exhibit 31.1", "EXHIBIT 99", "Exhibit 10.13A", "Exhibit 4.1." and nothing after the number
_BARE_EXHIBIT = re.compile(r"^exhibit\s+[0-9]{1,3}(?:\.[0-9]{1,3})?[A-Za-z]?\.?$", re.IGNORECASE)


def is_exhibit_title(row: Row, body: float, page_top: Callable[[], float]) -> bool:
    """True when `row` is a bare "Exhibit N" set in bold, larger or capitals, above every other text of its
    page but running headers and footers (`page_top` gives the top of the highest such text; asked last, as
    it walks the page)."""
    text = row.text.strip()
    if row.crowded or _BARE_EXHIBIT.match(text) is None:
        return False
    if not (row.bold or row.size >= body + 1.0 or text[:7].isupper()):
        return False
    return row.y0 <= page_top() + 0.5


def contents_heading(heading: Row, rows: list[Row]) -> Candidate | None:
    """The candidate for the printed contents list's own heading, found among its page's `rows`; None when the
    heading is not one of them. The rows of the list itself are entries, never headings."""
    for i, row in enumerate(rows):
        text = row.text.strip()
        if abs(row.y0 - heading.y0) < 1.0 and text and heading.text.startswith(text[:8]):
            return Candidate(row, text, (round(row.size), row.bold, CONTENTS_PAGE), last_index=i, bottom=row.y1)
    return None


def with_filing_contents(candidates: list[Candidate], contents: Candidate | None) -> list[Candidate]:
    """`candidates` with the contents heading `contents` in its place when the document is a filing
    (FILING_ITEMS "Item" headings on as many pages). It is added after the other rules have run, so it weighs
    in none of their counts (how much of the document is numbered, how many headings a page holds)."""
    if contents is None:
        return candidates
    items = Counter(c.row.page for c in candidates if c.style[2] == "keyword:item")
    if sum(items.values()) < FILING_ITEMS or len(items) < FILING_ITEMS:
        return candidates
    at = next((k for k, c in enumerate(candidates)
               if (c.row.page, c.row.y0) > (contents.row.page, contents.row.y0)), len(candidates))
    return [*candidates[:at], contents, *candidates[at:]]
