"""Summary model calls per imported document against its node count (target: calls <= nodes / 5).

PageIndex makes roughly one call per node (179 calls for the 222-page annual report). The fake server answers
every batch; the second run shows the content-hash cache (re-importing costs no call).

Run: QT_QPA_PLATFORM=offscreen /tmp/venv/bin/python -m pytest -q -m bench -s tests/bench/bench_summary_calls.py
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_agent_tokens import _import, corpus_file  # noqa: E402
from fake_openai import FakeOpenAI, Reply, text  # noqa: E402

from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient  # noqa: E402
from pageindex_desktop.core.outline.tree import walk  # noqa: E402
from pageindex_desktop.core.library.store import Library  # noqa: E402
from pageindex_desktop.core.assistant.summaries import summarize_document  # noqa: E402

DOCS = ["2023-annual-report.pdf", "Regulation Best Interest_proposed rule.pdf", "pdfjs__freeculture.pdf",
        "pdfplumber__chelsea_pdta.pdf", "py-pdf__GeoTopo-komprimiert.pdf"]


def summarizer(body: dict[str, Any]) -> Reply:
    prompt = body["messages"][-1]["content"]
    data: dict[str, Any] = {"summaries": {i: f"Summary of {i}." for i in re.findall(r"### id (\S+):", prompt)}}
    if '"description"' in prompt:
        data["description"] = "One sentence."
    return text(json.dumps(data))


@pytest.mark.bench
def test_summary_calls_per_document(tmp_path: Path) -> None:
    rows = []
    with Library(tmp_path / "home") as library, FakeOpenAI() as fake:
        fake.policy = summarizer
        client = LLMClient(Endpoint(fake.url, "k", "fake-index", 30))
        for name in DOCS:
            doc_id = _import(library, corpus_file(name))
            nodes = len(list(walk(library.tree(doc_id))))
            started = time.monotonic()
            first = summarize_document(library, doc_id, client)
            again = summarize_document(library, doc_id, client)
            rows.append((name, nodes, first.calls, first.own_text, again.calls))
            print(f"\n{name}: {nodes} nodes, {first.calls} calls (baseline one per node: {nodes}), "
                  f"{first.own_text} short leaves kept their text, re-run {again.calls} calls, "
                  f"{time.monotonic() - started:.1f}s")
    for name, nodes, calls, _, again in rows:
        assert calls <= max(1, nodes / 5), name
        assert again == 0, name
