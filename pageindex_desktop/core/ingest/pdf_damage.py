"""What MuPDF's repair of a damaged PDF lost: pages the file declares that cannot be read.

MuPDF repairs a file whose cross-reference table is broken by scanning it for objects, and then opens it as if
nothing happened. Objects that were cut, overwritten or shifted are gone, so a page may be a null object, name
a content stream that is no longer a stream or no longer decodes, or not exist at all although the page tree
counts it. Such pages would import with no text and look like scans; instead the document carries a note
("repaired: 25 of 28 pages readable"). Runs in the extraction child (it loads MuPDF).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pymupdf

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Damage:
    """A repaired file's pages: how many it declares and has, and which of those (0-based) cannot be read, some
    of them not even loaded."""

    declared: int
    page_count: int
    unreadable: frozenset[int]
    unloadable: frozenset[int]

    @property
    def readable(self) -> int:
        """Pages whose text could be read."""
        return self.page_count - len(self.unreadable)

    def note(self) -> str:
        """'repaired: R of D pages readable' when the repair lost pages, else ''."""
        if self.readable >= self.declared:
            return ""
        return f"repaired: {self.readable} of {self.declared} pages readable"


def _declared(doc: pymupdf.Document) -> int:
    """Pages the file declares: MuPDF's count, or the root page tree's /Count when it is larger and plausible
    (no more pages than the file has objects)."""
    count = doc.page_count
    try:
        kind, ref = doc.xref_get_key(doc.pdf_catalog(), "Pages")
        if kind == "xref":
            kind, value = doc.xref_get_key(int(ref.split()[0]), "Count")
            if kind == "int" and count < int(value) < doc.xref_length():
                return int(value)
    except Exception:  # the catalog or the tree's root is itself damaged: MuPDF's count is all we have
        log.debug("page tree root unreadable", exc_info=True)
    return count


def _content_readable(doc: pymupdf.Document, xref: int) -> bool:
    """True when content stream `xref` is a stream whose data decodes without MuPDF reporting an error (a cut
    Flate stream decodes partly: MuPDF says 'zlib error ... treating as end of file' and goes on). What MuPDF
    says it ignores ('ignoring zlib error: incorrect data check': the data came out whole, only the checksum
    after it is off) does not count."""
    if not doc.xref_is_stream(xref):
        return False
    pymupdf.TOOLS.mupdf_warnings(reset=True)
    try:
        data = doc.xref_stream(xref)
    except Exception:
        return False
    said = pymupdf.TOOLS.mupdf_warnings(reset=True).lower().splitlines()
    return data is not None and not any("error" in line and not line.startswith("ignoring") for line in said)


def _page_readable(doc: pymupdf.Document, index: int) -> bool | None:
    """True when page `index` is a page object whose content streams are all readable; False when it is a null
    object or a content stream is broken; None when MuPDF cannot load it at all."""
    try:
        page = doc.load_page(index)
    except Exception:
        return None
    try:
        if not doc.xref_get_keys(page.xref):
            return False
        return all(_content_readable(doc, xref) for xref in page.get_contents())
    except Exception:
        return False


def assess(doc: pymupdf.Document) -> Damage:
    """Which pages of a repaired document cannot be read (call only when `doc.is_repaired`: a sound file's pages
    are read as they are, and its page tree problems stay failures).

    The declared count is read first: once a page the tree counts turns out not to exist, MuPDF falls back to
    walking the tree and its page count drops to the pages it found (28 declared, 25 after the walk), which
    are the pages the document then has."""
    declared = _declared(doc)
    unreadable: set[int] = set()
    unloadable: set[int] = set()
    for index in range(doc.page_count):
        readable = _page_readable(doc, index)
        if readable is None:
            unloadable.add(index)
        if not readable:
            unreadable.add(index)
    count = doc.page_count
    return Damage(max(declared, count), count, frozenset(i for i in unreadable if i < count),
                  frozenset(i for i in unloadable if i < count))
