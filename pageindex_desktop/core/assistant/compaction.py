"""Earlier turns' bulky tool results, shortened in what later turns re-send.

Every model turn re-sends the whole conversation. An outline the model has already acted on (it went on to read
pages of that document or search it) or one a later outline of the same document superseded, and search results whose pages it
then read, are replaced by a one-line stub that says how to see them again. Page text is never shortened: the
answer is written from it. What the model was shown stays recorded in the ToolBox, so the citation check is not
affected.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

STUB = "shown earlier and used; call {tool} again to see it"
# After an outline, reading pages, opening another part of it or searching the same document all mean the model
# acted on what it saw: the outline is not re-sent whole.
ACTED_ON_OUTLINE = ("get_page_content", "get_document_structure", "search_document")


@dataclass
class ToolRecord:
    """One tool result in the conversation: where it sits in the messages, what was called, and its document."""

    index: int  # position in Agent.messages
    name: str
    doc: str  # the doc id the envelope names ('' when none)
    pages: frozenset[int]  # for searches: the pages it found; for page reads: the pages returned


def record(index: int, name: str, content: str) -> ToolRecord:
    """What compaction needs to know of a tool result (read from its JSON envelope)."""
    try:
        envelope = json.loads(content)
    except ValueError:
        return ToolRecord(index, name, "", frozenset())
    result: Any = envelope.get("result") if isinstance(envelope, dict) else None
    if not isinstance(result, dict):
        return ToolRecord(index, name, "", frozenset())
    doc = str(result.get("doc_id") or "")
    pages: set[int] = set()
    for hit in result.get("hits") or []:
        if isinstance(hit, dict) and isinstance(hit.get("page"), int):
            pages.add(hit["page"])
            doc = doc or str(hit.get("doc_id") or "")
    for page in result.get("pages") or []:
        if isinstance(page, dict) and isinstance(page.get("page"), int):
            pages.add(page["page"])
    return ToolRecord(index, name, doc, frozenset(pages))


def compact(messages: list[dict[str, Any]], records: list[ToolRecord]) -> int:
    """Shorten, in place, the results a later call made redundant; returns how many were shortened."""
    done = 0
    for position, old in enumerate(records):
        later = records[position + 1 :]
        if old.name == "get_document_structure":
            used = any(r.doc == old.doc and r.name in ACTED_ON_OUTLINE for r in later)
        elif old.name == "search_document":
            used = any(r.name == "get_page_content" and r.doc == old.doc and r.pages & old.pages for r in later)
        else:
            used = False
        message = messages[old.index]
        if used and old.doc and not str(message.get("content", "")).startswith('{"ok": true, "compacted"'):
            message["content"] = json.dumps({"ok": True, "compacted": STUB.format(tool=old.name)})
            done += 1
    return done
