"""Keyword divisions' levels in a layout tree: parts, then items or chapters, then every other style.

Filings and books number their top divisions with a keyword ("PART II", "Item 7.", "Chapter 3") and often set
them no larger than the sub-heads inside them, so type size alone misranks them (`layout_filters` ranks the
styles first; this pass moves the divisions above what they contain).
"""

from __future__ import annotations

from collections import Counter

from pageindex_desktop.core.outline.layout_filters import BESIDE_PARTS, NOTE_KIND, UNNUMBERED, Candidate
from pageindex_desktop.core.outline.toc_levels import PART_KINDS


def _inside_one(spans: set[int]) -> bool:
    """True when a style's headings (`spans`, those after the last division left out: back matter such as
    SIGNATURES may share a face) all stand inside one division's span, none before the first
    (`division_levels`)."""
    return len(spans) == 1 and 0 not in spans


def division_levels(candidates: list[Candidate], levels: list[int]) -> list[int]:
    """`levels` with keyword divisions above the sub-heads they contain: parts, then items or chapters.

    Filings set "PART II" and "Item 7." in the face of their sub-heads or smaller, so type size alone ranks
    sub-heads level with parts or above items. A keyword that numbers three or more headings on two or more
    pages ("Item", "Chapter", "Article"; not "Section", which numbers deep clauses too; a list of them on one
    page is an index, not the divisions; a 10-Q's "Part II" items fill two pages) is the document's own
    division: it and the one-off keyword headings
    ("Appendix", "Schedule") take the level below the parts. Other styles keep their order, below the
    divisions, except a style set larger than every division and used less often than the divisions (a
    higher level has fewer headings: a book's unnumbered part titles), which stays above unless all its
    headings but those after the last division stand inside one division's span (a 10-K's statement titles,
    inside Item 8; `_inside_one`). An unnumbered style in a division's face used less often than the divisions
    stays at the division's level before the first division or after the last (a book's "Preface" and
    "Index", a filing's "SIGNATURES"); between divisions it is their sub-heads. A style ranked under one that
    stays below the divisions stays there too, whatever its count: a 10-Q's MD&A sets its sections in capitals
    and their fewer sub-sections in bold at that size or a point smaller, and above the parts the sub-sections
    would hold them.
    """
    kinds = Counter(c.style[2] for c in candidates)
    division_kinds = {k for k in kinds if k.startswith("keyword") and k not in PART_KINDS
                      and k not in ("keyword:section", NOTE_KIND) and k not in BESIDE_PARTS}
    pages: dict[str, set[int]] = {}
    for cand in candidates:
        if cand.style[2] in division_kinds:
            pages.setdefault(cand.style[2], set()).add(cand.row.page)
    if not any(kinds[k] >= 3 and len(pages[k]) >= 2 for k in division_kinds):
        return levels
    divisions = sum(kinds[k] for k in division_kinds)
    faces = {c.style[:2] for c in candidates if c.style[2] in division_kinds}
    largest = max(size for size, _bold in faces)
    style_count = Counter(c.style for c in candidates)
    has_parts = any(kind in PART_KINDS for kind in kinds)
    # which division's span each candidate stands in (0: before the first; `last`: after the last division)
    span: list[int] = []
    for cand in candidates:
        span.append((span[-1] if span else 0) + (cand.style[2] in division_kinds))
    spans_of: dict[tuple[float, bool, str], set[int]] = {}
    for cand, at in zip(candidates, span):
        spans_of.setdefault(cand.style, set()).add(at)
    last = span[-1] if span else 0
    group: list[int] = []  # 0 above the parts, 1 parts, 2 divisions, 3 below
    for cand, at in zip(candidates, span):
        kind = cand.style[2]
        if kind in PART_KINDS or kind in BESIDE_PARTS and has_parts:
            group.append(1)  # an exhibit's title page or a filing's contents sits beside its parts (filing_pages.py)
        elif kind in BESIDE_PARTS:
            group.append(2)  # beside the divisions when there are no parts: not a parent of the items after it
        elif kind in division_kinds:
            group.append(2)
        elif cand.style[0] > largest and style_count[cand.style] < divisions and \
                not _inside_one(spans_of[cand.style] - {last}):
            group.append(0)  # a book's part titles stand between several chapters, a 10-Q's MD&A sections before
            # its items; a 10-K's statement titles, larger than its items, all stand inside Item 8
        elif kind in UNNUMBERED and cand.style[:2] in faces and style_count[cand.style] < divisions and (
                at in (0, last)):
            group.append(2)  # front or back matter ("Preface", "Index", "SIGNATURES"), not a sub-head of an item
        else:
            group.append(3)
    # a style ranked under one that stays below the divisions stays there too (see the docstring)
    under = min((lvl for lvl, g in zip(levels, group) if g == 3), default=None)
    group = [3 if g == 0 and under is not None and lvl > under else g for lvl, g in zip(levels, group)]
    above = sorted({lvl for lvl, g in zip(levels, group) if g == 0})
    below = sorted({lvl for lvl, g in zip(levels, group) if g == 3})
    part_level = len(above) + 1
    division_level = part_level + (1 if 1 in group else 0)
    rank_above = {lvl: i + 1 for i, lvl in enumerate(above)}
    rank_below = {lvl: division_level + 1 + i for i, lvl in enumerate(below)}
    out: list[int] = []
    for cand, lvl, g in zip(candidates, levels, group):
        if g == 1 and cand.style[2] in BESIDE_PARTS:
            out.append(1)  # outside the form's body: above any style ranked over the parts
            continue
        out.append(rank_above[lvl] if g == 0 else part_level if g == 1 else division_level if g == 2
                   else rank_below[lvl])
    return out
