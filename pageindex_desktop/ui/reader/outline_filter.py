"""The outline's filter box (Ctrl+Shift+F): show only the sections whose title has the typed words.

A 10-K's tree has hundreds of nodes; an analyst looking for "Liquidity" types it instead of scrolling. Rows are
hidden in the tree view itself (`QTreeView.setRowHidden`) rather than through a proxy model, so every index the
panel, the window and the tests hold stays an index of `OutlineModel`. A node stays visible when its title
holds every typed word (case-insensitive), when an ancestor matches (its subsections are still there to unfold)
or when a descendant does (the path to the match, expanded). Esc clears the box and gives the keyboard to the
tree; Down moves to the tree; Enter jumps to the first match.
"""

from __future__ import annotations

from collections.abc import Callable

from pageindex_desktop.core.outline.tree import Node
from pageindex_desktop.ui.reader.outline_model import OutlineModel
from pageindex_desktop.ui.qt import (
    QEvent,
    QItemSelectionModel,
    QKeyEvent,
    QLineEdit,
    QModelIndex,
    QObject,
    Qt,
    QTreeView,
    QWidget,
)


def title_matches(title: str, words: list[str]) -> bool:
    """Every word (already case-folded) appears in the title."""
    folded = title.casefold()
    return all(word in folded for word in words)


class OutlineFilter(QObject):
    """Owns the filter box and hides the tree's non-matching rows."""

    def __init__(self, view: QTreeView, model: OutlineModel, on_open: Callable[[QModelIndex], None],
                 on_cleared: Callable[[], None], parent: QWidget) -> None:
        super().__init__(parent)
        self.view = view
        self.model = model
        self.on_open = on_open  # jump to a node (what Enter on a row does)
        self.on_cleared = on_cleared  # the full tree is back: restore its usual folding
        self.box = QLineEdit(parent)
        self.box.setObjectName("outlineFilter")
        self.box.setPlaceholderText("Filter sections (Ctrl+Shift+F)")
        self.box.setClearButtonEnabled(True)
        self.box.textChanged.connect(self.apply)
        self.box.installEventFilter(self)
        self.matches: list[Node] = []  # in reading order

    def active(self) -> bool:
        """True while some words are typed."""
        return bool(self.box.text().split())

    def focus(self) -> None:
        """Ctrl+Shift+F: put the cursor in the box, its text selected for retyping."""
        self.box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.box.selectAll()

    def clear(self) -> None:
        """Forget the words (another document was opened)."""
        self.box.clear()

    def apply(self, _text: str = "") -> None:
        """Hide what does not match the box's words (all rows shown when it is empty)."""
        words = [w.casefold() for w in self.box.text().split()]
        self.matches = []
        self.view.setUpdatesEnabled(False)
        try:
            self._walk(self.model.roots(), QModelIndex(), words, ancestor_matched=not words)
        finally:
            self.view.setUpdatesEnabled(True)
        if not words:
            self.on_cleared()

    def _walk(self, nodes: list[Node], parent: QModelIndex, words: list[str], ancestor_matched: bool) -> bool:
        """Show or hide each node's row; True when any of `nodes` (or their descendants) matches."""
        any_visible = False
        for row, node in enumerate(nodes):
            matched = bool(words) and title_matches(node.title, words)
            if matched:
                self.matches.append(node)
            index = self.model.index(row, 0, parent)
            below = self._walk(node.children, index, words, ancestor_matched or matched)
            visible = ancestor_matched or matched or below
            self.view.setRowHidden(row, parent, not visible)
            if words and below:
                self.view.expand(index)  # the path to a match is open
            any_visible = any_visible or matched or below
        return any_visible

    def is_shown(self, node: Node) -> bool:
        """False when the filter hides the node's row (or one of its ancestors')."""
        index = self.model.index_of(node)
        while index.isValid():
            if self.view.isRowHidden(index.row(), index.parent()):
                return False
            index = index.parent()
        return True

    def _first_match(self) -> QModelIndex:
        return self.model.index_of(self.matches[0]) if self.matches else QModelIndex()

    def _to_tree(self, index: QModelIndex) -> None:
        if index.isValid():
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            self.view.selectionModel().setCurrentIndex(index, flags)
            self.view.scrollTo(index)
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.box and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if key == Qt.Key.Key_Escape:
                self.box.clear()
                self._to_tree(self.view.currentIndex())
                return True
            if key == Qt.Key.Key_Down:
                self._to_tree(self._first_match() if self.active() else self.view.currentIndex())
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.matches:
                first = self._first_match()
                self._to_tree(first)
                self.on_open(first)
                return True
        return False
