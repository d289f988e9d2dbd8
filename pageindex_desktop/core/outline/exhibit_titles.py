"""An exhibit's own title page ("Exhibit 31.1" alone at the head of its page): a section, not a caption.

Filings end with their exhibits (consents, certifications, subsidiaries lists), each opening a page under a
bare "Exhibit 23.1" line set above everything else on it. The caption rule in layout.py reads "Exhibit 99.1"
as a figure's or table's caption, which it is in the body of a report ("Exhibit 3: Revenue by segment"
under a chart, or anywhere down a page); at the head of a page with nothing after its number it names the
document that page begins, and readers of a filing navigate by it. Such titles sit beside the filing's parts,
not under its last item, so they get a kind of their own that `division_levels` ranks with the parts.
"""

from __future__ import annotations

import re

from pageindex_desktop.core.outline.rows import Row

EXHIBIT_PAGE = "keyword:exhibit-page"
# "Exhibit 31.1", "EXHIBIT 99", "Exhibit 10.13A", "Exhibit 4.1." and nothing after the number
_BARE_EXHIBIT = re.compile(r"^exhibit\s+[0-9]{1,3}(?:\.[0-9]{1,3})?[A-Za-z]?\.?$", re.IGNORECASE)


def is_exhibit_title(row: Row, page_top: float, body: float) -> bool:
    """True when `row` is a bare "Exhibit N" set in bold, larger or capitals, above every other text of its
    page but running headers and footers (`page_top` is the top of the highest such text)."""
    text = row.text.strip()
    if row.crowded or _BARE_EXHIBIT.match(text) is None:
        return False
    if not (row.bold or row.size >= body + 1.0 or text[:7].isupper()):
        return False
    return row.y0 <= page_top + 0.5
