"""The headless ask used by the CLI: one question in, design §9's JSON out.

With a model configured it runs the agent; without one it answers with exact-term search hits, labelled as
search results, so the command is still useful offline.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Callable, Iterable

from pageindex_desktop.core.agent import Agent
from pageindex_desktop.core.errors import PageIndexError
from pageindex_desktop.core.events import Event, Failed, Finished
from pageindex_desktop.core.llm import LLMClient, RetryPolicy
from pageindex_desktop.core.llm_errors import ModelError
from pageindex_desktop.core.settings import ModelSettings, chat_endpoint, load_settings
from pageindex_desktop.core.store import Library
from pageindex_desktop.core.tools import ToolBox

NO_MODEL_NOTE = (
    "No model is configured (set OPENAI_API_KEY, or point OPENAI_BASE_URL at Ollama or LM Studio and set "
    "PAGEINDEX_CHAT_MODEL), so these are search results, not an answer:"
)


def ask(
    library: Library,
    question: str,
    doc_ids: Iterable[str] | None = None,
    settings: ModelSettings | None = None,
    *,
    retry: RetryPolicy | None = None,
    cancel: threading.Event | None = None,
    on_event: Callable[[Event], None] | None = None,
    max_turns: int = 12,
) -> dict[str, Any]:
    """Answer `question` from the documents in `doc_ids` (all when None); raises PageIndexError on failure."""
    if not question.strip():
        raise PageIndexError("The question is empty.")
    scope = frozenset(doc_ids) if doc_ids else None
    toolbox = ToolBox(library, scope)
    endpoint = chat_endpoint(settings or load_settings(library.home), library.home)
    if endpoint is None:
        return search_answer(toolbox, question)
    with LLMClient(endpoint, retry or RetryPolicy()) as client:
        agent = Agent(client, toolbox, endpoint.model, max_turns=max_turns)
        for event in agent.run(question, cancel=cancel):
            if on_event is not None:
                on_event(event)
            if isinstance(event, Finished):
                return {
                    "answer": event.answer,
                    "citations": [c.to_dict() for c in event.citations],
                    "tool_calls": event.tool_calls,
                    "usage": {"prompt_tokens": event.prompt_tokens, "completion_tokens": event.completion_tokens},
                }
            if isinstance(event, Failed):
                raise event.error if isinstance(event.error, ModelError) else PageIndexError(event.message)
    raise PageIndexError("The assistant ended without an answer.")


def search_answer(toolbox: ToolBox, question: str) -> dict[str, Any]:
    """The no-model answer: pages that contain the question's terms, as page links labelled search results."""
    arguments = {"query": question}
    envelope = json.loads(toolbox.call("search_document", json.dumps(arguments)))
    hits = envelope.get("result", {}).get("hits", []) if envelope.get("ok") else []
    if not hits:
        answer = NO_MODEL_NOTE + "\nNo page contains those words."
    else:
        lines = [f"- [{h['title']}, p. {h['page']}] {h['snippet']}" for h in hits]
        answer = NO_MODEL_NOTE + "\n" + "\n".join(lines)
    citations = [
        {"document": h["title"], "doc_id": h["doc_id"], "page": h["page"], "verified": False,
         "reason": "search result (no model configured)"}
        for h in hits
    ]
    return {"answer": answer, "citations": citations, "tool_calls": [{"name": "search_document", "arguments": arguments}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0}}
