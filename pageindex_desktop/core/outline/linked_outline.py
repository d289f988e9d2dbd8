"""Slide decks whose sections are named only on a contents slide that links each one to its first slide.

Beamer's `\\tableofcontents` frame lists the sections (and their subsections, indented) as links to the slides
they open on, and many themes print the sections nowhere else: no navigation bar, no outline slide repeated
before each section (`nav_bar.py` and `outline_slides.py` find nothing), and the frame titles are per slide.
The slide prints no page numbers, so only the links say where each entry starts.

A contents slide is one of the deck's first pages whose rows, three or more with letters, each sit on a link
to a later slide, in the order of the slides they lead to. An entry indented past the leftmost ones is one
level down (a subsection). Running rows (a headline or footline that links to its sections too) are left out.
"""

from __future__ import annotations

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import Analysis
from pageindex_desktop.core.outline.nav_bar import is_slide_deck
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.tree import Heading

MIN_ENTRIES = 3  # a contents slide lists three entries or more
MAX_CHARS = 80
INDENT = 4.0  # points an entry sits right of the leftmost ones to be a level down


def find_linked_outline(doc: ExtractedDocument, analysis: Analysis) -> list[Heading] | None:
    """The deck's sections (level 1) and subsections (level 2) from its linked contents slide, or None when it
    has none; of several, the one with the most entries."""
    if not any(page.links for page in doc.pages) or not is_slide_deck(doc, analysis):
        return None
    best: list[tuple[Row, int]] = []
    for page, rows in zip(doc.pages, analysis.rows):
        if not page.links:
            continue
        entries = []
        for index, row in enumerate(rows):
            if analysis.is_running(row, index) or len(row.text) > MAX_CHARS or sum(c.isalpha() for c in row.text) < 2:
                continue
            target = _link_under(row, page.links)
            if target is not None and target > page.number:
                entries.append((row, target))
        targets = [target for _row, target in entries]
        if len(entries) >= MIN_ENTRIES and len(set(targets)) >= 2 and targets == sorted(targets) \
                and len(entries) > len(best):
            best = entries
    if not best:
        return None
    left = min(row.x0 for row, _target in best)
    return [Heading(row.text.strip(), 1 + (row.x0 > left + INDENT), target, 0.0, linked=True) for row, target in best]


def _link_under(row: Row, links: list[tuple[float, float, float, float, int]]) -> int | None:
    """The target page of the link the row sits on: one covering the row's middle height and most of its width."""
    middle = (row.y0 + row.y1) / 2
    for x0, y0, x1, y1, target in links:
        if y0 <= middle <= y1 and min(x1, row.x1) - max(x0, row.x0) >= 0.5 * (row.x1 - row.x0):
            return target
    return None
