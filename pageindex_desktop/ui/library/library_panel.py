"""The library sidebar: a filter box over the document list, with a context menu and an import button.

A plain click on a ready row (or Enter) opens it (`library_view.py`); the ready documents selected with
Ctrl/Shift-click are announced, once the selection settles, as `selectionSettled` (the assistant's Selected scope).
"""

from __future__ import annotations

from pageindex_desktop.ui.library.library_delegate import LibraryDelegate
from pageindex_desktop.ui.library.library_model import DocIdRole, FilterRole, LibraryModel, LibraryRow, RowRole
from pageindex_desktop.ui.library.library_view import LibraryView
from pageindex_desktop.ui.qt import (
    QAbstractItemView,
    QItemSelectionModel,
    QLabel,
    QLineEdit,
    QMenu,
    QModelIndex,
    QPoint,
    QPushButton,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
)


SETTLE_MS = 150  # selection changes settle (shift-click, ctrl-click) before the Selected scope follows them


class LibraryPanel(QWidget):
    """Documents with their status; everything the user does to them leaves as a signal."""

    openRequested = Signal(str)  # doc id
    reindexRequested = Signal(list)  # doc ids
    removeRequested = Signal(list)  # doc ids
    showFileRequested = Signal(str)  # doc id
    renameRequested = Signal(str)  # doc id (F2 or the context menu)
    cancelRequested = Signal(str)  # row key
    importRequested = Signal()
    selectionSettled = Signal(list)  # doc ids of the selected ready rows, once Ctrl/Shift-clicks pause

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = LibraryModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(FilterRole)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("libraryFilter")
        self.filter.setPlaceholderText("Filter documents")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.view = LibraryView(self)
        self.view.setObjectName("libraryView")
        self.view.setModel(self.proxy)
        self.delegate = LibraryDelegate(self.view)
        self.delegate.cancelClicked.connect(self.cancelRequested)
        self.view.setItemDelegate(self.delegate)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setUniformItemSizes(True)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.view.openRequested.connect(self._activated)
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(lambda: self.selectionSettled.emit(self.selected_ready_ids()))
        self.view.selectionModel().selectionChanged.connect(lambda *_: self._settle.start())
        self.hint = QLabel("Drop PDFs or folders here to add them.", self)
        self.hint.setObjectName("libraryHint")
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.add_button = QPushButton("Add PDFs…", self)
        self.add_button.clicked.connect(self.importRequested)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.hint)
        layout.addWidget(self.add_button)

    def set_rows(self, rows: list[LibraryRow]) -> None:
        """Show the library's rows (the hint only while the library is empty)."""
        self.model.set_rows(rows)
        self.hint.setVisible(not rows)

    def selected_rows(self) -> list[LibraryRow]:
        """Selected rows in display order."""
        indexes = sorted(self.view.selectionModel().selectedRows(), key=lambda i: i.row())
        return [i.data(RowRole) for i in indexes if isinstance(i.data(RowRole), LibraryRow)]

    def selected_doc_ids(self) -> list[str]:
        """Doc ids of the selected rows that are in the store."""
        return [r.doc_id for r in self.selected_rows() if r.doc_id]

    def selected_ready_ids(self) -> list[str]:
        """Doc ids of the selected rows that can be read (never a failed or importing row)."""
        return [r.doc_id for r in self.selected_rows() if r.doc_id and r.status == "ready"]

    def select_doc(self, doc_id: str) -> None:
        """Make a document the current row, and the selected one unless several rows are selected: a document
        opened from a citation, a link or Back keeps the reader's multi-selection (a Selected scope) intact."""
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if index.data(DocIdRole) == doc_id:
                if len(self.view.selectionModel().selectedRows()) > 1:
                    self.view.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)
                else:
                    self.view.setCurrentIndex(index)
                self.view.scrollTo(index)
                return

    def _activated(self, index: QModelIndex) -> None:
        row = index.data(RowRole)
        if isinstance(row, LibraryRow) and row.doc_id and row.status == "ready":
            self.openRequested.emit(row.doc_id)

    def _cancel_rows(self, rows: list[LibraryRow]) -> None:
        for row in rows:
            self.cancelRequested.emit(row.key)

    def _context_menu(self, pos: QPoint) -> None:
        """The menu acts on the row under the pointer, or on the selection when that row is in it; it never
        changes the selection, the current row or the open document."""
        index = self.view.indexAt(pos)
        if not index.isValid():
            return
        under = index.data(RowRole)
        if self.view.selectionModel().isSelected(index):
            rows = self.selected_rows()
        else:
            rows = [under] if isinstance(under, LibraryRow) else []
        if not rows:
            return
        menu = QMenu(self)
        first = rows[0]
        open_action = menu.addAction("Open")
        open_action.setEnabled(len(rows) == 1 and first.status == "ready")
        open_action.triggered.connect(lambda: self.openRequested.emit(first.doc_id))
        ids = [r.doc_id for r in rows if r.doc_id]
        busy = [r for r in rows if r.status in ("queued", "importing")]
        reindex = menu.addAction("Re-index")
        reindex.setEnabled(bool(ids) and not busy)
        reindex.triggered.connect(lambda: self.reindexRequested.emit(ids))
        if busy:
            cancel = menu.addAction("Cancel Import")
            cancel.triggered.connect(lambda: self._cancel_rows(busy))
        rename = menu.addAction("Rename…")
        rename.setEnabled(len(rows) == 1 and first.status == "ready")
        rename.triggered.connect(lambda: self.renameRequested.emit(first.doc_id))
        show = menu.addAction("Show File")
        show.setEnabled(len(rows) == 1 and bool(first.doc_id))
        show.triggered.connect(lambda: self.showFileRequested.emit(first.doc_id))
        menu.addSeparator()
        remove = menu.addAction("Remove from Library…")
        remove.setEnabled(bool(ids))
        remove.triggered.connect(lambda: self.removeRequested.emit(ids))
        menu.exec(self.view.viewport().mapToGlobal(pos))
