"""Corrections to the levels of layout headings from where a heading falls in the sequence, not its look.

`style_levels.style_levels` ranks heading styles by their look (size, weight, numbering depth). A style used
once misleads it: a one-off larger or bold title ranks above the sections around it and, by rank alone,
would be the parent of every heading after it. The order of the headings shows when it cannot be.
"""

from __future__ import annotations

from collections import Counter

from pageindex_desktop.core.outline.layout_filters import UNNUMBERED, Candidate


def one_off_levels(candidates: list[Candidate], levels: list[int]) -> list[int]:
    """`levels` (one per candidate) with the heading of each unnumbered style used once set level with the
    highest heading under it, when it cannot be the parent of the headings its rank would hang under it:

    - headings of that level already stand before it with no heading of its level or above over them
      (siblings printed earlier: "Report of Independent Auditors" set larger among a filing's sections, a
      book's half-title "FREE CULTURE" between its "PREFACE" and "INTRODUCTION"), or
    - its span runs to the end of the document (every later heading would be its child: an opening
      "Guidance and Outlook" in a larger face over a release's whole body).

    One-offs are taken from the lowest level upwards, so two one-offs stacked over the same body ("Guidance
    and Outlook", then "Prepared Remarks") both come down to the body's level.
    """
    out = list(levels)
    count = Counter(c.style for c in candidates)
    once = [i for i, c in enumerate(candidates) if count[c.style] == 1 and c.style[2] in UNNUMBERED]
    for i in sorted(once, key=lambda k: -out[k]):
        rank = out[i]
        below: list[int] = []
        for level in out[i + 1:]:
            if level <= rank:
                break
            below.append(level)
        if not below:
            continue
        top = min(below)
        to_end = len(below) == len(out) - i - 1
        earlier = False
        for level in out[:i]:
            if level <= rank:
                break  # headings from here on have a parent of this level or above
            if level == top:
                earlier = True
                break
        if to_end or earlier:
            out[i] = top
    return out

