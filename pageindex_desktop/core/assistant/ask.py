"""The headless ask used by the CLI: one question in, design §9's JSON out.

It is a one-question ChatSession that is not stored, the pane's loop: with a model configured the agent answers;
without one the session answers with exact-term search hits, labelled as search results, so the command is
still useful offline.
"""

from __future__ import annotations

import threading
from contextlib import nullcontext
from typing import Any, Callable, Iterable

from pageindex_desktop.core.assistant.chat_session import ChatSession
from pageindex_desktop.core.errors import PageIndexError
from pageindex_desktop.core.assistant.events import Event, Failed, Finished, Judged
from pageindex_desktop.core.assistant.limits import Limits
from pageindex_desktop.core.assistant.endpoint_modes import client_for
from pageindex_desktop.core.assistant.llm import RetryPolicy
from pageindex_desktop.core.assistant.llm_errors import ModelError
from pageindex_desktop.core.assistant.settings import ModelSettings, chat_endpoint, load_settings
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.assistant.search_answer import NO_MODEL_NOTE

__all__ = ["NO_MODEL_NOTE", "ask"]


def ask(
    library: Library,
    question: str,
    doc_ids: Iterable[str] | None = None,
    settings: ModelSettings | None = None,
    *,
    retry: RetryPolicy | None = None,
    cancel: threading.Event | None = None,
    on_event: Callable[[Event], None] | None = None,
    limits: Limits | None = None,
) -> dict[str, Any]:
    """Answer `question` from the documents in `doc_ids` (all when None); raises PageIndexError on failure.

    It runs the same ChatSession as the pane (not persisted), so the CLI's answers and verdicts are the pane's."""
    if not question.strip():
        raise PageIndexError("The question is empty.")
    settings = settings or load_settings(library.home)
    endpoint = chat_endpoint(settings, library.home)
    with client_for(endpoint, library.home, retry) if endpoint else nullcontext(None) as client:
        session = ChatSession(library, doc_ids, client, limits=limits or settings.limits(),
                              judge=settings.judge_citations, persist=False)
        answer: Finished | None = None
        for event in session.ask(question, cancel):
            if on_event is not None:
                on_event(event)
            if isinstance(event, Finished):
                answer = event
            elif isinstance(event, Judged):
                answer = event.answer
            elif isinstance(event, Failed):
                raise event.error if isinstance(event.error, ModelError) else PageIndexError(event.message)
        if answer is not None:
            usage = answer.usage_record() if client else {"prompt_tokens": 0, "completion_tokens": 0}
            return {"answer": answer.answer, **answer.citation_records(), "tool_calls": answer.tool_calls,
                    "usage": usage}
    raise PageIndexError("The assistant ended without an answer.")
