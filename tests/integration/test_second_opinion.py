"""The model judge after an answer: it may revise only the verdicts the rules were unsure of, and never blocks."""

from __future__ import annotations

import json
from typing import Any

from fake_openai import FakeOpenAI, Reply, error, text, tool
from libdata import annual_report

from pageindex_desktop.core.assistant.chat_session import ChatSession
from pageindex_desktop.core.assistant.events import Finished, Judged
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.library.store import Library

# "The main risks are interest rates, credit losses and cyber attacks." is page 20. The first claim shares most
# words (firm); the second shares just enough words to pass the rules, so the rules are unsure of it.
FIRM = "The main risks are interest rates, credit losses and cyber attacks [Annual Report 2023, p. 20]."
UNSURE = "Risks include rates, credit exposure and attacks on systems [Annual Report 2023, p. 20]."


def verdicts(*entries: tuple[int, str, str]) -> Reply:
    return text(json.dumps({"verdicts": [{"id": i, "verdict": v, "quote": q} for i, v, q in entries]}))


def run(library: Library, fake: FakeOpenAI, answer: str, *judge: Reply) -> list[Any]:
    doc = annual_report(library)
    fake.script(tool("get_page_content", {"doc": doc, "pages": "20"}), text(answer), *judge)
    client = LLMClient(Endpoint(fake.url, "sk-test", "fake-chat", timeout=5), RetryPolicy(attempts=1, scale=0.01))
    session = ChatSession(library, [doc], client)
    return list(session.ask("What are the main risks?"))


def test_only_unsure_verdicts_go_to_the_judge_and_a_valid_quote_decides(library: Library,
                                                                        fake_openai: FakeOpenAI) -> None:
    events = run(library, fake_openai, FIRM + " " + UNSURE,
                 verdicts((1, "not_stated", "The main risks are interest rates")))
    finished = next(e for e in events if isinstance(e, Finished))
    judged = next(e for e in events if isinstance(e, Judged))
    assert events.index(finished) < events.index(judged)  # the answer is shown before the judge is asked
    judge_request = fake_openai.chat_requests()[-1]
    sent = json.dumps(judge_request["messages"])
    assert "cyber attacks" in sent and "attacks on systems" in sent and "tools" not in judge_request
    assert sent.count("CLAIM") <= 2  # the firm citation was not put to the judge
    assert [c.verdict for c in judged.answer.citations] == ["checked", "unverified"]
    assert judged.answer.citations[1].judged_by == "model"
    assert judged.answer.judge_prompt_tokens > 0


def test_a_failing_or_junk_judge_leaves_the_rule_verdicts_and_says_so(library: Library,
                                                                      fake_openai: FakeOpenAI) -> None:
    events = run(library, fake_openai, UNSURE, error(500, "boom"), error(500, "boom"))
    judged = next(e for e in events if isinstance(e, Judged))
    assert [c.verdict for c in judged.answer.citations] == ["checked"]
    assert "rule verdicts stand" in judged.answer.judge_note


def test_a_quote_not_in_the_passage_is_ignored(library: Library, fake_openai: FakeOpenAI) -> None:
    events = run(library, fake_openai, UNSURE, verdicts((1, "contradicted", "risks are negligible")))
    judged = next(e for e in events if isinstance(e, Judged))
    assert [c.verdict for c in judged.answer.citations] == ["checked"]


def test_a_not_stated_verdict_without_a_quote_from_the_passage_is_ignored(library: Library,
                                                                          fake_openai: FakeOpenAI) -> None:
    events = run(library, fake_openai, UNSURE, verdicts((1, "not_stated", "")))
    judged = next(e for e in events if isinstance(e, Judged))
    assert [c.verdict for c in judged.answer.citations] == ["checked"]
