"""Issue 11, remaining class 4, on a PDF built here: a report sets "1 Introduction" large and bold, "1.1 Purpose
and Scope" in the body's regular face on its own line, and unnumbered sub-heads bold in the body's size inside
those sections. Bold ranks before regular by style, but the numbering puts "1.1" under "1", and the sub-heads,
each printed after a "1.1"-style heading, under "1.1"."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line

CHAPTERS = ["Introduction", "Site Selection", "Construction Methods"]
SECTIONS = ["Purpose and Scope", "Applicable Standards", "Drainage Design", "Surface Materials", "Work Zones",
            "Inspection Duties"]
SUBHEADS = ["Background Material", "Design Criteria", "Review Process", "Field Surveys", "Cost Estimates",
            "Public Comment"]


def test_body_size_numbered_sections_rank_above_bold_subheads(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Design Standard for Trails", size=22, bold=True) + 6
    paragraph(page, y, 20)
    expected: list[tuple[int, str]] = []
    for c, chapter in enumerate(CHAPTERS, start=1):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 72, f"{c} {chapter}", size=16, bold=True) + 6
        expected.append((1, f"{c} {chapter}"))
        y = paragraph(page, y, 3)
        for s in (1, 2):
            section = SECTIONS[2 * (c - 1) + s - 1]
            y = write_line(page, y + 4, f"{c}.{s} {section}", size=10) + 2
            expected.append((2, f"{c}.{s} {section}"))
            y = paragraph(page, y, 3)
            for sub in (SUBHEADS[2 * (c - 1) + s - 1], SUBHEADS[2 * (c - 1) + s - 1] + " Notes"):
                y = write_line(page, y + 4, sub, size=10, bold=True) + 2
                expected.append((3, sub))
                y = paragraph(page, y, 2)
    path = tmp_path / "standard.pdf"
    doc.save(path)
    assert [(h.level, h.title) for h in find_layout_headings(extract(path))] == expected
