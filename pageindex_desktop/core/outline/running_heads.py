"""Running heads whose words change from page to page but whose page number keeps step with the pages.

A two-sided book prints the current section over each odd page ("1.2. OVERVIEW OF THE METHOD 7") and the
chapter over each even one ("8 CHAPTER 1. INTRODUCTION"): the words change with every section, so the
repeated-row test in `running.py` misses the heads of sections shorter than three pages, and the layout pass
took them for headings. What does not change is the folio they carry: its offset from the physical page is
the same on every page of one band. That offset, shared by three pages or more in one band, marks a header.
Only rows no larger than the text's common size count: a report whose numbered chapters each open a page at
its top ("2 Field Methods" on page 3) keeps the same offset, but sets its titles larger.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from pageindex_desktop.core.outline.rows import Row

_EDGE_NUMBER = re.compile(r"^(?P<a>[0-9]{1,4})\s+\D|\D\s+(?P<b>[0-9]{1,4})$")
MIN_PAGES = 3
SHARE = 0.6  # of a band's rows carrying an edge number, those at the common offset


def paged_heads(
    rows_by_page: list[list[Row]], heights: list[float], band: float, known: set[tuple[int, int]]
) -> dict[tuple[int, int], int]:
    """(page, row index) -> printed page number of the margin rows (top or bottom `band` share of the page)
    that open or close on a number whose offset from their page recurs on three pages or more of one band,
    set no larger than the text's most common size."""
    by_band: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    sizes = Counter(round(row.size, 1) for rows in rows_by_page for row in rows)
    if not sizes:
        return {}
    common = sizes.most_common(1)[0][0]
    for page_index, rows in enumerate(rows_by_page):
        height = heights[page_index]
        for i, row in enumerate(rows):
            if (row.page, i) in known or len(row.text) > 150 or row.size > common + 0.5:
                continue
            if band * height < row.y0 and row.y1 < (1 - band) * height:
                continue
            m = _EDGE_NUMBER.search(row.text)
            if m:
                by_band[int(row.y0 // 6)].append((row.page, i, int(m.group("a") or m.group("b"))))
    found: dict[tuple[int, int], int] = {}
    for hits in by_band.values():
        offsets = Counter(page - number for page, _i, number in hits)
        offset, count = offsets.most_common(1)[0]
        pages = {page for page, _i, number in hits if page - number == offset}
        if len(pages) >= MIN_PAGES and count >= SHARE * len(hits):
            found.update({(page, i): number for page, i, number in hits if page - number == offset})
    return found


TRACK_SHARE = 0.4  # of the pages with text whose first (last) row sits in one band and style


def head_tracks(rows_by_page: list[list[Row]], heights: list[float], band: float,
                known: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """(page, row index) of each page's first or last row when, on 40 % of the pages with text, that row sits
    in one band of the margin in one regular (not bold) face no larger than the text's common size, one and a
    half line heights or more apart from the rest of the page: the slot of a running head. A KOMA book heads
    its pages with the current chapter or section ("1 Introduction", "3.4 Complexity" over one page) and
    prints its folio in the footer, so neither the words nor a number repeat; the slot does. A filing's items
    set bold at the top of their pages, a line or so over their text, are headings, not a slot. A page whose
    outermost row is already `known` and sits in the slot (a chapter's name repeated over its left-hand pages)
    counts for the slot too: without it the right-hand pages' section heads alone fell short of 40 %."""
    sizes = Counter(round(row.size, 1) for rows in rows_by_page for row in rows)
    if not sizes:
        return set()
    common = sizes.most_common(1)[0][0]
    tracks: dict[tuple[str, int, float, bool], list[tuple[int, int]]] = defaultdict(list)
    support: Counter[tuple[str, int, float, bool]] = Counter()
    for page_index, rows in enumerate(rows_by_page):
        everything = sorted(enumerate(rows), key=lambda item: item[1].y0)
        text = [(i, row) for i, row in everything if (row.page, i) not in known]
        height = heights[page_index]
        for side, outer in (("top", everything[:2]), ("bottom", everything[-2:][::-1])):
            if len(outer) == 2 and (outer[0][1].page, outer[0][0]) in known:
                key = _slot(side, outer[0][1], outer[1][1], band * height, height, common)
                if key is not None:
                    support[key] += 1
        if len(text) < 2:
            continue
        for side, (i, row), (_j, near) in (("top", text[0], text[1]), ("bottom", text[-1], text[-2])):
            key = _slot(side, row, near, band * height, height, common)
            if key is not None:
                tracks[key].append((row.page, i))
    pages = sum(1 for rows in rows_by_page if rows)
    found: set[tuple[int, int]] = set()
    for key, hits in tracks.items():
        if len(hits) + support[key] >= max(MIN_PAGES, TRACK_SHARE * pages) and len(hits) >= MIN_PAGES:
            found.update(hits)
    return found


def _slot(side: str, row: Row, near: Row, reach: float, height: float,
          common: float) -> tuple[str, int, float, bool] | None:
    """The slot (side, band, size, weight) a page's outermost row `row` would fill, `near` the next row in:
    None when it is no running head's (inside the text, bold, larger than the text, too close to it, long)."""
    inside = row.y1 > reach if side == "top" else row.y0 < height - reach
    gap = near.y0 - row.y1 if side == "top" else row.y0 - near.y1
    if inside or row.bold or row.size > common + 0.5 or gap < 1.5 * (row.y1 - row.y0) or len(row.text) > 100:
        return None
    return side, int(row.y0 // 6), round(row.size, 1), row.bold
