"""Chat history per scope, kept in the library database so the assistant pane reloads it after a restart.

A scope is the set of documents a chat may read; it is stored as a canonical key ('*' for all documents, else the
sorted doc ids joined by commas), so the same selection finds the same chats again.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from pageindex_desktop.core.library.store import Library, writes

ALL = "*"


def scope_key(doc_ids: Iterable[str] | None) -> str:
    """The canonical key of a scope (None or empty → every document)."""
    ids = sorted(set(doc_ids or []))
    return ",".join(ids) if ids else ALL


@dataclass(frozen=True)
class Message:
    """One stored chat message."""

    id: int
    role: str
    content: str
    tool_calls: list[Any]
    citations: list[Any]
    usage: dict[str, Any]
    created_at: float
    uncited: list[Any] = field(default_factory=list)  # answer sentences stating figures without a citation
    judge_note: str = ""  # why the model judge could not help ('' when it did, or was not asked)
    grounded: bool = True  # False: the answer was given without reading any page or search result
    search_results: list[Any] = field(default_factory=list)  # the pages offered instead, then


@dataclass(frozen=True)
class Chat:
    """One stored chat."""

    id: int
    scope: str
    title: str
    created_at: float
    updated_at: float


@writes
def create_chat(library: Library, doc_ids: Iterable[str] | None, title: str = "") -> int:
    """Start a new chat for this scope; returns its id."""
    now = time.time()
    with library.transaction() as conn:
        cur = conn.execute(
            "INSERT INTO chats (scope, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
            (scope_key(doc_ids), title, now, now),
        )
    return int(cur.lastrowid or 0)


@writes
def add_message(
    library: Library,
    chat_id: int,
    role: str,
    content: str,
    tool_calls: list[Any] | None = None,
    citations: list[Any] | dict[str, Any] | None = None,
    usage: dict[str, Any] | None = None,
) -> int:
    """Append a message (and name the chat after its first question); returns the message id. `citations` is
    a list of citation records, or `Finished.citation_records()` (citations, uncited sentences, judge note)."""
    now = time.time()
    with library.transaction() as conn:
        cur = conn.execute(
            "INSERT INTO messages (chat_id, role, content, tool_calls, citations, usage, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (chat_id, role, content, json.dumps(tool_calls or []), json.dumps(citations or []),
             json.dumps(usage or {}), now),
        )
        conn.execute(
            "UPDATE chats SET updated_at = ?, title = CASE WHEN title = '' AND ? = 'user' THEN ? ELSE title END"
            " WHERE id = ?",
            (now, role, content[:80], chat_id),
        )
    return int(cur.lastrowid or 0)


@writes
def update_citations(library: Library, message_id: int, citations: dict[str, Any], usage: dict[str, Any]) -> None:
    """Replace a stored answer's citation records and usage (the model judge revised its verdicts)."""
    with library.transaction() as conn:
        conn.execute("UPDATE messages SET citations = ?, usage = ? WHERE id = ?",
                     (json.dumps(citations), json.dumps(usage), message_id))


def chats_for_scope(library: Library, doc_ids: Iterable[str] | None) -> list[Chat]:
    """This scope's chats, most recently used first."""
    rows = library.conn.execute(
        "SELECT id, scope, title, created_at, updated_at FROM chats WHERE scope = ? ORDER BY updated_at DESC, id DESC",
        (scope_key(doc_ids),),
    ).fetchall()
    return [Chat(int(r["id"]), r["scope"], r["title"], float(r["created_at"]), float(r["updated_at"])) for r in rows]


def latest_chat(library: Library, doc_ids: Iterable[str] | None) -> Chat | None:
    """The chat to show when this scope is selected again, if any."""
    chats = chats_for_scope(library, doc_ids)
    return chats[0] if chats else None


def messages(library: Library, chat_id: int) -> list[Message]:
    """A chat's messages in order."""
    rows = library.conn.execute(
        "SELECT id, role, content, tool_calls, citations, usage, created_at FROM messages WHERE chat_id = ? ORDER BY id",
        (chat_id,),
    ).fetchall()
    return [_message(r) for r in rows]


def history(library: Library, chat_id: int, limit: int = 12) -> list[dict[str, str]]:
    """The last messages as plain user/assistant turns, for the agent's next question (failed runs left out)."""
    recent = [m for m in messages(library, chat_id) if not m.usage.get("failed")][-limit:]
    return [{"role": m.role, "content": m.content} for m in recent]


@writes
def delete_chat(library: Library, chat_id: int) -> None:
    """Forget a chat and its messages."""
    with library.transaction() as conn:
        conn.execute("DELETE FROM chats WHERE id = ?", (chat_id,))


def _message(row: Any) -> Message:
    """A stored row as a Message; older rows keep a bare list of citations."""
    cited = json.loads(row["citations"])
    records = cited if isinstance(cited, dict) else {"citations": cited}
    return Message(int(row["id"]), row["role"], row["content"], json.loads(row["tool_calls"]),
                   list(records.get("citations") or []), json.loads(row["usage"]), float(row["created_at"]),
                   list(records.get("uncited") or []), str(records.get("judge_note") or ""),
                   records.get("grounded") is not False, list(records.get("search_results") or []))
