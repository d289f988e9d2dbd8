"""The section tree: nodes with 1-based inclusive page spans, and lookups over them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

OUTLINE_SOURCES = ("bookmarks", "toc_page", "layout", "markdown", "model", "pages")  # "model": written by the index model
# Where one node came from: "" (the document's own tree source) or "model" (proposed by the model, then checked).
MODEL_SOURCE = "model"
# Title of the node added for pages before the first section (a coverage device, not a printed heading).
FRONT_MATTER_TITLE = "Front matter"


@dataclass
class Heading:
    """A flat heading candidate proposed by one builder, before spans and nesting are worked out."""

    title: str
    level: int  # 1 = top
    page: int  # 1-based physical start page
    y: float | None = None  # vertical position on the page (points from the top) when known
    # the document itself links this title to this page (a deck's contents slide, linked_outline.py): vouched
    # for as a title printed where it starts is, though the slide it leads to need not print it
    linked: bool = False


@dataclass
class Node:
    """One section of a document's tree."""

    node_id: str
    title: str
    level: int
    start_page: int
    end_page: int
    verified: bool = False
    summary: str = ""
    children: list["Node"] = field(default_factory=list)
    summary_source: str = ""  # 'model', 'excerpt', 'text' (its own short text) or '' (no summary yet)
    source: str = ""  # '' (the outline's source) or 'model' (a heading the model proposed that passed the checks)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of the CLI contract (design §9)."""
        return {
            "node_id": self.node_id,
            "title": self.title,
            "level": self.level,
            "start_page": self.start_page,
            "end_page": self.end_page,
            "verified": self.verified,
            "summary": self.summary,
            "summary_source": self.summary_source,
            "source": self.source,
            "children": [c.to_dict() for c in self.children],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Node":
        """Inverse of `to_dict`."""
        return cls(
            node_id=str(data["node_id"]),
            title=str(data["title"]),
            level=int(data["level"]),
            start_page=int(data["start_page"]),
            end_page=int(data["end_page"]),
            verified=bool(data.get("verified", False)),
            summary=str(data.get("summary") or ""),
            children=[cls.from_dict(c) for c in data.get("children", [])],
            summary_source=str(data.get("summary_source") or ""),
            source=str(data.get("source") or ""),
        )


@dataclass
class Outline:
    """A built tree and the source that won (one of OUTLINE_SOURCES)."""

    source: str
    nodes: list[Node]


def walk(nodes: list[Node]) -> Iterator[Node]:
    """Every node in reading order (pre-order)."""
    for node in nodes:
        yield node
        yield from walk(node.children)


def deepest_node_for_page(nodes: list[Node], page: int) -> list[Node]:
    """The chain of nodes (root first) whose spans contain `page`, following the deepest, latest-starting match."""
    chain: list[Node] = []
    level = nodes
    while True:
        match = None
        for node in level:
            if node.start_page <= page <= node.end_page:
                match = node  # the last sibling that contains the page starts closest before it
        if match is None:
            return chain
        chain.append(match)
        level = match.children
