"""The library's list view, with the one rule for opening: a plain left click on a row opens it, Enter opens the
current row, and nothing else does.

As in Finder or Zotero, the arrow keys move the current row (and the selection) without opening anything, and
Ctrl/Shift-click only change the selection. A right click never changes the selection or the current row: the
context menu acts on the row under the pointer (or on the selection, when that row is in it), so choosing
Re-index on another row leaves the open document and the assistant's scope alone.
"""

from __future__ import annotations

from pageindex_desktop.ui.qt import (
    QKeyEvent,
    QListView,
    QModelIndex,
    QMouseEvent,
    QPersistentModelIndex,
    Qt,
    QWidget,
    Signal,
)

SELECTING = (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
             | Qt.KeyboardModifier.MetaModifier)


class LibraryView(QListView):
    """Emits `openRequested(index)` for a plain click on a row and for Enter/Return on the current row."""

    openRequested = Signal(QModelIndex)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pressed = QPersistentModelIndex()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()  # the context menu follows; the selection (and so a Selected scope) stays as it was
            return
        plain = event.button() == Qt.MouseButton.LeftButton and not event.modifiers() & SELECTING
        self._pressed = QPersistentModelIndex(self.indexAt(event.position().toPoint()) if plain else QModelIndex())
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        index = self.indexAt(event.position().toPoint())
        pressed, self._pressed = self._pressed, QPersistentModelIndex()
        super().mouseReleaseEvent(event)
        if (event.button() == Qt.MouseButton.LeftButton and index.isValid() and pressed.isValid()
                and pressed == QPersistentModelIndex(index) and not event.modifiers() & SELECTING):
            self.openRequested.emit(index)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers() & SELECTING:
            if self.currentIndex().isValid():
                self.openRequested.emit(self.currentIndex())
                event.accept()
                return
        super().keyPressEvent(event)
