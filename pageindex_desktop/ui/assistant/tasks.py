"""One-shot background calls (model lists, Test connection, keychain, Summarize) on their own QThread.

`run_task(fn, on_done, on_error)` runs `fn` off the window thread and calls back on it through queued signals.
Tasks are kept alive here until they end, so closing a dialog never destroys a running thread; `detach(owner)`
drops the callbacks of a closing dialog, and `wait_all()` lets a shutdown (or a test) wait for the rest.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from pageindex_desktop.core.errors import PageIndexError
from pageindex_desktop.ui.assistant._qt import QObject, QThread, Signal

log = logging.getLogger(__name__)

_running: set["Task"] = set()


class Task(QThread):
    """Runs one callable; `done(result)` or `error(sentence)` arrive on the thread that connected them."""

    done = Signal(object)
    error = Signal(str)

    def __init__(self, fn: Callable[[], Any], name: str) -> None:
        super().__init__(None)
        self.setObjectName(name)
        self.fn = fn
        self.owner: QObject | None = None
        self.relay: QObject | None = None

    def run(self) -> None:
        try:
            result = self.fn()
        except PageIndexError as exc:  # typed errors carry the sentence to show
            self.error.emit(str(exc))
        except Exception as exc:  # an unexpected failure: logged with its traceback, shown as a sentence
            log.exception("background task %s failed", self.objectName())
            self.error.emit(f"That failed unexpectedly ({type(exc).__name__}); see Help ▸ Show Log.")
        else:
            self.done.emit(result)


class _Relay(QObject):
    """Lives on the window thread, so the task's signals reach the callbacks there (queued)."""

    def __init__(self, task: Task, on_done: Callable[[Any], None], on_error: Callable[[str], None],
                 owned: bool) -> None:
        super().__init__(None)
        self.task, self.on_done, self.on_error, self.owned = task, on_done, on_error, owned

    def _live(self) -> bool:
        return not self.owned or self.task.owner is not None

    def deliver(self, result: object) -> None:
        """Hand a result to its callback unless the owner has closed."""
        if self._live():
            self.on_done(result)

    def fail(self, text: str) -> None:
        """Hand an error sentence to its callback unless the owner has closed."""
        if self._live():
            self.on_error(text)

    def end(self) -> None:
        """The thread finished: forget the task (Python frees it once the thread has fully ended)."""
        self.task.wait()
        _running.discard(self.task)
        self.task.relay = None


def run_task(
    fn: Callable[[], Any],
    on_done: Callable[[Any], None],
    on_error: Callable[[str], None],
    owner: QObject | None = None,
    name: str = "assistantTask",
) -> Task:
    """Start `fn` on a new thread; the callbacks run on the window thread unless `owner` was detached."""
    task = Task(fn, name)
    task.owner = owner
    relay = _Relay(task, on_done, on_error, owner is not None)
    task.relay = relay
    task.done.connect(relay.deliver)
    task.error.connect(relay.fail)
    task.finished.connect(relay.end)
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


def wait_all(timeout_ms: int = 15000) -> bool:
    """Wait for every running task to end; False when one did not end in time."""
    return all(t.wait(timeout_ms) for t in list(_running))
