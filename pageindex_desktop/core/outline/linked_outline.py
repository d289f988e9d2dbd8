"""Slide decks whose sections are named only on a contents slide that links each one to its first slide.

Beamer's `\\tableofcontents` frame lists the sections (and their subsections, indented) as links to the slides
they open on, and many themes print the sections nowhere else: no navigation bar, no outline slide repeated
before each section (`nav_bar.py` and `outline_slides.py` find nothing), and the frame titles are per slide.
The slide prints no page numbers, so only the links say where each entry starts.

A contents slide is one of the deck's first pages whose rows, three or more with letters, each sit on a link
to a later slide, in the order of the slides they lead to. An entry indented past the leftmost ones is one
level down (a subsection), and so is one in smaller type than the first. Running rows (a headline or footline
that links to its sections too) are left out. Rows in smaller type than the text are a navigation sidebar's,
which lists and links every section on every slide: they are read only when no bar was found and no slide
holds a list in the text's size; there a row linking its own slide counts, and a name wrapped over two lines,
each linking the same slide, is one title.
"""

from __future__ import annotations

from dataclasses import replace

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import Analysis
from pageindex_desktop.core.outline.nav_bar import is_slide_deck
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.tree import Heading

MIN_ENTRIES = 3  # a contents slide lists three entries or more
MAX_CHARS = 80
INDENT = 4.0  # points an entry sits right of the leftmost ones to be a level down
WRAP_SHIFT = 2.0  # points a wrapped line's left edge may stand from its first line's
SMALLER = 1.5  # points under the text's size from which a linked row is a navigation bar's, not an entry


def find_linked_outline(doc: ExtractedDocument, analysis: Analysis, sidebar: bool) -> list[Heading] | None:
    """The deck's sections (level 1) and subsections (level 2) from its linked contents slide, or None when it
    has none; of several, the one with the most entries. With `sidebar` (no navigation bar was read), a list
    in smaller type (a sidebar that lists and links every section on every slide) is read when no slide holds
    one in the text's size."""
    if not any(page.links for page in doc.pages) or not is_slide_deck(doc, analysis):
        return None
    best: dict[bool, list[tuple[Row, int]]] = {True: [], False: []}
    for page, rows in zip(doc.pages, analysis.rows):
        if not page.links:
            continue
        entries: dict[bool, list[tuple[Row, int]]] = {True: [], False: []}
        for index, row in enumerate(rows):
            full = row.size >= analysis.body_size - SMALLER
            if full and analysis.is_running(row, index) or len(row.text) > MAX_CHARS \
                    or sum(c.isalpha() for c in row.text) < 2:
                continue  # (a sidebar's rows repeat on every slide by nature: they stay)
            target = _link_under(row, page.links)
            if target is not None and (target > page.number or not full and target == page.number):
                entries[full].append((row, target))  # (a sidebar links the slide it is on too)
        for full, found in entries.items():
            found = _joined_wraps(found)
            targets = [target for _row, target in found]
            if len(found) >= MIN_ENTRIES and len(set(targets)) >= 2 and targets == sorted(targets) \
                    and len(found) > len(best[full]):
                best[full] = found
    chosen = best[True] or (best[False] if sidebar else [])
    if not chosen:
        return None
    left = min(row.x0 for row, _target in chosen)
    top = max(row.size for row, _target in chosen)
    return [Heading(row.text.strip(), 2 if row.x0 > left + INDENT or row.size < top - 0.5 else 1, target, 0.0,
                    linked=True) for row, target in chosen]


def _joined_wraps(entries: list[tuple[Row, int]]) -> list[tuple[Row, int]]:
    """`entries` with an entry's wrapped lines joined: a row right under the last, in its size, at its left
    edge and linked to the same slide ("Memory" over "Management" in a narrow sidebar) goes on with its title."""
    out: list[tuple[Row, int]] = []
    for row, target in entries:
        if out:
            last, last_target = out[-1]
            height = last.y1 - last.y0
            if target == last_target and abs(row.size - last.size) <= 0.3 and abs(row.x0 - last.x0) <= WRAP_SHIFT \
                    and -0.5 * height <= row.y0 - last.y1 <= height:
                out[-1] = (replace(last, text=f"{last.text.strip()} {row.text.strip()}", y1=row.y1), target)
                continue
        out.append((row, target))
    return out


def _link_under(row: Row, links: list[tuple[float, float, float, float, int]]) -> int | None:
    """The target page of the link the row sits on: one covering the row's middle height and most of its width."""
    middle = (row.y0 + row.y1) / 2
    for x0, y0, x1, y1, target in links:
        if y0 <= middle <= y1 and min(x1, row.x1) - max(x0, row.x0) >= 0.5 * (row.x1 - row.x0):
            return target
    return None
