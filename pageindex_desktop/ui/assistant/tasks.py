"""One-shot background calls (model lists, Test connection, keychain, Summarize) off the window thread.

`run_task(fn, on_done, on_error)` runs `fn` on a Python thread and calls back on the window thread through
queued signals. A plain `threading.Thread` (not a QThread) because the calls start thread pools of their own,
and CPython 3.11 keeps a never-removed "dummy" entry for every non-Python thread that starts one. Tasks are kept
here until they end, so closing a dialog never loses a running call; `detach(owner)` drops the callbacks of a
closing dialog, and `wait_all()` lets a shutdown (or a test) wait for the rest.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

from pageindex_desktop.core.errors import PageIndexError
from pageindex_desktop.ui.assistant._qt import QObject, Signal
from pageindex_desktop.ui.cores import use_all_cores

log = logging.getLogger(__name__)

_running: set["Task"] = set()


class Task(QObject):
    """One callable on its own thread; the object lives on the window thread, so its slots run there."""

    done = Signal(object)
    error = Signal(str)
    ended = Signal()

    def __init__(self, fn: Callable[[], Any], name: str, on_done: Callable[[Any], None],
                 on_error: Callable[[str], None], owner: QObject | None) -> None:
        super().__init__(None)
        self.fn, self.on_done, self.on_error = fn, on_done, on_error
        self.owner, self.owned = owner, owner is not None
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.done.connect(self._deliver)
        self.error.connect(self._fail)
        self.ended.connect(self._end)

    def _run(self) -> None:
        use_all_cores()  # the main thread may be confined to one core
        try:
            result = self.fn()
        except PageIndexError as exc:  # typed errors carry the sentence to show
            self.error.emit(str(exc))
        except Exception as exc:  # an unexpected failure: logged with its traceback, shown as a sentence
            log.exception("background task %s failed", self.thread.name)
            self.error.emit(f"That failed unexpectedly ({type(exc).__name__}); see Help ▸ Show Log.")
        else:
            self.done.emit(result)
        finally:
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
        self.thread.join()
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
    task.thread.start()
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
        task.thread.join(timeout_s)
    return not any(t.thread.is_alive() for t in list(_running))
