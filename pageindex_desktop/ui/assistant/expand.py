"""The "Make Tree Finer" action: long sections split (or a structureless document's tree written) by the model.

The work runs on the window's one store writer (`ui/workers.ImportWorker`, as `expand` jobs, the same step an
import runs when a model is configured); this object only starts the jobs and says how it went, in one line.
"""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.core.assistant.expand import ExpandReport
from pageindex_desktop.core.assistant.settings import index_endpoint, load_settings
from pageindex_desktop.ui.qt import QObject, Signal
from pageindex_desktop.ui.workers import ImportWorker, Job

NO_MODEL = "Set up a model first (Assistant ▸ Model Settings…): the finer tree is proposed by the index model."


class TreeExpander(QObject):
    """Runs one Make Tree Finer at a time; `message` carries the outcome as a sentence."""

    message = Signal(str)
    finished = Signal(object)  # list[ExpandReport] (empty when nothing ran)

    def __init__(self, home: Path, worker: ImportWorker, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.home = Path(home)
        self.worker = worker
        self._pending: set[int] = set()
        self._reports: list[ExpandReport] = []
        worker.treeExpanded.connect(self._on_expanded)
        worker.jobFinished.connect(self._on_finished)

    @property
    def busy(self) -> bool:
        """True while the last run's documents are still being worked on."""
        return bool(self._pending)

    def run(self, doc_ids: list[str]) -> bool:
        """Make these documents' trees finer; False when there is nothing to do or a run is already going."""
        if self.busy:
            self.message.emit("The tree is still being made finer.")
            return False
        if not doc_ids:
            self.message.emit("Select the documents whose tree to make finer in the library first.")
            return False
        if index_endpoint(load_settings(self.home), self.home) is None:
            self.message.emit(NO_MODEL)
            self.finished.emit([])
            return True
        self._reports = []
        self._pending = {job.job_id for job in self.worker.expand(list(doc_ids))}
        count = len(self._pending)
        self.message.emit(f"Making the tree finer for {count} document{'s' if count != 1 else ''}…")
        return True

    def cancel(self) -> None:
        """Stop this run (sections already split stay split)."""
        for job_id in list(self._pending):
            self.worker.cancel(job_id=job_id)

    def _on_expanded(self, job: Job, report: ExpandReport | None) -> None:
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
            self.message.emit("Stopped before any document's tree was made finer.")
        elif len(reports) == 1:
            self.message.emit(reports[0].sentence())
        else:
            split = sum(r.expanded for r in reports) + sum(1 for r in reports if r.model_tree > 0)
            added = sum(r.added + max(0, r.model_tree) for r in reports)
            calls = sum(r.calls for r in reports)
            reason = next((r.reason for r in reports if r.reason), "")
            text = (f"Finer tree for {len(reports)} documents: {split} sections split or trees written, {added} "
                    f"headings added ({calls} call{'s' if calls != 1 else ''})")
            self.message.emit(text + (f"; some left as they were ({reason})." if reason else "."))
        self.finished.emit(reports)
