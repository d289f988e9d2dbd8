"""The answer without a model: the pages that contain the question's words, as page links labelled search results."""

from __future__ import annotations

from typing import Any

from pageindex_desktop.core.assistant.citations.parse import Citation
from pageindex_desktop.core.assistant.events import Finished
from pageindex_desktop.core.assistant.tools import ToolBox, ToolError

SEARCH_REASON = "search result (no model configured)"
NO_MODEL_NOTE = (
    "No model is configured (set OPENAI_API_KEY, or point OPENAI_BASE_URL at Ollama or LM Studio and set "
    "PAGEINDEX_CHAT_MODEL), so these are search results, not an answer:"
)


def search_finished(toolbox: ToolBox, question: str) -> Finished:
    """The no-model answer: pages that contain the question's terms, as page links labelled search results."""
    arguments = {"query": question}
    try:
        hits = toolbox.search_hits(question) if question.strip() else []
    except ToolError:
        hits = []
    if not hits:
        answer = NO_MODEL_NOTE + "\nNo page contains those words."
    else:
        lines = [f"- [{h['title']}, p. {h['page']}] {h['snippet']}" for h in hits]
        answer = NO_MODEL_NOTE + "\n" + "\n".join(lines)
    return Finished(answer, [_search_citation(h) for h in hits], [{"name": "search_document", "arguments": arguments}])


def _search_citation(hit: dict[str, Any]) -> Citation:
    """A search hit as a citation record: a page to open, not a claim anyone checked."""
    return Citation(hit["title"], str(hit["page"]), 0, 0, page=int(hit["page"]), document=hit["title"],
                    doc_id=hit["doc_id"], reason=SEARCH_REASON)
