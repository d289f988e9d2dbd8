"""Recognise the text of pages without a text layer, in the extraction child, with pymupdf's OCR text page.

Only pages that came out of extraction with no text (and were not lost to damage) are read, so a text PDF with
a few scanned pages gets OCR for those alone. Each page is rendered at `DPI` and handed to Tesseract
(`Page.get_textpage_ocr(full=True)`); its text and lines then go through the same cleaning as a text layer
(`pdf_pages`), so the tree builders find printed headings on scans too. The pages come back marked `ocr`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.ingest.pdf import open_pdf
from pageindex_desktop.core.ingest.pdf_pages import TEXT_FLAGS, _lines_of, _text_of

log = logging.getLogger(__name__)

DPI = 300  # Tesseract's own advice for body text; 200 loses small print, 400 costs twice the time


def recognise(
    path: Path,
    password: str | None,
    pages: list[PageData],
    options: dict[str, str],
    skip: frozenset[int] = frozenset(),
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[PageData], str]:
    """`pages` with the text of those without any recognised; and '' or a sentence when OCR could not run.

    `options`: {"languages": "eng+deu", "tessdata": folder} (core/ingest/ocr.py). `skip`: 1-based pages not to read.
    """
    todo = [i for i, p in enumerate(pages) if not p.has_text and p.number not in skip]
    if not todo:
        return pages, ""
    out = list(pages)
    doc = open_pdf(path, password)
    try:
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
            if progress is not None:
                progress(done, len(todo))
    finally:
        doc.close()
    return out, ""
