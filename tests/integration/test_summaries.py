"""Summaries against the fake server: batched calls, content-hash cache, junk replies and failures degrade."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, Reply, error, text
from libdata import add_document

from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.outline.tree import Node, walk
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.assistant.summaries import parse_json_reply, summarize_document


def long_doc(library: Library, chapters: int = 8) -> str:
    """`chapters` chapters of 4 pages, each with 3 sections; one short section per chapter."""
    pages, nodes = [], []
    for c in range(chapters):
        first = c * 4 + 1
        for p in range(4):
            pages.append(f"Chapter {c + 1} page {p + 1}. " + " ".join(f"word{c}x{p}x{i}" for i in range(220)))
        kids = [Node(f"{c:02d}{k}", f"Section {c + 1}.{k}", 2, first + k, first + k + (1 if k < 2 else 0), True)
                for k in range(3)]
        nodes.append(Node(f"{c:02d}", f"Chapter {c + 1}", 1, first, first + 3, True, "", kids))
    pages[3] = "Tiny closing note."  # section x.2 of chapter 1 spans pages 3-4: long; make a short leaf below
    nodes[0].children[2] = Node("002", "Note", 2, 4, 4, True)
    return add_document(library, "Handbook", pages, nodes)


def summarizer(body: dict[str, Any]) -> Reply:
    prompt = body["messages"][-1]["content"]
    ids = re.findall(r"### id (\S+):", prompt)
    data: dict[str, Any] = {"summaries": {i: f"Summary of {i}." for i in ids}}
    if '"description"' in prompt:
        data["description"] = "A handbook of numbered chapters."
    return text("Here you go:\n```json\n" + json.dumps(data) + "\n```")


def client(url: str) -> LLMClient:
    return LLMClient(Endpoint(url, "k", "fake-index", 5), RetryPolicy(attempts=2, scale=0.01))


def test_batched_cached_and_short_leaves_keep_their_text(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = long_doc(library)
    fake_openai.policy = summarizer
    report = summarize_document(library, doc, client(fake_openai.url), workers=3)
    nodes = list(walk(library.tree(doc)))
    assert report.nodes == len(nodes) == 32 and report.failed_batches == 0
    assert report.calls == len(fake_openai.chat_requests()) <= len(nodes) / 5
    by_id = {n.node_id: n.summary for n in nodes}
    assert by_id["002"] == "Tiny closing note." and report.own_text >= 1
    assert by_id["03"] == "Summary of 03." and by_id["071"] == "Summary of 071."
    assert library.get(doc).description == "A handbook of numbered chapters."  # type: ignore[union-attr]
    again = summarize_document(library, doc, client(fake_openai.url))
    assert again.calls == 0 and again.cached == report.nodes - report.own_text
    assert len(fake_openai.chat_requests()) == report.calls  # re-import costs no call


def test_a_failing_model_falls_back_to_excerpts_and_never_raises(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = long_doc(library, chapters=3)
    fake_openai.policy = lambda body: error(500, "down")
    report = summarize_document(library, doc, client(fake_openai.url))
    assert report.calls == 1 and report.failed_batches >= 1  # a model that is down costs one retry cycle
    nodes = {n.node_id: n.summary for n in walk(library.tree(doc))}
    assert nodes["01"].startswith("Chapter 2 page 1.") and nodes["01"].endswith("…")
    assert library.get(doc).description == ""  # type: ignore[union-attr]
    fake_openai.policy = summarizer  # nothing bad was cached: the next run asks again and succeeds
    assert summarize_document(library, doc, client(fake_openai.url)).calls >= 1
    assert next(walk(library.tree(doc))).summary == "Summary of 00."


def test_junk_replies_are_read_as_far_as_possible() -> None:
    assert parse_json_reply('Sure! {"summaries": {"0001": "Alpha."}}') == {"summaries": {"0001": "Alpha."}}
    broken = parse_json_reply('{"summaries": {"0001": "Alpha.", "0002": "Beta', )
    assert broken["summaries"] == {"0001": "Alpha."}
    assert parse_json_reply("no json at all") == {"summaries": {}}


def test_summarize_with_settings_uses_the_index_model_or_does_nothing(fake_openai: FakeOpenAI, library: Library,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from pageindex_desktop.core.assistant.settings import ModelSettings
    from pageindex_desktop.core.assistant.summaries import summarize_with_settings

    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PAGEINDEX_CHAT_MODEL"):
        monkeypatch.delenv(name, raising=False)
    doc = long_doc(library, chapters=2)
    assert summarize_with_settings(library, doc, ModelSettings()) is None  # no model: the tree stays as it is
    fake_openai.policy = summarizer
    chosen = ModelSettings(provider="custom", base_url=fake_openai.url, chat_model="big", index_model="small")
    report = summarize_with_settings(library, doc, chosen)
    assert report is not None and report.calls >= 1
    assert {r["model"] for r in fake_openai.chat_requests()} == {"small"}


def test_each_summary_says_where_it_came_from_and_the_report_says_what_fell_back(fake_openai: FakeOpenAI,
                                                                                  library: Library) -> None:
    doc = long_doc(library, chapters=3)
    answered = [0]

    def half(body: dict[str, Any]) -> Reply:  # the first batch is answered, the next ones are refused
        answered[0] += 1
        return summarizer(body) if answered[0] == 1 else error(500, "overloaded")

    fake_openai.policy = half
    report = summarize_document(library, doc, client(fake_openai.url), batch_size=4, workers=1)
    nodes = list(walk(library.tree(doc)))
    sources = {n.node_id: n.summary_source for n in nodes}
    assert sources["002"] == "text" and set(sources.values()) == {"text", "model", "excerpt"}
    assert report.written == sum(1 for s in sources.values() if s == "model") == 4
    assert report.fell_back == sum(1 for s in sources.values() if s == "excerpt") > 0
    sentence = report.sentence()
    assert sentence.startswith(f"Summaries: 4 of {report.written + report.fell_back} written by the model")
    assert "fell back to page excerpts (the model server had an internal error" in sentence
    assert nodes[0].to_dict()["summary_source"] in {"model", "excerpt"}


def test_a_slow_first_batch_makes_the_rest_go_one_at_a_time_with_more_time(fake_openai: FakeOpenAI,
                                                                          library: Library) -> None:
    doc = long_doc(library, chapters=3)
    active: list[int] = []
    overlapped = [False]

    def slow(body: dict[str, Any]) -> Reply:  # a local server with one slot: 0.6 s a batch
        active.append(1)
        overlapped[0] = overlapped[0] or len(active) > 1
        import time

        time.sleep(0.6)
        active.pop()
        return summarizer(body)

    fake_openai.policy = slow
    slow_client = LLMClient(Endpoint(fake_openai.url, "k", "fake-index", 1.0), RetryPolicy(attempts=1))
    report = summarize_document(library, doc, slow_client, batch_size=3, workers=4)
    assert report.calls >= 3 and report.fell_back == 0  # 0.6 s batches fit although the timeout is 1 s
    assert not overlapped[0]  # after the slow first batch, one at a time


def test_a_stopped_run_keeps_what_it_wrote_and_the_next_asks_only_for_the_rest(fake_openai: FakeOpenAI,
                                                                               library: Library) -> None:
    import threading

    doc = long_doc(library)
    stop = threading.Event()

    def stop_after_the_first_batch(body: dict[str, Any]) -> Reply:
        stop.set()  # the user pressed Stop while the first batch was being answered
        return summarizer(body)

    fake_openai.policy = stop_after_the_first_batch
    first = summarize_document(library, doc, client(fake_openai.url), batch_size=5, workers=1, cancel=stop)
    asked_first = len(fake_openai.chat_requests())
    written, wanted = library.unfinished_summaries()[doc]
    assert first.left > 0 and first.written == written == 5 and wanted == first.written + first.left
    assert "not yet (stopped; summarize again to finish)" in first.sentence()
    fake_openai.policy = summarizer
    second = summarize_document(library, doc, client(fake_openai.url), batch_size=5, workers=1)
    assert second.cached == 5 and second.left == 0 and second.written == wanted
    assert len(fake_openai.chat_requests()) - asked_first == second.calls == -(-(wanted - 5) // 5)
    assert library.unfinished_summaries() == {}


def test_summaries_killed_mid_run_resume_from_the_cli(fake_openai: FakeOpenAI, home: Path) -> None:
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parents[2]
    with Library(home) as library:
        doc = long_doc(library)
    served = []

    def slow_after_two(body: dict[str, Any]) -> Reply:
        served.append(1)
        reply = summarizer(body)
        if len(served) > 2:
            reply.delay = 30  # the third batch hangs: the kill lands in the middle of the run
        return reply

    fake_openai.policy = slow_after_two
    env = {**os.environ, "PAGEINDEX_DESKTOP_HOME": str(home), "OPENAI_BASE_URL": fake_openai.url,
           "PAGEINDEX_CHAT_MODEL": "m", "OPENAI_API_KEY": "sk-test", "PYTHONPATH": str(root)}
    command = [sys.executable, "-m", "pageindex_desktop.cli", "summarize", doc]
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(served) < 3 and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.05)  # waiting on a condition (the third request arrived), not a fixed sleep
    assert len(served) >= 3, child.communicate()
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=30)  # reaps it and closes its pipes (wait() left them to the garbage collector)
    with sqlite3.connect(home / "library.sqlite3") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with Library(home) as library:
        unfinished = library.unfinished_summaries()
        assert doc in unfinished and 0 < unfinished[doc][0] < unfinished[doc][1]
    listed = subprocess.run([sys.executable, "-m", "pageindex_desktop.cli", "list"], env=env, capture_output=True,
                            text=True, timeout=60)
    assert "[summaries: {} of {}]".format(*unfinished[doc]) in listed.stdout
    fake_openai.policy = summarizer
    before = len(fake_openai.chat_requests())
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"Summaries: {unfinished[doc][1]} of {unfinished[doc][1]} written by the model" in again.stdout
    with Library(home) as library:
        assert library.unfinished_summaries() == {}
    total_batches = -(-unfinished[doc][1] // 10)
    assert len(fake_openai.chat_requests()) - before < total_batches  # what was written is not asked for again
