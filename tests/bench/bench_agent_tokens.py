"""Tokens sent to the model per question, against sending the whole document (the baseline, counted in this run).

A scripted reader drives the real agent loop through the fake server: it reads the structure, picks the
best-matching section for the question, reads that section's opening pages and answers with a citation. The
prompt tokens of every request (as the model would count them) are summed per question and compared with the
tokens of the whole document's text. Target: the whole document is >= 40x the tokens sent at ~400 pages
(PageIndex reports 16.6x at 420 pages).

Run: QT_QPA_PLATFORM=offscreen /tmp/venv/bin/python -m pytest -q -m bench -s tests/bench/bench_agent_tokens.py
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

from pageindex_desktop.core.agent import Agent  # noqa: E402
from pageindex_desktop.core.events import Finished  # noqa: E402
from pageindex_desktop.core.llm import Endpoint, LLMClient  # noqa: E402
from pageindex_desktop.core.outline.tree import Node, walk  # noqa: E402
from pageindex_desktop.core.store import Library  # noqa: E402
from pageindex_desktop.core.tokens import count_tokens  # noqa: E402
from pageindex_desktop.core.tools import ToolBox  # noqa: E402

DOCS = ["2023-annual-report.pdf", "Regulation Best Interest_proposed rule.pdf", "pdfjs__freeculture.pdf"]
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
        from pageindex_desktop.core.indexer import import_pdf

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
    from pageindex_desktop.core.store import sha256_of

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


def reader(doc_id: str, question: str) -> Any:
    """A scripted reader: structure → the best-matching section's opening pages → an answer citing them."""

    def policy(body: dict[str, Any]) -> Reply:
        tools = [json.loads(m["content"]) for m in body["messages"] if m["role"] == "tool"]
        if not tools:
            return tool("get_document_structure", {"doc": doc_id})
        last = tools[-1]["result"]
        if "outline" in last:
            best = max(
                (m for m in (_LINE.match(l) for l in last["outline"].splitlines()) if m),
                key=lambda m: fuzz.token_set_ratio(question, m["title"]),
            )
            start = int(best["s"])
            end = min(int(best["e"] or start), start + PAGES_READ - 1)
            return tool("get_page_content", {"doc": doc_id, "pages": f"{start}-{end}"})
        page = last["pages"][0]
        sentence = " ".join(page["text"].split())[:200]
        return text(f"{sentence} [{last['title']}, p. {page['page']}]")

    return policy


def questions(library: Library, doc_id: str) -> list[str]:
    """Questions about sections spread through the document (deepest titles, evenly spaced)."""
    nodes = [n for n in walk(library.tree(doc_id)) if len(n.title) > 6]
    step = max(1, len(nodes) // QUESTIONS_PER_DOC)
    return [f"What does the document say about {n.title}?" for n in nodes[step // 2 :: step][:QUESTIONS_PER_DOC]]


@pytest.mark.bench
def test_tokens_per_question_vs_whole_document(tmp_path: Path) -> None:
    rows = []
    with Library(tmp_path / "home") as library, FakeOpenAI() as fake:
        for name in DOCS:
            path = corpus_file(name)
            started = time.monotonic()
            doc_id = _import(library, path)
            doc = library.get(doc_id)
            assert doc is not None
            whole = count_tokens("\n".join(p.text for p in library.pages(doc_id)))
            print(f"\n{name}: {doc.page_count} pages, {whole} tokens, outline {doc.outline_source} "
                  f"(built in {time.monotonic() - started:.1f}s)")
            sent_per_q = []
            for question in questions(library, doc_id):
                fake.policy = reader(doc_id, question)
                before = len(fake.chat_requests())
                agent = Agent(LLMClient(Endpoint(fake.url, "k", "fake-chat", 30)), ToolBox(library, frozenset({doc_id})))
                events = list(agent.run(question))
                assert isinstance(events[-1], Finished), events[-1]
                bodies = fake.chat_requests()[before:]
                sent = sum(prompt_tokens(b) for b in bodies)
                sent_per_q.append(sent)
                verified = sum(c.verified for c in events[-1].citations)
                print(f"  {len(bodies)} calls, {sent:6d} prompt tokens, 1/{whole / sent:5.1f}, "
                      f"citations checked {verified}/{len(events[-1].citations)}  | {question[:70]}")
            mean = sum(sent_per_q) / len(sent_per_q)
            rows.append((name, doc.page_count, whole, mean))
            print(f"  mean {mean:.0f} prompt tokens per question → whole document / sent = {whole / mean:.1f}x")
    print("\nsummary (baseline = the whole document's tokens sent once):")
    for name, pages, whole, mean in rows:
        print(f"  {pages:4d} p  {whole:7d} doc tokens  {mean:7.0f} sent/question  {whole / mean:6.1f}x  {name}")
    biggest = max(rows, key=lambda r: r[1])
    assert biggest[2] / biggest[3] >= 40, "at ~400 pages the whole document should be >= 40x the tokens sent"
