"""Issue 11 hierarchy classes, each on a PDF built here: levels among the layout headings, not which are found."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.toc_page import find_toc_headings
from pageindex_desktop.core.ingest.pdf import extract
from tests.core.built_pages import paragraph, write_line


def _entry(page: pymupdf.Page, y: float, title: str, number: int) -> float:
    """One row of a section's own list: the title at the left, its page number apart at the right."""
    write_line(page, y, title)
    return write_line(page, y, str(number), x=520)


def _levels(doc: pymupdf.Document, path: Path) -> dict[str, int]:
    doc.save(path)
    return {h.title: h.level for h in find_layout_headings(extract(path))}


def test_a_part_page_listing_its_chapters_sits_above_them(tmp_path: Path) -> None:
    """A book's part titles set in the chapters' face go above the chapters their pages list, sections below."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "A Field Guide to Measurement", size=24)
    parts = {"Part One: Foundations": ["Getting Started", "Units and Scales"],
             "Part Two: Practice": ["Field Methods", "Reading the Results"]}
    number = 2
    for part, chapters in parts.items():
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 200, part, size=18, bold=True) + 10
        for k, chapter in enumerate(chapters):
            y = _entry(page, y, chapter, number + 1 + 3 * k)
        number += 1
        for chapter in chapters:
            page = doc.new_page(width=612, height=792)
            y = write_line(page, 160, chapter, size=18, bold=True) + 6
            y = paragraph(page, y, 12)
            y = write_line(page, y + 8, f"Notes on {chapter.lower()}", size=12, bold=True) + 4
            paragraph(page, y, 10)
            for _ in range(2):
                paragraph(doc.new_page(width=612, height=792), 90, 30)
            number += 3
    levels = _levels(doc, tmp_path / "book.pdf")
    chapters = [c for cs in parts.values() for c in cs]
    assert set(levels) >= {*parts, *chapters}
    assert {levels[p] for p in parts} == {1}
    assert {levels[c] for c in chapters} == {2}
    assert {levels[f"Notes on {c.lower()}"] for c in chapters} == {3}


def test_a_part_label_closed_by_a_stop_heads_its_part(tmp_path: Path) -> None:
    """KOMA-Script's part pages: "Part I." and the part's name centred alone on a page, in the chapters' own
    size and weight, the chapters "1. Description" over sections "1.1. Motivation". The parts sit above the
    chapters. Before, "Part I." ended like a sentence ("I." after a space) and was dropped, so the part's name
    alone stood level with the chapters."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "A Field Guide to Measurement", size=30)
    chapter = 0
    for roman, name in (("I", "Methodology"), ("II", "Installation")):
        page = doc.new_page(width=612, height=792)
        write_line(page, 300, f"Part {roman}.", size=24, bold=True, x=270)
        write_line(page, 350, name, size=24, bold=True, x=230)
        for title in ("Description", "Metrics"):
            chapter += 1
            page = doc.new_page(width=612, height=792)
            y = write_line(page, 130, f"{chapter}. {title}", size=24, bold=True) + 6
            y = paragraph(page, y, 10)
            y = write_line(page, y + 8, f"{chapter}.1. Motivation", size=14, bold=True) + 4
            paragraph(page, y, 10)
    levels = _levels(doc, tmp_path / "koma.pdf")
    assert {levels["Part I. Methodology"], levels["Part II. Installation"]} == {1}
    assert {levels[f"{n}. {t}"] for n, t in enumerate(("Description", "Metrics") * 2, 1)} == {2}
    assert {levels[f"{n}.1. Motivation"] for n in range(1, 5)} == {3}


def test_a_statements_index_puts_the_statements_and_notes_under_its_heading(tmp_path: Path) -> None:
    """A filing's "Financial Statements" page opens with an index of the statements that follow in its own face:
    they and the notes go under it; the next part, which the index does not list, stays beside it."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "Annual Report on Form 10-K", size=24)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 120, "Risk Factors", size=18) + 6
    paragraph(page, y, 20)
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 150, "Financial Statements and Supplementary Data", size=18) + 6
    y = write_line(page, y, "Index to Consolidated Financial Statements") + 4
    statements = ["Report of Independent Registered Public Accounting Firm", "Consolidated Statements of Income",
                  "Consolidated Balance Sheets", "Notes to Consolidated Financial Statements"]
    for k, title in enumerate(statements):
        y = _entry(page, y, title.replace("Report of", "Reports of"), 40 + k)
    for k, title in enumerate(statements):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 100 + 30 * k, title, size=18) + 6
        y = paragraph(page, y, 10)
        if title.startswith("Notes"):
            for sub in ("Basis of Presentation", "Revenue Recognition"):
                y = write_line(page, y + 8, sub, size=12) + 4
                y = paragraph(page, y, 6)
        paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 130, "Controls and Procedures", size=18) + 6
    paragraph(page, y, 20)
    levels = _levels(doc, tmp_path / "filing.pdf")
    top = levels["Financial Statements and Supplementary Data"]
    assert levels["Risk Factors"] == top and levels["Controls and Procedures"] == top
    assert {levels[t] for t in statements} == {top + 1}
    assert levels["Basis of Presentation"] == levels["Revenue Recognition"] == top + 2


def test_a_heading_over_a_cross_reference_list_keeps_its_siblings(tmp_path: Path) -> None:
    """A page naming other sections with their pages ("see ... 12") lists no children when the headings that
    follow are not the ones named: nothing moves."""
    doc = pymupdf.open()
    titles = ["Overview", "Market Conditions", "Outlook", "Governance"]
    write_line(doc.new_page(width=612, height=792), 300, "Quarterly Review", size=24)
    for n, title in enumerate(titles):
        paragraph(doc.new_page(width=612, height=792), 90, 30)
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 100 + 30 * n, title, size=18) + 6
        y = paragraph(page, y, 6)
        if n == 0:
            y = write_line(page, y, "Related reading:") + 2
            y = _entry(page, y, "Glossary of Terms", 40)
            y = _entry(page, y, "Selected Financial Data", 41)
        paragraph(page, y, 14)
    levels = _levels(doc, tmp_path / "crossref.pdf")
    assert [levels[t] for t in titles] == [1, 1, 1, 1]


def test_a_reserved_item_is_an_item_like_the_others(tmp_path: Path) -> None:
    """"Item 6. [Reserved]" set in the items' face (which the sub-heads share) sits with the items, not under
    Item 5 as a sub-head: a title opening with a bracket is still the item's title."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "Annual Report on Form 10-K", size=24)
    items = {"PART I": ["Item 1. Business", "Item 2. Properties"],
             "PART II": ["Item 5. Market for Common Equity", "Item 6. [Reserved]", "Item 7. Management's Discussion"]}
    for n, (part, titles) in enumerate(items.items()):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 110 + 20 * n, part, bold=True) + 6
        for k, title in enumerate(titles):
            y = write_line(page, y + 8, title, bold=True) + 4
            y = paragraph(page, y, 4)
            if not title.endswith("]"):
                y = write_line(page, y + 8, f"Our Approach to Topic {k}", bold=True) + 4
                y = paragraph(page, y, 4)
            if y > 600:
                page = doc.new_page(width=612, height=792)
                y = 100.0 + 17 * k
    levels = _levels(doc, tmp_path / "tenk.pdf")
    titles = [t for ts in items.values() for t in ts]
    assert set(levels) >= set(titles)
    assert {levels[t] for t in titles} == {levels["PART I"] + 1}


def test_a_running_folio_on_a_contents_page_does_not_push_its_entries_down(tmp_path: Path) -> None:
    """A contents page's running folio ("ii  Annual Review 2023 |"), printed left of the entries and read as a
    row of the list, is no indentation step: the entries of its page keep the levels of the first page's."""
    from pageindex_desktop.core.outline.toc_page import find_toc_headings

    chapters = [(f"{c} Chapter Title Number {c}", [f"Section Heading {c}.{s}" for s in (1, 2)]) for c in range(1, 7)]
    doc = pymupdf.open()
    for _ in range(3 + 2 * len(chapters)):
        doc.new_page(width=612, height=792)
    pages = [doc[i] for i in range(doc.page_count)]  # made first: a page object outlives no new_page call
    write_line(pages[0], 300, "Annual Review 2023", size=24)
    contents = pages[1:3]
    y = write_line(contents[0], 90, "Contents", size=18, bold=True) + 10
    write_line(contents[1], 40, "ii   Annual Review 2023 |", size=9, x=36)
    number = 4
    for c, (chapter, sections) in enumerate(chapters):
        page = contents[0 if c < 3 else 1]
        if c == 3:
            y = 90.0
        y = _entry(page, y, chapter, number)
        for s, section in enumerate(sections):
            write_line(page, y, section, x=90)
            y = write_line(page, y, str(number + s), x=520)
        number += 2
    body = iter(pages[3:])
    for chapter, sections in chapters:
        for s, section in enumerate(sections):
            page = next(body)
            y = 90.0
            if s == 0:
                y = write_line(page, y, chapter, size=16, bold=True) + 6
            y = write_line(page, y, section, size=12, bold=True) + 4
            paragraph(page, y, 20)
            write_line(page, 760, str(page.number + 1), x=300)
    path = tmp_path / "contents.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    levels = {h.title: h.level for h in headings}
    assert {levels[chapter] for chapter, _ in chapters} == {1}
    assert {levels[s] for _, sections in chapters for s in sections} == {2}


SPEC = {"1.0 SCOPE": ["1.1 Purpose", "1.2 Applicability"],
        "2.0 APPLICABLE DOCUMENTS": ["2.1 Government Documents", "2.2 Other Publications"],
        "3.0 REQUIREMENTS": ["3.1 Performance", "3.2 Interfaces", "3.3 Environmental Conditions"]}


def _spec(path: Path, contents: bool) -> None:
    """A specification numbering its top sections "1.0", "2.0" over "1.1", "2.1", every heading bold at the
    body's size, and (`contents`) a contents page listing them all at one indent."""
    doc = pymupdf.open()
    if contents:
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, "TABLE OF CONTENTS", bold=True) + 8
        entries = [title for top, subs in SPEC.items() for title in [top, *subs]]
        for k, title in enumerate(entries):
            write_line(page, y, title)
            y = write_line(page, y, str(1 + k // 2), x=520)
    for top, subs in SPEC.items():
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, write_line(page, 90, top, bold=True) + 4, 3)
        for sub in subs:
            y = paragraph(page, write_line(page, y + 6, sub, bold=True) + 2, 4)
    doc.save(path)


def test_a_specifications_point_zero_sections_hold_their_sub_sections(tmp_path: Path) -> None:
    """"3.0 REQUIREMENTS" numbers section 3, not a sub-section at the depth of "3.1": read as two parts deep, every
    heading of the specification sat at one level, in the layout tree and in its contents list alike."""
    expected = [(title, level) for top, subs in SPEC.items() for title, level in [(top, 1), *((s, 2) for s in subs)]]
    _spec(tmp_path / "spec.pdf", contents=False)
    assert [(h.title, h.level) for h in find_layout_headings(extract(tmp_path / "spec.pdf"))] == expected
    _spec(tmp_path / "listed.pdf", contents=True)
    headings = find_toc_headings(extract(tmp_path / "listed.pdf"))
    assert headings is not None
    assert [(h.title, h.level) for h in headings if h.title != "TABLE OF CONTENTS"] == expected


def test_a_sections_number_says_its_level_when_its_chapter_heading_is_not_found(tmp_path: Path) -> None:
    """Chapters "1." to "4." over "N.1"-numbered sections over "N.1.1" sub-sections, chapter 3's own heading not
    printed as text (an opener set as a picture): "3.1" comes right after "2.1.2", yet its number puts it at
    the sections' level, and every section stays one level under the chapters."""
    doc = pymupdf.open()
    for chapter, title in enumerate(["Participants", "Interventions", "Outcomes", "Monitoring"], start=1):
        page = doc.new_page(width=612, height=792)
        y = 80.0
        if chapter != 3:
            y = paragraph(page, write_line(page, y, f"{chapter}. {title}", size=20, bold=True) + 4, 4)
        for section in (1, 2):
            y = paragraph(page, write_line(page, y + 4, f"{chapter}.{section} Section {chapter}{section} of the plan",
                                           size=14, bold=True) + 2, 4)
            for sub in (1, 2):
                y = paragraph(page, write_line(page, y + 2, f"{chapter}.{section}.{sub} Detail of the plan",
                                               size=11, bold=True) + 2, 2)
    path = tmp_path / "decimal.pdf"
    doc.save(path)
    levels = [(h.title.split()[0], h.level) for h in find_layout_headings(extract(path))]
    depth = {1: 1, 2: 2, 3: 3}
    assert levels == [(number, depth[number.rstrip(".").count(".") + 1]) for number, _level in levels]
    assert ("3.1", 2) in levels and ("3.1.1", 3) in levels
