"""Where a document's printed table of contents is: its heading row, its pages and its entry rows.

Shared by the contents-page builder (which parses the rows) and the layout finder (which must not take contents
rows for headings). The result is cached on the document's analysis.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import Analysis
from pageindex_desktop.core.outline.numbering import (CHAPTER_PAGE_NUMBER, lone_page_number, parse_page_number,
                                                      split_chapter_page, split_trailing_page, title_key)
from pageindex_desktop.core.outline.page_lists import PageKey, page_entry, unaligned_list
from pageindex_desktop.core.outline.rows import Row, page_rows
from pageindex_desktop.core.outline.running import MARGIN, band_of, folio_value, running_key

HEADING_ROWS = 10  # a contents heading among a page's first rows opens its list whatever follows
MAX_TOC_PAGES = 60  # long references print 20-40 pages of contents; the parse stops at the first non-contents page
INDEX_FRONT_PAGES = 5  # a contents list headed "Index" (a filing's) is printed among the first pages
EDGE = 0.07  # bottom share of a contents page where no entry is printed
_EDGE_MARK = re.compile(r"^#\s+|\s+#$")  # a number at either end of a running key
_EDGE_FOLIO = re.compile(r"^(?:[0-9]{1,4}|[ivxlcdm]{1,7})\s+|\s+(?:[0-9]{1,4}|[ivxlcdm]{1,7})$", re.IGNORECASE)


@dataclass
class ContentsRegion:
    """The contents heading row (None when the list has no heading), the pages it spans and its rows."""

    heading: Row | None
    pages: list[int]
    rows: list[Row]


# a report's or plan's own word for its contents list ("In this report", "In this issue")
_IN_THIS = r"in\s+this\s+(?:report|plan|guide|issue|document|edition|publication|handbook|manual)|"
CONTENTS = re.compile(
    r"^(?:table\s+of\s+contents?|contents|contents\s+at\s+a\s+glance|inhaltsverzeichnis|inhalt|" + _IN_THIS +
    r"table\s+des\s+mati[eè]res|sommaire|[íi]ndice(?:\s+general)?|contenido|sumário|inhoud|spis\s+treści|"
    r"目录|目次|目\s*录)\s*:?\s*(?:\((?:continued|cont\.?|suite|fortsetzung)\))?$",
    re.IGNORECASE,
)
_CONTENTS_ANYWHERE = re.compile(
    r"^\s*(?:table\s+of\s+contents?|c\s?o\s?n\s?t\s?e\s?n\s?t\s?s|inhaltsverzeichnis|inhalt|table\s+des\s+mati|sommaire|[íi]ndice|"
    + _IN_THIS +
    r"contenido|sumário|inhoud|spis\s+treści|目录|目次|目\s*录)",
    re.IGNORECASE | re.MULTILINE,
)
_SPACED = re.compile(r"^(?:\S\s){3,}\S$")
_LEADER_LINE = re.compile(rf"(?:(?:\.\s?|…|·|_){{4,}}\s*\S{{0,8}}|\s[0-9ivxlc]{{1,4}}|\s{CHAPTER_PAGE_NUMBER})\s*$",
                          re.MULTILINE)  # a line ending in leaders or a page number ("12", "xi", "3-12")
_LISTS = re.compile(
    r"^(?:list\s+of\s+(?:figures|tables|illustrations|exhibits|charts|abbreviations)|"
    r"abbildungsverzeichnis|tabellenverzeichnis|liste\s+des\s+(?:figures|tableaux))\b",
    re.IGNORECASE,
)


_INDEX = re.compile(r"^\s*index\s*$", re.IGNORECASE)


def _index_heading(rows: list[Row], i: int, number: int, page_count: int) -> bool:
    """True when row `i` of page `number` is an "INDEX" heading over a contents list. Many filings (10-Ks and
    10-Qs) title their contents "INDEX"; a book's index is one too, so the word counts only on the first
    INDEX_FRONT_PAGES pages and over rows that read as a contents list (`_list_below`) whose page numbers go
    up row by row and stay inside the document (an index's restart with every letter; a table of index
    values is no list of pages)."""
    if number > INDEX_FRONT_PAGES or not _INDEX.match(rows[i].text) or not _list_below(rows, i):
        return False
    values = [entry[1] for entry in (page_entry(r.text) for r in rows[i + 1:]) if entry is not None]
    if any(page > page_count for _part, page in values):
        return False
    return sum(1 for a, b in zip(values, values[1:]) if b >= a) >= 0.9 * (len(values) - 1)


def is_contents_heading(text: str) -> bool:
    """"Contents", "Table of Contents", "Inhalt"... also when letter-spaced ("C O N T E N T S")."""
    text = text.strip()
    if CONTENTS.match(text):
        return True
    return len(text) < 60 and _SPACED.match(text) is not None and CONTENTS.match(text.replace(" ", "")) is not None


def find_contents(doc: ExtractedDocument, analysis: Analysis) -> ContentsRegion | None:
    """The document's contents region, computed once per analysis."""
    if "contents" not in analysis.extra:
        running = analysis.furniture.texts
        analysis.extra["contents"] = _find_region(doc, running | {(_bare_key(key), band) for key, band in running})
    region = analysis.extra["contents"]
    return region if isinstance(region, ContentsRegion) else None


def _rows_of(doc: ExtractedDocument, number: int, running: set[tuple[str, int]]) -> list[Row]:
    """Fully merged rows of a physical page without page numbers, running headers and rows with no words."""
    page = doc.pages[number - 1]
    out: list[Row] = []
    for row in page_rows(page, merge_all=True):
        text = row.text.strip()
        letters = sum(ch.isalpha() for ch in text)
        if folio_value(row, page.height) is not None or (letters < 2 and parse_page_number(text) is None
                                                         and lone_page_number(text) is None):
            continue
        if letters * 2 < len(text.replace(".", "").replace(" ", "")) and parse_page_number(text) is None and (
                split_trailing_page(text)[1] is None) and lone_page_number(text) is None:
            continue  # decorative glyph strips, rules (a wrapped entry's last line, "and 2021  81", stays)
        in_margin = row.y0 < MARGIN * page.height or row.y1 > (1 - MARGIN) * page.height
        band = band_of(row.y0)
        plain = (running_key(text), running_key(_EDGE_FOLIO.sub("", text)))
        keys = (*plain, *(_bare_key(key) for key in plain))
        if in_margin and any((key, b) in running for key in keys for b in (band - 1, band, band + 1)):
            continue  # a running header, possibly merged with the page number beside it
        if row.y0 > (1 - EDGE) * page.height and not _list_goes_on(out, row):
            continue  # the contents page's own footer (copyright line, folio)
        out.append(row)
    return out


def _bare_key(key: str) -> str:
    """A running header's key without the folio printed beside it ("# annual report" -> "annual report").

    A report numbers its contents pages in roman and its body in arabic, and the folio often shares the header's
    line ("ii   110th Annual Report | 2023"): the header is learnt from the many body pages as "# #th annual report
    | #", which the contents page's row, its roman folio cut, matches only once both lose their edge numbers."""
    return _EDGE_MARK.sub("", key)


def _list_goes_on(above: list[Row], row: Row) -> bool:
    """True when `row`, in the bottom band where a contents page prints its footer, is one more entry of a list
    printed down to the page's edge: a title ending in a page number, right under the row above it, which ends in
    one too, in its size (AES's packed 10-K contents ran its last four entries into the band and lost them)."""
    if not above:
        return False
    last = above[-1]
    title, printed, _dots = split_trailing_page(row.text.strip())
    if printed is None or sum(ch.isalpha() for ch in title) < 3 or split_trailing_page(last.text.strip())[1] is None:
        return False
    height = last.y1 - last.y0
    return -0.5 * height <= row.y0 - last.y1 <= 1.5 * height and abs(row.size - last.size) <= 0.5


def _toc_like(rows: list[Row]) -> tuple[int, int]:
    """(rows ending in a page number, rows with dot leaders) among `rows`; a chapter-page number ("3-12")
    is a page number."""
    numbered = leaders = 0
    for row in rows:
        _title, printed, dots = split_trailing_page(row.text)
        numbered += printed is not None or split_chapter_page(row.text) is not None
        leaders += dots
    return numbered, leaders


def _find_region(doc: ExtractedDocument, running: set[tuple[str, int]]) -> ContentsRegion | None:
    """The contents heading row (if any), the contents pages and their entry rows."""
    limit = min(doc.page_count, max(20, doc.page_count // 5), 40)
    tail = max(limit + 1, doc.page_count - max(3, doc.page_count // 20))
    # the front first; some books print their contents at the back
    for number in [*range(1, limit + 1), *range(tail, doc.page_count + 1)]:
        text = doc.pages[number - 1].text
        if not _CONTENTS_ANYWHERE.search(text) and len(_LEADER_LINE.findall(text)) < 5:
            continue  # cheap pre-check before building rows
        rows = _rows_of(doc, number, running)
        if not rows:
            continue
        heading_at = next((i for i, r in enumerate(rows) if is_contents_heading(r.text)
                           and (i < HEADING_ROWS or _list_below(rows, i))
                           or _index_heading(rows, i, number, doc.page_count)), None)
        if heading_at is not None:
            top = rows[heading_at].y0 - 1.5 * (rows[heading_at].y1 - rows[heading_at].y0)
            # a row beside the heading's line can be an entry; one set and aligned like the heading is its
            # title block ("ANNUAL REPORT ON FORM 10-K" over "TABLE OF CONTENTS")
            head = rows[heading_at]
            body = [r for r in rows[:heading_at] if r.y0 >= top and not _title_block(r, head)]
            body += rows[heading_at + 1:]
        else:
            body = rows
        numbered, leaders = _toc_like(body)
        if heading_at is not None:
            if numbered < 3 and len([r for r in body if len(r.text) < 90]) < 3:
                continue
        elif not (leaders >= 5 and numbered >= 5 and numbered * 2 >= len(body)) and not _bare_list(body, doc.page_count):
            continue
        body = _cut_lists(body)
        pages = [number]
        collected = list(body)
        for nxt in range(number + 1, min(doc.page_count, number + MAX_TOC_PAGES) + 1):
            more = [r for r in _rows_of(doc, nxt, running) if not is_contents_heading(_EDGE_FOLIO.sub("", r.text))]
            if not more or any(_LISTS.match(r.text) and not _is_entry(r.text) for r in more[:3]):
                break
            n_more, l_more = _toc_like(more)
            if (n_more < 3 or n_more * 2.5 < len(more)) and not (len(more) <= 4 and 1 <= n_more >= len(more) - 1):
                break  # not a contents page (a short last page of entries still is)
            pages.append(nxt)
            collected.extend(_cut_lists(more))
        heading = rows[heading_at] if heading_at is not None else None
        collected = _until_body(collected)
        return ContentsRegion(heading, sorted({r.page for r in collected} | {number}), collected)
    return None


def _list_below(rows: list[Row], i: int) -> bool:
    """True when the rows under a contents heading set low on its page read as the list: half of them or more
    end in a page number, three or more. A paper's first page prints its title, authors and abstract over
    its contents; lower on a page, a "Contents" row over anything else is a section of that name."""
    numbered, _leaders = _toc_like(rows[i + 1:])
    return numbered >= 3 and numbered * 2 >= len(rows) - i - 1


def _title_block(row: Row, head: Row) -> bool:
    """True when `row` is set in the contents heading's style or larger and aligned with it (flush left or
    centred on it): a line of the page's title, not an entry printed beside the heading."""
    if row.size < head.size - 0.5 or (head.bold and not row.bold):
        return False
    return abs(row.x0 - head.x0) <= 2 or abs((row.x0 + row.x1) / 2 - (head.x0 + head.x1) / 2) <= 2


def _bare_list(rows: list[Row], page_count: int) -> bool:
    """A contents list printed with neither a heading nor dot leaders: nearly every row a title whose page
    number, right-aligned with the others', goes up row by row and stays inside the document (a table's
    figures do not rise like that, an index's page numbers restart with every letter). Chapter-page numbers
    ("3-12") go up by chapter, then by page."""
    ends: list[tuple[PageKey, float]] = []
    starts: list[float] = []
    titles: list[str] = []
    for row in rows:
        entry = page_entry(row.text)
        if entry is None or sum(ch.isalpha() for ch in entry[0]) < 3:
            continue
        ends.append((entry[1], row.x1))
        starts.append(row.x0)
        titles.append(entry[0].strip())
    if len(ends) < 8 or len(ends) < 0.8 * len(rows):
        return False
    values = [v for v, _x in ends]
    if max(page for _part, page in values) > 2 * page_count + 20:
        return False
    if sum(1 for a, b in zip(values, values[1:]) if b >= a) < 0.9 * (len(values) - 1):
        return False
    right = sorted(x for _v, x in ends)[len(ends) // 2]
    if sum(1 for _v, x in ends if abs(x - right) <= 3) < 0.8 * len(ends):
        return unaligned_list(starts, titles, values)  # numbers printed right after their titles
    # short chapters list several sections on their first page: "3-1" repeats more than a plain folio does
    distinct = 0.4 if sum(1 for part, _page in values if part) * 2 > len(values) else 0.6
    return len(set(values)) >= distinct * len(values)


_OPEN_END = re.compile(r"(?:[,&]|\b(?:and|or|of|the|for|to|in|on|with|an))$", re.IGNORECASE)


def _cut_lists(rows: list[Row]) -> list[Row]:
    """Rows before a "List of figures/tables" heading. A "List of Figures ..... ix" row that carries a page number
    is the contents' own entry for that list, not the list's heading: the contents go on after it."""
    for i, row in enumerate(rows):
        if _LISTS.match(row.text) and not _is_entry(row.text):
            return rows[:i]
    return rows


def _is_entry(text: str) -> bool:
    """A contents row that ends in a page number."""
    return split_trailing_page(text)[1] is not None


def _until_body(rows: list[Row]) -> list[Row]:
    """The contents rows before the body starts on the same page (the first title printed again, or prose).

    A prose row ends the contents only when the rest of its page is no list of entries: a filing's contents
    carries notes between its entries ("(Except for the information ... incorporated by reference.)"), a
    report's opens with a paragraph under its heading, and an entry's title can wrap onto a long first line
    ("Consolidated statements of changes in stockholders' equity for the three months ended March" | "31, 2022
    83"). A wrapped first line is kept for the entry, a note between entries is dropped."""
    first_key = ""
    out: list[Row] = []
    note: Row | None = None  # the last row of a note being dropped
    for i, row in enumerate(rows):
        title, printed, dots = split_trailing_page(row.text.strip())
        key = title_key(title)
        if printed is None and not dots and not _wrapped_entry(rows, i):
            if note is not None and _just_below(note, row) and abs(row.size - note.size) < 0.5 and (
                    row.bold == note.bold):
                note = row
                continue  # the note's next line (its short last line too)
            repeated = bool(first_key) and key == first_key and i > 2
            if len(row.text) > 110 or len(row.text.split()) >= 14 or repeated:
                if repeated or not _entries_follow(rows, i):
                    return out
                if not _wraps_into_entry(row, rows[i + 1]):
                    note = row
                    continue  # a note printed between entries
        note = None
        if not first_key:
            first_key = key
        out.append(row)
    return _without_foot_notes(out)


def _without_foot_notes(rows: list[Row]) -> list[Row]:
    """`rows` without the rows after the list's last entry that carries a page number when they are set a
    point or more smaller than those entries: footnotes at the contents page's foot (a paper's first page
    prints its abstract's notes under its contents), which had been read as entries and put at the end."""
    numbered = [i for i, row in enumerate(rows) if split_trailing_page(row.text.strip())[1] is not None]
    if len(numbered) < 3:
        return rows
    sizes = sorted(rows[i].size for i in numbered)
    usual = sizes[len(sizes) // 2]
    last = numbered[-1]
    return rows[:last + 1] + [row for row in rows[last + 1:] if row.size > usual - 1.0]


def _entries_follow(rows: list[Row], i: int) -> bool:
    """True when the rows after rows[i] on its page are mostly contents entries (two or more ending in a page
    number), so the contents goes on after a prose row."""
    rest = [r for r in rows[i + 1:] if r.page == rows[i].page]
    entries = sum(1 for r in rest if _is_entry(r.text) or split_trailing_page(r.text)[2])
    return entries >= 2 and entries * 2 >= len(rest)


def _wraps_into_entry(row: Row, nxt: Row) -> bool:
    """True when `nxt`, just below `row` on its page, ends the entry `row` begins (the title wrapped)."""
    if not _just_below(row, nxt):
        return False
    _title, printed, dots = split_trailing_page(nxt.text.strip())
    return printed is not None or dots


def _just_below(row: Row, nxt: Row) -> bool:
    """True when `nxt` is the line after `row` in one block of text (same page, no more than a line's gap)."""
    return nxt.page == row.page and -0.5 * (row.y1 - row.y0) <= nxt.y0 - row.y1 <= 1.5 * (row.y1 - row.y0)


def _wrapped_entry(rows: list[Row], i: int) -> bool:
    """True when row `i` is the first line of a long entry wrapped mid-phrase ("ITEM 5. Market for Registrant's
    Common Equity, ... Issuer Purchases of" over "Equity Securities ..... 26"), so it is no paragraph of the
    body: the next row ends in the entry's page number and goes on with the title (this row stops on a joining
    word or comma, or the next one opens in lower case or is indented under it: "... ended March" over
    "31, 2022 and 2021   83"), or holds nothing but the number (a long title filled its line)."""
    below = rows[i + 1].text.strip() if i + 1 < len(rows) else ""
    if (below.isdigit() or lone_page_number(below)) and _just_below(rows[i], rows[i + 1]):
        return True  # the title filled its line and only its number went to the next one
    if i + 1 >= len(rows) or not _wraps_into_entry(rows[i], rows[i + 1]):
        return False
    row, nxt = rows[i], rows[i + 1]
    return _OPEN_END.search(row.text.strip()) is not None or nxt.text[:1].islower() or nxt.x0 > row.x0 + 3


def contents_bands(region: ContentsRegion | None, page_count: int) -> dict[int, tuple[float, float]]:
    """Contents page -> (top, bottom) of the band whose rows are entries, not headings: from the page's top to
    its last entry (the contents heading's too), the body below. A list without a contents heading in the
    back half of the document is its index ("Index", a manual's "Concept Index": rows ending in page numbers
    rising down the page), so its band starts at its first row ending in a page number and the index's own
    title above it stays a section, as the authors' bookmarks list it."""
    if region is None:
        return {}
    back = region.heading is None and min(region.pages) > page_count / 2
    bands: dict[int, tuple[float, float]] = {}
    for page_number in region.pages:
        rows = [r for r in region.rows if r.page == page_number]
        entries = [r.y0 for r in rows if split_trailing_page(r.text)[1] is not None]
        top = min(entries, default=-1e9) if back and page_number == region.pages[0] else -1e9
        bands[page_number] = (top, max((r.y1 for r in rows), default=1e9))
    if region.heading is not None:
        top, bottom = bands.get(region.heading.page, (-1e9, 0.0))
        bands[region.heading.page] = (top, max(bottom, region.heading.y1))
    return bands
