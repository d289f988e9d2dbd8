"""Node summaries and a one-sentence document description, written with a model after (or during) import.

Many nodes go in one call (JSON out, parsed leniently), results are cached by content hash in `llm_cache` so
re-importing costs no call, calls run with limited concurrency and the retries of llm.py. A failed batch falls
back to excerpts and never fails the import; short leaves keep their own text and cost nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

from pageindex_desktop.core.llm import LLMClient
from pageindex_desktop.core.llm_errors import ModelError
from pageindex_desktop.core.outline.tree import Node, walk
from pageindex_desktop.core.settings import ModelSettings, index_endpoint, load_settings
from pageindex_desktop.core.prompts import DESCRIPTION_KEY, DESCRIPTION_TASK, SUMMARY_PROMPT
from pageindex_desktop.core.store import Library
from pageindex_desktop.core.tokens import count_tokens

log = logging.getLogger(__name__)

PROMPT_VERSION = "s1"
BATCH_SIZE = 10
WORKERS = 4
NODE_CHARS = 1500
SHORT_LEAF_TOKENS = 200
OPENING_PAGES = 2
MAX_SUMMARY = 600


@dataclass
class SummaryReport:
    """What a summarize run did: model calls made, cache hits, batches that fell back to excerpts."""

    nodes: int
    calls: int
    cached: int
    own_text: int
    failed_batches: int
    description: str


def _key(model: str, *parts: str) -> str:
    digest = hashlib.sha256("\x1f".join((PROMPT_VERSION, model, *parts)).encode("utf-8"))
    return digest.hexdigest()


def cache_get(library: Library, keys: list[str]) -> dict[str, str]:
    """Cached values for the keys that have one."""
    found: dict[str, str] = {}
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in library.conn.execute(f"SELECT key, value FROM llm_cache WHERE key IN ({marks})", chunk):
            found[row["key"]] = row["value"]
    return found


def cache_put(library: Library, values: dict[str, str]) -> None:
    """Store model outputs by content key (one transaction)."""
    if values:
        with library.transaction() as conn:
            conn.executemany("INSERT OR REPLACE INTO llm_cache (key, value, created_at) VALUES (?, ?, ?)",
                             [(k, v, time.time()) for k, v in values.items()])


def excerpt(text: str, limit: int = 240) -> str:
    """The opening of a section's text, cut at a word boundary: the fallback when no summary could be made."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    return flat[:limit].rsplit(" ", 1)[0] + "…"


def _node_text(node: Node, pages: dict[int, str]) -> str:
    """A leaf's whole text; a parent's opening pages (before its first child, at most OPENING_PAGES)."""
    last = node.end_page
    if node.children:
        last = min(node.end_page, max(node.start_page, node.children[0].start_page), node.start_page + OPENING_PAGES - 1)
    return "\n".join(pages.get(p, "") for p in range(node.start_page, last + 1))


def parse_json_reply(reply: str) -> dict[str, Any]:
    """The JSON object in a model reply, tolerating code fences, prose around it and broken JSON."""
    text = re.sub(r"```(?:json)?", "", reply)
    start, end = text.find("{"), text.rfind("}")
    if start != -1 and end > start:
        try:
            data = json.loads(text[start : end + 1])
            if isinstance(data, dict):
                return data
        except ValueError:
            pass
    pairs = dict(re.findall(r'"([\w.\-]+)"\s*:\s*"((?:[^"\\]|\\.)*)"', text))
    description = pairs.pop("description", None)
    out: dict[str, Any] = {"summaries": pairs}
    if description:
        out["description"] = description
    return out


def summarize_document(
    library: Library,
    doc_id: str,
    client: LLMClient,
    model: str | None = None,
    *,
    batch_size: int = BATCH_SIZE,
    workers: int = WORKERS,
    cancel: threading.Event | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SummaryReport:
    """Write summaries for every node and the document description; never raises for model trouble."""
    model = model or client.endpoint.model
    doc = library.get(doc_id)
    if doc is None:
        raise ValueError(f"no document {doc_id}")
    nodes = list(walk(library.tree(doc_id)))
    pages = {p.page: p.text for p in library.pages(doc_id)}
    summaries: dict[str, str] = {}
    todo: list[tuple[Node, str, str]] = []  # node, prompt text, cache key
    own = 0
    for node in nodes:
        text = _node_text(node, pages)
        if not node.children and count_tokens(text) < SHORT_LEAF_TOKENS:
            summaries[node.node_id] = " ".join(text.split()) or node.title
            own += 1
            continue
        snippet = text[:NODE_CHARS]
        todo.append((node, snippet, _key(model, node.title, snippet)))
    outline = "\n".join(n.title for n in nodes[:40])
    desc_key = _key(model, "description", doc.title, outline, pages.get(1, "")[:1000])
    cached = cache_get(library, [k for _, _, k in todo] + [desc_key])
    pending = [item for item in todo if item[2] not in cached]
    for node, _, key in todo:
        if key in cached:
            summaries[node.node_id] = cached[key]
    description = cached.get(desc_key, "")
    batches = [pending[i : i + batch_size] for i in range(0, len(pending), batch_size)]
    if not description and not batches:
        batches = [[]]  # only the description is missing
    fresh: dict[str, str] = {}
    failed = 0
    done = 0
    calls = [0]
    lock = threading.Lock()

    give_up = threading.Event()  # after a batch failed its retries, the rest fall back to excerpts at once

    def run(index: int, batch: list[tuple[Node, str, str]]) -> dict[str, Any] | None:
        if (cancel is not None and cancel.is_set()) or give_up.is_set():
            return None
        want_description = index == 0 and not description
        sections = "\n\n".join(f"### id {n.node_id}: {n.title} (pages {n.start_page}-{n.end_page})\n{t}"
                               for n, t, _ in batch)
        if want_description:
            sections += f"\n\n### Outline of the whole document\n{outline}\n\n### First page\n{pages.get(1, '')[:1000]}"
        prompt = SUMMARY_PROMPT.format(title=doc.title, sections=sections,
                                       description_task=DESCRIPTION_TASK if want_description else "",
                                       description_key=DESCRIPTION_KEY if want_description else "")
        with lock:
            calls[0] += 1
        try:
            reply, _ = client.complete([{"role": "user", "content": prompt}], model=model, cancel=cancel)
        except ModelError as exc:
            log.warning("summary batch %d failed: %s", index, type(exc).__name__)
            give_up.set()  # the client already retried with backoff: the endpoint is in trouble, stop asking
            return None
        return parse_json_reply(reply)

    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="summaries") as pool:
        results = list(pool.map(lambda ib: (ib, run(*ib)), list(enumerate(batches))))
    for (index, batch), data in results:
        if data is None:
            failed += 1
            data = {}
        raw = data.get("summaries")
        got: dict[str, Any] = raw if isinstance(raw, dict) else {}
        for node, text, key in batch:
            value = got.get(node.node_id)
            if isinstance(value, str) and value.strip():
                summaries[node.node_id] = value.strip()[:MAX_SUMMARY]
                fresh[key] = summaries[node.node_id]
            else:
                summaries[node.node_id] = excerpt(text) or node.title
        new_description = data.get("description")
        if index == 0 and isinstance(new_description, str) and new_description.strip():
            description = " ".join(new_description.split())[:MAX_SUMMARY]
            fresh[desc_key] = description
        done += len(batch)
        if progress is not None:
            progress(done, len(pending))
    cache_put(library, fresh)
    library.set_summaries(doc_id, summaries, description or None)
    return SummaryReport(len(nodes), calls[0], len(todo) - len(pending), own, failed, description)


def summarize_with_settings(
    library: Library,
    doc_id: str,
    settings: ModelSettings | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SummaryReport | None:
    """The import step and the "Summarize" action: summaries with the index model, or None when none is set up."""
    endpoint = index_endpoint(settings or load_settings(library.home), library.home)
    if endpoint is None:
        return None
    with LLMClient(endpoint) as client:
        return summarize_document(library, doc_id, client, cancel=cancel, progress=progress)
