"""What the page view draws over the pages: find hits, the current hit and a highlighted passage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pageindex_desktop.ui.qt import QColor, QPainter, QPen, QRectF

if TYPE_CHECKING:
    from pageindex_desktop.ui.reader.page_view import PageView

Rect = tuple[float, float, float, float]

HIT = QColor(255, 215, 0, 90)
CURRENT_HIT = QColor(255, 140, 0, 130)
PASSAGE = QColor(64, 156, 255, 70)
PASSAGE_EDGE = QColor(30, 110, 220, 200)


class Overlays:
    """Rectangles in PDF points per page, drawn scaled onto the page they belong to."""

    def __init__(self, view: "PageView") -> None:
        self.view = view
        self.hits: dict[int, list[Rect]] = {}
        self.current: tuple[int, int] | None = None
        self.passage: tuple[int, list[Rect]] | None = None

    def clear(self) -> None:
        """Drop every overlay (a new document)."""
        self.hits = {}
        self.current = None
        self.passage = None

    def clear_hits(self) -> None:
        """Drop the find hits (a new search, or the find bar closed)."""
        pages = list(self.hits)
        self.hits = {}
        self.current = None
        for page in pages:
            self.view.update_page(page)

    def add_hits(self, page: int, rects: list[Rect]) -> None:
        """Record the hits of one page as the search reaches it."""
        self.hits[page] = list(rects)
        self.view.update_page(page)

    def set_current(self, page: int, index: int) -> None:
        """Mark one hit as the current one."""
        old = self.current
        self.current = (page, index)
        if old:
            self.view.update_page(old[0])
        self.view.update_page(page)

    def set_passage(self, page: int, rects: list[Rect]) -> None:
        """Highlight a passage (a cited quote) on a page."""
        old = self.passage
        self.passage = (page, list(rects))
        if old:
            self.view.update_page(old[0])
        self.view.update_page(page)

    def paint(self, painter: QPainter, page: int, rect: QRectF, zoom: float) -> None:
        """Draw this page's overlays; `rect` is the page on screen."""
        for index, r in enumerate(self.hits.get(page, ())):
            colour = CURRENT_HIT if self.current == (page, index) else HIT
            painter.fillRect(_on_screen(r, rect, zoom), colour)
        if self.passage and self.passage[0] == page:
            painter.setPen(QPen(PASSAGE_EDGE, 1.5))
            for r in self.passage[1]:
                box = _on_screen(r, rect, zoom).adjusted(-2, -1, 2, 1)
                painter.fillRect(box, PASSAGE)
                painter.drawRect(box)


def _on_screen(r: Rect, page_rect: QRectF, zoom: float) -> QRectF:
    return QRectF(page_rect.x() + r[0] * zoom, page_rect.y() + r[1] * zoom, (r[2] - r[0]) * zoom, (r[3] - r[1]) * zoom)
