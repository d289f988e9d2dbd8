"""The headless ask: design §9's JSON from the fake model, and search results when no model is configured."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_openai import FakeOpenAI, error, text, tool
from libdata import add_document, annual_report

from pageindex_desktop.core.assistant.ask import ask
from pageindex_desktop.core.assistant.llm import RetryPolicy
from pageindex_desktop.core.assistant.llm_errors import WrongApiKey
from pageindex_desktop.core.outline.tree import Node
from pageindex_desktop.core.assistant.settings import ModelSettings
from pageindex_desktop.core.library.store import Library


@pytest.fixture
def library(home: Path, monkeypatch: pytest.MonkeyPatch) -> Library:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PAGEINDEX_CHAT_MODEL"):
        monkeypatch.delenv(name, raising=False)
    lib = Library(home)
    yield lib
    lib.close()


def test_ask_returns_the_contract_json(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(
        tool("search_document", {"doc": doc, "query": "net income"}),
        tool("get_page_content", {"doc": doc, "pages": "12"}),
        text("Net income was $1,234 million in 2023 [Annual Report 2023, p. 12]."),
    )
    settings = ModelSettings(provider="custom", base_url=fake_openai.url, chat_model="fake-chat")
    out = ask(library, "What was net income?", [doc], settings)
    assert set(out) == {"answer", "citations", "uncited", "judge_note", "grounded", "search_results", "tool_calls",
                        "usage"}
    assert out["grounded"] is True and out["search_results"] == []
    cite = out["citations"][0]
    assert len(out["citations"]) == 1 and out["uncited"] == []
    assert {k: cite[k] for k in ("document", "doc_id", "page", "verified", "verdict", "reason")} == {
        "document": "Annual Report 2023", "doc_id": doc, "page": 12, "verified": True, "verdict": "checked",
        "reason": ""}
    assert "Net income" in cite["passage"] and cite["claim"] == "Net income was $1,234 million in 2023"
    assert out["tool_calls"] == [{"name": "search_document", "arguments": {"doc": doc, "query": "net income"}},
                                 {"name": "get_page_content", "arguments": {"doc": doc, "pages": "12"}}]
    assert {"prompt_tokens", "completion_tokens"} <= set(out["usage"]) and out["usage"]["prompt_tokens"] > 0
    assert fake_openai.chat_requests()[0]["model"] == "fake-chat"


def test_env_chooses_the_endpoint_and_failures_raise_typed_errors(fake_openai: FakeOpenAI, library: Library,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    annual_report(library)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.url)
    monkeypatch.setenv("PAGEINDEX_CHAT_MODEL", "env-model")
    fake_openai.script(error(401, "bad key"))
    with pytest.raises(WrongApiKey):
        ask(library, "q?", retry=RetryPolicy(scale=0.01))
    assert fake_openai.chat_requests()[0]["model"] == "env-model"


def test_without_a_model_the_answer_is_labelled_search_results(library: Library) -> None:
    doc = annual_report(library)
    add_document(library, "Other", ["net income elsewhere"], [Node("0001", "Other", 1, 1, 1)])
    out = ask(library, "net income", [doc])
    assert out["answer"].startswith("No model is configured") and "search results" in out["answer"]
    assert [(c["doc_id"], c["page"], c["verified"]) for c in out["citations"]] == [(doc, 12, False)]
    assert out["citations"][0]["reason"].startswith("search result")
    assert out["tool_calls"] == [{"name": "search_document", "arguments": {"query": "net income"}}]
    assert out["usage"] == {"prompt_tokens": 0, "completion_tokens": 0}
