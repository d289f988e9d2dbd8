"""One chat as the assistant pane drives it: scope, history, persistence and the agent, in one object.

Create it on the thread that will run it (it uses that thread's Library connection). One ToolBox lives for the
whole chat, so a page read for an earlier question still counts as read when a later answer cites it.
"""

from __future__ import annotations

import threading
from typing import Any, Iterable, Iterator

from pageindex_desktop.core.library import chats
from pageindex_desktop.core.assistant.agent import Agent
from pageindex_desktop.core.assistant.search_answer import search_finished
from pageindex_desktop.core.assistant.citations.second_opinion import askable, second_opinion
from pageindex_desktop.core.assistant.events import Event, Failed, Finished, Judged
from pageindex_desktop.core.assistant.limits import Limits
from pageindex_desktop.core.assistant.llm import LLMClient
from pageindex_desktop.core.library.store import DocumentRecord, Library
from pageindex_desktop.core.assistant.tools import ToolBox


class ChatSession:
    """Asks questions within a scope, keeps the transcript in the store (unless `persist` is off, as for the
    CLI) and reloads it by scope. With `judge` on, the model gives a second opinion on the citations the rules
    were unsure of, after the answer: a `Judged` event follows `Finished`."""

    def __init__(
        self,
        library: Library,
        doc_ids: Iterable[str] | None,
        client: LLMClient | None,
        chat_id: int | None = None,
        limits: Limits | None = None,
        *,
        judge: bool = True,
        persist: bool = True,
    ) -> None:
        self.library = library
        self.doc_ids = sorted(set(doc_ids or []))
        self.client = client
        self.limits = limits or Limits()
        self.judge = judge
        self.persist = persist
        self.toolbox = ToolBox(library, frozenset(self.doc_ids) if self.doc_ids else None)
        if chat_id is None and persist:
            latest = chats.latest_chat(library, self.doc_ids)
            chat_id = latest.id if latest else None
        self.chat_id = chat_id
        self.history: list[dict[str, str]] = []  # the unsaved chat's exchanges, when not persisting

    def configure(self, client: LLMClient | None, limits: Limits, judge: bool) -> None:
        """New model settings for the chat's next question (the window's settings dialog saved): the caller owns
        the client it replaces, and closes it."""
        self.client, self.limits, self.judge = client, limits, judge

    def in_scope(self) -> list[DocumentRecord]:
        """The documents the tools can read now (ready ones in the scope), what the pane names under its bar."""
        return self.toolbox.in_scope()

    def new_chat(self) -> None:
        """Start over: the next question opens a fresh chat (the old one stays in the history)."""
        self.chat_id = None
        self.history = []
        self.toolbox = ToolBox(self.library, self.toolbox.scope)

    def transcript(self) -> list[chats.Message]:
        """The stored messages of the current chat (empty for a new one)."""
        return chats.messages(self.library, self.chat_id) if self.chat_id is not None else []

    def ask(self, question: str, cancel: threading.Event | None = None) -> Iterator[Event]:
        """Run one question; yields the agent's events and stores the exchange (answers and failures alike)."""
        history = self._history()
        self._store("user", question)
        if self.client is None:
            found = search_finished(self.toolbox, question)
            self._store("assistant", found.answer, found.tool_calls, found.citation_records(), found.usage_record())
            yield found
            return
        agent = Agent(self.client, self.toolbox, self.client.endpoint.model, self.limits)
        for event in agent.run(question, history, cancel):
            if isinstance(event, Finished):
                if not event.grounded:  # answered from nothing it read: offer the pages that hold its words
                    event.search_results = search_finished(self.toolbox, question).citations
                message = self._store("assistant", event.answer, event.tool_calls, event.citation_records(),
                                      event.usage_record())
                yield event
                judged = self._second_opinion(event, cancel)
                if judged is not None:
                    if message is not None:
                        chats.update_citations(self.library, message, judged.answer.citation_records(),
                                               judged.answer.usage_record())
                    yield judged
                self.history += [{"role": "user", "content": question},
                                 {"role": "assistant", "content": event.answer}]
                continue
            if isinstance(event, Failed):
                self._store("assistant", f"⚠ {event.message}", event.tool_calls, [],
                            {"prompt_tokens": event.prompt_tokens, "completion_tokens": event.completion_tokens,
                             "failed": True})
            yield event

    def _history(self) -> list[dict[str, str]]:
        if not self.persist:
            return list(self.history)
        if self.chat_id is None:
            self.chat_id = chats.create_chat(self.library, self.doc_ids)
            return []
        return chats.history(self.library, self.chat_id)

    def _store(self, role: str, content: str, tool_calls: list[Any] | None = None,
               citations: list[Any] | dict[str, Any] | None = None, usage: dict[str, Any] | None = None) -> int | None:
        if not self.persist or self.chat_id is None:
            return None
        return chats.add_message(self.library, self.chat_id, role, content, tool_calls, citations, usage)

    def _second_opinion(self, answer: Finished, cancel: threading.Event | None) -> Judged | None:
        """The model judge's pass over the unsure citations (None when it is off or has nothing to judge)."""
        if not self.judge or self.client is None or not any(askable(c) for c in answer.citations):
            return None
        report = second_opinion(answer.citations, self.client, self.library, cancel)
        answer.judge_prompt_tokens += report.prompt_tokens
        answer.judge_completion_tokens += report.completion_tokens
        answer.judge_note = report.note
        return Judged(answer)
