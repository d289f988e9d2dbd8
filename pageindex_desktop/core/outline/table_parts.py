"""Parts of a table that pass the row-by-row tests: column heads off the margin, wrapped and total row labels,
header rows ending in year columns, the rows of a word processor's label-and-figure tables, and a table's title
printed again as "(continued)".

Financial statements and the tables of reports set their column heads and "Total" rows bold, often in the
body's size, so they read like the document's sub-heads; alone on their baseline (the figures sit in another
reading column, or on the label's second line) they pass `layout_evidence.drop_table_rows`. What gives them
away is the table around them: a heading starts at its column's margin or is centred on it, and it is neither
squeezed between figure rows nor carries a figure of its own. A heading printed over a table keeps its place:
its own line holds no figure, nothing but prose or space is just above it, and it starts at the margin or is
centred.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from pageindex_desktop.core.outline.layout_evidence import (
    AMOUNT_TOKEN,
    continued_title,
    figure_cell,
    has_figures,
    level_with,
    same_baseline,
    two_columns,
)
from pageindex_desktop.core.outline.layout_filters import UNNUMBERED, Candidate
from pageindex_desktop.core.outline.row_index import SLACK, ByTop, PagesByTop
from pageindex_desktop.core.outline.rows import Row

OFF_MARGIN = 0.25  # share of the column's width a column head starts right of the column's left edge
CENTRED = 0.03  # share of the column's width a centred heading's middle may sit off the column's middle
BELOW_BASELINES = 4  # how many lines under an off-margin candidate are looked at for the table's cells
BELOW_HEIGHTS = 6.0
HEAD_LARGER = 1.5  # column heads are set in about the body's size; a larger title over a chart is a heading
CELL_WIDTH = 0.5  # a line with figures narrower than this share of the column is a cell, not prose
SHORT_CELL = 0.3  # a line narrower than this share of the column beside another text is a table's cell
COLUMN_PROSE = 0.35  # a line of one text column's prose: at least this share of the page's text width
PROSE_WORDS = 5  # a line of prose: this many words or more, mostly in lower case, no figures at its end
HEADER_SMALLER = 0.3  # points under the body from which a bold row is set in a table's smaller type


def drop_table_parts(
    candidates: list[Candidate], index: PagesByTop[Row], widths: list[float], body: float
) -> list[Candidate]:
    """`candidates` without the table parts described in the module docstring."""
    pages: dict[int, _Page] = {}
    kept = []
    for cand in candidates:
        page = cand.row.page
        rows = index.page(page)
        if year_columns(cand.text) or continued_title(cand.text):
            continue
        if _total_row(cand, rows) or _wrapped_label(cand, rows) or _header_row(cand, rows, body):
            continue
        if page not in pages:
            pages[page] = _Page(rows, widths[page - 1])
        column = pages[page].column_extent(cand.row)
        if _label_tail(cand, rows, column) or _in_label_rows(cand, rows, column):
            continue
        if cand.style[2] in UNNUMBERED and cand.row.size < body + HEAD_LARGER and _off_margin_head(cand, pages[page]):
            continue
        kept.append(cand)
    return kept


class _Page:
    """What the column-head test reads of one page, gathered once: its rows indexed by top, whether it is set
    in two columns, the extent of its text and of each half's prose, and where its prose lines start."""

    __slots__ = ("rows", "width", "split", "left", "right", "_halves", "prose_x0")

    def __init__(self, rows: ByTop[Row], width: float) -> None:
        self.rows = rows
        self.width = width
        self.split = two_columns(rows.items, width)
        self.left = min((r.x0 for r in rows.items), default=0.0)
        self.right = max((r.x1 for r in rows.items), default=0.0)
        self._halves: dict[bool, tuple[float, float]] = {}
        self.prose_x0 = sorted(r.x0 for r in rows.items if _prose_line(r.text))

    def column_extent(self, row: Row) -> tuple[float, float]:
        """Left and right edge of the text column `row` sits in: of the page's text, or, on a page read as two
        columns, of the prose lines in `row`'s half (a table's cells on the right half make a page read as two
        columns, but they are no text column: the table's column heads are measured against the page)."""
        mid, slack = self.width / 2, 0.04 * self.width
        if self.split and row.x0 > mid - slack:
            right_half = True
        elif self.split and row.x1 < mid + slack:
            right_half = False
        else:
            return self.left, self.right
        if right_half not in self._halves:
            self._halves[right_half] = self._half_extent(right_half, mid, slack)
        return self._halves[right_half]

    def _half_extent(self, right_half: bool, mid: float, slack: float) -> tuple[float, float]:
        """The extent of one half's prose lines (two or more), else of the page's text."""
        rows = self.rows.items
        side = [r for r in rows if r.x0 > mid - slack] if right_half else [r for r in rows if r.x1 < mid + slack]
        prose = [r for r in side if r.x1 - r.x0 >= COLUMN_PROSE * (self.right - self.left) and not r.crowded]
        if len(prose) < 2:
            return self.left, self.right
        return min(r.x0 for r in prose), max(r.x1 for r in prose)

    def prose_starting_at(self, x0: float) -> int:
        """How many prose lines start within two points of `x0`."""
        a = bisect_left(self.prose_x0, x0 - 2 - SLACK)
        b = bisect_right(self.prose_x0, x0 + 2 + SLACK)
        return sum(1 for x in self.prose_x0[a:b] if abs(x - x0) <= 2)


def year_columns(text: str) -> bool:
    """A header row ending in two or more figure columns ("Percent of Net Sales 2023 2022", "In Millions
    2023 2022"): a title may end in one number, never in a run of them."""
    trailing = 0
    for token in reversed(text.split()):
        if not AMOUNT_TOKEN.match(token):
            break
        trailing += 1
    return trailing >= 2


def _figures_just_above(cand: Candidate, rows: ByTop[Row]) -> bool:
    """The line right over `cand` (less than its height of space between) carries figures: `cand` is inside
    a table, not a heading set apart over it."""
    row = cand.row
    height = row.y1 - row.y0
    near = rows.starting(row.y0 - 0.8 * height - 2 * rows.tallest, row.y0 + 0.3 * height)  # r.y1 > ... - its height
    above = [r for r in near if r.y1 <= row.y0 + 0.3 * height and r.y1 > row.y0 - 0.8 * height - (r.y1 - r.y0)]
    if not above:
        return False
    bottom = max(r.y1 for r in above)
    line = [r for r in above if r.y1 >= bottom - 0.5 * (r.y1 - r.y0)]
    return row.y0 - bottom <= 0.8 * height and any(_ends_in_figure(r.text) for r in line)


def _ends_in_figure(text: str) -> bool:
    """A line ending in a figure ("Converse stores (including factory stores) 82", "$ 1,204"); the last line
    of a paragraph ends in a stop, not in a bare number."""
    tokens = text.split()
    return bool(tokens) and (AMOUNT_TOKEN.match(tokens[-1]) is not None or figure_cell(text))


def _total_row(cand: Candidate, rows: ByTop[Row]) -> bool:
    """A row label carrying its own figure ("TOTAL 369") under a line of figures: a table's total row."""
    return has_figures(cand.text) and _figures_just_above(cand, rows)


def _label_tail(cand: Candidate, rows: ByTop[Row], column: tuple[float, float]) -> bool:
    """The last line of a row label wrapped in a table whose cells sit at the row's top ("Safety  36  263  61"
    over "Management"): right under a line set alike, starting where it starts, with less than half a line
    of space between, that line a label, not prose, sharing its baseline with figure cells in `cand`'s text
    column (`column`: a table in the other column is not its own) or ending in a figure read with it."""
    row = cand.row
    height = row.y1 - row.y0
    if height <= 0 or has_figures(cand.text):
        return False
    above = [r for r in rows.starting(row.y0 - 2 * height - rows.tallest, row.y0)
             if row.y0 - 0.5 * height <= r.y1 <= row.y0 + 0.3 * height and abs(r.x0 - row.x0) <= 2
             and (r.bold, r.italic) == (row.bold, row.italic) and abs(r.size - row.size) <= 0.3
             and not same_baseline(r, row)]
    if not above:
        return False
    line = max(above, key=lambda r: r.y1)
    if _prose_line(line.text) or line.text.rstrip().endswith("."):
        return False  # a paragraph's last line over a heading set in the body's face
    if line.parts >= 2 and _ends_in_figure(line.text):
        return True
    return any(line.x1 <= r.x0 < column[1] and same_baseline(r, line) and figure_cell(r.text)
               for r in rows.meeting(line.y0, line.y1))


def _wrapped_label(cand: Candidate, index: ByTop[Row]) -> bool:
    """The first line of a row label wrapped onto a second ("EARNINGS BEFORE INTEREST" over "AND TAXES  $ 5,454
    $ 5,114"), the line above carrying figures too: the label's last line shares its baseline with figure
    cells right of it. That line is the candidate's own last one when the two were joined as a wrapped title,
    else the next line, set alike, starting where it starts and right under it (a table cell itself)."""
    row = cand.row
    rows = index.items
    height = row.y1 - row.y0
    if cand.bottom > row.y1 + 0.5 * height:
        last = rows[cand.last_index] if 0 <= cand.last_index < len(rows) else None
    else:
        at = cand.last_index + 1
        last = rows[at] if at < len(rows) else None
        if last is not None and not (last.crowded and last.bold == row.bold and abs(last.size - row.size) <= 0.3
                                     and abs(last.x0 - row.x0) <= 2
                                     and -0.6 * height <= last.y0 - cand.bottom <= 0.5 * height):
            last = None
    if last is None or last is row:
        return False
    level = index.meeting(last.y0, last.y1)
    if not any(r.x0 >= last.x1 and same_baseline(r, last) and figure_cell(r.text) for r in level):
        return False
    return _figures_just_above(cand, index)


def _off_margin_head(cand: Candidate, page: _Page) -> bool:
    """A column head: it starts well right of its column's margin, is not centred on the column, and one of
    the few lines under it holds a table cell (a figure, or a text sharing its baseline) in its own x range.
    "FOR THE TRAILING FOUR QUARTERS ENDED" over a date column, "Gain/(Loss)" over figures, "Period End" over
    "Date" in a header row."""
    row = cand.row
    left, right = page.column_extent(row)
    span = right - left
    if span <= 0 or row.x0 - left < OFF_MARGIN * span:
        return False
    if abs((row.x0 + row.x1) / 2 - (left + right) / 2) <= CENTRED * span:
        return False
    if page.prose_starting_at(row.x0) >= 2:
        return False  # lines of prose start where it starts: the margin of a text column of its own
    height = row.y1 - row.y0
    low, high = cand.bottom - 0.3 * height, cand.bottom + BELOW_HEIGHTS * height
    below = sorted((r for r in page.rows.starting(low, high) if low <= r.y0 <= high and r.x0 < row.x1 and r.x1 > row.x0),
                   key=lambda r: r.y0)
    window = below[:BELOW_BASELINES]
    if any(_starts_rows(row, r, page.rows, max(w.y1 for w in window)) for r in window):
        return False  # a table (or text) starting where it starts: its title
    tops: list[float] = []
    for r in below:
        if not tops or r.y0 > tops[-1] + 0.5 * (r.y1 - r.y0):
            tops.append(r.y0)
        if len(tops) > BELOW_BASELINES:
            break
        if _cell(r, row, page.rows, span):
            return True
    return False


def _header_row(cand: Candidate, rows: ByTop[Row], body: float) -> bool:
    """A table's row of column heads read as one line ("Payment account  Pension  Capital storage"): set below
    the body's size, as the table is, and right over a line of the table's cells in that size, two or more of
    which it spans, one holding figures. A section heading over a table is set at the body's size or larger."""
    row = cand.row
    if row.size > body - HEADER_SMALLER:
        return False
    height = row.y1 - row.y0
    below = [r for r in rows.starting(cand.bottom - 0.3 * height, cand.bottom + 0.8 * height)
             if r.crowded and abs(r.size - row.size) <= 0.3 and row.x0 - 2 <= r.x0 and r.x1 <= row.x1 + row.size]
    return len(below) >= 2 and any(figure_cell(r.text) for r in below)


def _in_label_rows(cand: Candidate, rows: ByTop[Row], column: tuple[float, float]) -> bool:
    """A row of a label-and-figure table: `cand` shares its line with another cell (a figure read with it as a
    page number, "Framework Energy  918", or a head beside it, "Resilience | Status"), and lines of the
    table's label column stand next to it, over or under it with no other line between: each ends in a figure
    ("On Public  501"), is set in `cand`'s size and starts where `cand` starts or, under a figure column's
    head, ends under it. Two such lines make a table; one does when it too is a label with its figure cell
    beside it (a table of two rows).

    The other cell lies in `cand`'s text column (`column`, its left and right edges): the other column's short
    line beside a heading is none, and neither is a line of prose. A heading over or after a table stands
    alone on its line or is set larger than the table; headings one under another, each with a figure, are a
    contents list, read apart from the layout pass."""
    row = cand.row
    height = row.y1 - row.y0
    if height <= 0:
        return False
    lo, hi = column
    beside = row.parts >= 2 and _ends_in_figure(row.text) or any(
        not _prose_line(r.text) and r.x0 < hi and r.x1 > lo for r in level_with(row, rows.meeting(row.y0, row.y1)))
    if not beside:
        return False
    labels = _label_run(row, rows, height, down=True) + _label_run(row, rows, height, down=False)
    return len(labels) >= LABEL_ROWS or len(labels) == 1 and labels[0].parts >= 2


def _label_run(row: Row, rows: ByTop[Row], height: float, down: bool) -> list[Row]:
    """The lines of `row`'s label column that follow one another under `row` (`down`) or over it, up to
    LABEL_ROWS (see `_in_label_rows`)."""
    line = row
    run: list[Row] = []
    while len(run) < LABEL_ROWS:
        if down:
            near = rows.starting(line.y1 - 0.3 * height, line.y1 + 1.5 * height)
        else:
            near = [r for r in rows.starting(line.y0 - 2.5 * height - rows.tallest, line.y0)
                    if line.y0 - 1.5 * height <= r.y1 <= line.y0 + 0.3 * height]
        # a row of the label column starts where `row` does; under a figure column's head its figure ends
        column = [r for r in near if r is not line and not same_baseline(r, line) and abs(r.size - row.size) <= 0.3
                  and (abs(r.x0 - row.x0) <= 2 or row.x0 <= r.x1 <= row.x1 + 2 * row.size)]
        if not column:
            break
        line = min(column, key=lambda r: r.y0) if down else max(column, key=lambda r: r.y1)
        if not _ends_in_figure(line.text):
            break
        run.append(line)
    return run


LABEL_ROWS = 2  # lines of a table's label column, each ending in a figure, next to one of its rows


def _prose_line(text: str) -> bool:
    """A line of running text (in a column of any width: a three-column notice's lines are short), not a
    table's cell or label."""
    words = text.split()
    if len(words) < PROSE_WORDS or has_figures(text):
        return False
    return sum(1 for w in words if w[:1].islower()) >= 0.5 * len(words)


def _cell(r: Row, head: Row, rows: ByTop[Row], span: float) -> bool:
    """`r`, a line under the column head `head`, is a table cell: it shares its baseline with another text
    (in its column half, or, when it is short, anywhere: a list's second column), holds only figures, is a
    short line ending in figures, or ends in a figure right-aligned under the head (a "Page" column)."""
    wide = r.x1 - r.x0
    if r.crowded or figure_cell(r.text) or has_figures(r.text) and wide < CELL_WIDTH * span:
        return True
    if head.x0 <= r.x1 <= head.x1 + head.size and _ends_in_figure(r.text):
        return True
    return wide < SHORT_CELL * span and any(o is not r and same_baseline(o, r) for o in rows.meeting(r.y0, r.y1))


def _starts_rows(head: Row, below: Row, rows: ByTop[Row], bottom: float) -> bool:
    """`below` starts where `head` does and either reaches well past it or is the table's left edge (nothing
    left of it under `head`, down to `bottom`, but lines of another text column's prose): `head` is the title of
    the table or text under it ("Top 20 country exposures" over "(in billions) | March 31, 2022 | ..."), not
    the head of one of its columns ("Period End" over the "Date" cell of a header row "Exhibit | Form | Date",
    "Total Number" over "Purchased as" above the stub column's "Periods")."""
    if abs(below.x0 - head.x0) > 2:
        return False
    if below.x1 >= head.x1 + 0.5 * (head.x1 - head.x0):
        return True
    top = head.y1 - 0.3 * (head.y1 - head.y0)
    return not any(r.x1 <= below.x0 and top <= r.y0 < bottom and not _prose_line(r.text)
                   for r in rows.starting(top, bottom))
