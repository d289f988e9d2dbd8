"""How a library row looks: a status mark, the title, and a second line with pages, progress or the error.

An importing row draws a slim progress bar under its progress text, and a cancel control; clicking the control emits `cancelClicked`.
"""

from __future__ import annotations

from pageindex_desktop.ui.library.library_model import KeyRole, LibraryRow, RowRole
from pageindex_desktop.ui.qt import (
    QAbstractItemModel,
    QApplication,
    QColor,
    QEvent,
    QFont,
    QFontMetrics,
    QModelIndex,
    QMouseEvent,
    QObject,
    QPainter,
    QPersistentModelIndex,
    QRect,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    Signal,
)

MARKS = {
    "ready": ("✓", QColor(46, 139, 87)),
    "importing": ("⟳", QColor(30, 110, 220)),
    "queued": ("…", QColor(120, 120, 120)),
    "failed": ("!", QColor(200, 40, 40)),
}
PAD = 6
MARK_W = 22
CANCEL_W = 20
BAR_H = 3


class LibraryDelegate(QStyledItemDelegate):
    """Two-line rows with a status mark; progress bar and cancel control while importing."""

    cancelClicked = Signal(str)  # row key

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        line = QFontMetrics(option.font).height()
        return QSize(200, 2 * line + 3 * PAD + 2)

    def cancel_rect(self, rect: QRect) -> QRect:
        """Where the cancel control of a row drawn in `rect` is."""
        return QRect(rect.right() - CANCEL_W - PAD, rect.top() + PAD, CANCEL_W, rect.height() - 2 * PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        row = index.data(RowRole)
        if not isinstance(row, LibraryRow):
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        text_colour = opt.palette.color(opt.palette.ColorRole.HighlightedText if selected else opt.palette.ColorRole.Text)
        rect = opt.rect
        line = QFontMetrics(opt.font).height()
        painter.save()
        mark, colour = MARKS.get(row.status, ("?", QColor("grey")))
        bold = QFont(opt.font)
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(colour if not selected else text_colour)
        painter.drawText(QRect(rect.left() + PAD, rect.top() + PAD, MARK_W, line), Qt.AlignmentFlag.AlignCenter, mark)
        busy = row.status in ("importing", "queued")
        right = rect.right() - PAD - (CANCEL_W + PAD if busy else 0)
        left = rect.left() + PAD + MARK_W + 4
        title_rect = QRect(left, rect.top() + PAD, right - left, line)
        painter.setPen(text_colour)
        painter.drawText(title_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         QFontMetrics(bold).elidedText(row.title, Qt.TextElideMode.ElideRight, title_rect.width()))
        painter.setFont(opt.font)
        detail_rect = QRect(left, rect.top() + 2 * PAD + line, right - left, line)
        detail_colour = text_colour
        if not selected:
            detail_colour = QColor(200, 40, 40) if row.status == "failed" else opt.palette.color(
                opt.palette.ColorRole.PlaceholderText)
        painter.setPen(detail_colour)
        painter.drawText(detail_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         QFontMetrics(opt.font).elidedText(row.detail(), Qt.TextElideMode.ElideRight,
                                                           detail_rect.width()))
        if row.status == "importing" and row.total:  # a slim bar under the progress text
            track = QRect(left, detail_rect.bottom() + 2, detail_rect.width(), BAR_H)
            painter.fillRect(track, opt.palette.color(opt.palette.ColorRole.Midlight))
            done = round(track.width() * min(row.done, row.total) / row.total)
            painter.fillRect(QRect(track.left(), track.top(), done, BAR_H), QColor(30, 110, 220))
        if busy:
            painter.setPen(text_colour)
            painter.drawText(self.cancel_rect(rect), Qt.AlignmentFlag.AlignCenter, "✕")
        painter.restore()

    def editorEvent(self, event: QEvent, model: QAbstractItemModel, option: QStyleOptionViewItem,
                    index: QModelIndex | QPersistentModelIndex) -> bool:
        if event.type() == QEvent.Type.MouseButtonRelease and isinstance(event, QMouseEvent):
            row = index.data(RowRole)
            if isinstance(row, LibraryRow) and row.status in ("importing", "queued"):
                if self.cancel_rect(option.rect).contains(event.position().toPoint()):
                    self.cancelClicked.emit(str(index.data(KeyRole)))
                    return True
        return super().editorEvent(event, model, option, index)
