"""Processes that open one new library at the same instant (a helper for the concurrency test and bench).

Each waits for a shared start time, opens the library (creating and migrating it), lists its documents and
reports "ok" or the error it met; the functions live in a module so spawned children can import them.
"""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path
from typing import Any

START_DELAY = 2.0  # seconds for every child to be spawned and imported before they all open together


def _open_at(home: str, start: float, results: Any) -> None:
    from pageindex_desktop.core.store import Library

    while time.time() < start:
        time.sleep(0.001)
    try:
        with Library(Path(home)) as library:
            library.documents()
        results.put("ok")
    except Exception as exc:  # the outcome under test: any failure is reported, not raised
        results.put(f"{type(exc).__name__}: {exc}")


def open_together(home: Path, processes: int) -> list[str]:
    """Open `home` from `processes` fresh processes at once; each one's outcome."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    start = time.time() + START_DELAY
    children = [context.Process(target=_open_at, args=(str(home), start, results)) for _ in range(processes)]
    for child in children:
        child.start()
    outcomes = [results.get(timeout=120) for _ in children]
    for child in children:
        child.join(timeout=30)
    return outcomes
