"""Issue 11, held-out documents: the typographic conventions of the generators and document kinds the layout
tree meets outside the corpus (Word reports, FrameMaker/DITA manuals, annual reports, tax instructions), each on
a PDF built here with pymupdf and read without bookmarks or a contents page."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE, walk
from tests.core.built_pages import paragraph, write_line


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
