"""A finer tree against the fake server: checked headings split long sections, everything else leaves it as it was."""

from __future__ import annotations

import json
import re
from typing import Any

from fake_openai import FakeOpenAI, Reply, error, text
from libdata import add_document

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.assistant.expand import expand_document
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.outline.tree import Node, Outline, walk
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.library.tree_store import usage

FILLER = " ".join(f"the canal board measured flow rate {i} at the weir" for i in range(15))
HEADINGS = {13: "Water Rights", 17: "Irrigation Schedules", 21: "Drainage and Pumping"}


def page_texts() -> list[str]:
    """24 pages: chapter 1 on 1-11, chapter 2 on 12-24 with three printed sub-headings opening pages 13/17/21."""
    pages = []
    for n in range(1, 25):
        head = "1 Founding of the Canal Board\n" if n == 1 else "2 Operations\n" if n == 12 else ""
        head += f"{HEADINGS[n]}\n" if n in HEADINGS else ""
        pages.append(f"{head}{FILLER} page {n}.")
    return pages


def nodes() -> list[Node]:
    return [Node("0001", "Founding of the Canal Board", 1, 1, 3, True, "Founding.", [], "model"),
            Node("0002", "Early years", 1, 4, 11, True),
            Node("0003", "Operations", 1, 12, 24, True, "How it runs.", [], "model")]


def client(url: str, timeout: float = 5) -> LLMClient:
    return LLMClient(Endpoint(url, "k", "fake-index", timeout), RetryPolicy(attempts=1, scale=0.01))


def proposing(extra: dict[str, list[dict[str, Any]]] | None = None) -> Any:
    """A scripted model: for each section id in the prompt, the printed headings it holds, plus `extra`."""
    def policy(body: dict[str, Any]) -> Reply:
        prompt = body["messages"][-1]["content"]
        out: dict[str, list[dict[str, Any]]] = {}
        for node_id, first, last in re.findall(r"### id (\S+): .* \(pages (\d+)-(\d+)\)", prompt):
            out[node_id] = [{"title": t, "page": p} for p, t in HEADINGS.items() if int(first) <= p <= int(last)]
            out[node_id] += (extra or {}).get(node_id, [])
        return text("```json\n" + json.dumps({"sections": out}) + "\n```")
    return policy


def tree_shape(library: Library, doc: str) -> list[tuple[str, int, int, str]]:
    return [(n.title, n.start_page, n.end_page, n.source) for n in walk(library.tree(doc))]


def test_printed_headings_split_the_long_section(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = add_document(library, "Canal Board", page_texts(), nodes())
    fake_openai.policy = proposing()
    report = expand_document(library, doc, client(fake_openai.url))
    assert report.long_leaves == 2 and report.calls == 1 == len(fake_openai.chat_requests())  # batched
    prompt = fake_openai.chat_requests()[0]["messages"][-1]["content"]
    assert "--- page 17 ---" in prompt and "### id 0002: Early years (pages 4-11)" in prompt
    tree = library.tree(doc)
    operations = tree[2]
    assert [(c.title, c.start_page, c.end_page, c.source, c.verified) for c in operations.children] == [
        ("Water Rights", 13, 16, "model", True), ("Irrigation Schedules", 17, 20, "model", True),
        ("Drainage and Pumping", 21, 24, "model", True)]
    assert [n.node_id for n in walk(tree)] == ["0001", "0002", "0003", "0004", "0005", "0006"]
    assert operations.summary == "How it runs." and operations.source == ""  # what was there is kept
    assert report.expanded == 1 and report.added == 3 and report.rejected == 0
    assert report.sentence().startswith("Finer tree: 1 of 2 long sections split (3 headings added, 0 rejected)")
    spent = usage(library, doc)
    assert [(u.task, u.calls) for u in spent] == [("expand", 1)] and spent[0].tokens == report.tokens > 0


def test_unprinted_out_of_span_descending_and_duplicate_headings_are_rejected(
        fake_openai: FakeOpenAI, library: Library) -> None:
    doc = add_document(library, "Canal Board", page_texts(), nodes())
    planted = [{"title": "Groundwater Law", "page": 14},  # printed nowhere
               {"title": "Water Rights", "page": 15},  # printed on 13: wrong page
               {"title": "Founding of the Canal Board", "page": 1},  # outside the section (and a sibling)
               {"title": "Operations", "page": 12},  # the parent itself
               {"title": "Irrigation Schedules", "page": 18}]  # a repeat
    fake_openai.policy = proposing({"0003": planted})
    report = expand_document(library, doc, client(fake_openai.url))
    titles = [c.title for c in library.tree(doc)[2].children]
    assert titles == ["Water Rights", "Irrigation Schedules", "Drainage and Pumping"]
    assert report.rejected == len(planted) and report.added == 3


def test_a_descending_proposal_keeps_only_what_ascends(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = add_document(library, "Canal Board", page_texts(), nodes())
    backwards = [{"title": "Drainage and Pumping", "page": 21}, {"title": "Water Rights", "page": 13}]
    fake_openai.script(text(json.dumps({"sections": {"0003": backwards, "0002": []}})))
    report = expand_document(library, doc, client(fake_openai.url))
    assert report.rejected == 1 and report.expanded == 0  # one child left: nothing to navigate
    assert tree_shape(library, doc) == [(n.title, n.start_page, n.end_page, "") for n in nodes()]


def test_junk_and_timeouts_leave_the_tree_as_it_was(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = add_document(library, "Canal Board", page_texts(), nodes())
    before = tree_shape(library, doc)
    fake_openai.script(text("Sure! The sections have headings such as Water Rights on page 13."))
    junk = expand_document(library, doc, client(fake_openai.url))
    assert tree_shape(library, doc) == before and junk.left == 2
    assert junk.sentence().startswith("Finer tree: left as it was (the model's reply held no")
    fake_openai.script(Reply(text="{}", delay=3))
    slow = expand_document(library, doc, client(fake_openai.url, timeout=0.5))
    assert tree_shape(library, doc) == before and slow.left == 2 and "time" in slow.reason.lower()
    assert slow.sentence().count("\n") == 0 and "left as it was" in slow.sentence()
    fake_openai.script(error(500, "down"))
    assert expand_document(library, doc, client(fake_openai.url)).left == 2
    assert tree_shape(library, doc) == before
    fake_openai.policy = proposing()  # nothing bad was cached: the next run asks and succeeds
    assert expand_document(library, doc, client(fake_openai.url)).expanded == 1


def test_a_reindex_makes_no_call(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = add_document(library, "Canal Board", page_texts(), nodes())
    fake_openai.policy = proposing()
    expand_document(library, doc, client(fake_openai.url))
    expanded = tree_shape(library, doc)
    calls = len(fake_openai.chat_requests())
    data = [PageData(i + 1, str(i + 1), t, 612, 792) for i, t in enumerate(page_texts())]
    library.save_index(doc, title="Canal Board", pages=data, outline=Outline("layout", nodes()))  # a re-index
    again = expand_document(library, doc, client(fake_openai.url))
    assert len(fake_openai.chat_requests()) == calls and again.calls == 0 and again.cached == 2
    assert tree_shape(library, doc) == expanded
    assert expand_document(library, doc, client(fake_openai.url)).calls == 0  # model children are not re-asked


def test_a_split_no_cheaper_than_reading_is_not_kept(fake_openai: FakeOpenAI, library: Library) -> None:
    pages = page_texts()
    pages[11] = pages[11].replace("2 Operations\n", "2 Operations\nOverview\n")  # 12-23: nearly all of it
    pages[23] = "Annex\n" + pages[23]  # the last page alone
    doc = add_document(library, "Canal Board", pages, nodes())
    fake_openai.script(text(json.dumps({"sections": {"0003": [{"title": "Overview", "page": 12},
                                                              {"title": "Annex", "page": 24}],
                                                     "0002": [{"title": "Irrigation", "page": 4}]}})))
    report = expand_document(library, doc, client(fake_openai.url))
    assert report.expanded == 0 and report.kept_whole == 1 and report.rejected == 1  # not printed on page 4
    assert [len(n.children) for n in library.tree(doc)] == [0, 0, 0]
    assert "1 kept whole as cheaper to read" in report.sentence()


def test_children_on_the_same_pages_are_merged(fake_openai: FakeOpenAI, library: Library) -> None:
    pages = page_texts()
    pages[12] = "Water Rights\nLicences\n" + FILLER  # two headings opening page 13 and only it
    pages[13] = "Permits\n" + FILLER
    doc = add_document(library, "Canal Board", pages, nodes())
    proposal = [{"title": "Water Rights", "page": 13}, {"title": "Licences", "page": 13},
                {"title": "Permits", "page": 14}, {"title": "Irrigation Schedules", "page": 17},
                {"title": "Drainage and Pumping", "page": 21}]
    fake_openai.script(text(json.dumps({"sections": {"0003": proposal, "0002": []}})))
    expand_document(library, doc, client(fake_openai.url))
    children = [(c.title, c.start_page, c.end_page) for c in library.tree(doc)[2].children]
    assert children == [("Water Rights", 13, 13), ("Permits", 14, 16), ("Irrigation Schedules", 17, 20),
                        ("Drainage and Pumping", 21, 24)]


def plain_pdf(path: Any, pages: list[list[str]]) -> Any:
    """A PDF whose every line is the same 10 pt font: no bookmarks, contents or layout headings to find."""
    import pymupdf

    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        for index, line in enumerate(lines):
            page.insert_text((72, 72 + 14 * index), line, fontsize=10)
    doc.save(str(path))
    doc.close()
    return path


def test_a_document_without_structure_gets_a_checked_model_tree(fake_openai: FakeOpenAI, library: Library,
                                                               tmp_path: Any) -> None:
    from pageindex_desktop.core.ingest.indexer import import_pdf, reindex

    body = [f"The survey of the northern district recorded soil sample {i} in good order." for i in range(20)]
    spec = [["Soil Survey Results", *body], body, ["Methods of Sampling", *body], body, body,
            ["Findings by District", *body], body, body]
    result = import_pdf(library, plain_pdf(tmp_path / "survey.pdf", spec))
    record = library.get(result.doc_id)
    assert record is not None and record.outline_source == "pages"
    proposed = [{"title": "Soil Survey Results", "page": 1, "level": 1},
                {"title": "Methods of Sampling", "page": 3, "level": 2},
                {"title": "Appendix on Rainfall", "page": 4, "level": 2},  # printed nowhere
                {"title": "Findings by District", "page": 5, "level": 1},  # printed on page 6
                {"title": "Findings by District", "page": 6, "level": 1},
                {"title": "Methods of Sampling", "page": 2, "level": 2}]  # goes back
    fake_openai.policy = lambda body: text(json.dumps({"headings": proposed}))
    report = expand_document(library, result.doc_id, client(fake_openai.url))
    assert report.model_tree == 3 and report.rejected == 3 and report.calls == 1
    assert report.sentence().startswith("Finer tree: the model found 3 checked headings")
    record = library.get(result.doc_id)
    assert record is not None and record.outline_source == "model"
    assert tree_shape(library, result.doc_id) == [("Soil Survey Results", 1, 5, "model"),
                                                  ("Methods of Sampling", 3, 5, "model"),
                                                  ("Findings by District", 6, 8, "model")]
    assert all(n.verified for n in walk(library.tree(result.doc_id)))
    assert "--- page 8 ---" in fake_openai.chat_requests()[0]["messages"][-1]["content"]
    reindex(library, result.doc_id)  # back to page groups; the cached answer rebuilds the tree with no call
    assert library.get(result.doc_id).outline_source == "pages"  # type: ignore[union-attr]
    again = expand_document(library, result.doc_id, client(fake_openai.url))
    assert again.calls == 0 and len(fake_openai.chat_requests()) == 1 and again.model_tree == 3
    assert library.get(result.doc_id).outline_source == "model"  # type: ignore[union-attr]


def test_a_failing_model_leaves_the_page_groups(fake_openai: FakeOpenAI, library: Library, tmp_path: Any) -> None:
    from pageindex_desktop.core.ingest.indexer import import_pdf

    body = [f"Line {i} of the ledger, entered by the clerk in the usual hand." for i in range(20)]
    result = import_pdf(library, plain_pdf(tmp_path / "ledger.pdf", [body] * 6))
    before = tree_shape(library, result.doc_id)
    fake_openai.script(text("I could not find any headings, sorry!"))
    report = expand_document(library, result.doc_id, client(fake_openai.url))
    assert tree_shape(library, result.doc_id) == before and report.left == 1
    assert report.sentence().startswith("Finer tree: left as it was (the model's reply held no headings")
    fake_openai.script(text(json.dumps({"headings": [{"title": "Accounts Payable", "page": 1}]})))  # unprinted
    report = expand_document(library, result.doc_id, client(fake_openai.url))
    assert tree_shape(library, result.doc_id) == before and report.rejected == 1 and report.model_tree == 0
    assert library.get(result.doc_id).outline_source == "pages"  # type: ignore[union-attr]


def test_cli_expand_tree_json_and_show(fake_openai: FakeOpenAI, home: Any) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    with Library(home) as library:
        doc = add_document(library, "Canal Board", page_texts(), nodes())
    fake_openai.policy = proposing()

    def cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PAGEINDEX_DESKTOP_HOME": str(home), "OPENAI_BASE_URL": url,
               "PAGEINDEX_CHAT_MODEL": "cli-model", "OPENAI_API_KEY": "sk-test", "PYTHONPATH": str(root)}
        return subprocess.run([sys.executable, "-m", "pageindex_desktop.cli", *args], env=env, capture_output=True,
                              text=True, timeout=60, cwd=root)

    broken = cli("http://127.0.0.1:9/v1", "expand", "Canal")
    assert broken.returncode == 0, broken.stderr
    assert broken.stdout.count("\n") == 1 and "left as it was (" in broken.stdout
    done = cli(fake_openai.url, "expand", "Canal")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{doc}: Finer tree: 1 of 2 long sections split (3 headings added")
    tree = json.loads(cli(fake_openai.url, "tree", doc, "--json").stdout)
    operations = tree["nodes"][2]
    assert operations["source"] == "" and [c["source"] for c in operations["children"]] == ["model"] * 3
    assert "Water Rights  [p. 13–16]  (model)" in cli(fake_openai.url, "tree", doc).stdout
    assert "model:   expand 2 calls" in cli(fake_openai.url, "show", doc).stdout  # the refused one counts


def test_a_cancel_between_calls_keeps_what_was_done(fake_openai: FakeOpenAI, library: Library) -> None:
    import threading

    from pageindex_desktop.core.assistant import expand

    doc = add_document(library, "Canal Board", page_texts(), nodes())
    stop = threading.Event()
    seen: list[tuple[int, int]] = []
    answer = proposing()

    def policy(body: dict[str, Any]) -> Reply:
        stop.set()  # the reader presses Stop while the first call is out
        return answer(body)  # type: ignore[no-any-return]

    fake_openai.policy = policy
    old = expand.BATCH_CHARS
    expand.BATCH_CHARS = 2000  # one section per call
    try:
        report = expand_document(library, doc, client(fake_openai.url), cancel=stop,
                                 progress=lambda done, total: seen.append((done, total)))
        assert len(fake_openai.chat_requests()) == 1 and report.left == 1 and report.reason == "stopped"
        assert seen == [(0, 2), (1, 2)]
        assert report.sentence().startswith("Finer tree: left as it was (stopped)")  # 0002 had nothing to split
        fake_openai.policy = answer
        again = expand_document(library, doc, client(fake_openai.url))  # asks only for the section not reached
    finally:
        expand.BATCH_CHARS = old
    assert again.calls == 1 and again.cached == 1 and again.expanded == 1
