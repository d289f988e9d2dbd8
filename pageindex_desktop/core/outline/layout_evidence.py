"""Evidence beside the heading rows themselves: what shares their baseline, and the headings around them.

`drop_table_rows` drops rows that share their baseline with figures or with two other texts: table headers,
"Total" lines and chart labels. `drop_table_labels` drops body-size row labels inside a table (figures just
above and below them). `drop_continued_titles` keeps one of a title printed again on the next page.
`after_front_contents` drops what a cover and title pages print before the contents. `nest_notes` hangs a filing's numbered notes under the "Notes to … Financial Statements" heading over them.
"""

from __future__ import annotations

import re

from pageindex_desktop.core.outline.layout_filters import NOTE_KIND, UNNUMBERED, Candidate
from pageindex_desktop.core.outline.numbering import leading_number, title_key
from pageindex_desktop.core.outline.row_index import PagesByTop
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.table_notes import strip_unit_note
from pageindex_desktop.core.outline.text_columns import column_edges, column_of, column_range, spans_gutter

_OUTLINE_KINDS = frozenset({"decimal", "letter-decimal", "section"})
NOTES_TO = re.compile(r"^notes\s+to\s+(?:the\s+)?(?:\w+\s+){0,3}financial\s+statements\b", re.IGNORECASE)
# a date cell or axis tick ("7/26/2019", as an exhibit index gives each filing's date)
DATE = r"[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4}"
# one figure token of a table or chart, nothing else on it: "2023", "(12)", "4,426.3", "-3", "$35.4", "16%" (not a
# date's "2," or a bracket left open)
AMOUNT = r"\([$€£]?[0-9][0-9,.]*[0-9]\)|-?[$€£]?[0-9](?:[0-9,.]*[0-9])?%?"
AMOUNT_TOKEN = re.compile(rf"^(?:{AMOUNT})$")
# a cell of figures, looser: an amount with its signs and spaces, a dash for nil, or a date
_FIGURE = re.compile(rf"^[\s$€£(]*[-–—]?[0-9][0-9,.]*[)%]?\s*$|^[\s$€£]*[-–—]+\s*$|^\s*{DATE}\s*$")
# table_labels: baselines looked at above (within ABOVE_HEIGHTS line heights) and below a candidate, and how
# many of those below must carry figures
ABOVE_BASELINES = 2
ABOVE_HEIGHTS = 4.0
BELOW_BASELINES = 3
BELOW_WITH_FIGURES = 2
BELOW_HEIGHTS = 8.0  # how far below the candidate those baselines are looked for
SMALLER = 1.0  # points: a line set this much smaller than a heading is not in its type (`_side_by_side`)


def drop_table_rows(candidates: list[Candidate], index: PagesByTop[Row], widths: list[float]) -> list[Candidate]:
    """Candidates sharing their baseline in their own column with a figure ("Total 369", "Period End ... 2023")
    or with two or more other texts (a table's column headers) are table rows, not headings. A heading in one
    column of a two-column page shares its baseline with the other column's text, which does not count, unless
    that text is a row of figure cells or of short heads set like it (`_beside`): a table straddling the
    middle makes a page read as two columns. On a page whose columns are found by their edges
    (text_columns.py) the row's own column is the one between its edge and the next."""
    kept = []
    paged: dict[int, bool] = {}  # page -> set in two columns
    edges: dict[int, list[float] | None] = {}  # page -> its columns' left edges when found
    for cand in candidates:
        row = cand.row
        height = row.y1 - row.y0
        mid = widths[row.page - 1] / 2
        slack = 0.04 * widths[row.page - 1]
        if row.page not in paged:
            paged[row.page] = two_columns(index.page(row.page).items, widths[row.page - 1])
            edges[row.page] = column_edges(index.page(row.page).items, widths[row.page - 1])
        columns = edges[row.page]
        lo, hi = column_range(row.x0, columns) if columns else _column(row, mid, slack, paged[row.page])
        level = level_with(row, index.page(row.page).meeting(row.y0, row.y1)) if height > 0 else []
        others = [r for r in level if r.x0 < hi and r.x1 > lo and not _part_of(r, row)]
        if _side_by_side(others, row) >= 2 or any(_FIGURE.match(r.text) for r in others):
            continue
        if paged[row.page] and not columns and _beside(row, level):
            continue  # a table whose cells straddle the middle, its label column read as a text column
        kept.append(cand)
    return kept


def _part_of(other: Row, row: Row) -> bool:
    """True when `other` is one of the rows `row` was joined from (a label's cell and its title's lines,
    `label_cells.py`): inside its box, its text part of the row's."""
    return row.parts > 1 and other.y0 >= row.y0 - 0.5 and other.y1 <= row.y1 + 0.5 and \
        other.text.strip() in row.text


def _side_by_side(rows: list[Row], row: Row) -> int:
    """How many texts stand side by side among `rows`, the rows meeting `row`'s baseline: lines set smaller than
    `row` and stacked in one place count once. A heading's tall row meets both wrapped lines of a small
    caption or paragraph beside it ("Figure 1. Service district ..." | "maintenance" by a 16 pt "1. Outlook");
    a table's cells stand apart across the line, and a cell wrapped over two lines in the row's own size
    ("Changes in and Disagreements ..." | "Disclosure" by "Item 9.") is still two texts beside it."""
    placed: list[Row] = []
    for other in sorted(rows, key=lambda r: r.x0):
        if other.size < row.size - SMALLER and any(_stacked(other, seen) for seen in placed):
            continue
        placed.append(other)
    return len(placed)


def _stacked(a: Row, b: Row) -> bool:
    """`a` over or under `b`: not on one line, and across half the narrower one's width or more."""
    overlap = min(a.x1, b.x1) - max(a.x0, b.x0)
    return not same_baseline(a, b) and overlap >= 0.5 * min(a.x1 - a.x0, b.x1 - b.x0)


def level_with(row: Row, near: list[Row]) -> list[Row]:
    """The rows of `near` on `row`'s baseline, but for the row itself: the same row, or the page's row that the
    candidate's row was copied from (restyled, marked, or a side head's first line with its wrapped lines joined,
    `side_heads.py`). A copy counted as a text beside itself: a centred "Abstract" stood beside its own row."""
    return [r for r in near if r is not row and same_baseline(r, row) and not _source_of(r, row)]


def _source_of(line: Row, row: Row) -> bool:
    """True when `row` was made from `line`: printed where `line` starts, its text `line`'s or going on from it."""
    return (line.x0, line.y0) == (row.x0, row.y0) and row.text.startswith(line.text)


def same_baseline(a: Row, b: Row) -> bool:
    """`a` and `b` on one printed line: they overlap by half the smaller height (a table's label and its
    figures may sit a point apart; `rows._same_row`, which joins lines into rows, asks for more)."""
    return min(a.y1, b.y1) - max(a.y0, b.y0) >= 0.5 * min(a.y1 - a.y0, b.y1 - b.y0)


def _beside(row: Row, level: list[Row]) -> bool:
    """`row`'s baseline, anywhere on the page, carries two or more figure cells right of it, before any other
    text ("Total equity ... 81,038 $ 77,504", an exhibit row's "10.3 8/3/2009") or two or more other texts in `row`'s own size and
    weight (the "Name", "Title", "Date" heads of a signature table; "September" over each year's column):
    the other column of a text page holds one line of prose there, not a row of amounts or of short column
    heads set alike. `level` holds the other rows on
    `row`'s baseline (`level_with`)."""
    # figures counted by word: a bare number joins the cell after it in one row ("10.3 8/3/2009"); figures
    # past a label of their own ("Cash market 34,902 86,101") are a row of a table in the other column
    label = min((r.x0 for r in level if r.x0 >= row.x1 and any(ch.isalpha() for ch in r.text)
                 and not figure_cell(r.text)), default=float("inf"))
    cells = [r.text.split() for r in level if row.x1 <= r.x0 < label and figure_cell(r.text)]
    if sum(1 for tokens in cells for token in tokens if _FIGURE.match(token)) >= 2:
        return True
    return sum(1 for r in level if r.bold == row.bold and abs(r.size - row.size) <= 0.3
               and len(r.text) <= HEAD_CHARS and len(r.text.split()) <= HEAD_WORDS) >= 2


HEAD_WORDS = 4  # a column head beside a row: short, unlike the line of prose another text column puts there
HEAD_CHARS = 30


def figure_cell(text: str) -> bool:
    """A table cell holding only figures and currency or percent signs ("37,531 $", "$ 100", "(1.1)", "16 %")."""
    tokens = text.split()
    return any(_FIGURE.match(t) for t in tokens) and all(_FIGURE.match(t) or t in _SIGNS for t in tokens)


_SIGNS = frozenset({"$", "€", "£", "%", "pts", "pt"})


def two_columns(rows: list[Row], width: float) -> bool:
    """A page set in two text columns: at least a quarter of its (12 or more) rows in each half."""
    mid, slack = width / 2, 0.04 * width
    left = sum(1 for r in rows if r.x1 < mid + slack)
    right = sum(1 for r in rows if r.x0 > mid - slack)
    return len(rows) >= 12 and min(left, right) >= 0.25 * len(rows)


def column_extents(rows: list[Row], left: float, right: float) -> tuple[float, float, float, float] | None:
    """The text extents (left0, right0, left1, right1) of the two columns of a page set in two (`two_columns`)
    whose text runs from `left` to `right`, else None: where a title is centred in its column (layout._centred)."""
    mid = (left + right) / 2
    if not two_columns(rows, left + right):
        return None
    return (left, max((r.x1 for r in rows if r.x1 < mid), default=mid),
            min((r.x0 for r in rows if r.x0 > mid), default=mid), right)


def text_column_of(row: Row, columns: tuple[float, float, float, float] | None, left: float, right: float
                   ) -> tuple[float, float]:
    """The left and right edges of the text in the column `row` lies in (`column_extents`): the page's text,
    unless it is set in two columns. `_column` below gives a column's open range instead, for overlaps."""
    if columns is None:
        return left, right
    mid = (left + right) / 2
    return columns[:2] if row.x1 < mid else columns[2:] if row.x0 > mid else (left, right)


def row_column(row: Row, edges: list[float] | None, rights: list[float] | None,
               columns: tuple[float, float, float, float] | None, left: float, right: float) -> tuple[float, float]:
    """The left and right text edges of the column `row` lies in: from the page's column edges and their right
    text edges when its columns are found by their edges (`text_columns.column_edges`, `column_rights`; three
    columns or more too), else as `text_column_of` gives them. A body-size heading goes on only in its own indented block, measured from the
    left edge, so a right column is no indent (`heading_lines.continues`); a line that reaches the right edge
    filled its column (`heading_lines.sentence_goes_on`)."""
    if not edges or rights is None or spans_gutter(row.x0, row.x1, edges):
        column_left, column_right = text_column_of(row, columns, left, right)
        return (edges[column_of(row.x0, edges)] if edges else column_left), column_right
    k = column_of(row.x0, edges)
    return edges[k], rights[k]


def _column(row: Row, mid: float, slack: float, split: bool) -> tuple[float, float]:
    """The x range of the column `row` sits in (the whole page unless the page has two columns)."""
    if not split:
        return -1e9, 1e9
    return (-1e9, mid) if row.x1 < mid + slack else (mid, 1e9) if row.x0 > mid - slack else (-1e9, 1e9)


def has_figures(text: str) -> bool:
    """A row that ends in a table's cells ("1,204", "$ 148.10", "(12)", "2023 2022"), its label before them:
    at least half its words are figures, or it ends in two figures, or in one written as an amount."""
    if not text or not (text[-1].isdigit() or text[-1] in ",)%$-–—"):
        return False  # most rows: prose and titles end in a letter or a stop ("MAY 31," heads a date column)
    tokens = text.split()
    trailing = 0
    for token in reversed(tokens):
        if not (_FIGURE.match(token) or token in ("$", "%")) or token.endswith("."):
            break
        trailing += 1
    if not trailing:
        return False
    return trailing >= 2 or 2 * trailing >= len(tokens) or any(ch in tokens[-1] for ch in ",()$%")


def drop_table_labels(candidates: list[Candidate], index: PagesByTop[Row], body: float) -> list[Candidate]:
    """Unnumbered body-size candidates with figures on a baseline just above them and on most of the few
    baselines below are a table's row labels or sub-heads ("Cash Flows from Financing Activities", "In
    Billions", "Other Exit"), set bold like the document's sub-heads but inside its tables.

    A heading that opens a table (a statement title over its columns) has prose or nothing above it, and a
    heading after a table is followed by prose, so both stay. Numbered headings ("Note 5 – Inventories") and
    headings set larger than the body always stay: their own style says they are headings. Baselines span the
    whole page: the figures sit right of the label, often past the middle, where a two-column test would put
    them in another column.
    """
    kept = []
    for cand in candidates:
        row = cand.row
        if cand.style[2] not in UNNUMBERED or row.size >= body + 1.0:
            kept.append(cand)
            continue
        height = row.y1 - row.y0
        top, bottom = row.y0 - ABOVE_HEIGHTS * height, cand.bottom + BELOW_HEIGHTS * height
        lines = _baselines([r for r in index.page(row.page).meeting(top, bottom) if r.y1 > top and r.y0 < bottom])
        above = [fig for _y0, y1, fig in lines if row.y0 - ABOVE_HEIGHTS * height < y1 <= row.y0 + 0.5]
        below = [fig for y0, _y1, fig in lines if y0 >= cand.bottom - 0.5][:BELOW_BASELINES]
        if any(above[-ABOVE_BASELINES:]) and sum(below) >= BELOW_WITH_FIGURES:
            continue
        kept.append(cand)
    return kept


def _baselines(rows: list[Row]) -> list[tuple[float, float, bool]]:
    """(top, bottom, carries figures) of each visual line, top down; rows overlapping vertically are one line."""
    lines: list[list[float]] = []  # [y0, y1, figures]
    for row in sorted(rows, key=lambda r: r.y0):
        fig = 1.0 if has_figures(row.text) else 0.0
        if lines and row.y0 < lines[-1][1] - 0.5 * (row.y1 - row.y0):
            lines[-1][1] = max(lines[-1][1], row.y1)
            lines[-1][2] = max(lines[-1][2], fig)
        else:
            lines.append([row.y0, row.y1, fig])
    return [(y0, y1, bool(fig)) for y0, y1, fig in lines]


def nest_notes(candidates: list[Candidate], levels: list[int]) -> list[int]:
    """`levels` with numbered notes ("Note 4 – Debt") one level under the "Notes to … Financial Statements"
    heading they follow, and the sub-heads between the first and last note below the notes.

    Filings set the notes in a face of their own (often larger than the heading over them), so style rank puts
    them beside or above the statements they belong to.
    """
    out = list(levels)
    notes = [i for i, c in enumerate(candidates) if c.style[2] == NOTE_KIND]
    if len(notes) < 2:
        return out
    head = next((i for i in range(notes[0] - 1, -1, -1) if NOTES_TO.match(candidates[i].text)), None)
    if head is None:
        return out
    note_level = levels[head] + 1
    for i in range(notes[0], notes[-1] + 1):
        if candidates[i].style[2] == NOTE_KIND:
            out[i] = note_level
        elif levels[i] <= note_level:
            out[i] = note_level + 1
    return out


def drop_continued_titles(candidates: list[Candidate]) -> list[Candidate]:
    """A title printed twice in one style on one page is a label (a slide's "Example" blocks): all of them go.
    One printed again in the same style on the next page (a slide's continued frame title, "Summary of
    results" over each page of one survey section) opens no new section: only its first printing is kept.
    Either holds only when no heading set above it lies between the two printings: a manual's "Overview" and
    "Procedure" under each of two tasks on one page, an annual report's "Highlights" under each chapter, are
    each their own parent's sections (`_outranks`).
    A title that says it is continued ("Selected metrics (continued)", "Notes ... (cont'd)") opens none either,
    wherever its first part was printed."""
    candidates = [c for c in candidates if not continued_title(c.text)]
    last: dict[tuple[str, tuple[float, bool, str]], int] = {}
    labels: set[int] = set()
    repeats: set[int] = set()
    for i, cand in enumerate(candidates):
        key = (_repeat_key(cand.text), cand.style)
        j = last.get(key)
        last[key] = i
        if j is None or cand.row.page - candidates[j].row.page > 1:
            continue
        if any(_outranks(c.style, cand.style) for c in candidates[j + 1:i]):
            continue  # a new parent between the two printings: the same sub-heading of another section
        if cand.row.page == candidates[j].row.page:
            labels.update((i, j))
        else:
            repeats.add(i)
    return [c for i, c in enumerate(candidates) if i not in labels and i not in repeats]


def _outranks(style: tuple[float, bool, str], other: tuple[float, bool, str]) -> bool:
    """True when a heading in `style` is set above one in `other`: larger, or the same size in bold."""
    return style[0] > other[0] or (style[0] == other[0] and style[1] and not other[1])


# "(continued)", "(cont'd)", "[cont.]", "(cont)", "- continued", ": continued", ", continued" closing a title
_CONTINUED = re.compile(
    r"(?:[(\[]\s*(?:continued|cont(?:inued|'d|’d|\.)?)\s*[)\]]|[-–—:,]\s*continued)\s*$", re.IGNORECASE
)


def continued_title(text: str) -> bool:
    """True when the title says it is continued ("Selected metrics (continued)"), with or without the unit
    note after it ("Net revenue (continued) (in millions)")."""
    return _CONTINUED.search(strip_unit_note(text)) is not None or _CONTINUED.search(text) is not None


def _repeat_key(text: str) -> str:
    """The title key, or the whole text when the key has no letters: "Exhibit 23.1" and "Exhibit 31.1" on
    consecutive pages are two titles, though both keys would be the "1" after the number. An outline number
    stays in the key: "3.3.1 Inputs" after "3.1.1 Inputs", or a reference's "4.2.1 Detailed Description" and
    "4.3.1 Detailed Description" on one page, are sections of their own that share a title, not a repeat."""
    key = title_key(text)
    if not any(ch.isalpha() for ch in key):
        return text.lower()
    num = leading_number(text)
    return f"{num.token} {key}" if num is not None and num.kind in _OUTLINE_KINDS else key


def after_front_contents(candidates: list[Candidate], contents_pages: list[int], page_count: int) -> list[Candidate]:
    """Candidates from the printed contents on, when the contents is printed in the front half: the pages before
    it are the cover, title, copyright and dedication pages (a filing's SEC cover sheet, a book's half-title),
    which the contents does not list and which are no sections of the document."""
    if not contents_pages or min(contents_pages) > page_count / 2:
        return candidates  # no contents, or one printed at the back: nothing says where the front matter ends
    first = min(contents_pages)
    return [c for c in candidates if c.row.page >= first]
