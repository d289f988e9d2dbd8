"""Assembly: flat headings become a nested tree with stable ids, normalised levels, spans that cover every page."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.assemble import assemble
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE, Heading, Node, walk
from pageindex_desktop.core.outline.verify import is_printed, normalize, opens_page
from pageindex_desktop.core.ingest.pdf import extract
from tests.core.pdf_factory import Text, body, heading, make_pdf


def check_invariants(nodes: list[Node], page_count: int) -> None:
    """The tree contract every source must meet (also used by the build tests)."""
    ids = [n.node_id for n in walk(nodes)]
    assert len(ids) == len(set(ids)) and ids == sorted(ids)
    covered = {p for n in nodes for p in range(n.start_page, n.end_page + 1)}
    assert covered == set(range(1, page_count + 1))
    for node in walk(nodes):
        assert 1 <= node.start_page <= node.end_page <= page_count
        for child in node.children:
            assert child.level == node.level + 1
            assert node.start_page <= child.start_page and child.end_page <= node.end_page
    assert all(n.level == 1 for n in nodes)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> ExtractedDocument:
    """Seven pages: a cover, chapter 1 (with 1.1 mid-page), chapter 2 opening page 5, 2.1 mid-page 6."""
    pages = [
        [heading("A Study of Rivers", 24)],
        [Text("Contents")],
        [heading("1 Sources"), *body(6), heading("1.1 Springs", 12), *body(4)],
        [*body(20)],
        [Text("Running header"), heading("2 Deltas"), *body(6)],
        [*body(8), heading("2.1 Silt", 12), *body(4)],
        [*body(10)],
    ]
    path = make_pdf(tmp_path_factory.mktemp("book") / "book.pdf", pages)
    return extract(path)


def test_tree_shape_ids_and_spans(book: ExtractedDocument) -> None:
    headings = [
        Heading("1 Sources", 1, 3),
        Heading("1.1 Springs", 2, 3),
        Heading("2 Deltas", 1, 5),
        Heading("2.1 Silt", 2, 6),
    ]
    nodes = assemble(headings, book)
    check_invariants(nodes, 7)
    front, sources, deltas = nodes
    assert (front.title, front.start_page, front.end_page, front.node_id) == (FRONT_MATTER_TITLE, 1, 2, "0001")
    assert (sources.node_id, sources.start_page, sources.end_page) == ("0002", 3, 4)  # 2 Deltas opens page 5
    assert (sources.children[0].node_id, sources.children[0].end_page) == ("0003", 4)
    assert (deltas.node_id, deltas.start_page, deltas.end_page) == ("0004", 5, 7)
    assert (deltas.children[0].title, deltas.children[0].start_page) == ("2.1 Silt", 6)
    assert all(n.verified for n in walk(nodes) if n.title != FRONT_MATTER_TITLE)
    assert not front.verified


def test_a_heading_mid_page_shares_its_page(book: ExtractedDocument) -> None:
    nodes = assemble([Heading("1 Sources", 1, 3), Heading("2.1 Silt", 1, 6)], book)
    check_invariants(nodes, 7)
    assert nodes[1].end_page == 6  # "2.1 Silt" starts below body text on page 6: the page is shared


def test_given_y_is_used(book: ExtractedDocument) -> None:
    low = assemble([Heading("1 Sources", 1, 3), Heading("2 Deltas", 1, 5, y=600.0)], book)
    top = assemble([Heading("1 Sources", 1, 3), Heading("2 Deltas", 1, 5, y=80.0)], book)
    assert low[1].end_page == 5 and top[1].end_page == 4


def test_levels_are_normalised(book: ExtractedDocument) -> None:
    nodes = assemble([Heading("1 Sources", 2, 3), Heading("1.1 Springs", 4, 3), Heading("2 Deltas", 2, 5)], book)
    check_invariants(nodes, 7)
    assert [(n.title, n.level) for n in walk(nodes)][1:] == [("1 Sources", 1), ("1.1 Springs", 2), ("2 Deltas", 1)]


def test_unprinted_titles_are_not_verified(book: ExtractedDocument) -> None:
    nodes = assemble([Heading("Glaciers and ice", 1, 1), Heading("2 Deltas", 1, 4)], book)
    assert [n.verified for n in nodes] == [False, False]  # "2 Deltas" is printed on page 5, not on page 4


def test_out_of_order_headings_still_cover_everything(book: ExtractedDocument) -> None:
    headings = [Heading("2 Deltas", 1, 5), Heading("1.1 Springs", 2, 3), Heading("1 Sources", 1, 3)]
    nodes = assemble(headings, book)
    check_invariants(nodes, 7)


def test_no_headings_no_nodes(book: ExtractedDocument) -> None:
    assert assemble([], book) == []


def test_many_nodes_get_wider_ids(tmp_path: Path) -> None:
    doc = extract(make_pdf(tmp_path / "many.pdf", [[Text(f"Item {i}")] for i in range(1, 3)]))
    headings = [Heading(f"Item {1 + i % 2}", 1, 1 + i % 2) for i in range(10_001)]
    ids = [n.node_id for n in walk(assemble(sorted(headings, key=lambda h: h.page), doc))]
    assert ids[0] == "00001" and ids[-1] == "10001"


def test_normalize_and_printed_checks(book: ExtractedDocument) -> None:
    assert normalize("1.2.3 Risk Factors:") == "risk factors"
    assert normalize("IV. The Rights") == "the rights"
    assert normalize("Civil Rights") == "civil rights"
    assert normalize("Item 1A. Risk") == "risk"
    assert normalize("Résumé") == "resume"
    page = book.pages[2]
    assert is_printed("SOURCES", page) and is_printed("1.1 springs!", page)
    assert is_printed("Springs", page) and not is_printed("Deltas", page)
    assert is_printed("1 Sourcse", page) is False  # short titles need an exact match
    assert opens_page(book.pages[4], book.pages[4].lines[1].y0)  # only a running header above
    assert not opens_page(book.pages[5], book.pages[5].lines[8].y0)
