"""Levels of layout headings: the rank of each heading style (size, weight, numbering depth, first use), and
the outline the numbering schemes give where they nest ("I." > "A." > "1."), which overrides style.
"""

from __future__ import annotations

import re
from collections import Counter

from pageindex_desktop.core.outline.capital_styles import capitals_above
from pageindex_desktop.core.outline.layout_filters import BESIDE_PARTS, NOTE_KIND, STATEMENT_PAGE, UNNUMBERED, Candidate
from pageindex_desktop.core.outline.numbering import decimal_parts, leading_number, ordinal
from pageindex_desktop.core.outline.toc_levels import PART_KINDS

_FACELESS = BESIDE_PARTS | {STATEMENT_PAGE}  # page titles style_levels ranks by no face
# outline_levels: share of a scheme's restarts that must follow the same outer scheme, and share of headings
# the nested schemes must account for before numbering overrides style
RESTART_AGREE_SHARE = 0.8
NEST_COVER_SHARE = 0.8
_DEPTH_KIND = re.compile(r"^(decimal|letter-decimal)([0-9]+)$")  # a numbering kind that carries its depth


def style_levels(candidates: list[Candidate]) -> dict[tuple[float, bool, str], int]:
    """Level of each heading style: larger first, bold before regular, then numbering depth and first use;
    unnumbered capitals above mixed case of their size where the order of the headings shows it (capital_styles).

    An unnumbered style ranks with the first numbered style of the same size and weight ("References" after
    "7 Conclusion" is a sibling, not a child), and so does a one-level scheme that takes over from it
    (`_continued_schemes`: "Appendix A" after "3 Results"). Ranks are not capped: a seventh style merged into the sixth
    would set two different faces level with each other whatever their order in the text.
    """
    first_seen: dict[tuple[float, bool, str], int] = {}
    first_kind: dict[tuple[float, bool], str] = {}
    for i, cand in enumerate(candidates):
        if cand.style[2] in _FACELESS:
            continue  # an exhibit's, the contents' or a statement's page title: level 1, ranked by no face
        first_seen.setdefault(cand.style, i)
        if cand.style[2] not in UNNUMBERED:
            first_kind.setdefault(cand.style[:2], cand.style[2])

    continued = _continued_schemes(candidates)

    def key(style: tuple[float, bool, str]) -> tuple[float, bool, str]:
        """The style an unnumbered style, or a scheme that takes over from another in its face, ranks with."""
        kind = style[2] if style[2] != "none" else first_kind.get(style[:2], "none")
        return (style[0], style[1], continued.get((style[0], style[1], kind), kind))

    keys = {style: key(style) for style in first_seen}
    seen_key: dict[tuple[float, bool, str], int] = {}
    for style, k in keys.items():
        seen_key[k] = min(seen_key.get(k, first_seen[style]), first_seen[style])

    def order(k: tuple[float, bool, str]) -> tuple[float, int, int, int]:
        """Sort key: larger, then bold, then shallower numbering, then seen earlier."""
        size, bold, kind = k
        depth = int(kind[7:]) if kind.startswith("decimal") else 0
        return (-size, 0 if bold else 1, depth, seen_key[k])

    ranked = _in_numbering_order(sorted(seen_key, key=order), candidates)
    ranked = capitals_above(ranked, candidates, lambda c: keys.get(c.style, c.style), UNNUMBERED,
                            UNNUMBERED | {NOTE_KIND})
    rank = {k: i + 1 for i, k in enumerate(ranked)}
    levels = {style: rank[k] for style, k in keys.items()}
    # the page titles ranked beside a filing's parts (division_levels) take no rank among the faces: their
    # face says nothing of their level, and a rank of their own would push the deepest faces together
    levels.update({c.style: 1 for c in candidates if c.style[2] in _FACELESS})
    return levels


def _in_numbering_order(ranked: list[tuple[float, bool, str]], candidates: list[Candidate]
                        ) -> list[tuple[float, bool, str]]:
    """`ranked` with the decimal styles of each size, in the places they hold, reordered by numbering depth
    (stable) when their numbers chain: "1 RIVERS" set regular and "1.1 Spring Floods" bold at the same size
    rank "1" first, for "1.1" numbers a section inside it whatever its weight; ranked by weight, every "1.1"
    would be a parent of the next "2". The numbers must chain (nearly every "n.m" printed after an "n" of the
    style one depth up), so a run of body-size "1." list items does not leap over bold "2.1.1" sub-sections;
    across sizes the look decides."""
    def depth(style: tuple[float, bool, str]) -> int:
        kind = style[2]
        return int(kind[7:]) if kind.startswith("decimal") and kind[7:].isdigit() else 0

    out = list(ranked)
    for size in {style[0] for style in ranked if depth(style)}:
        slots = [i for i, style in enumerate(ranked) if depth(style) and style[0] == size]
        styles = sorted((ranked[i] for i in slots), key=depth)
        if styles != [ranked[i] for i in slots] and all(
                _chained(candidates, outer, inner) for outer, inner in zip(styles, styles[1:])):
            for i, style in zip(slots, styles):
                out[i] = style
    return out


def _chained(candidates: list[Candidate], outer: tuple[float, bool, str], inner: tuple[float, bool, str]) -> bool:
    """True when `inner` numbers one depth below `outer` and nearly every `inner` heading ("2.1") carries the
    number of the last `outer` heading before it ("2") as its prefix."""
    if int(inner[2][7:]) != int(outer[2][7:]) + 1:
        return False
    last: str | None = None
    heads = chained = 0
    for cand in candidates:
        num = leading_number(cand.text) if cand.style in (outer, inner) else None
        if num is None:
            continue
        if cand.style == outer:
            last = ".".join(decimal_parts(num.token))
        else:
            heads += 1
            chained += last is not None and ".".join(decimal_parts(num.token)[:-1]) == last
    return heads > 0 and chained >= RESTART_AGREE_SHARE * heads


# one-level schemes: a number that names a section on its own, not its place in a decimal outline
_ONE_LEVEL = frozenset({"decimal1", "upper-letter", "roman"})


def _continued_schemes(candidates: list[Candidate]) -> dict[tuple[float, bool, str], str]:
    """Style -> the numbering kind it continues: a one-level scheme ("Appendix A", "A", "I") whose headings
    all come after the last heading of the first one-level scheme set in the same face ("1", "2", "3") takes
    over its count, as a paper's appendices follow its sections in their face; ranked by kind alone it would
    stand above or below them and, with no numbered sub-sections to nest by, put "References" after the
    last appendix under it. Schemes that interleave (a legal outline's "I." > "A." > "1." in one face) keep
    their own ranks; parts, notes and a filing's own pages are never a continuation.
    """
    first: dict[tuple[float, bool, str], int] = {}
    last: dict[tuple[float, bool, str], int] = {}
    for i, cand in enumerate(candidates):
        kind = cand.style[2]
        if kind in _ONE_LEVEL or kind.startswith("keyword") and kind not in PART_KINDS \
                and kind != NOTE_KIND and kind not in BESIDE_PARTS:
            first.setdefault(cand.style, i)
            last[cand.style] = i
    base: dict[tuple[float, bool], tuple[float, bool, str]] = {}
    for style in sorted(first, key=first.__getitem__):
        base.setdefault(style[:2], style)
    return {style: base[style[:2]][2] for style in first
            if base[style[:2]] != style and first[style] > last[base[style[:2]]]}


def outline_levels(candidates: list[Candidate], levels: dict[tuple[float, bool, str], int]) -> list[int]:
    """Each candidate's level: from its numbering scheme when the schemes nest, else from its style (`levels`).

    Legal and government documents number an outline "I." > "A." > "1." > "a." > "(1)" in one typeface, or
    set the outer scheme in smaller capitals, so type size misranks them. The schemes say it themselves: a
    scheme that restarts at its first number ("1.", "a.", "(1)") right after headings of one other scheme, at
    least twice and nearly always after that same scheme, is nested in it. When such nesting accounts for most
    headings, a numbered heading's level is its scheme's depth in that nest, and every other heading takes the
    level of the nested scheme set in its size and weight, else, unnumbered, the level below the deepest nested
    scheme its style ranks under (top level when none is).
    """
    after: dict[str, Counter[str]] = {}
    previous: str | None = None
    for cand in candidates:
        kind = cand.style[2]
        if kind in UNNUMBERED:
            continue
        num = leading_number(cand.text)
        if num is not None and previous is not None and previous != kind and not kind.startswith("keyword") \
                and ordinal(num) == 1:
            after.setdefault(kind, Counter())[previous] += 1
        previous = kind
    parent: dict[str, str] = {}
    for kind, counts in after.items():
        outer, times = counts.most_common(1)[0]
        if times >= 2 and times >= RESTART_AGREE_SHARE * sum(counts.values()):
            parent[kind] = outer
    # a decimal number says its own depth: "3.1" sits under "3." whatever came before it (a "3." lost, or set
    # where layout does not find it, made "3.1" restart after "2.1.3" and broke the count above)
    kinds = {c.style[2] for c in candidates}
    for kind in kinds:
        m = _DEPTH_KIND.match(kind)
        if m and kind not in parent and int(m.group(2)) > 1 and f"{m.group(1)}{int(m.group(2)) - 1}" in kinds \
                and after.get(kind, Counter()).get(f"{m.group(1)}{int(m.group(2)) - 1}", 0) >= 2:
            parent[kind] = f"{m.group(1)}{int(m.group(2)) - 1}"
    # a scheme that restarts once, right after a scheme already in the nest and after no other ("1." under
    # "C." in a short release numbered "I." > "A." > "1."), goes on the nest's end: one restart is all a short
    # document gives its deepest scheme
    nest = set(parent) | set(parent.values())
    # ... unless it takes over from a scheme in its face (`_continued_schemes`): a paper's "A." appendices after
    # its last "4.3" sub-section follow its "1." sections, in their type
    continuing = {style[2] for style in _continued_schemes(candidates)}
    # ... or after a scheme outside the nest that its face ranks under (`levels`): a report's one chapter "1."
    # over its "1.1" sections, an appendix's "A.1" after "Appendix A", each restarting once
    rank: dict[str, int] = {}
    for style, level in levels.items():
        rank[style[2]] = min(rank.get(style[2], level), level)
    for kind, counts in after.items():
        if kind not in parent and len(counts) == 1 and kind not in continuing:
            outer = next(iter(counts))
            if (outer in nest or rank.get(outer, 0) < rank.get(kind, 0)) and parent.get(outer) != kind:
                parent[kind] = outer
    depth: dict[str, int] = {}
    for kind in parent:
        chain = [kind]
        while chain[-1] in parent:
            chain.append(parent[chain[-1]])
            if len(chain) > len(parent) + 1:
                return [levels[c.style] for c in candidates]  # a cycle: the schemes do not nest
        depth[kind] = len(chain) - 1
        depth.setdefault(chain[-1], 0)
    nested = sum(1 for c in candidates if c.style[2] in depth)
    if not parent or nested < NEST_COVER_SHARE * len(candidates):
        return [levels[c.style] for c in candidates]
    by_face: dict[tuple[float, bool], int] = {}
    face_rank: dict[tuple[float, bool], int] = {}  # a nested face -> the best style rank of its headings
    for cand in candidates:
        if cand.style[2] in depth:
            face = cand.style[:2]
            by_face[face] = min(by_face.get(face, depth[cand.style[2]]), depth[cand.style[2]])
            face_rank[face] = min(face_rank.get(face, levels[cand.style]), levels[cand.style])

    def unnested(cand: Candidate) -> int:
        """The depth of a heading of no nested scheme: its face's, else, unnumbered, one below the deepest
        nested face its style ranks under ("Joint tenants" in bold at body size under "1.1" sections under
        "CHAPTER 1"), else the top (an "Appendix A" division among the chapters)."""
        if cand.style[:2] in by_face:
            return by_face[cand.style[:2]]
        if cand.style[2] not in UNNUMBERED:
            return 0
        above = [by_face[face] for face, rank in face_rank.items() if rank < levels[cand.style]]
        return max(above) + 1 if above else 0

    return [1 + (depth[c.style[2]] if c.style[2] in depth else unnested(c)) for c in candidates]
