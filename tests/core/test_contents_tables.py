"""Issue 11 classes 2 and 5 on PDFs built here: a filing's contents page set as a table (page numbers in a right
column under a "Page" head, a note between entries, a title wrapped onto a long first line, two entries on one
row, group heads flush with their entries) read whole, and a contents page the parser cannot read kept out of
the layout headings."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.toc_page import find_toc_entries, find_toc_headings
from tests.core.built_pages import paragraph, write_line

WIDTH, HEIGHT = 612, 792
FIRST_BODY_PAGE = 3  # printed page 1 is physical page 3 (cover, contents)
NOTE = ("(The information required by Part III is incorporated by reference from the Proxy Statement for the",
        "Annual Meeting of Shareholders, except for the executive officers listed in Item 1 above.)")
WRAPPED = ("ITEM 5. Market for the Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of",
           "Equity Securities")
# a cell aligned at the top: the page number on the first line, the title's end on the line below
TOP_ALIGNED = ("ITEM 9. Changes in and Disagreements with Accountants on Accounting and", "Financial Disclosure")
# (title as listed, printed page, level): the parts above their items, flush with them
FILING = [("PART I", 1, 1), ("ITEM 1. Business", 1, 2), ("General", 1, 3), ("Products", 1, 3),
          ("ITEM 1A. Risk Factors", 2, 2),
          ("ITEM 2. Properties", 3, 2), ("PART II", 4, 1), (" ".join(WRAPPED), 4, 2),
          ("ITEM 7. Management's Discussion and Analysis", 5, 2), ("Overview", 5, 3), (" ".join(TOP_ALIGNED), 5, 2),
          ("PART III", 6, 1),
          ("ITEM 10. Directors and Corporate Governance", 6, 2), ("ITEM 16. Form 10-K Summary", 7, 2),
          ("Signatures", 8, 2)]


def _right(page: pymupdf.Page, y: float, text: str, right: float, size: float = 9, bold: bool = False) -> None:
    """Text ending at x = `right` (a right-aligned page number or column head)."""
    font = "hebo" if bold else "helv"
    page.insert_text((right - pymupdf.get_text_length(text, font, size), y), text, fontsize=size, fontname=font)


def _body_pages(doc: pymupdf.Document, listed: list[tuple[str, int]]) -> None:
    """The sections on their printed pages (printed page p is physical page p + 2), each title set bold over
    prose, with the printed folio at the foot of every page."""
    by_page: dict[int, list[str]] = {}
    for title, printed in listed:
        by_page.setdefault(printed, []).append(title)
    for printed in range(1, max(by_page) + 1):
        page = doc[FIRST_BODY_PAGE - 2 + printed]
        y = 90.0
        for title in by_page.get(printed, []):
            y = write_line(page, y, title, size=13 if title.startswith("PART") else 11, bold=True) + 4
            y = paragraph(page, y, 6)
        paragraph(page, y, int((720 - y) / 15))  # pages full of prose (not slides with a frame title)
        write_line(page, 760, str(printed), size=9, x=300)


def _assert_listed_on_their_pages(doc: pymupdf.Document, listed: list[tuple[str, int]], path: Path) -> None:
    """Print the `listed` sections on their pages (`_body_pages`), save `doc` to `path` and check that the
    contents gives every entry, title whole, on the physical page of its printed number."""
    _body_pages(doc, listed)
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings[1:]] == [(t, p + FIRST_BODY_PAGE - 1) for t, p in listed]


def _covered(body_pages: int) -> pymupdf.Document:
    """A document of a cover, a contents page to fill (physical page 2) and `body_pages` blank body pages."""
    doc = pymupdf.open()
    for _ in range(FIRST_BODY_PAGE - 1 + body_pages):
        doc.new_page(width=WIDTH, height=HEIGHT)
    write_line(doc[0], 200, "Example Corporation Annual Report", size=24, bold=True)
    return doc


def _filing(tmp_path: Path) -> Path:
    """A 10-K-like document whose contents page is a table with a right column of page numbers."""
    doc = _covered(8)
    page = doc[1]
    y = write_line(page, 72, "ANNUAL REPORT ON FORM 10-K", size=18, bold=True)
    y = write_line(page, y, "TABLE OF CONTENTS", size=18, bold=True) + 8
    _right(page, y, "PAGE", 540, bold=True)
    y += 16
    for title, printed, _level in FILING:
        if title == "Signatures":
            continue  # printed beside Item 16
        part = title.startswith("PART")
        if title == " ".join(WRAPPED):
            write_line(page, y, WRAPPED[0], size=9, x=72)
            y += 11
            write_line(page, y, WRAPPED[1], size=9, x=90)
        elif title == " ".join(TOP_ALIGNED):
            write_line(page, y, TOP_ALIGNED[0], size=9, x=72)
            write_line(page, y + 11, TOP_ALIGNED[1], size=9, x=90)
        elif title.startswith("ITEM 16"):
            write_line(page, y, title, size=9, x=72)
            write_line(page, y, "7", size=9, x=215)
            write_line(page, y, "Signatures", size=9, x=240)
        elif title in ("General", "Products", "Overview"):
            # Item 1's sections at one step, Item 7's at a deeper one: both one level under their item
            write_line(page, y, title, size=9, x=100 if title != "Overview" else 112)
        else:
            write_line(page, y, title, size=12 if part else 9, bold=part, x=72)
        _right(page, y, str(8 if title.startswith("ITEM 16") else printed), 540, size=12 if part else 9, bold=part)
        y += 20 if part else 26 if title == " ".join(TOP_ALIGNED) else 15
        if title == "PART III":
            for line in NOTE:
                write_line(page, y, line, size=9, x=90)
                y += 11
            y += 4
    _body_pages(doc, [(t, p) for t, p, _l in FILING])
    path = tmp_path / "filing.pdf"
    doc.save(path)
    return path


def test_a_table_style_contents_page_is_read_whole(tmp_path: Path) -> None:
    """The "Page" column head is no entry and no part of the first title, the items flush with the parts sit
    under them and the sections indented under an item under it (at whatever step), the note between Part III and its
    items neither ends the contents nor becomes an entry, the wrapped Item 5 is one entry and so is Item 9,
    whose page number is printed on its first line, and the row holding
    Item 16 and Signatures gives both entries with their own pages: every entry lands on its page, parts above
    their items."""
    headings = find_toc_headings(extract(_filing(tmp_path)))
    assert headings is not None
    assert headings[0].title == "TABLE OF CONTENTS"
    found = [(h.title, h.page, h.level) for h in headings[1:]]
    assert found == [(t, p + FIRST_BODY_PAGE - 1, level) for t, p, level in FILING]


def test_a_prose_paragraph_after_the_list_still_ends_the_contents(tmp_path: Path) -> None:
    """A paragraph under the last entry, with no entries after it, is the body starting on the contents page:
    its lines are no entries."""
    doc = _covered(8)
    page = doc[1]
    y = write_line(page, 72, "Contents", size=18, bold=True) + 8
    listed = [("Overview of the Year", 1), ("Operations", 2), ("Outlook", 4), ("Financial Review", 6)]
    for title, printed in listed:
        write_line(page, y, title, size=10, x=72)
        _right(page, y, str(printed), 540, size=10)
        y += 16
    paragraph(page, y + 20, 6)
    _assert_listed_on_their_pages(doc, listed, tmp_path / "report.pdf")


GROUPS = [("Fundamentals of Our Business", None), ("Introduction to Our Business", 1), ("Our Strategy", 2),
          ("Management's Discussion and Analysis", None), ("Our Products", 3), ("Segment Results", 4),
          ("Financial Statements", None), ("Auditor's Reports", 6), ("Notes to the Statements", 7)]


def test_group_heads_set_larger_than_their_entries_sit_above_them(tmp_path: Path) -> None:
    """Rows without a page number set larger than the entries, flush with them, head the entries below them
    (one level up), the "Page" column head beside the first one is cut from its title instead of making it
    read as a title wrapped onto the next row, and the page's title set larger just above the heading is no
    entry."""
    doc = pymupdf.open()
    for _ in range(FIRST_BODY_PAGE - 1 + 8):
        doc.new_page(width=WIDTH, height=HEIGHT)
    write_line(doc[0], 200, "Example Corporation Form 10-K", size=24, bold=True)
    page = doc[1]
    write_line(page, 40, "Example Corporation Form 10-K", size=22)  # the page's title, over its heading
    y = write_line(page, 62, "Table of Contents", size=18) + 10
    for i, (title, printed) in enumerate(GROUPS):
        if printed is None:
            y += 6
            write_line(page, y, title, size=11, x=36)
            if i == 0:
                _right(page, y, "Page", 540, size=11)
        else:
            write_line(page, y, title, size=9, x=36)
            _right(page, y, str(printed), 540)
        y += 15
    # the group heads are printed on the page of their first entry
    listed: list[tuple[str, int]] = []
    for i, (title, printed) in enumerate(GROUPS):
        page_of = printed if printed is not None else GROUPS[i + 1][1]
        assert page_of is not None
        listed.append((title, page_of))
    _body_pages(doc, listed)
    path = tmp_path / "groups.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    found = [(h.title, h.page, h.level) for h in headings[1:]]
    assert found == [(t, p + FIRST_BODY_PAGE - 1, 1 if printed is None else 2)
                     for (t, p), (_t, printed) in zip(listed, GROUPS)]


def test_the_layout_pass_skips_a_contents_page_it_cannot_parse(tmp_path: Path) -> None:
    """A page listing a filing's parts and items with page numbers in a right column, under a heading that is
    not "Contents" and with prose around the list, is not found as a contents page; its rows ("PART II  4",
    "ITEM 5. Market for Common Equity  4", read as numbered headings) are still no headings of the layout
    tree, which holds the sections themselves."""
    doc = _covered(8)
    listed = [("PART I", 1), ("ITEM 1. Business", 1), ("ITEM 1A. Risk Factors", 2), ("ITEM 2. Properties", 3),
              ("PART II", 4), ("ITEM 5. Market for Common Equity", 4), ("ITEM 7. Management's Discussion", 5),
              ("ITEM 8. Financial Statements", 6), ("PART III", 7), ("ITEM 10. Directors and Officers", 7),
              ("ITEM 15. Exhibits and Schedules", 8)]
    page = doc[1]
    y = write_line(page, 72, "Where to Find It", size=16, bold=True) + 6
    y = paragraph(page, y, 3)
    for title, printed in listed:
        size = 12 if title.startswith("PART") else 10
        write_line(page, y, title, size=size, bold=True, x=72)
        _right(page, y, str(printed), 540, size=size, bold=True)
        y += 17
    paragraph(page, y + 10, 3)
    _body_pages(doc, listed)
    path = tmp_path / "listing.pdf"
    doc.save(path)
    extracted = extract(path)
    assert find_toc_headings(extracted) is None  # the case at hand: the parser does not read this page
    layout = [(h.title, h.page) for h in find_layout_headings(extracted)]
    assert [h for h in layout if h[1] == 2] == [("Where to Find It", 2)]
    assert [h for h in layout if h[1] > 2] == [(t, p + FIRST_BODY_PAGE - 1) for t, p in listed]


def _manual(tmp_path: Path, listed: list[tuple[str, int, float, int]], pages: dict[int, list[tuple[str, float]]]
            ) -> Path:
    """A manual: `listed` contents rows (title, physical page, size, x) on page 2 and, per physical page, the
    (title, size) headings printed on it in bold, each over prose."""
    doc = pymupdf.open()
    for _ in range(max(pages)):
        doc.new_page(width=WIDTH, height=HEIGHT)
    write_line(doc[0], 200, "Operator Guide", size=26, bold=True)
    y = write_line(doc[1], 90, "Contents", size=18, bold=True) + 10
    for title, number, size, x in listed:
        write_line(doc[1], y, title, size=size, bold=size > 12, x=x)
        _right(doc[1], y, str(number - 2), 540, size=size, bold=size > 12)
        y += 18
    for number, titles in pages.items():
        page = doc[number - 1]
        y = 90.0
        for title, size in titles:
            y = write_line(page, y, title, size=size, bold=True) + 4
            y = paragraph(page, y, 5)
        write_line(page, 760, str(number - 2), size=9, x=300)
    path = tmp_path / "manual.pdf"
    doc.save(path)
    return path


def test_a_contents_listing_some_sections_keeps_its_choice_and_hangs_only_under_its_entries(tmp_path: Path) -> None:
    """Issue 11 class 2: the contents lists the sections of its first chapter only. Layout's sub-sections are
    hung under the listed sections they belong to, and under a chapter whose printed title reads a little
    differently ("Care and Maintenance of Unit" for "... of the Unit"); the second chapter's sections, set like
    the listed ones but left out, are not added, nor their sub-sections under the chapter without them."""
    listed = [("Getting Started", 3, 14, 72), ("Unpacking the Device", 3, 11, 90),
              ("Connecting the Cables", 4, 11, 90), ("Daily Operation", 5, 14, 72),
              ("Care and Maintenance of the Unit", 7, 14, 72)]
    path = _manual(tmp_path, listed, {
        3: [("Getting Started", 14), ("Unpacking the Device", 11), ("Checking the Box", 10),
            ("Removing the Foam", 10)],
        4: [("Connecting the Cables", 11)],
        5: [("Daily Operation", 14), ("Switching On", 11), ("Power Button", 10), ("Standby Mode", 10)],
        6: [("Reading the Display", 11), ("Error Codes", 10), ("Screen Brightness", 10)],
        7: [("Care and Maintenance of Unit", 14), ("Daily Cleaning", 10), ("Yearly Service", 10)],
    })
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.level, h.page) for h in headings[1:]] == [
        ("Getting Started", 1, 3), ("Unpacking the Device", 2, 3), ("Checking the Box", 3, 3),
        ("Removing the Foam", 3, 3), ("Connecting the Cables", 2, 4), ("Daily Operation", 1, 5),
        ("Care and Maintenance of the Unit", 1, 7), ("Daily Cleaning", 2, 7), ("Yearly Service", 2, 7)]


def test_an_entry_not_found_on_its_page_keeps_its_contents_order(tmp_path: Path) -> None:
    """An entry whose title its page prints in other words has no place on the page; it follows the entry
    listed before it there instead of going to the page's top, above the part it belongs to (where it would
    become the last item of the part before)."""
    listed = [("PART I", 3, 13, 72), ("ITEM 1. Business", 3, 10, 72), ("ITEM 2. Properties", 4, 10, 72),
              ("PART II", 5, 13, 72), ("ITEM 5. Market for Common Equity", 5, 10, 72),
              ("ITEM 6. Selected Financial Data", 5, 10, 72), ("ITEM 7. Management's Discussion", 6, 10, 72)]
    path = _manual(tmp_path, listed, {
        3: [("PART I", 13), ("ITEM 1. Business", 11)], 4: [("ITEM 2. Properties", 11)],
        5: [("PART II", 13), ("ITEM 5. Market for Common Equity", 11), ("Five-Year Summary (unaudited)", 11)],
        6: [("ITEM 7. Management's Discussion", 11)],
    })
    headings = find_toc_entries(extract(path))
    assert headings is not None
    assert [(h.title, h.level, h.page) for h in headings[1:]] == [
        ("PART I", 1, 3), ("ITEM 1. Business", 2, 3), ("ITEM 2. Properties", 2, 4), ("PART II", 1, 5),
        ("ITEM 5. Market for Common Equity", 2, 5), ("ITEM 6. Selected Financial Data", 2, 5),
        ("ITEM 7. Management's Discussion", 2, 6)]


# (label, title lines, printed page, where the label and page sit: "top", "middle" or "bottom" of the title)
CELLS = [("Item 1.", ["Business"], 1, "top"), ("Item 1A.", ["Risk Factors"], 2, "top"),
         ("Item 2.", ["Properties"], 2, "top"), ("Item 3.", ["Legal Proceedings"], 2, "top"),
         ("Item 5.", ["Market for Common Equity and", "Related Stockholder Matters"], 3, "middle"),
         ("Item 6.", ["Selected Data"], 3, "top"),
         ("Item 7.", ["Discussion and Analysis of", "Results of Operations"], 4, "bottom"),
         ("Item 8.", ["Financial Statements"], 5, "top"),
         ("Item 9.", ["Changes in and Disagreements", "with Accountants on Accounting", "and Financial Disclosure"],
          6, "middle"),
         ("Item 10.", ["Directors and Officers"], 7, "top")]


@pytest.mark.parametrize("step, gap", [(10.5, 4.5), (12.5, 8.0), (12.5, 3.0)])
def test_label_and_page_cells_level_with_the_middle_or_last_line_of_a_wrapped_title(tmp_path: Path, step: float,
                                                                                     gap: float) -> None:
    """A contents table printed from HTML aligns its cells to the middle (browsers' default) or the bottom: the
    label and page of a wrapped title print between its two lines, beside its middle line, or beside its last
    line. Each such row is one entry with the whole title: the first line had gone to the entry above or stood
    alone, and the label had kept only the last line. Wrapped lines set solid (`step` 10.5 for 9 pt) or with
    leading, entries set apart by more (`gap`) or barely more."""
    doc = _covered(7)
    page = doc[1]
    y = write_line(page, 72, "TABLE OF CONTENTS", size=16, bold=True) + 10
    for label, lines, printed, align in CELLS:
        for k, line in enumerate(lines):
            write_line(page, y + step * k, line, size=9, x=120)
        at = {"top": 0.0, "middle": step * (len(lines) - 1) / 2, "bottom": step * (len(lines) - 1)}[align]
        write_line(page, y + at, label, size=9, x=72)
        _right(page, y + at, str(printed), 540)
        y += step * (len(lines) - 1) + step + gap
    listed = [(f"{label} {' '.join(lines)}", printed) for label, lines, printed, _align in CELLS]
    _assert_listed_on_their_pages(doc, listed, tmp_path / "filing.pdf")
