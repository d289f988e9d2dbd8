"""How an endpoint takes tools is found (by the probe or by a refusal mid-chat) and remembered per endpoint and
model, so the next chat starts in the mode that works."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI, Reply, error, text, tool
from libdata import annual_report

from pageindex_desktop.core.assistant.agent import Agent
from pageindex_desktop.core.assistant.endpoint_modes import (
    ToolSupport,
    client_for,
    connection_report,
    modes_path,
    probe_tools,
    remembered,
)
from pageindex_desktop.core.assistant.events import Finished
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.assistant.tools import ToolBox

ANSWER = "Net income rose to $1,234 million in 2023 [Annual Report 2023, p. 12]."


def endpoint(fake: FakeOpenAI, model: str = "fake-chat") -> Endpoint:
    return Endpoint(fake.url, "sk-test", model, timeout=10)


@pytest.mark.parametrize("reply, expected", [
    (tool("get_current_page", {}), ToolSupport("native", "native")),
    (text('```json\n{"name": "get_current_page", "arguments": {}}\n```'), ToolSupport("native", "text")),
    (error(400, "tools param requires --jinja flag"), ToolSupport("prompt", "refused")),
    (text("You are on page 1."), ToolSupport("prompt", "ignored")),
])
def test_the_probe_tells_how_the_model_takes_tools(fake_openai: FakeOpenAI, reply: Reply,
                                                   expected: ToolSupport) -> None:
    fake_openai.script(reply)
    with LLMClient(endpoint(fake_openai), RetryPolicy(attempts=1)) as client:
        assert probe_tools(client) == expected
    sent = fake_openai.chat_requests()[0]
    assert [t["function"]["name"] for t in sent["tools"]] == ["get_current_page"] and sent["max_tokens"] == 60


def test_test_connection_remembers_the_mode_per_endpoint_and_model(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    fake_openai.script(error(400, "This model does not support tools."))
    with LLMClient(endpoint(fake_openai), RetryPolicy(attempts=1)) as client:
        report = connection_report(client, tmp_path)
    assert report.models == ["fake-chat", "fake-index"] and report.tools == ToolSupport("prompt", "refused")
    assert remembered(tmp_path, endpoint(fake_openai)) == ToolSupport("prompt", "refused")
    assert remembered(tmp_path, endpoint(fake_openai, "fake-index")) is None  # another model: not known yet
    with LLMClient(endpoint(fake_openai, "unlisted"), RetryPolicy(attempts=1)) as client:
        assert connection_report(client, tmp_path).tools is None  # a model the endpoint does not list: no probe
    assert len(fake_openai.chat_requests()) == 1


def test_a_refusal_mid_chat_is_remembered_and_the_next_chat_starts_in_prompt_mode(fake_openai: FakeOpenAI,
                                                                                   library: Library,
                                                                                   tmp_path: Path) -> None:
    doc = annual_report(library)
    call = json.dumps({"name": "get_page_content", "arguments": {"doc": doc, "pages": "12"}})
    fake_openai.script(error(400, "This model does not support tools."), text(f"<tool_call>{call}</tool_call>"),
                       text(ANSWER))
    with client_for(endpoint(fake_openai), tmp_path, RetryPolicy(attempts=1)) as client:
        last = list(Agent(client, ToolBox(library, frozenset({doc})), "fake-chat").run("What was net income?"))[-1]
    assert isinstance(last, Finished) and last.grounded
    assert remembered(tmp_path, endpoint(fake_openai)) == ToolSupport("prompt", "refused")
    fake_openai.requests.clear()
    fake_openai.script(text(f"<tool_call>{call}</tool_call>"), text(ANSWER))
    with client_for(endpoint(fake_openai), tmp_path, RetryPolicy(attempts=1)) as client:
        assert client.tools_mode == "prompt"
        last = list(Agent(client, ToolBox(library, frozenset({doc})), "fake-chat").run("What was net income?"))[-1]
    assert isinstance(last, Finished)
    assert all("tools" not in r for r in fake_openai.chat_requests())  # no second refusal to pay


def test_a_damaged_modes_file_means_not_known_yet(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    modes_path(tmp_path).write_text("{not json", encoding="utf-8")
    assert remembered(tmp_path, endpoint(fake_openai)) is None
    with client_for(endpoint(fake_openai), tmp_path) as client:
        assert client.tools_mode == "native"
