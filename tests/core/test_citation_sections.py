"""Citations name their section: the heading a cited passage falls under (a Markdown file's headings, a PDF's
bookmarks), and a citation that names the section instead of a page is judged on that section's text."""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.core.assistant.citations.parse import parse_citations
from pageindex_desktop.core.assistant.citations.verify import SECTION_NEVER_READ, check_answer
from pageindex_desktop.core.ingest.indexer import import_pdf
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.outline.tree import Node, walk
from tests.core.pdf_factory import Text, heading, make_pdf
from tests.core.test_markdown import NOTES

TITLE = "Harbour Board Minutes"


def import_notes(library: Library, tmp_path: Path) -> tuple[str, list[Node], set[tuple[str, int]]]:
    source = tmp_path / "minutes.md"
    source.write_text(NOTES, encoding="utf-8")
    result = import_pdf(library, source)
    assert result.status == "ready" and result.outline_source == "markdown", result.error
    every_page = {(result.doc_id, p) for p in range(1, result.page_count + 1)}
    return result.doc_id, library.tree(result.doc_id), every_page


def node(tree: list[Node], title: str) -> Node:
    return next(n for n in walk(tree) if n.title == title)


def test_the_section_forms_are_parsed() -> None:
    answer = ("A [Notes, § Installation]. B [Notes, §Usage, p. 4]. C [Notes › Setup › Installation, p. 3]. "
              'D [Notes, Installation, p. 3]. E <cite doc="Notes" section="Usage"/>. F [§ Usage]. '
              "G [Notes › Setup › Usage].")
    got = [(c.written, c.heading, c.page_token, c.understood) for c in parse_citations(answer)]
    assert got == [("Notes", "Installation", "", True), ("Notes", "Usage", "4", True),
                   ("Notes", "Setup › Installation", "3", True), ("Notes, Installation", "", "3", True),
                   ("Notes", "Usage", "", True), ("", "Usage", "", True),
                   ("Notes", "Setup › Usage", "", True)]


def test_a_markdown_citation_carries_the_heading_its_passage_falls_under(home: Path, tmp_path: Path) -> None:
    with Library(home) as library:
        doc_id, tree, read = import_notes(library, tmp_path)
        moorings, other = node(tree, "Moorings"), node(tree, "Any other business")
        page = other.start_page
        assert moorings.start_page < page <= moorings.end_page  # the page opens in Moorings, then Any other business
        contract = node(tree, "Dredging contract")
        answer = (f"The dredging contract was renewed with Tidewater Works [{TITLE}, p. {contract.start_page}]. "
                  f"The pelican census is due in spring [{TITLE}, p. {page}]. "
                  f"The committee reviewed the harbour accounts line by line [{TITLE}, p. {page}]. "
                  f"Soundings were taken [{TITLE}, p. {page}].")
        cites = check_answer(answer, library, None, read).citations
        assert [c.verdict for c in cites[:3]] == ["checked"] * 3
        assert [c.section.title if c.section else None for c in cites] == [
            "Dredging contract", "Any other business", "Moorings", "Soundings"]
        record = cites[0].to_dict()
        assert record["format"] == "md" and record["section"] == {
            "node_id": contract.node_id, "title": "Dredging contract",
            "path": [TITLE, "Finances", "Dredging contract"],
            "start_page": contract.start_page, "end_page": contract.end_page}
        named = check_answer(
            f"The dredging contract was renewed with Tidewater Works [{TITLE} › Finances, p. {contract.start_page}]. "
            f"The dredging contract was renewed with Tidewater Works [{TITLE}, § Moorings, p. {contract.start_page}]. "
            f"The dredging contract was renewed with Tidewater Works [{TITLE}, § Overview, p. {contract.start_page}]. "
            f"The pelican census is due in spring [{TITLE}, Any other business, p. {page}].",
            library, None, read).citations
        assert [(c.verdict, c.reason) for c in named] == [
            ("checked", ""),  # Dredging contract is under Finances
            ("unverified", "the passage is under “Dredging contract”, not “Moorings”"),
            ("checked", ""),  # no section Overview at all: the page alone locates the claim
            ("checked", "")]
        assert named[2].section is not None and named[2].section.title == "Dredging contract"
        assert named[3].heading == "Any other business" and named[3].written == TITLE
        numbered_page = check_answer(  # how a small real model fills the slot: the page number again
            f"The dredging contract was renewed with Tidewater Works [{TITLE}, § {contract.start_page}, "
            f"p. {contract.start_page}].", library, None, read).citations[0]
        assert numbered_page.verdict == "checked" and numbered_page.page == contract.start_page
        unread = check_answer(f"The pelican census is due [{TITLE}, p. {page}].", library, None, set()).citations[0]
        assert unread.reason == "page never read" and unread.section is not None
        assert unread.section.title == "Moorings"  # no passage: the section the page opens in


def test_a_citation_naming_only_the_section_is_judged_on_that_sections_text(home: Path, tmp_path: Path) -> None:
    with Library(home) as library:
        doc_id, tree, read = import_notes(library, tmp_path)
        other, contract = node(tree, "Any other business"), node(tree, "Dredging contract")
        assert node(tree, "Moorings").end_page == other.start_page
        answer = (f"The pelican census is due in spring [{TITLE}, § Any other business]. "
                  f"The pelican census is due in spring [{TITLE}, § Moorings]. "  # on Moorings' last page, not in it
                  f"The dredging contract was renewed with Tidewater Works [minutes, Dredging contract]. "
                  f"The census counts pelicans [{TITLE}, § Pelican census]. "
                  f"The dredging contract went to Tidewater Works [{TITLE}, § 2.1 Dredging contract].")
        cites = check_answer(answer, library, None, read).citations
        first, wrong, unmarked, missing, numbered = cites
        assert (first.verdict, first.page, first.section.title if first.section else "") == (
            "checked", other.start_page, "Any other business")
        assert first.passage == "The pelican census is due in spring."
        moorings = node(tree, "Moorings")
        assert wrong.verdict == "unverified" and moorings.start_page <= wrong.page <= moorings.end_page
        assert wrong.section is not None and wrong.section.title == "Moorings"
        # without the § mark: a bracket naming a document and one of its sections
        assert (unmarked.verdict, unmarked.heading, unmarked.written) == ("checked", "Dredging contract", "minutes")
        assert unmarked.claim == "The dredging contract was renewed with Tidewater Works"
        assert missing.reason == "no section “Pelican census” in this document"
        assert (numbered.verdict, numbered.page) == ("checked", contract.start_page)
        assert numbered.to_dict()["written_heading"] == "2.1 Dredging contract"
        aside = check_answer("The rule is in force [see § 4.2]. Dredging [Tidewater Works, § Contracts].", library,
                             None, read).citations
        assert aside == []  # a section mark in a bracket that names no document in scope is not a citation
        unread = check_answer(f"The census is due [{TITLE}, § Any other business].", library, None, set()).citations
        assert (unread[0].reason, unread[0].page) == (SECTION_NEVER_READ, other.start_page)


def test_a_pdf_citation_carries_its_bookmarked_section(home: Path, tmp_path: Path) -> None:
    pages = [
        [heading("Introduction"), Text("The survey covered the northern aquifer over three seasons.")],
        [heading("Methods"), Text("Samples were taken from twelve wells at dawn."), Text(""), Text(""),
         heading("Results"), Text("The wells yielded 340 litres per hour on average.")],
        [Text("Yields fell in the dry season."), heading("Discussion"),
         Text("Recharge depends on winter rain more than on summer storms.")],
    ]
    toc: list[list[int | str]] = [[1, "Introduction", 1], [1, "Methods", 2], [1, "Results", 2],
                                  [1, "Discussion", 3]]
    pdf = make_pdf(tmp_path / "aquifer.pdf", pages, toc=toc, title="Aquifer Survey")
    with Library(home) as library:
        result = import_pdf(library, pdf)
        assert result.status == "ready" and result.outline_source == "bookmarks", result.error
        doc = result.doc_id
        read = {(doc, 1), (doc, 2), (doc, 3)}
        answer = ("Samples were taken from twelve wells [Aquifer Survey, p. 2]. "
                  "The wells yielded 340 litres per hour [Aquifer Survey, p. 2]. "
                  "Yields fell in the dry season [Aquifer Survey, p. 3]. "
                  "Recharge depends on winter rain [Aquifer Survey, p. 3]. "
                  "The wells yielded 340 litres per hour [Aquifer Survey, § Results].")
        cites = check_answer(answer, library, None, read).citations
        assert [c.verdict for c in cites] == ["checked"] * 5
        assert [c.section.title if c.section else None for c in cites] == [
            "Methods", "Results", "Results", "Discussion", "Results"]
        assert cites[4].page == 2
        assert {c.to_dict()["format"] for c in cites} == {"pdf"}
        ids = {n.title: n.node_id for n in walk(library.tree(doc))}
        assert cites[1].to_dict()["section"]["node_id"] == ids["Results"]  # type: ignore[index]


def test_a_search_result_without_a_model_names_its_section(home: Path, tmp_path: Path) -> None:
    from pageindex_desktop.core.assistant.search_answer import search_finished
    from pageindex_desktop.core.assistant.tools import ToolBox

    with Library(home) as library:
        doc_id, tree, _ = import_notes(library, tmp_path)
        found = search_finished(ToolBox(library, frozenset({doc_id})), "pelican census").citations
        assert [(c.page, c.format, c.section.title if c.section else None) for c in found] == [
            (node(tree, "Any other business").start_page, "md", "Any other business")]


def test_headings_are_found_as_typeset_and_named_as_written() -> None:
    from pageindex_desktop.core.assistant.citations.section import find_sections, heading_offset

    page = "the results of the survey were mixed.\nCHAPTER TEN: “Property”\nResults\nThe wells yielded water."
    assert heading_offset("Results", page) == page.index("Results\n")  # its own line, not the word in a sentence
    assert heading_offset('10: "Property"', page) == page.index("“Property”")  # typed quotes, its number dropped
    assert heading_offset("Rev Disagg Table", page) is None  # a bookmark's own name, not printed
    assert heading_offset("Results", "the results show a rise.\nresults vary") is None  # words, not a heading
    assert heading_offset("A Survey", "the survey covered wells") is None
    tree = [Node("0001", "A. Overview", 1, 1, 2, children=[Node("0002", "2.1 Installation", 2, 2, 2)]),
            Node("0003", "B. Overview", 1, 3, 4), Node("0004", "12. Definitions", 1, 5, 5)]
    ids = {w: [s.node_id for s in find_sections(tree, w)] for w in (
        "B. Overview", "Overview", "Installation", "A. Overview › Installation", "B. Overview › Installation",
        "§ 12", "Definitions", "Glossary")}
    assert ids == {"B. Overview": ["0003"], "Overview": ["0001", "0003"], "Installation": ["0002"],
                   "A. Overview › Installation": ["0002"], "B. Overview › Installation": [], "§ 12": ["0004"],
                   "Definitions": ["0004"], "Glossary": []}
