"""Processes that open one new library at the same instant (a helper for the concurrency test and bench).

Each imports the store, waits at a shared barrier until every child is ready, opens the library (creating and
migrating it), lists its documents and reports "ok" or the error it met; the functions live in a module so
spawned children can import them. The barrier waits for the children themselves, not for a fixed start time a
slow machine might miss (then the opens would not overlap and the test would pass without testing anything).
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

READY_TIMEOUT = 120.0  # seconds for every child to be spawned and imported before they all open together


def _open_at(home: str, barrier: Any, results: Any) -> None:
    from pageindex_desktop.core.library.store import Library

    try:
        barrier.wait(READY_TIMEOUT)
        with Library(Path(home)) as library:
            library.documents()
        results.put("ok")
    except Exception as exc:  # the outcome under test: any failure is reported, not raised
        results.put(f"{type(exc).__name__}: {exc}")


def open_together(home: Path, processes: int) -> list[str]:
    """Open `home` from `processes` fresh processes at once; each one's outcome."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    barrier = context.Barrier(processes)
    children = [context.Process(target=_open_at, args=(str(home), barrier, results)) for _ in range(processes)]
    for child in children:
        child.start()
    outcomes = [results.get(timeout=READY_TIMEOUT + 60) for _ in children]
    for child in children:
        child.join(timeout=30)
    return outcomes
