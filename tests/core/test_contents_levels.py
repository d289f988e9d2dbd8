"""Issue 11 class 6 (hierarchy) in printed contents lists, on PDFs built here: a list that tells its chapters
from their sections by type alone, every row flush at one indentation, is not one flat level."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.toc_page import find_toc_entries
from tests.core.built_pages import paragraph, write_line

CHAPTERS = [("Rivers of the North", ["Spring floods", "Summer levels"]),
            ("Lakes of the South", ["Winter ice", "Algae blooms"]),
            ("Coasts of the West", ["Cliff erosion", "Tidal flats"])]


def _row(page: pymupdf.Page, y: float, title: str, printed: str, size: float, bold: bool) -> float:
    """A contents row set in one face throughout: title, dot leaders, right-aligned page number."""
    font = "hebo" if bold else "helv"
    page.insert_text((72, y), title, fontsize=size, fontname=font)
    start = 72 + pymupdf.get_text_length(title, font, size) + 6
    page.insert_text((start, y), "." * int((500 - start) / 2.8), fontsize=size, fontname=font)
    page.insert_text((530 - pymupdf.get_text_length(printed, font, size), y), printed, fontsize=size, fontname=font)
    return y + 18


def _report(path: Path, chapter_size: float, chapter_bold: bool, chapters: list[tuple[str, list[str]]]) -> dict[str, int]:
    """A cover, a contents page listing every chapter and section flush left, then one page per entry; returns
    title -> contents level."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    contents = doc.new_page(width=612, height=792)
    y = write_line(contents, 90, "Contents", size=18, bold=True) + 10
    plan: list[tuple[str, bool]] = []
    for chapter, sections in chapters:
        plan += [(chapter, True)] + [(s, False) for s in sections]
    for number, (title, is_chapter) in enumerate(plan, start=3):
        y = _row(contents, y, title, str(number), chapter_size if is_chapter else 10, chapter_bold and is_chapter)
    for number, (title, is_chapter) in enumerate(plan, start=3):
        page = doc.new_page(width=612, height=792)
        paragraph(page, write_line(page, 90, title, size=16 if is_chapter else 12, bold=True) + 6, 20)
        write_line(page, 760, str(number), size=9, x=300)
    doc.save(path)
    return {h.title: h.level for h in find_toc_entries(extract(path)) or []}


@pytest.mark.parametrize(("size", "bold"), [(10, True), (12, False)])
def test_chapters_set_apart_by_type_head_the_sections_listed_flush_under_them(
        tmp_path: Path, size: float, bold: bool) -> None:
    """Chapters set bold (or larger) over their sections, all flush left with their page numbers: the
    chapters are one level, their sections the next."""
    levels = _report(tmp_path / "report.pdf", size, bold, CHAPTERS)
    for chapter, sections in CHAPTERS:
        assert levels[chapter] + 1 == levels[sections[0]] == levels[sections[1]]


def test_one_entry_set_apart_makes_no_level(tmp_path: Path) -> None:
    """A single bold row among plain ones is a highlight, not a level: the list stays flat."""
    chapters = [("Rivers of the North", ["Spring floods", "Summer levels", "Winter ice", "Algae blooms"])]
    levels = _report(tmp_path / "flat.pdf", 10, True, chapters)
    assert len(set(levels[t] for t in ["Rivers of the North", "Spring floods", "Algae blooms"])) == 1
