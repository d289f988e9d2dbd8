"""Find in document: a bar under the viewer's toolbar that searches every page in the render process.

Hits arrive page by page (the search starts at the current page); all hits on visible pages are highlighted,
Enter / Shift+Enter (or F3 / Shift+F3) move to the next / previous hit, and the bar counts them.
"""

from __future__ import annotations

import bisect

from pageindex_desktop.ui.reader.overlays import Rect
from pageindex_desktop.ui.reader.page_view import PageView
from pageindex_desktop.ui.tool_button import tool_button
from pageindex_desktop.ui.qt import (
    QHBoxLayout,
    QKeyEvent,
    QLabel,
    QLineEdit,
    Qt,
    QTimer,
    QWidget,
    Signal,
)

TYPE_DELAY_MS = 250


class FindLine(QLineEdit):
    """The search field: Enter finds the next hit, Shift+Enter the previous, Escape closes the bar."""

    nextRequested = Signal()
    previousRequested = Signal()
    closeRequested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.previousRequested.emit()
            else:
                self.nextRequested.emit()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.closeRequested.emit()
            return
        super().keyPressEvent(event)


class FindBar(QWidget):
    """Search field, previous/next buttons, the hit count and a close button."""

    # the search is about to move the reader to another page for the first time: where they were is a place to go
    # Back to (moving on from hit to hit is one jump, so Back returns to where the search started)
    aboutToJump = Signal(int)

    def __init__(self, view: PageView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("findBar")
        self.view = view
        self.renderer = view.renderer
        self.field = FindLine(self)
        self.field.setObjectName("findField")
        self.field.setPlaceholderText("Find in document")
        self.field.setClearButtonEnabled(True)
        self.previous_button = tool_button(self, "▲", "Previous hit (Shift+Enter)")
        self.next_button = tool_button(self, "▼", "Next hit (Enter)")
        self.count = QLabel("", self)
        self.count.setObjectName("findCount")
        self.close_button = tool_button(self, "✕", "Close (Escape)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        for widget in (self.field, self.previous_button, self.next_button, self.count):
            layout.addWidget(widget)
        layout.addStretch(1)
        layout.addWidget(self.close_button)
        self.field.setMinimumWidth(220)
        self._sid = 0
        self._searching = False
        self._pages: list[int] = []  # pages with hits, sorted
        self._hits: dict[int, list[Rect]] = {}
        self._current: tuple[int, int] | None = None
        self._jumped = False  # this search already moved the reader to another page
        self._typing = QTimer(self, singleShot=True, interval=TYPE_DELAY_MS)
        self._typing.timeout.connect(self.start_search)
        self.field.textChanged.connect(lambda _t: self._typing.start())
        self.field.nextRequested.connect(self.next_hit)
        self.field.previousRequested.connect(self.previous_hit)
        self.field.closeRequested.connect(self.close_bar)
        self.next_button.clicked.connect(self.next_hit)
        self.previous_button.clicked.connect(self.previous_hit)
        self.close_button.clicked.connect(self.close_bar)
        self.renderer.searchHits.connect(self._on_hits)
        self.renderer.searchDone.connect(self._on_done)
        self.renderer.searchProgress.connect(self._on_progress)
        self.hide()

    def open_bar(self) -> None:
        """Show the bar and focus the field (Ctrl+F)."""
        self.show()
        self.field.setFocus()
        self.field.selectAll()

    def close_bar(self) -> None:
        """Hide the bar and its highlights."""
        self.reset()
        self.hide()
        self.view.setFocus()

    def reset(self) -> None:
        """Stop the search and forget its hits (also when another document opens)."""
        if self._searching:
            self.renderer.cancel_search(self._sid)
        self._sid = 0
        self._searching = False
        self._pages, self._hits, self._current = [], {}, None
        self._jumped = False
        self.view.overlays.clear_hits()
        self.count.setText("")

    def hit_count(self) -> int:
        """Hits found so far."""
        return sum(len(r) for r in self._hits.values())

    def start_search(self) -> None:
        """Search the document for the field's text, from the current page on."""
        self._typing.stop()
        text = self.field.text()
        self.reset()
        if not text.strip() or not self.view.key:
            return
        self._searching = True
        self._sid = self.renderer.search(self.view.key, text, max(1, self.view.current_page()))
        self.count.setText("Searching…")

    def next_hit(self) -> None:
        """Move to the hit after the current one (or the first at or after the current page)."""
        if self._typing.isActive() or (not self._sid and self.field.text().strip()):
            self.start_search()
            return
        self._step(+1)

    def previous_hit(self) -> None:
        """Move to the hit before the current one."""
        self._step(-1)

    def _ordered(self) -> list[tuple[int, int]]:
        return [(page, i) for page in self._pages for i in range(len(self._hits[page]))]

    def _step(self, direction: int) -> None:
        order = self._ordered()
        if not order:
            return
        if self._current in order:
            position = (order.index(self._current) + direction) % len(order)
        else:
            page = self.view.current_page()
            position = bisect.bisect_left(order, (page, 0))
            if direction < 0:
                position -= 1
            position %= len(order)
        self._select(order[position])

    def _select(self, hit: tuple[int, int]) -> None:
        self._current = hit
        page, index = hit
        if not self._jumped and page != self.view.current_page():
            self._jumped = True
            self.aboutToJump.emit(page)
        self.view.overlays.set_current(page, index)
        self.view.scroll_to_rect(page, self._hits[page][index])
        self._show_count()

    def _show_count(self) -> None:
        """'5 of 17' once the count is done; while it runs only the hits so far ('12+ hits'): the search starts at
        the reader's page and wraps, so hits before it arrive last and a position shown early would renumber
        ('5 of 12+', then '11 of 17')."""
        total = self.hit_count()
        if self._searching:
            self.count.setText(f"{total}+ hits" if total else "Searching…")
        elif self._current is not None:
            position = self._ordered().index(self._current) + 1
            self.count.setText(f"{position} of {total}")
        else:
            self.count.setText(f"{total} hits" if total else "No hits")

    def _on_hits(self, sid: int, page: int, rects: list[Rect]) -> None:
        if sid != self._sid:
            return
        self._hits[page] = rects
        bisect.insort(self._pages, page)
        self.view.overlays.add_hits(page, rects)
        if self._current is None:
            self._select((page, 0))  # the search starts at the current page: the first hit is the next one
        else:
            self._show_count()

    def _on_progress(self, sid: int, done: int, total: int) -> None:
        if sid == self._sid and not self._hits:
            self.count.setText(f"Searching… {done}/{total} pages")

    def _on_done(self, sid: int) -> None:
        if sid != self._sid:
            return
        self._searching = False
        self._show_count()
