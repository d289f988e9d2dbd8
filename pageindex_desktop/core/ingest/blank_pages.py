"""Pages that paint nothing: no text, no image, no vector path (a report's empty verso, a divider page).

Such a page has no text layer, but it is not a scan either: there is nothing on it to read. OCR skips it
(`ocr_read`), and the import's warning about pages without a text layer does not count it
(`import_steps.text_layer_warning`), so a text PDF with a blank verso imports without telling the user that
pages could not be searched.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.ingest.pdf import open_pdf


def draws_anything(page: pymupdf.Page) -> bool:
    """True when the page paints an image (inline ones too) or vector paths (text set as outlines): something
    Tesseract could read. A page with neither is blank; rendering it at 300 dpi for Tesseract costs a third of
    a second and finds nothing."""
    return bool(page.get_image_info()) or bool(page.get_cdrawings())


def blank_pages(path: Path, password: str | None, pages: list[PageData],
                skip: frozenset[int] = frozenset()) -> list[int]:
    """1-based numbers of the pages without text that paint nothing either; `skip`: pages not to look at (lost
    to damage). Only text-less pages are opened, so a text PDF costs nothing here."""
    todo = [p.number for p in pages if not p.has_text and p.number not in skip]
    if not todo:
        return []
    doc = open_pdf(path, password)
    try:
        return [n for n in todo if not draws_anything(doc.load_page(n - 1))]
    finally:
        doc.close()
