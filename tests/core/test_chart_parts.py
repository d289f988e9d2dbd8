"""Issue 11, remaining class 1, on PDFs built here: a chart's title (body size, alone and centred, values and
an axis row of years or dates under it) and its legend row ("■ IOTG ■ Mobileye") are no sections, while a
table's title over its year header row (its figures on labelled rows) and the headings over the charts' text
stay."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line

WIDTH, HEIGHT = 612, 792


def _centred(page: pymupdf.Page, y: float, text: str, size: float = 10, bold: bool = False) -> float:
    """A line centred on the page; returns the y of the next line."""
    font = "hebo" if bold else "helv"
    return write_line(page, y, text, size=size, bold=bold, x=(WIDTH - pymupdf.get_text_length(text, font, size)) / 2)


def _legend(page: pymupdf.Page, y: float, text: str) -> None:
    """A legend row keyed by filled squares, centred, set in a font that has them (the base-14 fonts do not)."""
    font = pymupdf.Font("cjk")
    page.insert_font(fontname="legend", fontbuffer=font.buffer)
    page.insert_text(((WIDTH - font.text_length(text, 9)) / 2, y), text, fontsize=9, fontname="legend")


def _bar_chart(page: pymupdf.Page, y: float, title: str) -> float:
    """A centred body-size title, bar values at their bars' heights, a year axis and a legend; returns the y
    under it."""
    y = _centred(page, y, title) + 20
    for i, (value, drop) in enumerate((("$21.8", 30), ("$22.1", 28), ("$29.4", 12), ("$33.1", 4), ("$35.4", 0))):
        write_line(page, y + drop, value, size=8, bold=True, x=190 + 52 * i)
    y += 70
    for i, year in enumerate(("2016", "2017", "2018", "2019", "2020")):
        write_line(page, y, year, size=8, x=190 + 52 * i)
    _legend(page, y + 30, "■ Capital Investment ■ Free Cash Flow")
    return y + 60


def _line_chart(page: pymupdf.Page, y: float, sizes: tuple[float, float] = (9, 9)) -> float:
    """A bold title with its subtitle (at `sizes`), a value axis down the left, a date axis under it; returns
    the y under it."""
    y = _centred(page, y, "COMPARISON OF 5-YEAR CUMULATIVE TOTAL RETURN", size=sizes[0], bold=True)
    y = _centred(page, y, "Among the Company and the Market Index", size=sizes[1], bold=True) + 6
    for tick in ("$500", "$400", "$300", "$200", "$100", "$0"):
        write_line(page, y, tick, x=66)
        y += 24
    for i, date in enumerate(("9/29/17", "9/29/18", "9/28/19", "9/26/20", "9/25/21")):
        write_line(page, y, date, x=90 + 90 * i)
    return y + 30


def _table(page: pymupdf.Page, y: float) -> float:
    """A bold title at the margin over a year header row and labelled figure rows; returns the y under it."""
    y = write_line(page, y, "Capital Expenditures by Business Segment", bold=True) + 4
    for i, year in enumerate(("2022", "2021", "2020")):
        write_line(page, y, year, bold=True, x=440 + 50 * i)
    y += 16
    for label in ("Aeronautics", "Missiles and Fire Control", "Space"):
        write_line(page, y, label)
        for i, figure in enumerate(("461", "477", "534")):
            write_line(page, y, figure, x=445 + 50 * i)
        y += 14
    return y + 10


def test_chart_titles_and_legends_are_not_sections(tmp_path: Path) -> None:
    """The bar chart's centred title and its legend row, the line chart's bold title and subtitle go; the
    section headings and the table's title stay."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "Overview of the Year", size=14, bold=True) + 6
    paragraph(page, y, 24)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 72, "Financial Capital", size=14, bold=True) + 4
    y = paragraph(page, y, 3) + 12
    y = _bar_chart(page, y, "Cash from Operating Activities $B")
    y = write_line(page, y, "Capital Allocation Priorities", size=14, bold=True) + 4
    y = paragraph(page, y, 4) + 12
    y = _table(page, y)
    paragraph(page, y, 4)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 72, "Company Stock Performance", size=14, bold=True) + 4
    y = paragraph(page, y, 3) + 12
    y = _line_chart(page, y)
    paragraph(page, y, 4)
    path = tmp_path / "charts.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    # page 1 opens on a heading in the sections' style (no title above it): the first section
    assert titles == ["Overview of the Year", "Financial Capital", "Capital Allocation Priorities",
                      "Capital Expenditures by Business Segment", "Company Stock Performance"]


def test_a_chart_title_and_subtitle_at_noisy_sizes_are_one_style(tmp_path: Path) -> None:
    """The line chart's title and subtitle come out at 9.4 and 9.6 pt: rounded to whole points (9 and 10) the
    subtitle read as a line set otherwise, and the title headed more than a chart; one size cluster, it goes."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 90, "Overview of the Year", size=14, bold=True) + 6
    paragraph(page, y, 24)
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = write_line(page, 72, "Company Stock Performance", size=14, bold=True) + 4
    y = paragraph(page, y, 3) + 12
    y = _line_chart(page, y, (9.4, 9.6))
    y = write_line(page, paragraph(page, y, 4) + 8, "Dividends and Share Repurchases", size=14, bold=True) + 4
    paragraph(page, y, 4)
    path = tmp_path / "noisy_chart.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles == ["Overview of the Year", "Company Stock Performance", "Dividends and Share Repurchases"]
