"""Splitting one section into checked sub-sections, and the cost rule that decides whether the split is kept.

No model here: `core/assistant/expand.py` asks for the headings and passes them through `candidates.check_headings`
first. Costs are in page-equivalents, as PageIndex measures them: reading a page costs its tokens over
PAGE_TOKENS (at least 1), visiting a node of the tree costs NODE_COST plus ENTRY_COST for each child entry it
lists. A split is kept only when reaching a page
of the section by its children costs less, on average, than reading the section from its start to that page.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from pageindex_desktop.core.outline.tree import MODEL_SOURCE, Heading, Node
from pageindex_desktop.core.outline.verify import normalize

log = logging.getLogger(__name__)

PAGE_TOKENS = 800  # a page's worth of tokens: a page denser than this costs more than one page to read
NODE_COST = 1.0  # visiting a node of the tree to decide where to go, as PageIndex counts it
ENTRY_COST = 0.1  # each child listed there (a line of title and pages, about a tenth of a page)
OPENING_CHARS = 200  # a heading in the first characters of a page's text opens that page


def opens_page_text(title: str, text: str) -> bool:
    """True when `title` stands at the start of the page's text (stored pages keep no line boxes)."""
    wanted = normalize(title)
    return bool(wanted) and wanted in normalize(text[:OPENING_CHARS + len(title)], strip_numbering=False)


def child_nodes(parent: Node, headings: list[Heading], texts: Mapping[int, str]) -> list[Node]:
    """Children of `parent` from checked headings (ascending, inside its span): each ends on the page before
    the next when that one opens its page, else shares it; the last ends with the parent. Children covering the
    same pages as the one before them are merged into it (its title, printed where it starts, is kept)."""
    children: list[Node] = []
    for index, heading in enumerate(headings):
        end = parent.end_page
        if index + 1 < len(headings):
            following = headings[index + 1]
            opens = opens_page_text(following.title, texts.get(following.page, ""))
            end = following.page - 1 if opens else following.page
        end = max(heading.page, min(end, parent.end_page))
        node = Node("", heading.title, parent.level + 1, heading.page, end, verified=True, source=MODEL_SOURCE)
        if children and (children[-1].start_page, children[-1].end_page) == (node.start_page, node.end_page):
            log.info("merged %r into %r: same pages %d-%d", node.title[:60], children[-1].title[:60],
                     node.start_page, node.end_page)
            continue
        children.append(node)
    return children


def _weights(span: tuple[int, int], tokens: Mapping[int, int]) -> dict[int, float]:
    return {p: max(1.0, tokens.get(p, 0) / PAGE_TOKENS) for p in range(span[0], span[1] + 1)}


def _reach(pages: list[int], weights: Mapping[int, float]) -> float:
    """Total, over the pages of one stretch read from its start, of what reaching each page costs."""
    total, read = 0.0, 0.0
    for page in pages:
        read += weights[page]
        total += read
    return total


def read_cost(span: tuple[int, int], tokens: Mapping[int, int]) -> float:
    """Average cost of reaching a page of the span by reading it from its first page."""
    weights = _weights(span, tokens)
    pages = list(weights)
    return _reach(pages, weights) / len(pages)


def navigate_cost(span: tuple[int, int], children: list[Node], tokens: Mapping[int, int]) -> float:
    """Average cost of reaching a page of the span through its children: visit the node, then read the stretch
    (the child whose span holds the page and starts last, or the parent's own pages before its first child)
    from its start to the page."""
    weights = _weights(span, tokens)
    owner: dict[int, int] = {}
    for page in weights:
        owner[page] = -1
        for index, child in enumerate(children):
            if child.start_page <= page <= child.end_page:
                owner[page] = index
    stretches: dict[int, list[int]] = {}
    for page, index in owner.items():
        stretches.setdefault(index, []).append(page)
    listing = NODE_COST + ENTRY_COST * len(children)
    return listing + sum(_reach(pages, weights) for pages in stretches.values()) / len(weights)


def worth_splitting(parent: Node, children: list[Node], tokens: Mapping[int, int]) -> bool:
    """The cost rule: keep children only when navigating them is cheaper than reading the section through."""
    if len(children) < 2:
        return False
    span = (parent.start_page, parent.end_page)
    return navigate_cost(span, children, tokens) < read_cost(span, tokens)
