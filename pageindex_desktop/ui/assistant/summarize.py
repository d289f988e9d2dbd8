"""The "Summarize" action: node summaries and a description for documents imported without a model.

The work runs on the window's import worker (`ui/workers.ImportWorker`, as `summarize` jobs, the same
step an import runs when a model is configured); `ModelRun` starts the jobs and says how it went.
"""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.core.assistant.summaries import SummaryReport
from pageindex_desktop.ui.assistant.model_run import ModelRun, plural
from pageindex_desktop.ui.qt import QObject
from pageindex_desktop.ui.workers import ImportWorker, Job

NO_MODEL = "Set up a model first (Assistant ▸ Model Settings…): summaries are written by the index model."


class Summarizer(ModelRun):
    """Runs one Summarize at a time; `message` carries progress and the outcome as sentences."""

    NO_MODEL = NO_MODEL
    STILL_RUNNING = "Summaries are still being written."
    NOTHING_CHOSEN = "Select the documents to summarize in the library first."
    STARTED = "Writing summaries for {documents}…"
    STOPPED_EARLY = "Summaries stopped before any document was done."

    def __init__(self, home: Path, worker: ImportWorker, parent: QObject | None = None) -> None:
        super().__init__(home, worker, worker.summariesWritten, parent)

    def resume(self, library_unfinished: list[str]) -> bool:
        """At start-up: finish the summaries runs that stopped part-way (a quit, a crash), when a model is set
        up (found out on a task: the keychain never runs on the window thread); sections already written are not
        asked for again. False when there is nothing to resume."""
        if not library_unfinished or self.busy:
            return False
        self._when_model(list(library_unfinished), "Finishing the summaries that stopped part-way for {documents}…",
                         say_missing=False)
        return True

    def submit(self, doc_ids: list[str]) -> list[Job]:
        return self.worker.summarize(doc_ids)

    def sum_up(self, reports: list[SummaryReport]) -> str:
        written = sum(r.written for r in reports)
        fell_back = sum(r.fell_back for r in reports)
        calls = sum(r.calls for r in reports)
        text = (f"Summaries for {len(reports)} documents: {written} of {written + fell_back} sections written by "
                f"the model ({plural(calls, 'call')})")
        reason = next((r.reason for r in reports if r.reason), "")
        if fell_back:
            text += f", {fell_back} fell back to page excerpts ({reason or 'the model did not answer'})"
        return text + "."
