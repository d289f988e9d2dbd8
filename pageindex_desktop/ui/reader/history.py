"""Back and Forward: the places a reader jumped away from, kept the way a browser keeps them. Plain Python.

A jump (a tree node, a citation, a link, a typed page, a find result, another document) first `leave`s the place
the reader is at, as it is at that moment (so scrolling after a jump is remembered too); Back returns there and
keeps the place it left for Forward; a new jump forgets what was ahead. Plain scrolling and Page Down are not jumps.
"""

from __future__ import annotations

from dataclasses import dataclass

from pageindex_desktop.core.library.positions import ReadingPosition

LIMIT = 100  # places kept each way
SAME_SPOT_POINTS = 1.0  # places on the same page closer than this are one place


@dataclass(frozen=True)
class Place:
    """Where a reader was: a document and a position in it."""

    doc_id: str
    position: ReadingPosition

    def same_spot(self, other: "Place | None") -> bool:
        """True when `other` shows the same thing (same document, page and scroll within a point)."""
        return (other is not None and other.doc_id == self.doc_id and other.position.page == self.position.page
                and abs(other.position.top - self.position.top) < SAME_SPOT_POINTS)


class History:
    """Two stacks of places: behind the reader (Back) and ahead (Forward)."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.behind: list[Place] = []
        self.ahead: list[Place] = []

    def leave(self, here: Place) -> None:
        """A jump leaves `here`: Back will return to it, and what was ahead is forgotten."""
        if not here.same_spot(self.behind[-1] if self.behind else None):
            self.behind.append(here)
            del self.behind[: -self.limit]
        self.ahead.clear()

    def back(self, here: Place | None) -> Place | None:
        """The place to go Back to (None: none); `here` (when shown) is kept for Forward."""
        return self._step(self.behind, self.ahead, here)

    def forward(self, here: Place | None) -> Place | None:
        """The place to go Forward to (None: none); `here` (when shown) is kept for Back."""
        return self._step(self.ahead, self.behind, here)

    def can_go_back(self) -> bool:
        """Something is behind the reader."""
        return bool(self.behind)

    def can_go_forward(self) -> bool:
        """Something is ahead (the reader went Back and did not jump since)."""
        return bool(self.ahead)

    def _step(self, source: list[Place], other: list[Place], here: Place | None) -> Place | None:
        while source and here is not None and source[-1].same_spot(here):
            source.pop()  # the reader is already there (they scrolled back to it): not a step
        if not source:
            return None
        if here is not None:
            other.append(here)
            del other[: -self.limit]
        return source.pop()
