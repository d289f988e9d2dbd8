"""The first section heading printed inside the first page's title block (issue 11, remaining class 2).

Rows of the first page above its first body line are the title block (title, authors, date) and are no
sections. A report often sets its first section ("Executive Summary", "Introduction") right under that block
with no section number, so it falls inside it and the document loses its first section. What sets it apart
from the block's own lines: it is the block's last row (or rows, wrapped in one style), directly over the
body text, set below a larger title, in the very style of headings found further on. A subtitle or a date is
set in a style no later heading shares, or stands apart from the body.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from pageindex_desktop.core.outline.layout_filters import Candidate
from pageindex_desktop.core.outline.numbering import LEADERS, STRONG_KINDS, leading_number, ordinal, split_trailing_page
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.size_scale import SizeScale
from pageindex_desktop.core.outline.title_shape import keyword_title, prose

TITLE_LARGER = 0.5  # a row above it is set at least this much larger: the block's title
WRAPPED = 2  # lines of one style a heading at the foot of the block may run to
GAP_HEIGHTS = 3.0  # the body starts within this many of its line heights under it
NARROW_LINES = 3  # lines of a paragraph in a narrow column that show the body has started
NARROW_CHARS = 35  # characters of a narrow column's line of prose that make it a paragraph's, whatever its words
# with no larger title above it, the block's top row is the first chapter's heading when later pages print
# this many headings in its style (the document opens on a chapter); a title's style is its own
CHAPTER_STYLE_PAGES = 2
# a figure's or table's caption ("Figure 1. Sources", "Table 3:"), never a line of a title block ("Exhibit 99.1"
# over a press release's title is one)
_FIGURE_CAPTION = re.compile(r"^(?:fig(?:ure)?|table|chart|graph|map)\.?\s*[0-9]+[.:\s]", re.IGNORECASE)
TABLE_ROWS = 6  # rows from a table's first cell within which one of its figures shows it is a table
_FIGURE_CELL = re.compile(r"^[($€£]?\s?[0-9][0-9,.]*[0-9]\)?%?$")  # "19,901", "(12.5)", "$ 148": two digits or more


def _plain(row: Row, body: float) -> bool:
    """A row in the body's size and weight."""
    return abs(row.size - body) < 0.6 and not row.bold


def _narrow_paragraph(rows: list[Row], i: int, body: float) -> bool:
    """True when rows[i] opens a paragraph set in a narrow column (a tax form's three, whose lines hold about
    40 characters): a body line of prose, six words or more (or NARROW_CHARS characters: long words, a
    protocol's "randomisation", German compounds, leave a narrow line five), over NARROW_LINES - 1 more body
    lines of words, none shaped like a contents row (`_entry_like`: "model and customer ...... 2-1" over
    "Section 2.2 ..." reads as prose). A subtitle or a date is one line; an author list does not read as
    prose."""
    if not _plain(rows[i], body):
        return False
    lines = _printed_lines(rows, i, NARROW_LINES)
    text = lines[0]
    if not ((len(text.split()) >= 6 or len(text) >= NARROW_CHARS) and prose(text)):
        return False
    return len(lines) == NARROW_LINES and all(len(line.split()) >= 4 and not _entry_like(line) for line in lines)


def _listed(rows: list[Row], i: int) -> bool:
    """True when rows[i] opens a contents list: it and the NARROW_LINES - 1 rows under it each end on a page
    number or dot leaders. The page's body is that list, and a "Contents" heading right over it is no line of
    the title block."""
    window = rows[i:i + NARROW_LINES]
    return len(window) == NARROW_LINES and all(
        split_trailing_page(r.text.strip())[1] is not None or LEADERS.search(r.text) for r in window)


def _entry_like(line: str) -> bool:
    """A contents row's look: dot leaders, or a section number opening it ("2.1 External reserve client term
    2-1"): no line of a paragraph."""
    num = leading_number(line)
    return bool(LEADERS.search(line)) or num is not None and bool(num.rest) and not num.kind.startswith("keyword")


def _printed_lines(rows: list[Row], i: int, count: int) -> list[str]:
    """The texts of up to `count` printed lines from rows[i], each joined from the rows in the body's size and
    weight that share its baseline, word gap by word gap (a justified narrow column stretches its gaps, and its
    first line came out as four rows of a word each: "Statistical" | "outcome" | "analysis" | "baseline"); a
    line not in that size and weight ends them."""
    lines: list[str] = []
    j = i
    while j < len(rows) and len(lines) < count and _plain(rows[j], rows[i].size):
        parts = [rows[j]]
        while j + 1 < len(rows) and _plain(rows[j + 1], rows[i].size) and _same_line(parts[-1], rows[j + 1]):
            j += 1
            parts.append(rows[j])
        lines.append(" ".join(r.text for r in parts))
        j += 1
    return lines


def _same_line(left: Row, right: Row) -> bool:
    """`right` goes on `left`'s printed line: the same baseline, a stretched word gap (two ems at most) after it."""
    return abs(right.y1 - left.y1) <= 0.3 * (left.y1 - left.y0) and 0 <= right.x0 - left.x1 <= 2 * left.size


def block_end(rows: list[Row], body: float) -> int:
    """Index of the first body-text row of the first page: rows above it (title, authors) are not sections. A
    table of figures is body too, from its column heads, and so is a figure's caption: a chapter that opens on
    one has no paragraph under its heading."""
    for i, row in enumerate(rows):
        if _plain(row, body) and len(row.text) >= 60 or _narrow_paragraph(rows, i, body) or _listed(rows, i):
            return i
        if _opens_table(rows, i):
            return _table_top(rows, i)
        if i > 0 and _FIGURE_CAPTION.match(row.text):
            return i  # a figure's caption: the chapter opens on the figure, no paragraph under its heading
        num = leading_number(row.text)
        if num is not None and num.kind in STRONG_KINDS and num.rest and ordinal(num) == 1 and (
            row.bold or row.size > body + 1 or num.rest.isupper()
        ) and (i > 0 or i + 1 < len(rows) and _plain(rows[i + 1], body) and len(rows[i + 1].text) >= 60):
            # "1 Introduction" right under the title block, or opening the document over its paragraph (a memo,
            # a chapter printed on its own: no title block at all)
            return i
        if num is not None and num.kind.startswith("keyword") and not num.rest and ordinal(num) == 1 and (
                row.bold or row.size > body + 1) and i + 1 < len(rows) and rows[i + 1].size >= row.size:
            return i  # a bare "Chapter 1" over its title: the document opens on its first chapter, no title block
        if num is not None and num.kind.startswith("keyword") and ordinal(num) == 1 and keyword_title(row.text) and (
                row.bold or row.size > body + 1) and not any(r.size > row.size for r in rows[:i]):
            return i  # "Chapter 1: Scope" set highest on the page: the first chapter, whatever follows it
    return len(rows)


def _opens_table(rows: list[Row], i: int) -> bool:
    """True when rows[i] is a table's first cell: it shares its baseline with another (`Row.crowded`), and a
    cell of figures follows within TABLE_ROWS rows. An author list set in columns shares baselines too, but
    prints no figures."""
    return rows[i].crowded and any(r.crowded and _FIGURE_CELL.match(r.text.strip()) for r in rows[i:i + TABLE_ROWS])


def _table_top(rows: list[Row], i: int) -> int:
    """The first row of the table whose first row of cells is rows[i]: its column heads right above, set in the
    cells' size ("Measure 2023 2022" in one bold row), belong to it."""
    while i > 0 and abs(rows[i - 1].size - rows[i].size) <= 0.6 and \
            rows[i].y0 - rows[i - 1].y1 < rows[i].y1 - rows[i].y0:
        i -= 1
    return i


def block_heading(
    rows: list[Row], start: int, later: list[Candidate], sizes: SizeScale, judge: Callable[[Row], Candidate | None]
) -> list[Candidate]:
    """The headings at the foot of the title block `rows[:start]`, judged by `judge`, top-down (see the module
    docstring); `later` are the headings found after the block. Styles are compared by the document's size
    clusters (`sizes`): a heading at 14.4 pt has the style of the later ones at 14.6. A section's heading over
    its first sub-heading (tax instructions' "What's New" band over "Increased Limit") are both at the foot:
    each row up from the last is taken while it is a heading in a later heading's style under a larger title."""
    found: list[Candidate] = []
    while start >= 1:
        foot = _foot_heading(rows, start, later, sizes, judge)
        if foot is None:
            break
        found.insert(0, foot[0])
        start = foot[1]
    return found


def _foot_heading(
    rows: list[Row], start: int, later: list[Candidate], sizes: SizeScale, judge: Callable[[Row], Candidate | None]
) -> tuple[Candidate, int] | None:
    """The one heading printed last in `rows[:start]`, right over `rows[start]`, and the index of its first
    row, or None."""
    if start < 1 or start >= len(rows):
        return None  # nothing above the body, or no body under it (a cover page is all block)
    first = start - 1
    style = (sizes.key(rows[first].size), rows[first].bold)
    while first > start - WRAPPED and first > 0 and (sizes.key(rows[first - 1].size), rows[first - 1].bold) == style:
        first -= 1
    row = rows[first]
    titled = any(r.size >= row.size + TITLE_LARGER for r in rows[:first])
    if not titled and any(r.size >= row.size for r in rows[:first]):
        return None
    last = rows[start - 1]
    if rows[start].y0 - last.y1 > GAP_HEIGHTS * (last.y1 - last.y0):
        return None
    text = " ".join(dict.fromkeys(r.text.strip() for r in rows[first:start]))  # a line printed twice once
    cand = judge(replace(row, text=text))
    if cand is None:
        return None
    look = (sizes.key(cand.row.size), *cand.style[1:])
    # an "Appendix A" set in the face is one of its headings too, whatever its numbering
    alike = [c.row.page for c in later if (sizes.key(c.row.size), *c.style[1:]) == look
             or (sizes.key(c.row.size), c.style[1]) == look[:2] and c.style[2].startswith("keyword")]
    if not alike or not titled and sum(1 for page in alike if page != row.page) < CHAPTER_STYLE_PAGES:
        return None
    cand.last_index = start - 1
    cand.bottom = last.y1
    return cand, first
