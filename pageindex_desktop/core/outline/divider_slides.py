"""A deck's section-divider slides ranked level with its slide titles.

A presentation opens each part on a divider slide: one title ("SEGMENT REVIEW", "Outlook") and perhaps a line
under it, set in a face of its own. When that face is smaller than the slide titles' (a PowerPoint template's
section header at 40 pt, its slide titles at 44), style ranking puts every divider under the slide before it,
except the first, which has no title before it: one part stood at the top and the others inside slides. Decks'
own outlines either list every slide flat (LibreOffice's export) or only the parts (beamer's sections), so a
divider at the slide titles' level is right under both; nesting slides under dividers would be wrong under the
first. Only when two or more dividers share one face, and they all rank below the titles most slides open
with, are they raised to that level.
"""

from __future__ import annotations

from collections import Counter

from pageindex_desktop.core.outline.analysis import Analysis
from pageindex_desktop.core.outline.layout_filters import Candidate

MAX_OTHER_ROWS = 2  # text rows besides its title on a divider slide (a subtitle, a date)
MIN_DIVIDERS = 2


def divider_levels(candidates: list[Candidate], levels: list[int], analysis: Analysis) -> list[int]:
    """`levels` with a deck's divider-slide titles set level with its slide titles (module docstring)."""
    on_page = Counter(c.row.page for c in candidates)
    dividers = [i for i, c in enumerate(candidates) if on_page[c.row.page] == 1 and _alone(c, analysis)]
    if len(dividers) < MIN_DIVIDERS or len({candidates[i].style for i in dividers}) != 1:
        return levels
    firsts: dict[int, int] = {}  # page -> index of its first candidate, on the other slides
    for i, cand in enumerate(candidates):
        if i not in dividers:
            firsts.setdefault(cand.row.page, i)
    if len(firsts) < MIN_DIVIDERS:
        return levels
    title_level = Counter(levels[i] for i in firsts.values()).most_common(1)[0][0]
    if not all(levels[i] > title_level for i in dividers):
        return levels
    out = list(levels)
    for i in dividers:
        out[i] = title_level
    return out


def _alone(cand: Candidate, analysis: Analysis) -> bool:
    """The candidate's page holds at most MAX_OTHER_ROWS other text rows, headers and footers aside."""
    rows = analysis.rows[cand.row.page - 1]
    others = [r for i, r in enumerate(rows) if r is not cand.row and r.y0 != cand.row.y0
              and not analysis.is_running(r, i)]
    return len(others) <= MAX_OTHER_ROWS
