"""A table's column head set on two lines ("Exhibit" over "Number", beside "Exhibit Description"): its upper
line stands alone on its baseline, so it passes the table-row test, but it is no section heading.

The line below it belongs to the table: it shares its baseline with another text in the same style, it sits
right under the upper line, and the upper line fits over that one cell instead of running across the table.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.layout_filters import Candidate
from pageindex_desktop.core.outline.row_index import ByTop, PagesByTop
from pageindex_desktop.core.outline.rows import Row


def drop_column_heads(candidates: list[Candidate], index: PagesByTop[Row]) -> list[Candidate]:
    """`candidates` without the upper lines of two-line table column heads."""
    return [c for c in candidates if not _column_head(c, index.page(c.row.page))]


def _column_head(cand: Candidate, index: ByTop[Row]) -> bool:
    """True when the row under `cand` is a cell of a header row and `cand` fits over that cell, or when a
    cell of the header row right under `cand` other than its first (the stub column's head) has `cand`'s
    middle over it and no other cell of that row under `cand` ("Average During" over "Fiscal 2023" in a row
    "In Millions | May 28, 2023 | Fiscal 2023 | ..."; the cells come after the stub in reading order)."""
    rows = index.items
    below_at = cand.last_index + 1
    if below_at >= len(rows) or len(cand.text.split()) > 4:
        return False
    below = rows[below_at]
    row = cand.row
    height = row.y1 - row.y0
    if _cell_below(cand, below, height):
        slack = row.size
        if below.x0 - slack <= row.x0 and row.x1 <= below.x1 + slack:
            return True
    near = index.starting(cand.bottom - 0.3 * height, cand.bottom + 0.5 * height)
    band = sorted((r for r in near if _cell_below(cand, r, height)), key=lambda r: r.x0)
    if len(band) < 2:
        return False
    middle = (row.x0 + row.x1) / 2
    under = [r for r in band if r.x0 < row.x1 and r.x1 > row.x0]
    return len(under) == 1 and under[0] is not band[0] and under[0].x0 <= middle <= under[0].x1


def _cell_below(cand: Candidate, below: Row, height: float) -> bool:
    """`below` is a header cell set like `cand` on the line right under it."""
    row = cand.row
    if not below.crowded or abs(below.size - row.size) > 0.3 or below.bold != row.bold:
        return False
    return -0.3 * height <= below.y0 - cand.bottom <= 0.5 * height
