"""The assistant's thread: it owns a reading connection and one ChatSession per scope, runs questions and turns
the agent's events into queued signals; the chat messages it stores are written by the store's one writer
(`core/library/store_writer.py`: the connection is a `QueuedLibrary`). The window thread never waits on the model or
the database here.

Jobs run one at a time in order (set scope, ask, new chat, reload settings); `cancel()` stops the running
question within a fraction of a second (the model client polls the cancel flag every 0.1 s).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pageindex_desktop.core.library import chats
from pageindex_desktop.core.assistant.chat_session import ChatSession
from pageindex_desktop.core.assistant.events import Failed, Finished, Judged, TextDelta, ToolCallStarted, ToolResult, Usage
from pageindex_desktop.core.assistant.limits import Limits
from pageindex_desktop.core.assistant.endpoint_modes import client_for
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient
from pageindex_desktop.core.assistant.settings import chat_endpoint, load_settings
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.library.store_writer import QueuedLibrary, StoreWriter
from pageindex_desktop.ui.background import JobThread
from pageindex_desktop.ui.qt import QObject, Signal
from pageindex_desktop.ui.assistant.entries import Exchange, exchange_from_answer, exchanges_from_messages

log = logging.getLogger(__name__)

DELTA_INTERVAL_S = 0.05  # streamed text is sent to the window at most 20 times a second


NOTHING_IN_SCOPE = ("Nothing in this scope can be read: open a document, select ready documents in the library, "
                    "or choose All documents.")


@dataclass(frozen=True)
class ScopeInfo:
    """What the pane shows for a scope: a label, the titles the tools can read now, and the stored chat.

    `everything` is the All documents scope; `waiting` counts documents named by the scope that are not ready
    (being re-indexed), which the tools skip until they are."""

    key: str
    label: str
    documents: int
    exchanges: list[Exchange]
    titles: tuple[str, ...] = ()
    everything: bool = False
    waiting: int = 0


def describe_endpoint(endpoint: Endpoint | None) -> str:
    """'model at host' for the pane's header ('' when no model is configured)."""
    if endpoint is None:
        return ""
    host = endpoint.base_url.split("://", 1)[-1].split("/", 1)[0]
    return f"{endpoint.model} at {host}"


def close_client(client: LLMClient | None) -> None:
    """Close the HTTP connections a model client keeps open (keep-alive), e.g. before the thread ends."""
    if client is not None:
        try:
            client.close()
        except Exception:  # noqa: BLE001 - closing is best effort
            log.debug("closing the model client failed", exc_info=True)


class AssistantWorker(JobThread):
    """One long-lived thread per pane (`ui/background.JobThread`); start() once, stop() when the pane goes away."""

    modelChanged = Signal(str)  # describe_endpoint(); '' = no model configured
    scopeLoaded = Signal(object)  # ScopeInfo
    textDelta = Signal(int, str, int)  # question id, text, turn (a new turn replaces the shown text)
    stepStarted = Signal(int, str)  # question id, reading-trail label
    stepFinished = Signal(int, str, bool)  # question id, label, ok
    usage = Signal(int, int, int, bool)  # question id, prompt tokens so far, completion tokens so far, estimated
    answered = Signal(int, object)  # question id, the finished Exchange (citations with passages)
    judged = Signal(int, object)  # question id, the Exchange again with the model judge's verdicts
    failed = Signal(int, str, bool)  # question id, one sentence, cancelled

    def __init__(self, home: Path, store: StoreWriter, parent: QObject | None = None) -> None:
        super().__init__("assistantWorker", parent)
        self.home = Path(home)
        self.store = store
        self._library: Library | None = None
        self._cancel = threading.Event()
        self._sessions: dict[str, ChatSession] = {}
        self._scope: list[str] | None = None  # None: every document; [] nothing (no document open or selected)
        self._endpoint: Endpoint | None = None
        self._judge = True
        self._limits = Limits()

    # ---- called from the window thread -----------------------------------------------------------------

    def post(self, kind: str, payload: Any = None) -> None:
        """Queue a job: ('settings', None), ('scope', doc_ids or None for every document), ('ask', (id, question)),
        ('new_chat', None)."""
        self.enqueue((kind, payload))

    def cancel(self) -> None:
        """Stop the running question (and drop questions still waiting)."""
        self.drop_queued(lambda job: job[0] == "ask")
        self._cancel.set()

    def stop(self, timeout_ms: int = 5000) -> None:
        """End the thread (the pane is closing); a running question is cancelled first."""
        super().stop(timeout_ms)

    # ---- the thread (JobThread's hooks) ----------------------------------------------------------------

    def open_resources(self) -> None:
        self._library = QueuedLibrary(self.home, self.store)

    def close_resources(self) -> None:
        for session in self._sessions.values():
            close_client(session.client)
        if self._library is not None:
            self._library.close()
            self._library = None

    def on_take(self, job: tuple[str, Any]) -> None:
        if job[0] == "ask":
            self._cancel.clear()

    def on_stop(self, active: tuple[str, Any] | None) -> None:
        self._cancel.set()

    def job_crashed(self, job: tuple[str, Any], exc: Exception) -> None:
        kind, payload = job
        if kind == "ask":  # a bug must not leave the pane waiting; it gets a sentence
            self.failed.emit(payload[0], f"The assistant stopped on an internal error "
                                         f"({type(exc).__name__}); see Help ▸ Show Log.", False)

    def run_job(self, job: tuple[str, Any]) -> None:
        kind, payload = job
        library = self._library
        assert library is not None  # open_resources ran first on this thread
        if kind == "settings":
            settings = load_settings(self.home)
            self._judge, self._limits = settings.judge_citations, settings.limits()
            self._endpoint = chat_endpoint(settings, self.home)
            client = client_for(self._endpoint, library.home) if self._endpoint else None
            for session in self._sessions.values():
                if session.client is not client:
                    close_client(session.client)
                session.configure(client, self._limits, self._judge)
            self.modelChanged.emit(describe_endpoint(self._endpoint))
        elif kind == "scope":
            self._scope = None if payload is None else self._admissible(library, payload)
            self.scopeLoaded.emit(self._scope_info(library))
        elif kind == "new_chat":
            if self._scope != []:
                self._session(library).new_chat()
            self.scopeLoaded.emit(self._scope_info(library))
        elif kind == "ask":
            self._ask(library, *payload)

    @staticmethod
    def _admissible(library: Library, doc_ids: list[str]) -> list[str]:
        """The scope's documents that may ever be read: a failed or removed one never joins a scope (the window's
        selection can hold a failed row); one being re-indexed stays, and the tools skip it until it is ready."""
        records = {d.doc_id: d for d in library.documents()}
        return sorted(d for d in set(doc_ids) if d in records and records[d].status != "failed")

    def _session(self, library: Library) -> ChatSession:
        assert self._scope != [], "an empty scope has no chat"
        key = chats.scope_key(self._scope)
        if key not in self._sessions:
            client = client_for(self._endpoint, library.home) if self._endpoint else None
            self._sessions[key] = ChatSession(library, self._scope or None, client, limits=self._limits,
                                              judge=self._judge)
        return self._sessions[key]

    def _titles(self, library: Library) -> dict[str, str]:
        return {d.doc_id: d.title or d.file_name for d in library.documents()}

    def _scope_info(self, library: Library) -> ScopeInfo:
        """The scope as the tools see it: the titles are those of `ToolBox.in_scope()`, what they can read now."""
        if self._scope == []:
            return ScopeInfo("", "nothing", 0, [], ())
        session = self._session(library)
        titles = self._titles(library)
        readable = tuple(d.title or d.file_name for d in session.in_scope())
        if self._scope is None:
            label, waiting = f"all documents ({len(readable)})", 0
        else:
            waiting = len(self._scope) - len(readable)
            label = readable[0] if len(readable) == 1 else f"{len(readable)} documents: {', '.join(readable)}"
        exchanges = exchanges_from_messages(session.transcript(), titles)
        return ScopeInfo(chats.scope_key(self._scope), label, len(readable), exchanges, readable,
                         self._scope is None, waiting)

    def _ask(self, library: Library, qid: int, question: str) -> None:
        if self._scope == [] or (self._scope is not None and not self._session(library).in_scope()):
            self.failed.emit(qid, NOTHING_IN_SCOPE, False)  # never "every document" by accident
            return
        session = self._session(library)
        pending: list[str] = []
        turn = [0, 0.0]  # the turn of the pending text, when it was last sent

        def flush() -> None:
            if pending:
                self.textDelta.emit(qid, "".join(pending), turn[0])
                pending.clear()
            turn[1] = time.monotonic()

        for event in session.ask(question, self._cancel):
            if isinstance(event, TextDelta):
                if event.turn != turn[0]:
                    flush()
                    turn[0] = event.turn
                pending.append(event.text)
                if time.monotonic() - turn[1] >= DELTA_INTERVAL_S:
                    flush()
                continue
            flush()
            if isinstance(event, ToolCallStarted):
                self.stepStarted.emit(qid, event.label)
            elif isinstance(event, ToolResult):
                self.stepFinished.emit(qid, event.label, event.ok)
            elif isinstance(event, Usage):
                self.usage.emit(qid, event.total_prompt_tokens, event.total_completion_tokens, event.estimated)
            elif isinstance(event, Finished):
                self.answered.emit(qid, exchange_from_answer(question, event, self._titles(library)))
            elif isinstance(event, Judged):
                self.judged.emit(qid, exchange_from_answer(question, event.answer, self._titles(library)))
            elif isinstance(event, Failed):
                # after Stop, the stream may end as "broke off" rather than Cancelled: the user stopped it either way
                self.failed.emit(qid, event.message, event.cancelled or self._cancel.is_set())
