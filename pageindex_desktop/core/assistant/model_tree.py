"""A tree the index model writes for a document with no structure of its own (only page groups at import).

The source `model` comes after bookmarks, a contents page and layout headings failed and before page groups, but
it needs the model, so it runs in the follow-up job (`core/assistant/expand.py`) rather than in the import child. The pages go
in groups that fit GROUP_CHARS; the model lists the headings it sees printed, each passes
`candidates.check_headings` (those that fail are dropped, never kept unverified), and what is left goes through
`build.accept`, the assemble-and-accept step of every other source. Any failed call leaves the page groups (the
groups already answered are cached, so the next run asks only for the rest); so do too few checked headings.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from pageindex_desktop.core.document import ExtractedDocument, PageData
from pageindex_desktop.core.assistant.llm import LLMClient
from pageindex_desktop.core.assistant.llm_errors import ModelError
from pageindex_desktop.core.assistant.model_headings import (
    Spend, Unreadable, ask, cache_key, from_cache, pages_block, to_cache, tree_proposals,
)
from pageindex_desktop.core.outline.build import LAYOUT_MIN_VERIFIED, MIN_TEXT_PAGE_SHARE, _min_headings, accept
from pageindex_desktop.core.outline.candidates import check_headings
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE, MODEL_SOURCE, Heading, walk
from pageindex_desktop.core.assistant.prompts import MODEL_TREE_PROMPT
from pageindex_desktop.core.library.store import DocumentRecord, Library
from pageindex_desktop.core.library.llm_cache import cache_get, cache_put
from pageindex_desktop.core.library.tree_store import replace_tree

if TYPE_CHECKING:
    from pageindex_desktop.core.assistant.expand import ExpandReport

log = logging.getLogger(__name__)

TASK = "tree"  # the cache namespace (its tokens count under core/expand.TASK)
GROUP_CHARS = 24000


def page_groups(pages: dict[int, PageData], budget: int = GROUP_CHARS) -> list[tuple[int, int]]:
    """Consecutive page ranges whose text, cut as `pages_block` cuts it, fits `budget` characters each."""
    texts = {n: p.text for n, p in pages.items()}
    groups: list[tuple[int, int]] = []
    first, size = 1, 0
    for number in sorted(pages):
        length = len(pages_block(texts, number, number, budget)) + 1
        if size and size + length > budget:
            groups.append((first, number - 1))
            first, size = number, 0
        size += length
    if pages:
        groups.append((first, max(pages)))
    return groups


def write_model_tree(
    library: Library,
    doc: DocumentRecord,
    pages: dict[int, PageData],
    client: LLMClient,
    spend: Spend,
    *,
    cancel: threading.Event | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> "ExpandReport":
    """Replace a page-groups tree with the model's checked headings when enough pass; never raises for model
    trouble (the page groups stay and the report says why)."""
    from pageindex_desktop.core.assistant.expand import ExpandReport

    report = ExpandReport(model_tree=0)
    if sum(1 for p in pages.values() if p.has_text) < max(1, MIN_TEXT_PAGE_SHARE * len(pages)):
        report.reason = "no text layer on most pages"
        return report
    texts = {n: p.text for n, p in pages.items()}
    groups = page_groups(pages)
    blocks = {g: pages_block(texts, g[0], g[1], GROUP_CHARS) for g in groups}
    keys = {g: cache_key(client.endpoint.model, TASK, doc.title, f"{g[0]}-{g[1]}", blocks[g]) for g in groups}
    cached = cache_get(library, list(keys.values()))
    proposals = {g: from_cache(cached[keys[g]]) for g in groups if keys[g] in cached}
    for index, group in enumerate(groups):
        if progress is not None:
            progress(index, len(groups))
        if group in proposals:
            continue
        if cancel is not None and cancel.is_set():
            report.reason = "stopped"
            break
        prompt = MODEL_TREE_PROMPT.format(first=group[0], last=group[1], title=doc.title, pages=blocks[group])
        try:
            proposals[group] = tree_proposals(ask(client, prompt, spend, cancel))
        except (ModelError, Unreadable) as exc:
            log.warning("model tree call for pages %d-%d failed: %s", group[0], group[1], type(exc).__name__)
            report.reason = "stopped" if cancel is not None and cancel.is_set() else str(exc)
            break
        cache_put(library, {keys[group]: to_cache(proposals[group])})
    if progress is not None:
        progress(len(proposals), len(groups))
    report.left = len(groups) - len(proposals)
    if report.left:
        return report
    headings: list[Heading] = []
    for group in groups:
        checked = check_headings(proposals[group], pages, group, [h.title for h in headings],
                                 after=headings[-1].page if headings else None, what="model tree")
        report.rejected += len(checked.rejected)
        headings += checked.accepted
    extracted = ExtractedDocument(len(pages), "", [], [pages[n] for n in sorted(pages)])
    outline = accept(MODEL_SOURCE, headings, extracted, _min_headings(extracted), LAYOUT_MIN_VERIFIED)
    if outline is None:
        return report
    for node in walk(outline.nodes):
        node.source = "" if node.title == FRONT_MATTER_TITLE else MODEL_SOURCE
    replace_tree(library, doc.doc_id, outline.nodes, outline_source=MODEL_SOURCE)
    report.model_tree = len(headings)
    return report
