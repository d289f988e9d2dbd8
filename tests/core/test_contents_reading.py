"""Issue 11 class 5 (contents pages) and class 6 (hierarchy), on PDFs built here: a contents entry wrapped over
three lines of a narrow column is one entry, and the layout headings hung under a contents list keep their
reading order on a page set in two columns."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.toc_page import find_toc_entries
from pageindex_desktop.core.outline.tree import Node
from tests.core.built_pages import FILLER, paragraph, write_line

WRAPPED = [("1. Governance and the quality", "inspection of the supply network", "and its reservoirs"),
           ("2. Financial review of the", "capital programme and the renewal", "of the older mains")]


def _column_lines(page: pymupdf.Page, x: float, y: float, count: int) -> float:
    """`count` body lines of a 230-pt column from (x, y); returns the y below them."""
    for i in range(count):
        page.insert_text((x, y), (FILLER.capitalize() if i == 0 else FILLER)[:46], fontsize=10, fontname="helv")
        y += 13
    return y + 6


def test_a_title_wrapped_over_three_lines_of_a_narrow_column_is_one_entry(tmp_path: Path) -> None:
    """A contents list in the left column of a two-column page: each long title wraps over three lines and
    its page number stands on the last."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of the Water Board", size=24, bold=True)
    contents = doc.new_page(width=612, height=792)
    y = write_line(contents, 90, "Contents", size=18, bold=True) + 10
    for number, lines in enumerate(WRAPPED + [("3. Outlook",)], start=3):
        for line in lines:
            contents.insert_text((72, y), line, fontsize=11, fontname="hebo")
            y += 16
        contents.insert_text((286 - pymupdf.get_text_length(str(number), "hebo", 11), y - 16), str(number),
                             fontsize=11, fontname="hebo")
        y += 6
    for lines in WRAPPED + [("3. Outlook",)]:
        page = doc.new_page(width=612, height=792)
        paragraph(page, write_line(page, 90, " ".join(lines), size=16, bold=True) + 6, 20)
    path = tmp_path / "wrapped.pdf"
    doc.save(path)
    entries = find_toc_entries(extract(path)) or []
    assert [(h.title, h.page) for h in entries if h.title != "Contents"] == [
        (" ".join(WRAPPED[0]), 3), (" ".join(WRAPPED[1]), 4), ("3. Outlook", 5)]


def _flat(nodes: list[Node], depth: int = 1) -> list[tuple[str, int]]:
    """(title, depth) of every node in reading order."""
    out: list[tuple[str, int]] = []
    for node in nodes:
        out.append((node.title, depth))
        out.extend(_flat(node.children, depth + 1))
    return out


def _chaptered(path: Path, chapters: dict[str, list[str]], deeper: dict[str, list[str]],
               lines: tuple[int, int, int]) -> list[tuple[str, int]]:
    """A cover, a contents page listing each chapter (flush) and its sections (indented 18 pt) at the chapter's
    page, then a page per chapter: its title (16 pt bold), its sections (13 pt bold) and their sub-sections
    from `deeper` (11 pt bold), each over `lines` (chapter, section, sub-section) lines of prose. Returns
    (title, level) of every heading in reading order."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    contents = doc.new_page(width=612, height=792)
    y = write_line(contents, 90, "Contents", size=18, bold=True) + 10
    for number, (chapter, sections) in enumerate(chapters.items(), start=3):
        for title, indent in [(chapter, 0)] + [(s, 18) for s in sections]:
            contents.insert_text((72 + indent, y), title, fontsize=11, fontname="helv")
            contents.insert_text((530, y), str(number), fontsize=11, fontname="helv")
            y += 18
    expected: list[tuple[str, int]] = []
    for chapter, sections in chapters.items():
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, write_line(page, 90, chapter, size=16, bold=True) + 6, lines[0])
        expected.append((chapter, 1))
        for section in sections:
            y = paragraph(page, write_line(page, y + 6, section, size=13, bold=True) + 4, lines[1])
            expected.append((section, 2))
            for sub in deeper.get(section, []):
                y = paragraph(page, write_line(page, y + 6, sub, size=11, bold=True) + 4, lines[2])
                expected.append((sub, 3))
    doc.save(path)
    return expected


def _contents_tree(path: Path) -> list[tuple[str, int]]:
    """(title, depth) of the tree built from the contents page of `path` (bookmarks ignored), in reading order,
    without the front matter and the contents' own node."""
    outline = build_outline(extract(path), use_bookmarks=False)
    assert outline.source == "toc_page"
    return [row for row in _flat(outline.nodes) if row[0] not in ("Front matter", "Contents")]


@pytest.mark.parametrize("numbered", [True, False])
def test_sub_headings_of_a_two_column_page_keep_their_reading_order_under_the_contents(
        tmp_path: Path, numbered: bool) -> None:
    """A contents page lists only the chapters; each chapter page is set in two columns, its second section
    opening at the top of the right column, above where its first section opens in the left one. The
    sections hang under their chapter in reading order: left column first."""
    chapters = {"Rivers of the North": ["Spring floods", "Summer levels"],
                "Lakes of the South": ["Winter ice", "Algae blooms"],
                "Coasts of the West": ["Cliff erosion", "Tidal flats"]}
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    contents = doc.new_page(width=612, height=792)
    y = write_line(contents, 90, "Contents", size=18, bold=True) + 10
    for number, chapter in enumerate(chapters, start=1):
        contents.insert_text((72, y), f"{number}. {chapter}" if numbered else chapter, fontsize=11, fontname="helv")
        contents.insert_text((530, y), str(number + 2), fontsize=11, fontname="helv")
        y += 18
    expected: list[tuple[str, int]] = []
    for number, (chapter, sections) in enumerate(chapters.items(), start=1):
        page = doc.new_page(width=612, height=792)
        title = f"{number}. {chapter}" if numbered else chapter
        names = [f"{number}.{k} {s}" if numbered else s for k, s in enumerate(sections, start=1)]
        expected += [(title, 1)] + [(name, 2) for name in names]
        y = _column_lines(page, 72, write_line(page, 90, title, size=16, bold=True) + 6, 20)
        page.insert_text((72, y + 8), names[0], fontsize=12, fontname="hebo")
        _column_lines(page, 72, y + 28, 18)
        page.insert_text((320, 90), names[1], fontsize=12, fontname="hebo")
        _column_lines(page, 320, 110, 44)
        write_line(page, 760, str(number + 2), size=9, x=300)
    path = tmp_path / "columns.pdf"
    doc.save(path)
    assert _contents_tree(path) == expected


def test_a_deeper_section_named_like_a_listed_one_under_another_number_is_added(tmp_path: Path) -> None:
    """The contents lists chapters and their "1.2"-numbered sections; the text numbers one level further, and
    one such sub-section bears its parent's or a neighbour's name under its own number ("2.2.1 Funding" under
    "2.2 Funding"). It is a section of its own, added under its parent like the others."""
    listed = [("1. Rivers", 1), ("1.1 Spring floods", 2), ("1.2 Summer levels", 2),
              ("2. Lakes", 1), ("2.1 Winter ice", 2), ("2.2 Funding", 2), ("3. Coasts", 1), ("3.1 Cliffs", 2)]
    deeper = {"1.2 Summer levels": ["1.2.1 Gauges", "1.2.2 Spring floods"], "2.2 Funding": ["2.2.1 Funding",
                                                                                           "2.2.2 Grants"]}
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    contents = doc.new_page(width=612, height=792)
    y = write_line(contents, 90, "Contents", size=18, bold=True) + 10
    for number, (title, level) in enumerate(listed, start=3):
        contents.insert_text((72 + 18 * (level - 1), y), title, fontsize=11, fontname="helv")
        contents.insert_text((530, y), str(number), fontsize=11, fontname="helv")
        y += 18
    expected: list[tuple[str, int]] = []
    for title, level in listed:
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, write_line(page, 90, title, size=16 if level == 1 else 13, bold=True) + 6, 10)
        expected.append((title, level))
        for sub in deeper.get(title, []):
            y = paragraph(page, write_line(page, y + 6, sub, size=11, bold=True) + 4, 6)
            expected.append((sub, 3))
    path = tmp_path / "deeper.pdf"
    doc.save(path)
    assert _contents_tree(path) == expected


def test_a_sub_section_named_like_the_entry_listed_on_the_next_page_is_hung(tmp_path: Path) -> None:
    """The contents lists chapters and sections, a page per chapter; the text divides some sections once more
    in a smaller bold face. One such sub-section, low on a chapter's page, bears the name of the section listed
    at the top of the next chapter's page ("Approach"): it reads before that section's heading, so it is no
    repeat of the listed title but a sub-section of its own."""
    chapters = {"Rivers": ["Spring floods", "Summer levels"], "Lakes": ["Approach", "Winter ice"],
                "Coasts": ["Cliffs", "Tidal flats"]}
    deeper = {"Summer levels": ["Gauges", "Approach"], "Winter ice": ["Thickness", "Break-up"],
              "Tidal flats": ["Birds", "Silt"]}
    path = tmp_path / "namesake.pdf"
    expected = _chaptered(path, chapters, deeper, (5, 5, 4))
    assert _contents_tree(path) == expected


def test_a_running_head_naming_the_chapter_is_no_place_of_its_entry(tmp_path: Path) -> None:
    """Each chapter's long title wraps over three lines of its first page, so it does not read as the title;
    the first two chapters' second pages name them whole in a small running head (too few to be found as
    furniture), and only the chapters' first pages print their folios. Each entry stays on the page the
    contents gives: the running heads, agreeing with each other, had moved every entry a page on."""
    chapters = [("1. Operations and the", "storage audit of the", "supply network"),
                ("2. Governance and the", "register of tenders", "for chlorine"),
                ("3. Energy use and the", "residual tender for", "the laboratories"),
                ("4. Capital plan and the", "renewal of the older", "mains")]
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "District Water Plan", size=26, bold=True)
    contents = doc.new_page(width=612, height=792)
    y = write_line(contents, 90, "Contents", size=18, bold=True) + 10
    for k, lines in enumerate(chapters):
        contents.insert_text((72, y), " ".join(lines), fontsize=11, fontname="helv")
        contents.insert_text((530, y), str(3 + 2 * k), fontsize=11, fontname="helv")
        y += 18
    for k, lines in enumerate(chapters):
        first = doc.new_page(width=612, height=792)
        y = 90.0
        for line in lines:
            y = write_line(first, y, line, size=18, bold=True)
        paragraph(first, y + 6, 20)
        write_line(first, 770, f"Page {3 + 2 * k}", size=8, x=500)
        second = doc.new_page(width=612, height=792)
        if k < 2:
            write_line(second, 40, " ".join(lines), size=8, x=72)
        paragraph(second, 90, 30)
    path = tmp_path / "running.pdf"
    doc.save(path)
    entries = find_toc_entries(extract(path)) or []
    assert [(h.title, h.page) for h in entries if h.title != "Contents"] == [
        (" ".join(lines), 3 + 2 * k) for k, lines in enumerate(chapters)]


def test_a_section_printed_after_a_sub_section_of_its_name_is_the_listed_one(tmp_path: Path) -> None:
    """The contents lists chapters and sections; the text divides sections once more in a smaller bold face.
    On one page the sub-section "Key Findings" of "Summary of Results" comes right before the listed section
    "Key Findings": the listed entry is the section, set like the other sections, and the sub-sections of
    every section still hang under them."""
    chapters = {"Rivers": ["Spring floods", "Summary of Results", "Key Findings"], "Lakes": ["Winter ice", "Outlook"]}
    deeper = {"Spring floods": ["Gauges", "Levels"], "Summary of Results": ["Key Findings", "Methods"],
              "Winter ice": ["Thickness", "Break-up"]}
    path = tmp_path / "twice.pdf"
    expected = _chaptered(path, chapters, deeper, (4, 3, 3))
    assert _contents_tree(path) == expected


def test_a_contents_list_under_a_papers_title_and_abstract_holds_only_its_entries(tmp_path: Path) -> None:
    """A paper's first page: its title, authors, "Abstract" and a paragraph, then "Contents" over the list,
    and the abstract's footnotes at the foot. The heading sat below the page's first ten rows and was not
    looked for, so the title block was read as entries, all put on the first section's page; the footnotes,
    set smaller, became entries at the end. Only the listed sections are entries now, each on its page."""
    sections = ["Introduction", "Related Work", "The Method", "Experiments", "Conclusion"]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Reading Long Documents Like a Person", size=17, x=150) + 6
    y = write_line(page, y, "A. Author and B. Author", size=12, x=240) + 6
    y = write_line(page, y, "Abstract", bold=True, x=280)
    y = paragraph(page, y, 9) + 12
    y = write_line(page, y, "Contents", size=14, bold=True) + 6
    for number, title in enumerate(sections, start=1):
        dots = "." * int((430 - pymupdf.get_text_length(f"{number}  {title}", "helv", 10)) / 2.8)
        y = write_line(page, y, f"{number}  {title} {dots} {number + 1}")
    for mark in (1, 2):
        write_line(page, 700 + 12 * mark, f"{mark}The notes of the abstract say where the figures come from.", size=8)
    for number, title in enumerate(sections, start=1):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, f"{number}  {title}", size=14, bold=True) + 6
        paragraph(page, y, 30)
        write_line(page, 760, str(number + 1), x=300)
    path = tmp_path / "paper.pdf"
    doc.save(path)
    entries = find_toc_entries(extract(path)) or []
    assert [(h.title, h.page) for h in entries] == [("Contents", 1)] + [
        (f"{number} {title}", number + 1) for number, title in enumerate(sections, start=1)]
