"""Keep the window's main thread and the render process on different cores (Linux).

Writing to a pipe is a "synchronous" wake-up in Linux: the reader is pulled onto the writer's core, on the bet
that the writer is about to sleep. The main thread is not (after asking for a page it scrolls, updates the page
box and paints), so the render process either waited for it or preempted it, and the two ran one after the
other. With the main thread on one set of cores and the render process on the other, they run side by side:
on the 2-core CI machine an uncached page after a jump showed in a median 8.3 ms instead of 10.5-13.6 ms
(`tests/bench/bench_viewer.py -k render_ratio`; pinning only the render process did not help, the main thread
then wandered onto its core).

Only the main thread is confined. Linux applies affinity per thread and new threads inherit it, so every
worker thread calls `use_all_cores()` first; child processes started from those threads (import extraction)
inherit all cores too. Elsewhere (macOS, Windows, one allowed core) nothing changes.
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger(__name__)

_ALL: set[int] | None = None  # the cores this process may use, as found before anything was confined
_MAIN_BEFORE: set[int] | None = None


def _allowed() -> set[int]:
    global _ALL
    if _ALL is None:
        _ALL = set(os.sched_getaffinity(0))
    return _ALL


def split_cores(render_pid: int) -> bool:
    """Confine the calling (main) thread to the first half of the allowed cores and the render process to the
    rest; False (and no change) where affinity cannot be set or only one core is allowed."""
    global _MAIN_BEFORE
    if not hasattr(os, "sched_setaffinity"):
        return False
    try:
        allowed = sorted(_allowed())
        if len(allowed) < 2:
            return False
        half = len(allowed) // 2
        gui, render = set(allowed[:half]), set(allowed[half:])
        os.sched_setaffinity(render_pid, render)
        if _MAIN_BEFORE is None:
            _MAIN_BEFORE = set(os.sched_getaffinity(0))
        os.sched_setaffinity(0, gui)
        return True
    except OSError as exc:  # a container that forbids it, a process already gone: run unconfined
        log.info("could not split cores between the window and the render process: %s", exc)
        return False


def restore_main_thread() -> None:
    """Undo `split_cores` for the calling thread (the window closed)."""
    global _MAIN_BEFORE
    if _MAIN_BEFORE is not None:
        try:
            os.sched_setaffinity(0, _MAIN_BEFORE)
        except OSError:
            pass
        _MAIN_BEFORE = None


def use_all_cores() -> None:
    """Let the calling thread (a worker started by the main thread) run on every allowed core again."""
    if _MAIN_BEFORE is None or not hasattr(os, "sched_setaffinity"):
        return
    try:
        os.sched_setaffinity(0, _allowed())
    except OSError:
        pass
