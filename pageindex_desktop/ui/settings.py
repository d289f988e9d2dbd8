"""Window settings, declared once: geometry, splitter state, hidden panels, the assistant's scope choice and recent
documents, in an INI file per user."""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.config import APP_AUTHOR, APP_NAME
from pageindex_desktop.ui.qt import QByteArray, QSettings, QStandardPaths

VERSION = 1
GEOMETRY = "window/geometry"
STATE = "window/state"
SPLITTER = "window/splitter"
HIDDEN_PANELS = "window/hidden_panels"
SCOPE_MODE = "assistant/scope"  # "document", "selected" or "all" (ui/assistant/scope_bar.py)
DEFAULT_SCOPE_MODE = "document"
RECENT = "library/recent"
LAST_FOLDER = "dialogs/lastFolder"
MAX_RECENT = 10


def app_settings() -> QSettings:
    """The user's settings file (tests point QSettings.setPath at a temporary folder)."""
    settings = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, APP_AUTHOR, APP_NAME)
    if stored_version(settings) < VERSION:  # v1 is the first layout; later versions migrate here
        settings.setValue("version", VERSION)
    return settings


def stored_version(settings: QSettings) -> int:
    """The layout version the file was last written with (0: none yet, or a value that is not a number)."""
    value = settings.value("version", 0)
    try:
        return int(value) if isinstance(value, (int, str)) else 0
    except ValueError:
        return 0


def read_bytes(settings: QSettings, key: str) -> QByteArray | None:
    """A saved Qt state blob, or None when there is none yet."""
    value = settings.value(key)
    return value if isinstance(value, QByteArray) and not value.isEmpty() else None


def hidden_panels(settings: QSettings) -> list[str]:
    """Names of the panels hidden when the window was closed ("library", "outline", "assistant")."""
    return _strings(settings.value(HIDDEN_PANELS, []))


def scope_mode(settings: QSettings) -> str:
    """The assistant's scope choice at the last close; "document" (the one being read) the first time."""
    value = str(settings.value(SCOPE_MODE, DEFAULT_SCOPE_MODE) or DEFAULT_SCOPE_MODE)
    return value if value in ("document", "selected", "all") else DEFAULT_SCOPE_MODE


def _strings(value: object) -> list[str]:
    """A QSettings list as strings: an INI file gives back one item as a str and none as an empty value."""
    if isinstance(value, str):
        value = [value]
    return [str(v) for v in (value if isinstance(value, list) else []) if v]


def recent_documents(settings: QSettings) -> list[str]:
    """Doc ids of recently opened documents, newest first."""
    return _strings(settings.value(RECENT, []))


def remember_document(settings: QSettings, doc_id: str) -> list[str]:
    """Put a document first in the recent list and return the list."""
    recent = [doc_id] + [d for d in recent_documents(settings) if d != doc_id]
    recent = recent[:MAX_RECENT]
    settings.setValue(RECENT, recent)
    return recent


def dialog_folder(settings: QSettings) -> str:
    """Where Open PDFs / Open Folder start: the folder the user last chose from, else their Documents folder
    (never the process's working directory, which for a double-clicked app is arbitrary)."""
    last = str(settings.value(LAST_FOLDER, "") or "")
    if last and Path(last).is_dir():
        return last
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return documents if documents and Path(documents).is_dir() else str(Path.home())


def remember_dialog_folder(settings: QSettings, chosen: str) -> None:
    """Keep the folder a file was chosen from (or the chosen folder itself) for the next dialog."""
    folder = Path(chosen) if Path(chosen).is_dir() else Path(chosen).parent
    settings.setValue(LAST_FOLDER, str(folder))
