"""Running headers and footers: rows that repeat at the same place on nearby pages, and printed page numbers.

They look like headings (short, isolated, often bold) but are page furniture, so both heading finders drop them.
The printed page numbers they carry are kept: they tell which physical page a printed number refers to.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from pageindex_desktop.core.outline.numbering import parse_page_number
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.running_heads import head_tracks, paged_heads
from pageindex_desktop.core.outline.tolerant import near_runs

_DIGITS = re.compile(r"\d+")
_EDGE_NUMBER = re.compile(r"^(?P<a>[0-9]{1,4})\s+\D|\D\s+(?P<b>[0-9]{1,4})$")
_PAGE_WORDS = re.compile(
    r"^(?:[-–—]\s*)?(?:page|p\.|seite|página|pagina)?\s*(?P<n>[0-9]{1,4}|[ivxlcdm]{1,7})"
    r"(?:\s*(?:of|/|von|de|sur)\s*[0-9]{1,4})?(?:\s*[-–—])?$",
    re.IGNORECASE,
)
MARGIN = 0.12  # top and bottom share of the page where headers, footers and folios live
BAND = 0.16  # wider band searched for repeated rows (tall headers, headers under a rule)
BODY_REPEAT_CHARS = 80  # rows of the body this short are looked up as a repeated header's text printed there too
SAME_SPOT = 0.004  # share of the page height a repeated row may move between pages (3 pt on Letter)


@dataclass
class Furniture:
    """What running-header analysis learned about a document."""

    running: set[tuple[int, int]]  # (page, row index) of rows that are headers, footers or folios
    folios: dict[int, tuple[int, bool]]  # physical page -> printed page number (value, is_roman)
    texts: set[tuple[str, int]]  # (running_key, band) of every header/footer: its text and where it sits


def band_of(y: float) -> int:
    """The 6-point vertical band a running header is recognised in."""
    return int(y // 6)


def running_key(text: str) -> str:
    """Header/footer identity: lower-case text with every number replaced by '#'."""
    return _DIGITS.sub("#", text.lower())


def folio_value(row: Row, page_height: float) -> tuple[int, bool] | None:
    """The printed page number a margin row shows ("12", "- 12 -", "Page 12 of 40", "xiv"), or None."""
    if len(row.text) > 20:
        return None
    if page_height and MARGIN * page_height < row.y0 and row.y1 < (1 - MARGIN) * page_height:
        return None
    m = _PAGE_WORDS.match(row.text.strip())
    if not m:
        return None
    return parse_page_number(m.group("n"))


def find_furniture(rows_by_page: list[list[Row]], heights: list[float]) -> Furniture:
    """Rows repeated (digits ignored) at the same height on pages close to each other, plus page-number rows.

    A text also printed in the body of more pages than it stands at its spot is a sub-heading repeated under
    every chapter ("1. Objectives") that now and then opens a page, not a header."""
    # where each text (digits ignored) opens, as a share of its page's height: the same header grouped by
    # nearness (tolerant.py), so one printed a point lower on a page stays the same header at any scale
    spots: dict[str, list[tuple[float, float, int, int]]] = defaultdict(list)
    where: dict[tuple[str, int, int], list[tuple[int, int]]] = {}  # (text, band, group) -> hits
    running: set[tuple[int, int]] = set()
    folios: dict[int, tuple[int, bool]] = {}
    in_body: dict[str, set[int]] = defaultdict(set)  # short text (digits ignored) -> pages it stands in the body
    for page_index, rows in enumerate(rows_by_page):
        height = heights[page_index]
        top, bottom = BAND * height, (1 - BAND) * height
        for i, row in enumerate(rows):
            number = row.page
            if top < row.y0 and row.y1 < bottom:
                if len(row.text) <= BODY_REPEAT_CHARS:
                    in_body[running_key(row.text)].add(number)
                continue  # furniture lives in the page margins
            if len(row.text) > 150:
                continue
            folio = folio_value(row, height)
            if folio is not None:
                running.add((number, i))
                folios.setdefault(number, folio)
                continue
            spots[running_key(row.text)].append((row.y0 / height if height else 0.0, row.y0, number, i))
    for text, found in spots.items():
        for group, near in enumerate(near_runs(found, lambda spot: spot[0], SAME_SPOT)):
            where[(text, band_of(near[0][1]), group)] = sorted((number, i) for _share, _y, number, i in near)
    texts: set[tuple[str, int]] = set()
    repeated: dict[tuple[str, int, int], list[tuple[int, int]]] = {}
    for (text, band, group), hits in where.items():
        if len(hits) < 3:
            continue
        pages = sorted({p for p, _ in hits})
        if len(pages) < 3 or len(in_body.get(text, ())) > len(pages):
            continue  # printed in the body of more pages than at its spot: a sub-heading repeated, at times atop
        close = sum(1 for a, b in zip(pages, pages[1:]) if b - a <= 2)
        if close * 2 >= len(pages) - 1 and _same_or_folio([(p, rows_by_page[p - 1][i].text) for p, i in hits]):
            repeated[(text, band, group)] = hits
    # rows repeated at one spot, and folios: what may sit between a header and the page edge
    margin_rows = running | {hit for hits in repeated.values() for hit in hits}
    text_extent: dict[int, tuple[float, float, float]] = {}
    for (text, band, _group), hits in repeated.items():
        if _inside_text(hits, rows_by_page, heights, text_extent, margin_rows):
            continue
        running.update(hits)
        texts.add((text, band))
        for number, i in hits:  # "22 FREE CULTURE", "Chapter 3 | 41": the header carries the folio
            m = _EDGE_NUMBER.search(rows_by_page[number - 1][i].text)
            if m and number not in folios:
                folios[number] = (int(m.group("a") or m.group("b")), False)
    for (number, i), value in paged_heads(rows_by_page, heights, BAND, running).items():
        running.add((number, i))  # "1.2. OVERVIEW OF THE METHOD 7": words change, the folio keeps step
        folios.setdefault(number, (value, False))
    running |= head_tracks(rows_by_page, heights, BAND, running)  # "3.4 Complexity" over one page: the slot repeats
    return Furniture(running=running, folios=_consistent(folios), texts=texts)


def _inside_text(
    hits: list[tuple[int, int]], rows_by_page: list[list[Row]], heights: list[float],
    text_extent: dict[int, tuple[float, float, float]], margin_rows: set[tuple[int, int]]
) -> bool:
    """True when on most of its pages a repeated row has page text between it and the page edge: a title that
    changes from page to page above it ("Function open_file" over "Summary"), so it is a sub-heading repeated
    under each title, not a header; a header or footer has only other furniture between it and the edge.
    Headings open in the left half of the text; a repeated row right of the middle is never counted.

    `text_extent` caches, per page, the highest bottom and lowest top of its rows that are not furniture, and
    the middle of its text."""
    inside = 0
    for page, index in hits:
        rows = rows_by_page[page - 1]
        if page not in text_extent:
            text = [r for i, r in enumerate(rows) if (page, i) not in margin_rows]
            text_extent[page] = (min((r.y1 for r in text), default=1e9), max((r.y0 for r in text), default=-1e9),
                                 (min(r.x0 for r in rows) + max(r.x1 for r in rows)) / 2)
        first_bottom, last_top, middle = text_extent[page]
        row = rows[index]
        if row.x0 > middle:
            continue  # right of the text's middle: a table's column head ("Years ended"), not a heading
        if (first_bottom <= row.y0) if row.y0 < heights[page - 1] / 2 else (last_top >= row.y1):
            inside += 1
    return inside * 2 > len(hits)


def _same_or_folio(hits: list[tuple[int, str]]) -> bool:
    """Repeated rows are furniture when their text is identical, or when the number in them moves with the page
    ("22 FREE CULTURE", "23 FREE CULTURE"), or holds still over runs of pages (`_held_runs`: a running
    "Chapter 3" over each page of its chapter); numbered headings at a fixed spot ("Definition 3") are not."""
    if len({text for _page, text in hits}) == 1 or _held_runs(hits):
        return True
    ordered = sorted(hits)
    numbers = [[int(n) for n in _DIGITS.findall(text)] for _page, text in ordered]
    for position in range(min(len(n) for n in numbers)):  # "Chapter 4: Function reference 12": the 2nd moves
        pairs = [(page, n[position]) for (page, _text), n in zip(ordered, numbers)]
        in_step = sum(1 for (p1, n1), (p2, n2) in zip(pairs, pairs[1:]) if p2 - p1 == n2 - n1)
        if len(pairs) >= 2 and in_step >= 0.6 * (len(pairs) - 1):
            return True
    return False


def _held_runs(hits: list[tuple[int, str]]) -> bool:
    """True when each text of the repeated rows is printed on two pages or more, never on two neighbouring
    pages, and its pages form one run that no other text interrupts: a two-sided book's running label that
    names the chapter in hand on every other page ("Chapter 3" on the left-hand pages of chapter 3, then
    "Chapter 4"), whose number moves with the chapters, not the pages. Numbered labels printed once each
    ("Definition 3", "Definition 4"), coming back after another, or heading consecutive pages (an exhibit's
    "Exhibit 10.1" over each of its pages, whose first is its title) are no such run."""
    ordered = sorted(hits)
    texts = [text for _page, text in ordered]
    runs = [text for i, text in enumerate(texts) if i == 0 or text != texts[i - 1]]
    neighbours = any(t1 == t2 and p2 - p1 <= 1 for (p1, t1), (p2, t2) in zip(ordered, ordered[1:]))
    return not neighbours and len(runs) == len(set(runs)) and all(texts.count(text) >= 2 for text in runs)


def _consistent(folios: dict[int, tuple[int, bool]]) -> dict[int, tuple[int, bool]]:
    """Folios whose offset (physical - printed) matches a neighbouring folio's: stray numbers are dropped."""
    pages = sorted(folios)
    kept: dict[int, tuple[int, bool]] = {}
    for i, page in enumerate(pages):
        value, roman = folios[page]
        offset = page - value
        for j in (i - 1, i + 1):
            if 0 <= j < len(pages):
                other_value, other_roman = folios[pages[j]]
                if other_roman == roman and pages[j] - other_value == offset:
                    kept[page] = folios[page]
                    break
    return kept


def folio_offsets(folios: dict[int, tuple[int, bool]]) -> tuple[Counter[int], Counter[int]]:
    """Votes for `physical - printed` from page-number rows, separately for arabic and roman numbers."""
    arabic: Counter[int] = Counter()
    roman: Counter[int] = Counter()
    for page, (value, is_roman) in folios.items():
        (roman if is_roman else arabic)[page - value] += 1
    return arabic, roman
