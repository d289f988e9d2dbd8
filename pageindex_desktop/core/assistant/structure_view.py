"""A compact, budgeted text rendering of a section tree for the model.

Every agent turn re-sends what the tools returned, so the structure is shown as short indented lines
(`[node_id] Title pS-E`), as many levels as fit the budget, with a marker on nodes whose children are
hidden so the model can expand exactly the branch it needs. Trees too wide even at one level are split in parts.
"""

from __future__ import annotations

from dataclasses import dataclass

from pageindex_desktop.core.outline.tree import Node

SUMMARY_CHARS = 140


@dataclass
class StructureView:
    """One part of a rendered tree."""

    text: str
    part: int
    parts: int
    depth: int  # levels shown below the starting point; 0 when every level is shown
    hidden: bool  # some nodes have children that are not shown


def _span(node: Node) -> str:
    """Pages as `p12` or `p12-15`: compact, since the outline is re-sent on every turn."""
    if node.start_page == node.end_page:
        return f"p{node.start_page}"
    return f"p{node.start_page}-{node.end_page}"


def _line(node: Node, indent: int, show_children: bool, summaries: bool) -> str:
    line = f"{'  ' * indent}[{node.node_id}] {node.title} {_span(node)}"
    if summaries and node.summary:
        summary = " ".join(node.summary.split())
        if len(summary) > SUMMARY_CHARS:
            summary = summary[: SUMMARY_CHARS - 1].rstrip() + "…"
        line += f" — {summary}"
    if node.children and not show_children:
        line += f" [+{_count(node.children)} inside]"
    return line


def _count(nodes: list[Node]) -> int:
    return sum(1 + _count(n.children) for n in nodes)


def _lines(nodes: list[Node], depth: int | None, summaries: bool, indent: int = 0) -> list[str]:
    out: list[str] = []
    for node in nodes:
        show = depth is None or depth > 1
        out.append(_line(node, indent, show, summaries))
        if node.children and show:
            out.extend(_lines(node.children, None if depth is None else depth - 1, summaries, indent + 1))
    return out


def _max_depth(nodes: list[Node]) -> int:
    return max((1 + _max_depth(n.children) for n in nodes), default=0)


def render_structure(nodes: list[Node], budget: int, part: int = 1) -> StructureView:
    """The deepest view that fits `budget` characters (with summaries when they fit too, since depth matters more
    for navigation); when even the top level is too wide, split it in parts."""
    deepest = _max_depth(nodes)
    for depth in range(deepest, 0, -1):
        for summaries in (True, False):
            lines = _lines(nodes, depth, summaries)
            text = "\n".join(lines)
            if len(text) <= budget:
                hidden = depth < deepest
                return StructureView(text, 1, 1, 0 if not hidden else depth, hidden)
    # Even the top level does not fit: split the top-level lines into parts under the budget.
    lines = _lines(nodes, 1, False)
    chunks: list[list[str]] = [[]]
    size = 0
    for line in lines:
        if chunks[-1] and size + len(line) + 1 > budget:
            chunks.append([])
            size = 0
        chunks[-1].append(line[:budget])
        size += len(line) + 1
    part = min(max(part, 1), len(chunks))
    hidden = deepest > 1
    return StructureView("\n".join(chunks[part - 1]), part, len(chunks), 1, hidden)


def find_node(nodes: list[Node], node_id: str) -> Node | None:
    """The node with this id anywhere in the tree (ids compared without surrounding spaces)."""
    wanted = node_id.strip()
    for node in nodes:
        if node.node_id == wanted:
            return node
        found = find_node(node.children, wanted)
        if found is not None:
            return found
    return None
