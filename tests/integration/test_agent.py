"""The agent loop against the fake model server: the happy path, every fault, the turn limit and cancel."""

from __future__ import annotations

import json
import threading
import time

import pytest
from fake_openai import FakeOpenAI, Reply, error, free_port, text, tool
from libdata import annual_report

from pageindex_desktop.core.assistant.agent import Agent
from pageindex_desktop.core.assistant.events import Failed, Finished, TextDelta, ToolCallStarted, ToolResult, Usage
from pageindex_desktop.core.assistant.limits import Limits
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.assistant.tools import ToolBox

FAST = RetryPolicy(attempts=3, base_delay=1.0, scale=0.01)


def make_agent(url: str, library: Library, timeout: float = 5.0, **kw: object) -> Agent:
    client = LLMClient(Endpoint(url, "test-key", "fake-chat", timeout), FAST)
    return Agent(client, ToolBox(library), **kw)  # type: ignore[arg-type]


def run(agent: Agent, question: str = "What was net income in 2023?", cancel: threading.Event | None = None) -> list:
    return list(agent.run(question, cancel=cancel))


def library_state(library: Library) -> tuple:
    tables = ("documents", "pages", "nodes", "chats", "messages")
    return tuple(library.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables)


def test_structure_then_pages_then_a_checked_answer(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(
        tool("get_document_structure", {"doc": doc}),
        tool("get_page_content", {"doc": doc, "pages": "11-12"}),
        text("Net income rose to $1,234 million in 2023, up 12.5% [Annual Report 2023, p. 12]. "
             "Expenses were $610 million [Annual Report 2023, p. 14]."),
    )
    events = run(make_agent(fake_openai.url, library))
    done = events[-1]
    assert isinstance(done, Finished)
    assert [(c.page, c.verified, c.reason) for c in done.citations] == [(12, True, ""), (14, False, "page never read")]
    assert [c["name"] for c in done.tool_calls] == ["get_document_structure", "get_page_content"]
    labels = [e.label for e in events if isinstance(e, ToolCallStarted)]
    assert labels == ["Read the structure of Annual Report 2023", "Read pages 11-12 of Annual Report 2023"]
    assert all(e.ok for e in events if isinstance(e, ToolResult))
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == done.answer
    usages = [e for e in events if isinstance(e, Usage)]
    assert len(usages) == 3 and done.prompt_tokens == usages[-1].total_prompt_tokens > 0
    sent = fake_openai.chat_requests()
    assert len(sent) == 3
    offered = {"get_page_content", "get_document_structure", "search_document"}  # one document: listed in the prompt
    assert all(r["stream"] and {t["function"]["name"] for t in r["tools"]} == offered for r in sent)
    system = sent[0]["messages"][0]["content"]
    assert "[Document title, p. N]" in system and "Annual Report 2023" in system
    outline = [m for m in sent[1]["messages"] if m["role"] == "tool"][0]
    assert "[0003] Income statement p11-14" in json.loads(outline["content"])["result"]["outline"]
    tool_msgs = [m for m in sent[2]["messages"] if m["role"] == "tool"]
    assert "compacted" in tool_msgs[0]["content"]  # the outline was used: the last turn re-sends a stub
    assert "Net income rose to $1,234 million" in tool_msgs[1]["content"]  # the page text reached the model
    assert sent[2]["messages"][-2]["tool_calls"][0]["function"]["name"] == "get_page_content"


@pytest.mark.parametrize(
    ("reply", "needle", "kind"),
    [
        (error(401, "Incorrect API key provided"), "refused the API key", "WrongApiKey"),
        (error(404, "The model `fake-chat` does not exist"), "does not know the model 'fake-chat'", "UnknownModel"),
        (error(500, "boom"), "internal error (500)", "ServerError"),
        (error(400, "registry.ollama.ai/library/gemma:2b does not support tools"), "does not support tool calls",
         "ToolsNotSupported"),
        (error(400, "This model's maximum context length is 8192 tokens", "context_length_exceeded"),
         "too long for the model's context window", "ContextTooLong"),
    ],
)
def test_http_faults_end_in_one_sentence(fake_openai: FakeOpenAI, library: Library, reply: Reply, needle: str,
                                         kind: str) -> None:
    annual_report(library)
    before = library_state(library)
    fake_openai.script(reply, reply, reply)
    events = run(make_agent(fake_openai.url, library))
    assert isinstance(events[-1], Failed) and needle in events[-1].message
    assert type(events[-1].error).__name__ == kind
    assert events[-1].message.count(". ") == 0 and "Traceback" not in events[-1].message
    assert library_state(library) == before
    retried = kind == "ServerError"
    prompted = kind == "ToolsNotSupported"  # tried once more with the tools described in the prompt
    assert len(fake_openai.chat_requests()) == (3 if retried else 2 if prompted else 1)
    if prompted:
        assert "tools" not in fake_openai.chat_requests()[1]


def test_429_is_retried_with_backoff_then_reported(fake_openai: FakeOpenAI, library: Library) -> None:
    annual_report(library)
    fake_openai.script(*[error(429, "Rate limit reached", headers={"Retry-After": "2"})] * 3)
    agent = make_agent(fake_openai.url, library)
    events = run(agent)
    assert isinstance(events[-1], Failed) and "rate limiting" in events[-1].message
    assert len(fake_openai.chat_requests()) == 3
    assert agent.client.waited == [pytest.approx(0.02), pytest.approx(0.02)]  # Retry-After honoured (scaled)


def test_429_then_success_answers(fake_openai: FakeOpenAI, library: Library) -> None:
    annual_report(library)
    # nothing was read before the first answer: a reminder, then the assistant's own search, then the answer
    fake_openai.script(error(429, "slow down"), *[text("The documents do not say.")] * 3)
    agent = make_agent(fake_openai.url, library)
    events = run(agent)
    assert isinstance(events[-1], Finished) and events[-1].answer == "The documents do not say."
    assert len(agent.client.waited) == 1 and 0.005 <= agent.client.waited[0] <= 0.01  # jittered 0.5-1.0 × base


def test_timeout(fake_openai: FakeOpenAI, library: Library) -> None:
    annual_report(library)
    fake_openai.script(*[text("late", delay=1.5)] * 3)
    started = time.monotonic()
    events = run(make_agent(fake_openai.url, library, timeout=0.4))
    assert isinstance(events[-1], Failed) and "did not answer in time" in events[-1].message
    assert time.monotonic() - started < 4


def test_connection_refused_names_the_url(library: Library) -> None:
    annual_report(library)
    url = f"http://127.0.0.1:{free_port()}/v1"
    events = run(make_agent(url, library))
    assert isinstance(events[-1], Failed)
    assert events[-1].message.startswith(f"Could not reach the model at {url}.")
    assert "running?" in events[-1].message


def test_a_stream_cut_mid_answer(fake_openai: FakeOpenAI, library: Library) -> None:
    annual_report(library)
    fake_openai.script(text("Net income rose to $1,234 million in 2023 [Annual Report", cut_after=20))
    events = run(make_agent(fake_openai.url, library))
    assert any(isinstance(e, TextDelta) for e in events)
    assert isinstance(events[-1], Failed) and "broke off" in events[-1].message


def test_malformed_arguments_and_unknown_tools_are_fed_back_not_crashes(fake_openai: FakeOpenAI,
                                                                         library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(
        tool("get_page_content", '{"doc": "' + doc + '", "pages": '),
        tool("delete_everything", {"doc": doc}),
        tool("get_page_content", {"doc": doc, "pages": "20"}),
        text("The main risks are interest rates and credit losses [Annual Report 2023, p. 20]."),
    )
    events = run(make_agent(fake_openai.url, library))
    assert isinstance(events[-1], Finished) and events[-1].citations[0].verified
    results = [json.loads(e.content) for e in events if isinstance(e, ToolResult)]
    assert [r["ok"] for r in results] == [False, False, True]
    assert results[0]["error"]["code"] == "INVALID_INPUT" and results[1]["error"]["code"] == "NOT_FOUND"
    fed_back = [m for m in fake_openai.chat_requests()[1]["messages"] if m["role"] == "tool"]
    assert "not valid JSON" in fed_back[0]["content"]


def test_turn_limit_ends_with_a_clear_message(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = annual_report(library)
    fake_openai.policy = lambda body: tool("get_page_content", {"doc": doc, "pages": "1"})
    events = run(make_agent(fake_openai.url, library, limits=Limits(max_turns=3)))
    assert isinstance(events[-1], Failed) and "Stopped after 3 steps" in events[-1].message
    assert "--max-turns" in events[-1].message and "Model Settings" in events[-1].message
    assert len(fake_openai.chat_requests()) == 3


def test_keep_alive_lines_do_not_extend_a_turn_past_its_limit(fake_openai: FakeOpenAI, library: Library) -> None:
    annual_report(library)
    fake_openai.script(Reply(text="late", keepalive=40, keepalive_every=0.1))
    started = time.monotonic()
    events = run(make_agent(fake_openai.url, library, limits=Limits(turn_seconds=1.0)))
    assert time.monotonic() - started < 3.0
    assert isinstance(events[-1], Failed) and "more than 1 s for one step" in events[-1].message


def test_a_question_ends_at_its_time_limit_and_its_token_budget(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = annual_report(library)
    call = ("get_page_content", json.dumps({"doc": doc, "pages": "1"}))
    fake_openai.policy = lambda body: Reply(tool_calls=[call], chunk_delay=0.1)
    started = time.monotonic()
    events = run(make_agent(fake_openai.url, library, limits=Limits(question_seconds=1.5)))
    assert time.monotonic() - started < 4.0
    assert isinstance(events[-1], Failed) and "The question took more than 2 s" in events[-1].message
    events = run(make_agent(fake_openai.url, library, limits=Limits(question_tokens=500)))
    assert isinstance(events[-1], Failed) and "more than its budget of 500" in events[-1].message


def test_an_answer_cut_at_the_length_cap_says_so(fake_openai: FakeOpenAI, library: Library) -> None:
    annual_report(library)
    fake_openai.script(Reply(text="\n" * 50, finish="length"))
    events = run(make_agent(fake_openai.url, library, limits=Limits(answer_tokens=64)))
    assert isinstance(events[-1], Failed) and "length cap (64 tokens)" in events[-1].message
    assert fake_openai.chat_requests()[0]["max_tokens"] == 64


def test_cancel_is_honoured_within_a_second_even_while_the_server_is_silent(fake_openai: FakeOpenAI,
                                                                             library: Library) -> None:
    annual_report(library)
    fake_openai.script(text("x" * 400, chunk_delay=0.05), text("never", delay=20))
    cancel = threading.Event()
    agent = make_agent(fake_openai.url, library, timeout=30)
    seen: list[object] = []
    started = time.monotonic()
    for event in agent.run("q", cancel=cancel):
        seen.append(event)
        if len(seen) == 3:
            cancel.set()
            started = time.monotonic()
    assert isinstance(seen[-1], Failed) and seen[-1].cancelled and time.monotonic() - started < 1.0
    cancel2 = threading.Event()
    threading.Timer(0.3, cancel2.set).start()
    started = time.monotonic()
    events = list(agent.run("q", cancel=cancel2))  # the server waits 20 s before answering
    assert isinstance(events[-1], Failed) and events[-1].cancelled
    assert time.monotonic() - started < 1.3


def test_parallel_calls_without_index_and_a_server_without_usage(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = annual_report(library)
    both = tool("get_page_content", {"doc": doc, "pages": "12"}, ("search_document", {"doc": doc, "query": "risks"}))
    both.omit_index = True
    both.no_usage = True
    fake_openai.script(both, text("Net income rose to $1,234 million [Annual Report 2023, p. 12].", no_usage=True))
    events = run(make_agent(fake_openai.url, library))
    assert isinstance(events[-1], Finished) and events[-1].citations[0].verified
    assert [c["name"] for c in events[-1].tool_calls] == ["get_page_content", "search_document"]
    usages = [e for e in events if isinstance(e, Usage)]
    assert len(usages) == 2 and all(u.estimated and u.prompt_tokens > 100 for u in usages)
    assert events[-1].prompt_tokens == usages[-1].total_prompt_tokens


def test_a_garbled_stream_is_a_clear_failure(fake_openai: FakeOpenAI, library: Library) -> None:
    annual_report(library)
    fake_openai.script(text("Net income rose", garbage=True), text("", garbage=True))
    first = run(make_agent(fake_openai.url, library))
    assert isinstance(first[-1], Failed) and "broke off mid-stream" in first[-1].message
    second = run(make_agent(fake_openai.url, library))
    assert isinstance(second[-1], Failed) and type(second[-1].error).__name__ == "MalformedStream"


def test_later_turns_resend_used_outlines_and_searches_as_stubs_but_pages_whole(fake_openai: FakeOpenAI,
                                                                                library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(
        tool("get_document_structure", {"doc": doc}),
        tool("search_document", {"doc": doc, "query": "net income"}),
        tool("get_page_content", {"doc": doc, "pages": "12"}),
        text("Net income rose to $1,234 million in 2023 [Annual Report 2023, p. 12]."),
    )
    events = run(make_agent(fake_openai.url, library))
    assert isinstance(events[-1], Finished) and events[-1].citations[0].verdict == "checked"
    last = [m for m in fake_openai.chat_requests()[-1]["messages"] if m["role"] == "tool"]
    outline, search, pages = (json.loads(m["content"]) for m in last)
    assert outline == {"ok": True, "compacted": "shown earlier and used; call get_document_structure again to see it"}
    assert search["compacted"].startswith("shown earlier and used")
    assert "Net income rose to $1,234 million" in json.dumps(pages)  # page text is never shortened
    second = [m for m in fake_openai.chat_requests()[1]["messages"] if m["role"] == "tool"]
    assert "Financial results" in second[0]["content"]  # not yet used: sent whole
    third = [json.loads(m["content"]) for m in fake_openai.chat_requests()[2]["messages"] if m["role"] == "tool"]
    assert "compacted" in third[0] and third[1]["result"]["hits"]  # it searched after the outline: acted on it
