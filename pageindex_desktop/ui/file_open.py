"""macOS "Open With PageIndex Desktop": Finder hands files to the app as QFileOpenEvents, not as arguments.

The bundle's Info.plist declares PDFs, e-books, text and Markdown (packaging/pageindex-desktop.spec); this filter turns each event into an
import through the normal path, so a PDF opened from Finder lands in the library and opens like a dropped one.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from pageindex_desktop.ui.qt import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QFileOpenEvent  # noqa: E402 - after ui.qt, which loads the binding first

if TYPE_CHECKING:
    from pageindex_desktop.ui.main_window import MainWindow

log = logging.getLogger(__name__)


class FileOpenFilter(QObject):
    """Application-wide event filter: a FileOpen event imports (and opens) that file in the window."""

    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FileOpen and isinstance(event, QFileOpenEvent):
            path = event.file() or event.url().toLocalFile()
            if path:
                log.info("file handed over by the system")
                self.window.import_paths([Path(path)], open_when_done=True)
                self.window.raise_()
                self.window.activateWindow()
                return True
        return False


def accept_file_open_events(window: "MainWindow") -> FileOpenFilter:
    """Install the filter on the running application (call once the window exists)."""
    handler = FileOpenFilter(window)
    app = QCoreApplication.instance()
    if app is not None:
        app.installEventFilter(handler)
    return handler
