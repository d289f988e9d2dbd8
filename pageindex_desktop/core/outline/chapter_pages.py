"""Chapter-page numbers ("3-12", "A-4"): manuals that restart their page count in every chapter and appendix.

A contents entry numbered "3-12" names no physical page by arithmetic: no offset turns it into one. The page
is the one whose printed label or margin folio reads "3-12", so both are read into one map from number to the
first physical page that prints it.
"""

from __future__ import annotations

import re

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import Analysis
from pageindex_desktop.core.outline.running import MARGIN

_NUMBER = r"(?:[0-9]{1,2}|[A-Z]{1,2})[-–][0-9]{1,3}"
CHAPTER_PAGE = re.compile(rf"^{_NUMBER}$")
# a contents row ending in one, after dot leaders or white space
_TRAILING = re.compile(rf"(?:\s*(?:\.\s?|…|·|_){{2,}}\s*|\s+)(?P<page>{_NUMBER})\s*$")
# a margin folio showing one ("3-12", "Page 3-12", "- A-4 -")
_FOLIO = re.compile(rf"^(?:[-–—]\s+)?(?:page\s+)?(?P<n>{_NUMBER})(?:\s+[-–—])?$", re.IGNORECASE)


def split_chapter_page(text: str) -> tuple[str, str] | None:
    """(title, chapter-page number) of a contents row ending in one ("Network Settings .... 2-2"), else None."""
    m = _TRAILING.search(text)
    if m is None or m.start() == 0:
        return None
    return text[: m.start()].rstrip(" .…·_-\t"), _normal(m.group("page"))


def chapter_page_map(doc: ExtractedDocument, analysis: Analysis) -> dict[str, int]:
    """Chapter-page number -> the first physical page whose label or margin folio prints it."""
    pages: dict[str, int] = {}
    for page in doc.pages:
        if page.label and CHAPTER_PAGE.match(page.label.strip()):
            pages.setdefault(_normal(page.label.strip()), page.number)
    for index, rows in enumerate(analysis.rows):
        height = doc.pages[index].height
        for row in rows:
            if len(row.text) > 20 or MARGIN * height < row.y0 and row.y1 < (1 - MARGIN) * height:
                continue
            m = _FOLIO.match(row.text.strip())
            if m:
                pages.setdefault(_normal(m.group("n")), index + 1)
    return pages


def _normal(number: str) -> str:
    """One spelling per number: en dash as hyphen, letters in upper case."""
    return number.replace("–", "-").upper()
