"""A toolbar button with its text and tooltip, made in one call (PySide6 accepts them as keyword properties at run
time, but its type stubs do not, so this says it once in a form mypy checks)."""

from __future__ import annotations

from pageindex_desktop.ui.qt import QToolButton, QWidget


def tool_button(parent: QWidget, text: str, tip: str) -> QToolButton:
    """A QToolButton showing `text`, with `tip` as its tooltip."""
    button = QToolButton(parent)
    button.setText(text)
    button.setToolTip(tip)
    return button
