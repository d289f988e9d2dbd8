"""A page that paints nothing (an empty verso) is not a scan: the import does not warn that pages have no text
layer because of it, while a page that shows only an image still does. PDFs built here, imported through the
extraction child with no Tesseract on PATH (so the sentences do not depend on the machine)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest import ocr
from pageindex_desktop.core.ingest.indexer import import_pdf
from pageindex_desktop.core.library.store import Library


@pytest.fixture
def no_tesseract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "no-programs"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("TESSDATA_PREFIX", raising=False)
    assert ocr.find_engine() is None


def _text(doc: pymupdf.Document, title: str) -> None:
    page = doc.new_page(width=420, height=320)
    page.insert_text((36, 60), title, fontsize=20)
    for line in range(4):
        page.insert_text((36, 100 + 18 * line), "The board reviewed the accounts in the spring meeting.", fontsize=11)


def _image(doc: pymupdf.Document) -> None:
    """A page that shows a picture and has no text layer (what a scan looks like to extraction)."""
    pixmap = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 60, 40), False)
    pixmap.clear_with(90)
    page = doc.new_page(width=420, height=320)
    page.insert_image(pymupdf.Rect(60, 60, 360, 260), pixmap=pixmap)


def _import(home: Path, path: Path, pages: list[str]) -> tuple[str, str]:
    """Build a PDF page by page ("text", "blank", "image"), import it, return (warning, library note)."""
    doc = pymupdf.open()
    for n, kind in enumerate(pages):
        if kind == "text":
            _text(doc, f"Chapter {n + 1}")
        elif kind == "image":
            _image(doc)
        else:
            doc.new_page(width=420, height=320)
    doc.save(path)
    with Library(home) as library:
        result = import_pdf(library, path)
        assert result.status == "ready" and result.page_count == len(pages)
        record = library.get(result.doc_id)
        assert record is not None
        return result.warning, record.note


def test_a_blank_verso_is_no_page_without_a_text_layer(home: Path, tmp_path: Path, no_tesseract: None) -> None:
    warning, note = _import(home, tmp_path / "verso.pdf", ["text", "blank", "text"])
    assert "text layer" not in warning and "Tesseract" not in warning
    assert note == ""


def test_a_page_with_only_an_image_is_still_counted(home: Path, tmp_path: Path, no_tesseract: None) -> None:
    warning, note = _import(home, tmp_path / "picture.pdf", ["text", "blank", "image"])
    assert warning == ("1 of 3 pages have no text layer (scanned or image-only); their text is not searchable; "
                       f"install Tesseract OCR to read them ({ocr.install_hint()}), then re-index.")
    assert note.startswith("1 of 3 pages have no text layer; install Tesseract OCR")


def test_a_scan_with_a_blank_page_still_has_no_page_with_text(home: Path, tmp_path: Path, no_tesseract: None) -> None:
    """No page has text at all: the sentence says so, though the blank page is not counted as a scan."""
    warning, note = _import(home, tmp_path / "scan.pdf", ["image", "blank"])
    assert warning == ("No page has a text layer (scanned or image-only), so the tree is plain page groups and "
                       f"search finds nothing; install Tesseract OCR to read them ({ocr.install_hint()}), then re-index.")
    assert note.startswith("No page has a text layer; install Tesseract OCR")
