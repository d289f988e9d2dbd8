"""A finer tree with the index model: long sections split at the headings printed inside them.

A follow-up job after import (like summaries; the model-free tree is usable at once) and the "Finer Tree" action /
CLI `expand`. Every leaf over EXPAND_MIN_PAGES pages (or EXPAND_MIN_TOKENS tokens) gets its pages sent (cut per
page, page numbers kept; several leaves per call while they fit BATCH_CHARS) with a request for the headings
printed in it. Each proposal passes `candidates.check_headings` and is kept only when the cost rule
(`outline.refine.worth_splitting`) says navigating the children is cheaper than reading the section through.
Proposals are cached by the section's content, so a re-index makes no call. A model that fails, times out or
answers junk leaves the tree as it was; the report's sentence says why in one line.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.assistant.llm import LLMClient
from pageindex_desktop.core.assistant.llm_errors import ModelError
from pageindex_desktop.core.assistant.model_headings import (
    Spend, Unreadable, ask, cache_key, from_cache, pages_block, section_proposals, stored_page, to_cache,
)
from pageindex_desktop.core.outline.assemble import number_nodes
from pageindex_desktop.core.outline.candidates import check_headings
from pageindex_desktop.core.outline.refine import child_nodes, worth_splitting
from pageindex_desktop.core.outline.tree import MODEL_SOURCE, Heading, Node, walk
from pageindex_desktop.core.assistant.prompts import EXPAND_PROMPT
from pageindex_desktop.core.assistant.index_model import with_index_model
from pageindex_desktop.core.assistant.settings import ModelSettings
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.library.llm_cache import cache_get, cache_put
from pageindex_desktop.core.tokens import count_tokens
from pageindex_desktop.core.library.tree_store import add_usage, replace_tree, usage

log = logging.getLogger(__name__)

TASK = "expand"  # the model_usage row this job's tokens are counted in
EXPAND_MIN_PAGES = 6  # PageIndex asks about leaves over 5 pages
EXPAND_MIN_TOKENS = 6000  # and a dense leaf of fewer pages (at least 2) is as long to read
BATCH_CHARS = 24000  # page text per call (about 6,000 tokens): small local models' contexts stay comfortable

Progress = Callable[[int, int], None]


@dataclass
class ExpandReport:
    """What one run did: long leaves found, split, kept whole by the cost rule, headings added and rejected,
    calls and cache hits, tokens this run and on the document so far, and why it stopped short (`reason`)."""

    long_leaves: int = 0
    expanded: int = 0
    added: int = 0
    rejected: int = 0
    kept_whole: int = 0
    calls: int = 0
    cached: int = 0
    tokens: int = 0
    total_tokens: int = 0
    left: int = 0  # long leaves no answer was had for (the model failed or the run was stopped)
    reason: str = ""
    model_tree: int = -1  # headings of a model-written tree (-1: the document had a structure of its own)

    def sentence(self) -> str:
        """One line for the status bar, the library and the CLI."""
        cost = f"{self.calls} call{'s' if self.calls != 1 else ''}, {self.tokens:,} tokens"
        if self.model_tree >= 0:
            if self.model_tree:
                text = (f"Finer tree: the model found {self.model_tree} checked headings for a document without "
                        f"structure ({self.rejected} rejected)")
            else:
                text = "Finer tree: left as it was (no heading the model proposed passed the checks)"
                if self.reason:
                    text = f"Finer tree: left as it was ({_lower(self.reason)})"
            return f"{text}; {cost}."
        if not self.long_leaves:
            return "Finer tree: no section is long enough to split."
        if self.left and not self.expanded:
            return f"Finer tree: left as it was ({_lower(self.reason or 'the model did not answer')}); {cost}."
        text = (f"Finer tree: {self.expanded} of {self.long_leaves} long section{'s' if self.long_leaves != 1 else ''}"
                f" split ({self.added} headings added, {self.rejected} rejected")
        if self.kept_whole:
            text += f", {self.kept_whole} kept whole as cheaper to read"
        text += ")"
        if self.left:
            text += f", {self.left} not reached ({_lower(self.reason or 'stopped')})"
        return f"{text}; {cost}."


def _lower(reason: str) -> str:
    reason = reason.rstrip(".")
    return reason[:1].lower() + reason[1:]


def long_leaves(roots: list[Node], tokens: dict[int, int]) -> list[Node]:
    """Leaves worth asking about: long in pages or in tokens, and not themselves proposed by the model."""
    found = []
    for node in walk(roots):
        pages = node.end_page - node.start_page + 1
        if node.children or node.source == MODEL_SOURCE or pages < 2:
            continue
        size = sum(tokens.get(p, 0) for p in range(node.start_page, node.end_page + 1))
        if pages >= EXPAND_MIN_PAGES or size >= EXPAND_MIN_TOKENS:
            found.append(node)
    return found


def _batches(leaves: list[Node], texts: dict[int, str]) -> list[list[tuple[Node, str]]]:
    """Leaves with their page blocks, grouped so each call's text stays within BATCH_CHARS."""
    batches: list[list[tuple[Node, str]]] = []
    size = 0
    for leaf in leaves:
        block = pages_block(texts, leaf.start_page, leaf.end_page, BATCH_CHARS)
        if not batches or size + len(block) > BATCH_CHARS:
            batches.append([])
            size = 0
        batches[-1].append((leaf, block))
        size += len(block)
    return batches


def _parents(roots: list[Node]) -> dict[int, list[Node]]:
    """For each node (by identity), the list it is a member of (its siblings and itself)."""
    owners: dict[int, list[Node]] = {id(n): roots for n in roots}
    for node in walk(roots):
        for child in node.children:
            owners[id(child)] = node.children
    return owners


def expand_document(
    library: Library,
    doc_id: str,
    client: LLMClient,
    *,
    cancel: threading.Event | None = None,
    progress: Progress | None = None,
) -> ExpandReport:
    """Split the document's long leaves where the model finds checked headings worth navigating (or, for a
    document with only page groups, write its tree); never raises for model trouble."""
    doc = library.get(doc_id)
    if doc is None:
        raise ValueError(f"no document {doc_id}")
    stored = library.pages(doc_id)
    texts = {p.page: p.text for p in stored}
    pages = {p.page: stored_page(p.page, p.label, p.text) for p in stored}
    tokens = {page: count_tokens(text) for page, text in texts.items()}
    spend = Spend()
    if doc.outline_source == "pages":  # no structure of its own: the model writes the tree (core/assistant/model_tree.py)
        from pageindex_desktop.core.assistant.model_tree import write_model_tree

        report = write_model_tree(library, doc, pages, client, spend, cancel=cancel, progress=progress)
    else:
        report = _expand_leaves(library, doc_id, doc.title, client, texts, pages, tokens, spend, cancel, progress)
    add_usage(library, doc_id, TASK, spend.calls, spend.usage.prompt_tokens, spend.usage.completion_tokens)
    report.calls = spend.calls
    report.tokens = spend.usage.prompt_tokens + spend.usage.completion_tokens
    report.total_tokens = sum(u.tokens for u in usage(library, doc_id) if u.task == TASK)
    log.info("%s: %s", doc_id, report.sentence())
    return report


def _expand_leaves(library: Library, doc_id: str, title: str, client: LLMClient, texts: dict[int, str],
                   pages: dict[int, PageData], tokens: dict[int, int], spend: Spend,
                   cancel: threading.Event | None, progress: Progress | None) -> ExpandReport:
    model = client.endpoint.model
    roots = library.tree(doc_id)
    leaves = long_leaves(roots, tokens)
    report = ExpandReport(long_leaves=len(leaves))
    keys = {id(leaf): cache_key(model, TASK, leaf.title, f"{leaf.start_page}-{leaf.end_page}",
                                "\n".join(texts.get(p, "") for p in range(leaf.start_page, leaf.end_page + 1)))
            for leaf in leaves}
    cached = cache_get(library, list(keys.values()))
    proposals: dict[int, list[Heading]] = {}
    for leaf in leaves:
        if keys[id(leaf)] in cached:
            proposals[id(leaf)] = from_cache(cached[keys[id(leaf)]])
    report.cached = len(proposals)
    pending = [leaf for leaf in leaves if id(leaf) not in proposals]
    done = len(proposals)
    if progress is not None and leaves:
        progress(done, len(leaves))
    for batch in _batches(pending, texts):
        if cancel is not None and cancel.is_set():
            report.reason = report.reason or "stopped"
            break
        by_id = {leaf.node_id: leaf for leaf, _ in batch}
        sections = "\n\n".join(f"### id {leaf.node_id}: {leaf.title} (pages {leaf.start_page}-{leaf.end_page})\n"
                               f"{block}" for leaf, block in batch)
        try:
            reply = ask(client, EXPAND_PROMPT.format(title=title, sections=sections), spend, cancel)
            found = section_proposals(reply, list(by_id))
        except ModelError as exc:
            log.warning("expansion call failed: %s", type(exc).__name__)
            report.reason = "stopped" if cancel is not None and cancel.is_set() else str(exc)
            break  # the client already retried with backoff: the endpoint is in trouble, stop asking
        except Unreadable as exc:
            log.warning("expansion reply unreadable for %d sections", len(batch))
            report.reason = str(exc)
            continue
        fresh = {}
        for node_id, headings in found.items():
            proposals[id(by_id[node_id])] = headings
            fresh[keys[id(by_id[node_id])]] = to_cache(headings)
        cache_put(library, fresh)
        done += len(batch)
        if progress is not None:
            progress(done, len(leaves))
    owners = _parents(roots)
    for leaf in leaves:
        proposed = proposals.get(id(leaf))
        if proposed is None:
            report.left += 1
            continue
        siblings = [n.title for n in owners.get(id(leaf), []) if n is not leaf]
        checked = check_headings(proposed, pages, (leaf.start_page, leaf.end_page), [leaf.title, *siblings],
                                 what=f"expand {leaf.node_id}")
        report.rejected += len(checked.rejected)
        children = child_nodes(leaf, checked.accepted, texts)
        if not checked.accepted:
            continue
        if worth_splitting(leaf, children, tokens):
            leaf.children = children
            report.expanded += 1
            report.added += len(children)
        else:
            report.kept_whole += 1
            log.info("expand %s: %d children no cheaper than reading %d pages", leaf.node_id, len(children),
                     leaf.end_page - leaf.start_page + 1)
    if report.expanded:
        number_nodes(roots)
        replace_tree(library, doc_id, roots)
    return report


def expand_with_settings(
    library: Library,
    doc_id: str,
    settings: ModelSettings | None = None,
    cancel: threading.Event | None = None,
    progress: Progress | None = None,
) -> ExpandReport | None:
    """The import follow-up, the "Finer Tree" action and CLI `expand`: None when no index model is set up.
    Holds the document's lock, so it cannot be removed, re-indexed or summarized meanwhile (DocumentBusy)."""
    return with_index_model(library, doc_id, settings, "make its tree finer",
                            lambda client: expand_document(library, doc_id, client, cancel=cancel, progress=progress))
