"""A filing's statements and notes come under the contents entries that name them (issue 11, cause 2).

The printed contents of a 10-K lists the form's Items; the statements and the notes it holds under Item 8 are
what an analyst navigates by, so they go in the tree even where the contents stops at the Items.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.financial_statements import hang_financial_statements
from pageindex_desktop.core.outline.toc_page import find_toc_entries
from pageindex_desktop.core.outline.tree import Node
from tests.core.built_pages import paragraph, write_line

STATEMENTS = ["Report of Independent Registered Public Accounting Firm", "Consolidated Statements of Operations",
              "Consolidated Balance Sheets", "Consolidated Statements of Cash Flows"]
NOTES_HEADING = "Notes to Consolidated Financial Statements"
NOTES = ["Note 1 - Summary of Significant Accounting Policies", "Note 2 - Revenue", "Note 3 - Debt",
         "Note 4 - Income Taxes"]
# (title, printed page, [(sub-head, size, bold)]) in reading order; the contents lists Item 1's sections
BODY: list[tuple[str, int, list[tuple[str, float]]]] = [
    ("PART I", 1, []),
    ("Item 1. Business", 1, [("General", 11.0), ("Products", 11.0)]),
    ("Item 1A. Risk Factors", 2, []),
    ("Item 2. Properties", 3, []),
    ("PART II", 4, []),
    ("Item 7. Management's Discussion and Analysis", 4, []),
    ("Item 8. Financial Statements and Supplementary Data", 5,
     [(STATEMENTS[0], 11.0), ("Opinion on the Financial Statements", 11.0), ("Basis for Opinion", 11.0)]),
    ("", 6, [(STATEMENTS[1], 11.0)]),
    ("", 7, [(STATEMENTS[2], 11.0)]),
    ("", 8, [(STATEMENTS[3], 11.0)]),
    ("", 9, [(NOTES_HEADING, 11.0), (NOTES[0], 10.0), (NOTES[1], 10.0)]),
    ("", 10, [(NOTES[2], 10.0), (NOTES[3], 10.0)]),
    ("Item 9. Changes in and Disagreements with Accountants", 11, []),
    ("PART III", 12, []),
    ("Item 10. Directors and Corporate Governance", 12, []),
    ("Item 15. Exhibits and Financial Statement Schedules", 13, []),
]
FIRST_BODY_PAGE = 3


def _printed_note(note: str) -> str:
    """How a note's heading is printed on its page when the contents calls it "Note 2 - Revenue": "2. REVENUE"."""
    label, title = note.split(" - ", 1)
    return f"{label.split()[1]}. {title.upper()}"


def _filing(tmp_path: Path, list_notes: bool = False, list_each_note: bool = False) -> Path:
    """A 10-K whose contents lists its Parts, Items and Item 1's sections (and, with `list_notes`, the notes
    heading under Item 8; with `list_each_note`, the statements and each note under Item 8 but not the notes
    heading, the pages printing "2. REVENUE" for "Note 2 - Revenue"), each page of prose under its bold headings
    with the printed folio at its foot."""
    doc = pymupdf.open()
    pages = max(p for _t, p, _s in BODY)
    for _ in range(FIRST_BODY_PAGE - 1 + pages):
        doc.new_page(width=612, height=792)
    write_line(doc[0], 200, "Example Corporation Form 10-K", size=24, bold=True)
    contents = doc[1]
    y = write_line(contents, 72, "TABLE OF CONTENTS", size=16, bold=True) + 8
    for title, printed, subs in BODY:
        if not title:
            if list_notes and subs[0][0] == NOTES_HEADING:
                y = write_line(contents, y, f"{NOTES_HEADING} {'.' * 40} {printed}", size=10, x=90)
            for sub, _size in subs if list_each_note else []:
                if sub != NOTES_HEADING:
                    y = write_line(contents, y, f"{sub} {'.' * 40} {printed}", size=10, x=90)
            continue
        y = write_line(contents, y, f"{title} {'.' * 40} {printed}", size=10, x=72)
        if title.startswith("Item 1."):
            for sub, _size in subs:
                y = write_line(contents, y, f"{sub} {'.' * 40} {printed}", size=10, x=90)
    for title, printed, subs in BODY:
        page = doc[FIRST_BODY_PAGE - 2 + printed]
        y = 90.0 if not page.get_text().strip() else 400.0
        if title:
            y = write_line(page, y, title, size=14 if title.startswith("PART") else 12, bold=True) + 4
            y = paragraph(page, y, 3)
        for sub, size in subs:
            y = write_line(page, y, _printed_note(sub) if list_each_note and sub in NOTES else sub, size=size,
                           bold=True) + 2
            y = paragraph(page, y, 3)
        write_line(page, 760, str(printed), size=9, x=300)
    path = tmp_path / "filing.pdf"
    doc.save(path)
    return path


def _children(nodes: list[Node], title: str) -> list[Node]:
    """The children of the node titled `title`, anywhere in the tree."""
    for node in nodes:
        if node.title == title:
            return node.children
        found = _children(node.children, title)
        if found:
            return found
    return []


def test_statements_and_notes_hang_under_the_financial_statements_item(tmp_path: Path) -> None:
    """Item 8, listed alone, gets the auditor's report and the statements (not the report's own sub-heads
    "Opinion ..." and "Basis for Opinion"), and the notes heading with each note under it."""
    outline = build_outline(extract(_filing(tmp_path)), use_bookmarks=False)
    assert outline.source == "toc_page"
    item8 = _children(outline.nodes, "Item 8. Financial Statements and Supplementary Data")
    assert [n.title for n in item8] == [*STATEMENTS, NOTES_HEADING]
    assert [n.start_page for n in item8] == [p + FIRST_BODY_PAGE - 1 for p in (5, 6, 7, 8, 9)]
    notes = item8[-1].children
    assert [n.title for n in notes] == NOTES
    assert [n.start_page for n in notes] == [p + FIRST_BODY_PAGE - 1 for p in (9, 9, 10, 10)]
    # the contents chose Item 1's depth; the other Items stay as listed
    assert [n.title for n in _children(outline.nodes, "Item 1. Business")] == ["General", "Products"]
    assert _children(outline.nodes, "Item 7. Management's Discussion and Analysis") == []


def test_a_listed_notes_heading_gets_its_notes(tmp_path: Path) -> None:
    """When the contents lists the notes heading under Item 8 but not the notes, each note goes under it."""
    outline = build_outline(extract(_filing(tmp_path, list_notes=True)), use_bookmarks=False)
    item8 = _children(outline.nodes, "Item 8. Financial Statements and Supplementary Data")
    assert [n.title for n in item8] == [NOTES_HEADING]
    assert [n.title for n in item8[0].children] == NOTES


def test_notes_listed_one_by_one_go_under_the_notes_heading_the_pages_print(tmp_path: Path) -> None:
    """A contents listing the statements and each note ("Note 2 - Revenue") straight under Item 8, where the pages
    print the notes as "2. REVENUE" under "Notes to Consolidated Financial Statements": the notes heading goes
    back over the notes, as the pages and filers' bookmarks have it, and each note is in the tree once (its
    printed heading, read as another title, had been hung under it again)."""
    outline = build_outline(extract(_filing(tmp_path, list_each_note=True)), use_bookmarks=False)
    item8 = _children(outline.nodes, "Item 8. Financial Statements and Supplementary Data")
    assert [n.title for n in item8] == [*STATEMENTS[1:], NOTES_HEADING]
    assert [(n.title, n.children) for n in item8[-1].children] == [(note, []) for note in NOTES]
    assert [n.start_page for n in item8[-1].children] == [p + FIRST_BODY_PAGE - 1 for p in (9, 9, 10, 10)]


def test_a_document_that_is_no_filing_is_left_to_the_general_rules(tmp_path: Path) -> None:
    """Outside a filing (no Items) the statements rule adds nothing: a report's "Financial statements" chapter is
    left to the layout levels that hang under any contents (`hang_layout_headings`)."""
    pdf = pymupdf.open()
    for _ in range(6):
        pdf.new_page(width=612, height=792)
    contents = pdf[0]
    y = write_line(contents, 72, "Contents", size=16, bold=True) + 8
    chapters = [("1 Introduction", 1), ("2 Financial statements", 2), ("3 Outlook", 4)]
    for title, printed in chapters:
        y = write_line(contents, y, f"{title} {'.' * 40} {printed}", size=10)
    for title, printed in chapters:
        page = pdf[printed]
        y = write_line(page, 90, title, size=14, bold=True) + 4
        y = paragraph(page, y, 4)
        if printed == 2:
            for sub in ("Consolidated Balance Sheets", NOTES_HEADING):
                y = write_line(page, y, sub, size=11, bold=True) + 2
                y = paragraph(page, y, 4)
            for note in NOTES[:3]:
                y = write_line(page, y, note, size=10, bold=True) + 2
                y = paragraph(page, y, 3)
        write_line(page, 760, str(printed), size=9, x=300)
    for number in range(pdf.page_count):
        if not pdf[number].get_text().strip():
            paragraph(pdf[number], 90, 20)
    path = tmp_path / "report.pdf"
    pdf.save(path)
    doc = extract(path)
    entries = find_toc_entries(doc)
    assert entries is not None and [h.title for h in entries[1:]] == [t for t, _p in chapters]
    assert hang_financial_statements(entries, doc) == entries
