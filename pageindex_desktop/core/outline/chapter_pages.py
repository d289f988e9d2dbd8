"""Chapter-page numbers ("3-12", "A-4"): manuals that restart their page count in every chapter and appendix.

A contents entry numbered "3-12" names no physical page by arithmetic: no offset turns it into one. The page
is the one whose printed label or margin folio reads "3-12", so both are read into one map from number to the
first physical page that prints it. The number's patterns live in numbering.py with the other page numbers.
"""

from __future__ import annotations

import re

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import Analysis
from pageindex_desktop.core.outline.numbering import CHAPTER_PAGE, CHAPTER_PAGE_NUMBER, normal_chapter_page
from pageindex_desktop.core.outline.running import MARGIN

# a margin folio showing one ("3-12", "Page 3-12", "- A-4 -")
_FOLIO = re.compile(rf"^(?:[-–—]\s+)?(?:page\s+)?(?P<n>{CHAPTER_PAGE_NUMBER})(?:\s+[-–—])?$", re.IGNORECASE)


def chapter_page_map(doc: ExtractedDocument, analysis: Analysis) -> dict[str, int]:
    """Chapter-page number -> the first physical page whose label or margin folio prints it."""
    pages: dict[str, int] = {}
    for page in doc.pages:
        if page.label and CHAPTER_PAGE.match(page.label.strip()):
            pages.setdefault(normal_chapter_page(page.label.strip()), page.number)
    for index, rows in enumerate(analysis.rows):
        height = doc.pages[index].height
        for row in rows:
            if len(row.text) > 20 or MARGIN * height < row.y0 and row.y1 < (1 - MARGIN) * height:
                continue
            m = _FOLIO.match(row.text.strip())
            if m:
                pages.setdefault(normal_chapter_page(m.group("n")), index + 1)
    return pages
