"""The library model: one row per document (or per file waiting to be copied in), read through roles.

Rows are plain `LibraryRow` records rebuilt from the store and the import queue; `set_rows` turns the change
into row removals, insertions and dataChanged, so selection survives a refresh.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pageindex_desktop.ui.qt import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

AnyIndex = QModelIndex | QPersistentModelIndex
RowRole = Qt.ItemDataRole.UserRole + 1
DocIdRole = Qt.ItemDataRole.UserRole + 2
StatusRole = Qt.ItemDataRole.UserRole + 3
DetailRole = Qt.ItemDataRole.UserRole + 4
FilterRole = Qt.ItemDataRole.UserRole + 5
KeyRole = Qt.ItemDataRole.UserRole + 6

SOURCE_NAMES = {
    "bookmarks": "outline from bookmarks",
    "toc_page": "outline from contents page",
    "layout": "outline from headings",
    "pages": "outline by page groups",
}


@dataclass(frozen=True)
class LibraryRow:
    """What one line of the library shows; `key` is the doc id, or `file:<path>` before the copy exists."""

    key: str
    doc_id: str
    title: str
    file_name: str
    status: str  # queued, importing, ready, failed
    error: str = ""
    page_count: int = 0
    outline_source: str = ""
    image_only_pages: int = 0
    note: str = ""  # the store's note, e.g. "repaired: 25 of 28 pages readable"
    summaries: str = ""  # a summaries run that stopped part-way: "summaries: 210 of 518"
    same_title: bool = False  # another row has this title: the file name tells them apart
    done: int = 0
    total: int = 0
    message: str = ""

    def detail(self) -> str:
        """The second line: pages and outline source (and the document's note), progress, or the reason of a
        failure."""
        if self.status == "failed":
            return self.error or "The import failed."
        if self.status == "queued":
            return "Queued"
        if self.status == "importing":
            if self.total:
                return f"{self.message or 'Importing'} {self.done}/{self.total}"
            return self.message or "Importing…"
        text = f"{self.page_count} pages"
        if self.same_title and self.file_name:
            text = f"{self.file_name} · {text}"
        if self.outline_source:
            text += " · " + SOURCE_NAMES.get(self.outline_source, self.outline_source)
        if self.image_only_pages and self.image_only_pages >= self.page_count:
            text += " · no text layer"
        if self.note:
            text += " · " + self.note
        if self.summaries:
            text += " · " + self.summaries
        return text

    def tooltip(self) -> str:
        """Everything about the row, including the whole error message."""
        lines = [self.title, self.file_name] if self.file_name and self.file_name != self.title else [self.title]
        lines.append({"queued": "Waiting to import", "importing": "Importing", "ready": "Ready",
                      "failed": "Import failed"}.get(self.status, self.status))
        lines.append(self.detail())
        return "\n".join(line for line in lines if line)


class LibraryModel(QAbstractListModel):
    """The documents of the library and the imports in progress."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[LibraryRow] = []

    def rows(self) -> list[LibraryRow]:
        """The rows shown, in order."""
        return list(self._rows)

    def row_for(self, key: str) -> int:
        """Row number of a key, or -1."""
        for index, row in enumerate(self._rows):
            if row.key == key:
                return index
        return -1

    def set_rows(self, rows: list[LibraryRow]) -> None:
        """Show `rows`: removals, insertions and changes are reported one by one."""
        wanted = {r.key for r in rows}
        if len(wanted) != len(rows):
            raise ValueError("library rows must have distinct keys")
        for index in range(len(self._rows) - 1, -1, -1):
            if self._rows[index].key not in wanted:
                self.beginRemoveRows(QModelIndex(), index, index)
                del self._rows[index]
                self.endRemoveRows()
        current = [r.key for r in self._rows]
        kept = [r.key for r in rows if r.key in set(current)]
        if kept != current:  # an order change: rare (never from the store), so a reset is fine
            self.beginResetModel()
            self._rows = list(rows)
            self.endResetModel()
            return
        for index, row in enumerate(rows):
            if index < len(self._rows) and self._rows[index].key == row.key:
                if self._rows[index] != row:
                    self._rows[index] = row
                    changed = self.index(index, 0)
                    self.dataChanged.emit(changed, changed)
            else:
                self.beginInsertRows(QModelIndex(), index, index)
                self._rows.insert(index, row)
                self.endInsertRows()

    def update_row(self, key: str, **changes: Any) -> None:
        """Change some fields of one row (import progress) without touching the others."""
        index = self.row_for(key)
        if index < 0:
            return
        self._rows[index] = replace(self._rows[index], **changes)
        changed = self.index(index, 0)
        self.dataChanged.emit(changed, changed)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return row.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.tooltip()
        if role == RowRole:
            return row
        if role == DocIdRole:
            return row.doc_id
        if role == KeyRole:
            return row.key
        if role == StatusRole:
            return row.status
        if role == DetailRole:
            return row.detail()
        if role == FilterRole:
            return f"{row.title}\n{row.file_name}"
        return None
