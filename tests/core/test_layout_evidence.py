"""Issue 11 error classes from the filings, each on a PDF built here: numbered notes read as captions, table
header and total rows read as headings."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.ingest.pdf import extract
from tests.bench.synthetic_docs import build
from tests.core.built_pages import FILLER, paragraph, write_line


def test_numbered_notes_to_the_statements_are_headings_not_captions(tmp_path: Path) -> None:
    """"Note 1 – Summary of ..." in bold at body size heads a note; a plain "Note 2 shows ..." line is text."""
    doc = pymupdf.open()
    titles = ["Note 1 - Summary of Significant Accounting Policies", "Note 2 - Revenue", "NOTE 3: LEASES",
              "Note 4 - Income Taxes", "Note 5 - Commitments and Contingencies"]
    paragraph(doc.new_page(width=612, height=792), 90, 30)  # the statements before the notes
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Notes to Consolidated Financial Statements", size=14, bold=True) + 6
    y = paragraph(page, y)
    for number, title in enumerate(titles):
        if number % 2 == 0 and number:
            page = doc.new_page(width=612, height=792)
            y = 90.0
        y = write_line(page, y + 8, title, bold=True) + 4
        y = paragraph(page, y)
        y = write_line(page, y, "Note 2 shows the revenue by segment and the changes against the prior year.")
        y = paragraph(page, y, 4)
    path = tmp_path / "notes.pdf"
    doc.save(path)
    headings = find_layout_headings(extract(path))
    assert [h.title for h in headings] == ["Notes to Consolidated Financial Statements", *titles]
    levels = {h.title: h.level for h in headings}
    assert {levels[t] for t in titles} == {levels["Notes to Consolidated Financial Statements"] + 1}


def test_larger_notes_sit_under_the_notes_heading(tmp_path: Path) -> None:
    """Notes set larger than "Notes to Financial Statements" still nest under it, their sub-heads under them."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Notes to Condensed Financial Statements", size=11, bold=True) + 6
    y = paragraph(page, y, 4)
    for number, title in enumerate(["Note 1 - Basis of Presentation", "Note 2 - Fair Value", "Note 3 - Loans"]):
        y = write_line(page, y + 8, title, size=14, bold=True) + 4
        y = paragraph(page, y, 3)
        y = write_line(page, y + 8, f"Credit Quality Review {number + 1}", size=11, bold=True) + 4
        y = paragraph(page, y, 3)
    path = tmp_path / "notes.pdf"
    doc.save(path)
    levels = {h.title: h.level for h in find_layout_headings(extract(path))}
    top = levels["Notes to Condensed Financial Statements"]
    assert levels["Note 1 - Basis of Presentation"] == levels["Note 3 - Loans"] == top + 1
    assert levels["Credit Quality Review 2"] == top + 2


def test_filing_items_closed_by_a_full_stop_are_headings(tmp_path: Path) -> None:
    """"Item 4. Controls and Procedures." at body size is an item heading; a sentence naming an item is not."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = 90.0
    for title in ("Item 1. Legal Proceedings.", "Item 1A. Risk Factors.", "Item 4. Controls and Procedures."):
        y = write_line(page, y + 8, title) + 4
        y = paragraph(page, y, 5)
        y = write_line(page, y, "Item 2 of this report describes the legal proceedings we are party to.") + 4
    path = tmp_path / "items.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found == ["Item 1. Legal Proceedings.", "Item 1A. Risk Factors.", "Item 4. Controls and Procedures."]


def test_table_header_and_total_rows_are_not_headings(tmp_path: Path) -> None:
    """Bold column headers side by side and a bold "Total" row with its figures sit in a table, not the outline;
    a two-column page's heading beside the other column's text is still a heading."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Purchases of Equity Securities", size=10, bold=True) + 4
    y = paragraph(page, y, 6)
    for x, text in ((72, "Period End"), (330, "Total Number"), (460, "Average Price")):
        write_line(page, y, text, bold=True, x=x)
    y += 16
    for month in ("July", "August", "September"):
        for x, text in ((72, month), (330, "1,204"), (460, "$ 148.10")):
            write_line(page, y, text, x=x)
        y += 14
    for x, text in ((72, "Total Repurchases"), (330, "3,612"), (460, "$ 147.20")):
        write_line(page, y, text, bold=True, x=x)
    y = paragraph(page, y + 20, 6)
    write_line(page, y + 8, "Company Stock Performance", bold=True)
    page = doc.new_page(width=612, height=792)
    y = 90.0
    for i in range(30):  # two columns; the heading in the left one shares its baseline with right-column text
        if i == 10:
            write_line(page, y, "Dividends Declared", bold=True, x=50)
        else:
            write_line(page, y, FILLER[:48], x=50)
        write_line(page, y, FILLER[:48], x=320)
        y += 15
    path = tmp_path / "table.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found == ["Purchases of Equity Securities", "Company Stock Performance", "Dividends Declared"]


def test_continued_titles_and_block_labels_open_no_sections(tmp_path: Path) -> None:
    """A title printed again on the next page is one section; labels printed twice on one page are none."""
    pages = [[("Survey Method", True), ("Summary of Results", True)], [("Summary of Results", True)],
             [("Regional Findings", True), ("Example", False), ("Example", False)], [("Outlook", True)],
             [("Summary of Results", True)]]
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    for number, titles in enumerate(pages):
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, 90, 1 + number)  # headings at different heights: not a slide frame's spot
        for title, large in titles:
            y = write_line(page, y + 8, title, size=14 if large else 11, bold=True) + 4
            y = paragraph(page, y, 5)
    path = tmp_path / "continued.pdf"
    doc.save(path)
    found = [(h.title, h.page) for h in find_layout_headings(extract(path))]
    assert found == [("Survey Method", 2), ("Summary of Results", 2), ("Regional Findings", 4), ("Outlook", 5),
                     ("Summary of Results", 6)]


def test_pages_before_the_printed_contents_hold_no_sections(tmp_path: Path) -> None:
    """A filing's cover sheet sets bold lines among its legal text; the contents after it says where the
    document begins, so none of them is a section."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "UNITED STATES SECURITIES AND EXCHANGE COMMISSION", bold=True) + 4
    y = paragraph(page, y, 4)
    y = write_line(page, y + 8, "Documents Incorporated by Reference", bold=True) + 4
    paragraph(page, y, 6)
    titles = ["Business Overview", "Risk Factors", "Legal Proceedings", "Financial Statements"]
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Table of Contents", size=14, bold=True) + 6
    for number, title in enumerate(titles):
        y = write_line(page, y, f"{title} {'.' * 60} {3 + number}")
    for title in titles:
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, title, size=14, bold=True) + 6
        paragraph(page, y, 20)
    path = tmp_path / "cover.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == titles


def test_a_risk_factor_sentence_set_over_its_paragraph_is_not_a_heading(tmp_path: Path) -> None:
    """A filing prints each risk factor as a larger sentence over two lines; joined it reads as a sentence. A
    long title in title case over two lines stays a heading."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Risks Related to Our Operations and the Markets in Which We", size=12, bold=True)
    y = write_line(page, y, "Compete Across the United States and Abroad", size=12, bold=True) + 6
    y = paragraph(page, y, 5)
    for first, second in (("Our businesses may incur substantial costs and liabilities and be", "exposed to price "
                           "volatility in the wholesale markets"), ("Wholesale power prices are declining in many "
                           "markets which could", "impact our operations and results")):
        y = write_line(page, y + 8, first, size=12) + 0
        y = write_line(page, y, second, size=12) + 4
        y = paragraph(page, y, 5)
    y = write_line(page, y + 8, "Market Information", size=12, bold=True) + 4
    paragraph(page, y, 5)
    path = tmp_path / "risks.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == [
        "Risks Related to Our Operations and the Markets in Which We Compete Across the United States and Abroad",
        "Market Information"]


def _table_rows(page: pymupdf.Page, y: float, labels: list[str]) -> float:
    """Plain table rows: a label at the margin and two figures to its right; returns the y below them."""
    for number, label in enumerate(labels):
        for x, text in ((72, label), (380, f"{1204 + 37 * number:,}"), (470, f"({88 + number})")):
            write_line(page, y, text, x=x)
        y += 14
    return y


def test_bold_labels_inside_a_table_are_not_headings(tmp_path: Path) -> None:
    """A statement's bold row groups ("Cash Flows from Financing Activities") sit between rows of figures: table
    labels. A bold title over the table (prose above it) and a bold heading after it (prose below) stay."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Liquidity and Capital Resources", bold=True) + 4
    y = paragraph(page, y, 6)
    y = write_line(page, y + 8, "Consolidated Statements of Cash Flows", bold=True) + 4
    for x, text in ((380, "2023"), (470, "2022")):
        write_line(page, y, text, bold=True, x=x)
    y = _table_rows(page, y + 16, ["Net earnings", "Depreciation", "Deferred income taxes"])
    y = write_line(page, y + 2, "Cash Flows from Investing Activities", bold=True) + 2
    y = _table_rows(page, y, ["Purchases of land", "Acquisitions", "Other, net"])
    y = write_line(page, y + 2, "Cash Flows from Financing Activities", bold=True) + 2
    y = _table_rows(page, y, ["Notes payable", "Dividends paid", "Other, net"])
    y = paragraph(page, y + 20, 4)
    y = write_line(page, y + 8, "Market Risk Management", bold=True) + 4
    paragraph(page, y, 6)
    path = tmp_path / "statement.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found == ["Liquidity and Capital Resources", "Consolidated Statements of Cash Flows", "Market Risk Management"]


def test_unit_and_audit_notes_are_no_part_of_a_title(tmp_path: Path) -> None:
    """A statement's title carries "(in millions, except per share data)" in its own face, and a bold
    "(unaudited)" line sits under another: the titles are the statements' names, the notes no headings."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    for title, note in (("Consolidated Statements of Earnings (in millions, except per share data)", None),
                        ("Condensed Consolidated Balance Sheet", "(unaudited)"),
                        ("Supplemental Financial Information", "(Dollars in thousands)")):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, title, size=12, bold=True) + 2
        if note is not None:
            y = write_line(page, y, note, size=12, bold=True) + 2
        y = paragraph(page, y + 4, 3)
        y = _table_rows(page, y + 10, ["Net sales", "Cost of sales", "Operating profit"])
        paragraph(page, y + 20, 6)
    path = tmp_path / "statements.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found == ["Consolidated Statements of Earnings", "Condensed Consolidated Balance Sheet",
                     "Supplemental Financial Information"]


def test_a_short_outline_nests_its_deepest_scheme_after_one_restart(tmp_path: Path) -> None:
    """A release numbered "I." > "A." > "1." sets the parts in small bold capitals and the letters larger. The
    letters restart under two parts, the numbers once, under "C." only: that is their place, not the top."""
    outline = [("I. INTRODUCTION", 10), ("II. INTERPRETATION AND APPLICATION", 10),
               ("A. Historical Context and Legislative History", 12), ("B. Scope of the Broker Exclusion", 12),
               ("C. Guidance on Applying the Interpretation", 12), ("1. Investment Discretion", 11),
               ("2. Account Monitoring", 11), ("III. ECONOMIC CONSIDERATIONS", 10), ("A. Background", 12),
               ("B. Potential Economic Effects", 12), ("Statutory Authority", 14)]
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    for title, size in outline:
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, title, size=size, bold=True) + 4
        paragraph(page, y, 12)
    path = tmp_path / "release.pdf"
    doc.save(path)
    found = [(h.title, h.level) for h in find_layout_headings(extract(path))]
    depth = {"I": 1, "II": 1, "III": 1, "A": 2, "B": 2, "C": 2, "1": 3, "2": 3, "Statutory": 1}
    assert found == [(title, depth[title.split(".")[0].split()[0]]) for title, _size in outline]


def test_a_plans_numbered_strategies_are_headings_and_bare_labels_are_not(tmp_path: Path) -> None:
    """A government plan heads its divisions "Strategy 1.1 Improve the Trail Network": a label word, an outline
    number and a title, repeated like "Definition 4" but a heading. Bare "Definition 4" lines stay labels."""
    titles = ["Strategy 1.1 Improve the Trail Network", "Strategy 1.2 Connect Neighbouring Towns",
              "Strategy 2.1 Reduce Traffic Speed Near Schools", "Strategy 2.2: Clear Snow from Cycling Lanes",
              "Strategy 3.1 - Educate Drivers and Cyclists"]
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    for number, title in enumerate(titles):
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, 90, 1 + number)
        y = write_line(page, y + 8, title, size=11, bold=True) + 4
        y = paragraph(page, y, 4)
        y = write_line(page, y + 8, f"Definition {number + 1}", bold=True) + 2
        paragraph(page, y, 3)
    path = tmp_path / "plan.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == titles


CHAPTER_TITLES = ["Water Supply", "Asset Condition", "Customer Service", "Capital Programme"]


def _chapter_beside(path: Path, beside: list[tuple[float, str]], size: float) -> list[str]:
    """Four chapters, a page each: the title (16 pt bold) at the page's top left over a column of prose, and right
    of it the lines of `beside` ((dy from the title's baseline, text) at x 318, in `size` pt, italic when
    smaller), too few for the page to read as two columns; returns the layout titles."""
    doc = pymupdf.open()
    for number, title in enumerate(CHAPTER_TITLES, start=1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((78, 92), f"{number}. {title}", fontsize=16, fontname="hebo")
        for dy, text in beside:
            page.insert_text((318, 86 + dy), text, fontsize=size, fontname="heit" if size < 16 else "hebo")
        y = 120.0
        for i in range(30):
            page.insert_text((78, y), (FILLER.capitalize() if i == 0 else FILLER)[:46], fontsize=10, fontname="helv")
            y += 13
    doc.save(path)
    return [h.title for h in find_layout_headings(extract(path))]


def test_a_chapter_title_beside_a_small_two_line_caption_is_a_heading(tmp_path: Path) -> None:
    """A 16 pt chapter title meets both lines of a 9 pt figure caption wrapped beside it in the other column:
    one text beside it, not a table row's cells."""
    titles = _chapter_beside(tmp_path / "caption.pdf", [(0, "Figure 1. Service district residual service"),
                                                        (13, "maintenance of the pipes")], 9)
    assert titles == [f"{n}. {t}" for n, t in enumerate(CHAPTER_TITLES, start=1)]


def test_a_row_beside_a_cell_wrapped_in_its_own_type_is_a_table_row(tmp_path: Path) -> None:
    """The same title beside a text in its own type wrapped over two lines that both meet its baseline (a
    table's cell, "Changes in and Disagreements" | "with Accountants" by "Item 9."): a table's row, no heading."""
    cell = [(-1.0, "Changes in and Disagreements"), (13.0, "with Accountants")]
    titles = _chapter_beside(tmp_path / "cells.pdf", cell, 16)
    assert titles == []


def test_a_wrapped_title_beside_a_few_lines_of_the_other_column_is_one_title(tmp_path: Path) -> None:
    """A synthetic report (`tests/bench/synthetic_docs.py`, seed 171; seed 146 its appendix) opens chapter 1 at the top of a page's
    left column with a title wrapped over three lines, beside the last lines of the right column: too few for
    the page to read as two columns, so its rows go by height and those lines come between the title's. The
    title is read whole."""
    path = tmp_path / "report.pdf"
    build(171, path, True)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert "1. Federal trade schedule hazard and customer" in titles
    build(146, path, True)  # the other column's lines there are a numbered list's, hung from its numbers
    assert "Appendix A: Secondary Option And Operation" in [h.title for h in find_layout_headings(extract(path))]


def test_boxed_note_labels_on_several_pages_open_no_sections(tmp_path: Path) -> None:
    """A manual or a printed web page labels its boxed notes with a bare "Note" or "Warning:", set bold at the
    body's size like its sub-heads: on different pages, twice or more, they are labels, while a sub-head
    repeated under each section ("Overview") stays a section."""
    pages = [[("Installing the Service", 14), ("Overview", 11), ("Note", 10), ("Requirements", 11)],
             [("Configuring the Service", 14), ("Overview", 11), ("Warning:", 10), ("Options", 11)],
             [("Running the Service", 14), ("Overview", 11), ("Note", 10), ("Logs", 11)]]
    doc = pymupdf.open()
    for titles in pages:
        page = doc.new_page(width=612, height=792)
        y = 90.0
        for title, size in titles:
            y = write_line(page, y + 8, title, size=size, bold=True, x=80 if size == 10 else 72) + 4
            y = paragraph(page, y, 3 if size == 10 else 6)
    path = tmp_path / "manual.pdf"
    doc.save(path)
    found = [h.title for h in find_layout_headings(extract(path))]
    assert found == [title for titles in pages for title, size in titles if size > 10]


def test_a_heading_beside_a_table_row_set_in_the_other_column_is_a_heading(tmp_path: Path) -> None:
    """A two-column paper or newsletter whose right column holds a small table where the left column prints a
    section heading: the row beside the heading has a label of its own ("Cash market") before its figures, so
    it is a row of the other column's table, not the heading's cells. A table straddling the middle, whose
    figures follow its bold row label with no other text between ("Accumulated benefit obligation  $ 4,429"),
    still makes its label a table row."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((190, 60), "Cash Pricing and Cost Margins", fontsize=17, fontname="hebo")
    y = paragraph(page, 90, 4)  # the abstract, across both columns
    for column_x in (60, 320):
        y = 160.0
        for i in range(36):
            if column_x == 60 and i == 16:
                page.insert_text((60, y), "3. Results", fontsize=13, fontname="hebo")
            elif column_x == 320 and 15 <= i <= 17:
                page.insert_text((320, y), ("Cash market", "Net income", "Total assets")[i - 15], fontsize=8.5,
                                 fontname="helv")
                for x, figure in ((450, "34,902"), (510, "86,101")):
                    page.insert_text((x, y), figure, fontsize=8.5, fontname="helv")
            else:
                page.insert_text((column_x, y), FILLER[:44], fontsize=10, fontname="helv")
            y += 15
    page = doc.new_page(width=612, height=792)
    y = 80.0
    for number in range(16):  # a page of a table: its labels in the left half, its figures in the right
        bold = number in (7, 15)
        label = "Accumulated benefit obligation" if number == 15 else f"Plan item {number + 1} of the year"
        page.insert_text((72, y), label, fontsize=10, fontname="hebo" if bold else "helv")
        for x, cell in ((420, "$"), (450, "4,429"), (500, "$"), (530, "3,862")):
            page.insert_text((x, y), cell, fontsize=10, fontname="helv")
        y += 15
    path = tmp_path / "columns.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert "3. Results" in titles and "Accumulated benefit obligation" not in titles, titles
