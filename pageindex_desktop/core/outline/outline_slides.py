"""Slide decks whose sections appear only on recurring outline slides (beamer's \\AtBeginSection with
\\tableofcontents[currentsection]): before each section the deck repeats one slide listing every section,
the current one in full colour and the others shaded.

The deck prints no section as a heading (the frame titles are per slide) and has no navigation bar, so
`nav_bar.py` finds nothing. The outline slide is told by its list: the same texts on two slides or more,
one of them in a colour no other entry of that slide has, a different one each time, moving down the list.
Each such slide starts the section it marks.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import Analysis
from pageindex_desktop.core.outline.nav_bar import is_slide_deck
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.tree import Heading

MIN_ENTRIES = 3  # an outline lists three sections or more
MAX_CHARS = 60


def find_outline_slides(doc: ExtractedDocument, analysis: Analysis) -> list[Heading] | None:
    """The deck's sections (level 1) from its recurring outline slides, or None when it has none."""
    if not is_slide_deck(doc, analysis):
        return None
    lists: dict[frozenset[str], list[list[Row]]] = defaultdict(list)
    for page_index, rows in enumerate(analysis.rows):
        # a section's number in a ball beside its name ("1" over a circle) is shaded with it: no entry of its own
        entries = [r for i, r in enumerate(rows) if not analysis.is_running(r, i) and len(r.text) <= MAX_CHARS
                   and sum(c.isalpha() for c in r.text) >= 2]
        if len(entries) >= MIN_ENTRIES:
            lists[frozenset(r.text.strip() for r in entries)].append(entries)
    best: list[tuple[int, str]] = []
    for slides in lists.values():
        if len(slides) >= 2:
            marked = _marked(slides)
            if len(marked) > len(best):
                best = marked
    if len(best) < 2:
        return None
    return [Heading(title, 1, page, 0.0) for page, title in best]


def _marked(slides: list[list[Row]]) -> list[tuple[int, str]]:
    """(page, text) of the entry each slide marks: among the texts whose colour changes from slide to slide,
    the one in a colour no other of them has on that slide; empty unless every slide marks one, each a new
    entry further down the list than the last. A slide printing every entry in one colour marks none and is
    passed over: the overview a deck opens with lists its sections in full before the first section's outline."""
    colours: dict[str, set[int]] = defaultdict(set)
    for rows in slides:
        for row in rows:
            colours[row.text.strip()].add(row.color)
    varying = {text for text, seen in colours.items() if len(seen) > 1}
    marked: list[tuple[int, str]] = []
    last_y = -1.0
    for rows in slides:
        entries = [r for r in rows if r.text.strip() in varying]
        counts = Counter(r.color for r in entries)
        single = [r for r in entries if counts[r.color] == 1]
        if len(entries) >= MIN_ENTRIES and len(counts) == 1:
            continue
        if len(entries) < MIN_ENTRIES or len(single) != 1 or single[0].y0 <= last_y:
            return []
        last_y = single[0].y0
        marked.append((single[0].page, single[0].text.strip()))
    return marked
