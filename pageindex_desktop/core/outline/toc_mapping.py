"""Contents entries -> physical pages: page labels, printed folios and where the titles are actually printed.

Offsets can drift inside one file (pages dropped or inserted), so each entry's page comes from local evidence:
the offsets its neighbours' titles agree on, the page numbers printed on nearby pages, or the page labels when
those explain the titles better. Each entry is then put on the occurrence of its title nearest that page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import KEY_CHARS, Analysis
from pageindex_desktop.core.outline.numbering import title_key

SEARCH_RADIUS = 3
Hit = tuple[int, float, int]  # (page, y, index of the row among its page's rows: reading order, columns too)


class MappedEntry(Protocol):
    """What mapping needs from a parsed contents entry."""

    title: str
    printed: tuple[int, bool] | None
    page: int | None
    y: float | None
    order: int | None
    found: bool


class ChapterEntry(MappedEntry, Protocol):
    """A contents entry that may carry a chapter-page number ("3-12") instead of a page number."""

    chapter_page: str | None


def map_chapter_pages(
    doc: ExtractedDocument, analysis: Analysis, entries: Sequence[ChapterEntry], skip: set[int], pages: dict[str, int]
) -> bool:
    """Place entries numbered "3-12" on the page that prints that number (`pages`, from the labels and folios),
    on their printed title near it. Returns True when most entries' numbers were printed somewhere."""
    hits_of = [_hits(analysis, entry, skip) for entry in entries]
    known = 0
    for entry, hits in zip(entries, hits_of):
        expected = pages.get(entry.chapter_page) if entry.chapter_page else None
        known += expected is not None
        _place(entry, hits, expected)
    _place_unnumbered(entries, hits_of)
    _fill_missing(entries, doc.page_count)
    return known * 2 >= len(entries)


def _hits(analysis: Analysis, entry: MappedEntry, skip: set[int]) -> list[Hit]:
    """(page, y, row index) of rows outside the contents pages whose text is the entry's title."""
    key = title_key(entry.title)
    if len(key) < 2:
        return []
    found: list[Hit] = []
    for page, index in analysis.title_index().get(key[:KEY_CHARS], ()):
        if page in skip:
            continue
        row = analysis.rows[page - 1][index]
        row_key = analysis.row_key(page, index)
        if row_key == key or row_key.startswith(key) and len(row_key) < len(key) + 60 or (
            key.startswith(row_key) and len(row_key) >= 0.5 * len(key)
        ):
            found.append((page, row.y0, index))
    # a running header repeating the chapter's title, the page's first or last row, over the chapter's own
    # larger heading on that page is no place of the entry: it took the entry to the page's top (a header
    # on too few pages to be found as one: a chapter of one or two pages)
    largest: dict[int, float] = {}
    for page, _y, index in found:
        largest[page] = max(largest.get(page, 0.0), analysis.rows[page - 1][index].size)
    return [(page, y, index) for page, y, index in found
            if (index not in (0, len(analysis.rows[page - 1]) - 1)
                or analysis.rows[page - 1][index].size >= largest[page] - 0.5)
            and not _in_margin(analysis, page, index)]


def _in_margin(analysis: Analysis, page: int, index: int) -> bool:
    """True when row `index` of `page` is set smaller than the body, above all of the page's body-size text or
    below all of it: a running head or foot. One that names the chapter ("1. Operations and the storage audit
    ...", small at the top of each of its pages) took the entry to the chapter's second page when its own
    heading, wrapped over four lines of a narrow column, did not read as the title."""
    rows = analysis.rows[page - 1]
    small = analysis.body_size - 0.5
    if rows[index].size >= small:
        return False
    return not any(r.size >= small for r in rows[:index]) or not any(r.size >= small for r in rows[index + 1:])


def _label_pages(doc: ExtractedDocument) -> dict[str, int]:
    """Printed page label -> first physical page carrying it."""
    labels: dict[str, int] = {}
    for page in doc.pages:
        if page.label:
            labels.setdefault(page.label.strip().lower(), page.number)
    return labels


def map_printed(doc: ExtractedDocument, analysis: Analysis, entries: Sequence[MappedEntry], skip: set[int]) -> bool:
    """Map printed page numbers to physical pages, then place each entry on its printed title.

    Offsets can drift inside one file (pages dropped or inserted), so each entry's page comes from local
    evidence: the offsets its neighbours' titles agree on, the page numbers printed on nearby pages, or the
    page labels when those explain the titles better. Returns True when page labels or printed folios
    anchored the mapping (entries whose titles were not found are then still trustworthy).
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
                other = entries[j].printed
                if j != i and other is not None and other[1] == roman:
                    support.update(candidates[j])
            folio = folios.page_for(value, roman)
            if folio is not None:
                support[folio - value] += 2
            best = max(candidates[i], key=lambda o: (support[o], -abs(o))) if candidates[i] else None
            if best is not None and (support[best] > 0 or not support or support.most_common(1)[0][1] < 2):
                offset = best
            elif support:
                # the title is printed only at offsets no neighbour and no folio agrees with: a mention of it
                # elsewhere (Intel's "Consolidated Financial Statements" at the foot of a page before them), not
                # where it starts: the page goes by the numbers, not onto the mention
                offset = support.most_common(1)[0][0]
                hits = []
            else:
                offset = folios.any_offset(roman)
            expected = value + offset
        _place(entry, hits, min(max(expected, 1), doc.page_count))
    _place_unnumbered(entries, hits_of)
    _fill_missing(entries, doc.page_count)
    return use_labels or folios.anchored()


def _place_unnumbered(entries: Sequence[MappedEntry], hits_of: list[list[Hit]]) -> None:
    """An entry listed without a page number ("Appendixes") goes where its title is printed between its
    neighbours, the earliest such page (a divider page before the next entry)."""
    for i, (entry, hits) in enumerate(zip(entries, hits_of)):
        if entry.page is not None or not hits:
            continue
        before = next((e.page for e in reversed(entries[:i]) if e.page is not None), 1)
        after = next((e.page for e in entries[i + 1:] if e.page is not None), None)
        inside = [h for h in hits if h[0] >= before and (after is None or h[0] <= after)]
        if inside:
            page, y, order = min(inside, key=lambda h: (h[0], h[1]))
            entry.page, entry.y, entry.order, entry.found = page, y, order, True


class _FolioMap:
    """Printed page numbers seen in headers/footers, to turn a printed number into a physical page."""

    def __init__(self, folios: dict[int, tuple[int, bool]]) -> None:
        """Index the folios as sorted (printed, physical) pairs, arabic and roman apart."""
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

    def anchored(self) -> bool:
        """True when enough folios were seen to map page numbers without the titles."""
        return len(self.points[False]) + len(self.points[True]) >= 3

    def any_offset(self, roman: bool) -> int:
        """The most common offset, 0 when no folio was seen."""
        counter = Counter(p - v for v, p in self.points[roman])
        return counter.most_common(1)[0][0] if counter else 0


def _local_agree(entries: Sequence[MappedEntry], hits_of: list[list[Hit]], candidates: list[set[int]]) -> int:
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


def _labels_agree(entries: Sequence[MappedEntry], hits_of: list[list[Hit]], labels: dict[str, int]) -> int:
    """How many entries' titles are printed on the very page the page labels give."""
    agree = 0
    for entry, hits in zip(entries, hits_of):
        if entry.printed is None or not hits:
            continue
        value, roman = entry.printed
        page = labels.get((_int_to_roman(value) if roman else str(value)).lower())
        agree += page is not None and any(h[0] == page for h in hits)
    return agree


def _place(entry: MappedEntry, hits: list[Hit], expected: int | None) -> None:
    """Put the entry on the printed occurrence nearest its expected page (or on the expected page)."""
    if expected is None:
        return
    near = [h for h in hits if abs(h[0] - expected) <= SEARCH_RADIUS]
    if near:
        page, y, order = min(near, key=lambda h: (abs(h[0] - expected), h[0]))
        entry.page, entry.y, entry.order, entry.found = page, y, order, True
    else:
        entry.page = expected


def _fill_missing(entries: Sequence[MappedEntry], page_count: int) -> None:
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


def map_sequential(
    doc: ExtractedDocument, analysis: Analysis, entries: Sequence[MappedEntry], skip: set[int], last: int, below: float
) -> None:
    """A contents list without page numbers: find each title in order after the list (same page or later)."""
    cursor = last
    skip = skip - {last}
    for entry in entries:
        hits = [h for h in _hits(analysis, entry, skip) if h[0] > last or (h[0] == last and h[1] > below)]
        ahead = [h for h in hits if h[0] >= cursor]
        if ahead:
            page, y, order = min(ahead, key=lambda h: (h[0], h[1]))
            entry.page, entry.y, entry.order, entry.found = page, y, order, True
            cursor = page
        elif hits:  # listed out of order: keep where it is printed, do not move the cursor back
            page, y, order = max(hits, key=lambda h: (h[0], h[1]))
            entry.page, entry.y, entry.order, entry.found = page, y, order, True
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
