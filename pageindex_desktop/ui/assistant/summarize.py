"""The "Summarize" action: node summaries and a description for documents imported without a model, written on
a background task with the index model (core/summaries.py); the window hears about it in one sentence."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from pageindex_desktop.core.llm import LLMClient
from pageindex_desktop.core.settings import index_endpoint, load_settings
from pageindex_desktop.core.store import Library
from pageindex_desktop.core.summaries import SummaryReport, summarize_document
from pageindex_desktop.ui.assistant import tasks
from pageindex_desktop.ui.assistant._qt import QObject, Signal

log = logging.getLogger(__name__)

NO_MODEL = "Set up a model first (Assistant ▸ Model Settings…): summaries are written by the index model."


class Summarizer(QObject):
    """Runs one Summarize at a time; `message` carries progress and the outcome as sentences."""

    message = Signal(str)
    finished = Signal(object)  # list[SummaryReport] (empty when nothing ran)

    def __init__(self, home: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.home = Path(home)
        self.cancel = threading.Event()
        self.busy = False

    def run(self, doc_ids: list[str]) -> bool:
        """Summarize these documents; False when there is nothing to do or a run is already going."""
        if self.busy:
            self.message.emit("Summaries are still being written.")
            return False
        if not doc_ids:
            self.message.emit("Select the documents to summarize in the library first.")
            return False
        self.busy = True
        self.cancel.clear()
        home, ids, cancel = self.home, list(doc_ids), self.cancel
        self.message.emit(f"Writing summaries for {len(ids)} document{'s' if len(ids) != 1 else ''}…")

        def work() -> list[SummaryReport] | None:
            # summarize_with_settings, with one client for the whole run that is closed afterwards
            endpoint = index_endpoint(load_settings(home), home)
            if endpoint is None:
                return None
            client = LLMClient(endpoint)
            try:
                with Library(home) as library:
                    return [summarize_document(library, doc_id, client, cancel=cancel)
                            for doc_id in ids if not cancel.is_set()]
            finally:
                client.client.close()

        tasks.run_task(work, self._done, self._failed, None, "summarize")
        return True

    def _done(self, reports: list[SummaryReport] | None) -> None:
        self.busy = False
        if reports is None:
            self.message.emit(NO_MODEL)
            self.finished.emit([])
            return
        nodes = sum(r.nodes for r in reports)
        calls = sum(r.calls for r in reports)
        failed = sum(r.failed_batches for r in reports)
        text = (f"Summaries written for {len(reports)} document{'s' if len(reports) != 1 else ''} "
                f"({nodes} sections, {calls} model call{'s' if calls != 1 else ''}).")
        if failed:
            text += f" {failed} batch{'es' if failed != 1 else ''} failed and kept excerpts instead."
        self.message.emit(text)
        self.finished.emit(reports)

    def _failed(self, text: str) -> None:
        self.busy = False
        self.message.emit(f"Summaries stopped: {text}")
        self.finished.emit([])
