"""Models and servers as users run them: tool calls written as text, and the stream quirks of real servers
(llama.cpp, Ollama, LM Studio, vLLM), each imitated by the fake server on 127.0.0.1."""

from __future__ import annotations

import json

import pytest
from fake_openai import FakeOpenAI, Reply, text, tool
from libdata import annual_report

from pageindex_desktop.core.assistant.agent import Agent
from pageindex_desktop.core.assistant.events import Failed, Finished, TextDelta, ToolResult
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.assistant.tools import ToolBox

ANSWER = "Net income rose to $1,234 million in 2023 [Annual Report 2023, p. 12]."


def run(fake: FakeOpenAI, library: Library, doc: str) -> tuple[list[object], Finished | Failed]:
    client = LLMClient(Endpoint(fake.url, "sk-test", "fake-chat", timeout=10), RetryPolicy(attempts=1, scale=0.01))
    events = list(Agent(client, ToolBox(library, frozenset({doc})), "fake-chat").run("What was net income?"))
    last = events[-1]
    assert isinstance(last, (Finished, Failed))
    return events, last


def read_page_12(doc: str) -> str:
    return json.dumps({"name": "get_page_content", "arguments": {"doc": doc, "pages": "12"}})


@pytest.mark.parametrize("written", [
    "<tool_call>\n{call}\n</tool_call>",  # Hermes / Qwen
    "{call}",  # bare JSON
    "I will read the page.\n```json\n{call}\n```",  # a fenced block after a sentence
    "{{{call}}}",  # doubled braces
    "<tools>{call}</tools>",
    "[TOOL_CALLS] [{call}]",  # Mistral
    "<tools>\n{{CALL_BODY\n</tools>\nThe answer is on page 12.",  # only the opening brace doubled, text after it
    "CALL_UNCLOSED",  # the last closing brace dropped
])
def test_tool_calls_written_as_text_are_run_and_never_shown_as_the_answer(
    fake_openai: FakeOpenAI, library: Library, written: str
) -> None:
    doc = annual_report(library)
    call = read_page_12(doc)
    written = written.replace("{call}", call).replace("{CALL_BODY", "{" + call).replace("CALL_UNCLOSED", call[:-1])
    fake_openai.script(text(written), text(ANSWER))
    events, last = run(fake_openai, library, doc)
    assert isinstance(last, Finished), last
    assert last.answer == ANSWER and [c.verdict for c in last.citations] == ["checked"]
    assert last.tool_calls == [{"name": "get_page_content", "arguments": {"doc": doc, "pages": "12"}}]
    shown_first_turn = "".join(e.text for e in events if isinstance(e, TextDelta) and e.turn == 1)
    assert "get_page_content" not in shown_first_turn  # the call text is held back while it streams
    second = fake_openai.chat_requests()[1]["messages"]
    assert second[-1]["role"] == "tool" and "Net income rose" in second[-1]["content"]


def test_llama3_function_tags_are_run(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(text(f'<function=get_page_content>{{"doc": "{doc}", "pages": "12"}}</function>'),
                       text(ANSWER))
    _, last = run(fake_openai, library, doc)
    assert isinstance(last, Finished) and last.answer == ANSWER


def test_a_text_call_to_a_tool_the_app_lacks_is_answered_not_shown(fake_openai: FakeOpenAI,
                                                                   library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(text('{"name": "calculator", "arguments": {"expression": "1+1"}}'),
                       tool("get_page_content", {"doc": doc, "pages": "12"}), text(ANSWER))
    _, last = run(fake_openai, library, doc)
    assert isinstance(last, Finished) and last.answer == ANSWER
    told = fake_openai.chat_requests()[1]["messages"][-1]
    assert told["role"] == "user" and "no tool called calculator" in told["content"]


def test_an_unreadable_call_tag_is_never_the_answer_and_the_model_gets_a_call_to_copy(fake_openai: FakeOpenAI,
                                                                                      library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(text("<tools></tools>"), tool("get_page_content", {"doc": doc, "pages": "12"}), text(ANSWER))
    _, last = run(fake_openai, library, doc)
    assert isinstance(last, Finished) and last.answer == ANSWER
    told = fake_openai.chat_requests()[1]["messages"][-1]["content"]
    assert "could not be read" in told
    assert f'{{"name": "search_document", "arguments": {{"doc": "{doc}", "query": "net income"}}}}' in told


def test_an_answer_that_merely_contains_json_is_still_an_answer(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(tool("get_page_content", {"doc": doc, "pages": "1"}),
                       text('The record reads {"name": "Annual Report 2023"}.'))
    _, last = run(fake_openai, library, doc)
    assert isinstance(last, Finished) and "Annual Report 2023" in last.answer


@pytest.mark.parametrize("quirk", [
    {"keepalive": 3},  # ':' comment lines while the prompt is read
    {"whole_calls": True},  # a tool call delivered whole in one chunk
    {"finish": "stop"},  # finish_reason "stop" alongside tool calls
    {"no_usage": True},  # no usage at all
])
def test_stream_quirks_of_real_servers(fake_openai: FakeOpenAI, library: Library, quirk: dict[str, object]) -> None:
    doc = annual_report(library)
    first = tool("get_page_content", {"doc": doc, "pages": "12"})
    for key, value in quirk.items():
        setattr(first, key, value)
    last_reply = Reply(text=ANSWER, **{k: v for k, v in quirk.items() if k in ("keepalive", "no_usage")})
    fake_openai.script(first, last_reply)
    _, last = run(fake_openai, library, doc)
    assert isinstance(last, Finished), last
    assert last.answer == ANSWER and [c.verdict for c in last.citations] == ["checked"]
    assert last.prompt_tokens > 0  # counted locally when the server reports none


def test_an_answer_that_read_nothing_is_marked_not_grounded_and_search_results_are_offered(
    fake_openai: FakeOpenAI, library: Library
) -> None:
    from pageindex_desktop.core.assistant.chat_session import ChatSession
    from pageindex_desktop.core.assistant.events import Judged

    doc = annual_report(library)
    unread = text("Zebras numbered 9 billion [Annual Report 2023, p. 490].")
    fake_openai.script(unread, unread, unread)  # reminded, then searched for, the model still answers from memory
    client = LLMClient(Endpoint(fake_openai.url, "sk-test", "fake-chat", timeout=10), RetryPolicy(attempts=1))
    events = list(ChatSession(library, [doc], client, judge=False).ask("How many zebras were counted?"))
    done = next(e for e in events if isinstance(e, Finished))
    assert not any(isinstance(e, Judged) for e in events)
    assert done.grounded is False and done.citation_records()["grounded"] is False
    assert done.citations[0].verdict == "unverified" and "no page 490" in done.citations[0].reason
    assert done.tool_calls == [{"name": "search_document", "arguments": {"doc": doc, "query": "zebras counted"},
                                "by": "assistant"}]  # the assistant's own search found nothing either


def test_an_answer_from_memory_gets_one_reminder_to_read_first(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(text("Net income was $9 billion [Annual Report 2023, p. 12]."),
                       tool("get_page_content", {"doc": doc, "pages": "12"}), text(ANSWER))
    events, last = run(fake_openai, library, doc)
    assert isinstance(last, Finished) and last.answer == ANSWER and last.grounded
    assert [c.verdict for c in last.citations] == ["checked"]
    second = fake_openai.chat_requests()[1]["messages"]
    reminder = second[-1]
    assert reminder["role"] == "user" and "read the documents first" in reminder["content"]
    assert f'"doc": "{doc}", "query": "net income"' in reminder["content"]  # a call to copy, no placeholder
    assert all(m["role"] != "assistant" for m in second)  # the unread answer is not re-sent to be copied
    shown_last = [e for e in events if isinstance(e, TextDelta)][-1]
    assert shown_last.turn == 3  # the pane shows the final turn's text, not the unread answer


def test_a_model_that_ignores_the_reminder_gets_the_search_run_for_it(fake_openai: FakeOpenAI,
                                                                       library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(text("No response."), text("No response."), text(ANSWER))  # small models say this, too
    events, last = run(fake_openai, library, doc)
    assert isinstance(last, Finished) and last.answer == ANSWER and last.grounded
    assert last.tool_calls == [{"name": "search_document", "arguments": {"doc": doc, "query": "net income"},
                                "by": "assistant"}]
    assert any(isinstance(e, ToolResult) and e.ok for e in events)  # the reading trail shows the search
    third = fake_openai.chat_requests()[2]["messages"]
    assert third[-1]["role"] == "tool" and '"page": 12' in third[-1]["content"]
    assert len(fake_openai.chat_requests()) == 3


def test_an_endpoint_that_refuses_tools_gets_them_described_in_the_prompt(fake_openai: FakeOpenAI,
                                                                          library: Library) -> None:
    from fake_openai import error

    doc = annual_report(library)
    fake_openai.script(error(400, "This model does not support tools."),
                       text(f"<tool_call>{read_page_12(doc)}</tool_call>"), text(ANSWER))
    client = LLMClient(Endpoint(fake_openai.url, "sk-test", "fake-chat", timeout=10), RetryPolicy(attempts=1))
    events = list(Agent(client, ToolBox(library, frozenset({doc})), "fake-chat").run("What was net income?"))
    last = events[-1]
    assert isinstance(last, Finished) and last.answer == ANSWER and [c.verdict for c in last.citations] == ["checked"]
    first, second, third = fake_openai.chat_requests()
    assert "tools" in first and "tools" not in second and "tools" not in third
    assert "<tool_call>" in second["messages"][0]["content"] and "get_page_content(doc, pages)" in \
        second["messages"][0]["content"]
    assert all(m["role"] != "tool" for m in third["messages"]) and third["messages"][-1]["role"] == "user"
    assert client.tools_mode == "prompt"  # the rest of the chat does not pay the refusal again


def test_a_call_repeated_over_and_over_is_answered_not_run_again(fake_openai: FakeOpenAI, library: Library) -> None:
    doc = annual_report(library)
    same = tool("get_page_content", {"doc": doc, "pages": "12"})
    fake_openai.script(same, same, same, text(ANSWER))
    events, last = run(fake_openai, library, doc)
    assert isinstance(last, Finished) and last.answer == ANSWER
    results = [e for e in events if isinstance(e, ToolResult)]
    assert [r.ok for r in results] == [True, True, False]  # a second call may follow a stub; the third is refused
    assert '"REPEATED"' in results[2].content and "Answer now" in results[2].content


def test_a_model_that_keeps_writing_unreadable_calls_gets_a_search_then_a_clear_stop(fake_openai: FakeOpenAI,
                                                                                      library: Library) -> None:
    doc = annual_report(library)
    fake_openai.script(*[text("<tools></tools>")] * 6)
    events, last = run(fake_openai, library, doc)
    assert isinstance(last, Failed) and "could not read" in last.message and "Traceback" not in last.message
    sent = fake_openai.chat_requests()
    assert len(sent) == 4  # told once, searched for once, then two more tries: stopped long before 12 steps
    assert all("<tools>" not in str(m.get("content")) for r in sent for m in r["messages"])  # never re-sent
    assert any(isinstance(e, ToolResult) and "searched" in e.label for e in events)  # the assistant's search


def test_a_turn_with_hundreds_of_tool_calls_runs_only_the_cap_and_answers_the_rest(fake_openai: FakeOpenAI,
                                                                                     library: Library) -> None:
    from pageindex_desktop.core.assistant.agent import MAX_CALLS_PER_TURN

    doc = annual_report(library)
    flood = [("get_page_content", {"doc": doc, "pages": str(1 + n % 12)}) for n in range(200)]
    fake_openai.script(tool(*flood[0], *flood[1:]), text(ANSWER))
    events, last = run(fake_openai, library, doc)
    assert isinstance(last, Finished) and last.answer == ANSWER
    assert len([e for e in events if isinstance(e, ToolResult)]) == MAX_CALLS_PER_TURN
    second = fake_openai.chat_requests()[1]["messages"]
    replies = [m for m in second if m["role"] == "tool"]
    assert len(replies) == 200  # every call id answered, or the request would be malformed
    refused = [m for m in replies if '"TOO_MANY_CALLS"' in m["content"]]
    assert len(refused) == 200 - MAX_CALLS_PER_TURN
    assert len(json.dumps(second)) < 200_000  # not megabytes of pages


def test_a_server_that_ignores_max_tokens_is_cut_at_the_cap_within_seconds(fake_openai: FakeOpenAI,
                                                                           library: Library) -> None:
    import time

    doc = annual_report(library)
    flood = (ANSWER + " ") * 30_000  # about 2 MB, far past the 2,048-token cap the request asked for
    fake_openai.script(tool("get_page_content", {"doc": doc, "pages": "12"}), text(flood))
    started = time.monotonic()
    events, last = run(fake_openai, library, doc)
    assert time.monotonic() - started < 20  # was minutes: the text was re-scanned at every delta
    assert isinstance(last, Failed) and "length cap" in last.message and "2,048 tokens" in last.message
    shown = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert 0 < len(shown) < 2048 * 10
