"""Contents rows of a table whose label and page cells sit level with the middle or the last line of a wrapped title.

A contents page set as an HTML table (a filing printed from EDGAR's HTML, a web page printed to PDF) aligns every
cell of a row to its middle or its bottom, not its top, when the table or the browser says so: middle is what
browsers do by default. Where the title cell wraps, "Item 5." and its page number then print beside the title's
second line, or between its two lines (a row of their own, overlapping both), and the title's first line is a
row without a number above them. Read as rows, the first line was taken for the end of the entry above it or an
entry of its own, and the label kept only the title's last line ("Item 5 Matters and Issuer Purchases").

`join_cell_lines` puts such a row back together before the entries are parsed: the anchor is a row that ends in
a page number; the lines above it that start at its title column, right of where it starts, carry no number of
their own and stand closer together than entries do (the contents' usual gap, `pitch`) are its title's opening
lines when the nearest overlaps the anchor (middle alignment) or the topmost is set apart from the row above it
as entries are (bottom alignment, or the middle line of three); the lines below that overlap the anchor are the
title's last ones. A title's continuation under a top-aligned row stays with the row it continues (the topmost
line then sits close under that row), which `toc_page._continues_above` joins.
"""

from __future__ import annotations

from dataclasses import replace

from pageindex_desktop.core.outline.numbering import LEADERS, leading_number, split_trailing_page
from pageindex_desktop.core.outline.rows import Row

OVERLAP = 0.2  # share of a line's height two rows must overlap by to share a table row (middle alignment)
SAME_COLUMN = 3.0  # points two lines of one title cell may start apart
PITCH_SLACK = 0.15  # share of a line's height a wrapped line's gap stays under the entries' usual gap


def join_cell_lines(rows: list[Row], pitch: float | None) -> list[Row]:
    """`rows` with each label-and-page row that sits beside a wrapped title joined with the title's lines."""
    taken: set[int] = set()
    joined: dict[int, Row] = {}
    for i, anchor in enumerate(rows):
        title, printed, _dots = split_trailing_page(anchor.text.strip())
        if printed is None or i in taken:
            continue
        above = _opening_lines(rows, i, pitch, taken)
        below = _closing_lines(rows, i, above)
        if not above and not below:
            continue
        label, rest = _label_and_rest(_before_number(anchor.text.strip(), printed, title))
        text = " ".join(part for part in [label, *(rows[j].text.strip() for j in above), rest,
                                          *(rows[j].text.strip() for j in below), printed] if part)
        lines = [rows[j] for j in above + below]
        joined[i] = replace(anchor, text=text, y0=min(anchor.y0, *(r.y0 for r in lines)),
                            y1=max(anchor.y1, *(r.y1 for r in lines)), x1=max(anchor.x1, *(r.x1 for r in lines)),
                            parts=anchor.parts + len(lines))
        taken.update(above + below)
    return [joined.get(i, row) for i, row in enumerate(rows) if i not in taken]


def _tight(upper: Row, lower: Row, pitch: float | None) -> bool:
    """True when `lower` sits closer under `upper` than two entries of the contents sit, or, with too few
    entries on rows of their own to tell how they sit (`pitch` None), overlaps it (lines set solid)."""
    height = upper.y1 - upper.y0
    limit = pitch - PITCH_SLACK * height if pitch is not None else 0.0
    return upper.page == lower.page and lower.y0 - upper.y1 < limit and lower.y0 > upper.y0


def _title_line(row: Row, anchor: Row, column: float | None = None) -> bool:
    """A line of the anchor's title cell: no page number of its own, right of where the anchor starts, in the
    anchor's style, at `column` when one is known, and opening no entry (a section number)."""
    text = row.text.strip()
    _title, printed, dots = split_trailing_page(text)
    if printed is not None or dots or row.page != anchor.page or row.x0 <= anchor.x0 + SAME_COLUMN:
        return False
    if abs(row.size - anchor.size) > 0.5 or leading_number(text) is not None:
        return False
    return column is None or abs(row.x0 - column) <= SAME_COLUMN


def _overlaps(a: Row, b: Row) -> bool:
    """True when the two rows share more than OVERLAP of a line's height (cells of one table row)."""
    height = min(a.y1 - a.y0, b.y1 - b.y0)
    return min(a.y1, b.y1) - max(a.y0, b.y0) > OVERLAP * height


def _opening_lines(rows: list[Row], i: int, pitch: float | None, taken: set[int]) -> list[int]:
    """Indexes of the title lines printed above the anchor `rows[i]`, top first (see the module's docstring)."""
    anchor = rows[i]
    found: list[int] = []
    j = i - 1
    while j >= 0 and j not in taken and _title_line(rows[j], anchor, rows[found[0]].x0 if found else None) \
            and (_overlaps(rows[j], rows[found[0]] if found else anchor)
                 or _tight(rows[j], rows[found[0]] if found else anchor, pitch)):
        found.insert(0, j)
        j -= 1
    if not found:
        return []
    if _overlaps(rows[found[-1]], anchor):
        return found  # middle alignment, an even number of lines: the anchor sits between two of them
    top = rows[found[0]]
    before = rows[j] if j >= 0 else None
    if before is not None and (_tight(before, top, pitch) or _overlaps(before, top)):
        return []  # the line goes on from the row above it: a top-aligned title wrapped under its own number
    return found


def _closing_lines(rows: list[Row], i: int, above: list[int]) -> list[int]:
    """Indexes of the title lines below the anchor that overlap it (middle alignment), at the opening lines'
    column when there are any."""
    anchor = rows[i]
    column = rows[above[0]].x0 if above else None
    found: list[int] = []
    j = i + 1
    while j < len(rows) and _title_line(rows[j], anchor, column) and _overlaps(rows[j], anchor):
        found.append(j)
        column = rows[j].x0
        j += 1
    return found


def _before_number(text: str, printed: str, title: str) -> str:
    """The anchor's text before its page number, a label's own full stop kept ("Item 5.", which the page
    number's split reads as a leader), leaders dropped."""
    head = text[: text.rfind(printed)].rstrip() if printed in text else title
    return LEADERS.split(head)[0].rstrip()


def _label_and_rest(title: str) -> tuple[str, str]:
    """An anchor's text before its page number split into its label ("Item 5.") and the title text beside it."""
    title = title.strip()
    number = leading_number(title)
    if number is None:
        return "", title
    if not number.rest:
        return title, ""
    return title[: len(title) - len(number.rest)].rstrip(), number.rest
