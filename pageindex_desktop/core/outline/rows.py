"""Visual rows: MuPDF lines that share a baseline joined left to right.

MuPDF often splits one printed line in two ("I." and "INTRODUCTION", a title and its page number, a dot
leader); both heading finders reason about what the reader sees, so they work on rows.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from pageindex_desktop.core.document import Line, PageData
from pageindex_desktop.core.outline.numbering import (PAGE_NUMBER, leading_number, split_chapter_page,
                                                      split_trailing_page)
from pageindex_desktop.core.outline.text_columns import column_edges, column_of, reading_key, spans_gutter
from pageindex_desktop.core.outline.tolerant import near_runs


@dataclass(slots=True)
class Row:
    """One visual line of a page: joined text, the style of its first part and its box (points, top-left origin)."""

    text: str
    size: float
    bold: bool
    x0: float
    y0: float
    x1: float
    y1: float
    page: int
    parts: int = 1
    title_x0: float = 0.0  # where the title starts when the row opens with a separate number ("1." | "Title")
    crowded: bool = False  # another text on the same baseline in the same column half (run-in head, table cell)
    color: int = 0  # sRGB colour of its first line (Line.color): what marks a navigation bar's current entry
    lead: str = ""  # its first line's bold opening words when the line goes on in regular type (Line.lead)
    underlined: bool = False  # a drawn rule runs under the whole row (Line.underlined: every part of it)
    italic: bool = False  # its first line is set in italic (Line.italic)
    marked_italic: bool = False  # a regular italic row read as bold (heading_italic.py): ranks under upright bold
    marked_underlined: bool = False  # a regular underlined row read as bold (heading_underline.py): ranks under bold


def _same_row(a: Line | Row, b: Line) -> bool:
    """True when `b` sits on the same baseline as `a` (vertical overlap of most of the smaller height)."""
    top = max(a.y0, b.y0)
    bottom = min(a.y1, b.y1)
    height = min(a.y1 - a.y0, b.y1 - b.y0)
    if height <= 0 or max(a.y1 - a.y0, b.y1 - b.y0) > 2.5 * height:
        return False  # vertical text (a margin stamp) spans many rows
    return bottom - top >= 0.6 * height


BASELINE_SLACK = 0.08  # share of the page's usual line height two bottoms may differ by and share a baseline
RAISED_NUMBER = 0.4  # share of its height a number may sit above the text left of it and be read with it
HEADER_SHARE = 0.25  # most share of the page's width a label above a two-column page's first pass spans (page_rows)


def _reading_order(lines: list[Line], entries: bool) -> list[Line]:
    """Lines top to bottom, those whose bottoms lie within BASELINE_SLACK of a line height left to right: a
    fixed 1 pt grid (`round(y1)`) sorted a bold "ITEM 9C." after the title beside it, 0.05 pt higher, once
    a cell boundary fell between them (a 97 % copy), and the title then opened the row alone. Read as a
    contents page (`entries`), a page number printed a little high reads with its title (`_raised_numbers`)."""
    heights = sorted(ln.y1 - ln.y0 for ln in lines)
    reach = BASELINE_SLACK * heights[len(heights) // 2] if heights else 0.0
    raised = _raised_numbers(lines) if entries else {}
    bottom: Callable[[Line], float] = (lambda ln: raised.get(id(ln), ln.y1)) if raised else (lambda ln: ln.y1)
    return [ln for run in near_runs(lines, bottom, reach) for ln in sorted(run, key=lambda ln: ln.x0)]


def _raised_numbers(lines: list[Line]) -> dict[int, float]:
    """A bare number printed a little higher than the text left of it on its line (a contents entry's page set
    in its own table cell, two points up: AES's "ITEM 1. BUSINESS ... 4"), by id, mapped to that text's bottom:
    sorted by its own, it was read before its title, and the title, opening the next row, paired with the next
    entry's number ("ITEM 1. BUSINESS" took Item 1A's page)."""
    numbers = [ln for ln in lines if len(ln.text) <= 7 and PAGE_NUMBER.match(ln.text.strip())]
    if not numbers:
        return {}
    by_bottom = sorted(lines, key=lambda ln: ln.y1)
    bottoms = [ln.y1 for ln in by_bottom]
    raised: dict[int, float] = {}
    for number in numbers:
        height = number.y1 - number.y0
        lo = bisect_right(bottoms, number.y1 + 0.05)
        hi = bisect_right(bottoms, number.y1 + RAISED_NUMBER * height)
        left = [ln for ln in by_bottom[lo:hi] if ln.x1 <= number.x0 and _same_row(ln, number)
                and not PAGE_NUMBER.match(ln.text.strip())]
        if left:
            raised[id(number)] = min(ln.y1 for ln in left)
    return raised


def page_rows(page: PageData, merge_all: bool) -> list[Row]:
    """Rows of `page` in reading order (top to bottom, then left to right).

    With merge_all every line on a baseline joins its row (contents pages), except across the gutter of a
    two-column contents list (see _column_break), whose columns are then read one after the other; otherwise
    a line joins only when the row so far is a bare section number or the line is a bare page number, so two
    text columns that share a baseline stay apart.
    """
    lines = _reading_order(page.lines, merge_all)
    mid = page.width / 2
    edges = None if merge_all else column_edges(lines, page.width)  # columns found by their edges (text_columns.py)
    rows, breaks = _joined(lines, page, merge_all, edges, gutter=False)
    if breaks >= 3:
        # a contents list in two columns: no left-column row takes a line from beyond the gutter, whether or
        # not it ended in a page number (a wrapped entry's first line, its leaders and "2-1" on a line alone)
        rows, _breaks = _joined(lines, page, merge_all, edges, gutter=True)
    rows.sort(key=lambda r: (r.y0, r.x0))
    if edges is not None:
        tops = sorted(r.y0 for r in rows if spans_gutter(r.x0, r.x1, edges))
        rows.sort(key=lambda r: reading_key(r.x0, r.y0, r.x1, tops, edges))
        return rows
    if breaks >= 3:
        # a contents list in two columns: the left column's entries, then the right one's
        rows.sort(key=lambda r: (r.x0 >= mid - 0.04 * page.width, r.y0, r.x0))
    if not merge_all and len(rows) >= 12:
        slack = 0.04 * page.width
        left = sum(1 for r in rows if r.x1 < mid + slack)
        right = sum(1 for r in rows if r.x0 > mid - slack)
        if left >= 0.25 * len(rows) and right >= 0.25 * len(rows):
            # two columns: read the left one down, then the right one (full-width rows stay in the first pass,
            # and so do rows centred on the page: a wrapped heading's short last line, "Soil", is not the right
            # column's text)
            def in_right_column(r: Row) -> bool:
                return r.x0 > mid - slack and abs((r.x0 + r.x1) / 2 - mid) > slack

            first_top = min((r.y0 for r in rows if not in_right_column(r)), default=0.0)

            def second_pass(r: Row) -> bool:
                """A right-column row; a short label above everything in the first pass ("Exhibit 21" in the top
                right corner over a table of two columns) heads the page and is read first, as no column's first
                line would be."""
                return in_right_column(r) and not (r.y1 <= first_top and r.x1 - r.x0 < HEADER_SHARE * page.width)

            rows.sort(key=lambda r: (second_pass(r), r.y0, r.x0))
    return rows


def _joined(lines: list[Line], page: PageData, merge_all: bool, edges: list[float] | None,
            gutter: bool) -> tuple[list[Row], int]:
    """`lines` (in reading order) joined into rows, and how many times a contents list's gutter kept a line
    out of the row beside it (see page_rows; `gutter`: the page is known to hold a two-column list)."""
    rows: list[Row] = []
    mid = page.width / 2
    breaks = 0
    for line in lines:
        text = line.text
        if not text:
            continue
        target = None
        crowded_with: Row | None = None
        x0 = line.x0 + 1
        y0 = line.y0
        for back in range(1, min(4, len(rows)) + 1):
            row = rows[-back]
            if row.y1 <= y0:
                break  # rows come top-down: nothing further back shares this baseline
            if row.x1 <= x0 and _same_row(row, line):
                if merge_all and _column_break(row, line, mid, gutter):
                    breaks += 1
                # the next column's line on this baseline is neither this row's part nor a crowding cell
                elif edges is None or column_of(row.x1, edges) == column_of(line.x0, edges):
                    if merge_all or (_is_bare_number(row.text) and row.size >= line.size - 1) or PAGE_NUMBER.match(text):
                        target = row
                    elif (row.x1 < mid) == (line.x0 < mid):
                        crowded_with = row
                break
        if target is None:
            rows.append(Row(text, line.size, line.bold, line.x0, line.y0, line.x1, line.y1, page.number,
                            title_x0=line.x0, crowded=crowded_with is not None, color=line.color, lead=line.lead,
                            underlined=line.underlined, italic=line.italic))
            if crowded_with is not None:
                crowded_with.crowded = True
            continue
        if target.parts == 1 and _is_bare_number(target.text):
            target.title_x0 = line.x0
            # the title carries the style, not its number
            target.size, target.bold, target.italic = line.size, line.bold, line.italic
            target.lead = f"{target.text} {line.lead}" if line.lead else ""
        target.text = f"{target.text} {text}"
        target.underlined = target.underlined and line.underlined
        target.x1 = max(target.x1, line.x1)
        target.y0 = min(target.y0, line.y0)
        target.y1 = max(target.y1, line.y1)
        target.parts += 1
    return rows, breaks


def _column_break(row: Row, line: Line, mid: float, gutter: bool = False) -> bool:
    """True when `line` opens a right-column contents entry beside a left-column one that already ended in its
    page number ("1 Introduction  3 | 5 Results  9"): joined, two entries would read as one title. On a page
    known to hold two columns (`gutter`), any left-column row stops at the gutter."""
    if row.x0 >= mid or line.x0 < mid - 0.08 * 2 * mid or row.x1 > line.x0 - 1.5 * line.size:
        return False
    if gutter:
        return True
    if sum(ch.isalpha() for ch in line.text) < 2 or sum(ch.isalpha() for ch in row.text) < 2 and ".." not in row.text:
        return False  # a bare number beside a title is a row's own parts, leaders and a number are an entry's end
    return split_trailing_page(row.text.strip())[1] is not None or split_chapter_page(row.text.strip()) is not None


def _is_bare_number(text: str) -> bool:
    """A row that is only a section number ("1.", "II.", "(a)", "A.")."""
    if len(text) > 8:
        return False
    if len(text) == 1 and text.isupper():
        return True  # an appendix letter set apart from its title ("A   Federal Reserve System Organization")
    num = leading_number(text)
    return num is not None and not num.rest
