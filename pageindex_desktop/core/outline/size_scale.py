"""One document's text sizes grouped into the sizes its designer chose, so "the same size" means one thing.

Heading styles are told apart by size, and the body by its most common size. Keyed by a fixed grid (whole or
half points), one style whose size lies near a grid boundary splits in two: a heading set at 14.5 pt comes out
of the extraction at 14.4 and 14.6 and would rank as two levels; a body at 10.25 pt (a Letter page scaled to
A4, every size off the grid) is counted half at 10 and half at 10.5, and a smaller size outweighs either half.
The sizes that actually occur decide instead: the most used size (by characters) is a cluster's key and takes
in every less used size within SAME of it, then the next most used size left, and so on. Clusters grow from
their centre, never link to link, so a run of sizes 0.2 apart never chains into one; sizes that really
differ (10 and 10.5, 12 and 14) stay apart.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pageindex_desktop.core.outline.layout_filters import Candidate

SAME = 0.3  # points either side of a cluster's key that are extraction noise of that size
SAME_SHARE = 0.02  # ... or this share of the size, for large type (noise grows with the size)


def _grid(size: float) -> float:
    """The 0.1 pt grid Line.size is rounded to (ingest), so keys are found by exact lookup."""
    return round(size, 1)


def _reach(size: float) -> float:
    """How far from a cluster's key a size still counts as that size."""
    return max(SAME, SAME_SHARE * size) + 1e-6


@dataclass
class SizeScale:
    """Each size seen in the document -> the key of its cluster (the cluster's most used size)."""

    keys: dict[float, float] = field(default_factory=dict)

    def key(self, size: float) -> float:
        """The cluster key of `size`; a size never seen takes the nearest key within reach, else itself."""
        grid = _grid(size)
        found = self.keys.get(grid)
        if found is not None:
            return found
        near = min(self.keys.values(), key=lambda k: abs(k - grid), default=None)
        return near if near is not None and abs(near - grid) <= _reach(near) else grid

    def larger_by(self, size: float, body: float, points: float) -> bool:
        """`larger_by` below, where a rule holds the document's scale rather than this module."""
        return larger_by(size, body, points)

    def restyled(self, candidates: list[Candidate]) -> list[Candidate]:
        """`candidates` with each style's size replaced by its cluster's key (in place): the layout pass builds
        styles from whole points, and every rule that compares styles, and the ranking, must see one size
        per style. A style whose size was taken from another row than the candidate's own (a "Chapter 1" label
        ranked by the larger title joined under it) keeps that size, keyed."""
        for cand in candidates:
            size = cand.row.size if cand.style[0] == round(cand.row.size) else cand.style[0]
            cand.style = (self.key(size), cand.style[1], cand.style[2])
        return candidates


def size_scale(weighted: Iterable[tuple[float, int]]) -> SizeScale:
    """The clusters of (size, characters) pairs, as the module docstring describes."""
    weight: Counter[float] = Counter()
    for size, chars in weighted:
        weight[_grid(size)] += chars
    keys: dict[float, float] = {}
    distinct = sorted(weight)
    for centre in sorted(weight, key=lambda s: (-weight[s], s)):
        if centre in keys:
            continue
        reach = _reach(centre)
        # only the sizes within reach are looked at: an OCR layer may hold thousands of distinct sizes
        for size in distinct[bisect_left(distinct, centre - reach):bisect_right(distinct, centre + reach)]:
            keys.setdefault(size, centre)
    return SizeScale(keys)


REFERENCE_BODY = 10.0  # the body size the layout's point gates were written for
GRID_SLACK = 0.05  # half the 0.1 pt grid sizes are rounded to (ingest): a scaled size may lose that much


def larger_by(size: float, body: float, points: float) -> bool:
    """True when `size` is `points` or more above `body`, as measured over a 10 pt body and scaled with the
    body: a fixed gate missed a heading 2 pt over a 10 pt body in a 97 % copy (11.6 over 9.7), and rounding
    to the 0.1 pt grid costs up to another GRID_SLACK."""
    return size >= body + points * body / REFERENCE_BODY - GRID_SLACK


BODY_NEAR = 0.05  # share of the body size a line may differ by and still be set in the body's size


def same_as_body(size: float, body: float) -> bool:
    """True when `size` is the body's within BODY_NEAR of it (0.5 pt over a 10 pt body) plus GRID_SLACK: a
    fixed 0.6 pt read an 8.2 pt line as body text over an 8.5 pt body but not the same line over an 8.8 pt
    body in a 103 % copy (8.0 and 8.2 after rounding), and a cover page with it as a page of running text."""
    return abs(size - body) <= BODY_NEAR * body + GRID_SLACK
