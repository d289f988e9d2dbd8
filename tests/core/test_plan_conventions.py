"""Plans, regulations and specifications (issue 11): labelled headings and chapter-paged contents lists, each
class on a PDF built here. `tests/bench/synthetic_plans.py` draws these conventions at random; these are the
cases it showed the finders missing."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.tree import Node
from tests.core.built_pages import paragraph, write_line


def _layout(path: Path) -> list[tuple[int, str]]:
    return [(h.level, h.title) for h in find_layout_headings(extract(path))]


def test_a_chapter_label_over_its_title_in_tight_leading_is_one_heading(tmp_path: Path) -> None:
    """"CHAPTER 2" over the chapter's name, both in 24 pt type set on 20 pt lines, so the two line boxes
    overlap; and "Annex B" in large regular type over a bold title that wraps onto a third line. Each is one
    heading. The label stood alone because its title began above the label's bottom edge, and a third line was
    compared with the label's style instead of the title's."""
    doc = pymupdf.open()
    expected = []
    for number, title in ((1, "General Provisions"), (2, "Scope of the Rules"), (3, "Records and Reports")):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 100, f"CHAPTER {number}", 24, True) - 16
        y = write_line(page, y, title, 24, True) + 6
        y = write_line(page, paragraph(page, y, 8) + 8, f"{number}.1 Purpose of this chapter", 12, True)
        paragraph(page, y, 8)
        paragraph(doc.new_page(width=612, height=792), 90, 40)  # the chapter goes on over the next page
        expected += [(1, f"CHAPTER {number} {title}"), (2, f"{number}.1 Purpose of this chapter")]
    for letter, lines in (("A", ("Consultation with the", "Regional Boards")), ("B", ("Survey of Members", "and Users"))):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 300, f"Annex {letter}", 28) - 22
        for line in lines:
            y = write_line(page, y, line, 16, True) - 6
        paragraph(page, y + 20, 10)
        expected.append((1, f"Annex {letter} {' '.join(lines)}"))
    path = tmp_path / "chapters.pdf"
    doc.save(path)
    assert _layout(path) == expected


def test_a_plans_strategies_set_a_point_larger_in_text_weight_are_its_second_level(tmp_path: Path) -> None:
    """Goals in large bold type, their strategies ("Strategy 1.2 Key Partners") a point larger than the 10 pt
    text and not bold, their actions ("Action 1.2.1 New Trail Map") bold at text size. The strategies were
    dropped for want of emphasis, and an action whose title opened with a short word ("New") was taken for a
    repeated label ("Definition 4")."""
    doc = pymupdf.open()
    expected = []
    for goal, name in ((1, "Safer Streets"), (2, "Connected Neighbourhoods"), (3, "Cleaner Air")):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, f"Goal {goal}: {name}", 16, True) + 4
        expected.append((1, f"Goal {goal}: {name}"))
        y = paragraph(page, y, 3)
        for strategy, title in ((1, "Key Partners and Roles"), (2, "New Funding Sources")):
            title = f"{title} for {name}" if goal > 1 else title
            y = write_line(page, y + 8, f"Strategy {goal}.{strategy} {title}", 11) + 2
            expected.append((2, f"Strategy {goal}.{strategy} {title}"))
            y = paragraph(page, y, 3)
            for action, words in ((1, f"New Trail Map for {name}"), (2, f"Progress Review of {name}")):
                y = write_line(page, y + 6, f"Action {goal}.{strategy}.{action} {words}", 10, True) + 2
                expected.append((3, f"Action {goal}.{strategy}.{action} {words}"))
                y = paragraph(page, y, 2)
    path = tmp_path / "plan.pdf"
    doc.save(path)
    assert _layout(path) == expected


def test_a_chapter_paged_contents_list_keeps_entries_whose_numbers_wrapped(tmp_path: Path) -> None:
    """A regulation's contents list in two columns with "2-1" page numbers: an entry's title wraps short of its
    column's edge, its leaders and number go to a line of their own ("............ 1-1"), or the number alone to
    the next line. Each entry keeps its title and page. Rows holding no letters were dropped as rules, a
    left-column row took the right column's line beside it, the column was measured against the page's right
    edge, and a bare "2-1" became an entry of its own."""
    parts = [("PART 1: GENERAL PROVISIONS OF THE RULES", "IN FORCE"), ("PART 2: PERMITS, LICENCES AND TERMS", "OF ISSUE"),
             ("PART 3: RECORDS, RETURNS AND NOTICES", "TO THE BOARD"), ("PART 4: APPEALS AND REVIEW OF DECISIONS", "TAKEN")]
    subparts = ["Purpose and scope", "Definitions of terms", "Forms"]
    doc = pymupdf.open()
    contents = doc.new_page(width=612, height=792)
    write_line(contents, 80, "Contents", 20, True)
    expected = []
    for number, (first, second) in enumerate(parts, start=1):
        x = 72 if number <= 2 else 330  # parts 1-2 in the left column, 3-4 in the right one
        y = 120.0 + (number - 1) % 2 * 8 * 15
        y = write_line(contents, y, first, x=x)
        y = write_line(contents, y, f"{second} ............ {number}-1", x=x)
        expected.append((f"{first} {second}", 2 * number))
        for k, name in enumerate(subparts):
            y = write_line(contents, y, f"Subpart {'ABC'[k]}: {name}" + (f" ...... {number}-2" if k == 2 else ""),
                           x=x + 14)
            if k == 0:
                y = write_line(contents, y, f"............ {number}-1", x=x + 14)
            elif k == 1:
                y = write_line(contents, y, f"{number}-2", x=x + 14)
            expected.append((f"Subpart {'ABC'[k]}: {name}", 2 * number + (k > 0)))
    for number, (first, second) in enumerate(parts, start=1):
        for chapter_page in (1, 2):
            page = doc.new_page(width=612, height=792)
            y = 90.0
            if chapter_page == 1:
                y = write_line(page, y, f"{first} {second}", 14, True) + 6
                y = write_line(page, y, f"Subpart A: {subparts[0]}", 12, True) + 4
                y = paragraph(page, y, 12)
            for k in (1, 2) if chapter_page == 2 else ():
                y = write_line(page, y + 6, f"Subpart {'ABC'[k]}: {subparts[k]}", 12, True) + 4
                y = paragraph(page, y, 10)
            paragraph(page, y, 10)
            page.insert_text((300, 760), f"{number}-{chapter_page}", fontsize=9, fontname="helv")
    path = tmp_path / "regulation.pdf"
    doc.save(path)
    outline = build_outline(extract(path), use_bookmarks=False)
    rows: list[tuple[str, int]] = []

    def visit(nodes: list[Node]) -> None:
        for node in nodes:
            rows.append((node.title, node.start_page))
            visit(node.children)

    visit(outline.nodes)
    assert outline.source == "toc_page"
    assert [row for row in rows if row[0].startswith(("PART", "Subpart"))] == expected
