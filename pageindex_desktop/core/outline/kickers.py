"""Kickers: the small label an annual report or a magazine prints right over a display title ("OUR STRATEGY"
in 9 pt coloured capitals over "Building for the Future" in 32 pt). Set bold or in colour it passed as a heading
of its own, a one-off style that hung under the previous chapter's last section; the title under it is the
section, and the kicker names no part of the document the title does not.

A kicker is unnumbered, the next heading is printed right under it on its page (within twice the kicker's
height, nothing fits between), and that heading is set at least KICKER_RATIO times its size. A numbered label
("Chapter 2", "PART I") is joined to its title by the layout pass instead, and a heading with text under it is
no kicker.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.layout_filters import UNNUMBERED, Candidate

KICKER_RATIO = 1.8  # the title under a kicker is set at least this many times its size
KICKER_GAP = 2.0  # heights of the kicker's line: the title starts within this far under it


def _kicker(cand: Candidate, nxt: Candidate) -> bool:
    """True when `cand` is a kicker over the heading `nxt` (see the module docstring)."""
    if cand.style[2] not in UNNUMBERED or nxt.row.page != cand.row.page or nxt.row.size < KICKER_RATIO * cand.row.size:
        return False
    height = cand.row.y1 - cand.row.y0
    gap = nxt.row.y0 - cand.bottom  # boxes of tightly set lines overlap a little
    return -0.5 * height <= gap <= KICKER_GAP * height and nxt.row.y0 > cand.row.y0


def drop_kickers(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates without the kickers printed over display titles."""
    return [c for i, c in enumerate(candidates) if i + 1 == len(candidates) or not _kicker(c, candidates[i + 1])]
