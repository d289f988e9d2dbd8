"""Turn a flat list of headings into the nested section tree: ids, normalised levels, page spans, verification.

Every source (bookmarks, printed contents page, layout) ends here, so the tree invariants hold for all of them:
ids are unique and in reading order, every page belongs to a top-level node, a parent's span covers its
children's, and `verified` says whether the node's title is printed on its start page.
"""

from __future__ import annotations

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE, Heading, Node, walk
from pageindex_desktop.core.outline.verify import is_printed, locate, opens_page


def node_id(index: int, width: int = 4) -> str:
    """The zero-padded id of the index-th node in reading order (1-based)."""
    return str(index).zfill(width)


def _nest(headings: list[Heading], last_page: int) -> list[tuple[Heading, Node]]:
    """Pre-order (heading, node) pairs with levels normalised so that a child's level is its parent's plus one."""
    stack: list[tuple[int, Node]] = []  # (source level, node)
    roots: list[Node] = []
    pairs: list[tuple[Heading, Node]] = []
    for heading in headings:
        page = min(max(heading.page, 1), last_page)
        while stack and stack[-1][0] >= heading.level:
            stack.pop()
        node = Node(node_id="", title=heading.title, level=len(stack) + 1, start_page=page, end_page=page)
        (stack[-1][1].children if stack else roots).append(node)
        stack.append((heading.level, node))
        pairs.append((heading, node))
    return pairs


def _heading_y(heading: Heading, doc: ExtractedDocument) -> float | None:
    """Where the heading sits on its page: given by the source, else looked up among the page's lines."""
    if heading.y is not None:
        return heading.y
    if 1 <= heading.page <= len(doc.pages):
        return locate(heading.title, doc.pages[heading.page - 1])
    return None


def _set_spans(pairs: list[tuple[Heading, Node]], doc: ExtractedDocument) -> None:
    """End each section on the page before the next same-or-higher heading when that heading opens its page."""
    last_page = doc.page_count
    opens: list[bool] = []
    for heading, node in pairs:
        page = doc.pages[node.start_page - 1] if node.start_page <= len(doc.pages) else None
        opens.append(page is not None and opens_page(page, _heading_y(heading, doc)))
    for index, (_, node) in enumerate(pairs):
        end = last_page
        for later in range(index + 1, len(pairs)):
            other = pairs[later][1]
            if other.level <= node.level:
                end = other.start_page - 1 if opens[later] else other.start_page
                break
        node.end_page = max(node.start_page, min(end, last_page))


def _cover_children(nodes: list[Node]) -> None:
    """Widen every parent so its span contains its children's (bottom-up)."""
    for node in nodes:
        _cover_children(node.children)
        if node.children:
            node.start_page = min(node.start_page, min(c.start_page for c in node.children))
            node.end_page = max(node.end_page, max(c.end_page for c in node.children))


def _cover_pages(roots: list[Node]) -> list[Node]:
    """Add a front-matter node for the pages before the first section."""
    if not roots:
        return roots
    first = min(node.start_page for node in roots)
    if first > 1:
        roots.insert(0, Node("", FRONT_MATTER_TITLE, 1, 1, first - 1))
    return roots


def number_nodes(roots: list[Node]) -> None:
    """Give every node its zero-padded id in reading order ("0001", "0002", ...)."""
    nodes = list(walk(roots))
    width = max(4, len(str(len(nodes))))
    for index, node in enumerate(nodes, start=1):
        node.node_id = node_id(index, width)


def verify_nodes(roots: list[Node], doc: ExtractedDocument) -> None:
    """Set each node's `verified`: its title is printed on its start page."""
    for node in walk(roots):
        page = doc.pages[node.start_page - 1] if 1 <= node.start_page <= len(doc.pages) else None
        node.verified = page is not None and is_printed(node.title, page)


def assemble(headings: list[Heading], doc: ExtractedDocument) -> list[Node]:
    """Nested, numbered, verified nodes covering every page, from headings in reading order ([] for none)."""
    if doc.page_count < 1 or not headings:
        return []
    pairs = _nest(headings, doc.page_count)
    _set_spans(pairs, doc)
    roots: list[Node] = []
    for _, node in pairs:
        if node.level == 1:
            roots.append(node)
    _cover_children(roots)
    roots = _cover_pages(roots)
    _fill_gaps(roots, doc.page_count)
    number_nodes(roots)
    verify_nodes(roots, doc)
    return roots


def _fill_gaps(roots: list[Node], page_count: int) -> None:
    """Stretch top-level nodes so that no page between them is left out (out-of-order sources can leave holes)."""
    covered = [False] * (page_count + 2)
    for node in roots:
        for page in range(node.start_page, node.end_page + 1):
            covered[page] = True
    for page in range(1, page_count + 1):
        if covered[page]:
            continue
        before = [n for n in roots if n.end_page < page]
        owner = max(before, key=lambda n: n.end_page) if before else roots[0]
        if owner.end_page < page:
            owner.end_page = page
        else:
            owner.start_page = min(owner.start_page, page)
        covered[page] = True
