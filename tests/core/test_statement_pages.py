"""Issue 11, cause 1 (printed headings missed) for filings and earnings releases, on PDFs built here: a
financial statement's page names itself only in the centred stack over its table (the entity, the title, its
qualifiers), set in the table's small type, so no heading test found it."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.tree import Heading
from tests.bench.tree_score import nested
from tests.core.built_pages import paragraph, write_line

ENTITY = "NORTHWIND TRADING CORP. AND SUBSIDIARIES"
PROSE = ["Executive Commentary", "Overall Results", "Capital Allocation", "Financial Guidance"]


def _centred(page: pymupdf.Page, y: float, text: str, size: float = 9) -> float:
    """Put one line centred on the page and return the y of the next line."""
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=size)
    return write_line(page, y, text, size=size, x=(page.rect.width - width) / 2)


def _statement(doc: pymupdf.Document, stack: list[str], caption: str = "") -> None:
    """A statement page: the entity, the given title and qualifier lines, centred, over a table of figures;
    with a `caption` over the table in the prose's sub-heading face."""
    page = doc.new_page(width=612, height=792)
    y = 40.0
    for text in [ENTITY, *stack]:
        y = _centred(page, y, text)
    if caption:
        y = write_line(page, y + 16, caption, size=10.5, bold=True)
    y += 20
    for i, label in enumerate(["Revenues", "Cost of sales", "Selling expenses", "Research costs", "Net income"]):
        write_line(page, y, label, size=9)
        for column, figure in enumerate([f"{1200 + 37 * i:,}", f"{1100 + 29 * i:,}", f"{(i * 7) % 11}"]):
            write_line(page, y, figure, size=9, x=330 + 90 * column)
        y += 14


def _prose(doc: pymupdf.Document, title: str) -> None:
    """A page of prose under a heading in the release's sub-heading face."""
    page = doc.new_page(width=612, height=792)
    paragraph(page, write_line(page, 80, title, size=10.5, bold=True) + 4, 12)


def _release(statements: list[list[str]], after: list[str]) -> pymupdf.Document:
    """A release: a cover, its prose sections (bold headings over the 10 pt body), the statements, then the
    prose sections `after` them in a smaller bold face."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Northwind Reports Second-Quarter Results", size=24,
               bold=True)
    for title in PROSE:
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 80, title, size=12, bold=True) + 4
        y = paragraph(page, y, 10)
        y = write_line(page, y + 8, f"{title.split()[0]} Highlights", size=10.5, bold=True) + 4
        paragraph(page, y, 10)
    for stack in statements:
        _statement(doc, stack)
    for title in after:
        _prose(doc, title)
    return doc


def _depths(headings: list[Heading]) -> dict[str, int]:
    return {e.title: e.depth for e in nested((h.level, h.title, h.page) for h in headings)}


def test_a_release_s_statements_are_sections_beside_its_prose(tmp_path: Path) -> None:
    """Each statement's title is a heading at the top level, the prose headings after the statements are not
    hung under the last statement, and the entity line over each is no heading."""
    statements = [["CONSOLIDATED STATEMENTS OF INCOME", "(UNAUDITED)", "(millions, except per share data)"],
                  ["CONDENSED CONSOLIDATED BALANCE SHEETS", "(UNAUDITED)"],
                  ["RECONCILIATION OF GAAP REPORTED TO", "NON-GAAP ADJUSTED INFORMATION",
                   "Three Months Ended July 2, 2023"]]
    path = tmp_path / "release.pdf"
    _release(statements, ["Non-GAAP Measures", "Cautionary Statement"]).save(path)
    headings = find_layout_headings(extract(path))
    depths = _depths(headings)
    titles = ["CONSOLIDATED STATEMENTS OF INCOME", "CONDENSED CONSOLIDATED BALANCE SHEETS",
              "RECONCILIATION OF GAAP REPORTED TO NON-GAAP ADJUSTED INFORMATION"]
    assert [depths.get(t) for t in titles] == [0, 0, 0], depths
    assert [h.page for h in headings if h.title in titles] == [6, 7, 8]
    assert depths["Non-GAAP Measures"] == depths["Cautionary Statement"] == 0
    assert depths["Executive Commentary"] == 0 and depths["Executive Highlights"] == 1
    assert not any(ENTITY.lower() in h.title.lower() for h in headings)


def test_a_table_caption_on_a_statement_page_keeps_no_prose_after_it(tmp_path: Path) -> None:
    """The last statement's page captions its table in the prose's sub-heading face ("Gross Margin Growth
    Reconciliation"): the caption is part of the statement, and the prose sections set in that face on the
    next pages are not, so they stand beside the statement rather than under it."""
    doc = _release([["CONSOLIDATED STATEMENTS OF INCOME", "(UNAUDITED)"]], [])
    _statement(doc, ["RECONCILIATION OF GAAP AND NON-GAAP INFORMATION", "(UNAUDITED)"],
               caption="Gross Margin Growth Reconciliation")
    for title in ("Non-GAAP Measures", "Cautionary Statement"):
        _prose(doc, title)
    path = tmp_path / "caption.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert depths["RECONCILIATION OF GAAP AND NON-GAAP INFORMATION"] == 0
    assert depths["Gross Margin Growth Reconciliation"] == 1
    assert depths["Non-GAAP Measures"] == depths["Cautionary Statement"] == 0


def test_a_continued_statement_is_one_heading_and_a_repeated_title_is_told_apart(tmp_path: Path) -> None:
    """A statement continued on the next page is one heading, "(continued)" or not; one title printed over two
    separate tables (a quarter's and a half-year's) is named by its period too, so the tree tells them apart."""
    statements = [["CONSOLIDATED STATEMENTS OF CASH FLOWS", "(UNAUDITED)"],
                  ["CONSOLIDATED STATEMENTS OF CASH FLOWS (continued)", "(UNAUDITED)"],
                  ["REVENUES BY GEOGRAPHIC REGION", "SECOND-QUARTER 2023 and 2022 - (UNAUDITED)"],
                  ["NOTES TO THE REVENUE TABLES"],
                  ["REVENUES BY GEOGRAPHIC REGION", "SIX MONTHS 2023 and 2022 - (UNAUDITED)"]]
    path = tmp_path / "continued.pdf"
    _release(statements, []).save(path)
    titles = [(h.title, h.page) for h in find_layout_headings(extract(path)) if h.page > 5]
    assert titles == [("CONSOLIDATED STATEMENTS OF CASH FLOWS", 6),
                      ("REVENUES BY GEOGRAPHIC REGION — SECOND-QUARTER 2023 and 2022", 8),
                      ("NOTES TO THE REVENUE TABLES", 9),
                      ("REVENUES BY GEOGRAPHIC REGION — SIX MONTHS 2023 and 2022", 10)]


def test_an_entity_and_title_on_one_line_name_the_statement(tmp_path: Path) -> None:
    """"NORTHWIND TRADING CORP. - REVENUES" over the period: the entity and the title share the stack's first
    line, and the title is what follows the dash (a quarter's table and, two pages on, a half-year's)."""
    doc = _release([], [])
    for period in ("SECOND-QUARTER 2023 and 2022 - (UNAUDITED)", "", "SIX MONTHS 2023 and 2022 - (UNAUDITED)"):
        page = doc.new_page(width=612, height=792)
        if not period:
            paragraph(page, 80, 20)  # the notes to the first table
            continue
        _centred(page, _centred(page, 40, "NORTHWIND TRADING CORP. - REVENUES"), period)
        for i, label in enumerate(["Worldwide", "United States", "International", "Europe", "Japan", "China",
                                   "Canada", "Latin America", "Emerging Markets"]):
            write_line(page, 100 + 14 * i, label, size=9)
            write_line(page, 100 + 14 * i, f"{4200 + 310 * i:,}", size=9, x=400)
    path = tmp_path / "revenues.pdf"
    doc.save(path)
    titles = [(h.title, h.page) for h in find_layout_headings(extract(path)) if h.page > 5]
    assert titles == [("REVENUES — SECOND-QUARTER 2023 and 2022", 6), ("REVENUES — SIX MONTHS 2023 and 2022", 8)]


def test_a_two_line_running_header_is_no_statement(tmp_path: Path) -> None:
    """A centred two-line running header over every page ("NORTHWIND TRADING CORP." over "QUARTERLY REPORT")
    has the shape of a statement's stack; a title over more than two separate runs of pages is furniture."""
    doc = pymupdf.open()
    for i, title in enumerate(["Overview of the Quarter", "Segment Results", "Liquidity and Capital",
                               "Risk Management", "Outlook for the Year"]):
        page = doc.new_page(width=612, height=792)
        y = _centred(page, 30, ENTITY)
        _centred(page, y, "QUARTERLY REPORT TO SHAREHOLDERS")
        y = write_line(page, 100 + 20 * i, title, size=12, bold=True) + 4
        paragraph(page, y, 12)
    path = tmp_path / "headers.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert "QUARTERLY REPORT TO SHAREHOLDERS" not in titles
    assert "Segment Results" in titles


def test_a_banner_over_a_set_of_statements_is_no_part_of_each_title(tmp_path: Path) -> None:
    """A schedule prints the same line under the entity over each of its statements ("SCHEDULE I CONDENSED
    FINANCIAL INFORMATION OF PARENT"), then the statement's own title: the title is the line that changes."""
    banner = "SCHEDULE I CONDENSED FINANCIAL INFORMATION OF PARENT"
    names = ["BALANCE SHEETS", "STATEMENTS OF OPERATIONS", "STATEMENTS OF CASH FLOWS"]
    path = tmp_path / "schedule.pdf"
    _release([[banner, name, "DECEMBER 31, 2020 AND 2019"] for name in names], []).save(path)
    titles = [(h.title, h.page) for h in find_layout_headings(extract(path)) if h.page > 5]
    assert titles == [(name, 6 + i) for i, name in enumerate(names)]


def test_a_journal_s_two_line_header_over_a_paper_s_title_is_no_statement(tmp_path: Path) -> None:
    """A journal's centred two-line running header has a statement's stack shape, and on the first page the
    paper's centred title follows it; with no table of figures on its pages the header opens no statement, so
    the title does not become a heading holding every section."""
    doc = pymupdf.open()
    sections = ["1 Introduction", "2 Study Area", "3 Methods", "4 Results", "5 Discussion"]
    for i, section in enumerate(sections):
        page = doc.new_page(width=612, height=792)
        y = _centred(page, _centred(page, 30, "JOURNAL OF RIVER STUDIES"), "RESEARCH ARTICLE")
        if i == 0:
            y = _centred(page, y + 4, "Sediment Transport in Braided Rivers", size=9)
        paragraph(page, write_line(page, 140, section, size=12, bold=True) + 4, 14)
    path = tmp_path / "paper.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert "Sediment Transport in Braided Rivers" not in depths
    assert [depths.get(s) for s in sections] == [0] * len(sections)
