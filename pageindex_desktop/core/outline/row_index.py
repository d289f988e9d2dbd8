"""A page's rows (or lines) indexed by their top edge, so a rule that looks at the lines near one candidate
reads only those.

The table, signature, column-head and chart rules each ask, per candidate, for the lines on its baseline or a
few lines above or below it. Scanning the whole page for that made a page of thousands of rows (a long
statement, an exhibit index set small) quadratic in its rows. Every query here returns a superset of what the
rule wants, in the page's own order (ties the rules break by order stay as they were); the rule then applies
its exact test to that short list, so its answer does not change.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Generic, Protocol, TypeVar

SLACK = 0.01  # points added to both ends of a query, so rounding in a rule's own bounds never loses a line


class _Box(Protocol):
    """What the index needs of a row or a line: its top and bottom edge."""

    @property
    def y0(self) -> float: ...

    @property
    def y1(self) -> float: ...


B = TypeVar("B", bound=_Box)


class ByTop(Generic[B]):
    """`items` (one page's rows or lines) sorted by top edge once; queries give back items in page order."""

    __slots__ = ("items", "_order", "_tops", "_inverted", "tallest")

    def __init__(self, items: list[B]) -> None:
        self.items = items
        order = sorted((i for i, it in enumerate(items) if it.y1 >= it.y0), key=lambda i: items[i].y0)
        self._order = order
        self._tops = [items[i].y0 for i in order]
        # a box whose bottom lies above its top fits no band test by its top: always handed to the rule
        self._inverted = [i for i, it in enumerate(items) if not it.y1 >= it.y0]
        self.tallest = max((it.y1 - it.y0 for it in items), default=0.0)

    def starting(self, low: float, high: float) -> list[B]:
        """Items whose top lies between `low` and `high` (inclusive, with SLACK), in page order."""
        a = bisect_left(self._tops, low - SLACK)
        b = bisect_right(self._tops, high + SLACK)
        hits = self._order[a:b]
        if self._inverted:
            hits = hits + self._inverted
        if len(hits) > 1:
            hits = sorted(hits)
        return [self.items[i] for i in hits]

    def meeting(self, top: float, bottom: float) -> list[B]:
        """Items whose box can touch the band from `top` to `bottom` (a row on the same baseline, a line
        reaching into a window): their top lies no higher than the tallest item above `top`. An inverted band
        (`bottom` above `top`) can pass a rule's overlap test anywhere: then every item is handed back."""
        if not bottom >= top:
            return list(self.items)
        return self.starting(top - self.tallest, bottom)


class PagesByTop(Generic[B]):
    """`ByTop` of each page of a document, built the first time a rule asks for that page."""

    __slots__ = ("_pages", "_built")

    def __init__(self, pages: list[list[B]]) -> None:
        self._pages = pages
        self._built: dict[int, ByTop[B]] = {}

    def page(self, number: int) -> ByTop[B]:
        """The index of page `number` (1-based)."""
        index = self._built.get(number)
        if index is None:
            index = self._built[number] = ByTop(self._pages[number - 1])
        return index
