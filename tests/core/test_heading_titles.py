"""Issue 11 class 4 on PDFs built here: titles split or polluted. A heading wrapped after a comma or a joining
word is one title, footnote markers are no part of a title, and a signature block's name is no section."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line


def _centred(page: pymupdf.Page, y: float, text: str, size: float = 10, bold: bool = False) -> float:
    """A line centred on the page; returns the y of the next line."""
    width = pymupdf.get_text_length(text, "hebo" if bold else "helv", size)
    return write_line(page, y, text, size=size, bold=bold, x=(page.rect.width - width) / 2)


def test_a_heading_wrapped_after_a_comma_or_joining_word_is_one_title(tmp_path: Path) -> None:
    """A heading line ending on a comma ("... COMMON EQUITY,") or a joining word ("... PURSUANT TO") goes on
    on the next line in its style, even when that line opens with a number ("18 U.S.C. ...", "SECTION 906 ...")
    or lines are centred at different widths; a table's "YEAR ENDED MAY 31," over its year columns is no
    heading, and the heading after a paragraph stays its own."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY,", size=14, bold=True)
    y = write_line(page, y, "RELATED STOCKHOLDER MATTERS AND ISSUER", size=14, bold=True)
    y = write_line(page, y, "PURCHASES OF EQUITY SECURITIES", size=14, bold=True) + 6
    y = paragraph(page, y, 8)
    y = write_line(page, y + 10, "YEAR ENDED MAY 31,", size=10, bold=True)
    for x, year in ((300, "2023"), (380, "2022"), (460, "2021")):
        write_line(page, y, year, bold=True, x=x)
    y = paragraph(page, y + 15, 6)
    y = write_line(page, y + 10, "ITEM 6. RESERVED", size=14, bold=True) + 6
    paragraph(page, y, 8)
    page = doc.new_page(width=612, height=792)
    y = _centred(page, 90, "CERTIFICATION OF THE CHIEF EXECUTIVE OFFICER PURSUANT TO", size=11, bold=True)
    y = _centred(page, y, "18 U.S.C. SECTION 1350, AS ADOPTED PURSUANT TO", size=11, bold=True)
    y = _centred(page, y, "SECTION 906 OF THE ACT", size=11, bold=True) + 6
    y = paragraph(page, y, 8)
    y = write_line(page, y + 10, "Storage of the Samples", size=14, bold=True) + 6
    paragraph(page, y, 8)
    path = tmp_path / "wrapped_open.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found == [
        "ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER MATTERS AND ISSUER PURCHASES OF "
        "EQUITY SECURITIES",
        "ITEM 6. RESERVED",
        "CERTIFICATION OF THE CHIEF EXECUTIVE OFFICER PURSUANT TO 18 U.S.C. SECTION 1350, AS ADOPTED PURSUANT TO "
        "SECTION 906 OF THE ACT",
        "Storage of the Samples",
    ]
