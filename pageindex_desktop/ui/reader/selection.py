"""Text selection in the page view: drag across words of a page, Ctrl+C copies them in reading order.

Words and their boxes come from the render process (`RenderService.words`); a selection stays on one page,
which covers quoting a passage, the thing a reader of reports wants to copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pageindex_desktop.ui.qt import QApplication, QColor, QMouseEvent, QPainter, QRectF, Qt

if TYPE_CHECKING:
    from pageindex_desktop.ui.reader.page_view import PageView

Word = tuple[float, float, float, float, str, int, int]
SELECTED = QColor(40, 120, 240, 80)
KEEP_PAGES = 8


class TextSelection:
    """The selected run of words on one page, and the mouse handling that makes it."""

    def __init__(self, view: "PageView") -> None:
        self.view = view
        self.words: dict[int, list[Word]] = {}
        self.page = 0
        self.anchor: tuple[float, float] | None = None
        self.focus: tuple[float, float] | None = None
        self._pending: dict[int, int] = {}
        view.renderer.wordsReady.connect(self._on_words)

    def clear(self) -> None:
        """No selection, and forget cached words (a new document)."""
        old = self.page
        self.words = {}
        self.page = 0
        self.anchor = self.focus = None
        if old:
            self.view.update_page(old)

    def selected(self) -> list[Word]:
        """The selected words in reading order."""
        words = self.words.get(self.page)
        if not words or self.anchor is None or self.focus is None:
            return []
        a, b = _nearest(words, self.anchor), _nearest(words, self.focus)
        if a > b:
            a, b = b, a
        return words[a : b + 1]

    def text(self) -> str:
        """The selected text, one line per printed line."""
        out: list[str] = []
        last: tuple[int, int] | None = None
        for word in self.selected():
            line = (word[5], word[6])
            if out:
                out.append("\n" if line != last else " ")
            out.append(word[4])
            last = line
        return "".join(out)

    def copy(self) -> bool:
        """Put the selection on the clipboard; False when nothing is selected."""
        text = self.text()
        if text:
            QApplication.clipboard().setText(text)
        return bool(text)

    def mouse_press(self, event: QMouseEvent) -> None:
        """Start a selection where the button went down."""
        if event.button() != Qt.MouseButton.LeftButton:
            return
        hit = self.view.page_at(event.position())
        old = self.page
        self.anchor = self.focus = None
        self.page = 0
        if old:
            self.view.update_page(old)
        if hit is None:
            return
        self.page, x, y = hit
        self.anchor = self.focus = (x, y)
        if self.page not in self.words and self.page not in self._pending.values():
            self._pending[self.view.renderer.words(self.view.key, self.page)] = self.page

    def mouse_move(self, event: QMouseEvent) -> None:
        """Extend the selection to the word under the pointer."""
        if self.anchor is None or not event.buttons() & Qt.MouseButton.LeftButton:
            return
        rect = self.view.page_rect(self.page)
        zoom = self.view.zoom()
        pos = event.position()
        self.focus = ((pos.x() - rect.x()) / zoom, (pos.y() - rect.y()) / zoom)
        self.view.update_page(self.page)

    def mouse_release(self, event: QMouseEvent) -> None:
        """A click without a drag selects nothing."""
        if self.anchor is not None and self.anchor == self.focus:
            self.anchor = self.focus = None

    def paint(self, painter: QPainter, page: int, rect: QRectF, zoom: float) -> None:
        """Shade the selected words of `page`."""
        if page != self.page:
            return
        for w in self.selected():
            painter.fillRect(
                QRectF(rect.x() + w[0] * zoom, rect.y() + w[1] * zoom, (w[2] - w[0]) * zoom, (w[3] - w[1]) * zoom),
                SELECTED,
            )

    def _on_words(self, rid: int, key: str, page: int, words: list[Word]) -> None:
        if self._pending.pop(rid, None) is None or key != self.view.key:
            return
        self.words[page] = words
        while len(self.words) > KEEP_PAGES:
            self.words.pop(next(iter(self.words)))
        self.view.update_page(page)


def _nearest(words: list[Word], point: tuple[float, float]) -> int:
    """Index of the word containing `point`, else the closest one (lines weigh more than columns)."""
    x, y = point
    best, best_d = 0, float("inf")
    for index, w in enumerate(words):
        dx = 0.0 if w[0] <= x <= w[2] else min(abs(x - w[0]), abs(x - w[2]))
        dy = 0.0 if w[1] <= y <= w[3] else min(abs(y - w[1]), abs(y - w[3]))
        d = dy * 4 + dx
        if d < best_d:
            best, best_d = index, d
            if d == 0:
                break
    return best
