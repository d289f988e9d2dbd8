"""Lay out an e-book, a text file or a Markdown file to the PDF the library reads (in the extraction child).

The PDF goes beside the source copy (`files/<sha>.epub` → `files/<sha>.pdf`), written whole or not at all
(`library_files.write_in`), and carries the source's table of contents as its bookmarks (Markdown: its
headings) and its title as metadata. An existing PDF is kept: re-indexing reads the pages the viewer shows.
Bad input raises PdfError with one sentence naming the format.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pymupdf

from pageindex_desktop.core.library import library_files
from pageindex_desktop.core.ingest import markdown_doc
from pageindex_desktop.core.errors import PasswordRequired, PdfError
from pageindex_desktop.core.formats import MARKDOWN, Format, problem

log = logging.getLogger(__name__)

# Reflowable formats (EPUB, FB2, MOBI, TXT) are laid out on A5 pages at 11 pt: a book's page on screen.
LAYOUT_WIDTH, LAYOUT_HEIGHT, LAYOUT_FONT = 420.0, 595.0, 11.0


def laid_out_path(source: Path) -> Path:
    """Where the PDF made from `source` lives."""
    return source.with_suffix(".pdf")


def lay_out(source: Path, fmt: Format) -> Path:
    """The PDF for `source` (made now unless it exists); raises PdfError (or PasswordRequired) for bad input."""
    target = laid_out_path(source)
    if target.is_file():
        return target
    bad = problem(source, fmt)
    if bad:
        raise PdfError(bad)
    data = _markdown(source) if fmt is MARKDOWN else _ebook(source, fmt)
    try:
        library_files.write_in(target, data)
    except OSError as exc:
        raise PdfError(f"The laid-out pages could not be written into the library: {exc.strerror or exc}.") from exc
    return target


def _the(fmt: Format) -> str:
    """'the EPUB e-book' from 'an EPUB e-book'."""
    return "the " + fmt.label.split(" ", 1)[1]


def _ebook(source: Path, fmt: Format) -> bytes:
    """Convert a document MuPDF opens to PDF bytes with its table of contents and title."""
    name = _the(fmt)
    try:
        src = pymupdf.open(str(source), filetype=fmt.filetype)
    except Exception as exc:  # MuPDF raises several types for broken files
        raise PdfError(f"{name[0].upper()}{name[1:]} is damaged or not in its format and cannot be opened.") from exc
    try:
        if src.needs_pass:
            raise PasswordRequired(f"{name[0].upper()}{name[1:]} is encrypted (DRM), so it cannot be read.")
        try:
            if src.is_reflowable:
                src.layout(width=LAYOUT_WIDTH, height=LAYOUT_HEIGHT, fontsize=LAYOUT_FONT)
            count = src.page_count
            if count < 1:
                raise PdfError(f"{name[0].upper()}{name[1:]} has no pages to show.")
            pdf = pymupdf.open("pdf", src.convert_to_pdf())
        except PdfError:
            raise
        except Exception as exc:
            raise PdfError(f"{name[0].upper()}{name[1:]} is damaged and its pages cannot be laid out.") from exc
        try:
            _copy_toc(src, pdf)
            title = ((src.metadata or {}).get("title") or "").strip()
            if title:
                pdf.set_metadata({"title": title, "author": (src.metadata or {}).get("author") or ""})
            return bytes(pdf.tobytes(garbage=3, deflate=True))
        finally:
            pdf.close()
    finally:
        src.close()


def _copy_toc(src: pymupdf.Document, pdf: pymupdf.Document) -> None:
    """The source's contents as the PDF's bookmarks; an unreadable one is left out (the tree falls back)."""
    try:
        toc = [(int(level), str(title), int(page)) for level, title, page, *_ in src.get_toc(simple=True)]
    except Exception:
        log.warning("the e-book's table of contents could not be read", exc_info=True)
        return
    if not toc:
        return
    depths = nested_levels([level for level, _, _ in toc])
    try:
        pdf.set_toc([[depth, title, page if page >= 1 else -1] for depth, (_, title, page) in zip(depths, toc)])
    except Exception:
        log.warning("the e-book's table of contents could not be copied", exc_info=True)


def _markdown(source: Path) -> bytes:
    """Lay a Markdown file out and keep its headings as bookmarks (the tree is built from them exactly)."""
    try:
        text = source.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise PdfError(f"The file cannot be read: {exc.strerror or exc}.") from exc
    try:
        laid = markdown_doc.lay_out(text)
    except ValueError as exc:
        raise PdfError("The Markdown file has no text to show.") from exc
    except Exception as exc:
        raise PdfError("The Markdown file could not be laid out to pages.") from exc
    pdf = pymupdf.open("pdf", laid.pdf)
    try:
        depths = nested_levels([level for level, _, _, _ in laid.headings])
        toc = [[depth, title, page, {"kind": pymupdf.LINK_GOTO, "page": page - 1, "to": pymupdf.Point(0, y)}]
               for depth, (_, title, page, y) in zip(depths, laid.headings)]
        if toc:
            pdf.set_toc(toc)
        if laid.title:
            pdf.set_metadata({"title": laid.title})
        return bytes(pdf.tobytes(garbage=3, deflate=True))
    finally:
        pdf.close()


def nested_levels(levels: list[int]) -> list[int]:
    """Contents or heading levels as a tree's depths: a level that skips (1 then 3, # then ###) sits one below
    its parent, a first entry below level 1 starts the tree; what PDF bookmarks require (each entry at most one
    deeper)."""
    out: list[int] = []
    stack: list[int] = []  # the written levels of the open ancestors
    for level in levels:
        while stack and stack[-1] >= level:
            stack.pop()
        stack.append(level)
        out.append(len(stack))
    return out
