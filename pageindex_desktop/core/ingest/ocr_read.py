"""Recognise the text of pages without a text layer, in the extraction child, with pymupdf's OCR text page.

Only pages that came out of extraction with no text (and were not lost to damage) and that paint an image or
vector paths are read, so a text PDF with a few scanned pages gets OCR for those alone and its blank pages none. Each page is rendered at `DPI` and handed to Tesseract
(`Page.get_textpage_ocr(full=True)`); its text and lines then go through the same cleaning as a text layer
(`pdf_pages`), so the tree builders find printed headings on scans too. The pages come back marked `ocr`.

Given `layer`, the recognised words are also written onto those pages as invisible text (`ocr_layer`) and the PDF
is saved there whole (`library_files.write_with`: a `.part` renamed into place), so the viewer can select, find
and highlight them; the file read stays as it was. A layer that cannot be written costs only that: the text is
in the index either way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pymupdf
from pymupdf import mupdf

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.ingest import ocr_layer
from pageindex_desktop.core.ingest.blank_pages import draws_anything
from pageindex_desktop.core.ingest.pdf import open_pdf
from pageindex_desktop.core.ingest.pdf_pages import TEXT_FLAGS, _lines_of, _text_of
from pageindex_desktop.core.library import library_files

log = logging.getLogger(__name__)

DPI = 300  # Tesseract's own advice for body text; 200 loses small print, 400 costs twice the time


def recognise(
    path: Path,
    password: str | None,
    pages: list[PageData],
    options: dict[str, str],
    skip: frozenset[int] = frozenset(),
    progress: Callable[[int, int], None] | None = None,
    layer: Path | None = None,
) -> tuple[list[PageData], str]:
    """`pages` with the text of those without any recognised; and '' or a sentence when OCR could not run.

    `options`: {"languages": "eng+deu", "tessdata": folder} (core/ingest/ocr.py). `skip`: 1-based pages not to read.
    `layer`: where to save the PDF with the recognised words written in (None: nowhere).
    """
    todo = [i for i, p in enumerate(pages) if not p.has_text and p.number not in skip]
    if not todo:
        return pages, ""
    out = list(pages)
    placed = 0
    doc = open_pdf(path, password)
    try:
        todo = [i for i in todo if draws_anything(doc.load_page(i))]
        for done, index in enumerate(todo, start=1):
            page = doc.load_page(index)
            try:
                textpage = page.get_textpage_ocr(flags=TEXT_FLAGS, language=options["languages"], dpi=DPI,
                                                 full=True, tessdata=options["tessdata"])
            except Exception as exc:  # Tesseract missing its data, or crashed on this page
                log.warning("OCR failed on page %d: %s", index + 1, exc)
                if done == 1:
                    return out, f"OCR could not run ({str(exc).strip()[:120] or type(exc).__name__})"
                continue
            text = _text_of(textpage.extractBLOCKS())
            rotation = page.rotation_matrix if page.rotation else None
            lines = _lines_of(textpage.extractDICT(), rotation) if text else []
            out[index] = replace(out[index], text=text, lines=lines, ocr=bool(text))
            if layer is not None and text:
                placed += ocr_layer.add_words(page, textpage.extractWORDS())
            if progress is not None:
                progress(done, len(todo))
        if layer is not None and placed:
            save_layered(doc, layer)
    finally:
        doc.close()
    return out, ""


def save_layered(doc: "pymupdf.Document", target: Path) -> None:
    """Save `doc` (its OCR text written in) to `target` whole or not at all, an encrypted PDF still encrypted with
    its passwords (pymupdf's default would save it decrypted); a failure is logged, not raised (the viewer then
    shows the PDF without the layer, as before)."""
    try:
        library_files.write_with(
            target, lambda partial: doc.save(str(partial), garbage=1, encryption=mupdf.PDF_ENCRYPT_KEEP))
    except Exception as exc:  # a full disk, or MuPDF refusing to write this file
        log.warning("the OCR text could not be written into a copy of the PDF: %s", exc)
