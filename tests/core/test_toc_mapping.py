"""Issue 11 class 5 on reports built here: a contents list printed down to its page's bottom edge is read to its
end, and a contents entry whose title is printed only as a mention on
another page, where no neighbour's offset and no folio agrees, goes where the page numbers say, not onto the
mention (Intel's "Consolidated Financial Statements", listed at printed page 74, went onto a line at the foot
of page 66 naming it)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.toc_page import find_toc_entries
from tests.core.built_pages import paragraph, write_line

FIRST_BODY_PAGE = 3  # printed page 1 is physical page 3 (cover, contents)
# (title as listed, printed page, title printed in the body or None when the body words it otherwise)
LISTED = [("Introduction", 1, "Introduction"), ("Our Strategy", 2, "Our Strategy"), ("Our Capital", 3, "Our Capital"),
          ("Risk Factors", 4, "Risk Factors"), ("Consolidated Financial Statements", 6, None),
          ("Key Terms", 8, "Key Terms"), ("Controls and Procedures", 9, "Controls and Procedures")]
MENTIONED_ON = 3  # printed page whose text carries a line naming the statements


def _report(tmp_path: Path) -> Path:
    """Contents, then ten printed pages with their folios; the statements' own page titles them otherwise."""
    doc = pymupdf.open()
    for _ in range(FIRST_BODY_PAGE - 1 + 10):
        doc.new_page(width=612, height=792)
    write_line(doc[0], 200, "Example Holdings Annual Report", size=24, bold=True)
    y = write_line(doc[1], 80, "Contents", size=16, bold=True) + 10
    for title, printed, _body in LISTED:
        write_line(doc[1], y, title, size=10)
        doc[1].insert_text((530 - pymupdf.get_text_length(str(printed), "helv", 10), y), str(printed), fontsize=10)
        y += 16
    for printed in range(1, 11):
        page = doc[FIRST_BODY_PAGE - 2 + printed]
        y = 80.0
        for title, at, body in LISTED:
            if at == printed:
                y = write_line(page, y, body or "Statements of the Group", size=12, bold=True) + 4
        y = paragraph(page, y, 10)
        if printed == MENTIONED_ON:
            y = write_line(page, y, "Consolidated Financial Statements", size=12, bold=True) + 4
        paragraph(page, y, 6)
        write_line(page, 760, str(printed), size=9, x=300)
    path = tmp_path / "report.pdf"
    doc.save(path)
    return path


def test_an_entry_printed_only_as_a_mention_goes_where_its_page_number_says(tmp_path: Path) -> None:
    headings = find_toc_entries(extract(_report(tmp_path)))
    assert headings is not None
    pages = {h.title: h.page for h in headings[1:]}
    assert pages == {title: printed + FIRST_BODY_PAGE - 1 for title, printed, _body in LISTED}


def _packed(tmp_path: Path) -> Path:
    """A contents page whose list runs into the bottom band where a page prints its footer: the last entries
    sit below 93 % of the page's height, over a copyright line and the page's folio."""
    titles = [f"Section {chr(65 + i)} Review" for i in range(12)]
    doc = pymupdf.open()
    for _ in range(FIRST_BODY_PAGE - 1 + len(titles)):
        doc.new_page(width=612, height=792)
    write_line(doc[0], 200, "Example Holdings Annual Report", size=24, bold=True)
    y = 600.0
    write_line(doc[1], y - 30, "Contents", size=16, bold=True)
    for printed, title in enumerate(titles, start=1):
        write_line(doc[1], y, title, size=10)
        doc[1].insert_text((530 - pymupdf.get_text_length(str(printed), "helv", 10), y), str(printed), fontsize=10)
        y += 16  # the last three rows below 93 % of the height (736 pt)
    write_line(doc[1], 790, "Copyright 2023 Example Holdings. All rights reserved.", size=7)
    for printed, title in enumerate(titles, start=1):
        page = doc[FIRST_BODY_PAGE - 2 + printed]
        paragraph(page, write_line(page, 80, title, size=12, bold=True) + 4, 20)
        write_line(page, 760, str(printed), size=9, x=300)
    path = tmp_path / "packed.pdf"
    doc.save(path)
    return path


def test_a_contents_list_printed_down_to_the_page_edge_is_read_to_its_end(tmp_path: Path) -> None:
    """Rows in the bottom band that go on the list (a title ending in a page number right under an entry) are
    entries; the copyright line below them is not."""
    headings = find_toc_entries(extract(_packed(tmp_path)))
    assert headings is not None
    assert [(h.title, h.page) for h in headings[1:]] == [
        (f"Section {chr(65 + i)} Review", i + FIRST_BODY_PAGE) for i in range(12)]
