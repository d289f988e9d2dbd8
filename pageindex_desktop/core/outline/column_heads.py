"""A table's column head set on two lines ("Exhibit" over "Number", beside "Exhibit Description"): its upper
line stands alone on its baseline, so it passes the table-row test, but it is no section heading.

The line below it belongs to the table: it shares its baseline with another text in the same style, it sits
right under the upper line, and the upper line fits over that one cell instead of running across the table.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.layout_filters import Candidate
from pageindex_desktop.core.outline.rows import Row


def drop_column_heads(candidates: list[Candidate], rows_by_page: list[list[Row]]) -> list[Candidate]:
    """`candidates` without the upper lines of two-line table column heads."""
    return [c for c in candidates if not _column_head(c, rows_by_page[c.row.page - 1])]


def _column_head(cand: Candidate, rows: list[Row]) -> bool:
    """True when the row under `cand` is a cell of a header row and `cand` fits over that cell."""
    below_at = cand.last_index + 1
    if below_at >= len(rows) or len(cand.text.split()) > 4:
        return False
    below = rows[below_at]
    row = cand.row
    height = row.y1 - row.y0
    if not below.crowded or abs(below.size - row.size) > 0.3 or below.bold != row.bold:
        return False
    if not -0.3 * height <= below.y0 - cand.bottom <= 0.5 * height:
        return False
    slack = row.size
    return below.x0 - slack <= row.x0 and row.x1 <= below.x1 + slack
