"""The cost rule for keeping a split, and child spans from checked headings (no model)."""

from __future__ import annotations

from pageindex_desktop.core.outline.refine import child_nodes, navigate_cost, read_cost, worth_splitting
from pageindex_desktop.core.outline.tree import Heading, Node


def kids(*spans: tuple[int, int]) -> list[Node]:
    return [Node("", f"Part {i}", 2, s, e) for i, (s, e) in enumerate(spans)]


def test_even_children_are_cheaper_to_navigate_than_reading_through() -> None:
    parent = Node("", "Chapter", 1, 1, 12)
    assert read_cost((1, 12), {}) == 6.5
    assert worth_splitting(parent, kids((1, 4), (5, 8), (9, 12)), {})
    assert navigate_cost((1, 12), kids((1, 4), (5, 8), (9, 12)), {}) == 1.3 + 2.5


def test_one_child_or_a_lopsided_split_is_not_kept() -> None:
    parent = Node("", "Chapter", 1, 1, 12)
    assert not worth_splitting(parent, kids((3, 12)), {})
    assert not worth_splitting(parent, kids((1, 11), (12, 12)), {})


def test_dense_pages_cost_more_than_one() -> None:
    parent = Node("", "Chapter", 1, 1, 2)  # two pages of 4,000 tokens each: five pages' worth apiece
    dense = {1: 4000, 2: 4000}
    assert not worth_splitting(parent, kids((1, 1), (2, 2)), {})
    assert worth_splitting(parent, kids((1, 1), (2, 2)), dense)


def test_children_end_before_a_heading_that_opens_its_page_and_same_spans_merge() -> None:
    parent = Node("", "Chapter", 1, 10, 20)
    texts = {11: "Second\nbody", 15: "body text first\n" + "x " * 150 + "Third"}
    headings = [Heading("First", 2, 10), Heading("Again", 2, 10), Heading("Second", 2, 11), Heading("Third", 2, 15)]
    got = [(c.title, c.start_page, c.end_page, c.level, c.source) for c in child_nodes(parent, headings, texts)]
    assert got == [("First", 10, 10, 2, "model"), ("Second", 11, 15, 2, "model"), ("Third", 15, 20, 2, "model")]
