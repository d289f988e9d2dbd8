"""The few Qt names the assistant needs beyond `pageindex_desktop.ui.qt`, imported after it.

`ui/qt.py` stays the one place that loads the binding (and applies its refcount workaround first); this module
only adds names that file does not export yet, so the assistant package imports Qt from one place too.
"""

from __future__ import annotations

from pageindex_desktop.ui.qt import *  # noqa: F401,F403 - re-exported: the assistant imports Qt only from here
from pageindex_desktop.ui.qt import __all__ as _base

from PySide6.QtGui import QTextBlockFormat, QTextCharFormat, QTextCursor  # noqa: E402 - after ui.qt, which must load first
from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QSizePolicy, QSpinBox  # noqa: E402

__all__ = [*_base, "QTextBlockFormat", "QTextCharFormat", "QTextCursor", "QCheckBox", "QFormLayout",
           "QGroupBox", "QSizePolicy", "QSpinBox"]
