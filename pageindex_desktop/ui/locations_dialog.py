"""Help ▸ Where Files Are: the library folder, the logs and the settings, each with a button to open it.

Analysts ask "where is my data?" before they trust an app with their documents; this answers it with the real
paths of this run (which follow $PAGEINDEX_DESKTOP_HOME when it is set).
"""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.config import HOME_ENV, log_dir
from pageindex_desktop.core.assistant.settings import settings_path
from pageindex_desktop.ui import settings as window_settings
from pageindex_desktop.ui.qt import (
    QDesktopServices,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    Qt,
    QUrl,
    QVBoxLayout,
    QWidget,
)


def file_locations(home: Path) -> list[tuple[str, Path, str]]:
    """(what, folder, note) for the library, the logs and the settings of a window over `home`."""
    return [
        ("Library", home, "library.sqlite3 (pages, outlines, summaries, chats) and files/ (copies of your PDFs)."),
        ("Logs", log_dir(), "pageindex-desktop.log and its rotated copies (Help ▸ Show Log shows the latest lines)."),
        ("Model settings", settings_path(home).parent, f"{settings_path(home).name}: provider, URL and models. "
                                                      "API keys are kept in the system keychain, not here."),
        ("Window settings", Path(window_settings.app_settings().fileName()).parent,
         "Window size and position, recent documents."),
    ]


def open_folder(path: Path) -> bool:
    """Show a folder in the system file manager (created first if it does not exist yet)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


class LocationsDialog(QDialog):
    """The folders this app writes to, with "Open Folder" buttons."""

    def __init__(self, home: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("locationsDialog")
        self.setWindowTitle("Where Files Are")
        rows = QVBoxLayout()
        rows.setSpacing(12)
        self.buttons: dict[str, QPushButton] = {}
        for what, folder, note in file_locations(home):
            name = QLabel(f"<b>{what}</b>", self)
            path = QLabel(f"{folder}<br><span style='color: gray'>{note}</span>", self)
            path.setObjectName(f"location{what.replace(' ', '')}")
            path.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            path.setWordWrap(True)
            button = QPushButton("Open Folder", self)
            button.clicked.connect(lambda _c=False, f=folder: open_folder(f))
            self.buttons[what] = button
            name.setFixedWidth(130)
            line = QHBoxLayout()
            line.addWidget(name, 0, Qt.AlignmentFlag.AlignTop)
            line.addWidget(path, 1)
            line.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
            rows.addLayout(line)
        env = QLabel(f"Set {HOME_ENV} to keep the library (and logs and model settings) in another folder.", self)
        env.setWordWrap(True)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(rows)
        layout.addWidget(env)
        layout.addWidget(close)
        self.resize(720, self.sizeHint().height())
