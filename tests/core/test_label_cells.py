"""Issue 11 class 4 on PDFs built here: a filing printed from HTML sets each item as a table row, its label
("ITEM 5.") in a cell of its own level with the middle or the foot of its wrapped title. The label and the
title's lines are one heading; a cross-reference table's rows, a page number beside them, stay no headings."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line

STEP = 12.0  # a wrapped title's lines set solid, 10 pt type
# (label, title lines, where the label sits: "top", "middle" or "bottom" of its title)
ITEMS = [("ITEM 5.", ["Market for Registrant's Common Equity, Related Stockholder Matters and",
                      "Issuer Purchases of Equity Securities"], "middle"),
         ("ITEM 6.", ["[Reserved]"], "top"),
         ("ITEM 7.", ["Management's Discussion and Analysis of Financial Condition and",
                      "Results of Operations"], "bottom"),
         ("ITEM 9.", ["Changes in and Disagreements with Accountants", "on Accounting and Financial",
                      "Disclosure"], "middle")]


def _item(page: pymupdf.Page, y: float, label: str, lines: list[str], align: str, number: str = "") -> float:
    """An item's row: its label at x 72, its title's lines at x 130 (bold, 10 pt), the label level with the
    title's first, middle or last line, a page number at the right when given; returns the y below it."""
    for k, line in enumerate(lines):
        write_line(page, y + STEP * k, line, bold=True, x=130)
    at = {"top": 0.0, "middle": STEP * (len(lines) - 1) / 2, "bottom": STEP * (len(lines) - 1)}[align]
    write_line(page, y + at, label, bold=True)
    if number:
        write_line(page, y + at, number, x=520)
    return y + STEP * len(lines) + 8


def test_an_items_label_cell_beside_its_wrapped_title_is_one_heading(tmp_path: Path) -> None:
    """Each item is one heading, label first, its title whole, whether the label sits between the title's two
    lines, level with its last line or with the middle one of three."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Report on Form 10-K", size=26, bold=True)
    for label, lines, align in ITEMS:
        page = doc.new_page(width=612, height=792)
        y = _item(page, 72, label, lines, align)
        paragraph(page, y + 6, 30)
    path = tmp_path / "items.pdf"
    doc.save(path)
    found = [(h.title, h.page) for h in find_layout_headings(extract(path))]
    assert found == [(f"{label} {' '.join(lines)}", page) for page, (label, lines, _a) in enumerate(ITEMS, 2)]


def test_a_cross_reference_tables_wrapped_rows_are_no_headings(tmp_path: Path) -> None:
    """The same rows with their page numbers in a right column (a filing's cross-reference index) are a table:
    no line of a wrapped title beside a label and its page number is a heading, alone or joined."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Report on Form 10-K", size=26, bold=True)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 72, "Form 10-K Cross-Reference Index", size=16, bold=True) + 10
    for number, (label, lines, align) in enumerate(ITEMS, 12):
        y = _item(page, y, label, lines, align, str(number))
    paragraph(page, y + 10, 10)
    path = tmp_path / "index.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found[0] == "Form 10-K Cross-Reference Index"
    wrapped = [line for _label, lines, _align in ITEMS if len(lines) > 1 for line in lines]
    assert [title for title in found if any(line in title for line in wrapped)] == []
