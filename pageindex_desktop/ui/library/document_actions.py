"""What the window does to documents on the user's behalf: pick files, re-index, remove, passwords."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from pageindex_desktop.core import formats
from pageindex_desktop.core.ingest.indexer import ImportResult
from pageindex_desktop.ui import settings as window_settings
from pageindex_desktop.ui.qt import (
    QDesktopServices,
    QFileDialog,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QObject,
    QUrl,
    QWidget,
    Signal,
)
from pageindex_desktop.ui.workers import ImportWorker, Job

if TYPE_CHECKING:
    from pageindex_desktop.core.library.store import Library

log = logging.getLogger(__name__)


def needs_password(error: str) -> bool:
    """The engine's failure sentence for an encrypted PDF (PasswordRequired) mentions the password."""
    return "password" in error.lower()


class DocumentActions(QObject):
    """Dialog-driven document operations; every store write goes through the import worker, and what only the
    window can do (import chosen paths, open a document, show a sentence) is asked for by signal."""

    importRequested = Signal(list)  # paths the user chose (files, or one folder)
    openRequested = Signal(str)  # a document whose password was just typed
    message = Signal(str, int)  # a sentence for the status bar, how long to show it (ms)

    def __init__(self, window: QWidget, library: "Library", worker: ImportWorker) -> None:
        """`window` parents the dialogs; `library` is its reading connection; `worker` runs the library's jobs."""
        super().__init__(window)
        self.window = window
        self.library = library
        self.worker = worker
        self.passwords: dict[str, str] = {}  # for this session only, never saved

    def choose_files(self) -> None:
        """Pick documents to import (PDFs, e-books, text and Markdown: `core/formats.py`)."""
        settings = window_settings.app_settings()
        files, _ = QFileDialog.getOpenFileNames(self.window, "Open Documents",
                                                window_settings.dialog_folder(settings), formats.dialog_filter())
        if files:
            window_settings.remember_dialog_folder(settings, files[0])
            self.importRequested.emit(list(files))

    def choose_folder(self) -> None:
        """Pick a folder whose PDFs are imported."""
        settings = window_settings.app_settings()
        folder = QFileDialog.getExistingDirectory(self.window, "Open a folder of PDFs",
                                                  window_settings.dialog_folder(settings))
        if folder:
            window_settings.remember_dialog_folder(settings, folder)
            self.importRequested.emit([folder])

    def rename(self, doc_id: str) -> None:
        """Ask for a new title (F2 or Rename… in the library); a `rename` job on the import worker has the store
        writer store it."""
        record = self.library.get(doc_id)
        if record is None or record.status != "ready":
            return
        title, ok = QInputDialog.getText(self.window, "Rename Document", "Title (used in the library, the window "
                                         "and citations):", QLineEdit.EchoMode.Normal, record.title)
        if ok and " ".join(title.split()) and title.strip() != record.title:
            self.worker.submit(Job("rename", doc_id=doc_id, title=title))

    def reindex(self, doc_ids: list[str]) -> None:
        """Queue a re-index of each document."""
        for doc_id in doc_ids:
            self.worker.submit(Job("reindex", doc_id=doc_id, password=self.passwords.get(doc_id)))

    def remove(self, doc_ids: list[str], confirm: bool = True) -> bool:
        """Remove documents (their copy, pages and tree) after asking; running imports of them are cancelled."""
        if not doc_ids:
            return False
        if confirm:
            names = [r.title for r in (self.library.get(d) for d in doc_ids) if r is not None]
            listing = "\n".join(f"• {n}" for n in names[:8]) + ("\n…" if len(names) > 8 else "")
            box = QMessageBox(QMessageBox.Icon.Question, "Remove from Library",
                              f"Remove {len(doc_ids)} document{'s' if len(doc_ids) != 1 else ''} from the library?"
                              f"\n\n{listing}\n\nThe library's copy, its outline and any summaries are deleted; "
                              "your original file is kept.", QMessageBox.StandardButton.Cancel, self.window)
            box.setObjectName("confirmRemove")
            remove = box.addButton("Remove", QMessageBox.ButtonRole.DestructiveRole)
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
            box.exec()
            if box.clickedButton() is not remove:
                return False
        for doc_id in doc_ids:
            self.worker.cancel(doc_id=doc_id)
            self.worker.submit(Job("remove", doc_id=doc_id))
        return True

    def show_file(self, doc_id: str) -> None:
        """Open the folder that holds the library's copy of the PDF."""
        path = self.library.pdf_path(doc_id)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(path.parent)))
        self.message.emit(str(path), 10000)

    def ask_password(self, name: str, again: bool) -> str | None:
        """Ask for a PDF's password (masked); None when the user cancels."""
        prompt = ("That password did not open it. " if again else "") + f"“{name}” is encrypted. Password:"
        text, ok = QInputDialog.getText(self.window, "Password required", prompt, QLineEdit.EchoMode.Password)
        # give the keyboard back to what the reader was using (the page view): not every platform re-activates
        # the parent of a closed dialog, and PageDown then went nowhere
        self.window.activateWindow()
        return text if ok else None

    def import_failed(self, job: Job, result: ImportResult) -> None:
        """An encrypted PDF: ask for the password and import again with it."""
        if not needs_password(result.error) or not result.doc_id:
            return
        name = job.path.name if job.path else result.title
        password = self.ask_password(name, again=job.password is not None)
        if password is None:
            return
        self.passwords[result.doc_id] = password
        # the answer opens the document only if the import it retries would have (ui/open_policy.py): a
        # password for one file of a folder must not take the reader off their page
        self.worker.submit(Job("reindex", doc_id=result.doc_id, password=password,
                                      open_when_done=job.open_when_done, open_if_empty=job.open_if_empty))

    def open_failed(self, key: str, error: str) -> None:
        """The viewer could not open the PDF: ask for a password or say why."""
        if error == "password":
            record = self.library.get(key)
            password = self.ask_password(record.title if record else key, again=key in self.passwords)
            if password is not None:
                self.passwords[key] = password
                self.openRequested.emit(key)
            return
        QMessageBox.warning(self.window, "Cannot show the PDF", error)
