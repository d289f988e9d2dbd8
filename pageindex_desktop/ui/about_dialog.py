"""Help ▸ About: the app's version, the versions and licences of what it is built on, and the licence text.

The versions are read at run time (a bug report must name what actually ran, frozen bundle or not).
"""

from __future__ import annotations

import html
import platform
import sys
from importlib import metadata
from pathlib import Path

from pageindex_desktop import __version__
from pageindex_desktop.config import resources_dir
from pageindex_desktop.ui.qt import (
    QDialog,
    QDialogButtonBox,
    QGuiApplication,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

APP_LICENCE = "AGPL-3.0-or-later"


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "unknown"


def mupdf_versions() -> tuple[str, str]:
    """(PyMuPDF, MuPDF) versions; PyMuPDF is imported here only to read two constants (no MuPDF call)."""
    try:
        import pymupdf

        return str(pymupdf.VersionBind), str(pymupdf.VersionFitz)
    except Exception:  # noqa: BLE001 - About must open even if the binding cannot load
        return _dist_version("pymupdf"), "unknown"


def component_versions() -> list[tuple[str, str, str]]:
    """(component, version, licence) for the app and the libraries that carry its licence terms."""
    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import qVersion

    pymupdf_version, mupdf_version = mupdf_versions()
    return [
        ("PageIndex Desktop", __version__, APP_LICENCE),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})", "PSF-2.0"),
        ("Qt", qVersion(), "LGPL-3.0"),
        ("PySide6 (Qt for Python)", pyside_version, "LGPL-3.0"),
        ("PyMuPDF", pymupdf_version, "AGPL-3.0-or-later"),
        ("MuPDF", mupdf_version, "AGPL-3.0-or-later"),
    ]


def version_report() -> str:
    """The versions as plain text, one per line (what "Copy versions" puts on the clipboard)."""
    lines = [f"{name} {version} ({licence})" for name, version, licence in component_versions()]
    lines.append(f"Platform: {platform.platform()}; frozen: {bool(getattr(sys, 'frozen', False))}")
    return "\n".join(lines)


def find_document(name: str) -> Path | None:
    """LICENSE or THIRD-PARTY-NOTICES.md: beside resources/ (bundle or checkout), else packaging/ (checkout)."""
    base = resources_dir().parent
    for candidate in (base / name, base / "packaging" / name):
        if candidate.is_file():
            return candidate
    return None


class TextFileDialog(QDialog):
    """A read-only view of a text file (the licence, the third-party notices)."""

    def __init__(self, title: str, path: Path | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(720, 640)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        try:
            body = path.read_text(encoding="utf-8") if path is not None else ""
        except OSError as exc:
            body = f"Could not read {path}: {exc}"
        self.text.setPlainText(body or f"The file is missing from this installation ({title}).")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        if path is not None:
            layout.addWidget(QLabel(str(path), self))
        layout.addWidget(buttons)


class AboutDialog(QDialog):
    """What the app is, the versions that ran, their licences, and buttons for the licence texts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle("About PageIndex Desktop")
        self.resize(560, 470)
        rows = "".join(f"<tr><td>{html.escape(n)}</td><td>{html.escape(v)}</td><td>{html.escape(lic)}</td></tr>"
                       for n, v, lic in component_versions())
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("aboutText")
        self.browser.setOpenExternalLinks(True)
        self.browser.setHtml(
            f"<h2>PageIndex Desktop {html.escape(__version__)}</h2>"
            "<p>A PDF reader that builds each document's section tree and answers questions with citations "
            "checked against the pages.</p>"
            f"<p>This program is free software under the GNU Affero General Public License, version 3 or later "
            f"({APP_LICENCE}), and comes with no warranty. Whoever distributes it must also offer its source "
            "code.</p>"
            "<table cellspacing='0' cellpadding='3'><tr><th align='left'>Component</th><th align='left'>Version"
            f"</th><th align='left'>Licence</th></tr>{rows}</table>"
            "<p>Qt and PySide6 are used under the LGPL-3.0 as separate shared libraries, which you may replace. "
            "PDFs are rendered with MuPDF through PyMuPDF (Artifex), used under the AGPL. The other libraries "
            "and their licences are listed in the third-party notices.</p>"
        )
        licence = QPushButton("View Licence", self)
        licence.setObjectName("aboutLicence")
        licence.clicked.connect(lambda: self._show_file("Licence (GNU AGPL v3)", "LICENSE"))
        notices = QPushButton("Third-Party Notices", self)
        notices.setObjectName("aboutNotices")
        notices.clicked.connect(lambda: self._show_file("Third-Party Notices", "THIRD-PARTY-NOTICES.md"))
        copy = QPushButton("Copy Versions", self)
        copy.setObjectName("aboutCopy")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(version_report()))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        for button in (licence, notices, copy):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.file_dialog: TextFileDialog | None = None

    def _show_file(self, title: str, name: str) -> None:
        self.file_dialog = TextFileDialog(title, find_document(name), self)
        self.file_dialog.open()
