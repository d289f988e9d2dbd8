"""Open and validate a PDF and extract, per page, the text, the printed label and the text lines with layout facts.

This module loads MuPDF, so it runs in the indexer's child process (pymupdf must never run on two threads at
once, and a malformed file must not take the GUI down). Each page is walked once: a single `get_text("dict")`
gives both the plain text and the lines, and no TextPage is kept after its page is done.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf

from pageindex_desktop.core.document import ExtractedDocument, Line, PageData
from pageindex_desktop.core.errors import PasswordRequired, PdfError
from pageindex_desktop.core import pdf_helper

log = logging.getLogger(__name__)

# Expand ligatures, normalise whitespace, clip to the media box, no images: the cheapest walk that still gives
# fonts, sizes and boxes.
TEXT_FLAGS = pymupdf.TEXT_MEDIABOX_CLIP
# Pages a helper process takes at a time; a helper is started for documents of START_HELPER_PAGES pages or more
# and, once warm, used for any document of USE_HELPER_PAGES pages or more.
CHUNK = 12
START_HELPER_PAGES = 40
USE_HELPER_PAGES = 2 * CHUNK
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|extrabold|ultrabold", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_CONTROL_TO_SPACE = {c: " " for c in [*range(0, 32), 127]}
_BOLD_FONTS: dict[str, bool] = {}
_SPACES = re.compile(r"\s+")

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

Progress = Callable[[int, int], None]


def clean_title(title: str) -> str:
    """A bookmark or metadata title without control characters and with single spaces (they come from the file)."""
    return _SPACES.sub(" ", _CONTROL.sub(" ", title or "")).strip()


def open_pdf(path: Path, password: str | None) -> pymupdf.Document:
    """Open `path` as a PDF or raise the typed error a user can act on (shared with the helper processes)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise PdfError(f"The file cannot be read: {exc.strerror or exc}.") from exc
    if size == 0:
        raise PdfError("The file is empty (0 bytes), so it is not a PDF.")
    with path.open("rb") as handle:
        head = handle.read(1024)
        handle.seek(max(0, size - 4096))
        tail = handle.read()
    if b"%PDF-" not in head:
        raise PdfError("The file is not a PDF (it does not start with a PDF header).")
    try:
        doc = pymupdf.open(str(path), filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for broken files
        if b"%%EOF" not in tail:
            raise PdfError("The PDF is truncated (the file ends early) and cannot be opened.") from exc
        raise PdfError("The PDF is damaged and cannot be opened.") from exc
    if doc.needs_pass:
        if not password:
            doc.close()
            raise PasswordRequired("The PDF is encrypted and needs a password to open.")
        if not doc.authenticate(password):
            doc.close()
            raise PasswordRequired("The password is wrong: the encrypted PDF could not be opened with it.")
    if doc.page_count == 0:
        doc.close()
        raise PdfError("The PDF has no readable pages (its page tree is missing, truncated or damaged).")
    if doc.is_repaired:
        if b"%%EOF" not in tail:
            doc.close()
            raise PdfError("The PDF is truncated (the file ends early, so part of it is missing).")
        log.warning("PDF %s needed repair on open", path.name)
    return doc


def _is_bold_font(font: str) -> bool:
    """True for font names that say bold (cached: a document uses few fonts)."""
    bold = _BOLD_FONTS.get(font)
    if bold is None:
        bold = _BOLD_FONTS[font] = bool(_BOLD_NAME.search(font))
    return bold


def _clean(text: str) -> str:
    """Control characters to spaces, whitespace runs to one space, stripped."""
    if not text.isprintable():
        text = text.translate(_CONTROL_TO_SPACE)
    return " ".join(text.split())


def _line_of(spans: list[dict[str, Any]], bbox: tuple[float, float, float, float]) -> Line | None:
    """One Line from a MuPDF line's spans: size and weight of the dominant span, None when only whitespace."""
    if len(spans) == 1:
        span = spans[0]
        text = _clean(span["text"])
        if not text:
            return None
        bold = bool(span["flags"] & 16) or _is_bold_font(span["font"])
        return Line(text, round(span["size"], 1), bold, bbox[0], bbox[1], bbox[2], bbox[3])
    parts: list[str] = []
    best_chars = 0
    size = 0.0
    bold_chars = 0
    chars = 0
    for span in spans:
        text = span["text"]
        parts.append(text)
        n = len(text) - text.count(" ")
        if n <= 0:
            continue
        chars += n
        if span["flags"] & 16 or _is_bold_font(span["font"]):
            bold_chars += n
        if n > best_chars:
            best_chars = n
            size = span["size"]
    text = _clean("".join(parts))
    if not text:
        return None
    return Line(text, round(size, 1), bold_chars * 2 > chars, bbox[0], bbox[1], bbox[2], bbox[3])


def _join_block(lines: list[str]) -> str:
    """A block's lines as text, re-joining words hyphenated across a line break ("exam-" + "ple")."""
    out = lines[0]
    for nxt in lines[1:]:
        if out[-1] == "-" and len(out) > 1 and out[-2].isalpha() and nxt[:1].islower():
            out = out[:-1] + nxt
        else:
            out += "\n" + nxt
    return out


def _label_rules(doc: pymupdf.Document) -> list[tuple[int, str]] | None:
    """The document's page-label rules, read once per open document (pymupdf re-reads them for every page)."""
    rules = getattr(doc, "_pageindex_label_rules", False)
    if rules is False:
        try:
            rules = sorted(doc._get_page_labels())
        except Exception:  # a private helper of pymupdf: fall back to the per-page public call
            rules = None
        doc._pageindex_label_rules = rules
    return rules  # type: ignore[return-value]


def _label(page: pymupdf.Page) -> str:
    """The page's printed label ('' when the document has none or its label tree is broken)."""
    try:
        rules = _label_rules(page.parent)
        if rules is None:
            return page.get_label() or ""
        return pymupdf.utils.get_label_pno(page.number, rules) if rules else ""
    except Exception:
        return ""


def _page_data(page: pymupdf.Page, number: int) -> PageData:
    """Text, label, size and lines of one page from a single dict walk."""
    data = page.get_text("dict", flags=TEXT_FLAGS)
    lines: list[Line] = []
    blocks: list[str] = []
    for block in data["blocks"]:
        if block.get("type", 0) != 0:
            continue
        texts: list[str] = []
        for raw in block["lines"]:
            line = _line_of(raw["spans"], raw["bbox"])
            if line is not None:
                lines.append(line)
                texts.append(line.text)
        if texts:
            blocks.append(_join_block(texts))
    rect = page.rect
    return PageData(number, clean_title(_label(page)), "\n\n".join(blocks), rect.width, rect.height, lines)


def page_data(doc: pymupdf.Document, index: int) -> PageData:
    """One page (0-based index) as PageData; a page whose content cannot be interpreted comes back empty."""
    try:
        page = doc.load_page(index)
    except Exception as exc:
        raise PdfError(f"Page {index + 1} cannot be read: the PDF's page tree is damaged.") from exc
    try:
        return _page_data(page, index + 1)
    except Exception:  # a broken content stream loses that page's text, not the document
        log.warning("text extraction failed on page %d", index + 1, exc_info=True)
        rect = page.rect
        return PageData(index + 1, "", "", rect.width, rect.height, [])


def pages_of(doc: pymupdf.Document, start: int, stop: int) -> list[PageData]:
    """Pages [start, stop) (0-based) of an open document."""
    return [page_data(doc, index) for index in range(start, stop)]


def _check_page_tree(doc: pymupdf.Document) -> None:
    """Raise PdfError when the page tree cannot be walked (a cycle, a dangling reference)."""
    try:
        for index in range(doc.page_count):
            doc.load_page(index)
    except Exception as exc:
        raise PdfError("The PDF's page tree is damaged (it loops or points to missing pages).") from exc


def _metadata_title(doc: pymupdf.Document) -> str:
    """The document-info title, or '' when missing or unreadable."""
    try:
        return clean_title((doc.metadata or {}).get("title") or "")
    except Exception:
        return ""


def _toc(doc: pymupdf.Document) -> list[tuple[int, str, int]]:
    """Embedded bookmarks as (level, cleaned title, 1-based page or -1); [] when the outline is unreadable."""
    try:
        raw = doc.get_toc(simple=False)
    except Exception:
        log.warning("outline could not be read", exc_info=True)
        return []
    toc: list[tuple[int, str, int]] = []
    for entry in raw:
        page = int(entry[2])
        toc.append((int(entry[0]), clean_title(str(entry[1])), page if page >= 1 else -1))
    return toc


def extract(
    path: Path,
    password: str | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
) -> ExtractedDocument:
    """Read a PDF into plain data: per-page text, label, size and lines, plus the bookmarks and metadata title.

    Raises PasswordRequired when the file is encrypted and no (or a wrong) password is given, and PdfError with
    a one-sentence message for an empty file, a non-PDF, a damaged or truncated file, an unreadable page tree or
    a document with no pages.

    Page text is MuPDF's reading order (blocks as the file's content stream groups them), one line per text line,
    a blank line between blocks, words hyphenated across a line break re-joined.

    `PageData.lines` semantics (heading detection relies on them): one `Line` per MuPDF text line of a text
    block, in the same order as the text; whitespace-only lines are dropped. `text` is the line's spans joined,
    control characters removed, runs of whitespace collapsed to one space, stripped. `size` is the font size of
    the span with the most non-space characters, rounded to 0.1 pt. `bold` is True when more than half of the
    line's non-space characters are in bold spans (MuPDF bold flag, or a font name with Bold, Black, Heavy,
    Semibold or Demi). `x0, y0, x1, y1` is the line's box in points, top-left origin, unrotated page space.
    MuPDF may split one visual line into several lines when spans are far apart (table cells, right-aligned page
    numbers), and it does not merge lines across blocks.

    `workers`: processes to use, this one included (None: 2 on a multi-core machine for documents long enough
    to gain from it, else 1). See `extract_pages`: the output never depends on the number of workers.
    """
    path = Path(path)
    doc = open_pdf(path, password)
    try:
        total = doc.page_count
        _check_page_tree(doc)
        toc = _toc(doc)
        title = _metadata_title(doc)
        pages = extract_pages(doc, path, password, progress, workers)
    finally:
        doc.close()
    return ExtractedDocument(page_count=total, metadata_title=title, toc=toc, pages=pages)


def _auto_workers(total: int) -> int:
    """2 when a second process is worth it (multi-core, not a frozen build, enough pages), else 1."""
    if (os.cpu_count() or 1) < 2 or getattr(sys, "frozen", False) or total < USE_HELPER_PAGES:
        return 1
    if total >= START_HELPER_PAGES or pdf_helper.warm():
        return 2
    return 1


def extract_pages(
    doc: pymupdf.Document, path: Path, password: str | None, progress: Progress | None, workers: int | None
) -> list[PageData]:
    """Every page, this process reading from the front while helper processes take chunks from the back.

    Chunks go to a helper only while more than one chunk is left; when this process reaches a chunk a helper
    still holds, it reads that chunk itself and the helper's late reply is dropped. A chunk a helper fails on is
    read here too. So the result is the same for any number of workers, and a slow or dead helper costs nothing
    but its share.
    """
    total = doc.page_count
    count = _auto_workers(total) if workers is None else max(1, workers)
    helpers = pdf_helper.helpers(count - 1) if count > 1 and total > CHUNK else []
    pages: list[PageData | None] = [None] * total
    held: dict[pdf_helper.Helper, tuple[int, int]] = {}
    front, back, done, reported = 0, total, 0, 0

    def hand_out(helper: pdf_helper.Helper) -> None:
        nonlocal back
        if back - front > CHUNK and helper.send(("range", str(path), password, back - CHUNK, back)):
            held[helper] = (back - CHUNK, back)
            back -= CHUNK

    def collect(helper: pdf_helper.Helper, reply: tuple[str, object]) -> None:
        nonlocal done
        start, stop = held.pop(helper)
        part = reply[1]
        if reply[0] == "ok" and isinstance(part, list) and len(part) == stop - start:
            pages[start:stop] = part
            helper.served += stop - start
            done += stop - start
            hand_out(helper)
        else:
            log.warning("PDF helper could not read pages %d-%d; reading them here", start + 1, stop)
            for index in range(start, stop):
                pages[index] = page_data(doc, index)
            done += stop - start

    for helper in helpers:
        hand_out(helper)
    while front < back:
        pages[front] = page_data(doc, front)
        front += 1
        done += 1
        for helper in list(held):
            reply = helper.poll()
            if reply is not None:
                collect(helper, reply)
        if progress is not None and done - reported >= 10:
            progress(done, total)
            reported = done
    for helper, (start, stop) in list(held.items()):
        reply = helper.poll()
        if reply is not None:
            collect(helper, reply)
            continue
        helper.abandon()  # still busy (or still starting): read its chunk here
        del held[helper]
        for index in range(start, stop):
            pages[index] = page_data(doc, index)
    for helper in helpers:
        helper.send(("close",))
    if progress is not None:
        progress(total, total)
    return [page for page in pages if page is not None]
