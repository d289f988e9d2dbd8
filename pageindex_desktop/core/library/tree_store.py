"""Writes of a document's tree after import (a model's finer tree) and of the model tokens its jobs used.

Kept beside `store.Library` rather than in it: the import replaces pages and nodes together (`save_index`); the
follow-up jobs here replace only the nodes, in one transaction, and add to the document's token counts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from pageindex_desktop.core.outline.tree import Node
from pageindex_desktop.core.library.store import Library, _node_rows, writes


@dataclass(frozen=True)
class ModelUsage:
    """Model calls and tokens one task (e.g. 'expand') has spent on one document, over all its runs."""

    task: str
    calls: int
    prompt_tokens: int
    completion_tokens: int

    @property
    def tokens(self) -> int:
        """Prompt and completion tokens together."""
        return self.prompt_tokens + self.completion_tokens


@writes
def replace_tree(library: Library, doc_id: str, roots: list[Node], outline_source: str | None = None) -> None:
    """Replace the document's nodes (ids, summaries and sources as the Node objects carry them) in one
    transaction, and mark the document updated; `outline_source` also changes its tree source when given."""
    with library.transaction() as conn:
        conn.execute("DELETE FROM nodes WHERE doc_id = ?", (doc_id,))
        conn.executemany(
            "INSERT INTO nodes (doc_id, node_id, parent_id, ord, level, title, start_page, end_page,"
            " verified, summary, summary_source, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _node_rows(doc_id, roots),
        )
        # updated_at tells the window the tree it shows is stale (as after a re-index)
        conn.execute("UPDATE documents SET outline_source = coalesce(?, outline_source), updated_at = ? WHERE id = ?",
                     (outline_source, time.time(), doc_id))


@writes
def add_usage(library: Library, doc_id: str, task: str, calls: int, prompt_tokens: int,
              completion_tokens: int) -> None:
    """Add one run's calls and tokens to the document's count for `task`."""
    if not calls and not prompt_tokens and not completion_tokens:
        return
    with library.transaction() as conn:
        conn.execute(
            "INSERT INTO model_usage (doc_id, task, calls, prompt_tokens, completion_tokens, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (doc_id, task) DO UPDATE SET calls = calls + excluded.calls,"
            " prompt_tokens = prompt_tokens + excluded.prompt_tokens,"
            " completion_tokens = completion_tokens + excluded.completion_tokens, updated_at = excluded.updated_at",
            (doc_id, task, calls, prompt_tokens, completion_tokens, time.time()),
        )


def usage(library: Library, doc_id: str) -> list[ModelUsage]:
    """What each task has spent on the document so far (tasks in name order)."""
    rows = library.conn.execute("SELECT task, calls, prompt_tokens, completion_tokens FROM model_usage"
                                " WHERE doc_id = ? ORDER BY task", (doc_id,)).fetchall()
    return [ModelUsage(r["task"], int(r["calls"]), int(r["prompt_tokens"]), int(r["completion_tokens"]))
            for r in rows]
