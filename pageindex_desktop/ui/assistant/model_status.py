"""The status bar's model line: which model answers and how many tokens this window's answers used.

Its own widget with two slots so the window can connect the pane's `modelChanged` and `tokensUsed` to it; it
remembers the model it was told, so adding tokens never has to read the pane.
"""

from __future__ import annotations

from pageindex_desktop.ui.qt import QLabel, QWidget


class ModelStatus(QLabel):
    """'Model: name at host · 1,234 tokens used', or 'No model' when none is set up (empty until the pane says)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setObjectName("modelStatus")
        self._model = ""
        self._used = 0

    def show_model(self, description: str) -> None:
        """The pane's model changed ('' when no model is configured)."""
        self._model = description
        self._redraw()

    def add_tokens(self, prompt: int, completion: int) -> None:
        """An answer ended having used these tokens."""
        self._used += prompt + completion
        self._redraw()

    def _redraw(self) -> None:
        tokens = f" · {self._used:,} tokens used" if self._used else ""
        self.setText((f"Model: {self._model}" if self._model else "No model") + tokens)
