"""The "Summarize" action: node summaries and a description for documents imported without a model.

The writing happens on the window's one store writer (`ui/workers.ImportWorker`, as `summarize` jobs, the same
step an import runs when a model is configured); this object only starts the jobs and says how it went.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pageindex_desktop.core.assistant.settings import index_endpoint, load_settings
from pageindex_desktop.core.assistant.summaries import SummaryReport
from pageindex_desktop.ui.qt import QObject, Signal
from pageindex_desktop.ui.workers import ImportWorker, Job

log = logging.getLogger(__name__)

NO_MODEL = "Set up a model first (Assistant ▸ Model Settings…): summaries are written by the index model."


class Summarizer(QObject):
    """Runs one Summarize at a time; `message` carries progress and the outcome as sentences."""

    message = Signal(str)
    finished = Signal(object)  # list[SummaryReport] (empty when nothing ran)

    def __init__(self, home: Path, worker: ImportWorker, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.home = Path(home)
        self.worker = worker
        self._pending: set[int] = set()
        self._reports: list[SummaryReport] = []
        worker.summariesWritten.connect(self._on_written)
        worker.jobFinished.connect(self._on_finished)

    @property
    def busy(self) -> bool:
        """True while summaries of the last run are still being written."""
        return bool(self._pending)

    def resume(self, library_unfinished: list[str]) -> bool:
        """At start-up: finish the summaries runs that stopped part-way (a quit, a crash), when a model is set
        up; sections already written are not asked for again. False when there is nothing to resume."""
        if not library_unfinished or self.busy or index_endpoint(load_settings(self.home), self.home) is None:
            return False
        self._reports = []
        self._pending = {job.job_id for job in self.worker.summarize(list(library_unfinished))}
        count = len(self._pending)
        self.message.emit(f"Finishing the summaries that stopped part-way for {count} "
                          f"document{'s' if count != 1 else ''}…")
        return True

    def run(self, doc_ids: list[str]) -> bool:
        """Summarize these documents; False when there is nothing to do or a run is already going."""
        if self.busy:
            self.message.emit("Summaries are still being written.")
            return False
        if not doc_ids:
            self.message.emit("Select the documents to summarize in the library first.")
            return False
        if index_endpoint(load_settings(self.home), self.home) is None:
            self.message.emit(NO_MODEL)
            self.finished.emit([])
            return True
        self._reports = []
        self._pending = {job.job_id for job in self.worker.summarize(list(doc_ids))}
        count = len(self._pending)
        self.message.emit(f"Writing summaries for {count} document{'s' if count != 1 else ''}…")
        return True

    def cancel(self) -> None:
        """Stop the summaries of this run (already written ones stay)."""
        for job_id in list(self._pending):
            self.worker.cancel(job_id=job_id)

    def _on_written(self, job: Job, report: SummaryReport | None) -> None:
        if job.job_id in self._pending and report is not None:
            self._reports.append(report)

    def _on_finished(self, job: Job, _result: object) -> None:
        if job.job_id not in self._pending:
            return
        self._pending.discard(job.job_id)
        if not self._pending:
            self._done(self._reports)

    def _done(self, reports: list[SummaryReport]) -> None:
        if not reports:
            self.message.emit("Summaries stopped before any document was done.")
            self.finished.emit([])
            return
        if len(reports) == 1:
            self.message.emit(reports[0].sentence())
            self.finished.emit(reports)
            return
        written = sum(r.written for r in reports)
        fell_back = sum(r.fell_back for r in reports)
        calls = sum(r.calls for r in reports)
        text = (f"Summaries for {len(reports)} documents: {written} of {written + fell_back} sections written by "
                f"the model ({calls} call{'s' if calls != 1 else ''})")
        reason = next((r.reason for r in reports if r.reason), "")
        if fell_back:
            text += f", {fell_back} fell back to page excerpts ({reason or 'the model did not answer'})"
        self.message.emit(text + ".")
        self.finished.emit(reports)
