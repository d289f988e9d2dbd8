"""Issue 11, held-out documents: the typographic conventions of the generators and document kinds the layout
tree meets outside the corpus (Word reports, FrameMaker/DITA manuals, annual reports, tax instructions), each on
a PDF built here with pymupdf and read without bookmarks or a contents page."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE, walk
from tests.core.built_pages import FILLER, paragraph, write_line


def _tree(path: Path) -> list[tuple[int, str, int]]:
    """(level, title, start page) of the layout tree, bookmarks ignored, front-matter node left out."""
    outline = build_outline(extract(path), use_bookmarks=False)
    return [(n.level, n.title, n.start_page) for n in walk(outline.nodes) if n.title != FRONT_MATTER_TITLE]


def test_sub_headings_repeated_under_each_task_on_one_page_are_sections(tmp_path: Path) -> None:
    """A DITA manual prints "Overview" and "Procedure" under every task, two tasks to a page, and an annual
    report "Highlights" under each chapter, one chapter a page: with the task's or chapter's heading between the
    two printings each is its parent's section. Taken for a label (twice on a page) or a continued title (again
    on the next page) they were all dropped."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "Model 400 Controller User Guide", 24, True)
    expected = []
    tasks = [("Mounting the Bracket", "Connecting Power"), ("Setting the Address", "Enabling Remote Access"),
             ("Replacing the Filter", "Cleaning the Sensor")]
    for c, pair in enumerate(tasks, 1):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, f"Maintenance Area {'ABC'[c - 1]}", 20, True) + 8
        expected.append((1, f"Maintenance Area {'ABC'[c - 1]}", c + 1))
        for task in pair:
            y = write_line(page, y + 6, task, 14, True)
            expected.append((2, task, c + 1))
            for sub in ("Overview", "Procedure"):
                y = paragraph(page, write_line(page, y + 4, sub, 11, True), 5)
                expected.append((3, sub, c + 1))
    path = tmp_path / "tasks.pdf"
    doc.save(path)
    assert _tree(path) == expected


def _body(page: pymupdf.Page, y: float, lines: int, size: float = 11) -> float:
    """A paragraph in a Word report's 11 pt body; returns the y below it."""
    for i in range(lines):
        y = write_line(page, y, FILLER.capitalize() if i == 0 else FILLER, size)
    return y + 4


THEME = (0.18, 0.33, 0.59)  # Word's Accent 1 blue, Heading 1 and 2
THEME_DARK = (0.12, 0.22, 0.39)  # its darker shade, Heading 3


def test_word_heading_three_in_the_theme_colour_at_body_size_is_a_heading(tmp_path: Path) -> None:
    """A Word report's Heading 3 is Calibri Light 12 pt in the theme's dark blue over an 11 pt black body:
    neither larger by the layout's measure nor bold, it read as a body line and the tree lost its third level.
    Its colour, used on short rows and by no line of prose, sets it apart as bold would."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "Regional Water Quality Assessment", 26)
    expected = []
    chapters = {"Introduction": ["Purpose of the Study", "Scope and Limits"],
                "Methods and Data": ["Sampling Sites", "Laboratory Analysis"]}
    h3 = iter(["Surface Water", "Groundwater", "Sediment Cores", "Soil Moisture", "Air Quality", "River Biota",
               "Wetland Plants", "Coastal Waters"])
    for chapter, sections in chapters.items():
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), chapter, fontsize=16, fontname="helv", color=THEME)
        expected.append((1, chapter, len(doc)))
        y = _body(page, 116, 3)
        for section in sections:
            page.insert_text((72, y + 12), section, fontsize=13, fontname="helv", color=THEME)
            expected.append((2, section, len(doc)))
            y = _body(page, y + 34, 3)
            for _ in range(2):
                title = next(h3)
                page.insert_text((72, y + 10), title, fontsize=12, fontname="helv", color=THEME_DARK)
                expected.append((3, title, len(doc)))
                y = _body(page, y + 30, 4)
    path = tmp_path / "word.pdf"
    doc.save(path)
    assert _tree(path) == expected
