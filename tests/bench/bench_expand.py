"""The finer tree against bookmarks (issue 15): collapse bookmarked corpus trees, expand them with a scripted model.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -m bench tests/bench/bench_expand.py -s

For every corpus PDF whose bookmarks nest (two levels or more; the two junk outlines left out), the app's own
bookmark tree is collapsed to its top level and stored; then `expand_document` runs against the fake server, whose
scripted model answers each section with every bookmark below it (title and page, in page order, flattened) plus
planted false headings: an invented title (printed nowhere), a true sub-heading's title on a page of the section
where it is not printed, the section's own title, and a repeat of its first true sub-heading. The expanded tree is
scored against the full bookmark tree (tree_score: titles matched one-to-one, pages within one) and every planted
heading that entered the tree is counted (goal: none). The figures: F1 of the collapsed tree (before), of the
expanded tree (after), bookmark headings rejected by the checks (their titles are not printed where they point, or
they repeat a sibling) and sections kept whole by the cost rule.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.assistant.expand import expand_document
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE, Node, Outline, walk
from pageindex_desktop.core.outline.verify import is_printed, normalize
from pageindex_desktop.core.library.store import Library
from tests.bench.tree_corpus import JUNK_OUTLINES, documents
from tests.bench.tree_score import Entry, nested, score
from tests.integration.fake_openai import FakeOpenAI, Reply, text

pytestmark = pytest.mark.bench

INVENTED = "Quarterly Synergy Outlook Memorandum"


def entries(roots: list[Node]) -> list[Entry]:
    """A tree's sections (front matter left out) as scored entries."""
    return nested((n.level, n.title, n.start_page) for n in walk(roots) if n.title != FRONT_MATTER_TITLE)


def plant(top: Node, doc: ExtractedDocument) -> list[dict[str, Any]]:
    """The false headings planted into a section's answer, each tagged with what it is."""
    planted: list[dict[str, Any]] = [{"title": f"{INVENTED} {top.start_page}", "page": top.start_page + 1,
                                      "kind": "unprinted"}]
    below = [n for n in walk(top.children)]
    for child in below:  # a true title on a page of the section where it is not printed
        wrong = next((p for p in range(top.start_page, top.end_page + 1)
                      if p != child.start_page and not is_printed(child.title, doc.pages[p - 1])), None)
        if wrong is not None:
            planted.append({"title": child.title, "page": wrong, "kind": "wrong page"})
            break
    planted.append({"title": top.title, "page": top.start_page, "kind": "duplicate"})
    if below:
        planted.append({"title": below[0].title, "page": below[0].start_page, "kind": "duplicate"})
    return planted


def scripted(full: list[Node], doc: ExtractedDocument, planted: dict[str, list[dict[str, Any]]]) -> Any:
    """The model: for each section asked about, its bookmarks below it plus the planted headings."""
    tops = {(n.title, n.start_page): n for n in full}

    def policy(body: dict[str, Any]) -> Reply:
        prompt = body["messages"][-1]["content"]
        out: dict[str, list[dict[str, Any]]] = {}
        for node_id, title, first in re.findall(r"^### id (\S+): (.*) \(pages (\d+)-\d+\)$", prompt, re.M):
            top = tops.get((title, int(first)))
            if top is None:
                out[node_id] = []
                continue
            true = [{"title": n.title, "page": n.start_page} for n in walk(top.children)]
            planted[node_id] = plant(top, doc)
            mixed = sorted(true + [dict(p) for p in planted[node_id]], key=lambda h: h["page"])
            out[node_id] = [{"title": h["title"], "page": h["page"]} for h in mixed]
        return text(json.dumps({"sections": out}))

    return policy


def accepted_planted(roots: list[Node], planted: list[dict[str, Any]], top: Node) -> list[str]:
    """Planted headings that are in the expanded section (as what they were planted as)."""
    section = next((n for n in roots if n.title == top.title and n.start_page == top.start_page), None)
    if section is None:
        return []
    kids = list(walk(section.children))
    found = []
    for fake in planted:
        same = [k for k in kids if normalize(k.title) == normalize(fake["title"])]
        if fake["kind"] == "unprinted" and same:
            found.append(fake["kind"])
        elif fake["kind"] == "wrong page" and any(k.start_page == fake["page"] for k in same):
            found.append(fake["kind"])
        elif fake["kind"] == "duplicate" and (len(same) > 1 or (same and fake["title"] == top.title)):
            found.append(fake["kind"])
    return found


class Reasons(logging.Handler):
    """Counts the checks' reject reasons (from their log records)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        if "heading rejected" in record.msg and record.args:
            self.counts[str(record.args[1])] += 1  # type: ignore[index]


def test_expand_collapsed_bookmark_trees(tmp_path: Path) -> None:
    reasons = Reasons()
    gate = logging.getLogger("pageindex_desktop.core.outline.candidates")
    gate.addHandler(reasons)
    gate.setLevel(logging.INFO)
    rows = []
    planted_total = planted_in = 0
    with FakeOpenAI() as server, Library(tmp_path / "home") as library:
        for name, doc in documents():
            if name in JUNK_OUTLINES:
                continue
            outline = build_outline(doc, use_bookmarks=True)
            full = outline.nodes
            if outline.source != "bookmarks" or not any(n.children for n in full):
                continue
            collapsed = [Node(n.node_id, n.title, 1, n.start_page, n.end_page, n.verified) for n in full]
            raw = tmp_path / f"{name}.src"
            raw.write_bytes(name.encode())
            record = library.add_file(raw, hashlib.sha256(name.encode()).hexdigest(), name, copy=False)
            library.save_index(record.doc_id, title=name, pages=doc.pages, outline=Outline("bookmarks", collapsed))
            planted: dict[str, list[dict[str, Any]]] = {}
            server.policy = scripted(full, doc, planted)
            client = LLMClient(Endpoint(server.url, "k", "bench-model", 30), RetryPolicy(attempts=1))
            report = expand_document(library, record.doc_id, client)
            client.close()
            after = library.tree(record.doc_id)
            truth = entries(full)
            before_score, after_score = score(truth, entries(collapsed)), score(truth, entries(after))
            planted_here = sum(len(v) for v in planted.values())
            leaked: list[str] = []
            by_id = {n.node_id: n for n in collapsed}
            for node_id, fakes in planted.items():
                top = by_id[node_id]
                leaked += accepted_planted(after, fakes, top)
            planted_total += planted_here
            planted_in += len(leaked)
            tops = {(n.title, n.start_page): n for n in full}
            true_proposed = sum(len(list(walk(tops[(by_id[i].title, by_id[i].start_page)].children)))
                                for i in planted)
            rows.append((name, len(truth), before_score.f1, after_score.f1, report.long_leaves, report.expanded,
                         report.kept_whole, report.rejected - planted_here + len(leaked), true_proposed,
                         planted_here, leaked))
    print()
    print(f"{'document':48} {'truth':>5} {'F1 before':>9} {'F1 after':>8} {'long':>4} {'split':>5} {'whole':>5} "
          f"{'true rej':>8} {'planted':>7} leaked")
    for name, truth_n, before, after, long_n, split, whole, true_rej, true_n, planted_n, leaked in rows:
        print(f"{name[:48]:48} {truth_n:5d} {before:9.3f} {after:8.3f} {long_n:4d} {split:5d} {whole:5d} "
              f"{true_rej:4d}/{true_n:<4d} {planted_n:7d} {','.join(leaked) or '-'}")
    mean_before = sum(r[2] for r in rows) / len(rows)
    mean_after = sum(r[3] for r in rows) / len(rows)
    print(f"{len(rows)} documents: mean F1 {mean_before:.3f} collapsed -> {mean_after:.3f} expanded; planted "
          f"headings rejected {planted_total - planted_in} of {planted_total}")
    print("reject reasons, planted and true together:", dict(reasons.counts))
    gate.removeHandler(reasons)
    assert rows and planted_in == 0
