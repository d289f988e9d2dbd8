"""Logging for the window: a ring buffer the "Show Log" dialog reads, beside the rotating log file."""

from __future__ import annotations

import logging
from collections import deque
from pathlib import Path

from pageindex_desktop.ui.qt import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


class RingBufferHandler(logging.Handler):
    """Keeps the last records in memory so the log can be shown without reading the file."""

    def __init__(self, capacity: int = 2000) -> None:
        super().__init__()
        self.lines: deque[str] = deque(maxlen=capacity)
        self.setFormatter(logging.Formatter(FORMAT))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(self.format(record))
        except Exception:  # logging must never raise into the caller
            self.handleError(record)


_buffer: RingBufferHandler | None = None


def ring_buffer() -> RingBufferHandler:
    """The process-wide buffer, attached to the root logger on first use."""
    global _buffer
    if _buffer is None:
        _buffer = RingBufferHandler()
        logging.getLogger().addHandler(_buffer)
    return _buffer


class LogDialog(QDialog):
    """Help ▸ Show Log: recent log lines and where the full file is."""

    def __init__(self, log_file: Path | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Log")
        self.resize(900, 500)
        text = QPlainTextEdit(self)
        text.setReadOnly(True)
        text.setPlainText("\n".join(ring_buffer().lines) or "(nothing logged yet)")
        text.moveCursor(text.textCursor().MoveOperation.End)
        where = QLabel(f"Full log: {log_file}" if log_file else "Logging to the console only.", self)
        where.setTextInteractionFlags(where.textInteractionFlags() | where.textInteractionFlags().TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(where)
        layout.addWidget(buttons)
