"""Headings from a printed table of contents, mapped to the physical pages where the titles are printed.

Contents pages are found near the front (a "Contents" heading, rows ending in page numbers after dot leaders),
parsed into entries (wrapped titles joined, levels from indentation), and each printed page number is mapped to
a physical page through the page labels or an offset voted on by where entry titles and page numbers are
actually printed. Every entry is then looked for near its page so its start page and position are exact.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import analyse
from pageindex_desktop.core.outline.chapter_pages import chapter_page_map
from pageindex_desktop.core.outline.contents import find_contents
from pageindex_desktop.core.outline.enrich import add_deeper_headings, hang_layout_headings
from pageindex_desktop.core.outline.financial_statements import hang_financial_statements
from pageindex_desktop.core.outline.numbering import (
    CHAPTER_PAGE,
    PAGE_COLUMN_HEAD,
    clean_title,
    lone_page_number,
    split_chapter_page,
    leading_number,
    parse_page_number,
    TRAILING_COLUMN_HEAD,
    split_trailing_page,
    without_column_head,
)
from pageindex_desktop.core.outline.contents_cells import join_cell_lines
from pageindex_desktop.core.outline.contents_pairs import split_pairs
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.table_notes import strip_period
from pageindex_desktop.core.outline.toc_levels import (
    PART_KINDS, assign_levels, mark_group_heads, mark_larger_flush_heads, mark_styled_heads
)
from pageindex_desktop.core.outline.toc_mapping import map_chapter_pages, map_printed, map_sequential
from pageindex_desktop.core.outline.tree import Heading

log = logging.getLogger(__name__)

_JOINERS = re.compile(r"(?:[,:;\-–—&(]|\b(?:and|or|of|the|for|to|in|on|with|a|an|und|der|die|des|et|de|du|la|le))$",
                      re.IGNORECASE)
# a line that can only go on with a title: opening in lower case or on a joining word ("and Issuer Purchases")
_GOES_ON = re.compile(r"^(?:[a-z]|(?:[Aa]nd|[Oo]r|[Oo]f|[Tt]he|[Ff]or|[Tt]o|[Ii]n|[Oo]n|[Ww]ith|[Uu]nd|[Ee]t)\s)")

# a title closed by a full stop after a word (not an initial or "Co."): filings print "Item 4. Controls and
# Procedures." whole on its row
_CLOSED = re.compile(r"[A-Za-z]{4,}\.$")


@dataclass
class Entry:
    """One parsed contents row."""

    title: str
    printed: tuple[int, bool] | None  # (value, is_roman)
    x0: float
    size: float
    bold: bool
    toc_page: int
    x1: float = 0.0  # right edge of the row that ends it (its page number's, when right-aligned)
    y_toc: float = 0.0
    numbered: int = 0  # depth of its leading section number, 0 when none
    part: bool = False  # "PART II", "Book 3": a division above chapters and items
    chapter_page: str | None = None  # "3-12", "A-4": a page counted within its chapter (then printed is None)
    level: int = 1
    page: int | None = None
    y: float | None = None
    order: int | None = None  # index of the row printing it among its page's rows (reading order, columns too)
    found: bool = False


def find_toc_headings(doc: ExtractedDocument) -> list[Heading] | None:
    """Headings read from the document's printed contents pages, or None when it has no usable one."""
    entries = find_toc_entries(doc)
    return enrich_toc(entries, doc) if entries is not None else None


def enrich_toc(entries: list[Heading], doc: ExtractedDocument) -> list[Heading]:
    """The contents entries with the layout headings they do not list (numbered deeper schemes, annexes after an
    early end, the style level below the deepest listed one, a filing's statements and notes)."""
    return hang_financial_statements(hang_layout_headings(add_deeper_headings(entries, doc), doc), doc)


def find_toc_entries(doc: ExtractedDocument) -> list[Heading] | None:
    """The contents entries alone, mapped to their pages and in reading order (None without a usable contents)."""
    if doc.page_count < 3:
        return None
    analysis = analyse(doc)
    region = find_contents(doc, analysis)
    if region is None:
        return None
    heading_row, toc_pages, rows = region.heading, region.pages, region.rows
    entries = _parse_entries(rows, 2 * doc.page_count + 20)
    if len(entries) < 3:
        return None
    skip = set(toc_pages)
    with_pages = [e for e in entries if e.printed is not None]
    by_chapter = sum(1 for e in entries if e.chapter_page is not None)
    if by_chapter >= max(3, len(entries) // 2, len(with_pages)):
        # "3-12" page numbers: no offset maps them, the page that prints the number does
        anchored = map_chapter_pages(doc, analysis, entries, skip, chapter_page_map(doc, analysis))
        if not anchored:
            for entry in entries:
                entry.page, entry.y, entry.order, entry.found = None, None, None, False
            map_sequential(doc, analysis, entries, skip, last=max(toc_pages), below=entries[-1].y_toc)
    elif len(with_pages) >= max(3, len(entries) // 2):
        if not _monotonic(with_pages):
            return None
        anchored = map_printed(doc, analysis, entries, skip)
    else:
        anchored = False
        map_sequential(doc, analysis, entries, skip, last=max(toc_pages), below=entries[-1].y_toc)
        if sum(e.found for e in entries) * 2 < len(entries):
            return None
    if not anchored and sum(e.found for e in entries) * 2 < len(entries):
        # most titles are not printed where the numbers point and no label or folio vouches for the numbers
        # (an excerpt of a longer document): keep the entries whose titles were found, they are certain
        entries = [e for e in entries if e.found]
        if len(entries) < 3:
            return None
    mark_group_heads(entries)
    mark_styled_heads(entries)
    mark_larger_flush_heads(entries)
    assign_levels(entries)
    _groups_start_first(entries)
    headings: list[Heading] = []
    places: list[float | None] = []
    if heading_row is not None:
        headings.append(Heading(title=heading_row.text.strip(), level=1, page=heading_row.page, y=heading_row.y0))
        places.append(-1.0)
    for entry in entries:
        if entry.page is None:
            continue
        headings.append(Heading(title=clean_title(strip_period(entry.title)), level=entry.level, page=entry.page,
                                y=entry.y))
        places.append(float(entry.order) if entry.order is not None else None)
    log.debug("contents pages %s gave %d headings", toc_pages, len(headings))
    # reading order: a contents page printed at the back goes last, out-of-order entries where they are printed
    return _reading_order(headings, places)


def _groups_start_first(entries: list[Entry]) -> None:
    """A group row printed without a page number and not found in the text ("Part I – Financial information")
    starts where the earliest of its entries starts, not where the first listed one does: a 10-Q lists Item 1's
    statements (page 80) before Item 2's discussion (page 3), so the next entry's page put the part after all
    of Item 2, whose sections then fell outside it."""
    for i, entry in enumerate(entries):
        if entry.printed is not None or entry.found or entry.page is None:
            continue
        pages = []
        for inner in entries[i + 1:]:
            if inner.level <= entry.level:
                break
            if inner.page is not None:
                pages.append(inner.page)
        if pages and min(pages) < entry.page:
            entry.page, entry.y, entry.order = min(pages), None, None


def _reading_order(headings: list[Heading], places: list[float | None]) -> list[Heading]:
    """`headings` (in contents order) sorted by page and place on the page, `places` being the reading position
    of the row printing each (its index among the page's rows, so on a page read as two columns "Part II" at
    the right column's top follows "Item 4" low in the left one; by height it came first and took Part I's last
    item). An entry whose place on its page was not found (a title wrapped over three lines in the text) keeps
    its contents order among the page's entries: it goes right after the entry listed before it on that page,
    at the top only when it is the page's first (it went to the page's top, above "PART III" whose items it
    follows)."""
    keys: list[tuple[int, float]] = []
    last: tuple[int, float] = (0, -1.0)
    for heading, place in zip(headings, places):
        if place is not None:
            last = (heading.page, place)
        elif last[0] != heading.page:
            last = (heading.page, -1.0)
        keys.append(last)
    order = sorted(range(len(headings)), key=lambda i: keys[i])  # stable: ties keep the contents order
    return [headings[i] for i in order]


def _parse_entries(rows: list[Row], limit: int) -> list[Entry]:
    """Contents rows -> entries: page numbers split off, wrapped titles joined, bare page numbers attached."""
    right = max((r.x1 for r in rows), default=0.0)
    rows = split_pairs(rows, limit)
    pitch = _entry_pitch(rows)
    rows = join_cell_lines(rows, pitch)
    on_page: dict[int, list[Row]] = {}  # for _column_right
    for row in rows:
        on_page.setdefault(row.page, []).append(row)
    entries: list[Entry] = []
    pending: Row | None = None
    pending_text = ""
    for i, row in enumerate(rows):
        text = row.text.strip()
        headed = row.x1 >= right - 2 * row.size and TRAILING_COLUMN_HEAD.search(text) is not None
        if headed:
            text = without_column_head(text)  # the page column's head ("PART I ... Page"): the row ends before it
            if not text:
                continue
        title, printed, dots = split_trailing_page(text)
        if printed is not None and not dots and _beyond(printed, limit):
            title, printed = text, None  # a year closing a wrapped line ("... ended March 31, 2022"), no page
        chapter = split_chapter_page(text) if printed is None else None
        if chapter is not None:
            title, dots = chapter[0], True
        bare = parse_page_number(text)
        if bare is not None and entries and entries[-1].printed is None and pending is None:
            entries[-1].printed = bare
            continue
        alone = lone_page_number(text)  # "4-1", "...... 4-1" or "...... 12" on a line of its own
        if alone is not None and pending is None:
            if entries and entries[-1].printed is None and entries[-1].chapter_page is None:
                # the entry's number, wrapped under its title or leaders
                if CHAPTER_PAGE.match(alone):
                    entries[-1].chapter_page = alone
                else:
                    entries[-1].printed = parse_page_number(alone)
            continue  # no title of its own either way
        if pending is not None:
            title = f"{pending_text} {title}".strip()
            first = pending
            pending = None
        else:
            first = row
        if printed is None and not dots:
            nxt = rows[i + 1] if i + 1 < len(rows) else None
            if first is row and entries and i > 0 and _continues_above(rows[i - 1], row, nxt, entries[-1], pitch):
                entries[-1].title = f"{entries[-1].title} {title.strip()}"
                entries[-1].y_toc = row.y1
                continue
            after = rows[i + 2] if i + 2 < len(rows) else None
            if nxt is not None and not headed and _wraps(
                    row, nxt, _column_right(on_page[row.page], row, right), after):
                pending, pending_text = first, title  # a title wrapped over three lines goes on once more
                continue
        value = parse_page_number(printed) if printed is not None else None
        if printed is None and dots and chapter is None and i + 1 < len(rows):
            value = parse_page_number(rows[i + 1].text.strip())  # the number went to the next line
        if printed is None and not dots and row.parts > 1 and first is row:
            title = without_column_head(title)
        title = title.strip()
        if not title or len(title) > 200 or title.replace(".", "").strip().isdigit() or PAGE_COLUMN_HEAD.match(title):
            continue
        if value is not None and value[0] > limit:
            value = None  # a year or a figure, not a page of this document
        num = leading_number(title)
        entries.append(Entry(title=title, printed=value, x0=first.x0, size=first.size, bold=first.bold,
                             toc_page=first.page, x1=row.x1, y_toc=row.y1, numbered=num.depth if num else 0,
                             part=num is not None and num.kind in PART_KINDS,
                             chapter_page=chapter[1] if chapter is not None else None))
    return entries


def _group_label(text: str) -> bool:
    """A titled row closed by a colon ("Consolidated Financial Statements – JPMorgan Chase & Co.:"): when the next
    two rows are indented under it, it heads the entries listed there, each with its own page, and is no first
    line of theirs (one indented row before the margin again is a subtitle: "Rebuilding Freedoms Previously
    Presumed:" over "Examples"). A bare label with a colon ("Chapter 3:", "Part I:") takes the next line."""
    if not text.endswith(":") or len(text) < 4:
        return False
    num = leading_number(text[:-1])
    return num is None or bool(num.rest)


def _beyond(printed: str, limit: int) -> bool:
    """True when a row's trailing number is past any page of the document: a year or a figure of the title."""
    value = parse_page_number(printed)
    return value is not None and value[0] > limit


def _continues_above(above: Row, row: Row, nxt: Row | None, entry: Entry, pitch: float | None = None) -> bool:
    """True when `row`, without a page number, ends the title of the entry on the row just above it, whose page
    number was printed on its first line (a table cell aligned at the top: "Item 5 Market for Registrant's
    Common Equity ... and Issuer Purchases of  15" | "Equity Securities"): set in the entry's style, the line
    right below it, and either indented past it and followed by no row at its own indentation (then it opens
    a list of sub-entries), or flush with it and unable to open a title ("and supply") or set closer under it
    than the list's entries are set under each other (`pitch`, the usual gap between two entries)."""
    if entry.printed is None and entry.chapter_page is None or entry.toc_page != row.page or above.page != row.page:
        return False
    height = above.y1 - above.y0
    if not -0.5 * height <= row.y0 - above.y1 <= 0.5 * height or abs(row.size - entry.size) > 0.5 or (
            row.bold != entry.bold):
        return False
    if leading_number(row.text.strip()) is not None:
        return False  # a numbered row opens an entry of its own
    # a table cell wrapped in place: the row cannot open a title, or sits closer under the entry than entries
    # sit under each other (`pitch`); then it ends the entry's title wherever it starts
    if _GOES_ON.match(row.text.strip()) or pitch is not None and row.y0 - above.y1 < pitch - 0.15 * height:
        return True
    if row.x0 <= entry.x0 + 3:
        return False
    if nxt is not None and nxt.page == row.page and -0.5 * height <= nxt.y0 - row.y1 <= 0.5 * height:
        _t, printed, dots = split_trailing_page(nxt.text.strip())
        if (printed is not None or dots) and nxt.x0 >= row.x0 - 3:
            return False  # the row begins the next entry, whose title wraps onto the row with the page number
    return nxt is None or nxt.page != row.page or abs(nxt.x0 - row.x0) > 3


def _paged(text: str) -> bool:
    """A contents row ending in a page number, plain or chapter-page ("3-12")."""
    return split_trailing_page(text)[1] is not None or split_chapter_page(text) is not None


def _entry_pitch(rows: list[Row]) -> float | None:
    """The usual gap between two rows that both end in a page number (None below three such pairs)."""
    gaps = sorted(b.y0 - a.y1 for a, b in zip(rows, rows[1:]) if a.page == b.page and b.y0 > a.y0
                  and _paged(a.text.strip()) and _paged(b.text.strip()))
    return gaps[len(gaps) // 2] if len(gaps) >= 3 else None


def _column_right(page_rows: list[Row], row: Row, right: float) -> float:
    """The right edge of the text column `row` sits in, among the rows of its page: in a contents list set in
    two columns, the left column's entries wrap well short of the page's right edge (`right`)."""
    beyond = [r.x0 for r in page_rows if r.x0 >= row.x1]
    if not beyond:
        return right
    gutter = min(beyond)
    return max((r.x1 for r in page_rows if r.x1 <= gutter), default=right)


def _wraps(row: Row, nxt: Row, right: float, after: Row | None = None) -> bool:
    """True when `nxt` continues the title begun on `row` (a wrapped contents entry); `after` is the row below
    `nxt`."""
    if nxt.page != row.page or nxt.y0 - row.y1 > 1.5 * (row.y1 - row.y0):
        return False
    nxt_text = nxt.text.strip()
    nxt_title, nxt_printed, nxt_dots = split_trailing_page(nxt_text)
    chapter = split_chapter_page(nxt_text)
    if nxt_printed is None and not nxt_dots and chapter is None:
        # a middle line: the title runs on over `nxt` to the number on the line after it
        return after is not None and _runs_on(row, nxt, right) and _wraps(nxt, after, right)
    if not (chapter[0] if chapter is not None else nxt_title.strip(" .…·_")):
        return True  # only the leaders and the number: the line above ran out of room for them
    if leading_number(nxt_text) is not None:
        return False
    if _group_label(row.text.strip()) and after is not None and min(nxt.x0, after.x0) > row.x0 + 3:
        return False  # a group's label over its indented entries
    if _CLOSED.search(row.text.strip()) and nxt.x0 > row.x0 + 3 and not nxt_text[:1].islower():
        return False  # a title closed by its full stop ("Item 2. Management's Discussion ... Operations.") over
        # the first of its indented entries, not a title wrapped onto them ("... Corp." over "and Subsidiaries" is)
    if _JOINERS.search(row.text.strip()) or nxt_text[:1].islower():
        return True
    width = max(right - row.x0, 1.0)
    if row.x1 >= right - 0.2 * width:
        return True
    return nxt.x0 > row.x0 + 3 and nxt.size <= row.size and not (row.bold and not nxt.bold)


def _runs_on(row: Row, nxt: Row, right: float) -> bool:
    """True when `nxt`, a line without a page number right under `row` in its style, carries on `row`'s title:
    `row` ends on a joining word or fills its column, or `nxt` opens in lower case (a contents entry wrapped over
    three lines in a narrow column: "1. Governance and the quality" | "inspection expenditure audit report" |
    "residual leakage  3"). A short row over another is a group label over its first entry, not a wrap."""
    if nxt.page != row.page or nxt.y0 - row.y1 > 1.5 * (row.y1 - row.y0) or abs(nxt.size - row.size) > 0.5 \
            or nxt.bold != row.bold or nxt.x0 < row.x0 - 3 or leading_number(nxt.text.strip()) is not None:
        return False
    width = max(right - row.x0, 1.0)
    return bool(_JOINERS.search(row.text.strip())) or nxt.text.strip()[:1].islower() or row.x1 >= right - 0.2 * width


def _monotonic(entries: list[Entry]) -> bool:
    """Printed arabic page numbers mostly go up (a contents page, not a table of figures in a report)."""
    values = [e.printed[0] for e in entries if e.printed and not e.printed[1]]
    if len(values) < 3:
        return True
    ups = sum(1 for a, b in zip(values, values[1:]) if b >= a)
    return ups >= 0.8 * (len(values) - 1)
