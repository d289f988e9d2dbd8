"""Definition lists in the body: a protocol's or a glossary's terms, each a short bold line at the body's size
over its definition set as an indented block ("Visit analysis" | "    Endpoint site model ..."), read as
headings, one per term, and filled the tree with a section per definition.

What sets a term apart from a heading in the body's face: it stands over its definition, not beside it (a
FrameMaker side head in the margin opens its paragraph's first line, `side_heads.py`), it carries no number ("ITEM 1B." over an indented
"None." is a filing's division), what follows it is a block every line of which is indented past the term and
that ends at a bold line or the page's end (a heading's paragraph opens at its edge, or a first-line indent
from it, and its next line comes back to the edge in plain type), not opening on a list's bullet or number (a
heading over an indented list of points keeps its list), and another term of that shape stands right before
or after it: a definition list has entries, one bold line over an indented quotation is no list.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.heading_colour import larger_than_body
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
    after_term = {(page, end) for (page, _i), end in ends.items()}  # rows right after a term's block
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
    if j < len(page_rows) and not page_rows[j].bold:
        return None  # a paragraph's first-line indent: its next line comes back to the edge
    first = block[0].text.lstrip()
    if first[:1] in BULLETS or leading_number(first) is not None:
        return None
    return j
