"""Definition lists in the body: a protocol's or a glossary's terms, each a short bold line at the body's size
over its definition set as an indented block ("Visit analysis" | "    Endpoint site model ..."), read as
headings, one per term, and filled the tree with a section per definition.

What sets a term apart from a heading in the body's face: it stands over its definition, not beside it (a
FrameMaker side head in the margin opens its paragraph's first line, `side_heads.py`), it carries no number ("ITEM 1B." over an indented
"None." is a filing's division), what follows it is a block every line of which is indented past the term and
that ends at a bold line or the page's end (a heading's paragraph opens at its edge, or a first-line indent
from it, and its next line comes back to the edge in plain type), not opening on a list's bullet or number (a
heading over an indented list of points keeps its list), and another term of that shape stands right before
or after it: a definition list has entries, one bold line over an indented quotation is no list. The block
may end at a plain paragraph back at the edge unless it is a single full line (a first-line indent), and a
list goes on over a page break (`_continued_lists`).
"""

from __future__ import annotations

from pageindex_desktop.core.outline.heading_colour import larger_than_body
from pageindex_desktop.core.outline.heading_lines import CAPTION
from pageindex_desktop.core.outline.layout_filters import Candidate
from pageindex_desktop.core.outline.numbering import leading_number
from pageindex_desktop.core.outline.rows import Row

TERM_INDENT = 1.2  # body sizes: a definition's lines start at least this far right of its term
BULLETS = frozenset("•·▪◦‣●○■□–—-*►▶✓✔➢➤")


def drop_definition_terms(candidates: list[Candidate], rows: list[list[Row]], body: float) -> list[Candidate]:
    """The candidates without the terms of definition lists (see the module docstring)."""
    ends: dict[tuple[int, int], int] = {}  # (page, row index) of every term-shaped row -> the row after its block
    for page_rows in rows:
        for i, row in enumerate(page_rows):
            end = _term_shaped(page_rows, i, body)
            if end is not None:
                ends[(row.page, i)] = end
    ends.update(_terms_over_the_break(rows, body))
    after_term = {(page, end) for (page, _i), end in ends.items()}  # rows right after a term's block
    after_term |= _continued_lists(rows, ends, body)
    dropped: set[int] = set()
    for k, cand in enumerate(candidates):
        if larger_than_body(cand.row.size, body):
            continue
        page = cand.row.page
        at = next((j for j, r in enumerate(rows[page - 1]) if (r.x0, r.y0) == (cand.row.x0, cand.row.y0)), None)
        if at is None or (page, at) not in ends:
            continue
        if (page, at) in after_term or (page, ends[(page, at)]) in ends:
            dropped.add(k)  # another term's block ends on it, or its own block ends on another term
    return [c for k, c in enumerate(candidates) if k not in dropped]


def _term_shaped(page_rows: list[Row], i: int, body: float) -> int | None:
    """The index of the row after the definition block under row `i` when row `i` is shaped like a term (a bold
    line at the body's size, its block of plain lines all indented past it, the first not a list's item), else
    None; `len(page_rows)` when the block runs to the page's end."""
    term = page_rows[i]
    if not term.bold or larger_than_body(term.size, body) or leading_number(term.text) is not None:
        return None  # "ITEM 1B." over its indented "None." is a filing's division
    j = i + 1
    while j < len(page_rows) and page_rows[j].x0 > term.x0 + 2.0 and page_rows[j].y0 >= term.y0:
        j += 1
    block = page_rows[i + 1:j]
    if not block or any(r.bold or r.x0 < term.x0 + TERM_INDENT * body for r in block):
        return None
    if block[0].y0 < term.y1 - 0.3 * (term.y1 - term.y0):
        return None  # its text starts beside it, on its line: a side head in the margin (side_heads.py)
    if j < len(page_rows) and not page_rows[j].bold and len(block) == 1 and \
            block[0].x1 >= max(r.x1 for r in page_rows) - body:
        return None  # a paragraph's first-line indent: its full first line, then the next back at the edge
    return j if _opens_text(block[0]) else None


def _opens_text(row: Row) -> bool:
    """A definition's first line: no list item's bullet or number ("Schedule" alone, a keyword with no number,
    opens a sentence), and no figure's or table's caption ("Figure 7. Financial Governance", centred under a
    heading whose section opens on a figure)."""
    first = row.text.lstrip()
    number = leading_number(first)
    return first[:1] not in BULLETS and (number is None or not number.token) and CAPTION.match(first) is None


def _continued_lists(rows: list[list[Row]], ends: dict[tuple[int, int], int], body: float) -> set[tuple[int, int]]:
    """(page, row index) of each page's first term-shaped row when a definition list goes on from the page
    before: that page's last term has its block run to the page's end, and every row above this one on its
    own page is plain and indented past it (the definition's last lines carried over)."""
    last: dict[int, int] = {}  # page -> its last term-shaped row
    first: dict[int, int] = {}  # page -> its first
    for page, i in ends:
        last[page] = max(last.get(page, i), i)
        first[page] = min(first.get(page, i), i)
    found: set[tuple[int, int]] = set()
    for page, at in first.items():
        before = last.get(page - 1)
        if before is None or ends[(page - 1, before)] != len(rows[page - 2]):
            continue
        page_rows = rows[page - 1]
        if all(not r.bold and r.x0 >= page_rows[at].x0 + TERM_INDENT * body for r in page_rows[:at]):
            found.add((page, at))
    return found


def _terms_over_the_break(rows: list[list[Row]], body: float) -> dict[tuple[int, int], int]:
    """(page, row index) -> the page's row count for each page's last row that is a term whose definition
    begins on the next page: bold, at the body's size, unnumbered, with the next page's first row plain,
    indented past it as a definition is, and opening text."""
    found: dict[tuple[int, int], int] = {}
    for page_rows, next_rows in zip(rows, rows[1:]):
        if not page_rows or not next_rows:
            continue
        term, first = page_rows[-1], next_rows[0]
        if term.bold and not larger_than_body(term.size, body) and leading_number(term.text) is None \
                and not first.bold and first.x0 >= term.x0 + TERM_INDENT * body and _opens_text(first):
            found[(term.page, len(page_rows) - 1)] = len(page_rows)
    return found
