"""A numbered heading set in the body's face ranks above the unnumbered heads inside its sections (issue 11,
remaining class 4).

Style rank puts bold before regular, so a report that sets "1 Introduction" large and bold, "1.1 Scope" in the
body's regular face and its unnumbered sub-heads ("Background Material") bold in the body's size ranks the
sub-heads above "1.1": the tree hangs every section under the bold run-in-like heads. The numbering says where
"1.1" belongs (under "1", a depth below it), and where the unnumbered heads are printed says where they
belong: when nearly all of them follow a "1.1"-style heading since the last "1"-style one, they sit inside
those sections, so their style ranks below it.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.layout_filters import UNNUMBERED, Candidate

Style = tuple[float, bool, str]
INSIDE_SHARE = 0.8  # share of an unnumbered style's heads that must follow the deeper numbered style
MIN_HEADS = 2  # an unnumbered style used once says nothing of where it sits


def numbered_above(candidates: list[Candidate], levels: dict[Style, int]) -> dict[Style, int]:
    """`levels` (style -> rank) with unnumbered styles moved below a decimal style nested in one ranked above
    them, when their heads are printed inside that style's sections (see the module docstring)."""
    decimal = {s: int(s[2][7:]) for s in levels if s[2].startswith("decimal") and s[2][7:].isdigit()}
    moved = dict(levels)
    for inner, depth in sorted(decimal.items(), key=lambda item: levels[item[0]]):
        outer = [s for s, d in decimal.items() if d == depth - 1 and moved[s] < moved[inner]]
        if not outer:
            continue
        top = min(moved[s] for s in outer)
        numbered_ranks = {moved[s] for s in levels if s[2] not in UNNUMBERED}
        between = [s for s in levels if s[2] in UNNUMBERED and top < moved[s] < moved[inner]
                   and moved[s] not in numbered_ranks]
        below = [s for s in between if _inside(candidates, s, inner, set(outer))]
        if below:
            moved = _rerank(moved, below, inner)
    return moved


def _inside(candidates: list[Candidate], style: Style, inner: Style, outer: set[Style]) -> bool:
    """Nearly every head of `style` has, as the last `inner` or `outer` heading before it, an `inner` one."""
    last: Style | None = None
    heads = inside = 0
    for cand in candidates:
        if cand.style == inner or cand.style in outer:
            last = cand.style
        elif cand.style == style:
            heads += 1
            inside += last == inner
    return heads >= MIN_HEADS and inside >= INSIDE_SHARE * heads


def _rerank(levels: dict[Style, int], below: list[Style], inner: Style) -> dict[Style, int]:
    """`levels` with the ranks of the `below` styles moved to just after `inner`'s, ranks renumbered 1, 2, ..."""
    moving = {levels[s] for s in below}
    order = [r for r in sorted(set(levels.values())) if r not in moving]
    at = order.index(levels[inner]) + 1
    order[at:at] = sorted(moving)
    new = {r: i + 1 for i, r in enumerate(order)}
    return {s: new[r] for s, r in levels.items()}
