"""Tokens sent to the model per question, against sending the whole document (the baseline, counted in this run).

A scripted reader drives the real agent loop through the fake server as a careful reader would: it reads the
structure, takes the best-matching section (paging through a wide outline and expanding a section whose line
does not match yet), falls back to exact-term search when no section matches, reads at most three pages and
answers with a citation. The prompt tokens of every request (as the model would count them) are summed per
question and compared with the tokens of the whole document's text.

Three documents: a 408-page rule from the corpus; a ~1,200-page filing binder (the corpus's filings bundled, each
under its own bookmark); a ~2,400-page API reference whose packages hold 154-429 one-page entries (built from
corpus words). Targets, for every question: the document is >= 40x the tokens sent at ~400 pages and >= 100x at
1,000 pages and more (PageIndex reports 16.6x at 420 pages); every section of the reference can be reached
through the tools.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -m bench -s tests/bench/bench_agent_tokens.py
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rapidfuzz import fuzz

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from fake_openai import FakeOpenAI, Reply, text, tool  # noqa: E402

from pageindex_desktop.core.assistant.agent import Agent  # noqa: E402
from pageindex_desktop.core.assistant.events import Finished  # noqa: E402
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient  # noqa: E402
from pageindex_desktop.core.outline.tree import Node, walk  # noqa: E402
from pageindex_desktop.core.library.store import Library  # noqa: E402
from pageindex_desktop.core.tokens import count_tokens  # noqa: E402
from pageindex_desktop.core.assistant.tools import ToolBox  # noqa: E402

QUESTIONS_PER_DOC = 5
PAGES_READ = 3
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def corpus_file(name: str) -> Path:
    """A corpus PDF; the bench is skipped when the corpus is not beside the checkout."""
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus file {name} not available")
    return path


_LINE = re.compile(r"^\s*\[(?P<id>[^\]]+)\] (?P<title>.+?) p(?P<s>\d+)(?:-(?P<e>\d+))?(?: |$)")


def _import(library: Library, path: Path) -> str:
    """The project's importer when it is available; else pages and bookmarks written straight to the store."""
    try:
        from pageindex_desktop.core.ingest.indexer import import_pdf

        result = import_pdf(library, path)
        if result.status == "ready":
            return result.doc_id
    except Exception as exc:  # noqa: BLE001 - fall back to a direct build below
        print(f"  (indexer unavailable: {type(exc).__name__}; building from bookmarks)")
    return _direct(library, path)


def _direct(library: Library, path: Path) -> str:
    import pymupdf

    from pageindex_desktop.core.document import PageData
    from pageindex_desktop.core.outline.tree import Outline
    from pageindex_desktop.core.library.store import sha256_of

    with pymupdf.open(path) as pdf:
        pages = [PageData(i + 1, "", page.get_text(), page.rect.width, page.rect.height) for i, page in enumerate(pdf)]
        toc = [(lvl, title.strip(), page) for lvl, title, page in pdf.get_toc() if page >= 1]
    flat: list[Node] = []
    for i, (level, title, page) in enumerate(toc):
        end = len(pages)
        for lvl2, _, page2 in toc[i + 1 :]:
            if lvl2 <= level:
                end = max(page, page2 - 1)
                break
        flat.append(Node(f"{i + 1:04d}", title, level, page, end, True))
    roots: list[Node] = []
    stack: list[Node] = []
    for node in flat:
        while stack and stack[-1].level >= node.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)
    doc = library.add_file(path, sha256_of(path), path.stem)
    library.save_index(doc.doc_id, title=path.stem, pages=pages, outline=Outline("bookmarks", roots))
    return doc.doc_id


def prompt_tokens(body: dict[str, Any]) -> int:
    """Tokens of one request as a chat model counts them: each message's content and tool calls, plus the tools."""
    total = count_tokens(json.dumps(body.get("tools", [])))
    for message in body["messages"]:
        total += 4 + count_tokens(message.get("content") or "")
        if message.get("tool_calls"):
            total += count_tokens(json.dumps(message["tool_calls"]))
    return total


def _lines(outline: str) -> list[re.Match[str]]:
    return [m for m in (_LINE.match(line) for line in outline.splitlines()) if m]


def reader(doc_id: str, question: str, subject: str) -> Any:
    """A scripted reader: structure → the best-matching section (next parts, one expansion) → or search → read at
    most PAGES_READ pages → an answer citing the first page read."""

    def read(start: int, end: int) -> Reply:
        return tool("get_page_content", {"doc": doc_id, "pages": f"{start}-{min(end, start + PAGES_READ - 1)}"})

    def policy(body: dict[str, Any]) -> Reply:
        results = [json.loads(m["content"]) for m in body["messages"] if m["role"] == "tool"]
        if not results:
            return tool("get_document_structure", {"doc": doc_id})
        last = results[-1]["result"]
        if "outline" in last:
            lines = _lines(last["outline"].split("inside it:\n", 1)[-1])
            best = max(lines, key=lambda m: fuzz.token_set_ratio(subject, m["title"]), default=None)
            score = fuzz.token_set_ratio(subject, best["title"]) if best else 0
            if best is not None and score >= 90:
                return read(int(best["s"]), int(best["e"] or best["s"]))
            expanded = [r["result"] for r in results if "outline" in r["result"]]
            node = last["outline"].split("]", 1)[0].lstrip("[") if "inside it:" in last["outline"] else None
            if last["part"] < last["parts"]:
                arguments: dict[str, Any] = {"doc": doc_id, "part": last["part"] + 1}
                if node:
                    arguments["node_id"] = node
                return tool("get_document_structure", arguments)
            if best is not None and "inside]" in best.string and len(expanded) < 12 and score >= 60:
                return tool("get_document_structure", {"doc": doc_id, "node_id": best["id"]})
            return tool("search_document", {"doc": doc_id, "query": subject})
        if "hits" in last:
            if not last["hits"]:
                return text("The document does not say.")
            page = int(last["hits"][0]["page"])
            return read(page, page)
        page = last["pages"][0]
        sentence = " ".join(page["text"].split())[:200]
        return text(f"{sentence} [{last['title']}, p. {page['page']}]")

    return policy


def subjects(library: Library, doc_id: str) -> list[str]:
    """Section titles spread through the document (deep titles, evenly spaced): what the questions ask about."""
    nodes = [n for n in walk(library.tree(doc_id)) if len(n.title) > 6 and not n.children]
    step = max(1, len(nodes) // QUESTIONS_PER_DOC)
    return [n.title for n in nodes[step // 2 :: step][:QUESTIONS_PER_DOC]]


def documents(tmp: Path) -> list[tuple[str, Path, float]]:
    """(label, PDF, the smallest whole-document / sent ratio allowed for every question)."""
    from tests.bench.bench_data import binder_pdf, reference_pdf

    filings = sorted(CORPUS.glob("financebench__*.pdf")) + [corpus_file("2023-annual-report.pdf")]
    return [
        ("rule, 408 pages", corpus_file("Regulation Best Interest_proposed rule.pdf"), 40.0),
        ("filing binder", binder_pdf(tmp / "binder.pdf", filings), 100.0),
        ("API reference", reference_pdf(tmp / "reference.pdf", filings[:4]), 100.0),
    ]


def reachable(box: ToolBox, doc_id: str) -> set[str]:
    """Every node id the tools show, walking the structure's parts and expanding every [+N inside] section."""
    seen: set[str] = set()
    queue: list[str | None] = [None]
    while queue:
        node = queue.pop()
        part, parts = 1, 1
        while part <= parts:
            arguments: dict[str, Any] = {"doc": doc_id, "part": part}
            if node:
                arguments["node_id"] = node
            result = json.loads(box.call("get_document_structure", json.dumps(arguments)))["result"]
            parts = result["parts"]
            for line in _lines(result["outline"].split("inside it:\n", 1)[-1]):
                if line["id"] not in seen:
                    seen.add(line["id"])
                    if "inside]" in line.string:
                        queue.append(line["id"])
            part += 1
    return seen


@pytest.mark.bench
def test_tokens_per_question_vs_whole_document(tmp_path: Path) -> None:
    rows, short = [], []
    with Library(tmp_path / "home") as library, FakeOpenAI() as fake:
        for label, path, goal in documents(tmp_path):
            started = time.monotonic()
            doc_id = _import(library, path)
            doc = library.get(doc_id)
            assert doc is not None
            whole = count_tokens("\n".join(p.text for p in library.pages(doc_id)))
            box = ToolBox(library, frozenset({doc_id}))
            every = {n.node_id for n in walk(library.tree(doc_id))}
            seen = reachable(box, doc_id)
            print(f"\n{label} ({path.name}): {doc.page_count} pages, {whole} tokens, outline {doc.outline_source}, "
                  f"{len(every)} sections, {len(every & seen)} reachable through the tools "
                  f"(built in {time.monotonic() - started:.1f}s)")
            assert every <= seen, f"{len(every - seen)} sections of {label} cannot be reached through the tools"
            ratios = []
            for subject in subjects(library, doc_id):
                question = f"What does the document say about {subject}?"
                fake.policy = reader(doc_id, question, subject)
                before = len(fake.chat_requests())
                agent = Agent(LLMClient(Endpoint(fake.url, "k", "fake-chat", 30)), ToolBox(library, frozenset({doc_id})))
                events = list(agent.run(question))
                assert isinstance(events[-1], Finished), events[-1]
                bodies = fake.chat_requests()[before:]
                sent = sum(prompt_tokens(b) for b in bodies)
                ratios.append(whole / sent)
                verified = sum(c.verified for c in events[-1].citations)
                print(f"  {len(bodies)} calls, {sent:6d} prompt tokens, 1/{whole / sent:6.1f}, "
                      f"citations checked {verified}/{len(events[-1].citations)}  | {subject[:60]}")
                if whole / sent < goal:
                    short.append(f"{label}: 1/{whole / sent:.1f} < 1/{goal:.0f} for {subject!r}")
            mean = sum(ratios) / len(ratios)
            rows.append((label, doc.page_count, whole, min(ratios), mean))
    print("\nsummary (baseline = the whole document's tokens sent once; ratio = whole / sent per question):")
    for label, pages, whole, worst, mean in rows:
        print(f"  {pages:5d} p  {whole:8d} doc tokens  worst 1/{worst:6.1f}  mean 1/{mean:6.1f}  {label}")
    assert not short, "\n".join(short)
