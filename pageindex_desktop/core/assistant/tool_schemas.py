"""OpenAI `tools=` schemas for the agent's read-only tools (kept short: they are re-sent on every turn)."""

from __future__ import annotations

from typing import Any


def _tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }


_DOC = {"type": "string", "description": "doc id or title"}

TOOL_SCHEMAS: list[dict[str, Any]] = [
    _tool(
        "browse_documents",
        "List the documents: ids, titles, page counts.",
        {"offset": {"type": "integer"}, "limit": {"type": "integer"}},
        [],
    ),
    _tool("get_document", "A document's metadata.", {"doc": _DOC}, ["doc"]),
    _tool(
        "get_document_structure",
        "Outline: lines '[node_id] title pSTART-END'. node_id expands a section; part pages a long outline.",
        {"doc": _DOC, "node_id": {"type": "string"}, "part": {"type": "integer"}},
        ["doc"],
    ),
    _tool(
        "get_page_content",
        "Page text, pages like '5-7,12'.",
        {"doc": _DOC, "pages": {"type": "string"}},
        ["doc", "pages"],
    ),
    _tool(
        "search_document",
        "Exact-term search (names, figures, terms): pages and snippets.",
        {"doc": _DOC, "query": {"type": "string"}},
        ["query"],
    ),
]
