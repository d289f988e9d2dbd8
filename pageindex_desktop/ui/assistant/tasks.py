"""One-shot background calls (model lists, Test connection, keychain, Summarize) off the window thread.

`run_task(fn, on_done, on_error)` runs `fn` as the one job of a `ui/background.JobThread` (the window's one
background primitive) and calls back on the window thread through queued signals. Tasks are kept
here until they end, so closing a dialog never loses a running call; `detach(owner)` drops the callbacks of a
closing dialog, and `wait_all()` lets a shutdown (or a test) wait for the rest.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from pageindex_desktop.core.errors import PageIndexError
from pageindex_desktop.ui.background import JobThread
from pageindex_desktop.ui.qt import QObject, Signal

log = logging.getLogger(__name__)

_running: set["Task"] = set()


class Task(JobThread):
    """One callable on a `JobThread` of its own; the object lives on the window thread, so its slots run there."""

    done = Signal(object)
    error = Signal(str)
    ended = Signal()

    def __init__(self, fn: Callable[[], Any], name: str, on_done: Callable[[Any], None],
                 on_error: Callable[[str], None], owner: QObject | None) -> None:
        super().__init__(name, None)
        self.on_done, self.on_error = on_done, on_error
        self.owner, self.owned = owner, owner is not None
        self.done.connect(self._deliver)
        self.error.connect(self._fail)
        self.ended.connect(self._end)
        self.enqueue(fn)
        self.close()  # one job: the thread ends after it

    def run_job(self, fn: Callable[[], Any]) -> None:
        try:
            result = fn()
        except PageIndexError as exc:  # typed errors carry the sentence to show
            self.error.emit(str(exc))
        else:
            self.done.emit(result)

    def job_crashed(self, fn: Callable[[], Any], exc: Exception) -> None:  # logged with its traceback by JobThread
        self.error.emit(f"That failed unexpectedly ({type(exc).__name__}); see Help ▸ Show Log.")

    def after_job(self, fn: Callable[[], Any], result: object) -> None:
        self.ended.emit()

    def _live(self) -> bool:
        return not self.owned or self.owner is not None

    def _deliver(self, result: object) -> None:
        if self._live():
            self.on_done(result)

    def _fail(self, text: str) -> None:
        if self._live():
            self.on_error(text)

    def _end(self) -> None:
        self.wait()
        _running.discard(self)


def run_task(
    fn: Callable[[], Any],
    on_done: Callable[[Any], None],
    on_error: Callable[[str], None],
    owner: QObject | None = None,
    name: str = "assistant-task",
) -> Task:
    """Start `fn` on a new thread; the callbacks run on the window thread unless `owner` was detached."""
    task = Task(fn, name, on_done, on_error, owner)
    _running.add(task)
    task.start()
    return task


def detach(owner: QObject) -> None:
    """A dialog is closing: its running tasks finish quietly without calling back into it."""
    for task in list(_running):
        if task.owner is owner:
            task.owner = None


def running() -> list[Task]:
    """Tasks not done yet: still running, or their result not yet delivered on the window thread."""
    return list(_running)


def wait_all(timeout_s: float = 15.0) -> bool:
    """Wait for every task's thread to end; False when one did not end in time."""
    for task in list(_running):
        task.wait(int(timeout_s * 1000))
    return not any(t.isRunning() for t in list(_running))
