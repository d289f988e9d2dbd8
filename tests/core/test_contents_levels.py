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


def _row(page: pymupdf.Page, y: float, title: str, printed: str, size: float, bold: bool, x: float = 72) -> float:
    """A contents row set in one face throughout: title, dot leaders, right-aligned page number."""
    font = "hebo" if bold else "helv"
    page.insert_text((x, y), title, fontsize=size, fontname=font)
    start = x + pymupdf.get_text_length(title, font, size) + 6
    page.insert_text((start, y), "." * int((500 - start) / 2.8), fontsize=size, fontname=font)
    page.insert_text((530 - pymupdf.get_text_length(printed, font, size), y), printed, fontsize=size, fontname=font)
    return y + 18


def _entry_pages(doc: pymupdf.Document, path: Path, plan: list[tuple[str, bool]], first: int) -> dict[str, int]:
    """A page per (title, is_chapter) of `plan` from page `first`, its title over prose and its folio; saves
    the document and returns title -> contents level."""
    for number, (title, is_chapter) in enumerate(plan, start=first):
        page = doc.new_page(width=612, height=792)
        paragraph(page, write_line(page, 90, title, size=16 if is_chapter else 12, bold=True) + 6, 20)
        write_line(page, 760, str(number), size=9, x=300)
    doc.save(path)
    return {h.title: h.level for h in find_toc_entries(extract(path)) or []}


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
    return _entry_pages(doc, path, plan, 3)


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


def _continued_contents(path: Path, second_page_shift: float, entries_on_second: int) -> dict[str, int]:
    """A cover, a contents list of chapters (flush) and sections (indented 18 pt) with right-aligned numbers that
    runs over two pages, the second holding the last `entries_on_second` rows with its whole list moved right by
    `second_page_shift` (mirrored margins), then a page per entry; returns title -> contents level."""
    plan = [row for chapter, sections in CHAPTERS for row in [(chapter, True)] + [(s, False) for s in sections]]
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    page, shift = doc.new_page(width=612, height=792), 0.0
    y = write_line(page, 90, "Contents", size=18, bold=True) + 10
    for number, (title, is_chapter) in enumerate(plan, start=4):
        if number - 4 == len(plan) - entries_on_second:
            page, shift, y = doc.new_page(width=612, height=792), second_page_shift, 90
        x = 72 + shift + (0 if is_chapter else 18)
        page.insert_text((x, y), title, fontsize=10, fontname="hebo" if is_chapter else "helv")
        page.insert_text((530 + shift - pymupdf.get_text_length(str(number), "helv", 10), y), str(number),
                         fontsize=10, fontname="helv")
        y += 18
    return _entry_pages(doc, path, plan, 4)


def test_a_continuation_page_of_sub_entries_keeps_their_level(tmp_path: Path) -> None:
    """The list's last two sections run over to a page of their own, indented as on the first page and with the
    page numbers in the same column: they stay sections of the last chapter, not chapters."""
    levels = _continued_contents(tmp_path / "continued.pdf", 0.0, 2)
    last_chapter, last_sections = CHAPTERS[-1]
    assert levels[last_sections[0]] == levels[last_sections[1]] == levels[last_chapter] + 1


def test_mirrored_margins_move_a_continuation_page_whole(tmp_path: Path) -> None:
    """The second contents page set 30 pt further right, numbers too (a book's mirrored margins), and opening on a
    chapter: its chapter stays a chapter and its sections stay sections."""
    levels = _continued_contents(tmp_path / "mirrored.pdf", 30.0, 3)
    last_chapter, last_sections = CHAPTERS[-1]
    assert levels[last_chapter] == levels[CHAPTERS[0][0]]
    assert levels[last_sections[0]] == levels[last_sections[1]] == levels[last_chapter] + 1


def _book(path: Path, plan: list[tuple[str, float, bool, float]]) -> dict[str, int]:
    """A cover, a contents page with a row per (title, size, bold, indent) of `plan`, then a page per entry;
    returns title -> contents level."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Field Guide to Rivers", size=26, bold=True)
    contents = doc.new_page(width=612, height=792)
    y = write_line(contents, 90, "Contents", size=18, bold=True) + 10
    for number, (title, size, bold, indent) in enumerate(plan, start=3):
        y = _row(contents, y, title, str(number), size, bold, 72 + indent)
    return _entry_pages(doc, path, [(title, size > 10) for title, size, _, _ in plan], 3)


def test_parts_set_larger_than_the_chapters_flush_with_them_head_them(tmp_path: Path) -> None:
    """A LaTeX book's contents: parts "I  Measurements" in 14 pt bold and chapters "1  Rivers" in 12 pt bold,
    both at the margin, sections indented in regular type; the first part has no chapter of its own. Parts are
    the top level, chapters under them, sections under those. Before, parts and chapters were one level, as
    both are set apart from the sections and no plain entry sits flush under a part."""
    plan = [("I Preliminaries", 14, True, 0), ("II Measurements", 14, True, 0),
            ("1 Rivers of the North", 12, True, 0), ("1.1 Spring floods", 10, False, 18),
            ("1.2 Summer levels", 10, False, 18), ("1.3 Autumn rains", 10, False, 18),
            ("2 Lakes of the South", 12, True, 0), ("2.1 Winter ice", 10, False, 18),
            ("2.2 Algae blooms", 10, False, 18), ("III Methods", 14, True, 0),
            ("3 Coasts of the West", 12, True, 0), ("3.1 Cliff erosion", 10, False, 18),
            ("3.2 Tidal flats", 10, False, 18), ("A Data Tables", 12, True, 0)]
    levels = _book(tmp_path / "book.pdf", plan)
    assert [levels[title] for title, *_ in plan] == [1, 1, 2, 3, 3, 3, 2, 3, 3, 1, 2, 3, 3, 2]


def test_entries_of_one_numbering_set_larger_by_accident_stay_level(tmp_path: Path) -> None:
    """Appendices "A" to "E" at the margin, "B" and "D" printed larger than the rest: one scheme numbers them
    all, so they are one level, each over its indented section."""
    plan: list[tuple[str, float, bool, float]] = []
    for letter, name in zip("ABCDE", ["Organization", "Minutes", "Audits", "Budgets", "Litigation"]):
        plan += [(f"{letter} {name}", 12 if letter in "BD" else 10, False, 0),
                 (f"Overview of the {name.lower()}", 10, False, 14)]
    levels = _book(tmp_path / "appendices.pdf", plan)
    assert [levels[title] for title, *_ in plan] == [1, 2] * 5
