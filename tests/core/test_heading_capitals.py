"""Issue 11 class 1 on PDFs built here: sub-headings typed in capitals at the body's size and weight, which
size and weight alone read as body lines (core/outline/heading_capitals.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line

SUBS = ["SCOPE OF THE REVIEW", "METHODS USED", "FINDINGS", "RECOMMENDATIONS", "BACKGROUND", "TIMELINE OF EVENTS"]
CHAPTERS = ["Introduction", "Water Supply", "Flood Defences"]


def _memo(path: Path, notice: bool = False, signatures: bool = False) -> None:
    """Chapters in bold 16 pt, each with two sub-headings typed in capitals in the body's face after a blank line;
    with a `notice` in capitals on the last page, or a signature block whose names are typed in capitals."""
    doc = pymupdf.open()
    subs = iter(SUBS)
    for chapter in CHAPTERS:
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, write_line(page, 80, chapter, size=16, bold=True) + 6, 5)
        for _ in range(2):
            y = paragraph(page, write_line(page, y + 10, next(subs)) + 4, 6)
    page = doc.new_page(width=612, height=792)
    y = paragraph(page, write_line(page, 80, "Signatures", size=16, bold=True) + 6, 3)
    if notice:
        for line in ("THE SECURITIES OFFERED HEREBY HAVE NOT BEEN REGISTERED UNDER THE SECURITIES ACT AND",
                     "MAY NOT BE SOLD EXCEPT UNDER A REGISTRATION OR AN EXEMPTION FROM IT."):
            y = write_line(page, y + 2, line)
    if signatures:
        for name in ("JANE A. DOE", "RICHARD ROE", "MARY MAJOR"):
            y = write_line(page, y + 14, f"/s/ {name.title()}")
            y = write_line(page, y - 3, name)
            write_line(page, y - 30, "Director", x=300)
    doc.save(path)


def test_sub_headings_typed_in_capitals_are_sections_under_their_chapter(tmp_path: Path) -> None:
    """Every row set in capitals at the body's size is a short title line set apart, on three pages: a face
    of headings, each a section under its chapter."""
    path = tmp_path / "memo.pdf"
    _memo(path)
    found = [(h.title, h.level) for h in find_layout_headings(extract(path))]
    expected = []
    for k, chapter in enumerate(CHAPTERS):
        expected += [(chapter, 1), (SUBS[2 * k], 2), (SUBS[2 * k + 1], 2)]
    assert found == expected + [("Signatures", 1)]


def test_a_notice_or_signature_block_in_capitals_keeps_capitals_as_text(tmp_path: Path) -> None:
    """A legal notice in capitals prints sentences in the face, and a signature block's names sit right under
    their signature lines: either keeps the document's capitals read as text."""
    for name, kind in (("notice", {"notice": True}), ("signed", {"signatures": True})):
        path = tmp_path / f"{name}.pdf"
        _memo(path, **kind)
        found = [h.title for h in find_layout_headings(extract(path))]
        assert found == [*CHAPTERS, "Signatures"], (name, found)
