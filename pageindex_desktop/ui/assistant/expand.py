"""The "Make Tree Finer" action: long sections split (or a structureless document's tree written) by the model.

The work runs on the window's import worker (`ui/workers.ImportWorker`, as `expand` jobs, the same step an
import runs when a model is configured); `ModelRun` starts the jobs and says how it went, in one line.
"""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.core.assistant.expand import ExpandReport
from pageindex_desktop.ui.assistant.model_run import ModelRun, plural
from pageindex_desktop.ui.qt import QObject
from pageindex_desktop.ui.workers import ImportWorker, Job

NO_MODEL = "Set up a model first (Assistant ▸ Model Settings…): the finer tree is proposed by the index model."


class TreeExpander(ModelRun):
    """Runs one Make Tree Finer at a time; `message` carries the outcome as a sentence."""

    NO_MODEL = NO_MODEL
    STILL_RUNNING = "The tree is still being made finer."
    NOTHING_CHOSEN = "Select the documents whose tree to make finer in the library first."
    STARTED = "Making the tree finer for {documents}…"
    STOPPED_EARLY = "Stopped before any document's tree was made finer."

    def __init__(self, home: Path, worker: ImportWorker, parent: QObject | None = None) -> None:
        super().__init__(home, worker, worker.treeExpanded, parent)

    def submit(self, doc_ids: list[str]) -> list[Job]:
        return self.worker.expand(doc_ids)

    def sum_up(self, reports: list[ExpandReport]) -> str:
        split = sum(r.expanded for r in reports) + sum(1 for r in reports if r.model_tree > 0)
        added = sum(r.added + max(0, r.model_tree) for r in reports)
        calls = sum(r.calls for r in reports)
        reason = next((r.reason for r in reports if r.reason), "")
        text = (f"Finer tree for {len(reports)} documents: {split} sections split or trees written, {added} "
                f"headings added ({plural(calls, 'call')})")
        return text + (f"; some left as they were ({reason})." if reason else ".")
