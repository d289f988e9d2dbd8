"""The embedded outline as (level, title, page) rows, every target MuPDF's page column misses resolved.

`get_toc(simple=True)` gives page 0 or -1 for an entry whose target MuPDF did not turn into a page: a
named destination (a string looked up in the catalog's /Names /Dests tree) in a file whose catalog also has a
PDF 1.1 /Dests dictionary (MuPDF then looks only in the dictionary), and every kind of target that does not
lead into the document. Those entries are read again from the detailed outline, whose link dicts resolve a
name through both places (`Document.resolve_names`); an item whose first action is no jump (a script, a layer
switch) is followed along its /Next chain to the first /GoTo. The rest are told apart: a target inside the
document that names no page (no action, a script or a relative "NextPage" action with no jump after it, a name
no destination carries) is 0, so the tree can keep the entry where it stands; one that leads out of it (a web
address, another file, a program) is -1 and is not a section of this document. The detailed outline is read
only when some entry needs it: it costs a dictionary walk per entry and a name-tree walk.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import pymupdf

from pageindex_desktop.core.ingest.pdf_pages import clean_title

log = logging.getLogger(__name__)

NO_PAGE = 0  # the target is inside the document but names no page
OUTSIDE = -1  # the target leads out of the document
_OUTWARD = {pymupdf.LINK_URI, pymupdf.LINK_LAUNCH, pymupdf.LINK_GOTOR}
MAX_ACTIONS = 16  # actions followed along one item's chain (a chain can loop)
_REFERENCE = re.compile(r"(\d+) 0 R")


def read_outline(doc: pymupdf.Document) -> list[tuple[int, str, int]]:
    """Embedded bookmarks as (level, cleaned title, 1-based page, NO_PAGE or OUTSIDE); [] when unreadable.

    When the detailed outline cannot be read (or disagrees in length), entries MuPDF gave no page keep OUTSIDE,
    as they did before targets were resolved, instead of losing the whole outline.
    """
    try:
        raw = [(int(level), str(title), int(page)) for level, title, page in doc.get_toc(simple=True)]
    except Exception:
        log.warning("outline could not be read", exc_info=True)
        return []
    if any(page < 1 for _, _, page in raw):
        raw = [(level, title, page if page >= 1 else OUTSIDE) for level, title, page in raw]
        try:
            detailed = doc.get_toc(simple=False)
            if len(detailed) == len(raw):
                pages: dict[int, int] = {}  # page object -> 0-based index, filled when a chained jump needs it
                raw = [(level, title, _target(doc, page, entry[3], pages))
                       for (level, title, page), entry in zip(raw, detailed)]
        except Exception:
            log.warning("outline targets could not be resolved", exc_info=True)
    return [(level, clean_title(title), page) for level, title, page in raw]


def _target(doc: pymupdf.Document, page: int, link: dict[str, Any], pages: dict[int, int]) -> int:
    """An entry's 1-based page from its detailed link dict when MuPDF's page column had none."""
    if page >= 1:
        return page
    kind = link.get("kind")
    if kind in _OUTWARD:
        return OUTSIDE
    index = link.get("page")  # 0-based; for a named destination filled in from resolve_names
    if kind in (pymupdf.LINK_GOTO, pymupdf.LINK_NAMED) and isinstance(index, int) and 0 <= index < doc.page_count:
        return index + 1
    if kind == pymupdf.LINK_NONE and isinstance(link.get("xref"), int) and link["xref"] > 0:
        return _chained_page(doc, link["xref"], pages)
    return NO_PAGE


def _chained_page(doc: pymupdf.Document, item: int, pages: dict[int, int]) -> int:
    """The page of the first /GoTo along an outline item's action chain (its /A, then each /Next in turn);
    OUTSIDE when the chain only leads out of the document, else NO_PAGE. MuPDF reads only the first action, so a
    script or layer switch followed by a jump had no page."""
    pending: list[tuple[int, str]] = [(item, "A/")]  # (object, key path to an action inside it)
    outward = False
    for _ in range(MAX_ACTIONS):
        if not pending:
            break
        xref, path = pending.pop(0)
        action = doc.xref_get_key(xref, f"{path}S")[1]
        if action == "/GoTo":
            kind, value = doc.xref_get_key(xref, f"{path}D")
            return _destination_page(doc, kind, value, pages)
        outward = outward or action in ("/URI", "/Launch", "/GoToR")
        kind, value = doc.xref_get_key(xref, f"{path}Next")
        if kind == "dict" or kind == "xref":
            pending.append((xref, f"{path}Next/"))
        elif kind == "array":  # several actions in turn: only references can be followed by key path
            pending.extend((int(ref), "") for ref in _REFERENCE.findall(value))
    return OUTSIDE if outward else NO_PAGE


def _destination_page(doc: pymupdf.Document, kind: str, value: str, pages: dict[int, int]) -> int:
    """A /GoTo's /D as a 1-based page: [page-object ...], [0-based index ...] (as MuPDF reads it), or a name
    looked up like any named destination; NO_PAGE when it names none."""
    if kind == "array":
        if match := _REFERENCE.match(value.lstrip("[ ")):
            if not pages:
                pages.update((doc.page_xref(n), n) for n in range(doc.page_count))
            index = pages.get(int(match.group(1)), -1)
        else:
            number = value.lstrip("[ ").split(" ", 1)[0]
            index = int(number) if number.isdigit() else -1
    elif kind in ("string", "name"):
        found = doc.resolve_names().get(value.lstrip("/") if kind == "name" else value, {})
        index = found.get("page", -1) if isinstance(found, dict) else -1
    else:
        index = -1
    return index + 1 if isinstance(index, int) and 0 <= index < doc.page_count else NO_PAGE
