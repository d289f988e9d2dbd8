"""One chat as the assistant pane drives it: scope, history, persistence and the agent, in one object.

Create it on the thread that will run it (it uses that thread's Library connection). One ToolBox lives for the
whole chat, so a page read for an earlier question still counts as read when a later answer cites it.
"""

from __future__ import annotations

import threading
from typing import Any, Iterable, Iterator

from pageindex_desktop.core import chats
from pageindex_desktop.core.agent import MAX_TURNS, Agent
from pageindex_desktop.core.ask import search_answer
from pageindex_desktop.core.citations import best_passage
from pageindex_desktop.core.events import Event, Failed, Finished
from pageindex_desktop.core.llm import LLMClient
from pageindex_desktop.core.store import Library
from pageindex_desktop.core.tools import ToolBox


class ChatSession:
    """Asks questions within a scope, keeps the transcript in the store and reloads it by scope."""

    def __init__(
        self,
        library: Library,
        doc_ids: Iterable[str] | None,
        client: LLMClient | None,
        chat_id: int | None = None,
        max_turns: int = MAX_TURNS,
    ) -> None:
        self.library = library
        self.doc_ids = sorted(set(doc_ids or []))
        self.client = client
        self.max_turns = max_turns
        self.toolbox = ToolBox(library, frozenset(self.doc_ids) if self.doc_ids else None)
        if chat_id is None:
            latest = chats.latest_chat(library, self.doc_ids)
            chat_id = latest.id if latest else None
        self.chat_id = chat_id

    def new_chat(self) -> None:
        """Start over: the next question opens a fresh chat (the old one stays in the history)."""
        self.chat_id = None
        self.toolbox = ToolBox(self.library, self.toolbox.scope)

    def transcript(self) -> list[chats.Message]:
        """The stored messages of the current chat (empty for a new one)."""
        return chats.messages(self.library, self.chat_id) if self.chat_id is not None else []

    def ask(self, question: str, cancel: threading.Event | None = None) -> Iterator[Event]:
        """Run one question; yields the agent's events and stores the exchange (answers and failures alike)."""
        history = chats.history(self.library, self.chat_id) if self.chat_id is not None else []
        if self.chat_id is None:
            self.chat_id = chats.create_chat(self.library, self.doc_ids)
        chats.add_message(self.library, self.chat_id, "user", question)
        if self.client is None:
            out = search_answer(self.toolbox, question)
            chats.add_message(self.library, self.chat_id, "assistant", out["answer"], out["tool_calls"],
                              out["citations"], out["usage"])
            yield Finished(out["answer"], [], out["tool_calls"])
            return
        agent = Agent(self.client, self.toolbox, self.client.endpoint.model, self.max_turns)
        for event in agent.run(question, history, cancel):
            if isinstance(event, Finished):
                chats.add_message(
                    self.library, self.chat_id, "assistant", event.answer, event.tool_calls,
                    [self._citation_record(c) for c in event.citations],
                    {"prompt_tokens": event.prompt_tokens, "completion_tokens": event.completion_tokens},
                )
            elif isinstance(event, Failed):
                chats.add_message(
                    self.library, self.chat_id, "assistant", f"⚠ {event.message}", event.tool_calls, [],
                    {"prompt_tokens": event.prompt_tokens, "completion_tokens": event.completion_tokens,
                     "failed": True},
                )
            yield event

    def _citation_record(self, cite: Any) -> dict[str, Any]:
        """A citation as stored: the §9 fields plus where it sits in the answer and the passage to highlight."""
        record = cite.to_dict()
        record.update({"start": cite.start, "end": cite.end, "claim": cite.claim, "passage": ""})
        if cite.doc_id:
            pages = self.library.pages(cite.doc_id, [cite.page])
            if pages:
                record["passage"] = best_passage(cite.claim, pages[0].text)
        return record
