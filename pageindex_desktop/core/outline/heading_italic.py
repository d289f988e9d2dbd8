"""Italic as a heading's emphasis: a report's or a paper's lowest sub-heading set in italic at the body's size
and weight (a Word report's Heading 4, a journal's third level). By size and weight alone it reads as a body
line, so the tree lost that level and hung its sections' text under the level above.

Italic prints much else: emphasised phrases, book titles, quotations, theorem statements, a table's row labels, a
figure's caption, mathematics. What tells a face of headings from those is, as for a small size step
(`heading_size.faces_of_headings`), that every row the document sets in it is a short title line, on two pages or
more, none of them prose or ending like a sentence, none stacked three deep, and here also none sharing its
baseline with a figure in its column (a table's row label; a table in the next column is not its own). Left out of
the count, neither for nor against: captions ("Figure 3."), which the layout pass judges apart, and rows with no
word of three letters (a formula's symbols, "x", "O(n · d)"). A document with italic prose anywhere keeps reading
its italic rows as body text: a missed level costs less than a tree full of emphasised phrases.

Read as bold, such a row would share its face with the bold sub-headings of its size and be ranked level with
them, though it sits a level under them ("Glossary", then the italic terms it defines). So it ranks just under
the upright faces of its size, bold or regular (`italic_under_upright`: a paper's italic "A. Earlier Work"
under its regular "I. INTRODUCTION"); with no upright face of its size in the document it keeps its place.
A face set in bold italic is left to rank with the bold here: a filing may set its sections in bold italic over
bold sub-heads, or under them, in one document; the headings' order tells which (`bold_italic.py`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import replace

from pageindex_desktop.core.outline.heading_colour import larger_than_body
from pageindex_desktop.core.outline.heading_lines import CAPTION
from pageindex_desktop.core.outline.heading_size import faces_of_headings
from pageindex_desktop.core.outline.layout_evidence import figure_cell, two_columns
from pageindex_desktop.core.outline.layout_filters import Candidate
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.size_scale import SizeScale

BELOW_BODY = 0.5  # points an italic heading may sit under the body's size (a face's size read a little small)
ITALIC_STEP = 0.01  # points an italic face's style size is set under the upright ones: below them, above the rest
MIN_WORD = 3  # letters of the longest word a row of words has: fewer is a formula's symbols


def heading_italics(pages: list[list[Row]], body: float, sizes: SizeScale) -> frozenset[float]:
    """The size keys (`sizes.key`) whose italic rows at about the body's size are all headings (module docstring)."""
    # ids of candidate rows with a figure on their baseline in their column (a table in the next column is not
    # theirs); only the rows on a candidate's baseline are read for figures, and columns only when one is found
    beside: set[int] = set()
    for rows in pages:
        italic = [row for row in rows if _about_body(row, body)]
        if not italic:
            continue
        mid = (min(row.x0 for row in rows) + max(row.x1 for row in rows)) / 2
        split: bool | None = None
        by_bottom = sorted(rows, key=lambda row: row.y1)
        bottoms = [row.y1 for row in by_bottom]
        for row in italic:
            if row.parts > 1 and figure_cell(row.text.split()[-1]):
                beside.add(id(row))
                continue
            height = row.y1 - row.y0  # a row on its baseline ends within a line's height of its bottom
            for other in by_bottom[bisect_left(bottoms, row.y1 - height):bisect_right(bottoms, row.y1 + height)]:
                if other is row or not _same_baseline(row, other) or not figure_cell(other.text):
                    continue
                split = two_columns(rows, 2 * mid) if split is None else split
                if not split or (other.x0 < mid) == (row.x0 < mid):
                    beside.add(id(row))
                    break
    return faces_of_headings(pages, lambda row: sizes.key(row.size) if _in_question(row, body) else None,
                             lambda row: id(row) in beside)


def with_italic_emphasis(row: Row, marked: frozenset[float], body: float, sizes: SizeScale) -> Row:
    """The row read as bold when it is set in italic at about the body's size in one of the `marked` faces."""
    if marked and _in_question(row, body) and sizes.key(row.size) in marked:
        return replace(row, bold=True, marked_italic=True)
    return row


def italic_under_upright(candidates: list[Candidate]) -> list[Candidate]:
    """`candidates` (styles keyed to one size each) with the style of each regular italic row read as bold set
    ITALIC_STEP under the upright styles of its size, where there is one (in place), so the ranking puts it a
    level below them (module docstring)."""
    upright = {cand.style[0] for cand in candidates if not cand.row.italic}
    for cand in candidates:
        if cand.row.marked_italic and cand.style[0] in upright:
            cand.style = (cand.style[0] - ITALIC_STEP, *cand.style[1:])
    return candidates


def _about_body(row: Row, body: float) -> bool:
    """A regular italic row at about the body's size: not larger by the layout's measure (a heading already)."""
    return (row.italic and not row.bold and row.size >= body - BELOW_BODY
            and not larger_than_body(row.size, body))


def _in_question(row: Row, body: float) -> bool:
    """An italic row at about the body's size that is words, not a caption or a formula."""
    return (_about_body(row, body) and not CAPTION.match(row.text)
            and max((sum(ch.isalpha() for ch in word) for word in row.text.split()), default=0) >= MIN_WORD)


def _same_baseline(row: Row, other: Row) -> bool:
    """True when `other` overlaps most of `row`'s height: on its line."""
    overlap = min(row.y1, other.y1) - max(row.y0, other.y0)
    return overlap >= 0.6 * min(row.y1 - row.y0, other.y1 - other.y0) > 0
