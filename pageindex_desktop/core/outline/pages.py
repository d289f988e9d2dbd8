"""The last-resort tree: fixed page groups, so every page of a document without found structure has a node."""

from __future__ import annotations

from pageindex_desktop.core.outline.tree import Node

GROUP = 10  # pages per leaf group
SINGLE_PAGES_UP_TO = 12  # short documents get one node per page
SUPER_GROUP = 100  # above this many pages, leaf groups hang under groups of this size


def _title(start: int, end: int) -> str:
    """'Page 3' or 'Pages 1–10'."""
    return f"Page {start}" if start == end else f"Pages {start}\u2013{end}"


def _groups(start: int, end: int, size: int, level: int) -> list[Node]:
    """Consecutive nodes of `size` pages covering start..end."""
    nodes = []
    for first in range(start, end + 1, size):
        last = min(end, first + size - 1)
        nodes.append(Node("", _title(first, last), level, first, last))
    return nodes


def page_groups(page_count: int) -> list[Node]:
    """Nodes covering pages 1..page_count: single pages, groups of ten, or groups of a hundred split in tens."""
    if page_count < 1:
        return []
    if page_count <= SINGLE_PAGES_UP_TO:
        return _groups(1, page_count, 1, 1)
    if page_count <= SUPER_GROUP:
        return _groups(1, page_count, GROUP, 1)
    roots = _groups(1, page_count, SUPER_GROUP, 1)
    for root in roots:
        if root.end_page > root.start_page + GROUP - 1:
            root.children = _groups(root.start_page, root.end_page, GROUP, 2)
    return roots
