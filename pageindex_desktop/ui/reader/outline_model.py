"""The outline model: one QAbstractItemModel over the engine's `Node` objects (title | page span).

Every index's internal pointer is a `Node` that this model keeps alive in `_roots` and `_parent`, so PySide
never dereferences a freed object. Nodes whose title was not found printed on their start page are grey and
italic, with a tooltip that says so; nodes the index model proposed (`Node.source == 'model'`, checked as printed
before they entered the tree) carry a small star and a tooltip line that says where they came from.
"""

from __future__ import annotations

from typing import Any

from pageindex_desktop.core.outline.tree import MODEL_SOURCE, Node, deepest_node_for_page, walk
from pageindex_desktop.ui.qt import (
    QAbstractItemModel,
    QColor,
    QFont,
    QModelIndex,
    QImage,
    QObject,
    QPainter,
    QPersistentModelIndex,
    QPointF,
    Qt,
)

NodeRole = Qt.ItemDataRole.UserRole + 1
StartPageRole = Qt.ItemDataRole.UserRole + 2
AnyIndex = QModelIndex | QPersistentModelIndex
UNVERIFIED = QColor(128, 128, 128)
MODEL_COLOR = QColor(124, 77, 255)
FROM_MODEL = "Found by the model: it proposed this heading, and it is printed on this page."
_star: list[QImage] = []


def model_icon() -> QImage:
    """A small four-pointed star (drawn once): the mark of a section the model found."""
    if not _star:
        image = QImage(14, 14, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(MODEL_COLOR)
        points = [QPointF(7, 0.5), QPointF(8.6, 5.4), QPointF(13.5, 7), QPointF(8.6, 8.6), QPointF(7, 13.5),
                  QPointF(5.4, 8.6), QPointF(0.5, 7), QPointF(5.4, 5.4)]
        painter.drawPolygon(points)
        painter.end()
        _star.append(image)
    return _star[0]


SUMMARY_SOURCES = {  # how a node's summary came about, as the tooltip says it
    "model": "summary written by the model",
    "excerpt": "an excerpt of the section's pages (the model's summary could not be had)",
    "text": "the section's own text (it is short)",
}


class OutlineModel(QAbstractItemModel):
    """A document's section tree for a QTreeView; column 0 the title, column 1 the pages."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._roots: list[Node] = []
        self._parent: dict[int, Node | None] = {}
        self._row: dict[int, int] = {}
        self._labels: list[str] = []
        self._italic = QFont()
        self._italic.setItalic(True)

    def set_tree(self, roots: list[Node], labels: list[str] | None = None) -> None:
        """Show a new tree (a document was opened or re-indexed)."""
        self.beginResetModel()
        self._roots = list(roots)
        self._labels = list(labels or [])
        self._parent = {}
        self._row = {}

        def link(children: list[Node], parent: Node | None) -> None:
            for row, child in enumerate(children):
                self._parent[id(child)] = parent
                self._row[id(child)] = row
                link(child.children, child)

        link(self._roots, None)
        self.endResetModel()

    def roots(self) -> list[Node]:
        """The top-level nodes shown."""
        return self._roots

    def node(self, index: AnyIndex) -> Node | None:
        """The node behind an index (None for the invisible root)."""
        if not index.isValid():
            return None
        node = index.internalPointer()
        return node if isinstance(node, Node) else None

    def index_of(self, node: Node, column: int = 0) -> QModelIndex:
        """The model index of a node of this tree."""
        if id(node) not in self._row:
            return QModelIndex()
        return self.createIndex(self._row[id(node)], column, node)

    def chain_for_page(self, page: int) -> list[Node]:
        """Nodes from the root down to the deepest one whose span holds `page`."""
        return deepest_node_for_page(self._roots, page)

    def node_count(self) -> int:
        """How many nodes the tree has."""
        return sum(1 for _ in walk(self._roots))

    # ---- QAbstractItemModel ----------------------------------------------------------------------------

    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:
        if column < 0 or column >= 2 or row < 0:
            return QModelIndex()
        if parent.isValid() and parent.column() != 0:
            return QModelIndex()
        owner = self.node(parent)
        children = owner.children if owner is not None else self._roots
        if row >= len(children):
            return QModelIndex()
        return self.createIndex(row, column, children[row])

    def parent(self, index: AnyIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        node = self.node(index)
        if node is None:
            return QModelIndex()
        owner = self._parent.get(id(node))
        if owner is None:
            return QModelIndex()
        return self.createIndex(self._row[id(owner)], 0, owner)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        owner = self.node(parent)
        return len(owner.children) if owner is not None else len(self._roots)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 2

    def hasChildren(self, parent: AnyIndex = QModelIndex()) -> bool:
        return self.rowCount(parent) > 0

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < 2:
            return ("Section", "Pages")[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        node = self.node(index)
        if node is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return node.title if column == 0 else self._span(node)
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = f"{node.title}\n{self._span_long(node)}"
            if node.source == MODEL_SOURCE:
                tip += f"\n{FROM_MODEL}"
            if not node.verified:
                tip += f"\nThis title was not found printed on page {node.start_page}; the section may start nearby."
            if node.summary:
                tip += f"\n\n{node.summary}\n— {SUMMARY_SOURCES.get(node.summary_source, 'summary')}"
            return tip
        if role == Qt.ItemDataRole.DecorationRole and column == 0 and node.source == MODEL_SOURCE:
            return model_icon()
        if role == Qt.ItemDataRole.ForegroundRole and not node.verified:
            return UNVERIFIED
        if role == Qt.ItemDataRole.FontRole and not node.verified and column == 0:
            return self._italic
        if role == Qt.ItemDataRole.TextAlignmentRole and column == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == NodeRole:
            return node.node_id
        if role == StartPageRole:
            return node.start_page
        return None

    def _label(self, page: int) -> str:
        if 1 <= page <= len(self._labels):
            return self._labels[page - 1]
        return ""

    def _span(self, node: Node) -> str:
        if node.end_page > node.start_page:
            return f"{node.start_page}–{node.end_page}"
        return str(node.start_page)

    def _span_long(self, node: Node) -> str:
        first, last = self._label(node.start_page), self._label(node.end_page)
        text = f"Pages {self._span(node)}"
        if first and (first != str(node.start_page) or last != str(node.end_page)):
            text += f" (printed {first}" + (f"–{last}" if last and node.end_page > node.start_page else "") + ")"
        return text
