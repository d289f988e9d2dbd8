"""Side heads (`side_heads.py`): sub-headings hung in a margin column beside their paragraph's first line, as
FrameMaker manuals and Word "side heading" templates set them, on PDFs built here with pymupdf."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings

TEXT_LEFT = 200  # the text column's edge; side heads hang in the margin from 72
LINE = "the measurements were taken every morning and compared"
LEADING = 14


def _paragraph(page: pymupdf.Page, y: float, lines: int) -> float:
    """A paragraph in the text column from the baseline `y`; returns the next paragraph's baseline."""
    for k in range(lines):
        page.insert_text((TEXT_LEFT, y + LEADING * k), LINE.capitalize() if k == 0 else LINE, fontsize=10,
                         fontname="tiro")
    return y + LEADING * lines + 10


def _side_head(page: pymupdf.Page, y: float, lines: list[str]) -> None:
    """A side head's lines in the margin, the first on the baseline `y` of its paragraph's first line."""
    for k, text in enumerate(lines):
        page.insert_text((72, y + LEADING * k), text, fontsize=10, fontname="hebo")


MANUAL = {
    "1 Installing the Pump": [["Before You Begin"], ["Mounting the", "Housing"], ["Wiring"]],
    "2 Operating the Pump": [["Starting Up"], ["Routine Checks", "and Cleaning"]],
    "3 Servicing": [["Replacing the Seal"], ["Spare Parts"]],
}


def test_side_heads_beside_their_paragraphs_are_sub_headings(tmp_path: Path) -> None:
    """A manual's chapters, titled across the page, hold sub-headings hung in the left margin beside their
    paragraphs' first lines, one or two lines each: each is a sub-heading, a wrapped one read as one title."""
    doc = pymupdf.open()
    for chapter, heads in MANUAL.items():
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), chapter, fontsize=16, fontname="hebo")
        y = _paragraph(page, 130, 4)
        for head in heads:
            _side_head(page, y, head)
            y = _paragraph(page, y, 6)
    path = tmp_path / "manual.pdf"
    doc.save(path)
    found = [(h.title, h.level) for h in find_layout_headings(extract(path))]
    expected = [(title, level) for chapter, heads in MANUAL.items()
                for title, level in [(chapter, 1)] + [(" ".join(head), 2) for head in heads]]
    assert found == expected


def test_a_tables_bold_labels_beside_their_text_are_no_side_heads(tmp_path: Path) -> None:
    """A table of settings, a bold label beside a description on every row, and a glossary's bold terms beside
    their definitions: the margin column holds a label on most lines, which side heads never do."""
    doc = pymupdf.open()
    labels = ["Flow Rate", "Pressure", "Inlet Size", "Outlet Size", "Motor Power", "Weight", "Noise Level",
              "Housing", "Seal Type", "Voltage"]
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 90), "1 Overview", fontsize=16, fontname="hebo")
    _paragraph(page, _paragraph(page, 130, 8), 8)
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 90), "2 Specifications", fontsize=16, fontname="hebo")
    y = _paragraph(page, 130, 4)
    for label in labels:
        page.insert_text((72, y), label, fontsize=10, fontname="hebo")
        page.insert_text((TEXT_LEFT, y), "The value measured on the test stand at delivery", fontsize=10,
                         fontname="tiro")
        page.insert_text((TEXT_LEFT, y + LEADING), "under the standard conditions", fontsize=10, fontname="tiro")
        y += 2 * LEADING + 8
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 90), "3 Glossary", fontsize=16, fontname="hebo")
    y = 130
    for label in labels:
        page.insert_text((72, y), label, fontsize=10, fontname="hebo")
        page.insert_text((TEXT_LEFT, y), "What the manual means by the term wherever it", fontsize=10, fontname="tiro")
        page.insert_text((TEXT_LEFT, y + LEADING), "appears in these instructions", fontsize=10, fontname="tiro")
        y += 2 * LEADING + 8
    path = tmp_path / "tables.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == ["1 Overview", "2 Specifications", "3 Glossary"]
