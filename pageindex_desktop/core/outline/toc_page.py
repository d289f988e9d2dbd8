"""Headings from a printed table of contents, mapped to the physical pages where the titles are printed.

Contents pages are found near the front (a "Contents" heading, rows ending in page numbers after dot leaders),
parsed into entries (wrapped titles joined, levels from indentation), and each printed page number is mapped to
a physical page through the page labels or an offset voted on by where entry titles and page numbers are
actually printed. Every entry is then looked for near its page so its start page and position are exact.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import Analysis, analyse
from pageindex_desktop.core.outline.numbering import (
    leading_number,
    parse_page_number,
    split_trailing_page,
    title_key,
)
from pageindex_desktop.core.outline.rows import Row, page_rows
from pageindex_desktop.core.outline.running import MARGIN, folio_value, running_key
from pageindex_desktop.core.outline.toc_levels import assign_levels
from pageindex_desktop.core.outline.tree import Heading

log = logging.getLogger(__name__)

CONTENTS = re.compile(
    r"^(?:table\s+of\s+contents?|contents|contents\s+at\s+a\s+glance|inhaltsverzeichnis|inhalt|"
    r"table\s+des\s+mati[eè]res|sommaire|[íi]ndice(?:\s+general)?|contenido|sumário|inhoud|spis\s+treści|"
    r"目录|目次|目\s*录)\s*:?$",
    re.IGNORECASE,
)
_LISTS = re.compile(
    r"^(?:list\s+of\s+(?:figures|tables|illustrations|exhibits|charts|abbreviations)|"
    r"abbildungsverzeichnis|tabellenverzeichnis|liste\s+des\s+(?:figures|tableaux))\b",
    re.IGNORECASE,
)
_JOINERS = re.compile(r"(?:[,:;\-–—&(]|\b(?:and|or|of|the|for|to|in|on|with|a|an|und|der|die|des|et|de|du|la|le))$",
                      re.IGNORECASE)
SEARCH_RADIUS = 3
MAX_TOC_PAGES = 12


@dataclass
class Entry:
    """One parsed contents row."""

    title: str
    printed: tuple[int, bool] | None  # (value, is_roman)
    x0: float
    size: float
    bold: bool
    toc_page: int
    y_toc: float = 0.0
    numbered: int = 0  # depth of its leading section number, 0 when none
    level: int = 1
    page: int | None = None
    y: float | None = None
    found: bool = False


def find_toc_headings(doc: ExtractedDocument) -> list[Heading] | None:
    """Headings read from the document's printed contents pages, or None when it has no usable one."""
    if doc.page_count < 3:
        return None
    analysis = analyse(doc)
    region = _find_region(doc, analysis.furniture.texts)
    if region is None:
        return None
    heading_row, toc_pages, rows = region
    entries = _parse_entries(rows)
    if len(entries) < 3:
        return None
    skip = set(toc_pages)
    with_pages = [e for e in entries if e.printed is not None]
    if len(with_pages) >= max(3, len(entries) // 2):
        if not _monotonic(with_pages):
            return None
        _map_printed(doc, analysis, entries, skip)
    else:
        _map_sequential(doc, analysis, entries, skip, last=max(toc_pages), below=entries[-1].y_toc)
        if sum(e.found for e in entries) * 2 < len(entries):
            return None
    assign_levels(entries)
    headings: list[Heading] = []
    if heading_row is not None:
        headings.append(Heading(title=heading_row.text.strip(), level=1, page=heading_row.page, y=heading_row.y0))
    for entry in entries:
        if entry.page is None:
            continue
        headings.append(Heading(title=entry.title, level=entry.level, page=entry.page, y=entry.y))
    log.debug("contents pages %s gave %d headings", toc_pages, len(headings))
    return headings


def _rows_of(doc: ExtractedDocument, number: int, running: set[str]) -> list[Row]:
    """Fully merged rows of a physical page without page numbers, running headers and rows with no words."""
    page = doc.pages[number - 1]
    out = []
    for row in page_rows(page, merge_all=True):
        text = row.text.strip()
        letters = sum(ch.isalpha() for ch in text)
        if folio_value(row, page.height) is not None or (letters < 2 and parse_page_number(text) is None):
            continue
        if letters * 2 < len(text.replace(".", "").replace(" ", "")) and parse_page_number(text) is None:
            continue  # decorative glyph strips, rules
        in_margin = row.y0 < MARGIN * page.height or row.y1 > (1 - MARGIN) * page.height
        if in_margin and running_key(text) in running:
            continue
        out.append(row)
    return out


def _toc_like(rows: list[Row]) -> tuple[int, int]:
    """(rows ending in a page number, rows with dot leaders) among `rows`."""
    numbered = leaders = 0
    for row in rows:
        _title, printed, dots = split_trailing_page(row.text)
        numbered += printed is not None
        leaders += dots
    return numbered, leaders


def _find_region(doc: ExtractedDocument, running: set[str]) -> tuple[Row | None, list[int], list[Row]] | None:
    """The contents heading row (if any), the contents pages and their entry rows."""
    limit = min(doc.page_count, max(20, doc.page_count // 5), 40)
    for number in range(1, limit + 1):
        rows = _rows_of(doc, number, running)
        if not rows:
            continue
        heading_at = next((i for i, r in enumerate(rows[:10]) if CONTENTS.match(r.text.strip())), None)
        if heading_at is not None:
            top = rows[heading_at].y0 - 2 * (rows[heading_at].y1 - rows[heading_at].y0)
            body = [r for r in rows[:heading_at] if r.y0 >= top] + rows[heading_at + 1:]
        else:
            body = rows
        numbered, leaders = _toc_like(body)
        if heading_at is not None:
            if numbered < 3 and len([r for r in body if len(r.text) < 90]) < 3:
                continue
        elif not (leaders >= 5 and numbered >= 5 and numbered * 2 >= len(body)):
            continue
        body = _cut_lists(body)
        pages = [number]
        collected = list(body)
        for nxt in range(number + 1, min(doc.page_count, number + MAX_TOC_PAGES) + 1):
            more = _rows_of(doc, nxt, running)
            if not more or any(_LISTS.match(r.text) for r in more[:3]):
                break
            n_more, l_more = _toc_like(more)
            if n_more < 3 or n_more * 2.5 < len(more):
                break
            pages.append(nxt)
            collected.extend(_cut_lists(more))
        heading = rows[heading_at] if heading_at is not None else None
        return heading, pages, collected
    return None


def _cut_lists(rows: list[Row]) -> list[Row]:
    """Rows before a "List of figures/tables" heading."""
    for i, row in enumerate(rows):
        if _LISTS.match(row.text):
            return rows[:i]
    return rows


def _parse_entries(rows: list[Row]) -> list[Entry]:
    """Contents rows -> entries: page numbers split off, wrapped titles joined, bare page numbers attached."""
    rows = _until_body(rows)
    right = max((r.x1 for r in rows), default=0.0)
    entries: list[Entry] = []
    pending: Row | None = None
    pending_text = ""
    for i, row in enumerate(rows):
        text = row.text.strip()
        title, printed, dots = split_trailing_page(text)
        bare = parse_page_number(text)
        if bare is not None and entries and entries[-1].printed is None and pending is None:
            entries[-1].printed = bare
            continue
        if pending is not None:
            title = f"{pending_text} {title}".strip()
            first = pending
            pending = None
        else:
            first = row
        if printed is None and not dots:
            nxt = rows[i + 1] if i + 1 < len(rows) else None
            if nxt is not None and first is row and _wraps(row, nxt, right):
                pending, pending_text = row, title
                continue
        if printed is None and dots:
            nxt = rows[i + 1] if i + 1 < len(rows) else None
            if nxt is not None and parse_page_number(nxt.text.strip()) is not None:
                printed = parse_page_number(nxt.text.strip())
        title = title.strip()
        if not title or len(title) > 200 or title.replace(".", "").strip().isdigit():
            continue
        value = parse_page_number(printed) if isinstance(printed, str) else printed
        num = leading_number(title)
        entries.append(Entry(title=title, printed=value, x0=first.x0, size=first.size, bold=first.bold,
                             toc_page=first.page, y_toc=row.y1, numbered=num.depth if num else 0))
    return entries


def _until_body(rows: list[Row]) -> list[Row]:
    """The contents rows before the body starts on the same page (the first title printed again, or prose)."""
    first_key = ""
    for i, row in enumerate(rows):
        title, printed, dots = split_trailing_page(row.text.strip())
        key = title_key(title)
        if printed is None and not dots:
            if len(row.text) > 110 or len(row.text.split()) >= 14 or (first_key and key == first_key and i > 2):
                return rows[:i]
        if not first_key:
            first_key = key
    return rows


def _wraps(row: Row, nxt: Row, right: float) -> bool:
    """True when `nxt` continues the title begun on `row` (a wrapped contents entry)."""
    if nxt.page != row.page or nxt.y0 - row.y1 > 1.5 * (row.y1 - row.y0):
        return False
    nxt_text = nxt.text.strip()
    _t, nxt_printed, nxt_dots = split_trailing_page(nxt_text)
    if nxt_printed is None and not nxt_dots:
        return False
    if leading_number(nxt_text) is not None:
        return False
    if _JOINERS.search(row.text.strip()) or nxt_text[:1].islower():
        return True
    width = max(right - row.x0, 1.0)
    if row.x1 >= right - 0.2 * width:
        return True
    return nxt.x0 > row.x0 + 3 and nxt.size <= row.size and not (row.bold and not nxt.bold)


def _monotonic(entries: list[Entry]) -> bool:
    """Printed arabic page numbers mostly go up (a contents page, not a table of figures in a report)."""
    values = [e.printed[0] for e in entries if e.printed and not e.printed[1]]
    if len(values) < 3:
        return True
    ups = sum(1 for a, b in zip(values, values[1:]) if b >= a)
    return ups >= 0.8 * (len(values) - 1)


def _hits(analysis: Analysis, entry: Entry, skip: set[int]) -> list[tuple[int, float, bool]]:
    """(page, y, in margin) of rows outside the contents pages whose text is the entry's title."""
    key = title_key(entry.title)
    if len(key) < 2:
        return []
    found: list[tuple[int, float, bool]] = []
    for page, index in analysis.title_index().get(key[:24], ()):
        if page in skip:
            continue
        row = analysis.rows[page - 1][index]
        row_key = title_key(row.text)
        if row_key == key or row_key.startswith(key) and len(row_key) < len(key) + 60 or (
            key.startswith(row_key) and len(row_key) >= 0.5 * len(key)
        ):
            found.append((page, row.y0, False))
    return found


def _label_pages(doc: ExtractedDocument) -> dict[str, int]:
    """Printed page label -> first physical page carrying it."""
    labels: dict[str, int] = {}
    for page in doc.pages:
        if page.label:
            labels.setdefault(page.label.strip().lower(), page.number)
    return labels


def _map_printed(doc: ExtractedDocument, analysis: Analysis, entries: list[Entry], skip: set[int]) -> None:
    """Map printed page numbers to physical pages, then place each entry on its printed title.

    Offsets can drift inside one file (pages dropped or inserted), so each entry's page comes from local
    evidence: the offsets its neighbours' titles agree on, the page numbers printed on nearby pages, or the
    page labels when those explain the titles better.
    """
    hits_of = [_hits(analysis, entry, skip) for entry in entries]
    candidates: list[set[int]] = []
    for entry, hits in zip(entries, hits_of):
        if entry.printed is None:
            candidates.append(set())
        else:
            candidates.append({page - entry.printed[0] for page, _y, _m in hits})
    folios = _FolioMap(analysis.furniture.folios)
    labels = _label_pages(doc)
    use_labels = bool(labels) and _labels_agree(entries, hits_of, labels) >= _local_agree(entries, hits_of, candidates)
    for i, (entry, hits) in enumerate(zip(entries, hits_of)):
        if entry.printed is None:
            continue
        value, roman = entry.printed
        expected = None
        if use_labels:
            expected = labels.get((_int_to_roman(value) if roman else str(value)).lower())
        if expected is None:
            support: Counter[int] = Counter()
            for j in range(max(0, i - 5), min(len(entries), i + 6)):
                if j != i and entries[j].printed is not None and entries[j].printed[1] == roman:
                    support.update(candidates[j])
            folio = folios.page_for(value, roman)
            if folio is not None:
                support[folio - value] += 2
            if candidates[i]:
                offset = max(candidates[i], key=lambda o: (support[o], -abs(o)))
            elif support:
                offset = support.most_common(1)[0][0]
            else:
                offset = folios.any_offset(roman)
            expected = value + offset
        _place(entry, hits, min(max(expected, 1), doc.page_count))
    _fill_missing(entries, doc.page_count)


class _FolioMap:
    """Printed page numbers seen in headers/footers, to turn a printed number into a physical page."""

    def __init__(self, folios: dict[int, tuple[int, bool]]) -> None:
        self.points = {False: sorted((v, p) for p, (v, r) in folios.items() if not r),
                       True: sorted((v, p) for p, (v, r) in folios.items() if r)}

    def page_for(self, value: int, roman: bool) -> int | None:
        """Physical page of printed number `value`, from the nearest folio at or below it."""
        best = None
        for printed, page in self.points[roman]:
            if printed > value:
                break
            best = page + (value - printed)
        if best is None and self.points[roman]:
            printed, page = self.points[roman][0]
            best = page - (printed - value)
        return best

    def any_offset(self, roman: bool) -> int:
        """The most common offset, 0 when no folio was seen."""
        counter = Counter(p - v for v, p in self.points[roman])
        return counter.most_common(1)[0][0] if counter else 0


def _local_agree(entries: list[Entry], hits_of: list[list[tuple[int, float, bool]]], candidates: list[set[int]]) -> int:
    """How many entries share a title offset with a neighbouring entry (what local offsets can explain)."""
    agree = 0
    for i in range(len(entries)):
        if not candidates[i]:
            continue
        near: set[int] = set()
        for j in (i - 1, i + 1):
            if 0 <= j < len(entries):
                near |= candidates[j]
        agree += bool(candidates[i] & near)
    return agree


def _labels_agree(entries: list[Entry], hits_of: list[list[tuple[int, float, bool]]], labels: dict[str, int]) -> int:
    """How many entries' titles are printed within a page of where the page labels put them."""
    agree = 0
    for entry, hits in zip(entries, hits_of):
        if entry.printed is None or not hits:
            continue
        value, roman = entry.printed
        page = labels.get((_int_to_roman(value) if roman else str(value)).lower())
        agree += page is not None and any(abs(h[0] - page) <= 1 for h in hits)
    return agree


def _place(entry: Entry, hits: list[tuple[int, float, bool]], expected: int | None) -> None:
    """Put the entry on the printed occurrence nearest its expected page (or on the expected page)."""
    if expected is None:
        return
    near = [h for h in hits if abs(h[0] - expected) <= SEARCH_RADIUS]
    if near:
        page, y, _margin = min(near, key=lambda h: (abs(h[0] - expected), h[0]))
        entry.page, entry.y, entry.found = page, y, True
    else:
        entry.page = expected


def _fill_missing(entries: list[Entry], page_count: int) -> None:
    """Entries printed without a page number take the page of the next entry that has one."""
    following: int | None = None
    for entry in reversed(entries):
        if entry.page is None:
            entry.page = following
        else:
            following = entry.page
    previous = 1
    for entry in entries:
        if entry.page is None:
            entry.page = previous
        previous = entry.page
        entry.page = min(max(entry.page, 1), page_count)


def _map_sequential(
    doc: ExtractedDocument, analysis: Analysis, entries: list[Entry], skip: set[int], last: int, below: float
) -> None:
    """A contents list without page numbers: find each title in order after the list (same page or later)."""
    cursor = last
    skip = skip - {last}
    for entry in entries:
        hits = [h for h in _hits(analysis, entry, skip) if h[0] > last or (h[0] == last and h[1] > below)]
        ahead = [h for h in hits if h[0] >= cursor]
        if ahead:
            page, y, _margin = min(ahead, key=lambda h: (h[0], h[1]))
            entry.page, entry.y, entry.found = page, y, True
            cursor = page
        elif hits:  # listed out of order: keep where it is printed, do not move the cursor back
            page, y, _margin = max(hits, key=lambda h: (h[0], h[1]))
            entry.page, entry.y, entry.found = page, y, True
    _fill_missing(entries, doc.page_count)


def _int_to_roman(value: int) -> str:
    """Roman numeral of a positive integer (page labels like "xiv")."""
    table = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
             (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))
    out = []
    for number, letters in table:
        while value >= number:
            out.append(letters)
            value -= number
    return "".join(out)
