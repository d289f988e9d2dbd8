"""A heading set as a table row: its keyword label in a cell of its own, level with the middle or the foot of its
wrapped title in the next cell ("ITEM 5." beside "Market for Registrant's Common Equity, ..." over "Issuer
Purchases of Equity Securities").

Filings printed from EDGAR's HTML set their items so: a browser aligns cells to their middle, so where the title
wraps, the label sits between its two lines (or level with the middle one of three, or the last one when the row
is aligned to its foot). Read as rows, the title's first line, the bare label and the title's last line were
three headings ("Market for ... and", "ITEM 5.", "Issuer Purchases ..."). `label_cells` joins them back into
one row, the label first, before the layout pass judges the page's rows; the contents parser does the same for
a contents page's cells (`contents_cells.py`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from pageindex_desktop.core.outline.numbering import leading_number, split_trailing_page
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.title_shape import bare_label

LABEL_CHARS = 16  # "ITEM 7A.", "Article XIV", "Section 12.": a bare label is short
NEAR = 4  # rows either side of the label searched for its title's lines
SAME_COLUMN = 3.0  # points a title cell's lines may start apart
OVERLAP = 0.2  # share of a line's height the label must share with one of the title's lines (one table row)
LINE_PITCH = 1.35  # a wrapped title's lines follow each other at most this many times their size apart
MAX_LINES = 4
_PAGE_NUMBER = re.compile(r"^[0-9]{1,4}$")


def label_cells(rows: list[Row]) -> tuple[dict[int, Row], set[int]]:
    """The page's labelled title cells: the index of each heading's first row (in reading order) mapped to the
    heading as one row (label, then the title's lines), and the indices of the other rows it took in."""
    heads: dict[int, Row] = {}
    taken: set[int] = set()
    for k, anchor in enumerate(rows):
        label, rest, paged = _label_and_rest(anchor)
        if k in taken or label is None:
            continue
        lines = _title_lines(rows, k, bool(rest), taken)
        if not lines:
            continue
        if paged:
            taken.update([k, *lines])  # a contents or cross-reference table's row: no heading at all
            continue
        above = [rows[j].text.strip() for j in lines if rows[j].y0 < anchor.y0]
        below = [rows[j].text.strip() for j in lines if rows[j].y0 >= anchor.y0]
        cell = [rows[j] for j in lines]
        first = min(k, lines[0])
        heads[first] = replace(rows[first], text=" ".join(part for part in [label, *above, rest, *below] if part),
                               x0=anchor.x0, y0=min(anchor.y0, *(r.y0 for r in cell)),
                               y1=max(anchor.y1, *(r.y1 for r in cell)), x1=max(anchor.x1, *(r.x1 for r in cell)),
                               title_x0=cell[0].x0, crowded=False, bold=anchor.bold, size=anchor.size,
                               parts=anchor.parts + sum(r.parts for r in cell))
        taken.update(j for j in [k, *lines] if j != first)
    return heads, taken


def _label_and_rest(row: Row) -> tuple[str | None, str, bool]:
    """The row's keyword label printed in a cell of its own ("ITEM 7."), what its row prints after it in the
    title's cell ("Results of Operations", or "" when the label stands alone), and whether the row ends in a
    page number (a contents or cross-reference table's row); (None, "", False) for any other row."""
    text = row.text.strip()
    num = leading_number(text)
    if num is None or not num.kind.startswith("keyword"):
        return None, "", False
    rest = num.rest.strip()
    label = text[: len(text) - len(num.rest)].strip() if rest else text
    if len(label) > LABEL_CHARS or not bare_label(label):
        return None, "", False
    title, printed, _dots = split_trailing_page(rest)
    if printed is not None:
        rest = title.strip()
    elif _PAGE_NUMBER.match(rest):
        printed, rest = rest, ""  # the label and its page number, the title's lines above and below
    if rest and row.title_x0 <= row.x0 + SAME_COLUMN:
        return None, "", False  # the title goes on right after the label: no cell of its own
    return label, rest, printed is not None


def _title_lines(rows: list[Row], k: int, shares_row: bool, taken: set[int]) -> list[int]:
    """Indices of the wrapped title's other lines beside the label row `rows[k]`, top first, or [] when the rows
    beside it are no such cell. The label stands alone between two lines or more, overlapping one of them
    (middle alignment), or shares its row with one line (`shares_row`) under one line or more (the middle one
    of three, or the last: foot alignment); a row opening with its label over the title's further lines is
    an ordinary wrapped heading, left to the layout pass. The lines are in the label's style, start at one
    column right of the label, follow one another at a line's pitch (LINE_PITCH) with no other row between
    them, up to MAX_LINES in all, and none ends in a page number."""
    anchor = rows[k]
    near = [j for j in range(max(0, k - NEAR), min(len(rows), k + NEAR + 1))
            if j != k and j not in taken and _beside(rows[j], anchor)]
    if shares_row:
        column = anchor.title_x0
    else:
        level = [j for j in near if _overlap(rows[j], anchor) > OVERLAP * (anchor.y1 - anchor.y0)]
        if not level:
            return []
        column = rows[level[0]].x0
    order = sorted([k, *(j for j in near if abs(rows[j].x0 - column) <= SAME_COLUMN)], key=lambda j: rows[j].y0)
    run = [order[0]]  # the run of solid lines holding the label's row
    for j in order[1:]:
        upper, lower = rows[run[-1]], rows[j]
        if lower.y0 - upper.y0 > LINE_PITCH * upper.size:
            if k in run:
                break
            run = [j]
        else:
            run.append(j)
    lines = [j for j in run if j != k]
    if k not in run or not lines or len(run) > MAX_LINES + (0 if shares_row else 1):
        return []
    if shares_row and not any(rows[j].y0 < anchor.y0 for j in lines) or not shares_row and len(lines) < 2:
        return []
    if set(range(min(run), max(run) + 1)) - set(run):
        return []  # another row (a paragraph's line, another cell) reads between: no cell of its own
    if any(split_trailing_page(rows[j].text.strip())[1] is not None for j in lines):
        return []
    if len({(rows[j].bold, rows[j].italic) for j in lines}) > 1:
        return []  # one cell's lines share one style
    return lines


def _beside(row: Row, label: Row) -> bool:
    """A line of a title cell right of the label, on its page, in its size, and in its weight and slant when
    the label's row is the label alone (a row joining the label with other cells takes the style of most of
    its letters)."""
    if row.page != label.page or row.x0 <= label.x0 + SAME_COLUMN or abs(row.size - label.size) > 0.5:
        return False
    return label.parts > 1 or (row.bold == label.bold and row.italic == label.italic)


def _overlap(a: Row, b: Row) -> float:
    """Points of height the two rows share."""
    return min(a.y1, b.y1) - max(a.y0, b.y0)
