"""The answer without a model: the pages that contain the question's words, as page links labelled search results.

Each hit names its section as a model's citation does (the heading above the snippet), so a Markdown file's
results read "Notes › Installation, p. 3" in the pane too.
"""

from __future__ import annotations

import re
from typing import Any

from pageindex_desktop.core.assistant.citations.parse import Citation
from pageindex_desktop.core.assistant.citations.section import Section, passage_offset, section_at
from pageindex_desktop.core.formats import format_of
from pageindex_desktop.core.library.store import Library
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
    cites = [_search_citation(toolbox.library, h) for h in hits]
    return Finished(answer, cites, [{"name": "search_document", "arguments": arguments}])


def _search_citation(library: Library, hit: dict[str, Any]) -> Citation:
    """A search hit as a citation record: a page to open, not a claim anyone checked."""
    doc = library.get(hit["doc_id"])
    page = int(hit["page"])
    return Citation(hit["title"], str(page), 0, 0, page=page, document=hit["title"], doc_id=hit["doc_id"],
                    reason=SEARCH_REASON, format=format_of(doc.file_name).suffix if doc else "",
                    section=_hit_section(library, hit["doc_id"], page, str(hit.get("snippet") or ""))
                    if doc and doc.outline_source != "pages" else None)


def _hit_section(library: Library, doc_id: str, page: int, snippet: str) -> Section | None:
    """The section the snippet's longest piece falls in (the top of the page when it is not found)."""
    tree = library.tree(doc_id)
    if not tree:
        return None
    stored = library.pages(doc_id, [page])
    text = stored[0].text if stored else ""
    pieces = [p.strip() for p in re.sub(r"\[\[(.+?)\]\]", r"\1", snippet).split("…")]
    return section_at(tree, page, text, passage_offset(max(pieces, key=len, default=""), text))
