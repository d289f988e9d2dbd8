"""The outline panel: the section tree, synced both ways with the page view.

Click or Enter on a node shows its start page and leaves the keyboard in the tree, so Up/Down walk, Left/Right
fold and Enter jumps without reaching for the mouse; a right-click selects a node without moving the viewer
(Qt's own behaviour: `clicked` is a left click only; tests/ui/test_outline_keyboard.py holds it).
Scrolling selects the node that holds the current page and expands its ancestors, at most a few times a second
so fast scrolling through a long report stays smooth. Ctrl+Shift+F filters the tree by title (`outline_filter`).

Tabs above the panel switch between the sections and other views of the same document (the Pages view,
`ui/reader/page_strip.py`, added by the window). Tabs rather than a menu switch: both views are one click (or Tab
and an arrow key) away, the one shown is plain to see, and the choice is kept for the next start.
"""

from __future__ import annotations

from typing import Protocol

from pageindex_desktop.core.outline.tree import Node
from pageindex_desktop.ui import settings as config
from pageindex_desktop.ui.reader.outline_filter import OutlineFilter
from pageindex_desktop.ui.reader.outline_model import OutlineModel
from pageindex_desktop.ui.qt import (
    QAbstractItemView,
    QHeaderView,
    QItemSelectionModel,
    QKeyEvent,
    QLabel,
    QModelIndex,
    QSizePolicy,
    QStackedWidget,
    QTabBar,
    Qt,
    QTimer,
    QTreeView,
    QVBoxLayout,
    QWidget,
    Signal,
)

FOLLOW_INTERVAL_MS = 120
TREE_VIEW = "window/tree_view"  # the tab shown in the tree panel ("Sections", "Pages")


class DocumentView(Protocol):
    """Another view of the document in the tree panel: forgets its document when the panel shows another."""

    def clear(self) -> None: ...


class OutlineView(QTreeView):
    """The tree view; Enter and Return open the current node like a click does."""

    nodeActivated = Signal(object)  # Node

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.open_index(self.currentIndex())
            return
        super().keyPressEvent(event)

    def open_index(self, index: QModelIndex) -> None:
        """Announce the node at `index` (a click, or Enter on the current row)."""
        model = self.model()
        if isinstance(model, OutlineModel):
            node = model.node(index)
            if node is not None:
                self.nodeActivated.emit(node)


class OutlinePanel(QWidget):
    """The outline tree with a caption saying where the tree came from."""

    nodeActivated = Signal(object)  # Node: show its start page

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = OutlineModel(self)
        self.caption = QLabel("No document open")
        self.caption.setObjectName("outlineCaption")
        self.caption.setWordWrap(True)
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.caption.setContentsMargins(6, 4, 6, 4)
        self.view = OutlineView(self)
        self.view.setObjectName("outlineView")
        self.view.setModel(self.model)
        self.view.setHeaderHidden(True)
        self.view.setUniformRowHeights(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # sibling titles often share a long beginning
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.view.clicked.connect(self.view.open_index)
        self.view.nodeActivated.connect(self.nodeActivated)
        self.filter = OutlineFilter(self.view, self.model, self.view.open_index, self._filter_cleared, self)
        sections = QWidget(self)
        column = QVBoxLayout(sections)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.caption)
        column.addWidget(self.filter.box)
        column.addWidget(self.view)
        self.tabs = QTabBar(self)
        self.tabs.setObjectName("treeTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setExpanding(False)
        self.tabs.addTab("Sections")
        self.stack = QStackedWidget(self)
        self.stack.addWidget(sections)
        self._views: list[DocumentView] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.tabs)
        layout.addWidget(self.stack)
        self.tabs.currentChanged.connect(self._tab_changed)
        self._follow_page = 0
        self._follow_timer = QTimer(self, singleShot=True, interval=FOLLOW_INTERVAL_MS)
        self._follow_timer.timeout.connect(self._follow_now)

    def add_view(self, title: str, widget: QWidget) -> None:
        """Another view of the document, on its own tab (shown at once if it was the one shown at the last close)."""
        self.stack.addWidget(widget)
        self._views.append(widget)  # type: ignore[arg-type]  # a widget with clear(), as DocumentView says
        self.tabs.blockSignals(True)  # adding a tab is not the reader's choice: nothing to save
        index = self.tabs.addTab(title)
        self.tabs.blockSignals(False)
        if config.app_settings().value(TREE_VIEW, "") == title:
            self.show_view(title)

    def show_view(self, title: str) -> None:
        """Show the tab titled `title` ("Sections", "Pages")."""
        for index in range(self.tabs.count()):
            if self.tabs.tabText(index) == title:
                self.tabs.setCurrentIndex(index)
                self.stack.setCurrentIndex(index)

    def view_shown(self) -> str:
        """The title of the tab shown."""
        return self.tabs.tabText(self.tabs.currentIndex())

    def _tab_changed(self, index: int) -> None:
        self.stack.setCurrentIndex(index)
        config.app_settings().setValue(TREE_VIEW, self.tabs.tabText(index))

    def set_tree(self, roots: list[Node], labels: list[str], caption: str, keep_filter: bool = False) -> None:
        """Show a document's tree; `keep_filter` (a re-index of the same document) keeps the filter's words and
        the other views their pages; another document clears them until its pages are laid out."""
        if not keep_filter:
            for view in self._views:
                view.clear()
            self.filter.box.blockSignals(True)  # the new tree is filtered (or not) below, once
            self.filter.clear()
            self.filter.box.blockSignals(False)
        self.model.set_tree(roots, labels)
        self.caption.setText(caption)
        self._expand_default()
        if self.filter.active():
            self.filter.apply()

    def _expand_default(self) -> None:
        """The usual folding: top-level sections open unless they hold more than a dozen children."""
        for row in range(min(self.model.rowCount(), 60)):
            if self.model.rowCount(self.model.index(row, 0)) <= 12:
                self.view.expand(self.model.index(row, 0))

    def _filter_cleared(self) -> None:
        """The whole tree is back: its usual folding, and the reader's section selected again."""
        self.view.collapseAll()
        self._expand_default()
        if self._follow_page:
            self._follow_now(force=True)

    def focus_filter(self) -> None:
        """Ctrl+Shift+F: type words to filter the sections by title."""
        self.show_view("Sections")
        self.filter.focus()

    def clear(self) -> None:
        """No document open."""
        self.filter.clear()
        self.model.set_tree([], [])
        self.caption.setText("No document open")
        for view in self._views:
            view.clear()

    def follow_page(self, page: int) -> None:
        """The viewer moved to `page`: select its section soon (calls are merged)."""
        self._follow_page = page
        if not self._follow_timer.isActive():
            self._follow_timer.start()

    def selected_node(self) -> Node | None:
        """The node selected in the tree."""
        return self.model.node(self.view.currentIndex())

    def _follow_now(self, force: bool = False) -> None:
        chain = [n for n in self.model.chain_for_page(self._follow_page) if self.filter.is_shown(n)]
        if not chain:
            if not self.filter.active():
                self.view.clearSelection()
            return
        target = chain[-1]
        current = self.model.node(self.view.currentIndex())
        if current is target:
            return
        if (not force and self.view.hasFocus() and current is not None
                and current.start_page <= self._follow_page <= current.end_page):
            return  # the reader is walking the tree: the node they chose still holds the page, keep it
        for ancestor in chain[:-1]:
            self.view.expand(self.model.index_of(ancestor))
        index = self.model.index_of(target)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.view.selectionModel().setCurrentIndex(index, flags)
        self.view.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)
