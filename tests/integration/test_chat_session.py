"""A chat session: history sent with the next question, pages read earlier count, transcript reloads by scope."""

from __future__ import annotations

from pathlib import Path

from fake_openai import FakeOpenAI, error, text, tool
from libdata import annual_report

from pageindex_desktop.core.assistant.chat_session import ChatSession
from pageindex_desktop.core.assistant.events import Failed, Finished
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.library.store import Library


def test_a_two_question_chat_is_kept_and_reloaded(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    client = LLMClient(Endpoint(fake_openai.url, "k", "fake-chat", 5), RetryPolicy(attempts=1))
    with Library(tmp_path) as library:
        doc = annual_report(library)
        session = ChatSession(library, [doc], client, judge=False)  # the model judge has tests of its own
        fake_openai.script(
            tool("get_page_content", {"doc": doc, "pages": "12"}),
            text("Net income rose to $1,234 million in 2023 [Annual Report 2023, p. 12]."),
            text("As read before, operating expenses were $610 million [Annual Report 2023, p. 12]."),
            error(401, "bad key"),
        )
        first = list(session.ask("What was net income?"))[-1]
        second = list(session.ask("And expenses?"))[-1]
        assert isinstance(first, Finished) and isinstance(second, Finished)
        assert second.citations[0].verified  # page 12 was read for the first question of this chat
        sent = fake_openai.chat_requests()[-1]["messages"]
        assert [m["role"] for m in sent[1:]] == ["user", "assistant", "user"]
        assert sent[2]["content"].startswith("Net income rose")
        assert isinstance(list(session.ask("Third?"))[-1], Failed)
    with Library(tmp_path) as library:
        again = ChatSession(library, [doc], None)
        stored = again.transcript()
        assert [m.role for m in stored] == ["user", "assistant"] * 3
        cite = stored[1].citations[0]
        assert cite["verified"] and cite["page"] == 12 and "1,234" in cite["passage"]
        assert stored[1].usage["prompt_tokens"] > 0 and stored[5].content.startswith("⚠ ")
        assert ChatSession(library, None, None).transcript() == []  # another scope, another history
        offline = list(again.ask("net income"))[-1]
        assert isinstance(offline, Finished) and "search results" in offline.answer
