"""Underlined lines: a heading marked by a drawn rule under its words, at the body's size and weight.

Word and typewriter-style documents (memos, government plans, legal papers) often mark a sub-heading by
underlining it alone. Text extraction does not say so: an underline is a vector path drawn under the glyphs,
and MuPDF reports it per character only with `TEXT_COLLECT_STYLES`, which made extraction about six times
slower over the corpus. Reading a page's paths (`get_cdrawings`) costs about half of its text extraction, so
they are read only on pages that print a line that could be such a heading (`_could_be_heading`: regular
weight, ten words at most, set apart from the line above, alone on its baseline beside no table cell, not
closed like a sentence or a label ("Level 1:"), over a longer line of text, a set-apart one or one in another
style (a table's bold column heads right under the heading; a link list's next link is in the same); and not printed
at the same height on three pages or more, as a link bar's "Table of Contents" is), and of those first on a
sample of eight spread over the document: the rest only when the sample shows an underline. Over the corpus
that reads 212 of 2,475 pages. Only the candidate lines are checked.

A line is underlined when one path, thin and level, runs under it from its first word to its last (within a
tenth of its width) and not much beyond: a rule across the column under a short line is a rule, not an
underline.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pymupdf

from pageindex_desktop.core.document import Line, PageData

MAX_WORDS = 10
MIN_LETTERS = 3
GAP_ABOVE = 0.4  # of the line's height: a heading stands apart from the line above it
THIN = 0.25  # of the font size: how thick an underline may be (a stroke reports no height at all)
COVER = 0.1  # of the line's width: how far an underline may fall short at either end
OVERHANG = 0.15  # of the line's width (and 6 pt more): how far it may run past the line's end
CELL_WORDS = 4  # a text this short on a candidate's baseline is a table cell beside it
FURNITURE_PAGES = 3  # the same text at the same height on this many pages is a running header or a link bar
SAMPLE_PAGES = 8  # candidate pages read first; the rest only when one of them shows an underline
OPENS_TEXT = 1.2  # the line under a heading is text: this many times the heading's width or more
STYLE_STEP = 0.3  # points of size that set the line under a heading in another style (a table's heads)


def mark_underlined(doc: pymupdf.Document, pages: list[PageData]) -> None:
    """Set `underlined` on the lines of `pages` (read from `doc`, still open) that a drawn rule underlines.

    Paths are read first on a sample of the pages that print a candidate line (SAMPLE_PAGES, spread over the
    document); only when the sample shows an underlined candidate are the other candidate pages read. A
    document that underlines its headings does so throughout, and the others, nearly all, pay for the sample
    alone. Run once over the whole document after extraction, so the result is the same for any number of
    extraction workers.
    """
    found = {index: _candidates(page.lines) for index, page in enumerate(pages) if not page.ocr}
    spots = Counter(_spot(pages[index].lines[i]) for index, lines in found.items() for i in lines)
    candidates = {index: kept for index, lines in found.items()
                  if (kept := [i for i in lines if spots[_spot(pages[index].lines[i])] < FURNITURE_PAGES])}
    order = sorted(candidates)
    if not order:
        return
    step = max(1, len(order) // SAMPLE_PAGES)
    sample = order[::step][:SAMPLE_PAGES]
    if not sum(_mark_page(doc, index, pages[index], candidates[index]) for index in sample):
        return
    for index in order:
        if index not in sample:
            _mark_page(doc, index, pages[index], candidates[index])


def _spot(line: Line) -> tuple[str, int]:
    """A line's text and height on its page: what repeats where a running header or a link bar is printed."""
    return line.text, round(line.y0)


def _mark_page(doc: pymupdf.Document, index: int, page: PageData, candidates: list[int]) -> int:
    """Mark the `candidates` (indices into `page.lines`) that a path on page `index` underlines; how many."""
    try:
        loaded = doc.load_page(index)
        if loaded.rotation:
            return 0  # lines are turned as the page is shown, paths are not
        paths = [tuple(d["rect"]) for d in loaded.get_cdrawings()]
    except Exception:  # a broken content stream: no underlines, the text is already read
        return 0
    rules = [r for r in paths if r[2] - r[0] > 0 and r[3] - r[1] < 3.0]
    marked = 0
    for i in candidates:
        if any(_underlines(rule, page.lines[i]) for rule in rules):
            page.lines[i] = replace(page.lines[i], underlined=True)
            marked += 1
    return marked


def _candidates(lines: list[Line]) -> list[int]:
    """Indices of the lines that could be sub-headings marked only by an underline (`_could_be_heading`)."""
    cells = [line for line in lines if len(line.text.split()) <= CELL_WORDS]  # what may crowd a candidate
    return [i for i in range(len(lines)) if _could_be_heading(lines, i, cells)]


def _could_be_heading(lines: list[Line], i: int, cells: list[Line]) -> bool:
    """True when line `i` could be a sub-heading marked only by an underline (see the module docstring);
    `cells`: the page's lines of CELL_WORDS words or fewer."""
    line = lines[i]
    text = line.text.rstrip()
    if line.bold or not text or not (1 <= len(text.split()) <= MAX_WORDS):
        return False
    if not (text[0].isupper() or text[0].isdigit()) or text[-1] in ".,;:" or "://" in text or "@" in text:
        return False
    if sum(map(str.isalpha, text)) < MIN_LETTERS:  # map: C speed, on every line of every page
        return False
    height = line.y1 - line.y0
    if i > 0 and 0 <= line.y0 - lines[i - 1].y1 < GAP_ABOVE * height:
        return False  # the line goes on from the one right above it: a paragraph's last line
    below = lines[i + 1] if i + 1 < len(lines) else None
    if below is None or below.y0 < line.y1 - 0.3 * height:
        return False  # the page's last line, or a line read before the one beside or above it
    # a heading opens text below it (a longer line), a sub-heading set apart under it, or a block in another
    # style (a table's bold column heads); not the next of a run of like lines (a table's labels, a link list)
    if below.x1 - below.x0 < OPENS_TEXT * (line.x1 - line.x0) and below.y0 - line.y1 < GAP_ABOVE * height \
            and below.bold == line.bold and abs(below.size - line.size) < STYLE_STEP:
        return False
    # a table's label or column head: a cell of a few words shares its baseline (MuPDF may read a row's cells
    # apart); the other column's prose beside a heading does not make it a cell
    return not any(o is not line and min(o.y1, line.y1) - max(o.y0, line.y0) > 0.5 * height for o in cells)


def _underlines(rule: tuple[Any, ...], line: Line) -> bool:
    """True when the path bounding box `rule` is a thin level rule under `line` from its start to its end."""
    x0, y0, x1, y1 = (float(v) for v in rule)
    width = line.x1 - line.x0
    size = line.size or (line.y1 - line.y0)
    if y1 - y0 > max(1.0, THIN * size):
        return False
    if not (line.y1 - 0.4 * size <= y0 <= line.y1 + 0.4 * size):
        return False
    return x0 <= line.x0 + COVER * width + 1 and x1 >= line.x1 - COVER * width - 1 and \
        x1 - x0 <= (1 + OVERHANG) * width + 6
