"""Pick the best tree source for a document: validated bookmarks, a printed contents page, layout headings, pages.

Each source is tried in that order and accepted only when it is good enough; the first accepted one wins and
is recorded in `Outline.source`. A fifth source, `model`, sits between layout and page groups but needs the index
model, so it runs after import (`core/assistant/model_tree.py`, through `accept` like the others). Whatever wins goes through the same assembly (spans, coverage, verification).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.assemble import assemble, number_nodes, verify_nodes
from pageindex_desktop.core.outline.bookmarks import bookmark_headings
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.pages import page_groups
from pageindex_desktop.core.outline.toc_page import enrich_toc, find_toc_entries
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE, Heading, Node, Outline, walk
from pageindex_desktop.core.outline.verify import is_printed

log = logging.getLogger(__name__)

TOC_MIN_HEADINGS = 3
TOC_MIN_VERIFIED = 0.6  # share of contents entries found printed on the page they were mapped to
LAYOUT_MIN_VERIFIED = 0.6
# A document whose text covers fewer pages than this share is treated as image-only: page groups.
MIN_TEXT_PAGE_SHARE = 0.2

HeadingFinder = Callable[[ExtractedDocument], "list[Heading] | None"]


def _sections(nodes: list[Node]) -> list[Node]:
    """Nodes that stand for a found heading (the front-matter node is a coverage device, not one)."""
    return [node for node in walk(nodes) if node.title != FRONT_MATTER_TITLE]


def _verified_share(nodes: list[Node]) -> float:
    """Share of real sections whose title is printed on their start page (or that the document links there)."""
    sections = _sections(nodes)
    return sum(node.verified for node in sections) / len(sections) if sections else 0.0


def _printed_share(headings: list[Heading], doc: ExtractedDocument) -> float:
    """Share of headings whose title is printed on the page they were mapped to.

    The contents entries are judged on their own, before layout headings are added under them: those are
    printed where they start by construction and would vouch for a contents list mapped to the wrong pages.
    """
    if not headings:
        return 0.0
    printed = sum(1 for h in headings if 1 <= h.page <= len(doc.pages) and is_printed(h.title, doc.pages[h.page - 1]))
    return printed / len(headings)


def _min_headings(doc: ExtractedDocument) -> int:
    """How many headings a contents page or layout must give before its tree beats page groups."""
    return 1 if doc.page_count <= 4 else 2


def _text_pages(doc: ExtractedDocument) -> int:
    """Pages that carry a text layer."""
    return sum(1 for page in doc.pages if page.has_text)


def accept(
    source: str, headings: list[Heading] | None, doc: ExtractedDocument, least: int, share: float
) -> Outline | None:
    """Assemble `headings`; keep the tree when there are `least` of them and `share` are printed where they start."""
    if not headings or len(headings) < least:
        log.info("%s: %d headings, not enough", source, len(headings or []))
        return None
    nodes = assemble(headings, doc)
    linked = {(h.title, h.page) for h in headings if h.linked}
    for node in _sections(nodes):
        # a deck's contents slide links this title to this slide: its start is vouched for, as a printed title's
        # is (the reader shows no "may start nearby" for it), though the slide need not print the title
        node.verified = node.verified or (node.title, node.start_page) in linked
    verified = _verified_share(nodes)
    if verified < share:
        log.info("%s: only %.0f%% of %d headings verified; falling through", source, 100 * verified, len(headings))
        return None
    return Outline(source=source, nodes=nodes)


def fallback_outline(doc: ExtractedDocument) -> Outline:
    """Page groups covering the document, each checked like any node (their titles are rarely printed)."""
    nodes = page_groups(doc.page_count)
    number_nodes(nodes)
    verify_nodes(nodes, doc)
    return Outline(source="pages", nodes=nodes)


def build_outline(doc: ExtractedDocument, use_bookmarks: bool = True) -> Outline:
    """The document's section tree from the best source that is good enough (bookmarks first unless disabled)."""
    if doc.page_count < 1:
        return Outline(source="pages", nodes=[])
    if use_bookmarks:
        headings = bookmark_headings(doc)
        if headings:
            # the authors' own tree: kept whole, unverified entries included, once the outline is not junk
            return Outline(source="bookmarks", nodes=assemble(headings, doc))
    if _text_pages(doc) < max(1, MIN_TEXT_PAGE_SHARE * doc.page_count):
        log.info("no text layer on most pages: page groups")
        return fallback_outline(doc)
    outline = None
    entries = _safe(find_toc_entries, doc)
    if entries is not None and _printed_share(entries, doc) >= TOC_MIN_VERIFIED:
        outline = accept("toc_page", _safe(lambda d: enrich_toc(entries, d), doc), doc, TOC_MIN_HEADINGS,
                         TOC_MIN_VERIFIED)
    elif entries is not None:
        log.info("toc_page: only %.0f%% of %d contents entries printed where mapped; falling through",
                 100 * _printed_share(entries, doc), len(entries))
    if outline is None:
        outline = accept("layout", _safe(find_layout_headings, doc), doc, _min_headings(doc), LAYOUT_MIN_VERIFIED)
    return outline if outline is not None else fallback_outline(doc)


def _safe(finder: HeadingFinder, doc: ExtractedDocument) -> list[Heading] | None:
    """Run a heading finder; a bug in one source falls through to the next instead of failing the import."""
    try:
        return finder(doc)
    except Exception:
        log.exception("heading finder %s failed", getattr(finder, "__name__", finder))
        return None
