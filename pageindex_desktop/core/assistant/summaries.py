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

from pageindex_desktop.core.assistant.llm import LLMClient
from pageindex_desktop.core.assistant.llm_errors import ModelError
from pageindex_desktop.core.outline.tree import Node, walk
from pageindex_desktop.core.assistant.index_model import with_index_model
from pageindex_desktop.core.assistant.settings import ModelSettings
from pageindex_desktop.core.assistant.prompts import DESCRIPTION_KEY, DESCRIPTION_TASK, SUMMARY_PROMPT
from pageindex_desktop.core.library.store import Library, writes
from pageindex_desktop.core.tokens import count_tokens

log = logging.getLogger(__name__)

PROMPT_VERSION = "s1"
BATCH_SIZE = 10
WORKERS = 4
NODE_CHARS = 1500
SHORT_LEAF_TOKENS = 200
OPENING_PAGES = 2
MAX_SUMMARY = 600
SLOW_BATCH_SHARE = 0.25  # a first batch slower than this share of the request timeout marks a slow (local) model
SLOW_FACTOR = 3.0  # then each later batch may take this many times as long as the first did


@dataclass
class SummaryReport:
    """What a summarize run did: model calls made, cache hits, batches that fell back to excerpts, and how many
    sections got a summary the model wrote (`written`) against an excerpt (`fell_back`, with the first `reason`)."""

    nodes: int
    calls: int
    cached: int
    own_text: int
    failed_batches: int
    description: str
    written: int = 0
    fell_back: int = 0
    reason: str = ""
    left: int = 0  # sections a stopped run did not reach: the next run writes them

    def sentence(self) -> str:
        """One line for the library row, the status bar and the CLI: what was written, what fell back and why."""
        wanted = self.written + self.fell_back + self.left
        text = f"Summaries: {self.written} of {wanted} written by the model"
        if self.left:
            text += f", {self.left} not yet (stopped; summarize again to finish)"
        if self.fell_back:
            reason = self.reason or "the model did not answer"
            text += f", {self.fell_back} fell back to page excerpts ({reason[:1].lower() + reason[1:]})"
        if self.own_text:
            text += (f"; {self.own_text} short section{' keeps its' if self.own_text == 1 else 's keep their'} "
                     "own text")
        return text + "."


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


@writes
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


NOT_ASKED: dict[str, Any] = {}  # a batch a stopped run never sent (compared by identity)


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
    sources: dict[str, str] = {}
    todo: list[tuple[Node, str, str]] = []  # node, prompt text, cache key
    own = 0
    for node in nodes:
        text = _node_text(node, pages)
        if not node.children and count_tokens(text) < SHORT_LEAF_TOKENS:
            summaries[node.node_id] = " ".join(text.split()) or node.title
            sources[node.node_id] = "text"
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
            sources[node.node_id] = "model"
    description = cached.get(desc_key, "")
    # What is known already (short sections' own text, the cache) is stored before any model call, and each batch
    # as it arrives: a run stopped anywhere (Ctrl+C, kill, a crash) keeps what it wrote, and the next run asks only
    # for what is still missing (the cache answers the rest).
    library.set_summaries(doc_id, dict(summaries), description or None, dict(sources))
    batches = [pending[i : i + batch_size] for i in range(0, len(pending), batch_size)]
    if not description and not batches:
        batches = [[]]  # only the description is missing
    failed = 0
    done = 0
    calls = [0]
    lock = threading.Lock()

    give_up = threading.Event()  # after a batch failed its retries, the rest fall back to excerpts at once
    reasons: list[str] = []

    active = [client]  # the client the remaining batches use (slower after a slow first batch)

    def run(index: int, batch: list[tuple[Node, str, str]]) -> dict[str, Any] | None:
        if cancel is not None and cancel.is_set():
            return NOT_ASKED  # stopped: these sections stay unwritten, for the next run to pick up
        if give_up.is_set():
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
            reply, _ = active[0].complete([{"role": "user", "content": prompt}], model=model, cancel=cancel)
        except ModelError as exc:
            log.warning("summary batch %d failed: %s", index, type(exc).__name__)
            with lock:
                reasons.append(str(exc).rstrip("."))
            give_up.set()  # the client already retried with backoff: the endpoint is in trouble, stop asking
            return None
        data = parse_json_reply(reply)
        if not isinstance(data.get("summaries"), dict) or not data["summaries"]:
            with lock:
                reasons.append("the model's reply held no summaries it could read")
        return data

    def store(index: int, batch: list[tuple[Node, str, str]], data: dict[str, Any] | None) -> None:
        """Keep one batch's outcome (on the caller's thread, which owns the connection): the cache and the nodes,
        in that order, so a kill in between costs nothing the next run does not get back from the cache."""
        nonlocal failed, done, description
        if data is NOT_ASKED:
            return
        if data is None:
            failed += 1
            data = {}
        raw = data.get("summaries")
        got: dict[str, Any] = raw if isinstance(raw, dict) else {}
        written: dict[str, str] = {}
        kinds: dict[str, str] = {}
        new: dict[str, str] = {}
        for node, text, key in batch:
            value = got.get(node.node_id)
            if isinstance(value, str) and value.strip():
                written[node.node_id], kinds[node.node_id] = value.strip()[:MAX_SUMMARY], "model"
                new[key] = written[node.node_id]
            else:
                written[node.node_id], kinds[node.node_id] = excerpt(text) or node.title, "excerpt"
        new_description = data.get("description")
        stated = None
        if index == 0 and isinstance(new_description, str) and new_description.strip():
            description = stated = " ".join(new_description.split())[:MAX_SUMMARY]
            new[desc_key] = description
        cache_put(library, new)
        library.set_summaries(doc_id, written, stated, kinds)
        summaries.update(written)
        sources.update(kinds)
        done += len(batch)
        if progress is not None:
            progress(done, len(pending))

    numbered = list(enumerate(batches))
    started = time.monotonic()
    if numbered:
        store(*numbered[0], run(*numbered[0]))
    took = time.monotonic() - started
    if took > SLOW_BATCH_SHARE * client.endpoint.timeout:
        # A slow first batch is a local model serving one request at a time: ask one batch at a time, and give
        # each the time the first one needed and more, so queued batches do not time out behind each other.
        log.info("first summary batch took %.0f s: one batch at a time, %.0f s each", took, SLOW_FACTOR * took)
        workers, active[0] = 1, client.with_timeout(max(client.endpoint.timeout, SLOW_FACTOR * took))
    try:
        with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="summaries") as pool:
            for (index, batch), data in pool.map(lambda ib: (ib, run(*ib)), numbered[1:]):
                store(index, batch, data)
    finally:
        if active[0] is not client:
            active[0].close()
    if cancel is not None and cancel.is_set() and not reasons:
        reasons.append("stopped")
    written = sum(1 for node, _, _ in todo if sources.get(node.node_id) == "model")
    fell_back = sum(1 for node, _, _ in todo if sources.get(node.node_id) == "excerpt")
    return SummaryReport(len(nodes), calls[0], len(todo) - len(pending), own, failed, description, written,
                         fell_back, reasons[0] if reasons else "", len(todo) - written - fell_back)


def summarize_with_settings(
    library: Library,
    doc_id: str,
    settings: ModelSettings | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SummaryReport | None:
    """The import step and the "Summarize" action: summaries with the index model, or None when none is set up.
    The document's lock is held throughout, so it cannot be removed or re-indexed under the summaries; when
    another process holds it, DocumentBusy says so."""
    return with_index_model(library, doc_id, settings, "summarize it",
                            lambda client: summarize_document(library, doc_id, client, cancel=cancel, progress=progress))
