"""The question box: a few lines of plain text where Enter sends and Shift+Enter starts a new line."""

from __future__ import annotations

from pageindex_desktop.ui.qt import QKeyEvent, QPlainTextEdit, Qt, QWidget, Signal


class QuestionBox(QPlainTextEdit):
    """Plain-text input that grows to four lines; emits `submitted` on Enter."""

    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("questionBox")
        self.setPlaceholderText("Ask about your documents… (Ctrl+L)")
        self.setToolTip("Enter sends the question; Shift+Enter starts a new line")
        self.setTabChangesFocus(True)
        self.document().contentsChanged.connect(self._fit_height)
        self._fit_height()

    def text(self) -> str:
        """The question as typed."""
        return self.toPlainText()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            event.accept()
            self.submitted.emit()
            return
        super().keyPressEvent(event)

    def _fit_height(self) -> None:
        line = self.fontMetrics().lineSpacing()
        lines = max(2, min(4, int(self.document().size().height()) or 1))
        margins = self.contentsMargins()
        frame = int(self.document().documentMargin() * 2) + margins.top() + margins.bottom()
        self.setFixedHeight(line * lines + frame + 2)
