"""One run of an index-model action over some documents (Summarize, Make Tree Finer): it queues one job per
document on the import worker (`ui/workers.ImportWorker`), collects each document's report as its job ends, and
says how the run went in one sentence. The two actions differ only in their job, their report and their words,
which a subclass gives; the bookkeeping is here once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pageindex_desktop.core.assistant.settings import index_endpoint, load_settings
from pageindex_desktop.ui.assistant import tasks
from pageindex_desktop.ui.qt import QObject, Signal, SignalInstance
from pageindex_desktop.ui.workers import ImportWorker, Job


def plural(count: int, word: str) -> str:
    """'1 document', '3 documents'."""
    return f"{count} {word}{'s' if count != 1 else ''}"


class ModelRun(QObject):
    """Runs one action at a time; `message` carries progress and the outcome as sentences."""

    message = Signal(str)
    finished = Signal(object)  # list of the documents' reports (empty when nothing ran)

    # what a subclass says
    NO_MODEL = ""
    STILL_RUNNING = ""
    NOTHING_CHOSEN = ""
    STARTED = ""  # with {documents}: "3 documents"
    STOPPED_EARLY = ""

    def __init__(self, home: Path, worker: ImportWorker, reported: SignalInstance,
                 parent: QObject | None = None) -> None:
        """`reported(job, report)` is the worker's signal for one document's report (None when cancelled)."""
        super().__init__(parent)
        self.home = Path(home)
        self.worker = worker
        self._pending: set[int] = set()
        self._reports: list[Any] = []
        self._checking = False  # a task is finding out whether a model is set up
        reported.connect(self._on_report)
        worker.jobFinished.connect(self._on_finished)

    @property
    def busy(self) -> bool:
        """True while the last run's documents are still being worked on (or it is finding out about the model)."""
        return bool(self._pending) or self._checking

    def has_model(self) -> bool:
        """An index model is set up (the actions need one). Reads the keychain (the key decides whether a hosted
        model is usable), which can block for seconds or show a prompt: call it off the window thread."""
        return index_endpoint(load_settings(self.home), self.home) is not None

    def run(self, doc_ids: list[str]) -> bool:
        """Start on these documents; False when there is nothing to do or a run is already going. Whether a model
        is set up is found out on a task (the keychain never runs on the window thread); without one the run
        says so and ends."""
        if self.busy:
            self.message.emit(self.STILL_RUNNING)
            return False
        if not doc_ids:
            self.message.emit(self.NOTHING_CHOSEN)
            return False
        self._when_model(list(doc_ids), self.STARTED, say_missing=True)
        return True

    def _when_model(self, doc_ids: list[str], sentence: str, say_missing: bool) -> None:
        """Start on `doc_ids` with `sentence` once a task has found a model set up; else (with `say_missing`) say
        there is none and end the run."""
        self._checking = True

        def checked(found: object) -> None:
            self._checking = False
            if found:
                self.start(doc_ids, sentence)
            elif say_missing:
                self.message.emit(self.NO_MODEL)
                self.finished.emit([])

        def failed(text: str) -> None:
            self._checking = False
            if say_missing:
                self.message.emit(text)
                self.finished.emit([])

        tasks.run_task(self.has_model, checked, failed, self, "modelCheck")

    def start(self, doc_ids: list[str], sentence: str) -> None:
        """Queue the jobs and say `sentence` (its {documents} filled in)."""
        self._reports = []
        self._pending = {job.job_id for job in self.submit(list(doc_ids))}
        self.message.emit(sentence.format(documents=plural(len(self._pending), "document")))

    def cancel(self) -> None:
        """Stop this run (what is already done stays)."""
        for job_id in list(self._pending):
            self.worker.cancel(job_id=job_id)

    def submit(self, doc_ids: list[str]) -> list[Job]:
        """Queue one job per document on the import worker."""
        raise NotImplementedError

    def sum_up(self, reports: list[Any]) -> str:
        """The sentence for a run over several documents (one document's report says its own)."""
        raise NotImplementedError

    def _on_report(self, job: Job, report: object) -> None:
        if job.job_id in self._pending and report is not None:
            self._reports.append(report)

    def _on_finished(self, job: Job, _result: object) -> None:
        if job.job_id not in self._pending:
            return
        self._pending.discard(job.job_id)
        if self._pending:
            return
        reports = self._reports
        if not reports:
            self.message.emit(self.STOPPED_EARLY)
        elif len(reports) == 1:
            self.message.emit(reports[0].sentence())
        else:
            self.message.emit(self.sum_up(reports))
        self.finished.emit(reports)
