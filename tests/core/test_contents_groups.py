"""Issue 11 classes 2 and 5 on a 10-Q's contents page built here: an item title closed by its full stop over
its indented sections is no title wrapped onto them, and a part listed without a page number starts where the
earliest of its entries starts (a 10-Q lists Item 1's statements, printed at the back, before Item 2's
discussion)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.numbering import clean_title
from pageindex_desktop.core.outline.toc_page import find_toc_entries, find_toc_headings
from tests.core.built_pages import paragraph, write_line

WIDTH, HEIGHT = 612, 792
FIRST_BODY_PAGE = 3  # printed page 1 is physical page 3 (cover, contents)
# a title wrapped after an abbreviation's full stop, its end indented under it in lower case, with the page
WRAPPED = ("Supplementary statements of Example Holdings Corp.", "and Subsidiaries")
ITEM_2 = "Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations."
# (title, printed page or None, indentation, bold), in the order the contents lists them
LISTED: list[tuple[str, int | None, float, bool]] = [
    ("Part I - Financial information", None, 72, True),
    ("Item 1. Financial Statements.", None, 72, False),
    ("Consolidated statements of income", 6, 100, False),
    ("Consolidated balance sheets", 7, 100, False),
    ("Notes to consolidated financial statements", 7, 100, False),
    (" ".join(WRAPPED), 7, 100, False),
    (ITEM_2, None, 72, False),
    ("Consolidated Financial Highlights", 1, 100, False),
    ("Introduction", 2, 100, False),
    ("Executive Overview", 3, 100, False),
    ("Business Developments", 3, 100, False),  # printed in other words: its place on the page is unknown
    ("Item 4. Controls and Procedures.", 8, 72, False),
    ("Part II - Other information", None, 72, True),
    ("Item 1. Legal Proceedings.", 8, 72, False),
    ("Item 6. Exhibits.", 9, 72, False),
    ("PART III - ITEM 7. Certifications", 10, 72, False),  # a part and its item on one row
]
# where the body prints each section (printed page -> titles)
BODY = {1: [ITEM_2, "Consolidated Financial Highlights"],
        2: ["Introduction", "1. Scope of this report", "2. Basis of presentation"],
        3: ["Executive Overview", "Recent developments in the business"],
        4: [], 5: [], 6: ["Item 1. Financial Statements.", "Consolidated statements of income"],
        7: ["Consolidated balance sheets", "Notes to consolidated financial statements", " ".join(WRAPPED)],
        8: [], 9: ["Item 6. Exhibits."], 10: ["PART III", "ITEM 7. Certifications"]}
# the contents adds the period a statement covers, which the body's title leaves out
LISTED_AS = {"Consolidated balance sheets": "Consolidated balance sheets (unaudited) at March 31, 2022 and December 31, 2021"}
TWO_COLUMNS = 8  # printed page 8 in two columns: Item 4 low in the left one, Part II at the right one's top
COLUMN_FILLER = "the figures were compared with the season"


def _two_columns(page: pymupdf.Page) -> None:
    """Prose in two columns: the left one closes Part I with Item 4, the right one opens Part II."""
    y = 80.0
    for _ in range(14):
        y = write_line(page, y, COLUMN_FILLER, x=60)
    y = write_line(page, y + 6, "Item 4. Controls and Procedures.", size=11, bold=True, x=60) + 4
    for _ in range(16):
        y = write_line(page, y, COLUMN_FILLER, x=60)
    y = write_line(page, 80, "Part II - Other information", size=11, bold=True, x=320) + 4
    y = write_line(page, y, "Item 1. Legal Proceedings.", size=11, bold=True, x=320) + 4
    for _ in range(28):
        y = write_line(page, y, COLUMN_FILLER, x=320)


def _quarterly(tmp_path: Path) -> Path:
    """A 10-Q whose contents page lists Item 1 before Item 2 and puts page numbers in a right column."""
    doc = pymupdf.open()
    for _ in range(FIRST_BODY_PAGE - 1 + max(BODY)):
        doc.new_page(width=WIDTH, height=HEIGHT)
    write_line(doc[0], 200, "Example Bank Quarterly Report", size=24, bold=True)
    page = doc[1]
    y = write_line(page, 72, "TABLE OF CONTENTS", size=12, bold=True) + 10
    for title, printed, x, bold in LISTED:
        if title == " ".join(WRAPPED):
            write_line(page, y, WRAPPED[0], size=9, bold=bold, x=x)
            y += 11
            write_line(page, y, WRAPPED[1], size=9, bold=bold, x=x + 10)
        else:
            write_line(page, y, LISTED_AS.get(title, title), size=9, bold=bold, x=x)
        if printed is not None:
            number = str(printed)
            page.insert_text((540 - pymupdf.get_text_length(number, "helv", 9), y), number, fontsize=9)
        y += 14
    for printed, titles in BODY.items():
        body = doc[FIRST_BODY_PAGE - 2 + printed]
        y = 80.0
        for title in titles:
            y = write_line(body, y, title, size=11, bold=True) + 4
            y = paragraph(body, y, 5)
        if printed == TWO_COLUMNS:
            _two_columns(body)
        else:
            paragraph(body, y, int((720 - y) / 15))
        write_line(body, 760, str(printed), size=9, x=300)
    path = tmp_path / "quarterly.pdf"
    doc.save(path)
    return path


def _entries(tmp_path: Path) -> list[tuple[str, int, int]]:
    headings = find_toc_entries(extract(_quarterly(tmp_path)))
    assert headings is not None
    return [(h.title, h.level, h.page) for h in headings[1:]]


def _listed(rows: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Expected entries with their titles as the parser cleans them (the full stop before a page number goes
    with the leader)."""
    paged = {title for title, printed, _x, _bold in LISTED if printed is not None}
    return [(clean_title(title.rstrip(".") if title in paged else title), level, page) for title, level, page in rows]


def test_an_item_closed_by_its_full_stop_heads_its_indented_sections(tmp_path: Path) -> None:
    """Item 2's long title, printed without a page number, ends in a full stop: the indented row under it is
    its first section with its own page, not the end of a wrapped title. A title whose first line ends in
    "Corp." goes on in lower case on the indented line: that is one title."""
    found = _entries(tmp_path)
    assert _listed([(ITEM_2, 2, FIRST_BODY_PAGE)])[0] in found
    assert ("Consolidated Financial Highlights", 3, FIRST_BODY_PAGE) in found
    assert (" ".join(WRAPPED), 3, FIRST_BODY_PAGE + 6) in found


def test_a_part_without_a_page_starts_at_its_earliest_entry(tmp_path: Path) -> None:
    """Part I is listed over Item 1 (printed page 6) and Item 2 (page 1): it starts on Item 2's page and holds
    both items, Item 2's sections under Item 2 in page order. On the page read as two columns Part I's Item 4,
    low in the left column, comes before Part II at the right column's top (by height it came after it, and
    went into Part II). The row naming Part III and its item gives both, the item under the part. The balance
    sheets' entry is titled without the period the contents says it covers."""
    first = FIRST_BODY_PAGE - 1
    assert _entries(tmp_path) == _listed([
        ("Part I - Financial information", 1, first + 1), (ITEM_2, 2, first + 1),
        ("Consolidated Financial Highlights", 3, first + 1), ("Introduction", 3, first + 2),
        ("Executive Overview", 3, first + 3), ("Business Developments", 3, first + 3),
        ("Item 1. Financial Statements.", 2, first + 6),
        ("Consolidated statements of income", 3, first + 6), ("Consolidated balance sheets", 3, first + 7),
        ("Notes to consolidated financial statements", 3, first + 7), (" ".join(WRAPPED), 3, first + 7),
        ("Item 4. Controls and Procedures.", 2, first + 8), ("Part II - Other information", 1, first + 8),
        ("Item 1. Legal Proceedings.", 2, first + 8), ("Item 6. Exhibits.", 2, first + 9),
        ("PART III", 1, first + 10), ("ITEM 7. Certifications", 2, first + 10)])


def test_numbered_sections_added_under_the_contents_keep_an_unplaced_entry_in_its_order(tmp_path: Path) -> None:
    """The layout's numbered sections under Introduction ("1. Scope of this report") are merged into the
    contents entries by place; "Business Developments", printed in other words, has no place on its page and
    stays after "Executive Overview", listed before it there, instead of going to the page's top."""
    headings = find_toc_headings(extract(_quarterly(tmp_path)))
    assert headings is not None
    found = [(h.title, h.page) for h in headings]
    assert ("1. Scope of this report", FIRST_BODY_PAGE + 1) in found  # the merge happened
    overview = found.index(("Executive Overview", FIRST_BODY_PAGE + 2))
    assert found[overview + 1] == ("Business Developments", FIRST_BODY_PAGE + 2)
