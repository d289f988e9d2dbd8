"""Issue 11 class 4 on PDFs built here: titles split or polluted. A heading or a contents entry wrapped after a
comma or a joining word is one title, footnote markers are no part of a title, an exhibit index's rows and a
signature block's names are no sections."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.table_notes import strip_period
from pageindex_desktop.core.outline.title_shape import open_ended
from pageindex_desktop.core.outline.toc_page import find_toc_headings
from tests.core.built_pages import layout_titles, paragraph, write_line


def _centred(page: pymupdf.Page, y: float, text: str, size: float = 10, bold: bool = False) -> float:
    """A line centred on the page; returns the y of the next line."""
    width = pymupdf.get_text_length(text, "hebo" if bold else "helv", size)
    return write_line(page, y, text, size=size, bold=bold, x=(page.rect.width - width) / 2)


def test_a_heading_wrapped_after_a_comma_or_joining_word_is_one_title(tmp_path: Path) -> None:
    """A heading line ending on a comma ("... COMMON EQUITY,") or a joining word ("... PURSUANT TO") goes on
    on the next line in its style, even when that line opens with a number ("18 U.S.C. ...", "SECTION 906 ...")
    or lines are centred at different widths; a table's "YEAR ENDED MAY 31," over its year columns is no
    heading, the heading after a paragraph stays its own, and so does "1. Scope ..." under "Part A" (a label's
    letter is no article)."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY,", size=14, bold=True)
    y = write_line(page, y, "RELATED STOCKHOLDER MATTERS AND ISSUER", size=14, bold=True)
    y = write_line(page, y, "PURCHASES OF EQUITY SECURITIES", size=14, bold=True) + 6
    y = paragraph(page, y, 8)
    y = write_line(page, y + 10, "YEAR ENDED MAY 31,", size=10, bold=True)
    for x, year in ((300, "2023"), (380, "2022"), (460, "2021")):
        write_line(page, y, year, bold=True, x=x)
    y = paragraph(page, y + 15, 6)
    y = write_line(page, y + 10, "ITEM 6. RESERVED", size=14, bold=True) + 6
    paragraph(page, y, 8)
    page = doc.new_page(width=612, height=792)
    y = _centred(page, 90, "CERTIFICATION OF THE CHIEF EXECUTIVE OFFICER PURSUANT TO", size=11, bold=True)
    y = _centred(page, y, "18 U.S.C. SECTION 1350, AS ADOPTED PURSUANT TO", size=11, bold=True)
    y = _centred(page, y, "SECTION 906 OF THE ACT", size=11, bold=True) + 6
    y = paragraph(page, y, 8)
    y = write_line(page, y + 10, "Storage of the Samples", size=14, bold=True) + 6
    paragraph(page, y, 8)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Part A", size=14, bold=True)
    y = write_line(page, y, "1. Scope of the Review", size=14, bold=True) + 6
    paragraph(page, y, 8)
    found = layout_titles(doc, tmp_path, "wrapped_open.pdf")
    assert found == [
        "ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER MATTERS AND ISSUER PURCHASES OF "
        "EQUITY SECURITIES",
        "ITEM 6. RESERVED",
        "CERTIFICATION OF THE CHIEF EXECUTIVE OFFICER PURSUANT TO 18 U.S.C. SECTION 1350, AS ADOPTED PURSUANT TO "
        "SECTION 906 OF THE ACT",
        "Storage of the Samples",
        "Part A",
        "1. Scope of the Review",
    ]


def _with_marker(page: pymupdf.Page, y: float, title: str, marker: str, rest: str = "", size: float = 14) -> float:
    """A bold heading whose word carries a footnote marker set smaller and raised (a superscript span), with
    `rest` of the title after it; returns the y of the next line."""
    page.insert_text((72, y), title, fontsize=size, fontname="hebo")
    x = 72 + pymupdf.get_text_length(title, "hebo", size)
    page.insert_text((x, y - 0.35 * size), marker, fontsize=0.6 * size, fontname="hebo")
    if rest:
        x += pymupdf.get_text_length(marker, "hebo", 0.6 * size)
        page.insert_text((x, y), rest, fontsize=size, fontname="hebo")
    return y + 1.5 * size


def test_footnote_markers_are_not_part_of_a_title(tmp_path: Path) -> None:
    """A footnote reference on a heading is dropped from its title: a superscript "(4)", "1" or "(a)" (smaller,
    raised), inside the title or closing it, and, set in the title's own font, a "(3)" glued to a word or a
    closing "*". A number that belongs to the title ("Section 9(13)", "401(k)", "2.1") stays."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    page = doc.new_page(width=612, height=792)
    y = _with_marker(page, 90, "2023 FINANCIAL GUIDANCE", "(4)") + 6
    y = paragraph(page, y, 8)
    y = _with_marker(page, y + 10, "GAAP Reported", "(2)", " Income Statement Highlights") + 6
    y = paragraph(page, y, 8)
    y = _with_marker(page, y + 10, "Revenue by Segment", "1", " and Region") + 6
    y = paragraph(page, y, 8)
    y = _with_marker(page, y + 10, "Credit Exposure by Industry", "(a)") + 6
    paragraph(page, y, 8)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Subsidiaries of the Registrant*", size=14, bold=True) + 6
    y = paragraph(page, y, 8)
    y = write_line(page, y + 10, "Selected Adjusted(3) Costs and Expenses", size=14, bold=True) + 6
    y = paragraph(page, y, 8)
    y = write_line(page, y + 10, "Policy on Section 9(13) of the 401(k) Plan", size=14, bold=True) + 6
    paragraph(page, y, 8)
    found = layout_titles(doc, tmp_path, "markers.pdf")
    assert found == ["2023 FINANCIAL GUIDANCE", "GAAP Reported Income Statement Highlights",
                     "Revenue by Segment and Region", "Credit Exposure by Industry", "Subsidiaries of the Registrant",
                     "Selected Adjusted Costs and Expenses", "Policy on Section 9(13) of the 401(k) Plan"]


def test_exhibit_index_rows_are_not_sections(tmp_path: Path) -> None:
    """An exhibit index lists each exhibit's number and description beside its form, file number, exhibit
    number and filing date: a row whose number cell and figure cells MuPDF joins ("10.3 8/3/2009") is still a
    table row, and a plain numbered line that stops mid-phrase at the margin ("..., as") is a wrapped cell, not
    a heading. The filing's headings around the table are kept; the "Page" heading an index's number column
    is none."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Item 15. Exhibits and Financial Statement Schedules", size=14, bold=True) + 6
    y = paragraph(page, y, 4)
    exhibits = [("3.1", "Restated Certificate of Incorporation of", "the Company"),
                ("10.1", "Equity Incentive Plan, as", "amended and restated, effective May 16, 2019"),
                ("10.2", "Form of Notice of Grant - Stock Units", ""),
                ("10.3", "Executive Annual Bonus Plan", ""),
                ("10.4", "Settlement Agreement with the", "Supplier")]
    for number, (exhibit, first, second) in enumerate(exhibits):
        write_line(page, y, exhibit, size=10, x=45)
        write_line(page, y, first, size=10, x=86)
        for x, cell in ((316, "10-Q"), (366, "000-06217"), (434, f"10.{number + 1}"), (473, f"{number + 3}/26/2019")):
            write_line(page, y, cell, size=10, x=x)
        y += 12
        if second:
            write_line(page, y, second, size=10, x=86)
            y += 12
        y += 3
    y = write_line(page, y + 20, "Item 16. Form 10-K Summary", size=14, bold=True) + 6
    y = paragraph(page, y, 6)
    write_line(page, y + 10, "Index to Financial Statements", size=12, bold=True)
    y = write_line(page, y + 10, "Page", size=12, bold=True, x=510)
    paragraph(page, y, 4)
    found = layout_titles(doc, tmp_path, "exhibits.pdf")
    assert found == ["Item 15. Exhibits and Financial Statement Schedules", "Item 16. Form 10-K Summary",
                     "Index to Financial Statements"]


def test_names_in_signature_blocks_and_directories_are_not_sections(tmp_path: Path) -> None:
    """A bold name over a line naming its office ("Maria Lopez" over "President and Chief Executive Officer"),
    two signers side by side, a name under a "/s/" signature line and an officer list's "Name (age 57), Role"
    are people, not sections; a bold heading over a line that names an office in a sentence, and a heading
    named for officers ("Executive Officers"), stay sections, and so does a name-shaped heading ("Regional
    Markets") whose paragraph's first line names an office in lower case."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Management's Report on Internal Control", size=14, bold=True) + 6
    y = paragraph(page, y, 8) + 20
    write_line(page, y, "Maria J. Lopez", bold=True, x=110)
    write_line(page, y, "Peter Olsen", bold=True, x=380)
    write_line(page, y + 13, "Executive Vice President and Chief Financial Officer", x=330)
    y = write_line(page, y + 13, "President and Chief Executive Officer", x=90)
    y = write_line(page, y + 20, "Executive Officers", size=14, bold=True) + 6
    y = write_line(page, y, "Alan K. Brandt (age 57), Executive Vice President - Operations", bold=True)
    y = paragraph(page, y, 3)
    y = write_line(page, y, "Sofia Ruiz (age 48), Chief Financial Officer", bold=True)
    paragraph(page, y, 3)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Signatures", size=14, bold=True) + 6
    y = paragraph(page, y, 4)
    y = write_line(page, y + 10, "/s/ HENRY WALSH", x=90)
    y = write_line(page, y - 5, "Henry Walsh", bold=True, x=90)
    y = write_line(page, y + 20, "Board Oversight", size=14, bold=True)
    y = write_line(page, y, "The chairman of the board and the lead independent director meet every quarter to review.")
    y = paragraph(page, y, 6)
    y = write_line(page, y + 20, "Regional Markets", size=14, bold=True)
    y = write_line(page, y, "Our partner banks and the county lend to small firms across")
    paragraph(page, y, 6)
    found = layout_titles(doc, tmp_path, "signatures.pdf")
    assert found == ["Management's Report on Internal Control", "Executive Officers", "Signatures", "Board Oversight",
                     "Regional Markets"]


def test_a_wrapped_line_citing_rules_goes_on_but_a_period_line_does_not(tmp_path: Path) -> None:
    """A heading's second line that cites rules ("Amendments to Rule 17a-3(a)(25), Rule 17a-4(e)(5)") has few
    letters, yet it opens with a word and most of its words hold no figure: it is the title's next line. A
    statement's period line under its title ("YEARS ENDED DECEMBER 31, 2020, 2019, AND 2018") is not."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "A. Respondents Subject to the Proposed Rule and Proposed", size=13, bold=True)
    y = write_line(page, y, "Amendments to Rule 17a-3(a)(25), Rule 17a-4(e)(5)", size=13, bold=True) + 6
    y = paragraph(page, y, 8)
    y = write_line(page, y + 10, "B. Burden of the Proposed Rule", size=13, bold=True) + 6
    paragraph(page, y, 8)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "STATEMENTS OF OPERATIONS", size=13, bold=True)
    y = write_line(page, y, "YEARS ENDED DECEMBER 31, 2020, 2019, AND 2018", size=13, bold=True) + 6
    paragraph(page, y, 8)
    found = layout_titles(doc, tmp_path, "cited_rules.pdf")
    assert found[:2] == ["A. Respondents Subject to the Proposed Rule and Proposed Amendments to Rule "
                         "17a-3(a)(25), Rule 17a-4(e)(5)", "B. Burden of the Proposed Rule"]
    assert found[2] == "STATEMENTS OF OPERATIONS"


def _entry(page: pymupdf.Page, y: float, title: str, number: str | None) -> float:
    """A contents row: title, dot leaders and a right-aligned page number (none when `number` is None)."""
    if number is None:
        return write_line(page, y, title)
    leaders = title + " "
    while pymupdf.get_text_length(leaders + ". ", "helv", 10) < 440:
        leaders += ". "
    write_line(page, y, leaders)
    page.insert_text((540 - pymupdf.get_text_length(number, "helv", 10), y), number, fontsize=10, fontname="helv")
    return y + 15


def test_a_contents_entry_wrapped_mid_phrase_is_one_entry_and_not_the_end(tmp_path: Path) -> None:
    """A long contents entry whose first line (14 words, no page number) stops on a joining word and whose
    second line ends in the page number is one entry, not the body's first paragraph: the entries after it are
    read too."""
    first = "Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of"
    titles = ["Item 1. Business", "Item 2. Properties", f"{first} Equity Securities", "Item 6. Reserved",
              "Item 7. Management's Discussion and Analysis", "Item 8. Financial Statements"]
    doc = pymupdf.open()
    for _ in range(len(titles) + 2):
        doc.new_page(width=612, height=792)
    write_line(doc[0], 200, "Annual Review of Rivers", size=26, bold=True)
    y = write_line(doc[1], 90, "Table of Contents", size=16, bold=True) + 10
    for number, title in enumerate(titles, start=3):
        if title.startswith(first):
            y = _entry(doc[1], y, first, None)
            title = "Equity Securities"
        y = _entry(doc[1], y, title, str(number)) + 3
    for number, title in enumerate(titles):
        page = doc[2 + number]
        if title.startswith(first):
            y = write_line(page, 90, "Item 5. Market for Registrant's Common Equity, Related", size=14, bold=True)
            y = write_line(page, y, "Stockholder Matters and Issuer Purchases of Equity Securities", size=14, bold=True)
        else:
            y = write_line(page, 90, title, size=14, bold=True)
        paragraph(page, y + 6, 20)
    path = tmp_path / "wrapped_contents.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings[1:]] == [(t, n) for n, t in enumerate(titles, start=3)]


def test_a_contents_page_column_head_and_a_figure_heavy_last_line_are_read_right(tmp_path: Path) -> None:
    """A "Page" printed at the right of the contents' first row heads the number column: it is neither an entry
    nor part of the row's title. An entry wrapped after a full line, whose last line holds more figures than
    letters ("and 2021 ..... 4", "31, 2022 and 2021 ..... 5", indented), is one entry, and the list goes on."""
    long_first = "Consolidated statements of comprehensive income (unaudited) for the three months ended March 31, 2022"
    long_second = "Consolidated statements of changes in stockholders' equity (unaudited) for the three months ended March"
    titles = [("Item 1. Financial Statements", "3", None), (long_first, "4", "and 2021"),
              (long_second, "5", "31, 2022 and 2021"), ("Notes to Consolidated Financial Statements", "6", None),
              ("Item 2. Management's Discussion and Analysis", "7", None), ("Item 3. Controls and Procedures", "8", None)]
    doc = pymupdf.open()
    for _ in range(len(titles) + 2):
        doc.new_page(width=612, height=792)
    write_line(doc[0], 200, "Quarterly Report of the Rivers Company", size=26, bold=True)
    y = write_line(doc[1], 70, "TABLE OF CONTENTS", size=12, bold=True) + 6
    write_line(doc[1], y, "Part I – Financial information", size=10, bold=True)
    y = write_line(doc[1], y, "Page", size=10, bold=True, x=515)
    for title, number, rest in titles:
        if rest is None:
            y = _entry(doc[1], y, title, number)
        else:
            y = write_line(doc[1], y, title, size=8.5) + 1
            indent = 78 if rest[0].isdigit() else 72
            write_line(doc[1], y, rest, x=indent)
            page = number
            doc[1].insert_text((540 - pymupdf.get_text_length(page, "helv", 10), y), page, fontsize=10, fontname="helv")
            y += 15
    for number, (title, _page, rest) in enumerate(titles):
        page = doc[2 + number]
        y = write_line(page, 90, title if rest is None else f"{title} {rest}", size=11, bold=True)
        paragraph(page, y + 6, 20)
    path = tmp_path / "page_column.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    found = [(h.title, h.page) for h in headings if not h.title.startswith(("TABLE", "Part I"))]
    # each wrapped entry is one entry, titled without the period its statement covers (table_notes.strip_period)
    assert found == [(t if rest is None else strip_period(f"{t} {rest}"), int(n)) for t, n, rest in titles]
    assert [title for title, _ in found[1:3]] == ["Consolidated statements of comprehensive income",
                                                  "Consolidated statements of changes in stockholders' equity"]
    assert all(not h.title.endswith("Page") for h in headings)


def test_a_contents_group_label_closed_by_a_colon_is_not_merged_into_its_first_entry(tmp_path: Path) -> None:
    """A contents row closed by a colon over two or more entries indented under it ("Financial Statements of
    the Company:") heads them: its first entry keeps its own title. A title closed by a colon over one indented
    line before the margin again ("Rebuilding Freedoms Previously Presumed:" over "Examples") is one entry."""
    entries = [("Item 1. Business", "3", 72), ("Financial Statements of the Company:", None, 72),
               ("Statements of income", "4", 96), ("Balance sheets", "5", 96), ("Statements of cash flows", "6", 96),
               ("Rebuilding Freedoms Previously Presumed:", None, 72), ("Examples", "7", 86),
               ("Item 2. Properties", "8", 72)]
    doc = pymupdf.open()
    for _ in range(8):
        doc.new_page(width=612, height=792)
    write_line(doc[0], 200, "Annual Review of Rivers", size=26, bold=True)
    y = write_line(doc[1], 90, "Contents", size=16, bold=True) + 10
    for title, number, x in entries:
        write_line(doc[1], y, title, x=x)
        if number is not None:
            doc[1].insert_text((540 - pymupdf.get_text_length(number, "helv", 10), y), number, fontsize=10,
                               fontname="helv")
        y += 15
    sections = ["Item 1. Business", "Statements of income", "Balance sheets", "Statements of cash flows",
                "Rebuilding Freedoms Previously Presumed: Examples", "Item 2. Properties"]
    for number, title in enumerate(sections):
        page = doc[2 + number]
        y = write_line(page, 90, title, size=14, bold=True)
        paragraph(page, y + 6, 20)
    path = tmp_path / "group_label.pdf"
    doc.save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    titles = [h.title for h in headings]
    assert "Statements of income" in titles and "Rebuilding Freedoms Previously Presumed: Examples" in titles
    assert not any(t.startswith("Financial Statements of the Company: Statements") for t in titles)


def test_a_bold_run_in_lead_under_a_numbered_heading_is_not_its_title(tmp_path: Path) -> None:
    """A body-size bold "4.1.2 Legal Review" right over a paragraph that opens with a bold run-in lead on its
    first line ("Scope of the review. The board ..."): the line was taken for the heading's wrapped second
    line, "4.1.2 Legal Review Scope of the review. The board". A sentence ends and another begins inside it,
    which a title's next line never does; a heading wrapped in two lines stays one title."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = paragraph(page, 90, 20)
    expected = []
    for number, title, lead in (("4.1.1", "Financial Review of the", "Cost of the works and the loans. The"),
                                ("4.1.2", "Legal Review", "Scope of the review and its methods. The"),
                                ("4.1.3", "Audit Findings", "Sampling of the accounts by region. The")):
        y = write_line(page, y + 8, f"{number} {title}", bold=True) + 2
        if title.endswith("the"):
            y = write_line(page, y - 3, "Regional Water Board", bold=True) + 2
            title += " Regional Water Board"
        page.insert_text((72, y), lead, fontsize=10, fontname="hebo")
        page.insert_text((72 + pymupdf.get_text_length(lead + " ", "hebo", 10), y),
                         "board", fontsize=10, fontname="helv")
        y = paragraph(page, y + 15, 4)
        expected.append(f"{number} {title}")
    path = tmp_path / "leads.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == expected


def test_a_bold_paragraph_opening_under_a_short_heading_is_not_its_title(tmp_path: Path) -> None:
    """An unnumbered body-size bold "Primary channel" over a paragraph that opens in bold: a run-in lead going on
    in regular type ("Channel partners. The board ..."), or a whole bold sentence ("Key terms of the loan
    agreement."). The heading's line ends far short of the paragraph's, with room for its first word, so it did
    not wrap: the line below is the paragraph's, not the title's."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = paragraph(page, 90, 12)
    for title, lead, rest in (("Primary channel", "Channel partners and their duties.", "The board and"),
                              ("Secondary channel", "Key terms of the agreement with each partner.", ""),
                              ("Reporting duties", "Monthly returns.", "The board sets out how and when")):
        y = write_line(page, y + 8, title, bold=True) + 1
        page.insert_text((72, y), lead, fontsize=10, fontname="hebo")
        if rest:
            page.insert_text((72 + pymupdf.get_text_length(lead + " ", "hebo", 10), y), rest, fontsize=10,
                             fontname="helv")
        y = paragraph(page, y + 15, 4)
    path = tmp_path / "leads.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles == ["Primary channel", "Secondary channel", "Reporting duties"]


def test_a_bare_chapter_label_ending_on_a_colon_goes_on_with_its_wrapped_title(tmp_path: Path) -> None:
    """"Chapter 2:" at the end of a narrow column's line, its title on the next line in the same style: one
    heading. A stop ended the title, so the title line became an unnumbered heading of its own."""
    doc = pymupdf.open()
    expected = []
    for number, title in ((1, "Scope of the Review"), (2, "Sources of Supply and Demand"), (3, "Planned Works")):
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, 90, 6 * number)  # the chapters start at different heights (no running header)
        y = write_line(page, y + 10, f"Chapter {number}:", size=18, bold=True) - 4
        y = write_line(page, y, title, size=18, bold=True) + 4
        paragraph(page, y, 20 - 6 * number)
        expected.append(f"Chapter {number}: {title}")
    path = tmp_path / "chapters.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == expected


def _bold_then_regular(page: pymupdf.Page, y: float, bold: str, regular: str, x: float = 72) -> None:
    """One line that opens in bold and goes on in regular type."""
    page.insert_text((x, y), bold, fontsize=10, fontname="hebo")
    if regular:
        page.insert_text((x + pymupdf.get_text_length(bold + " ", "hebo", 10), y), regular, fontsize=10,
                         fontname="helv")


NARROW_LINE = "the figures of the previous season were compared with"
NARROW_WIDTH = pymupdf.get_text_length(NARROW_LINE, "helv", 10)


def _narrow(page: pymupdf.Page, y: float, lines: int) -> float:
    """A paragraph set in a narrow column (a page of two columns' left one); returns the y below it."""
    for k in range(lines):
        y = write_line(page, y, NARROW_LINE.capitalize() if k == 0 else NARROW_LINE)
    return y + 4


def test_a_paragraph_opening_on_a_bold_phrase_is_no_heading(tmp_path: Path) -> None:
    """A 10-Q's MD&A opens its paragraphs with the line item they discuss in bold, the sentence going on in
    regular type with no stop between: on the same line ("Mortgage fees and related income decreased due to
    lower"), or, when the bold phrase fills the column, on the next line ("Cash and due from banks and deposits
    with banks" over "increased primarily as a result of ..."). Mostly bold, each line was taken for a sub-heading
    in the face of the real ones. A bold heading over a paragraph that opens with a capital stays a heading, and
    so does a short one over an indented lower-case entry ("Parameters" over "name (str) ..."), and a numbered
    run-in head whose section's text fills its line and goes on under it ("Section 2.01 Terms. The words ...")."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = _narrow(page, 90, 6)
    y = _narrow(page, write_line(page, y + 8, "Noninterest revenue", bold=True), 4)
    _bold_then_regular(page, y + 8, "Mortgage fees and related", "income decreased")
    y = _narrow(page, y + 23, 3)
    full = "Cash and due from banks and deposits with"
    write_line(page, y + 8, full, bold=True)
    assert pymupdf.get_text_length(full + " commercial", "hebo", 10) > NARROW_WIDTH  # the phrase filled the line
    y = _narrow(page, write_line(page, y + 23, "commercial banks increased as deposits grew,"), 3)
    _bold_then_regular(page, y + 8, "Accounts payable and other", "liabilities increased")
    y = _narrow(page, y + 23, 3)
    _bold_then_regular(page, y + 8, "Section 2.01 Terms.", "The words defined in this")
    y = _narrow(page, write_line(page, y + 23, "section have the meanings given,"), 3)
    y = write_line(page, y + 8, "Parameters", bold=True)
    y = write_line(page, y, "name (str) - the file to read", x=90)
    y = _narrow(page, write_line(page, y + 8, "Income tax expense", bold=True), 4)
    path = tmp_path / "bold_openings.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles == ["Noninterest revenue", "Section 2.01 Terms", "Parameters", "Income tax expense"], titles


NOTICE_LINES = ["the operators must test each sensor", "before the airplane returns to", "service and report the results",
                "to the office named in this notice"]  # a column's lines in a notice set in three
NOTICE_TITLES = ["(a) Comments Due Date", "(b) Affected Directives", "(c) Applicability"]


def _third_column(page: pymupdf.Page) -> None:
    """A notice's third column: a few lines, then NOTICE_TITLES in the body's face, each over its paragraph."""
    y = 80.0
    for i in range(6):
        y = write_line(page, y, NOTICE_LINES[i % 4], size=9, x=399)
    for title in NOTICE_TITLES:
        y = write_line(page, y + 10, title, size=9, x=399)
        for i in range(5):
            line = NOTICE_LINES[i % 4]
            y = write_line(page, y, line.capitalize() if i == 0 else line, size=9, x=399)


def test_a_body_size_heading_in_a_third_column_keeps_its_paragraph_out_of_its_title(tmp_path: Path) -> None:
    """A notice set in three columns: numbered headings in the body's face over their paragraphs in the third
    column. A body-size heading goes on only in its own indented block, and the third column, far right of the
    page's margin, read as one: each paragraph was joined to its heading as a wrapped title. The indent is
    measured from the heading's own column's edge."""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    for x in (45, 222):
        for i in range(40):
            write_line(page, 80 + 13.5 * i, NOTICE_LINES[i % 4], size=9, x=x)
    _third_column(page)
    path = tmp_path / "three_columns.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == NOTICE_TITLES


STEP_OPENINGS = [  # a manual's numbered steps: product and menu names make each first line read as a title
    ("1. Start IBM Navigator for i, open the SQL Performance Center and choose Show",
     "statements from its menu. The list of statements opens in a new window."),
    ("2. Select the Statement, then click Visual Explain in the Actions Menu of the Plan",
     "cache. The Explain window shows how the Optimizer Runs the Query."),
    ("3. Compare the Advised Indexes of the Index Advisor with the Indexes that Exist",
     "today. Figure 4 shows the advice for the statement without the rule."),
]
TEXT_LEFT = 150  # a manual's text column, indented from its headings
TEXT_LINE = "the measurements were taken every morning and compared with the figures of the"


def _indented(page: pymupdf.Page, y: float, lines: int) -> float:
    """A paragraph in the indented text column; returns the y below it."""
    for k in range(lines):
        y = write_line(page, y, TEXT_LINE.capitalize() if k == 0 else TEXT_LINE, x=TEXT_LEFT)
    return y + 4


def test_a_numbered_step_whose_sentence_goes_on_under_it_is_no_heading(tmp_path: Path) -> None:
    """A manual's numbered step fills its line with product and menu names ("2. Figure 4-68 shows the Visual
    Explain of the same SQL statement, but with RCAC") and its sentence goes on under it in lower case, hung under
    the step's text ("enabled. It is clear ..."): in the body's face, numbered and mostly capitalised, in a text
    column indented from the headings, the line was taken for a numbered heading. A numbered heading in the body's
    face over its paragraph, which opens with a capital, stays a heading."""
    doc = pymupdf.open()
    right = TEXT_LEFT + pymupdf.get_text_length(TEXT_LINE, "helv", 10)
    for number, chapter in enumerate(["Chapter 1. Securing the Data", "Chapter 2. Reading Query Plans"], start=1):
        page = doc.new_page(width=612, height=792)
        y = _indented(page, write_line(page, 90, chapter, size=14, bold=True) + 6, 5)
        y = _indented(page, write_line(page, y + 8, f"{number}.1 Planning the Review", x=TEXT_LEFT) + 5, 4)
        for first, rest in STEP_OPENINGS:
            end = TEXT_LEFT + pymupdf.get_text_length(first, "helv", 10)
            assert end < right < end + pymupdf.get_text_length(" " + rest.split()[0], "helv", 10)  # filled its line
            y = write_line(page, y + 6, first, x=TEXT_LEFT)
            y = write_line(page, y, rest, x=TEXT_LEFT + pymupdf.get_text_length(first.split()[0] + " ", "helv", 10))
        _indented(page, y + 8, 4)
    path = tmp_path / "steps.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles == ["Chapter 1. Securing the Data", "1.1 Planning the Review",
                      "Chapter 2. Reading Query Plans", "2.1 Planning the Review"], titles


def test_a_numbered_clause_going_on_in_a_middle_column_is_no_heading(tmp_path: Path) -> None:
    """A notice in three columns lists its findings as numbered clauses set like paragraphs, the first line
    indented: "(1) Is not a “significant regulatory" over "action” under Executive Order 12866,". The clause
    filled its column and its sentence goes on in lower case on the next line, from the column's edge; read
    against the page's right margin, not its own column's, the line had room left and stayed a heading."""
    column = NOTICE_LINES
    clauses = [("(1) Is not a “significant regulatory", "action” under Executive Order 12866,"),
               ("(2) Will not affect intrastate aviation", "in Alaska, and"),
               ("(3) Will not have a significant", "economic effect on many small entities.")]
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    for i in range(40):
        write_line(page, 80 + 13.5 * i, column[i % 4], size=9, x=45)
    y = 80.0
    for i in range(12):
        y = write_line(page, y, column[i % 4], size=9, x=222)
    y = write_line(page, y, "For the reasons discussed above, I", size=9, x=231)
    y = write_line(page, y, "certify that the proposed regulation:", size=9, x=222)
    right = 222 + max(pymupdf.get_text_length(line, "helv", 9) for line in column)
    for first, rest in clauses:
        end = 231 + pymupdf.get_text_length(first, "helv", 9)
        assert end + pymupdf.get_text_length(" " + rest.split()[0], "helv", 9) > right  # the clause filled its line
        y = write_line(page, write_line(page, y, first, size=9, x=231), rest, size=9, x=222)
    for i in range(12):
        y = write_line(page, y, column[i % 4], size=9, x=222)
    _third_column(page)
    path = tmp_path / "clauses.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == NOTICE_TITLES


def test_a_title_line_with_a_bracket_left_open_goes_on() -> None:
    """A line that opens a bracket and does not close it stops mid-title, as one ending on a comma or a joining
    word does (a notice's "[Docket No. FAA–2020–0746; Product" over "Identifier 2019–CE–012–AD]" had been two
    headings); a closed bracket, or none, says nothing."""
    assert open_ended("[Docket No. FAA–2020–0746; Product")
    assert open_ended("Installation of the Flight Control Computer (FCC) Software (Operational")
    assert not open_ended("Installation of the Flight Control Computer (FCC) Operational Program Software")
    assert not open_ended("[Docket No. FAA–2020–0746]")


def test_a_title_in_capitals_after_a_label_in_title_case_goes_on_in_capitals(tmp_path: Path) -> None:
    """ "Item 5. MARKET FOR ... STOCKHOLDER" over "MATTERS AND ISSUER ...", bold at the body's size: the label
    is in title case and the title in capitals, and the title's next line in capitals goes on with it (the
    case compared is the title's, not the label's). A heading in capitals after a paragraph stays its own."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Report on Form 10-K", size=26, bold=True)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Item 5. MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER", bold=True)
    y = write_line(page, y, "MATTERS AND ISSUER PURCHASES OF EQUITY SECURITIES", bold=True) + 6
    y = paragraph(page, y, 8)
    y = write_line(page, y + 10, "MARKET INFORMATION", bold=True) + 6
    y = paragraph(page, y, 8)
    y = write_line(page, y + 10, "Item 9. CHANGES IN AND DISAGREEMENTS WITH ACCOUNTANTS ON ACCOUNTING", bold=True)
    y = write_line(page, y, "AND FINANCIAL DISCLOSURE", bold=True) + 6
    paragraph(page, y, 8)
    found = layout_titles(doc, tmp_path, "label_case.pdf")
    assert found == [
        "Item 5. MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER MATTERS AND ISSUER PURCHASES OF "
        "EQUITY SECURITIES",
        "MARKET INFORMATION",
        "Item 9. CHANGES IN AND DISAGREEMENTS WITH ACCOUNTANTS ON ACCOUNTING AND FINANCIAL DISCLOSURE",
    ]
