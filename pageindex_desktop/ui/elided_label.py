"""A one-line label that ends in '…' when it does not fit, instead of being cut off mid-letter."""

from __future__ import annotations

from pageindex_desktop.ui.qt import QLabel, QPainter, QPaintEvent, QSize, QSizePolicy, Qt, QWidget


class ElidedLabel(QLabel):
    """Keeps its whole text (`text()`, the tooltip) and paints as much as fits; never widens its layout."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def minimumSizeHint(self) -> QSize:
        """Any width will do: the text is elided to fit."""
        return QSize(0, super().minimumSizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        rect = self.contentsRect()
        elided = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter = QPainter(self)
        align = self.alignment() | Qt.AlignmentFlag.AlignVCenter
        self.style().drawItemText(painter, rect, int(align.value), self.palette(), self.isEnabled(), elided,
                                  self.foregroundRole())
        painter.end()
