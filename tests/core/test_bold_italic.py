"""Issue 11 class 6 on PDFs built here: bold upright and bold italic heads at one size are two levels, and the
headings' order tells which is the upper one (a report's bold sub-sections over bold italic ones; a filing's
bold italic sections over bold sub-heads). Mixed with no such order, they stay one level."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line


def _levels(tmp_path: Path, chapters: list[tuple[str, list[tuple[str, bool]]]]) -> list[tuple[int, str]]:
    """Chapters set bold at 14 pt, each over its heads ((title, italic), bold at the body's 10 pt) with prose
    under each; the layout headings' (level from 1, title)."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of the Programme", size=26, bold=True)
    for chapter, heads in chapters:
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 80, chapter, size=14, bold=True) + 4
        y = paragraph(page, y, 3)
        for title, italic in heads:
            y = write_line(page, y + 6, title, bold=True, italic=italic) + 2
            y = paragraph(page, y, 4)
    path = tmp_path / "faces.pdf"
    doc.save(path)
    found = find_layout_headings(extract(path))
    top = min(h.level for h in found)
    return [(h.level - top + 1, h.title) for h in found]


REPORT = [("Funding Sources", False), ("Federal Grants", True), ("Local Levies", True),
          ("Spending Plan", False), ("Capital Works", True), ("Staff Costs", True)]


@pytest.mark.parametrize("upper_italic", [False, True])
def test_the_face_whose_heads_open_each_stretch_is_the_upper_level(tmp_path: Path, upper_italic: bool) -> None:
    """Bold upright heads each followed by bold italic ones: the italic are a level under them; the same with the
    faces swapped (a filing's bold italic sections over bold sub-heads)."""
    heads = [(title, italic != upper_italic) for title, italic in REPORT]
    found = _levels(tmp_path, [("Finance", heads), ("Operations", heads)])
    expected = []
    for chapter in ["Finance", "Operations"]:
        expected += [(1, chapter)] + [(3 if italic != upper_italic else 2, title) for title, italic in heads]
    assert found == expected


def test_faces_mixed_in_no_order_stay_one_level(tmp_path: Path) -> None:
    """One chapter opens on a bold italic head, the other on a bold upright one: no order tells one face under
    the other, and the heads stay one level under their chapters."""
    first = [("Funding Sources", True), ("Federal Grants", False), ("Local Levies", True), ("Spending Plan", False)]
    second = [("Capital Works", False), ("Staff Costs", True), ("Outreach", False), ("Evaluation", True)]
    found = _levels(tmp_path, [("Finance", first), ("Operations", second)])
    assert found == [(1, "Finance")] + [(2, t) for t, _i in first] + [(1, "Operations")] + [(2, t) for t, _i in second]
