"""Asking the index model for headings printed on pages: the page text it is sent, reading its reply, the cache.

Shared by section expansion (`core/assistant/expand.py`) and the model-written tree (`core/assistant/model_tree.py`). Whatever the
model answers here is only a proposal: callers pass it through `outline.candidates.check_headings`.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pageindex_desktop.core.document import Line, PageData
from pageindex_desktop.core.assistant.llm import LLMClient, TokenUsage
from pageindex_desktop.core.outline.tree import Heading

PROMPT_VERSION = "h1"
PAGE_CHARS = 2000  # at most this much of each page is sent (headings open their parts; page numbers are kept)
MIN_PAGE_CHARS = 300  # a long section's pages are cut shorter to fit one call, but never below this
REPLY_TOKENS = 1500  # room for the answer: a few dozen headings


class Unreadable(ValueError):
    """The model's reply held no headings list that could be read (junk, prose, broken JSON)."""


@dataclass
class Spend:
    """Calls made and tokens the endpoint reported, over one run."""

    calls: int = 0
    usage: TokenUsage = field(default_factory=TokenUsage)


def stored_page(number: int, label: str, text: str) -> PageData:
    """A stored page as the outline code reads it: its text lines stand in for the line boxes the store does not
    keep (top-down, 14 pt apart, on a Letter page), so `assemble` can still tell a heading that opens its page."""
    lines = [Line(line, 10.0, False, 72.0, 72.0 + 14 * i, 540.0, 82.0 + 14 * i)
             for i, line in enumerate(t for t in text.splitlines() if t.strip())]
    return PageData(number, label, text, 612, 792, lines)


def cache_key(model: str, *parts: str) -> str:
    """The llm_cache key for one request's content (model, prompt version and the text it is sent)."""
    return hashlib.sha256("\x1f".join((PROMPT_VERSION, model, *parts)).encode("utf-8")).hexdigest()


def pages_block(texts: Mapping[int, str], first: int, last: int, budget: int) -> str:
    """Pages first..last as "--- page N ---" blocks, each cut so the whole fits about `budget` characters."""
    count = max(1, last - first + 1)
    per_page = max(MIN_PAGE_CHARS, min(PAGE_CHARS, budget // count))
    parts = []
    for page in range(first, last + 1):
        text = texts.get(page, "").strip()
        parts.append(f"--- page {page} ---\n{text[:per_page]}")
    return "\n".join(parts)


def ask(client: LLMClient, prompt: str, spend: Spend, cancel: threading.Event | None = None) -> str:
    """One completion for `prompt`, counted in `spend`; ModelError (timeouts, refusals, cancel) propagates."""
    spend.calls += 1
    reply, usage = client.complete([{"role": "user", "content": prompt}], max_tokens=REPLY_TOKENS, cancel=cancel)
    spend.usage.add(usage)
    return reply


def _json_object(reply: str) -> Any:
    text = re.sub(r"```(?:json)?", "", reply)
    for opening, closing in (("{", "}"), ("[", "]")):
        start, end = text.find(opening), text.rfind(closing)
        if start != -1 and end > start:
            try:
                return json.loads(text[start : end + 1])
            except ValueError:
                continue
    raise Unreadable("the model's reply held no headings it could read")


def _headings(items: Any, level: int) -> list[Heading]:
    """Headings from a list of {"title", "page"[, "level"]} objects; entries of any other shape are skipped."""
    if not isinstance(items, list):
        raise Unreadable("the model's reply held no headings list")
    found: list[Heading] = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("title"), str):
            continue
        try:
            page = int(str(item.get("page")).strip())
            wanted = int(str(item.get("level", level)).strip())
        except ValueError:
            continue
        found.append(Heading(" ".join(item["title"].split()), max(1, min(wanted, 4)), page))
    return found


def section_proposals(reply: str, ids: list[str]) -> dict[str, list[Heading]]:
    """Per section id, the headings the model proposed; ids the reply does not mention are left out."""
    data = _json_object(reply)
    sections = data.get("sections") if isinstance(data, dict) else None
    if sections is None and len(ids) == 1:
        items = data.get("headings", data) if isinstance(data, dict) else data
        return {ids[0]: _headings(items, 1)}
    if not isinstance(sections, dict):
        raise Unreadable("the model's reply held no sections it could read")
    return {key: _headings(value, 1) for key, value in sections.items() if key in ids}


def tree_proposals(reply: str) -> list[Heading]:
    """The headings (with levels) the model listed for a group of pages."""
    data = _json_object(reply)
    return _headings(data.get("headings") if isinstance(data, dict) else data, 1)


def to_cache(headings: list[Heading]) -> str:
    """A proposal as stored in llm_cache."""
    return json.dumps([[h.title, h.page, h.level] for h in headings])


def from_cache(value: str) -> list[Heading]:
    """A cached proposal ([] for one that cannot be read)."""
    try:
        rows = json.loads(value)
        return [Heading(str(t), int(lv), int(p)) for t, p, lv in rows]
    except (ValueError, TypeError):
        return []
