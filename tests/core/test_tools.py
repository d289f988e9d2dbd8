"""The agent's tools: envelopes that never raise, scope enforced inside, page budgets, compact structure."""

from __future__ import annotations

import json
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from libdata import add_document, annual_report  # noqa: E402

from pageindex_desktop.core.outline.tree import Node  # noqa: E402
from pageindex_desktop.core.pages_range import parse_page_ranges  # noqa: E402
from pageindex_desktop.core.library.store import Library  # noqa: E402
from pageindex_desktop.core.assistant.tools import ToolBox  # noqa: E402


def call(box: ToolBox, name: str, **args: object) -> dict:
    return json.loads(box.call(name, json.dumps(args)))


def test_page_content_reports_returned_skipped_and_the_rest_under_budget(library: Library) -> None:
    doc = annual_report(library)
    box = ToolBox(library, page_budget=200)
    out = call(box, "get_page_content", doc=doc, pages="12,11,13-14,40-41")
    assert out["ok"] is True
    result = out["result"]
    assert [p["page"] for p in result["pages"]][0] == 11  # first page always included, in order
    assert result["skipped_out_of_range"] == "40-41"
    returned, _ = parse_page_ranges(result["returned"], 100)  # "11-14": the ranges name exactly the pages sent
    assert returned == sorted(p["page"] for p in result["pages"])
    assert "not_returned" in result and any(result["not_returned"] in s for s in out["next_steps"])
    assert box.returned == {(doc, p["page"]) for p in result["pages"]}


def test_all_pages_out_of_range_is_an_error_naming_the_page_count(library: Library) -> None:
    doc = annual_report(library)
    out = call(ToolBox(library), "get_page_content", doc=doc, pages="31-40")
    assert out["ok"] is False and out["error"]["code"] == "INVALID_INPUT"
    assert "30 pages" in out["error"]["message"]
    assert call(ToolBox(library), "get_page_content", doc=doc, pages=[12, 13])["result"]["returned"] == "12-13"
    bad = call(ToolBox(library), "get_page_content", doc=doc, pages="five")
    assert bad["error"]["code"] == "INVALID_INPUT"


def test_a_document_outside_the_scope_reads_as_not_found(library: Library) -> None:
    report = annual_report(library)
    other = add_document(library, "Secret memo", ["classified plan"], [Node("0001", "Memo", 1, 1, 1)])
    box = ToolBox(library, scope=frozenset({report}))
    for ref in (other, "Secret memo"):
        out = call(box, "get_page_content", doc=ref, pages="1")
        assert out["ok"] is False and out["error"]["code"] == "NOT_FOUND"
        options = json.dumps(out["error"]["options"])
        assert "Secret" not in options and other not in options and "classified" not in json.dumps(out)
    listed = call(box, "browse_documents")["result"]["documents"]
    assert [d["doc_id"] for d in listed] == [report]
    assert call(box, "search_document", query="classified")["result"]["hits"] == []
    assert (other, 1) not in box.returned


def test_not_found_lists_close_names_and_fuzzy_titles_resolve(library: Library) -> None:
    doc = annual_report(library)
    box = ToolBox(library)
    assert call(box, "get_document", doc="Annual Report 2O23")["result"]["doc_id"] == doc
    out = call(box, "get_document", doc="Quarterly memo")
    assert out["error"]["code"] == "NOT_FOUND" and any("Annual Report 2023" in o for o in out["error"]["options"])


def test_malformed_arguments_and_unknown_tools_give_error_envelopes(library: Library) -> None:
    annual_report(library)
    box = ToolBox(library)
    assert json.loads(box.call("get_page_content", '{"doc": "Annual'))["error"]["code"] == "INVALID_INPUT"
    assert json.loads(box.call("delete_document", "{}"))["error"]["code"] == "NOT_FOUND"
    assert json.loads(box.call("get_page_content", '{"document": "x"}'))["error"]["code"] == "INVALID_INPUT"
    assert json.loads(box.call("browse_documents", '{"limit": "many"}'))["error"]["code"] == "INVALID_INPUT"


def test_structure_shows_top_levels_first_then_a_subtree_by_node_id_and_splits_in_parts(library: Library) -> None:
    chapters = [
        Node(f"{i:04d}", f"Chapter {i} on a long subject", 1, i * 3 - 2, i * 3, True, "",
             [Node(f"{i:04d}.{j}", f"Section {i}.{j}", 2, i * 3 - 2, i * 3) for j in range(1, 4)])
        for i in range(1, 41)
    ]
    doc = add_document(library, "Big book", [f"page {n}" for n in range(1, 121)], chapters)
    box = ToolBox(library, structure_budget=1600)
    first = call(box, "get_document_structure", doc=doc)["result"]
    assert "Section 1.1" not in first["outline"] and "[+3 inside]" in first["outline"]
    assert first["parts"] > 1 and len(first["outline"]) <= 1600
    second = call(box, "get_document_structure", doc=doc, part=2)["result"]
    assert second["part"] == 2 and second["outline"].split("\n")[0] not in first["outline"]
    sub = call(box, "get_document_structure", doc=doc, node_id="0007")["result"]
    assert "[0007.3] Section 7.3 p19-21" in sub["outline"] and "Chapter 8" not in sub["outline"]
    roomy = call(ToolBox(library, structure_budget=20_000), "get_document_structure", doc=doc)["result"]
    assert roomy["parts"] == 1 and "Section 40.3" in roomy["outline"]
    assert call(box, "get_document_structure", doc=doc, node_id="9999")["error"]["code"] == "NOT_FOUND"


def test_search_finds_exact_figures_with_snippets_and_falls_back_to_some_terms(library: Library) -> None:
    doc = annual_report(library)
    box = ToolBox(library)
    hits = call(box, "search_document", doc=doc, query="1,234")["result"]["hits"]
    assert [h["page"] for h in hits] == [12] and "[[" in hits[0]["snippet"]
    loose = call(box, "search_document", doc=doc, query="cyber unicorns")["result"]
    assert loose["matched"] == "some of the terms" and loose["hits"][0]["page"] == 20
    assert call(box, "search_document", doc=doc, query="  ")["error"]["code"] == "INVALID_INPUT"
    assert box.returned == set()  # snippets are not pages read


def test_search_names_the_document_once_not_on_every_hit(library: Library) -> None:
    report = annual_report(library)
    other = add_document(library, "Board minutes", ["net income was discussed"], [Node("0001", "Minutes", 1, 1, 1)])
    box = ToolBox(library)
    one = call(box, "search_document", doc=report, query="net income")["result"]
    assert one["doc_id"] == report and one["title"] == "Annual Report 2023"
    assert one["hits"] and all(set(h) == {"page", "snippet"} for h in one["hits"])
    both = call(box, "search_document", query="net income")["result"]
    assert both["documents"] == {report: "Annual Report 2023", other: "Board minutes"}
    assert {h["doc_id"] for h in both["hits"]} == {report, other} and all("title" not in h for h in both["hits"])
    assert box.hits_returned == len(one["hits"]) + len(both["hits"])
    box.search_hits("net income")  # the no-model answer's search is not something the model was shown
    assert box.hits_returned == len(one["hits"]) + len(both["hits"])


def test_page_text_is_reflowed_without_changing_a_word() -> None:
    from pageindex_desktop.core.assistant.tools import reflow

    raw = "Net income rose   to \nmillions in 2023.  \n\n\n\nRisk Factors\nThe main risks\n(a) rates;\n- credit\n"
    out = reflow(raw)
    assert out == "Net income rose to millions in 2023.\n\nRisk Factors\nThe main risks (a) rates;\n- credit"
    assert out.split() == raw.split()


def test_structure_prefers_depth_to_summaries_and_shows_summaries_when_they_fit(library: Library) -> None:
    kids = [Node(f"000{k}", f"Part {k}", 2, k, k, True, "Summary " + "x" * 100) for k in range(2, 6)]
    nodes = [Node("0001", "Book", 1, 1, 5, True, "The whole book " + "y" * 100, kids)]
    doc = add_document(library, "Small book", [f"page {n}" for n in range(1, 6)], nodes)
    roomy = call(ToolBox(library), "get_document_structure", doc=doc)["result"]["outline"]
    assert "Part 5" in roomy and "— Summary xx" in roomy
    tight = call(ToolBox(library, structure_budget=200), "get_document_structure", doc=doc)["result"]["outline"]
    assert "Part 5" in tight and "Summary" not in tight


def test_a_section_with_hundreds_of_children_is_reached_part_by_part(library: Library) -> None:
    kids = [Node(f"01{i:03d}", f"Function number {i} of the package", 2, 2 + i, 2 + i, True) for i in range(400)]
    doc = add_document(library, "Reference", ["page"] * 402, [Node("0001", "Package stats", 1, 1, 402, True, "", kids)])
    box = ToolBox(library)
    seen: set[str] = set()
    part, parts = 1, 1
    while part <= parts:
        out = json.loads(box.call("get_document_structure", json.dumps({"doc": doc, "node_id": "0001", "part": part})))
        assert out["ok"], out
        result = out["result"]
        assert result["outline"].startswith("[0001] Package stats p1-402, inside it:")
        seen |= {line.split("]")[0].strip(" [") for line in result["outline"].splitlines()[1:]}
        parts = result["parts"]
        part += 1
    assert parts > 1 and {k.node_id for k in kids} <= seen  # every child reachable


def test_with_one_document_in_scope_a_missing_or_mangled_reference_means_that_one(library: Library) -> None:
    doc = annual_report(library)
    box = ToolBox(library, scope=frozenset({doc}))
    for ref in (None, "", "annual-report 2023", doc[:-1] + "x"):
        arguments = {"pages": "12"} if ref is None else {"doc": ref, "pages": "12"}
        out = call(box, "get_page_content", **arguments)
        assert out["ok"] and out["result"]["doc_id"] == doc, ref
    assert call(box, "get_page_content", doc="Quarterly memo", pages="1")["error"]["code"] == "NOT_FOUND"


def test_failed_and_importing_documents_are_never_read_whatever_the_scope(library: Library) -> None:
    report = annual_report(library)
    broken = add_document(library, "Broken Scan", ["Net income was $9 million."], [])
    busy = add_document(library, "Being Reindexed", ["Net income was $7 million."], [])
    library.set_status(broken, "failed", "The file is damaged.")
    library.set_status(busy, "importing")
    for scope in (None, frozenset({report, broken, busy})):
        box = ToolBox(library, scope)
        assert [d.doc_id for d in box.in_scope()] == [report]
        listed = call(box, "browse_documents")["result"]
        assert listed["total"] == 1 and [d["doc_id"] for d in listed["documents"]] == [report]
        for doc in (broken, busy, "Broken Scan"):
            out = call(box, "get_page_content", doc=doc, pages="1")
            assert out["ok"] is False and out["error"]["code"] == "NOT_FOUND", out
        hits = call(box, "search_document", query="net income")["result"]["hits"]
        assert hits and {h.get("doc_id", report) for h in hits} == {report}
    only_failed = ToolBox(library, frozenset({broken}))
    assert only_failed.in_scope() == [] and call(only_failed, "browse_documents")["result"]["total"] == 0
