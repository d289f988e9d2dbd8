"""The import worker: one thread that runs the library's jobs (imports, re-indexes, summaries, the finer tree,
renames, removals) one at a time.

It reads with its own connection (`store_writer.QueuedLibrary`) and calls the engine (`core/ingest/indexer.py`,
which runs extraction in a child process); the long parts (extraction, model calls, copying a file in) run here,
and each transaction the engine writes is handed to the store's one writer (`core/library/store_writer.py`) and
waited for, so a reading position or a chat message written meanwhile waits for one short transaction, never for
the job. The engine's progress callbacks become queued signals. Each job has its own cancel event, so one import
can be cancelled while the others wait in the queue.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from dataclasses import dataclass, field
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pageindex_desktop.core.ingest import indexer
from pageindex_desktop.core.errors import PageIndexError
from pageindex_desktop.core.ingest.indexer import ImportProgress, ImportResult
from pageindex_desktop.core.assistant.settings import index_endpoint, load_settings
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.library.store_writer import QueuedLibrary, StoreWriter
from pageindex_desktop.ui.background import JobThread
from pageindex_desktop.ui.qt import QObject, Signal

log = logging.getLogger(__name__)
T = TypeVar("T")

PROGRESS_INTERVAL_S = 0.1
_ids = itertools.count(1)


@dataclass
class Job:
    """One queued write. `kind` is 'import' (a file), 'reindex', 'expand' (the finer tree), 'summarize', 'rename'
    or 'remove' (a library document)."""

    kind: str
    path: Path | None = None
    doc_id: str = ""
    password: str | None = None
    title: str = ""  # a 'rename' job's new title
    use_bookmarks: bool = True
    open_when_done: bool = False  # the user asked to read this file: open it when ready (ui/open_policy.py)
    open_if_empty: bool = False  # open it when ready only if the window shows no document then
    job_id: int = field(default_factory=lambda: next(_ids))
    cancel: threading.Event = field(default_factory=threading.Event)
    started: bool = False
    stage: str = "queued"
    done: int = 0
    total: int = 0
    message: str = ""


class ImportWorker(JobThread):
    """Runs jobs in submission order on its own thread (`ui/background.JobThread`); the window stays free."""

    jobsChanged = Signal()  # the queue changed (a job was added, started, cancelled or finished)
    progress = Signal(object)  # Job, with fresh stage/done/total/message
    jobFinished = Signal(object, object)  # Job, ImportResult (None for removals and jobs cancelled while queued)
    libraryChanged = Signal()  # something was written to the store
    summariesWritten = Signal(object, object)  # Job, SummaryReport | None (None: no model, or cancelled)
    treeExpanded = Signal(object, object)  # Job, ExpandReport | None (None: no model, or cancelled)

    def __init__(self, home: Path, store: StoreWriter, parent: QObject | None = None) -> None:
        super().__init__("importWorker", parent)
        self.home = Path(home)
        self.store = store  # where this worker's writes go (the window's one writer)
        self._library: Library | None = None
        self._refusal = ""

    def submit(self, job: Job) -> Job:
        """Queue a job; it runs after the ones before it."""
        self.enqueue(job)
        self.jobsChanged.emit()
        return job

    def summarize(self, doc_ids: list[str]) -> list[Job]:
        """Queue summaries for these documents (the "Summarize" action); one job per document."""
        return [self.submit(Job("summarize", doc_id=doc_id, stage="summarizing")) for doc_id in doc_ids]

    def expand(self, doc_ids: list[str]) -> list[Job]:
        """Queue the finer tree for these documents (the "Make Tree Finer" action); one job per document."""
        return [self.submit(Job("expand", doc_id=doc_id, stage="expanding")) for doc_id in doc_ids]

    def jobs(self) -> list[Job]:
        """The running job (first) and the queued ones."""
        active, queued = self.snapshot()
        return ([active] if active else []) + queued

    def cancel(self, job_id: int | None = None, doc_id: str | None = None) -> bool:
        """Cancel a job by id or by document: a queued one is dropped, the running one stops soon."""

        def picked(job: Job) -> bool:
            return job.job_id == job_id or bool(doc_id and job.doc_id == doc_id)

        dropped: list[Job] = self.drop_queued(picked)
        active, _ = self.snapshot()
        hit = active is not None and picked(active)
        if hit:
            active.cancel.set()
        for job in dropped:
            job.cancel.set()
            self.jobFinished.emit(job, None)
        if dropped:
            self.jobsChanged.emit()
        return hit or bool(dropped)

    # ---- the thread (JobThread's hooks) ----------------------------------------------------------------

    def open_resources(self) -> None:
        try:
            self._library = QueuedLibrary(self.home, self.store)
        except PageIndexError as exc:  # a newer version upgraded the library since the window opened it
            log.error("the import worker cannot open the library: %s", exc)
            self._refusal = str(exc)
            return
        # The worker starts by settling what a crash left: imports left 'importing' become retryable failures
        # (written by the store writer), stray copies go (the window thread only reads the store).
        if self._library.recover_interrupted():
            self.libraryChanged.emit()

    def close_resources(self) -> None:
        if self._library is not None:
            self._library.close()
            self._library = None

    def on_take(self, job: Job) -> None:
        job.started = True

    def on_stop(self, active: Job | None) -> None:
        if active is not None:
            active.cancel.set()

    def on_drop(self, job: Job) -> None:
        job.cancel.set()

    def run_job(self, job: Job) -> ImportResult | None:
        self.jobsChanged.emit()
        library = self._library
        return self._run_job(library, job) if library is not None else self._refused(job, self._refusal)

    def after_job(self, job: Job, result: ImportResult | None) -> None:
        self.jobFinished.emit(job, result)
        self._queue_followups(job, result)
        self.libraryChanged.emit()
        self.jobsChanged.emit()

    @staticmethod
    def _refused(job: Job, reason: str) -> ImportResult | None:
        """The result of a job when the library cannot be opened: its sentence for an import or re-index."""
        if job.kind not in ("import", "reindex"):
            return None
        return ImportResult(job.doc_id, job.path.stem if job.path else "", 0, "", "failed", reason, False)

    def _queue_followups(self, job: Job, result: ImportResult | None) -> None:
        """With an index model configured, a freshly indexed document gets its finer tree and then its summaries
        next (same worker), so the sections the model adds are summarized too."""
        fresh = result is not None and result.status == "ready" and not result.already_present
        if job.kind not in ("import", "reindex") or not fresh or job.cancel.is_set():
            return
        if index_endpoint(load_settings(self.home), self.home) is None:
            return
        assert result is not None
        self.enqueue(Job("summarize", doc_id=result.doc_id, stage="summarizing"), first=True)
        self.enqueue(Job("expand", doc_id=result.doc_id, stage="expanding"), first=True)  # before the summaries

    def _expand(self, library: Library, job: Job) -> None:
        """The finer tree; model trouble leaves the tree as it was. A tree that changed under summaries already
        written gets a summarize job next, for its new sections (the others come from the cache)."""

        from pageindex_desktop.core.assistant.expand import expand_with_settings  # the model client loads on first use

        report = self._model_step(library, job, "expanding", "Making the tree finer", lambda progress:
                                  expand_with_settings(library, job.doc_id, cancel=job.cancel, progress=progress))
        changed = report is not None and (report.expanded > 0 or report.model_tree > 0)
        if changed and not job.cancel.is_set() and library.has_summaries(job.doc_id):
            _, waiting = self.snapshot()
            if not any(j.kind == "summarize" and j.doc_id == job.doc_id for j in waiting):
                self.enqueue(Job("summarize", doc_id=job.doc_id, stage="summarizing"), first=True)
        self.treeExpanded.emit(job, None if job.cancel.is_set() else report)

    def _model_step(self, library: Library, job: Job, stage: str, message: str,
                    run: Callable[[Callable[[int, int], None]], T]) -> T | None:
        """An index-model job on a document still in the library: `run(progress)`, its progress shown on the
        job's row as `stage` with `message`; None when the document is gone."""

        def on_progress(done: int, total: int) -> None:
            job.stage, job.done, job.total, job.message = stage, done, total, message
            self.progress.emit(job)

        if library.get(job.doc_id) is None:
            return None
        on_progress(0, 0)
        return run(on_progress)

    def _summarize(self, library: Library, job: Job) -> None:
        """Node summaries and a description; model trouble falls back to excerpts and never fails anything."""

        from pageindex_desktop.core.assistant.summaries import summarize_with_settings  # the model client loads on first use

        report = self._model_step(library, job, "summarizing", "Writing summaries", lambda progress:
                                  summarize_with_settings(library, job.doc_id, cancel=job.cancel, progress=progress))
        self.summariesWritten.emit(job, None if job.cancel.is_set() else report)

    def _run_job(self, library: Library, job: Job) -> ImportResult | None:
        last_sent, last_stage = [0.0], [""]  # when progress was last sent, and for which stage

        def on_progress(event: ImportProgress) -> None:
            first_sight = not job.doc_id and bool(event.doc_id)
            job.doc_id = job.doc_id or event.doc_id
            job.stage, job.done, job.total, job.message = event.stage, event.done, event.total, event.message
            now = time.monotonic()
            if first_sight or event.stage != last_stage[0] or now - last_sent[0] >= PROGRESS_INTERVAL_S:
                last_sent[0], last_stage[0] = now, event.stage
                if first_sight:
                    self.libraryChanged.emit()  # the file was copied in: its row now comes from the store
                self.progress.emit(job)

        try:
            if job.kind == "remove":
                if library.get(job.doc_id) is not None:
                    library.remove(job.doc_id)
                return None
            if job.kind == "rename":
                library.rename(job.doc_id, job.title)
                self.libraryChanged.emit()
                return None
            if job.kind == "summarize":
                self._summarize(library, job)
                return None
            if job.kind == "expand":
                self._expand(library, job)
                return None
            languages = load_settings(self.home).ocr_languages  # the settings say OCR's languages; ingest reads none
            if job.kind == "reindex":
                return indexer.reindex(library, job.doc_id, password=job.password, use_bookmarks=job.use_bookmarks,
                                       on_progress=on_progress, cancel=job.cancel, ocr_languages=languages)
            assert job.path is not None
            return indexer.import_pdf(library, job.path, password=job.password, use_bookmarks=job.use_bookmarks,
                                      on_progress=on_progress, cancel=job.cancel, ocr_languages=languages)
        except PageIndexError as exc:  # an expected refusal ("being imported by another process"): its sentence
            return ImportResult(job.doc_id, job.path.stem if job.path else "", 0, "", "failed", str(exc), False)
        except Exception as exc:  # an engine bug must not kill the worker; the user sees a sentence
            log.exception("%s job failed", job.kind)
            return ImportResult(job.doc_id, job.path.stem if job.path else "", 0, "", "failed",
                                f"The {job.kind} stopped on an internal error ({type(exc).__name__}); see the log.",
                                False)
