"""Keeps the library sidebar in step with the store and the import queue, and reports finished imports."""

from __future__ import annotations

import logging
import sqlite3
from collections import Counter
from dataclasses import replace

from pageindex_desktop.core.ingest.indexer import ImportResult
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.ui.library.library_model import LibraryRow
from pageindex_desktop.ui.library.library_panel import LibraryPanel
from pageindex_desktop.ui.qt import QObject, QTimer, Signal
from pageindex_desktop.ui.workers import ImportWorker, Job

log = logging.getLogger(__name__)
WATCH_MS = 1000  # how often the window looks for other processes' writes


def job_key(job: Job) -> str:
    """The library row a job shows on: its document once known, else the job itself."""
    return job.doc_id if job.doc_id else f"job:{job.job_id}"


class LibrarySync(QObject):
    """Builds the sidebar's rows from `Library.documents()` plus the worker's queue."""

    documentReady = Signal(str)  # a job that asked to open its document finished well
    readyForEmptyWindow = Signal(str)  # a job that may open its document if nothing is open finished well
    importFailed = Signal(object, object)  # Job, ImportResult
    statusMessage = Signal(str)
    changedElsewhere = Signal()  # another process (the CLI, a second window) wrote to the library

    def __init__(self, library: Library, worker: ImportWorker, panel: LibraryPanel) -> None:
        super().__init__(panel)
        self.library = library
        self.worker = worker
        self.panel = panel
        self.active = True  # False once the window closes: late queued signals are ignored
        # files that failed before they were copied in (missing, unreadable) have no store row: keep their
        # reason on screen until the next import starts
        self.unstored_failures: dict[str, LibraryRow] = {}
        worker.jobsChanged.connect(self.refresh)
        worker.libraryChanged.connect(self.refresh)
        # SQLite's data_version changes when another connection commits: a CLI import, remove or summaries run
        # shows up within a second instead of after a restart (polled: one cheap PRAGMA, no file watcher)
        self._data_version = self._read_data_version()
        self._watch = QTimer(self)
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self._check_elsewhere)
        self._watch.start()
        worker.progress.connect(self._on_progress)
        worker.jobFinished.connect(self._on_finished)
        panel.cancelRequested.connect(self.cancel)

    def stop(self) -> None:
        """The window is closing: ignore the worker's late queued signals and stop watching for other writers."""
        self.active = False
        self._watch.stop()

    def _read_data_version(self) -> int:
        try:
            return self.library.data_version()
        except sqlite3.Error:  # a closed or busy connection: try again at the next tick
            return self._data_version if hasattr(self, "_data_version") else 0

    def _check_elsewhere(self) -> None:
        if not self.active:
            self._watch.stop()
            return
        version = self._read_data_version()
        if version != self._data_version:
            self._data_version = version
            self.refresh()
            self.changedElsewhere.emit()

    def refresh(self) -> None:
        """Re-read the store (cheap: two queries) and the queue, and show the result."""
        if not self.active:
            return
        jobs = [j for j in self.worker.jobs() if j.kind != "remove"]
        removing = {j.doc_id for j in self.worker.jobs() if j.kind == "remove"}
        by_doc = {j.doc_id: j for j in reversed(jobs) if j.doc_id}
        rows: list[LibraryRow] = []
        unfinished = self.library.unfinished_summaries()
        for rec in self.library.documents():
            if rec.doc_id in removing:
                continue
            row = LibraryRow(
                key=rec.doc_id, doc_id=rec.doc_id, title=rec.title or rec.file_name, file_name=rec.file_name,
                status=rec.status, error=rec.error, page_count=rec.page_count, outline_source=rec.outline_source,
                image_only_pages=rec.image_only_pages, note=rec.note,
                summaries="summaries: {} of {}".format(*unfinished[rec.doc_id]) if rec.doc_id in unfinished else "",
            )
            job = by_doc.get(rec.doc_id)
            if job is not None:
                row = self._with_job(row, job)
            rows.append(row)
        titles = Counter(r.title.casefold() for r in rows)
        rows = [replace(r, same_title=True) if titles[r.title.casefold()] > 1 else r for r in rows]
        rows += [r for k, r in self.unstored_failures.items() if all(k != j.doc_id for j in jobs)]
        for job in jobs:
            if not job.doc_id and job.path is not None:
                base = LibraryRow(key=job_key(job), doc_id="", title=job.path.stem, file_name=job.path.name,
                                  status="queued")
                rows.append(self._with_job(base, job))
        self.panel.set_rows(rows)

    @staticmethod
    def _with_job(row: LibraryRow, job: Job) -> LibraryRow:
        status = "importing" if job.started else "queued"
        return replace(row, status=status, error="", done=job.done, total=job.total, message=_stage_text(job))

    def cancel(self, key: str) -> None:
        """Cancel the import shown on a row."""
        if key.startswith("job:"):
            self.worker.cancel(job_id=int(key[4:]))
        else:
            self.worker.cancel(doc_id=key)

    def _on_progress(self, job: Job) -> None:
        key = job_key(job)
        if self.panel.model.row_for(key) < 0:
            self.refresh()
            return
        self.panel.model.update_row(key, status="importing", error="", done=job.done, total=job.total,
                                    message=_stage_text(job))
        total = f" {job.done}/{job.total}" if job.total else ""
        doing = "Re-indexing" if job.kind == "reindex" else "Importing"
        self.statusMessage.emit(f"{doing} {self._name(job)}: {_stage_text(job).lower()}{total}")

    def _name(self, job: Job, title: str = "") -> str:
        """What the status bar calls a job's document: its file, else its title (never a raw doc id)."""
        if job.path is not None:
            return job.path.name
        record = self.library.get(job.doc_id) if job.doc_id else None
        return (record.title or record.file_name) if record else (title or "the document")

    def _on_finished(self, job: Job, result: ImportResult | None) -> None:
        if result is None:
            return
        name = self._name(job, result.title)
        if result.status == "ready" and job.kind == "reindex" and result.warning:
            self.statusMessage.emit(f"{name}: {result.warning}")  # a cancelled re-index kept the previous index
        elif result.status == "ready":
            note = " (already in the library)" if result.already_present else ""
            said = f"; {result.warning}" if result.warning else ""
            self.statusMessage.emit(f"{name}: ready, {result.page_count} pages{note}{said}")
            if job.open_when_done:
                self.documentReady.emit(result.doc_id)
            elif job.open_if_empty:
                self.readyForEmptyWindow.emit(result.doc_id)
        else:
            self.statusMessage.emit(f"{name}: {result.error}")
            if not result.doc_id and job.path is not None:
                key = f"failed:{job.path}"
                self.unstored_failures[key] = LibraryRow(key=key, doc_id="", title=job.path.stem,
                                                         file_name=job.path.name, status="failed",
                                                         error=result.error)
                self.refresh()
            self.importFailed.emit(job, result)

    def clear_unstored_failures(self) -> None:
        """A new import starts: forget the failures of files that never made it into the library."""
        if self.unstored_failures:
            self.unstored_failures.clear()
            self.refresh()


def _stage_text(job: Job) -> str:
    return {
        "queued": "Waiting",
        "extracting": "Reading",
        "building": "Building outline",
        "saving": "Saving",
        "summarizing": "Writing summaries",
        "expanding": "Making the tree finer",
        "done": "Done",
    }.get(job.stage, job.stage.capitalize() or "Waiting")
