"""macOS "Open With PageIndex Desktop": Finder hands files to the app as QFileOpenEvents, not as arguments.

The bundle's Info.plist declares PDFs, e-books, text and Markdown (packaging/pageindex-desktop.spec); this filter
turns each event into a `filesOpened` signal, and app start-up connects it to the window's import of handed-over
files (`MainWindow.open_handed_over`), so a PDF opened from Finder lands in the library and opens like a dropped
one. The filter knows nothing of the window: it only reads the application's events.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pageindex_desktop.ui.qt import QCoreApplication, QEvent, QObject, Signal
from PySide6.QtGui import QFileOpenEvent  # noqa: E402 - after ui.qt, which loads the binding first

log = logging.getLogger(__name__)


class FileOpenFilter(QObject):
    """Application-wide event filter: a FileOpen event is taken (not passed on) and said as `filesOpened`."""

    filesOpened = Signal(list)  # list[Path]: the files the system handed over, to import and open

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FileOpen and isinstance(event, QFileOpenEvent):
            path = event.file() or event.url().toLocalFile()
            if path:
                log.info("file handed over by the system")
                self.filesOpened.emit([Path(path)])
                return True
        return False


def accept_file_open_events(parent: QObject) -> FileOpenFilter:
    """Install the filter on the running application; it lives as long as `parent` (the window, so no event is
    taken once nothing would import it)."""
    handler = FileOpenFilter(parent)
    app = QCoreApplication.instance()
    if app is not None:
        app.installEventFilter(handler)
    return handler
