"""The embedded outline as (level, title, page) rows, every target MuPDF's page column misses resolved.

`get_toc(simple=True)` gives page 0 or -1 for an entry whose target MuPDF did not turn into a page: a
named destination (a string looked up in the catalog's /Names /Dests tree) in a file whose catalog also has a
PDF 1.1 /Dests dictionary (MuPDF then looks only in the dictionary), and every kind of target that does not
lead into the document. Those entries are read again from the detailed outline, whose link dicts resolve a
name through both places (`Document.resolve_names`), and the rest are told apart: a target inside the document
that names no page (no action, a JavaScript or relative "NextPage" action, a name no destination carries) is 0,
so the tree can keep the entry where it stands; one that leads out of it (a web address, another file, a
program) is -1 and is not a section of this document. The detailed outline is read only when some entry needs
it: it costs a dictionary walk per entry and a name-tree walk.
"""

from __future__ import annotations

import logging
from typing import Any

import pymupdf

from pageindex_desktop.core.ingest.pdf_pages import clean_title

log = logging.getLogger(__name__)

NO_PAGE = 0  # the target is inside the document but names no page
OUTSIDE = -1  # the target leads out of the document
_OUTWARD = {pymupdf.LINK_URI, pymupdf.LINK_LAUNCH, pymupdf.LINK_GOTOR}


def read_outline(doc: pymupdf.Document) -> list[tuple[int, str, int]]:
    """Embedded bookmarks as (level, cleaned title, 1-based page, NO_PAGE or OUTSIDE); [] when unreadable."""
    try:
        raw = doc.get_toc(simple=True)
        if any(int(entry[2]) < 1 for entry in raw):
            raw = [[level, title, _target(doc, int(page), link)]
                   for level, title, page, link in doc.get_toc(simple=False)]
    except Exception:
        log.warning("outline could not be read", exc_info=True)
        return []
    return [(int(level), clean_title(str(title)), int(page)) for level, title, page in raw]


def _target(doc: pymupdf.Document, page: int, link: dict[str, Any]) -> int:
    """An entry's 1-based page from its detailed link dict when MuPDF's page column had none."""
    if page >= 1:
        return page
    kind = link.get("kind")
    if kind in _OUTWARD:
        return OUTSIDE
    index = link.get("page")  # 0-based; for a named destination filled in from resolve_names
    if kind in (pymupdf.LINK_GOTO, pymupdf.LINK_NAMED) and isinstance(index, int) and 0 <= index < doc.page_count:
        return index + 1
    return NO_PAGE
