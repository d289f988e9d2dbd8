"""The model's answers kept by content key (`llm_cache`): summaries, the citation judge, finer and model-written
trees look here before they call the model, so asking the same thing of the same text again costs no call.

It lives with the store because it is the store's table: the assistant's modules ask for values by key and never
run SQL on the library's connection themselves. Keys are made by the callers (model, prompt version, text).
"""

from __future__ import annotations

import time

from pageindex_desktop.core.library.store import Library, writes

CHUNK = 500  # keys per query: SQLite's bound-parameter limit is 999 on old builds


def cache_get(library: Library, keys: list[str]) -> dict[str, str]:
    """Cached values for the keys that have one."""
    found: dict[str, str] = {}
    for start in range(0, len(keys), CHUNK):
        chunk = keys[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        for row in library.conn.execute(f"SELECT key, value FROM llm_cache WHERE key IN ({marks})", chunk):
            found[row["key"]] = row["value"]
    return found


@writes
def cache_put(library: Library, values: dict[str, str]) -> None:
    """Store model outputs by content key (one transaction)."""
    if values:
        with library.transaction() as conn:
            conn.executemany("INSERT OR REPLACE INTO llm_cache (key, value, created_at) VALUES (?, ?, ?)",
                             [(k, v, time.time()) for k, v in values.items()])
