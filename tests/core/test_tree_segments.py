"""Issue 11 classes 3-5 on PDFs built here: captions and table rows taken for sections, wrapped headings split,
table cells merged into a heading, and contents pages the parser missed (two columns, no heading or leaders,
chapter-page numbers like "3-12")."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.pdf import extract
from tests.core.built_pages import paragraph, write_line
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.toc_page import find_toc_headings


def _right(page: pymupdf.Page, y: float, text: str, right: float, size: float = 10) -> None:
    """Text ending at x = `right` (a right-aligned page number)."""
    page.insert_text((right - pymupdf.get_text_length(text, "helv", size), y), text, fontsize=size, fontname="helv")


def test_figure_table_listing_and_exhibit_captions_are_not_sections(tmp_path: Path) -> None:
    """Captions set bold or larger ("Figure 3-4: ...", "Table 2.1 ...", "Listing 12", "Exhibit 99.1") and their
    second lines stay out of the outline; the headings around them are kept."""
    doc = pymupdf.open()
    captions = [("Figure 3-4: Flow of the Samples Through the Laboratory", 10, True),
                ("Table 2.1 Results by Site and Season", 11, True), ("Listing 12", 10, True),
                ("Exhibit 99.1", 12, True), ("FIGURE 7 Annual Rainfall at the Northern Stations", 12, False),
                ("Listing 3: The Parser Main Loop", 10, True)]
    headings = ["1 Introduction", "2 Field Methods", "3 Results", "4 Discussion", "5 Software", "6 Filings"]
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    for number, (title, (caption, size, bold)) in enumerate(zip(headings, captions)):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, title, size=14, bold=True) + 6
        y = paragraph(page, y, 8)
        y = write_line(page, y + 60, caption, size=size, bold=bold)  # under a figure's white space
        if number == 0:
            y = write_line(page, y, "Samples, Their Containers and Labels", size=size, bold=bold)  # its second line
        paragraph(page, y + 8, 10)
    path = tmp_path / "captions.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == headings


def test_a_heading_wrapped_onto_two_lines_is_one_section(tmp_path: Path) -> None:
    """Two lines in one heading font directly below each other are one title, also when the second line starts
    with a capital; the next heading after a paragraph stays a heading of its own."""
    doc = pymupdf.open()
    wrapped = [("Item 7. Management's Discussion and Analysis of Financial", "Condition and Results of Operations"),
               ("2.3 Measuring the Flow of Water Through the Porous", "Rock Layers Under Pressure"),
               ("Appendix B. Sampling Protocols for the Northern", "Stations and the Coastal Sites")]
    after = ["Results of the Season", "Flow in the Dry Months", "Storage of the Samples"]
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    for (first, second), next_title in zip(wrapped, after):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, first, size=13, bold=True)
        y = write_line(page, y, second, size=13, bold=True) + 6
        y = paragraph(page, y, 10)
        y = write_line(page, y + 10, next_title, size=13, bold=True) + 6
        paragraph(page, y, 10)
    path = tmp_path / "wrapped.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found == [t for (first, second), nxt in zip(wrapped, after) for t in (f"{first} {second}", nxt)]


def test_table_cells_under_a_heading_are_not_merged_into_it(tmp_path: Path) -> None:
    """A bold heading directly over a bold table header row in the same font keeps its own title: the column
    heads and the row labels below are neither part of it nor headings."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Overview of the Year", size=10, bold=True) + 4
    y = paragraph(page, y, 6)
    y = write_line(page, y + 6, "Revenue by Segment", size=10, bold=True)
    for x, text in ((72, "Segment"), (330, "2023"), (460, "2022")):
        write_line(page, y, text, bold=True, x=x)
    y += 15
    for label in ("Consumer Products", "Industrial Services", "Total Revenue"):
        for x, text in ((72, label), (330, "1,204.5"), (460, "1,118.2")):
            write_line(page, y, text, x=x, bold=label.startswith("Total"))
        y += 14
    y = paragraph(page, y + 20, 6)
    write_line(page, y + 8, "Liquidity and Capital Resources", size=10, bold=True)
    paragraph(page, y + 30, 6)
    path = tmp_path / "cells.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found == ["Overview of the Year", "Revenue by Segment", "Liquidity and Capital Resources"]


def _sections(doc: pymupdf.Document, titles: list[str], first_page: int, folio: "list[str] | None" = None) -> None:
    """One section per page from physical page `first_page`, with an optional printed folio at the foot."""
    for i, title in enumerate(titles):
        page = doc[first_page - 1 + i]
        y = write_line(page, 90, title, size=14, bold=True) + 6
        paragraph(page, y, 20)
        if folio is not None:
            write_line(page, 760, folio[i], size=9, x=300)


TWO_COLUMN = [("1 Introduction", 3), ("2 Scope of the Review", 4), ("3 Field Methods", 5), ("4 Sampling Sites", 6),
              ("5 Results", 7), ("6 Water Quality", 8), ("7 Discussion", 9), ("8 Recommendations", 10)]


def test_a_two_column_contents_page_is_read_column_by_column(tmp_path: Path) -> None:
    """Entries printed in two columns are not merged across the gutter into one title: each column's entries
    keep their own page numbers."""
    doc = pymupdf.open()
    for _ in range(11):
        doc.new_page(width=612, height=792)
    write_line(doc[0], 200, "Annual Review of Rivers", size=26, bold=True)
    y = write_line(doc[1], 90, "Contents", size=18, bold=True) + 10
    for row in range(4):
        for column, x in ((0, 72), (1, 330)):
            title, page = TWO_COLUMN[row + 4 * column]
            write_line(doc[1], y, title, x=x)
            _right(doc[1], y, str(page), x + 210)
        y += 18
    _sections(doc, [t for t, _p in TWO_COLUMN], 3)
    path = tmp_path / "columns.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings[1:]] == TWO_COLUMN


def test_a_contents_list_without_heading_or_leaders_is_found(tmp_path: Path) -> None:
    """A front page listing titles with right-aligned page numbers, under no "Contents" heading and without dot
    leaders, is the document's contents."""
    doc = pymupdf.open()
    for _ in range(11):
        doc.new_page(width=612, height=792)
    write_line(doc[0], 200, "Annual Review of Rivers", size=26, bold=True)
    y = 120.0
    for title, page in TWO_COLUMN:
        write_line(doc[1], y, title, x=72)
        _right(doc[1], y, str(page), 530)
        y += 18
    _sections(doc, [t for t, _p in TWO_COLUMN], 3)
    path = tmp_path / "bare.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings] == TWO_COLUMN


CHAPTER_PAGES = [("Chapter 1 Getting Started", "1-1", 3), ("Installing the Tools", "1-3", 5),
                 ("Chapter 2 Configuration", "2-1", 6), ("Network Settings", "2-2", 7),
                 ("Chapter 3 Operation", "3-1", 9), ("Daily Checks", "3-3", 11), ("Appendix A Error Codes", "A-1", 12)]


@pytest.mark.parametrize("footers", [True, False])
def test_chapter_page_numbers_map_to_the_physical_pages(tmp_path: Path, footers: bool) -> None:
    """Contents entries numbered "2-1", "A-1" (chapter and page in the chapter) land on the page whose footer
    or page label prints that number, also when the title is printed there in other words."""
    doc = pymupdf.open()
    for _ in range(12):
        doc.new_page(width=612, height=792)
    write_line(doc[0], 200, "Field Unit Operator Guide", size=26, bold=True)
    y = write_line(doc[1], 90, "Contents", size=18, bold=True) + 10
    for title, printed, _page in CHAPTER_PAGES:
        write_line(doc[1], y, title, x=72)
        doc[1].insert_text((72 + pymupdf.get_text_length(title, "helv", 10) + 6, y), "." * 40, fontsize=10)
        _right(doc[1], y, printed, 530)
        y += 18
    folios = ["1-1", "1-2", "1-3", "2-1", "2-2", "2-3", "3-1", "3-2", "3-3", "A-1"]
    starts = {page: title for title, _printed, page in CHAPTER_PAGES}
    for i, folio in enumerate(folios):
        page = doc[2 + i]
        y = 90.0
        if i + 3 in starts:
            title = "Settings for the Network" if starts[i + 3] == "Network Settings" else starts[i + 3]
            y = write_line(page, y, title, size=14, bold=True) + 6
        paragraph(page, y, 20)
        if footers:
            write_line(page, 760, folio, size=9, x=300)
    if not footers:
        doc.set_page_labels([{"startpage": start, "prefix": prefix, "style": "D", "firstpagenum": 1}
                             for start, prefix in ((0, "F-"), (2, "1-"), (5, "2-"), (8, "3-"), (11, "A-"))])
    path = tmp_path / "chapters.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings[1:]] == [(t, p) for t, _printed, p in CHAPTER_PAGES]


def test_a_long_heading_wrapped_onto_three_lines_is_one_title(tmp_path: Path) -> None:
    """A heading of three lines, over 140 characters once joined, is one title: its second line opens no
    section of its own. Numbered, it is kept whole even at 27 words (a regulation's "a. Obligation to ...")."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    large = ("Regulations Q (Capital Adequacy of Bank Holding Companies, Savings and Loan",
             "Holding Companies, and State Member Banks), LL (Savings and Loan Holding",
             "Companies), and YY (Enhanced Prudential Standards)")
    numbered = ("Obligation to Reasonably Disclose to the Retail Customer, in",
                "Writing, the Material Facts Relating to the Scope and Terms of the",
                "Relationship with the Retail Customer")
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Rules and Regulations", size=16) + 6
    for line in large:
        y = write_line(page, y, line, size=12) - 4
    y = paragraph(page, y + 12, 10)
    y = write_line(page, y + 10, "2. Disclosure Obligation", x=144) + 6
    y = paragraph(page, y, 6) + 6
    write_line(page, y, "a.", x=180)  # the item letter hangs left of its title
    for line in numbered:
        y = write_line(page, y, line, x=216) - 1
    paragraph(page, y + 10, 8)
    path = tmp_path / "long.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert not any(t.startswith(("Holding Companies", "Writing, the", "Companies), and")) for t in found)
    assert "a. " + " ".join(numbered) in found
    assert [t for t in found if t.startswith("Regulations Q")] in ([], [" ".join(large)])


def test_the_upper_line_of_a_two_line_column_head_is_not_a_heading(tmp_path: Path) -> None:
    """An exhibit index whose column head "Exhibit / Number" is set on two lines beside "Exhibit Description":
    the lone upper line is a column head, not a section; the heading over the table stays."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Exhibits and Financial Statement Schedules", bold=True) + 4
    y = paragraph(page, y, 4) + 10
    write_line(page, y, "Exhibit", size=9, bold=True)
    y += 9
    for x, text in ((72, "Number"), (140, "Exhibit Description"), (420, "Form"), (480, "Filing Date")):
        write_line(page, y, text, size=9, bold=True, x=x)
    y += 14
    for number, text in (("3.1", "Restated Articles of Incorporation"), ("4.1", "Indenture, dated as of May 1")):
        for x, cell in ((72, number), (140, text), (420, "8-K"), (480, "5/3/21")):
            write_line(page, y, cell, size=9, x=x)
        y += 13
    y = paragraph(page, y + 20, 6)
    write_line(page, y + 8, "Signatures", bold=True)
    paragraph(page, y + 30, 4)
    path = tmp_path / "exhibits.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found == ["Exhibits and Financial Statement Schedules", "Signatures"]


def test_bold_total_rows_of_a_statement_are_not_headings(tmp_path: Path) -> None:
    """A balance sheet whose labels fill the left half and figures the right reads like a two-column page;
    its bold "Total ..." rows, figures on their baseline in the "other column", are still table rows and are
    not joined into one heading."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 80, "Consolidated Balance Sheets", size=14, bold=True) + 10
    labels = ["Cash and cash equivalents", "Short-term investments", "Accounts receivable, net", "Inventories",
              "Other current assets", "Property, plant and equipment, net", "Goodwill", "Identified intangibles",
              "Short-term debt", "Accounts payable", "Accrued compensation", "Long-term debt", "Retained earnings"]
    for label in labels:
        write_line(page, y, label, size=9, x=40)
        write_line(page, y, "12,204", size=9, x=480)
        write_line(page, y, "11,118", size=9, x=549)
        y += 14
    for label in ("Total stockholders' equity", "Total liabilities, temporary equity, and stockholders' equity"):
        write_line(page, y, label, size=9, bold=True, x=40)
        write_line(page, y, "81,038", size=9, bold=True, x=480)
        write_line(page, y, "77,504", size=9, bold=True, x=549)
        y += 14
    y = write_line(page, y + 20, "See accompanying notes.", size=9, x=40)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Notes to Consolidated Financial Statements", size=14, bold=True) + 6
    paragraph(page, y, 10)
    path = tmp_path / "statement.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found == ["Consolidated Balance Sheets", "Notes to Consolidated Financial Statements"]


COLUMN_TEXT = "readings from every station were checked twice"  # about 190 pt at 9 pt: one column's width


def _column(page: pymupdf.Page, x: float, y: float, bottom: float, heading: "tuple[float, str] | None") -> None:
    """Short paragraphs of a 229 pt column from `x`, each opening indented; `heading`: (y, title) set in it."""
    line = 0
    while y < bottom:
        if heading is not None and abs(y - heading[0]) < 6:
            write_line(page, heading[0] + 4, heading[1], size=12, bold=True, x=x)
            y = heading[0] + 26
            line = 0
            continue
        indent = 12 if line % 3 == 0 else 0  # a paragraph of three lines, its first indented
        write_line(page, y, COLUMN_TEXT if line % 3 else COLUMN_TEXT[:40], size=9, x=x + indent)
        y += 13
        line += 1


def test_a_heading_in_the_right_column_of_off_centre_columns(tmp_path: Path) -> None:
    """Two columns set off the page's centre (55-284 and 294-523 pt on a 612 pt page, as a dvips page sits) with
    many indented paragraph openings: the indents are no third column, so the page is read as two columns and
    a heading in the right one, level with a line of the left one, is no table cell crowded by it."""
    doc = pymupdf.open()
    titles = ["2.6 Sharing the Load", "2.7 Building the System", "2.8 Separate Compilation"]
    for title in titles:
        page = doc.new_page(width=612, height=792)
        _column(page, 55, 80, 720, None)
        _column(page, 294, 80, 720, (420, title))
    path = tmp_path / "columns.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == titles


def test_a_heading_hyphenated_across_its_two_lines_is_one_word_again(tmp_path: Path) -> None:
    """A title broken inside a word ("Match-" over "ing") is one heading, its word re-joined."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Four Lectures on Modules", size=26, bold=True)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "1.6 Signatures", size=13, bold=True) + 6
    y = paragraph(page, y, 10)
    y = write_line(page, y + 10, "1.7 Coercive Signature Match-", size=13, bold=True)
    y = write_line(page, y, "ing", size=13, bold=True, x=104) + 6
    y = paragraph(page, y, 10)
    y = write_line(page, y + 10, "1.8 Functor Declaration", size=13, bold=True) + 6
    paragraph(page, y, 6)
    path = tmp_path / "hyphenated.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == [
        "1.6 Signatures", "1.7 Coercive Signature Matching", "1.8 Functor Declaration"]
