"""Printed contents pages: found, parsed (levels, wrapped entries) and mapped to the pages where titles are printed."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.toc_page import find_toc_headings
from pageindex_desktop.core.ingest.pdf import extract
from tests.conftest import corpus_file

FILLER = "The committee reviewed the figures for the year and found them consistent with the plan."


def _write(page: pymupdf.Page, y: float, text: str, size: float = 10, bold: bool = False, x: float = 72) -> float:
    """Put one line on the page and return the y of the next line."""
    page.insert_text((x, y), text, fontsize=size, fontname="hebo" if bold else "helv")
    return y + size * 1.6


def _body(page: pymupdf.Page, y: float, lines: int) -> float:
    """Paragraph text below a heading."""
    for _ in range(lines):
        y = _write(page, y, FILLER)
    return y


def _contents_line(page: pymupdf.Page, y: float, title: str, printed: str, indent: float = 0) -> float:
    """A contents row: title, dot leaders, right-aligned page number."""
    page.insert_text((72 + indent, y), title, fontsize=10, fontname="helv")
    start = 72 + indent + pymupdf.get_text_length(title, "helv", 10) + 6
    page.insert_text((start, y), "." * int((500 - start) / 2.8), fontsize=10, fontname="helv")
    page.insert_text((530 - pymupdf.get_text_length(printed, "helv", 10), y), printed, fontsize=10, fontname="helv")
    return y + 16


# (title printed in the contents, level, printed page number, physical page where the section starts)
ENTRIES = [
    ("Preface", 1, "iii", 3),
    ("1 Introduction", 1, "1", 4),
    ("1.1 Background of the study", 2, "2", 5),
    ("2 Methods", 1, "4", 7),
    ("2.1 Data collection", 2, "5", 8),
    ("3 Results", 1, "6", 9),
]


def _book(path: Path, labels: bool, folios: bool, titles: bool = True) -> ExtractedDocument:
    """A title page, a contents page, a preface, then six numbered body pages (printed 1-6)."""
    doc = pymupdf.open()
    for _ in range(9):
        doc.new_page(width=612, height=792)
    pages = [doc[i] for i in range(doc.page_count)]
    _write(pages[0], 200, "Annual Review of Rivers", size=26, bold=True)
    _write(pages[0], 250, "Board of Waters", size=14)
    y = _write(pages[1], 90, "Contents", size=18, bold=True) + 10
    for title, level, printed, _page in ENTRIES:
        y = _contents_line(pages[1], y, title, printed, indent=14 * (level - 1))
    starts = {page: title for title, _level, _printed, page in ENTRIES}
    for number in range(3, 10):
        page = pages[number - 1]
        y = 90
        if number in starts:
            heading = starts[number] if titles else f"Part {number}"  # titles=False: not the listed wording
            y = _write(page, y, heading, size=14, bold=True) + 6
        _body(page, y, 20)
        if folios:
            printed = ["i", "ii", "iii"][number - 1] if number <= 3 else str(number - 3)
            _write(page, 760, printed, size=9, x=300)
    if labels:
        doc.set_page_labels([
            {"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
            {"startpage": 3, "prefix": "", "style": "D", "firstpagenum": 1},
        ])
    doc.save(path)
    return extract(path)


@pytest.mark.parametrize("labels,folios", [(True, False), (False, True)])
def test_contents_entries_land_on_their_physical_pages(tmp_path: Path, labels: bool, folios: bool) -> None:
    doc = _book(tmp_path / "book.pdf", labels, folios)
    headings = find_toc_headings(doc)
    assert headings is not None
    assert headings[0].title == "Contents" and headings[0].page == 2
    found = [(h.title, h.level, h.page) for h in headings[1:]]
    assert found == [(title, level, page) for title, level, _printed, page in ENTRIES]
    assert all(h.y is not None and h.y < 120 for h in headings[1:])  # located where the title is printed


def test_labels_map_entries_whose_titles_are_not_printed_alike(tmp_path: Path) -> None:
    doc = _book(tmp_path / "book.pdf", labels=True, folios=False, titles=False)
    headings = find_toc_headings(doc)
    assert headings is not None
    assert [(h.title, h.page) for h in headings[1:]] == [(title, page) for title, _l, _p, page in ENTRIES]


def test_wrapped_entries_are_joined_and_lists_without_numbers_are_searched(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(5):
        doc.new_page(width=612, height=792)
    pages = [doc[i] for i in range(doc.page_count)]
    y = _write(pages[0], 90, "Table of Contents", size=16, bold=True) + 8
    for title in ("I. Introduction", "II. Interpretation and Application", "III. Economic Considerations"):
        y = _write(pages[0], y, title)
    sections = {2: "I. Introduction", 3: "II. Interpretation and Application", 5: "III. Economic Considerations"}
    for number in range(2, 6):
        y = 90
        if number in sections:
            y = _write(pages[number - 1], y, sections[number].upper(), size=10, bold=True) + 6
        _body(pages[number - 1], y, 18)
    path = tmp_path / "release.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings[1:]] == [(t, p) for p, t in sections.items()]


def test_a_document_without_contents_page_gives_none(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for number in range(4):
        page = doc.new_page(width=612, height=792)
        y = _write(page, 90, f"{number + 1} Section {number + 1}", size=14, bold=True)
        _body(page, y, 25)
    path = tmp_path / "plain.pdf"
    doc.save(path)
    assert find_toc_headings(extract(path)) is None


def test_corpus_report_contents_with_roman_front_matter() -> None:
    doc = extract(corpus_file("2023-annual-report.pdf"))
    headings = find_toc_headings(doc)
    assert headings is not None
    pages = {h.title: h.page for h in headings}
    assert pages["About the Federal Reserve"] == 5  # printed "iii"
    assert pages["3 Financial Stability"] == 21  # printed "15": offset voted from printed titles
    assert pages["4 Supervision and Regulation"] == 31
    assert pages["G Statistical Tables"] == 187
    levels = {h.title: h.level for h in headings}
    assert levels["Monitoring Financial Vulnerabilities"] == levels["3 Financial Stability"] + 1


def test_corpus_book_with_drifting_page_offset() -> None:
    doc = extract(corpus_file("pdfjs__freeculture.pdf"))
    headings = find_toc_headings(doc)
    assert headings is not None
    pages = {h.title: h.page for h in headings}
    assert pages["CHAPTER ONE: Creators"] == 35  # printed 21
    assert pages["CHAPTER ELEVEN: Chimera"] == 187  # printed 177: the offset changed on the way
    assert pages["NOTES"] == 313


def test_deeper_numbered_headings_are_added_under_listed_entries(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(6):
        doc.new_page(width=612, height=792)
    pages = [doc[i] for i in range(doc.page_count)]
    _write(pages[0], 200, "Field Manual", size=26, bold=True)
    y = _write(pages[1], 90, "Contents", size=18, bold=True) + 10
    y = _contents_line(pages[1], y, "1 Introduction", "1")
    y = _contents_line(pages[1], y, "2 Methods", "3")
    _contents_line(pages[1], y, "3 Results", "4")
    sections = {3: ["1 Introduction", "1.1 Scope of the Manual"], 4: ["1.2 Earlier Editions"], 5: ["2 Methods"],
                6: ["3 Results", "3.1 Main Findings"]}
    for number, titles in sections.items():
        y = 90.0
        for title in titles:
            y = _write(pages[number - 1], y, title, size=14 if "." not in title.split()[0] else 11, bold=True) + 4
            y = _body(pages[number - 1], y, 8) + 8
    path = tmp_path / "manual.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    found = [(h.title, h.level, h.page) for h in headings[1:]]
    assert found == [("1 Introduction", 1, 3), ("1.1 Scope of the Manual", 2, 3), ("1.2 Earlier Editions", 2, 4),
                     ("2 Methods", 1, 5), ("3 Results", 1, 6), ("3.1 Main Findings", 2, 6)]


def _shallow_manual(path: Path, sections: dict[int, list[tuple[str, int]]]) -> ExtractedDocument:
    """A manual whose contents page lists only its chapters (14 pt bold); the text has 11 pt bold sub-heads.

    `sections` maps a physical page to the (title, size) headings printed on it, each followed by body text.
    """
    doc = pymupdf.open()
    for _ in range(max(sections) + 1):
        doc.new_page(width=612, height=792)
    pages = [doc[i] for i in range(doc.page_count)]
    _write(pages[0], 200, "Operator Guide", size=26, bold=True)
    y = _write(pages[1], 90, "Contents", size=18, bold=True) + 10
    for number, titles in sorted(sections.items()):
        for title, size in titles:
            if size == 14:
                y = _contents_line(pages[1], y, title, str(number))
    for number, titles in sections.items():
        y = 90.0
        for title, size in titles:
            y = _write(pages[number - 1], y, title, size=size, bold=True) + 4
            y = _body(pages[number - 1], y, 6) + 8
    doc.save(path)
    return extract(path)


def test_layout_sub_heads_hang_under_a_contents_list_of_chapters_only(tmp_path: Path) -> None:
    """Issue 11, cause 2: the contents page frames the tree, layout supplies the one level it does not list."""
    doc = _shallow_manual(tmp_path / "guide.pdf", {
        3: [("Getting Started", 14), ("Unpacking the Device", 11)], 4: [("Connecting the Cables", 11)],
        5: [("Daily Operation", 14), ("Switching On", 11), ("Reading the Display", 11)],
        6: [("Maintenance", 14), ("Cleaning the Sensor", 11), ("Replacing the Battery", 11)],
        7: [("Spare Part Number", 9), ("Supplier Order Code", 9)],  # small bold table headers: a style further down
    })
    headings = find_toc_headings(doc)
    assert headings is not None
    assert [(h.title, h.level, h.page) for h in headings[1:]] == [
        ("Getting Started", 1, 3), ("Unpacking the Device", 2, 3), ("Connecting the Cables", 2, 4),
        ("Daily Operation", 1, 5), ("Switching On", 2, 5), ("Reading the Display", 2, 5),
        ("Maintenance", 1, 6), ("Cleaning the Sensor", 2, 6), ("Replacing the Battery", 2, 6)]


def test_sub_heads_hang_under_the_contents_also_when_layout_skips_a_level_number(tmp_path: Path) -> None:
    """Layout levels are ranks that can skip a number: the one-off 12 pt "Safety and Warranty Notes" over the
    last chapter's tail is set level with the 11 pt sub-heads (`style_order.one_off_levels`), so no heading is
    one level below the chapters. The level hung under the contents is the next one found, not the next
    number."""
    doc = _shallow_manual(tmp_path / "guide.pdf", {
        3: [("Getting Started", 14), ("Unpacking the Device", 11)], 4: [("Connecting the Cables", 11)],
        5: [("Daily Operation", 14), ("Switching On", 11), ("Reading the Display", 11)],
        6: [("Maintenance", 14), ("Cleaning the Sensor", 11), ("Replacing the Battery", 11)],
        7: [("Safety and Warranty Notes", 12), ("Battery Disposal", 11), ("Warranty Period", 11)],
    })
    layout = {h.title: h.level for h in find_layout_headings(doc)}
    assert layout["Safety and Warranty Notes"] == layout["Battery Disposal"] > layout["Maintenance"] + 1
    headings = find_toc_headings(doc)
    assert headings is not None
    assert [(h.title, h.level) for h in headings[1:]] == [
        ("Getting Started", 1), ("Unpacking the Device", 2), ("Connecting the Cables", 2),
        ("Daily Operation", 1), ("Switching On", 2), ("Reading the Display", 2),
        ("Maintenance", 1), ("Cleaning the Sensor", 2), ("Replacing the Battery", 2),
        ("Safety and Warranty Notes", 2), ("Battery Disposal", 2), ("Warranty Period", 2)]


def test_every_level_layout_finds_hangs_under_a_contents_list_of_chapters_only(tmp_path: Path) -> None:
    """Issue 11, cause 2, all the way down: under a contents page of chapters, the sub-heads (11 pt) and
    their own sub-heads (10 pt bold, under two sub-heads: a level of the document) hang at their levels; a
    chapter with one sub-head keeps it, since other chapters show that level divides chapters. Only the
    first level below the contents was hung, and only in spans it divided twice."""
    doc = _shallow_manual(tmp_path / "guide.pdf", {
        3: [("Getting Started", 14), ("Unpacking the Device", 11), ("Checking the Contents", 10),
            ("Registering the Warranty", 10)],
        4: [("Connecting the Cables", 11), ("Power Supply", 10), ("Network Port", 10)],
        5: [("Daily Operation", 14), ("Switching On", 11), ("Reading the Display", 11)],
        6: [("Maintenance", 14), ("Cleaning the Sensor", 11)],
    })
    headings = find_toc_headings(doc)
    assert headings is not None
    assert [(h.title, h.level) for h in headings[1:]] == [
        ("Getting Started", 1), ("Unpacking the Device", 2), ("Checking the Contents", 3),
        ("Registering the Warranty", 3), ("Connecting the Cables", 2), ("Power Supply", 3), ("Network Port", 3),
        ("Daily Operation", 1), ("Switching On", 2), ("Reading the Display", 2),
        ("Maintenance", 1), ("Cleaning the Sensor", 2)]


def test_sub_heads_hang_under_the_contents_past_a_level_only_one_chapter_prints(tmp_path: Path) -> None:
    """The level hung under the contents is the first that is a level of the document (two chapters divided,
    or one divided and another holding one): two 12 pt bold lines in the last chapter only (a boxed table's
    heads) rank between the chapters and the 11 pt sub-heads every chapter has; taken for the level below the
    contents, they hid every sub-head. With no such level the next one found is hung, as before."""
    doc = _shallow_manual(tmp_path / "guide.pdf", {
        3: [("Getting Started", 14), ("Unpacking the Device", 11), ("Connecting the Cables", 11)],
        5: [("Daily Operation", 14), ("Switching On", 11), ("Reading the Display", 11)],
        6: [("Maintenance", 14), ("Cleaning the Sensor", 11), ("Replacing the Battery", 11)],
        7: [("Field Notes Summary", 12), ("Site Visit Summary", 12)],
    })
    headings = find_toc_headings(doc)
    assert headings is not None
    assert [(h.title, h.level) for h in headings[1:]] == [
        ("Getting Started", 1), ("Unpacking the Device", 2), ("Connecting the Cables", 2),
        ("Daily Operation", 1), ("Switching On", 2), ("Reading the Display", 2),
        ("Maintenance", 1), ("Cleaning the Sensor", 2), ("Replacing the Battery", 2)]
    # a deeper level spread one heading a span ("Highlights" boxes) is no level of the document: the two
    # sub-heads of the one divided chapter are still the level hung
    doc = _shallow_manual(tmp_path / "boxes.pdf", {
        3: [("Getting Started", 14)], 4: [("Daily Operation", 14), ("Highlights", 10)],
        5: [("Maintenance", 14), ("Highlights", 10), ("Cleaning the Sensor", 11), ("Replacing the Battery", 11)],
    })
    headings = find_toc_headings(doc)
    assert headings is not None
    assert [(h.title, h.level) for h in headings[1:]] == [
        ("Getting Started", 1), ("Daily Operation", 1), ("Maintenance", 1), ("Cleaning the Sensor", 2),
        ("Replacing the Battery", 2)]


def test_body_size_sub_heads_of_one_sub_section_hang_under_it(tmp_path: Path) -> None:
    """A level that divides only one sub-section is hung when it is set at the body's size (10 pt bold, a
    Word report's Heading 3): only the first level below the contents was hung where no other sub-section
    was divided so. Small bold lines (9 pt) under one sub-section stay labels
    (`test_layout_sub_heads_hang_under_a_contents_list_of_chapters_only`)."""
    doc = _shallow_manual(tmp_path / "guide.pdf", {
        3: [("Getting Started", 14), ("Unpacking the Device", 11), ("Checking the Contents", 10),
            ("Registering the Warranty", 10)],
        4: [("Connecting the Cables", 11)],
        5: [("Daily Operation", 14), ("Switching On", 11), ("Reading the Display", 11)],
        6: [("Maintenance", 14), ("Cleaning the Sensor", 11), ("Replacing the Battery", 11)],
    })
    headings = find_toc_headings(doc)
    assert headings is not None
    assert [(h.title, h.level) for h in headings[1:]] == [
        ("Getting Started", 1), ("Unpacking the Device", 2), ("Checking the Contents", 3),
        ("Registering the Warranty", 3), ("Connecting the Cables", 2),
        ("Daily Operation", 1), ("Switching On", 2), ("Reading the Display", 2),
        ("Maintenance", 1), ("Cleaning the Sensor", 2), ("Replacing the Battery", 2)]


def test_lone_labels_and_repeated_block_titles_are_not_hung_under_contents_entries(tmp_path: Path) -> None:
    """A span with one bold line, or bold lines that repeat ("Example" blocks), is not divided into sections."""
    doc = _shallow_manual(tmp_path / "guide.pdf", {
        3: [("Getting Started", 14), ("Safety Warning", 11)],
        5: [("Daily Operation", 14), ("Worked Example", 11), ("Worked Example", 11)],
        6: [("Maintenance", 14)],
    })
    headings = find_toc_headings(doc)
    assert headings is not None
    assert [(h.title, h.level) for h in headings[1:]] == [
        ("Getting Started", 1), ("Daily Operation", 1), ("Maintenance", 1)]


def test_corpus_regulation_contents_with_deeper_sections() -> None:
    doc = extract(corpus_file("Regulation Best Interest_proposed rule.pdf"))
    headings = find_toc_headings(doc)
    assert headings is not None
    pages = {h.title: h.page for h in headings}
    assert pages["I. INTRODUCTION"] == 6
    assert pages["2. DOL Rulemaking"] == 26  # listed in the contents
    assert pages["(1) Capacity"] == 104  # not listed: found in the text, one level deeper
    levels = {h.title: h.level for h in headings}
    assert levels["(1) Capacity"] > levels["1. Disclosure Obligation"]


def test_contents_printed_at_the_back(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(30):
        doc.new_page(width=612, height=792)
    pages = [doc[i] for i in range(doc.page_count)]
    starts = {2: "Rivers and Lakes", 9: "Mountain Passes", 17: "Coastal Towns", 24: "Travel Notes"}
    for number in range(1, 30):
        y = 90.0
        if number in starts:
            y = _write(pages[number - 1], y, starts[number], size=14, bold=True) + 6
        _body(pages[number - 1], y, 20)
        _write(pages[number - 1], 760, str(number), size=9, x=300)
    y = _write(pages[29], 90, "Inhalt", size=18, bold=True) + 10
    for number, title in starts.items():
        y = _contents_line(pages[29], y, title, str(number))
    path = tmp_path / "back.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings] == [*((t, p) for p, t in starts.items()), ("Inhalt", 30)]


def _filing_front(doc: pymupdf.Document, items: list[tuple[str, str, int]], raised: float = 0) -> list[pymupdf.Page]:
    """A 10-K's cover ("FORM 10-K") and its contents table on page 2: number, title and printed page (physical
    page - 2) in three columns, no leaders, an item's page `raised` points above its title's baseline. Returns
    the document's pages."""
    pages = [doc[i] for i in range(doc.page_count)]
    _write(pages[0], 130, "FORM 10-K", size=20, bold=True)
    y = _write(pages[1], 80, "TABLE OF CONTENTS", size=12, bold=True) + 20
    for number, title, start in items:
        _write(pages[1], y, number, bold=not title)
        _write(pages[1], y, title, x=140)
        lift = raised if title else 0  # a part's row set as one line, an item's in cells
        y = _write(pages[1], y - lift, str(start - 2), x=500) + lift + 4
    return pages


def _item_headings(page: pymupdf.Page, page_number: int, items: list[tuple[str, str, int]],
                   lines_under: int = 0) -> float:
    """A filing's body page: its folio (physical page - 2) and the Parts and Items that open on it, each over
    `lines_under` lines of text; returns the y below them."""
    _write(page, 770, str(page_number - 2), size=9, x=300)
    y = 80.0
    for number, title, page_of in items:
        if page_of == page_number:
            y = _write(page, y, f"{number} {title}".strip(), size=11, bold=True) + 8
            if lines_under:
                y = _body(page, y, lines_under) + 6
    return y


def test_annual_filing_parts_and_items(tmp_path: Path) -> None:
    """A 10-K shape: a contents table without leaders, "PART I" flush with its items, a running link header."""
    items = [("PART I", "", 3), ("Item 1.", "Business", 3), ("Item 1A.", "Risk Factors", 6), ("PART II", "", 9),
             ("Item 7.", "Management's Discussion and Analysis", 9), ("Item 8.", "Financial Statements", 12)]
    doc = pymupdf.open()
    for _ in range(14):
        doc.new_page(width=612, height=792)
    pages = _filing_front(doc, items)
    for page_number in range(3, 15):
        page = pages[page_number - 1]
        _write(page, 40, "Table of Contents", size=8)
        _write(page, 770, str(page_number - 2), size=9, x=300)
        y = 80.0
        for number, title, page_of in items:
            if page_of == page_number:
                y = _write(page, y, f"{number} {title}".strip(), size=11, bold=True) + 8
                y = _body(page, y, 6) + 6
        _body(page, y, 30 - int((y - 80) / 16))
    path = tmp_path / "filing.pdf"
    doc.save(path)
    extracted = extract(path)
    expected = [(f"{n} {t}".strip(), 1 if not t else 2, p) for n, t, p in items]
    headings = find_toc_headings(extracted)
    assert headings is not None
    assert [(h.title, h.level, h.page) for h in headings[1:]] == expected
    # layout also keeps a filing's own contents heading, beside the parts (filing_pages.py)
    assert [(h.title, h.level, h.page) for h in find_layout_headings(extracted)] == [
        ("TABLE OF CONTENTS", 1, 2), *expected]


def test_contents_page_numbers_printed_a_little_high_stay_with_their_titles(tmp_path: Path) -> None:
    """A contents table set in cells may print each item's page number two points above its title's baseline
    (AES's 10-K). Read before the title, the number ended the row above, and each title took the next entry's
    page: "ITEM 1. BUSINESS" opened on Item 1A's page, fifty pages on, and the whole of Item 1 was lost."""
    items = [("PART I", "", 3), ("Item 1.", "Business", 3), ("Item 1A.", "Risk Factors", 20),
             ("Item 1B.", "Unresolved Staff Comments", 30), ("Item 2.", "Properties", 30),
             ("Item 3.", "Legal Proceedings", 30), ("Item 4.", "Mine Safety Disclosures", 32), ("PART II", "", 33),
             ("Item 5.", "Market for Common Equity", 33), ("Item 7.", "Management's Discussion", 35)]
    doc = pymupdf.open()
    for _ in range(40):
        doc.new_page(width=612, height=792)
    pages = _filing_front(doc, items, raised=2.5)
    for page_number in range(3, 41):
        y = _item_headings(pages[page_number - 1], page_number, items)
        _body(pages[page_number - 1], y, 30 - int((y - 80) / 16))
    path = tmp_path / "filing.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings[1:]] == [(f"{n} {t}".strip(), p) for n, t, p in items]


def test_parts_centred_above_their_items_are_the_top_level(tmp_path: Path) -> None:
    """Issue 11, cause 6: a 10-K contents centres "PART I" over items set at the margin; parts still lead."""
    items = [("PART I", 3), ("Item 1. Business", 3), ("Item 1A. Risk Factors", 5), ("PART II", 7),
             ("Item 7. Management's Discussion and Analysis", 7), ("Item 8. Financial Statements", 9)]
    doc = pymupdf.open()
    for _ in range(10):
        doc.new_page(width=612, height=792)
    pages = [doc[i] for i in range(doc.page_count)]
    _write(pages[0], 130, "FORM 10-K", size=20, bold=True)
    y = _write(pages[1], 80, "Contents", size=16, bold=True) + 12
    for title, start in items:
        y = _contents_line(pages[1], y, title, str(start), indent=200 if title.startswith("PART") else 0)
    for page_number in range(3, 11):
        y = 80.0
        for title, start in items:
            if start == page_number:
                y = _write(pages[page_number - 1], y, title, size=12, bold=True) + 8
        _body(pages[page_number - 1], y, 20)
    path = tmp_path / "filing.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.level) for h in headings[1:]] == [
        (title, 1 if title.startswith("PART") else 2) for title, _start in items]


def test_a_long_contents_and_its_list_of_figures_entry_are_read_whole(tmp_path: Path) -> None:
    """Twenty-two pages of contents (long references print 20-40), opening with the contents' own entry for the
    List of Figures: every entry is kept, none lost to a page cap or to the list's name."""
    per_page, contents_pages, per_body_page = 20, 22, 4
    chapters = per_page * contents_pages - 1
    first_body = contents_pages + 2  # a title page, the contents, then the body (printed page 1 = this page)
    doc = pymupdf.open()
    for _ in range(1 + contents_pages + 1 + chapters // per_body_page + 1):
        doc.new_page(width=612, height=792)
    _write(doc[0], 200, "Reference Manual of Pumps", size=26, bold=True)
    entries = [("List of Figures", "ix")] + [(f"{n} Pump model {n}", str(1 + (n - 1) // per_body_page + 1))
                                             for n in range(1, chapters + 1)]
    for index, (title, printed) in enumerate(entries):
        page = doc[1 + index // per_page]
        y = 90 + 30 * (index % per_page)
        if index % per_page == 0:
            _write(page, 60, "Contents", size=16, bold=True)
        _contents_line(page, y + 20, title, printed)
    _write(doc[first_body - 1], 90, "List of Figures", size=14, bold=True)
    for n in range(1, chapters + 1):
        page = doc[first_body + (n - 1) // per_body_page]
        y = 90 + 170 * ((n - 1) % per_body_page)
        _body(page, _write(page, y, f"{n} Pump model {n}", size=14, bold=True), 4)
    for number in range(first_body, doc.page_count + 1):
        _write(doc[number - 1], 770, str(number - first_body + 1), size=9, x=300)
    path = tmp_path / "manual.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    titles = [h.title for h in headings if h.title != "Contents"]
    assert titles[0] == "List of Figures" and titles[-1] == f"{chapters} Pump model {chapters}"
    assert len(titles) == len(entries)


@pytest.mark.parametrize(("row", "split"), [
    ("PART I", ("PART I", None, False)),  # the part's own numeral, not page i
    ("Chapter V", ("Chapter V", None, False)),
    ("Appendix C", ("Appendix C", None, False)),  # C is a roman numeral too
    ("PART II ........ iv", ("PART II", "iv", True)),  # with leaders, the numeral after them is the page
    ("Introduction ix", ("Introduction", "ix", False)),
    ("Item 1A. Risk Factors 12", ("Item 1A. Risk Factors", "12", False)),
])
def test_a_divisions_own_numeral_is_not_its_page(row: str, split: tuple[str, str | None, bool]) -> None:
    from pageindex_desktop.core.outline.numbering import split_trailing_page

    assert split_trailing_page(row) == split


def _filing_with_tail(path: Path, tail: list[tuple[str, list[str]]]) -> ExtractedDocument:
    """A 10-K whose contents lists Parts and Items up to page 8, then `tail` sections (title, sub-headings) on
    pages 10 onwards, one section a page, that the contents does not list (signatures, exhibits)."""
    items = [("PART I", "", 3), ("Item 1.", "Business", 3), ("Item 1A.", "Risk Factors", 5), ("PART II", "", 7),
             ("Item 7.", "Management's Discussion and Analysis", 7), ("Item 8.", "Financial Statements", 8)]
    doc = pymupdf.open()
    for _ in range(9 + len(tail)):
        doc.new_page(width=612, height=792)
    pages = _filing_front(doc, items)
    for page_number in range(3, doc.page_count + 1):
        page = pages[page_number - 1]
        y = _item_headings(page, page_number, items, lines_under=4)
        if page_number >= 10:
            title, subs = tail[page_number - 10]
            y = _write(page, y, title, size=11, bold=True) + 8
            y = _body(page, y, 3) + 6
            for sub in subs:
                y = _write(page, y, sub, size=10, bold=True) + 4
                y = _body(page, y, 3) + 6
        _body(page, y, max(2, 30 - int((y - 80) / 16)))
    doc.save(path)
    return extract(path)


def test_sections_after_the_contents_last_entry_are_added_at_the_top(tmp_path: Path) -> None:
    """A filing's exhibits after its last listed Item (a short tail the contents does not reach)
    come in at the top level (`enrich._tail_headings`)."""
    tail = [("Exhibit 21.1", ["1. Subsidiaries of the Registrant", "2. Jurisdictions of Organization"]),
            ("Exhibit 31.1", ["1. Certification of the Chief Executive Officer",
                              "2. Certification of the Chief Financial Officer"])]
    extracted = _filing_with_tail(tmp_path / "tail.pdf", tail)
    headings = find_toc_headings(extracted)
    assert headings is not None
    top = [(h.title, h.page) for h in headings if h.level == 1]
    assert top[-3:] == [("PART II", 7), ("Exhibit 21.1", 10), ("Exhibit 31.1", 11)]
    # the exhibits' numbered parts come in under them (a numbering scheme the contents does not use)
    assert [(h.title, h.level) for h in headings if h.page == 10] == [
        ("Exhibit 21.1", 1), ("1. Subsidiaries of the Registrant", 2), ("2. Jurisdictions of Organization", 2)]


def test_what_the_tail_after_the_contents_adds() -> None:
    """Past the last entry's page: a short tail adds its top-level headings when there are two or more, a lone
    closing heading ("Questions?") is no run of sections, headings below the contents' top level are the last
    entry's own, and a long tail (annexes) keeps every level."""
    from pageindex_desktop.core.outline.enrich import _tail_headings
    from pageindex_desktop.core.outline.tree import Heading

    listed = [Heading("Results", 2, 8)]
    two = listed + [Heading("Signatures", 2, 10), Heading("Officers", 3, 10), Heading("Exhibit 21.1", 2, 11)]
    assert [(h.title, h.level) for _p, h in _tail_headings(two, 8, 12, 2)] == [("Signatures", 1), ("Exhibit 21.1", 1)]
    assert _tail_headings(two, 8, 12, 1) == []  # set below the contents' top entries: the last one's sub-headings
    assert _tail_headings(listed + [Heading("Questions?", 1, 11)], 8, 12, 1) == []
    assert _tail_headings(two, 8, 9, 2) == []  # the contents reaches the end
    assert [(h.title, h.level) for _p, h in _tail_headings(two, 8, 30, 2)] == [
        ("Signatures", 1), ("Officers", 2), ("Exhibit 21.1", 1)]


def test_a_report_with_chapter_headers_and_one_divided_sub_section_keeps_its_tree(tmp_path: Path) -> None:
    """A synthetic report (`tests/bench/synthetic_docs.py`, seed 50): a contents page of chapters only,
    three short chapters on page 2 under a running header naming the last of them, and a level 3 (body size,
    theme colour) under two sub-sections, one with one heading and one with three. The header put "Local
    obligation schedule" at the top of page 2, above the two chapters before it, and level 3 was no level
    of the document with one divided sub-section; the tree is now the one the document prints. (The seed
    fixes the document while the generator's draws stay as they are; a generator change that moves them
    needs another seed showing both.)"""
    from tests.bench.synthetic_docs import build

    path = tmp_path / "report.pdf"
    printed = [(s.title, s.level, s.page) for s in build(50, path, report=True)]
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.level, h.page) for h in headings] == printed


def _running_header(page: pymupdf.Page, folio: str, number: int) -> None:
    """A report's running header with its folio beside it, outside on the page (verso left, recto right)."""
    name = "Annual Report of the Rivers Board | 2023"
    if number % 2 == 0:
        page.insert_text((72, 40), f"{folio}   {name}", fontsize=9, fontname="helv")
    else:
        line = f"{name}   {folio}"
        page.insert_text((540 - pymupdf.get_text_length(line, "helv", 9), 40), line, fontsize=9, fontname="helv")


def test_a_contents_pages_header_with_its_roman_folio_is_no_entry(tmp_path: Path) -> None:
    """A contents list running onto a second page under the report's running header, whose folio is roman there
    ("ii   Annual Report ... | 2023") and arabic on the body's pages: the header is furniture on both, so it
    neither becomes an entry nor takes the next entry's page (a Federal Reserve annual report had "ii 110th
    Annual Report | 2023" in its tree)."""
    chapters = [(f"{n} Chapter on the {topic}", [f"{topic} in the first half", f"{topic} in the second half"])
                for n, topic in enumerate(["Rivers", "Lakes", "Wetlands", "Estuaries", "Aquifers", "Reservoirs",
                                           "Floodplains", "Glaciers"], start=1)]
    doc = pymupdf.open()
    body_start = 4  # a title page and two contents pages (printed i to iii), the body printed from 1
    pages_per_chapter = 3
    for _ in range(body_start - 1 + pages_per_chapter * len(chapters)):
        doc.new_page(width=612, height=792)
    _write(doc[0], 200, "Annual Report of the Rivers Board", size=26, bold=True)
    rows = [row for i, (title, subs) in enumerate(chapters)
            for row in [(title, 0, 1 + pages_per_chapter * i)] + [(sub, 14, 2 + pages_per_chapter * i + k)
                                                                 for k, sub in enumerate(subs)]]
    y = _write(doc[1], 90, "Contents", size=18, bold=True) + 10
    for index, (title, indent, printed) in enumerate(rows):
        page = doc[1] if index < 16 else doc[2]
        if index == 16:
            y = 90
        y = _contents_line(page, y, title, str(printed), indent=indent)
    for number in range(2, doc.page_count + 1):
        folio = ["ii", "iii"][number - 2] if number < body_start else str(number - body_start + 1)
        _running_header(doc[number - 1], folio, number)
    for i, (title, subs) in enumerate(chapters):
        first = body_start + pages_per_chapter * i
        _body(doc[first - 1], _write(doc[first - 1], 90, title, size=16, bold=True) + 6, 20)
        for k, sub in enumerate(subs):
            page = doc[first + k]
            _body(page, _write(page, 90, sub, size=12, bold=True) + 4, 24)
    path = tmp_path / "report.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert not [h.title for h in headings if "Annual Report" in h.title]
    listed = [(title, body_start + printed - 1) for title, _indent, printed in rows]
    assert [(h.title, h.page) for h in headings if h.title != "Contents"] == listed


def test_an_entry_whose_number_went_to_the_next_line_keeps_the_list_going(tmp_path: Path) -> None:
    """A word processor's contents entry with a long title fills its line, and its tab and page number go to the
    next line, alone. The long row is no paragraph ending the contents: it and the entries after it are read."""
    long_title = "3.2 Guidance for Local Agencies on the Federal Education Program and Local Compliance Standards"
    doc = pymupdf.open()
    for _ in range(7):
        doc.new_page(width=612, height=792)
    _write(doc[0], 200, "Regional Plan", size=26, bold=True)
    page = doc[1]
    y = _write(page, 90, "Contents", size=18, bold=True) + 10
    for title, printed in (("1 Scope", "3"), ("2 Funding", "4"), ("3 Programs", "5"), ("3.1 Water Quality", "5")):
        y = _contents_line(page, y, title, printed)
    page.insert_text((72, y), long_title, fontsize=10, fontname="helv")
    page.insert_text((530 - pymupdf.get_text_length("6", "helv", 10), y + 14), "6", fontsize=10, fontname="helv")
    y = _contents_line(page, y + 30, "3.2.1 Local Purpose Framework", "6")
    _contents_line(page, y, "4 Monitoring", "7")
    for number, titles in ((3, ["1 Scope"]), (4, ["2 Funding"]), (5, ["3 Programs", "3.1 Water Quality"]),
                           (6, [long_title, "3.2.1 Local Purpose Framework"]), (7, ["4 Monitoring"])):
        y = 90.0
        for title in titles:
            y = _body(doc[number - 1], _write(doc[number - 1], y, title, size=12, bold=True) + 4, 6) + 8
    path = tmp_path / "plan.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings[1:]] == [
        ("1 Scope", 3), ("2 Funding", 4), ("3 Programs", 5), ("3.1 Water Quality", 5), (long_title, 6),
        ("3.2.1 Local Purpose Framework", 6), ("4 Monitoring", 7)]
