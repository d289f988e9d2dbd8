"""Bold italic against bold upright at one size: which face is the level under the other, by the headings' order.

A report may set its sub-sections in bold and the level under them in bold italic, at the same size; a filing may
set its sections in bold italic over bold sub-heads. Both faces share one style (size, weight, numbering), so
they were ranked as one level and the lower one's headings became siblings of the heads they belong under. The
look cannot tell which is the upper face (`heading_italic.py` leaves bold italic to rank with the bold); the
order of the headings can: the lower face's headings come only after a heading of the upper face, within the
stretch that heading opens, and the upper face's headings open it, each before any of the lower face's.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.heading_italic import ITALIC_STEP
from pageindex_desktop.core.outline.layout_filters import Candidate

MIN_OPENED = 2  # heads of the upper face each followed right away by one of the lower face


def bold_italic_order(candidates: list[Candidate]) -> list[Candidate]:
    """`candidates` with the style of each bold face that the headings' order shows to be the level under the
    other face of its style (bold italic under bold upright, or the other way) set ITALIC_STEP under it (in
    place), so the ranking puts it a level below (module docstring)."""
    styles = {c.style for c in candidates if c.row.bold and c.row.italic} & \
        {c.style for c in candidates if c.row.bold and not c.row.italic}
    for style in styles:
        for lower_italic in (True, False):
            if _under(candidates, style, lower_italic):
                for cand in candidates:
                    if cand.style == style and cand.row.italic == lower_italic:
                        cand.style = (style[0] - ITALIC_STEP, *style[1:])
                break
    return candidates


def _under(candidates: list[Candidate], style: tuple[float, bool, str], lower_italic: bool) -> bool:
    """True when the headings of `style` whose slant is `lower_italic` each follow one of the other slant since
    the last heading of another style set as large or larger (the stretch a higher heading opens), and
    MIN_OPENED heads of the other slant are followed right away by one of theirs."""
    seen_upper = False
    opened = lower = 0
    previous: Candidate | None = None
    for cand in candidates:
        if cand.style != style:
            if cand.style[0] >= style[0]:
                seen_upper = False  # a heading of another style as large or larger opens a new stretch
        elif cand.row.italic == lower_italic:
            if not seen_upper:
                return False
            lower += 1
            if previous is not None and previous.style == style and previous.row.italic != lower_italic:
                opened += 1
        else:
            seen_upper = True
        previous = cand
    return lower >= MIN_OPENED and opened >= MIN_OPENED
