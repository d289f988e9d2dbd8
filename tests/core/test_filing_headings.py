"""Issue 11 class 1, printed headings missed in financial filings: each rule on a PDF built here with pymupdf,
with what the rule it relaxes was meant to drop still dropped."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line


def _right(page: pymupdf.Page, y: float, text: str, right: float, size: float, bold: bool) -> None:
    """Text ending at x = `right`, as filings set an exhibit's number in the top right corner."""
    font = "hebo" if bold else "helv"
    page.insert_text((right - pymupdf.get_text_length(text, font, size), y), text, fontsize=size, fontname=font)


def test_an_exhibit_number_heading_its_own_page_is_a_section(tmp_path: Path) -> None:
    """A filing's exhibits each open a page under a bare "Exhibit 23.1" above all its other text: each is a
    section, at the level of the filing's parts, titled by its number alone (the exhibit's own title under it is
    not joined to it). Before, the caption rule dropped them all like "Exhibit 99.1" under a chart; an "Exhibit
    3" caption down a page of the body is still no section."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    paragraph(page, write_line(page, 90, "Item 14. Principal Accountant Fees and Services", bold=True), 12)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "PART IV", size=12, bold=True) + 4
    y = paragraph(page, write_line(page, y, "Item 15. Exhibits and Financial Statement Schedules", bold=True), 10)
    y = write_line(page, y + 80, "Exhibit 3", bold=True)  # under a chart's white space: a caption
    paragraph(page, y + 6, 8)
    page = doc.new_page(width=612, height=792)
    paragraph(page, write_line(page, 90, "Item 16. Form 10-K Summary", bold=True), 12)
    exhibits = [("Exhibit 21.1", "Subsidiaries of the Registrant"),
                ("Exhibit 23.1", "Consent of Independent Registered Public Accounting Firm"),
                ("Exhibit 31.1", "Certification of the Chief Executive Officer"),
                ("Exhibit 32.1", "Certifications Pursuant to Section 906")]
    for number, title in exhibits:
        page = doc.new_page(width=612, height=792)
        _right(page, 52, number, 560, 10, True)
        y = write_line(page, 90, title, bold=True, x=180) + 8
        paragraph(page, y, 14)
    path = tmp_path / "exhibits.pdf"
    doc.save(path)
    found = [(h.title, h.level, h.page) for h in find_layout_headings(extract(path))]
    items = [(t, lvl, p) for t, lvl, p in found if t.startswith(("PART", "Item", "Exhibit"))]
    assert "Exhibit 3" not in [t for t, _lvl, _p in found]
    assert items == [("Item 14. Principal Accountant Fees and Services", 2, 2), ("PART IV", 1, 3),
                     ("Item 15. Exhibits and Financial Statement Schedules", 2, 3),
                     ("Item 16. Form 10-K Summary", 2, 4)] + [(n, 1, 5 + k) for k, (n, _) in enumerate(exhibits)]
