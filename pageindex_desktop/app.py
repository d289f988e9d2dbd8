"""Start-up: parse argv, open the library and show the main window."""

from __future__ import annotations

import sys

from pageindex_desktop.config import library_home
from pageindex_desktop.core.store import Library


def main(argv: list[str] | None = None) -> int:
    """Entry point of `pageindex-desktop`: a window that lists the library."""
    from PySide6.QtWidgets import QApplication, QListWidget, QMainWindow

    app = QApplication(sys.argv if argv is None else argv)
    app.setApplicationName("PageIndex Desktop")
    window = QMainWindow()
    window.setWindowTitle("PageIndex Desktop")
    listing = QListWidget()
    with Library(library_home()) as library:
        for doc in library.documents():
            listing.addItem(f"{doc.title}  ·  {doc.page_count} pages  ·  {doc.status}")
    window.setCentralWidget(listing)
    window.resize(900, 600)
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
