"""Chat history: stored per scope, survives reopening the library, and goes away with its chat."""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.core.library import chats
from pageindex_desktop.core.library.migrations import MIGRATIONS
from pageindex_desktop.core.library.store import Library


def test_chats_are_kept_per_scope_and_reload_after_reopening(tmp_path: Path) -> None:
    with Library(tmp_path) as library:
        chat = chats.create_chat(library, ["b", "a"])
        other = chats.create_chat(library, None)
        chats.add_message(library, chat, "user", "What was net income?")
        chats.add_message(library, chat, "assistant", "It rose [Report, p. 12].",
                          tool_calls=[{"name": "get_page_content", "arguments": {"pages": "12"}}],
                          citations=[{"page": 12, "verified": True}], usage={"prompt_tokens": 900})
    with Library(tmp_path) as library:
        assert int(library.conn.execute("PRAGMA user_version").fetchone()[0]) == len(MIGRATIONS)
        found = chats.latest_chat(library, ["a", "b"])
        assert found is not None and found.id == chat and found.title == "What was net income?"
        stored = chats.messages(library, chat)
        assert [m.role for m in stored] == ["user", "assistant"]
        assert stored[1].citations == [{"page": 12, "verified": True}] and stored[1].usage["prompt_tokens"] == 900
        assert chats.history(library, chat)[0] == {"role": "user", "content": "What was net income?"}
        assert [c.id for c in chats.chats_for_scope(library, [])] == [other]
        chats.delete_chat(library, chat)
        assert chats.messages(library, chat) == [] and chats.latest_chat(library, ["a", "b"]) is None
