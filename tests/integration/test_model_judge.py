"""The model-judged citation pass against the fake server: valid quotes only, junk and failures degrade to a note,
the wall-clock bound holds for a silent server, judgements are cached, batched and their tokens counted."""

from __future__ import annotations

import json
import re
import threading
import time
from typing import Any, Callable

import pytest
from fake_openai import FakeOpenAI, Reply, error, free_port, rough_tokens, text

from pageindex_desktop.core.assistant.citations.judge_reply import parse_verdicts, quote_in_passage
from pageindex_desktop.core.assistant.citations.model_judge import JudgeItem, Judgement, judge_claims, make_batches
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy, TokenUsage
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.tokens import count_tokens

REVENUE = JudgeItem("c1", "Revenue rose 12% to $4.2 billion in 2023.",
                    "In 2023 revenue rose 12% to $4.2 billion, driven by services. Costs were flat.")
MARGIN = JudgeItem("c2", "The operating margin fell.",
                   "The operating margin improved to 18% from 15% a year earlier.")
STAFF = JudgeItem("c3", "The company employs 5,000 people.",
                  "The board met eleven times during the year and approved the dividend.")
QUOTES = {"c1": ("supported", "revenue rose 12% to $4.2 billion"),
          "c2": ("contradicted", "The operating margin improved to 18% from 15%"),
          "c3": ("not_stated", "")}


def client(url: str, timeout: float = 5.0) -> LLMClient:
    return LLMClient(Endpoint(url, "k", "fake-index", timeout), RetryPolicy(attempts=4, scale=0.01))


def prompt_of(body: dict[str, Any]) -> str:
    return str(body["messages"][-1]["content"])


def numbered_claims(body: dict[str, Any]) -> list[tuple[int, str]]:
    """(number, claim) of every item in a judge prompt."""
    return [(int(n), c) for n, c in re.findall(r"^\[(\d+)\] CLAIM: (.*)$", prompt_of(body), re.M)]


def judge_by_claim(answers: dict[str, tuple[str, str]]) -> Callable[[dict[str, Any]], Reply]:
    """A policy that answers each numbered claim from `answers` (claim text → verdict, quote), fenced in prose."""
    def policy(body: dict[str, Any]) -> Reply:
        verdicts = [{"id": n, "verdict": answers[c][0], "quote": answers[c][1]} for n, c in numbered_claims(body)]
        return text("Here is my judgement:\n```json\n" + json.dumps({"verdicts": verdicts}) + "\n```")
    return policy


def by_claim(items: list[JudgeItem], quotes: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    return {i.claim: quotes[i.key] for i in items}


def one_reply(verdicts: list[dict[str, Any]]) -> Reply:
    return text(json.dumps({"verdicts": verdicts}))


# ---- the right judge -----------------------------------------------------------------------------------


def test_a_right_judge_gives_one_verdict_per_claim_in_one_call(fake_openai: FakeOpenAI) -> None:
    items = [REVENUE, MARGIN, STAFF, JudgeItem("c4", REVENUE.claim, REVENUE.passage)]  # c4 repeats c1
    fake_openai.policy = judge_by_claim(by_claim(items[:3], QUOTES))
    report = judge_claims(client(fake_openai.url), items)
    assert report.note == ""
    assert report.judgements == {
        "c1": Judgement("c1", "supported", "revenue rose 12% to $4.2 billion"),
        "c2": Judgement("c2", "contradicted", "The operating margin improved to 18% from 15%"),
        "c3": Judgement("c3", "not_stated", ""),
        "c4": Judgement("c4", "supported", "revenue rose 12% to $4.2 billion"),
    }
    requests = fake_openai.chat_requests()
    assert len(requests) == 1 and len(numbered_claims(requests[0])) == 3  # the repeated claim is asked once
    assert "PASSAGE: The operating margin improved" in prompt_of(requests[0])
    assert '"verdicts"' in prompt_of(requests[0]) and requests[0]["model"] == "fake-index"


def test_the_model_argument_picks_the_judge_model(fake_openai: FakeOpenAI) -> None:
    fake_openai.policy = judge_by_claim(by_claim([REVENUE], QUOTES))
    judge_claims(client(fake_openai.url), [REVENUE], model="small-judge")
    assert [r["model"] for r in fake_openai.chat_requests()] == ["small-judge"]


def test_a_quote_that_is_not_in_the_passage_is_dropped_and_counted(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(one_reply([
        {"id": 1, "verdict": "supported", "quote": "revenue rose 14% to $4.2 billion"},  # invented figure
        {"id": 2, "verdict": "contradicted", "quote": "The operating margin improved to 18%"},
        {"id": 3, "verdict": "supported", "quote": ""},  # a supporting verdict needs a quote
    ]))
    report = judge_claims(client(fake_openai.url), [REVENUE, MARGIN, STAFF])
    assert list(report.judgements) == ["c2"]
    assert report.note == "The citation judge gave no usable quote for 2 claims; their rule verdicts stand."


def test_a_not_stated_verdict_keeps_its_verdict_but_never_a_bad_quote(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(one_reply([{"id": 1, "verdict": "not stated", "quote": "headcount grew"}]))
    report = judge_claims(client(fake_openai.url), [STAFF])
    assert report.judgements == {"c3": Judgement("c3", "not_stated", "")} and report.note == ""


# ---- junk and failures ---------------------------------------------------------------------------------


@pytest.mark.parametrize("reply", [
    "All three claims look fine to me!",
    '{"verdicts": "all supported"}',
    "[1, 2, 3]",
    '{"answer": 42}',
    "",
])
def test_a_junk_reply_leaves_no_judgements_and_a_note(fake_openai: FakeOpenAI, reply: str) -> None:
    fake_openai.script(text(reply))
    report = judge_claims(client(fake_openai.url), [REVENUE, MARGIN])
    assert report.judgements == {}
    assert report.note == "The citation judge's reply could not be read; the rule verdicts stand."


def test_a_reply_that_skips_claims_or_invents_verdicts_is_counted(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(one_reply([{"id": 1, "verdict": "probably", "quote": "revenue rose 12%"},
                                  {"id": 9, "verdict": "supported", "quote": "revenue rose 12%"},
                                  {"id": 3, "verdict": "NOT_STATED", "quote": ""}]))
    report = judge_claims(client(fake_openai.url), [REVENUE, MARGIN, STAFF])
    assert list(report.judgements) == ["c3"]
    assert report.note == "The citation judge gave no usable verdict for 2 claims; their rule verdicts stand."


@pytest.mark.parametrize("status, note, calls", [
    (500, "The citation judge met a server error; the rule verdicts stand.", 2),  # one quick retry, no more
    (401, "The citation judge was refused by the endpoint (API key); the rule verdicts stand.", 1),
])
def test_http_errors_leave_no_judgements_and_a_note(fake_openai: FakeOpenAI, status: int, note: str,
                                                    calls: int) -> None:
    fake_openai.policy = lambda body: error(status, "nope")
    started = time.monotonic()
    report = judge_claims(client(fake_openai.url), [REVENUE, MARGIN])
    assert report.judgements == {} and report.note == note
    assert len(fake_openai.chat_requests()) == calls and time.monotonic() - started < 2
    assert report.prompt_tokens == report.completion_tokens == 0


def test_a_server_that_is_down_costs_seconds_not_a_minute() -> None:
    started = time.monotonic()
    report = judge_claims(client(f"http://127.0.0.1:{free_port()}/v1"), [REVENUE])
    assert report.note == "The citation judge could not be reached; the rule verdicts stand."
    assert time.monotonic() - started < 3


def test_a_silent_server_is_given_up_on_at_the_deadline(fake_openai: FakeOpenAI) -> None:
    fake_openai.policy = lambda body: Reply(text=judge_by_claim(by_claim([REVENUE], QUOTES))(body).text, delay=4)
    started = time.monotonic()
    report = judge_claims(client(fake_openai.url, timeout=60), [REVENUE], timeout=1.5)
    elapsed = time.monotonic() - started
    assert 1.4 <= elapsed < 2.5
    assert report.judgements == {}
    assert report.note == "The citation judge timed out; the rule verdicts stand."


def test_a_slow_batch_times_out_alone_and_the_others_stand(fake_openai: FakeOpenAI) -> None:
    items = [JudgeItem(f"k{n}", f"Claim number {n} holds.", f"Page text: claim number {n} holds.") for n in range(10)]
    answers = {i.claim: ("supported", i.claim.rstrip(".")) for i in items}
    answer = judge_by_claim(answers)

    def policy(body: dict[str, Any]) -> Reply:
        slow = any(c == "Claim number 9 holds." for _, c in numbered_claims(body))
        return Reply(text=answer(body).text, delay=4 if slow else 0)

    fake_openai.policy = policy
    started = time.monotonic()
    report = judge_claims(client(fake_openai.url), items, timeout=1.5)
    assert time.monotonic() - started < 2.5
    assert set(report.judgements) == {f"k{n}" for n in range(8)}
    assert report.note == "The citation judge timed out for 2 of 10 claims; their rule verdicts stand."


def test_a_cancel_returns_promptly_without_a_note(fake_openai: FakeOpenAI) -> None:
    cancel = threading.Event()
    cancel.set()
    assert judge_claims(client(fake_openai.url), [REVENUE], cancel=cancel).note == ""
    assert fake_openai.chat_requests() == []  # already cancelled: nothing is asked
    fake_openai.policy = lambda body: Reply(text="{}", delay=4)
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    report = judge_claims(client(fake_openai.url), [REVENUE], timeout=10, cancel=cancel)
    assert time.monotonic() - started < 1.0
    assert report.judgements == {} and report.note == ""


# ---- cache, tokens, batches ----------------------------------------------------------------------------


def test_a_second_identical_call_is_answered_from_the_cache(fake_openai: FakeOpenAI, library: Library) -> None:
    items = [REVENUE, MARGIN, STAFF]
    quotes = {**QUOTES, "c2": ("contradicted", "the margin collapsed")}  # c2's quote is invalid: not cached
    fake_openai.policy = judge_by_claim(by_claim(items, quotes))
    first = judge_claims(client(fake_openai.url), items, library)
    assert set(first.judgements) == {"c1", "c3"} and first.cached == 0
    assert len(fake_openai.chat_requests()) == 1
    fake_openai.policy = judge_by_claim(by_claim(items, QUOTES))
    second = judge_claims(client(fake_openai.url), items, library)
    assert second.cached == 2 and second.judgements["c1"] == first.judgements["c1"]
    assert second.judgements["c2"].verdict == "contradicted" and second.note == ""
    requests = fake_openai.chat_requests()
    assert len(requests) == 2 and [c for _, c in numbered_claims(requests[1])] == [MARGIN.claim]
    third = judge_claims(client(fake_openai.url), items, library)
    assert third.cached == 3 and third.judgements == second.judgements
    assert len(fake_openai.chat_requests()) == 2 and third.prompt_tokens == 0  # no request at all
    other = judge_claims(client(fake_openai.url), items, library, model="another-model")
    assert other.cached == 0 and len(fake_openai.chat_requests()) == 3  # a different judge is asked afresh


def test_tokens_are_the_servers_usage(fake_openai: FakeOpenAI) -> None:
    fake_openai.policy = judge_by_claim(by_claim([REVENUE, MARGIN], QUOTES))
    report = judge_claims(client(fake_openai.url), [REVENUE, MARGIN])
    body = fake_openai.chat_requests()[0]
    assert report.prompt_tokens == rough_tokens(json.dumps(body["messages"]) + "[]") > 0  # the fake's usage formula
    reply = judge_by_claim(by_claim([REVENUE, MARGIN], QUOTES))(body).text
    assert report.completion_tokens == rough_tokens(reply) > 0


class NoUsageClient(LLMClient):
    """A client for an endpoint that reports no usage, as some local servers do."""

    def complete(self, messages: list[dict[str, Any]], model: str | None = None, max_tokens: int | None = None,
                 cancel: threading.Event | None = None) -> tuple[str, TokenUsage]:
        reply, _ = super().complete(messages, model, max_tokens, cancel)
        return reply, TokenUsage()


def test_tokens_are_counted_locally_when_the_server_reports_none(fake_openai: FakeOpenAI) -> None:
    fake_openai.policy = judge_by_claim(by_claim([REVENUE], QUOTES))
    llm = NoUsageClient(Endpoint(fake_openai.url, "k", "fake-index", 5), RetryPolicy(scale=0.01))
    report = judge_claims(llm, [REVENUE])
    body = fake_openai.chat_requests()[0]
    assert report.prompt_tokens == count_tokens(prompt_of(body)) > 0
    assert report.completion_tokens == count_tokens(judge_by_claim(by_claim([REVENUE], QUOTES))(body).text) > 0


def test_twenty_claims_go_in_several_batches_and_are_all_judged(fake_openai: FakeOpenAI) -> None:
    items = [JudgeItem(f"k{n}", f"Segment {n} grew {n}%.", f"Notes. Segment {n} grew {n}% in the year.")
             for n in range(20)]
    fake_openai.policy = judge_by_claim({i.claim: ("supported", i.claim.rstrip(".")) for i in items})
    report = judge_claims(client(fake_openai.url), items)
    requests = fake_openai.chat_requests()
    assert len(requests) > 1 and all(len(numbered_claims(r)) <= 8 for r in requests)
    assert sorted(len(numbered_claims(r)) for r in requests) == [4, 8, 8]
    assert set(report.judgements) == {i.key for i in items} and report.note == ""
    assert report.judgements["k13"].quote == "Segment 13 grew 13%"


def test_long_passages_are_batched_by_size() -> None:
    items = [JudgeItem(f"k{n}", "A claim.", "word " * 800) for n in range(4)]  # 4,000 characters each
    assert [len(b) for b in make_batches(items)] == [1, 1, 1, 1]
    assert [len(b) for b in make_batches(items[:2], max_chars=9000)] == [2]


# ---- matching quotes against PDF text ------------------------------------------------------------------


def test_hyphenated_and_ligature_quotes_match_end_to_end(fake_openai: FakeOpenAI) -> None:
    page = "The regula-\ntory capital ratio rose to 14.2% in the \ufb01nancial year, the long-\nterm plan says."
    item = JudgeItem("h1", "The regulatory capital ratio rose.", page)
    fake_openai.script(one_reply([{"id": 1, "verdict": "Supported",
                                   "quote": "regulatory capital ratio rose to 14.2% in the financial year"}]))
    report = judge_claims(client(fake_openai.url), [item])
    assert report.judgements["h1"].verdict == "supported" and report.note == ""
    assert "regulatory capital" in prompt_of(fake_openai.chat_requests()[0])  # the model reads the mended words


@pytest.mark.parametrize("quote, passage, found", [
    ("regulatory capital", "the regula-\ntory capital", True),
    ("long-term plan", "the long-\nterm plan", True),
    ("financial year", "the \ufb01nancial year", True),
    ("Q3 revenue 12%", "\uff31\uff13 revenue \uff11\uff12\uff05", True),  # full-width forms: NFKC, not casefold
    ("the “core” business", 'the "core"\n  business', True),
    ("It’s GROWING", "it's growing fast", True),
    ("“revenue rose 12%.”", "Revenue rose 12%, driven by services", True),
    ("revenue rose ... driven by services", "Revenue rose 12%, driven by services", True),
    ("driven by services ... revenue rose", "Revenue rose 12%, driven by services", False),
    ("4.2%", "a ratio of 14.2%", False),
    ("revenue fell 12%", "Revenue rose 12%, driven by services", False),
    ("...", "anything", False),
])
def test_quote_matching_normalises_pdf_text(quote: str, passage: str, found: bool) -> None:
    assert quote_in_passage(quote, passage) is found


def test_replies_are_read_leniently() -> None:
    one = '{"id": 1, "verdict": "supported", "quote": "a"}'
    wanted = [json.loads(one)]
    assert parse_verdicts('Sure!\n```json\n{"verdicts": [' + one + ']}\n```') == wanted
    assert parse_verdicts("[" + one + "] hope that helps") == wanted
    assert parse_verdicts('<think>{"id": 7}</think>{"verdicts": [' + one + "]}") == wanted
    cut = '{"verdicts": [' + one + ', {"id": 2, "verdict": "supp'
    assert parse_verdicts(cut) == wanted
    assert parse_verdicts("no json at all") == [] and parse_verdicts("{") == []


def test_verdict_spellings_and_string_ids_are_understood(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(text('[{"id": "2", "verdict": " Contradicted ", "quote": "improved to 18%"},'
                            ' {"id": "[1]", "verdict": "SUPPORTED", "quote": "REVENUE ROSE 12%"},'
                            ' {"id": 3, "verdict": "Not Stated"}]'))
    report = judge_claims(client(fake_openai.url), [REVENUE, MARGIN, STAFF])
    assert {k: j.verdict for k, j in report.judgements.items()} == {
        "c1": "supported", "c2": "contradicted", "c3": "not_stated"}
    assert report.note == ""
