"""Keeps the reader's place: reads the page view's position as it moves and hands it to the engine's debounced
writer (`core/library/positions.py`), and answers where a document was left when it is opened again.

The view's scroll bar moves by the pixel; the position is read at most every `CAPTURE_MS` (and at once before
another document replaces the one shown, and when the window closes), then `PositionWriter.put` records it,
which costs the GUI thread a dict assignment. The writes themselves happen on the store's one writer
(`core/library/store_writer.py`), handed to it by the position writer's debounce thread.
"""

from __future__ import annotations

from pageindex_desktop.core.library.positions import PositionWriter, ReadingPosition, last_document, load_position
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.library.store_writer import StoreWriter
from pageindex_desktop.ui.reader.page_view import PageView
from pageindex_desktop.ui.qt import QObject, QTimer

CAPTURE_MS = 250


class ReadingTracker(QObject):
    """The bridge between the page view and the stored reading positions."""

    def __init__(self, store: StoreWriter, library: Library, view: PageView, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.library = library  # the window's (main-thread) connection: reads only
        self.view = view
        self.writer = PositionWriter(store)
        self.writer.start()
        self._closed = False
        self._timer = QTimer(self, singleShot=True, interval=CAPTURE_MS)
        self._timer.timeout.connect(self.capture)
        view.verticalScrollBar().valueChanged.connect(self._moved)
        view.zoomChanged.connect(self._moved)
        view.layoutChanged.connect(self._moved)

    def _moved(self, *_args: object) -> None:
        if not self._timer.isActive() and not self._closed:
            self._timer.start()  # not restarted on every move: a long scroll is still read every CAPTURE_MS

    def capture(self) -> None:
        """Record where the reader is in the document shown (no-op when none is)."""
        self._timer.stop()
        position = self.view.reading_position()
        if position is not None and self.view.key and not self._closed:
            self.writer.put(self.view.key, position)

    def position(self, doc_id: str) -> ReadingPosition | None:
        """Where the reader left a document: the newest position, written or not yet."""
        return self.writer.pending(doc_id) or load_position(self.library, doc_id)

    def last_document(self) -> str | None:
        """The document read most recently (what reopens at start-up)."""
        return last_document(self.library)

    def shutdown(self) -> None:
        """Record the place shown now and write everything still pending; idempotent."""
        if self._closed:
            return
        self.capture()
        self._closed = True
        self.writer.stop()
