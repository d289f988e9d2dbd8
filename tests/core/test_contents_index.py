"""Issue 11 class 5 on PDFs built here: a filing's contents list headed "INDEX" (Form 10-K and 10-Q indexes)
is read as its contents, while a book's alphabetical index headed the same way, or an "Index" over anything
but a list of rising page numbers, is not."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.analysis import analyse
from pageindex_desktop.core.outline.contents import find_contents
from pageindex_desktop.core.outline.toc_page import find_toc_headings
from tests.core.built_pages import paragraph, write_line

WIDTH, HEIGHT = 612, 792
# (title as listed, printed page): printed page p is physical page p + 2 (cover, index)
LISTED = [("PART I", 1), ("Item 1. Business", 1), ("Item 1A. Risk Factors", 2), ("Item 2. Properties", 3),
          ("PART II", 4), ("Item 7. Management's Discussion and Analysis", 4),
          ("Item 8. Financial Statements and Supplementary Data", 5), ("PART III", 6),
          ("Item 10. Directors and Corporate Governance", 6), ("Item 15. Exhibits", 7)]
TERMS = [("Accruals", 7), ("Assets, current", 3), ("Balance sheet", 5), ("Cash flows", 2), ("Debt", 6),
         ("Equity", 4), ("Goodwill", 3), ("Leases", 6), ("Revenue", 2), ("Taxes", 5)]


def _right(page: pymupdf.Page, y: float, text: str, size: float = 10, bold: bool = False) -> None:
    """A page number right-aligned at x = 540."""
    font = "hebo" if bold else "helv"
    page.insert_text((540 - pymupdf.get_text_length(text, font, size), y), text, fontsize=size, fontname=font)


def _document(rows_page: int, heading: str, rows: list[tuple[str, int]]) -> pymupdf.Document:
    """A cover, `rows` under `heading` on physical page `rows_page` (a table: label, title, page number; 2 or
    the last page, 10), and the body: the LISTED sections on their pages, each set bold over prose, with
    folios."""
    doc = pymupdf.open()
    for _ in range(10):
        doc.new_page(width=WIDTH, height=HEIGHT)
    write_line(doc[0], 200, "EXAMPLE CORPORATION", size=22, bold=True)
    write_line(doc[0], 240, "FORM 10-K", size=16, bold=True)
    page = doc[rows_page - 1]
    y = write_line(page, 72, heading, size=11, bold=True, x=280) + 8
    _right(page, y, "Page", bold=True)
    y += 20
    for title, printed in rows:
        if title.startswith("PART"):
            write_line(page, y, title, size=10, bold=True, x=280)
        else:
            label, _, rest = title.partition(". ") if title.startswith("Item") else ("", "", title)
            if label:
                write_line(page, y, label + ".", size=10, x=72)
            write_line(page, y, rest, size=10, x=130)
            _right(page, y, str(printed))
        y += 20
    by_page: dict[int, list[str]] = {}
    for title, printed in LISTED:
        by_page.setdefault(printed, []).append(title)
    for printed in range(1, 8):
        body = doc[printed + 1]
        y = 90.0
        for title in by_page.get(printed, []):
            y = write_line(body, y, title, size=10 if not title.startswith("PART") else 11, bold=True) + 4
            y = paragraph(body, y, 8)
        paragraph(body, y, int((700 - y) / 15))
        write_line(body, 760, str(printed), size=9, x=300)
    return doc


def test_a_filing_index_is_read_as_its_contents(tmp_path: Path) -> None:
    """ "INDEX" over the filing's parts and items, page numbers in a right column under "Page": the contents,
    every entry on the physical page of its printed number, the items under their parts."""
    path = tmp_path / "index.pdf"
    _document(2, "INDEX", LISTED).save(path)
    headings = find_toc_headings(extract(path))
    assert headings is not None
    assert headings[0].title == "INDEX"
    assert [(h.title, h.page) for h in headings[1:]] == [(t, p + 2) for t, p in LISTED]
    assert [h.level for h in headings[1:5]] == [1, 2, 2, 2]


def test_an_alphabetical_index_is_no_contents(tmp_path: Path) -> None:
    """ "Index" over terms whose page numbers go up and down (a book's index, here on an early page) is no
    contents list, nor is one at the back of the document even where its few numbers happen to rise."""
    rising = [(term, number) for (term, _page), number in zip(TERMS, range(1, 8))]
    for where, rows in ((2, TERMS), (10, TERMS), (10, rising)):
        path = tmp_path / f"terms{where}.pdf"
        _document(where, "Index", rows).save(path)
        doc = extract(path)
        assert find_contents(doc, analyse(doc)) is None
