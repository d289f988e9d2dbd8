"""Kept so older imports keep working while the assistant moves to `pageindex_desktop.ui.qt`, the one Qt module."""

from __future__ import annotations

from pageindex_desktop.ui.qt import *  # noqa: F401,F403 - re-exported
from pageindex_desktop.ui.qt import __all__ as __all__
