"""Issue 11 class 3, over-segmentation by tables, on PDFs built here: the column heads, total rows, wrapped row
labels, year header rows and "(continued)" titles of a filing's tables are no sections, while the headings
printed over those tables (at the margin, centred, or at the margin of a text column of their own) stay."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.core.built_pages import layout_titles, paragraph, write_line

WIDTH, HEIGHT = 612, 792


def _centred(page: pymupdf.Page, y: float, text: str, size: float = 10, bold: bool = True) -> float:
    """A line centred on the page; returns the y of the next line."""
    font = "hebo" if bold else "helv"
    return write_line(page, y, text, size=size, bold=bold, x=(WIDTH - pymupdf.get_text_length(text, font, size)) / 2)


def _right(page: pymupdf.Page, y: float, text: str, right: float, size: float = 10, bold: bool = False) -> None:
    """A cell ending at x = `right` (figures are right-aligned in their column)."""
    font = "hebo" if bold else "helv"
    write_line(page, y, text, size=size, bold=bold, x=right - pymupdf.get_text_length(text, font, size))


def _opening(doc: pymupdf.Document) -> None:
    """A first page of prose, so the tables are not read as the title block of the first page."""
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "Overview of the Year", size=14, bold=True) + 6
    paragraph(page, y, 24)


def test_column_heads_off_the_margin_are_not_sections(tmp_path: Path) -> None:
    """A bold head over figure columns on the right ("Percentage Change", "Fiscal Year Ended" over "2023 2022",
    "Total Number / of Shares / Purchased as / ..." stacked over its column) starts far right of the margin and is
    not centred: a column head. The heading at the margin over the table,
    the centred statement title over another, and a heading at the margin of the right text column of a
    two-column page over a small table there all stay."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "Results of Segment Operations", bold=True) + 4
    y = paragraph(page, y, 4) + 8
    write_line(page, y, "Percentage Change", bold=True, x=440)
    y += 15
    for label, change in (("North America Retail", "(4) pts"), ("International", "16 pts"), ("Pet", "12 pts")):
        write_line(page, y, label, x=72)
        _right(page, y, change, 540)
        y += 14
    y = paragraph(page, y + 16, 4) + 8
    write_line(page, y, "Fiscal Year Ended", bold=True, x=430)
    y += 14
    _right(page, y, "2023", 470, bold=True)
    _right(page, y, "2022", 540, bold=True)
    y += 14
    for label in ("Net sales", "Cost of sales", "Operating profit"):
        write_line(page, y, label, x=72)
        _right(page, y, "4,426.3", 470)
        _right(page, y, "4,023.8", 540)
        y += 14
    y = paragraph(page, y + 16, 4)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = _centred(page, 80, "CONSOLIDATED BALANCE SHEETS", size=14) + 8
    _right(page, y, "May 28, 2023", 470, bold=True)
    _right(page, y, "May 29, 2022", 540, bold=True)
    y += 14
    for label in ("Cash and cash equivalents", "Receivables", "Inventories", "Total current assets"):
        write_line(page, y, label, x=72)
        _right(page, y, "585.5", 470)
        _right(page, y, "569.4", 540)
        y += 14
    paragraph(page, y + 20, 6)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y_left = write_line(page, 80, "Selected Metrics", bold=True, x=50)
    y_right = write_line(page, 80, "Investment Banking Fees", bold=True, x=320)
    for _ in range(8):
        y_left = write_line(page, y_left, "the fees were higher than in the first", x=50)
        y_right = write_line(page, y_right, "the advisory fees rose with the deals", x=320)
    y_right += 6
    write_line(page, y_right, "(in millions)", size=8, x=320)
    _right(page, y_right, "2022", 480, size=8, bold=True)
    _right(page, y_right, "2021", 540, size=8, bold=True)
    y_right += 12
    for label in ("Advisory", "Equity underwriting", "Debt underwriting"):
        write_line(page, y_right, label, size=8, x=320)
        _right(page, y_right, "1,204", 480, size=8)
        _right(page, y_right, "1,118", 540, size=8)
        y_right += 12
    for _ in range(6):
        y_left = write_line(page, y_left, "the fees were higher than in the first", x=50)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 80, "Purchases of Equity Securities", bold=True) + 4
    y = paragraph(page, y, 3) + 10
    # heads stacked on up to five lines, bottom-aligned, so the tallest one's first line stands alone and its
    # third starts where it starts with nothing beside it yet: the stub's "Periods" is on the last line
    stacks = [(52, ["Periods"]), (350, ["Average Price", "Paid Per Share"]),
              (412, ["Total Number", "of Shares", "Purchased as", "Part of Plans", "or Programs"]),
              (497, ["Approximate", "Dollar Value", "That May Yet", "Be Purchased"])]
    for x, lines in stacks:
        for i, text in enumerate(lines):
            write_line(page, y + 10 * (5 - len(lines) + i), text, size=9, bold=True, x=x + (12 if i == 1 else 0))
    y += 60
    for period in ("June 26, 2022 to July 30, 2022", "July 31, 2022 to August 27, 2022"):
        write_line(page, y, period, size=9, x=52)
        _right(page, y, "$ 148.10", 385, size=9)
        _right(page, y, "6,191", 460, size=9)
        _right(page, y, "$ 88,000", 550, size=9)
        y += 13
    paragraph(page, y + 20, 4)
    found = layout_titles(doc, tmp_path, "column_heads.pdf")
    assert found == ["Results of Segment Operations", "CONSOLIDATED BALANCE SHEETS",
                     "Selected Metrics", "Investment Banking Fees", "Purchases of Equity Securities"]


def test_total_rows_and_wrapped_row_labels_are_not_sections(tmp_path: Path) -> None:
    """A bold total row carrying its figure ("TOTAL 369") under rows of figures, and the first line of a bold
    label wrapped onto the line with the figures ("EARNINGS BEFORE INTEREST" over "AND TAXES $ 5,454"), are
    table rows even with prose after them; the headings over and after the tables stay."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "UNITED STATES MARKET", size=14, bold=True) + 6
    y = paragraph(page, y, 4) + 6
    for label, count in (("Factory stores", "213"), ("In-line stores (including employee-only stores)", "74"),
                         ("Converse stores (including factory stores)", "82")):
        write_line(page, y, label, x=72)
        _right(page, y, count, 540)
        y += 13
    write_line(page, y, "TOTAL", bold=True, x=72)
    _right(page, y, "369", 540, bold=True)
    y = paragraph(page, y + 20, 4) + 10
    y = write_line(page, y, "OPERATING SEGMENTS", size=14, bold=True) + 6
    y = paragraph(page, y, 3) + 6
    for label in ("Sales to Wholesale Customers", "Sales through Direct Operations"):
        write_line(page, y, label, x=80)
        _right(page, y, "10,335", 470)
        _right(page, y, "8,732", 540)
        y += 13
    write_line(page, y, "EARNINGS BEFORE INTEREST", bold=True, x=72)
    y += 11
    write_line(page, y, "AND TAXES", bold=True, x=72)
    _right(page, y, "$ 5,454", 470, bold=True)
    _right(page, y, "$ 5,114", 540, bold=True)
    y = paragraph(page, y + 20, 4) + 10
    write_line(page, y, "GROSS MARGIN", size=14, bold=True)
    paragraph(page, y + 24, 4)
    found = layout_titles(doc, tmp_path, "totals.pdf")
    # the opening page's heading is in the sections' style with no title above it: the first section
    assert found == ["Overview of the Year", "UNITED STATES MARKET", "OPERATING SEGMENTS", "GROSS MARGIN"]


def test_year_header_rows_and_continued_titles_are_not_sections(tmp_path: Path) -> None:
    """A bold header row ending in its year columns ("Inflow (Outflow), in Millions 2023 2022", one text run)
    and a table's title printed again as "... (continued)" on the next page open no section; the first
    printing of the title, a heading with one year in it ("Fiscal 2023 Compared to Fiscal 2022") and
    "NOTE 4 - DEBT" over a table stay."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "Selected Cash Flows from Joint Ventures", size=12, bold=True) + 4
    y = paragraph(page, y, 4) + 8
    y = write_line(page, y, "Inflow (Outflow), in Millions                                              2023        2022",
                   bold=True)
    for label in ("Investments in affiliates, net", "Dividends received"):
        write_line(page, y, label, x=72)
        _right(page, y, "(32.2)", 470)
        _right(page, y, "15.4", 540)
        y += 14
    y = paragraph(page, y + 16, 6) + 10
    y = write_line(page, y, "Fiscal 2023 Compared to Fiscal 2022", size=12, bold=True) + 4
    paragraph(page, y, 8)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "Fiscal 2023 Compared to Fiscal 2022 (continued)", size=12, bold=True) + 4
    y = paragraph(page, y, 8) + 10
    y = write_line(page, y, "NOTE 4 - DEBT", size=12, bold=True) + 4
    _right(page, y, "2023", 470, bold=True)
    _right(page, y, "2022", 540, bold=True)
    y += 14
    for label in ("Notes payable", "Long-term debt"):
        write_line(page, y, label, x=72)
        _right(page, y, "1,204", 470)
        _right(page, y, "1,118", 540)
        y += 14
    paragraph(page, y + 16, 6)
    found = layout_titles(doc, tmp_path, "years.pdf")
    assert found == ["Selected Cash Flows from Joint Ventures",
                     "Fiscal 2023 Compared to Fiscal 2022", "NOTE 4 - DEBT"]


def test_heads_of_a_table_read_as_two_columns_are_not_sections(tmp_path: Path) -> None:
    """A signature table whose "Name" head sits left of the middle and "Title" and "Date" right of it (the
    page reads as two columns), and a bold "Balance at the End of the Year" row whose amounts carry their currency signs
    ("47.6 $") in "the other column", are table rows; "Signatures" and the roll-forward's heading stay."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 80, "Restructuring Reserves", size=12, bold=True) + 6
    rows = [("Reserve balance as of May 31, 2021", "35.4", "36.8"), ("Charges, including currency translation",
            "41.6", "41.7"), ("Utilized in fiscal 2022", "(29.4)", "(30.8)"), ("Reserve adjustment", "(1.1)", "(1.1)")]
    for label, first, second in rows * 2:
        write_line(page, y, label, x=40)
        _right(page, y, first, 470)
        _right(page, y, second, 550)
        y += 14
    write_line(page, y, "Balance at the End of the Year", bold=True, x=40)
    write_line(page, y, "$", x=400)  # the amounts in the body face: only the figure cells give the row away
    write_line(page, y, "47.6 $", x=440)
    _right(page, y, "47.7", 550)
    y = write_line(page, y + 24, "The charges are shown net of recoveries.", x=40)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 80, "Signatures", size=14, bold=True) + 6
    y = paragraph(page, y, 2) + 10
    for x, head in ((140, "Name"), (360, "Title"), (500, "Date")):
        write_line(page, y, head, size=9, bold=True, x=x)
    y += 20
    for name, title in (("John Walker", "Chief Executive Officer and Director"), ("Mary Hunt", "Chief Financial "
                        "Officer"), ("Peter Bond", "Director"), ("Ann Miller", "Director"), ("Carl Stone",
                        "Director"), ("Ruth Lane", "Director"), ("Mark Reed", "Director")):
        write_line(page, y, f"/s/ {name}", x=72)
        write_line(page, y, title, x=330)
        y += 12
        write_line(page, y, name, x=72)
        write_line(page, y, "July 20, 2023", x=480)
        y += 20
    found = layout_titles(doc, tmp_path, "signatures.pdf")
    assert found == ["Restructuring Reserves", "Signatures"]


def test_the_line_over_one_cell_of_a_header_row_is_a_column_head(tmp_path: Path) -> None:
    """"Average During" centred over the "Fiscal 2023" cell of the header row right under it (the stub's "In
    Millions" first in reading order) is the upper line of a column head, although it sits near the page's
    middle; "Value at Risk" over the table and a short heading at the margin right above a header row stay."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "Value at Risk", size=12, bold=True) + 4
    y = paragraph(page, y, 4) + 10
    _centred(page, y, "Average During")
    y += 11
    for x, cell in ((72, "In Millions"), (180, "May 28, 2023"), (276, "Fiscal 2023"), (380, "May 29, 2022")):
        write_line(page, y, cell, bold=True, x=x)
    y += 15
    for label in ("Interest rate instruments", "Foreign currency instruments", "Commodity instruments"):
        write_line(page, y, label, x=72)
        for x in (200, 292, 390):
            write_line(page, y, "31.5", x=x)
        y += 14
    y = paragraph(page, y + 16, 4) + 10
    y = write_line(page, y, "Revenue", bold=True)
    for x, cell in ((72, "Segment"), (330, "2023"), (460, "2022")):
        write_line(page, y + 3, cell, bold=True, x=x)
    y += 18
    for label in ("Consumer Products", "Industrial Services"):
        write_line(page, y, label, x=72)
        _right(page, y, "1,204.5", 360)
        _right(page, y, "1,118.2", 490)
        y += 14
    paragraph(page, y + 20, 4)
    found = layout_titles(doc, tmp_path, "average.pdf")
    assert found == ["Value at Risk", "Revenue"]


def test_heads_of_a_page_column_and_of_a_list_column_are_not_sections(tmp_path: Path) -> None:
    """"Page" at the right edge over the page numbers of an index, and "Jurisdiction of Incorporation" over
    the second column of a subsidiaries list (short texts beside the names, no figures), are column heads; the
    index's and the list's headings at the margin stay."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 80, "Index to Consolidated Financial Statements", bold=True) + 8
    _right(page, y, "Page", 540, size=9, bold=True)
    y += 14
    for number, statement in enumerate(("Consolidated Statements of Operations for the years ended in 2022",
                                        "Consolidated Balance Sheets as of the end of the last two years",
                                        "Consolidated Statements of Cash Flows for the last three years"), 29):
        write_line(page, y, statement, x=72)
        _right(page, y, str(number), 540)
        y += 14
    y = paragraph(page, y + 20, 4) + 10
    y = write_line(page, y, "Subsidiaries of the Registrant", bold=True) + 8
    write_line(page, y, "Jurisdiction", size=9, bold=True, x=470)
    y += 10
    write_line(page, y, "of Incorporation", size=9, bold=True, x=462)
    y += 14
    for name, place in (("Apple Operations International Limited", "Ireland"), ("Apple Asia Limited", "Hong Kong"),
                        ("Apple Canada Inc.", "Canada"), ("Braeburn Capital, Inc.", "Nevada, U.S.")):
        write_line(page, y, name, x=72)
        write_line(page, y, place, x=475)
        y += 14
    paragraph(page, y + 20, 4)
    found = layout_titles(doc, tmp_path, "columns.pdf")
    assert found == ["Index to Consolidated Financial Statements", "Subsidiaries of the Registrant"]


def test_a_heading_atop_a_narrow_text_column_is_kept(tmp_path: Path) -> None:
    """A three-column notice: a bold heading at the top of the third column starts far right of the page's
    margin and the lines under it share their baselines with the other columns' text (one baseline grid), yet
    lines of prose start where it starts, so it is the column's heading, not a table's column head."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    column = ["the operators must test each sensor", "before the airplane returns to", "service and report the results",
              "to the office named in this notice"]
    for x in (45, 222):
        y = 80.0
        for i in range(40):
            if x == 45 or i != 13:  # the middle column's paragraph break beside the heading
                write_line(page, y, column[i % 4], size=9, x=x)
            y += 13.5
    y = 80.0
    for i in range(12):
        y = write_line(page, y, column[i % 4], size=9, x=399)
    y = write_line(page, y + 13.5, "Proposed Maintenance Actions", size=9, bold=True, x=399)  # on the baseline grid
    for i in range(24):
        y = write_line(page, y, column[i % 4], size=9, x=399)
    found = layout_titles(doc, tmp_path, "three_columns.pdf")
    assert found == ["Proposed Maintenance Actions"]


def test_a_header_row_in_the_tables_smaller_type_is_not_a_section(tmp_path: Path) -> None:
    """A table set a point under the body, its bold column heads close enough to read as one line ("Region
    Budget Spent Share"), right over its rows of cells: no section. A bold heading at the body's size right over
    the same table stays one."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = paragraph(page, 80, 6)
    for title, heads in (("Spending by Region", "Region  Budget  Spent  Share"),
                         (None, "District  Budget  Spent  Share")):
        if title:
            y = write_line(page, y + 8, title, bold=True) + 2
        write_line(page, y + 6, heads, size=9, bold=True)
        y += 6 + 13
        for region, budget, spent, share in (("North", "1,204", "1,100", "31%"), ("South", "2,310", "2,290", "52%")):
            for x, cell in ((72, region), (114, budget), (152, spent), (186, share)):
                write_line(page, y, cell, size=9, x=x)
            y += 13
        y = paragraph(page, y + 8, 6)
    titles = layout_titles(doc, tmp_path, "header-row")
    assert "Spending by Region" in titles
    assert not any(t.startswith(("Region", "District")) for t in titles)


def test_the_first_rows_of_a_label_and_figure_table_are_not_sections(tmp_path: Path) -> None:
    """A word processor's two-column table with bold row labels ("Framework Energy  918") over more rows of its
    label column: its head row ("Service Area | Status") and its first row (the figure read with the label as
    a contents entry's page number) are no sections, nor are the rows of the same table going on at the top of
    the next page, joined as one wrapped title, nor its last rows, nor the rows of a table of two rows. A heading alone on its line over such a
    table stays, and so does one set larger right after such a table, beside the other text column's prose, or
    one in the table's size after it in the right column, a short line of the left column on its line."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "Regional Monitoring", size=14, bold=True) + 6
    y = paragraph(page, y, 4) + 8
    y = write_line(page, y, "Table 3: Emergency Response Times") + 6
    write_line(page, y, "Service Area", bold=True)
    y = write_line(page, y, "Status", bold=True, x=306) + 6
    for label, figure in (("Framework Energy", "918"), ("Public Works", "501"), ("Federal Analysis", "669")):
        write_line(page, y, label, bold=True)
        y = write_line(page, y, figure, x=306) + 10  # a ruled table's padded rows
    y = paragraph(page, y + 6, 4) + 12
    y = write_line(page, y, "Budget Summary", size=14, bold=True) + 6
    for label, figure in (("Staff costs", "120"), ("Equipment", "85"), ("Training", "40")):
        write_line(page, y, label)
        y = write_line(page, y, figure, x=306) + 6
    y = paragraph(page, y + 6, 6)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = 80
    for label, figure in (("Water Quality", "361"), ("Cost Access", "530"), ("Stakeholder Agency", "823")):
        write_line(page, y, label, bold=True)
        y = write_line(page, y, figure, x=228) + 6
    y = paragraph(page, y + 6, 4) + 8
    y = write_line(page, y, "Table 4: Staffing") + 6  # a table of two rows
    write_line(page, y, "Crew Type", bold=True)
    y = write_line(page, y, "Count", bold=True, x=306) + 10
    for label, figure in (("Field Crews", "12"), ("Office Staff", "7")):
        write_line(page, y, label, bold=True)
        y = write_line(page, y, figure, x=306) + 10
    y = paragraph(page, y + 6, 4) + 12
    y = write_line(page, y, "Outlook", size=14, bold=True) + 6
    paragraph(page, y, 8)
    page = doc.new_page(width=WIDTH, height=HEIGHT)  # two text columns, a table ending in the left one
    y = 80
    for label, figure in (("Report Funding", "416"), ("Policy Review", "799"), ("Annual Survey", "230")):
        write_line(page, y, label)
        y = write_line(page, y, figure, x=220) + 10
    y = write_line(page, y + 8, "Public Resilience", size=14, bold=True) + 6
    for line in range(12):
        y = write_line(page, y, "the county and its partners review the plan" if line % 4 else "Quality of service")
    for line, y in enumerate(range(80, 80 + 26 * 14, 14)):
        write_line(page, y, "the county and its partners review the plan every year", x=320)
    page = doc.new_page(width=WIDTH, height=HEIGHT)  # the table in the right column, a short line left of it
    for line, y in enumerate(range(80, 80 + 26 * 14, 14)):
        write_line(page, y, "Plan health security funding" if line == 4 else "the county and its partners review the plan")
    y = 80
    for label, figure in (("Water Analysis", "481"), ("Energy Audit", "217")):
        write_line(page, y, label, bold=True, x=320)
        y = write_line(page, y, figure, x=520) + 10
    write_line(page, 136, "Performance Measures", bold=True, x=320)  # level with the left column's short line
    for y in range(150, 80 + 26 * 14, 14):
        write_line(page, y, "the county and its partners review the plan", x=320)
    assert layout_titles(doc, tmp_path, "label_rows.pdf") == ["Overview of the Year", "Regional Monitoring",
                                                         "Budget Summary", "Outlook", "Public Resilience",
                                                         "Performance Measures"]


def test_the_last_line_of_a_row_label_wrapped_under_top_aligned_cells_is_no_section(tmp_path: Path) -> None:
    """A word processor sets a table's cells at the row's top: a bold row label wrapped onto two lines
    ("Safety" beside its figures, "Management" alone under it) leaves its last line alone on its baseline.
    Right under the label's first line, set alike, it is the label's, not a section; the heading after the
    table stays."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "Program Costs", size=14, bold=True) + 6
    y = paragraph(page, y, 4) + 8
    for x, head in ((188, "FY2023"), (306, "FY2024"), (424, "Target")):
        write_line(page, y, head, bold=True, x=x)
    y += 20
    for label, figures in ((("Water", "Quality"), ("257", "840", "574")),
                           (("Safety", "Management"), ("36", "263", "61")), (("Energy",), ("12", "19", "25"))):
        for x, figure in zip((188, 306, 424), figures):
            write_line(page, y, figure, x=x)
        for line in label:
            y = write_line(page, y, line, bold=True) - 2
        y += 8
    y = write_line(page, y + 12, "Funding Outlook", size=14, bold=True) + 6
    paragraph(page, y, 8)
    assert layout_titles(doc, tmp_path, "wrapped_labels.pdf") == ["Overview of the Year", "Program Costs",
                                                             "Funding Outlook"]


def test_a_heading_right_after_a_bold_captioned_table_is_no_caption_line(tmp_path: Path) -> None:
    """A bold caption over a table whose bold rows follow close under it, then at once a bold italic heading:
    the caption's rows are read with it, but a line after the table's rows is no caption's line."""
    doc = pymupdf.open()
    _opening(doc)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "Program Costs", size=14, bold=True) + 6
    y = paragraph(page, y, 4) + 8
    y = write_line(page, y, "Table 6. Community Governance", bold=True) - 1
    for x, head in ((72, "Operations"), (223, "Target"), (389, "Cost ($)")):
        write_line(page, y, head, bold=True, x=x)
    y -= 1
    for label, target, cost in (("Operation Project", "422", "770"), ("Requirement And", "100", "290"),
                                ("Quality Staff", "490", "749")):
        y += 14
        write_line(page, y, label, bold=True)
        write_line(page, y, target, x=223)
        write_line(page, y, cost, x=389)
    y = write_line(page, y + 15, "Training", bold=True, italic=True) + 4
    paragraph(page, y, 8)
    titles = layout_titles(doc, tmp_path, "captioned_table.pdf")
    assert titles[-2:] == ["Program Costs", "Training"]
    assert not any(word in title for title in titles for word in ("Operation", "Staff", "Table"))


def test_a_numbered_heading_close_under_prose_beside_another_columns_table_is_kept(tmp_path: Path) -> None:
    """Two columns, tight spacing: a numbered sub-heading in the body's face sits close under its paragraph's
    last line, and a table of figures in the right column has a row level with that line. The line over the
    heading is prose ending a sentence and the figures are another column's: no row label wrapped over it."""
    doc = pymupdf.open()
    _opening(doc)
    prose = ["The readings were taken every morning", "and compared with the previous season"]
    expected = []
    for chapter in range(1, 4):
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        name = f"{chapter} {['Regional Depots', 'Fleet Costs', 'Staffing Plans'][chapter - 1]}"
        y = write_line(page, 80, name, size=14, bold=True) + 6
        expected.append(name)
        for section in range(1, 3):
            for line in range(5):
                y = write_line(page, y, prose[line % 2] + ("." if line == 4 else "")) - 3
            title = f"{chapter}.{section} {['General Trade', 'Annual Review'][section - 1]}"
            y = write_line(page, y + 8, title) - 3  # set apart, by less than half a line
            expected.append(title)
        y = paragraph(page, y, 4)
        for row, y_row in enumerate(range(98, 98 + 6 * 12, 12)):  # its last row level with the prose's last line
            for x, cell in ((330, f"Depot {row + 1}"), (430, f"{1204 + 37 * row:,}"), (500, f"{310 + 11 * row:,}")):
                write_line(page, y_row, cell, x=x)
    assert layout_titles(doc, tmp_path, "close_under_prose.pdf") == expected  # the opening is unnumbered
