"""The assistant pane, as it stands before the question loop is wired in: it says what it will do.

The assistant (another module) replaces this widget; it keeps the objectName `assistantPane` and the
`focus_question()` method that Ctrl+L calls.
"""

from __future__ import annotations

from pageindex_desktop.ui.qt import QLabel, QLineEdit, QPushButton, QHBoxLayout, Qt, QVBoxLayout, QWidget

INTRO = (
    "<h3>Assistant</h3>"
    "<p>Ask a question about the documents selected in the library (or all of them). The assistant reads the "
    "section tree first, then only the pages it needs, and answers from those pages alone.</p>"
    "<p>Every claim carries a citation such as <b>[Annual Report, p. 12]</b>. Click one to open that page with the "
    "quoted passage highlighted. Citations the app could not check against the page are marked.</p>"
    "<p style='color:#777'>Not connected yet: set up a model endpoint (OpenAI, Ollama, LM Studio or any "
    "compatible server) once the assistant is available.</p>"
)


class AssistantPane(QWidget):
    """Placeholder pane that explains the assistant and shows where the question box will be."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistantPane")
        intro = QLabel(INTRO, self)
        intro.setWordWrap(True)
        intro.setTextFormat(Qt.TextFormat.RichText)
        intro.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.question = QLineEdit(self)
        self.question.setObjectName("questionBox")
        self.question.setPlaceholderText("Ask about your documents… (Ctrl+L)")
        self.question.setEnabled(False)
        ask = QPushButton("Ask", self)
        ask.setEnabled(False)
        row = QHBoxLayout()
        row.addWidget(self.question, 1)
        row.addWidget(ask)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(intro, 1)
        layout.addLayout(row)

    def focus_question(self) -> None:
        """Ctrl+L: put the cursor in the question box."""
        self.question.setFocus()
