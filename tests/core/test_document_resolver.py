"""One rule for "which document did they mean?": the CLI's DOC, the assistant's tools and citations agree."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from libdata import add_document, annual_report  # noqa: E402

from pageindex_desktop.core.library import document_resolver  # noqa: E402
from pageindex_desktop.core.assistant.citations.verify import verify_citations  # noqa: E402
from pageindex_desktop.core.document import PageData  # noqa: E402
from pageindex_desktop.core.errors import DocumentNotFound  # noqa: E402
from pageindex_desktop.core.outline.tree import Node, Outline  # noqa: E402
from pageindex_desktop.core.library.store import Library, sha256_of  # noqa: E402
from pageindex_desktop.core.assistant.tools import ToolBox  # noqa: E402

MEMO = [Node("0001", "Memo", 1, 1, 1)]


def _add(library: Library, file_name: str, title: str, text: str) -> str:
    """A one-page ready document with this file name and title."""
    raw = library.home.parent / "src" / file_name
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.write_bytes(("%PDF-fake " + file_name).encode())
    doc = library.add_file(raw, sha256_of(raw), title)
    library.save_index(doc.doc_id, title=title, pages=[PageData(1, "1", text, 612, 792)], outline=Outline("layout", MEMO))
    return doc.doc_id


def by_cli(library: Library, ref: str) -> str:
    try:
        return library.resolve(ref).doc_id
    except DocumentNotFound as exc:
        return f"error: {exc}"


def by_tool(library: Library, ref: str) -> str:
    out = json.loads(ToolBox(library).call("get_document", json.dumps({"doc": ref})))
    if out["ok"]:
        return str(out["result"]["doc_id"])
    return f"{out['error']['code']}: {out['error']['message']} {out['error']['options']}"


def by_citation(library: Library, ref: str) -> str:
    cite = verify_citations(f"The board met twice [{ref}, p. 1].", library, None, set())[0]
    return cite.doc_id or cite.reason


def test_a_name_two_documents_share_is_ambiguous_everywhere_and_says_so(library: Library) -> None:
    first = _add(library, "printer-manual.pdf", "User Manual", "The printer prints.")
    second = _add(library, "scanner-manual.pdf", "User Manual", "The scanner scans.")
    cli = by_cli(library, "user manual")
    assert "matches 2 documents" in cli and first in cli and second in cli
    assert "printer-manual.pdf" in cli and "scanner-manual.pdf" in cli  # the shared title told apart
    tool = by_tool(library, "User Manual")
    assert tool.startswith("AMBIGUOUS") and first in tool and second in tool
    assert by_citation(library, "User Manual").startswith("ambiguous document")
    for ref, doc in (("printer-manual.pdf", first), ("scanner-manual", second), (second, second)):
        assert by_cli(library, ref) == by_tool(library, ref) == by_citation(library, ref) == doc, ref


def test_a_prefix_of_two_titles_is_ambiguous_and_another_year_is_another_document(library: Library) -> None:
    report = annual_report(library)
    add_document(library, "Annual Report 2021", ["Older."], MEMO)
    assert by_cli(library, "annual rep").startswith("error: 'annual rep' matches 2 documents")
    assert by_tool(library, "Annual rep").startswith("AMBIGUOUS")
    assert by_citation(library, "Annual Report").startswith("ambiguous document")
    for via in (by_cli, by_tool, by_citation):
        assert via(library, "Annual Reprot 2023") == report, via  # a typo is tolerated
        assert via(library, "Annual Report 2022") != report, via  # a year is not
    assert by_cli(library, "Annual Report 2022") == "error: No document matches 'Annual Report 2022'."


def test_an_exact_id_beats_a_title_that_reads_the_same(library: Library) -> None:
    target = _add(library, "a.pdf", "Alpha memo", "The board met twice.")
    impostor = _add(library, "b.pdf", target, "The board met once.")
    for via in (by_cli, by_tool, by_citation):
        assert via(library, target) == target, via
        assert via(library, target.upper()) == target, via
    assert by_cli(library, "b.pdf") == impostor


def test_an_id_prefix_needs_four_characters(library: Library) -> None:
    docs = [d for d in (library.get(_add(library, f"{n}.pdf", f"Memo {n}", "Text.")) for n in "xyz") if d]
    doc = docs[0]
    assert document_resolver.resolve(doc.doc_id[:4], docs).document == doc
    assert document_resolver.resolve(doc.doc_id[:3], docs).reason == "unknown document"


def test_a_renamed_document_is_found_by_its_new_title_only(library: Library) -> None:
    doc = _add(library, "scan-0930.pdf", "Draft", "The board met twice.")
    add_document(library, "Unrelated notes", ["Nothing."], MEMO)
    library.rename(doc, "Board minutes Q3 2024")
    for via in (by_cli, by_tool, by_citation):
        assert via(library, "Board minutes Q3 2024") == doc, via
        assert via(library, "board minutes") == doc, via
        assert via(library, "Draft") != doc, via  # the old title names nothing now
    cite = verify_citations("The board met twice [Board minutes Q3 2024, p. 1].", library, None, {(doc, 1)})[0]
    assert (cite.verdict, cite.document) == ("checked", "Board minutes Q3 2024")


@pytest.mark.parametrize("ref", ["", "   "])
def test_nothing_written_means_the_one_document_else_it_is_ambiguous(library: Library, ref: str) -> None:
    only = _add(library, "a.pdf", "Alpha memo", "Text.")
    docs = library.documents()
    assert document_resolver.resolve(ref, docs).document is not None
    _add(library, "b.pdf", "Beta memo", "Text.")
    found = document_resolver.resolve(ref, library.documents())
    assert found.document is None and found.ambiguous and only in {d.doc_id for d in found.candidates}
