"""The one way the window runs work off its thread: a `JobThread` runs jobs one at a time, in the order they were
queued, on a thread of its own; what a job reports reaches the window as queued signals of its subclass (the object
lives on the window thread, so a signal emitted from the job's thread is delivered there, in order).

Three background mechanisms had grown here: the import worker's and the assistant's job-queue loops (the same
loop written twice) and a thread per settings-dialog task. They differ only in what a job *is* and what it holds
while it runs, so this class keeps the loop, the queue and the stop, and a subclass says what a job is:

- `open_resources()` runs first on the new thread (the import worker and the assistant open their own reading
  connection there, a `QueuedLibrary` whose writes go to the store's one writer: SQLite connections belong to the
  thread that made them) and `close_resources()` last;
- `run_job(job)` does one job and `after_job(job, result)` reports it once it is no longer the running one; an
  exception escaping `run_job` is logged and handed to `job_crashed`, so a bug in one job never ends the thread;
- `on_take(job)` runs under the queue's lock as a job leaves the queue (mark it started, clear a cancel flag).

Cancelling is the job's own business (a `threading.Event` it polls), because only the job knows where it can stop;
`drop_queued` takes jobs that have not started out of the queue. `stop()` asks the running job to end through
`on_stop()`, empties the queue and waits for the thread; `close()` lets the queued jobs run and then ends it (a
one-shot task is a JobThread with one job, closed at once).

The thread is a Python `threading.Thread`, not a QThread: the jobs start thread pools of their own (HTTP clients,
the extraction child's pipes), and CPython 3.11 keeps a never-removed "dummy" `threading` entry for every non-Python
thread that starts one. `start`, `isRunning` and `wait` keep QThread's names so callers read the same.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from pageindex_desktop.ui.cores import use_all_cores
from pageindex_desktop.ui.qt import QObject

log = logging.getLogger(__name__)


class JobThread(QObject):
    """Runs queued jobs in submission order on its own thread; subclasses say what a job is."""

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self._queue: deque[Any] = deque()
        self._active: Any = None
        self._cond = threading.Condition()
        self._stopping = False  # no more jobs are taken; with `_drain`, the queued ones still run
        self._drain = False
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)

    def start(self) -> None:
        """Start the thread (once)."""
        self._thread.start()

    def isRunning(self) -> bool:  # noqa: N802 - QThread's name, kept so callers read the same
        """True while the thread runs."""
        return self._thread.is_alive()

    def wait(self, timeout_ms: int | None = None) -> bool:
        """Wait for the thread to end; False when it did not end in time."""
        if self._thread.ident is None:  # never started
            return True
        self._thread.join(None if timeout_ms is None else timeout_ms / 1000)
        return not self._thread.is_alive()

    # ---- called from any thread ------------------------------------------------------------------------

    def enqueue(self, job: Any, first: bool = False) -> bool:
        """Queue a job (at the front with `first`); False when the thread is stopping and took nothing."""
        with self._cond:
            if self._stopping:
                return False
            if first:
                self._queue.appendleft(job)
            else:
                self._queue.append(job)
            self._cond.notify_all()
        return True

    def drop_queued(self, which: Callable[[Any], bool]) -> list[Any]:
        """Take the queued (not yet started) jobs `which` picks out of the queue and return them."""
        with self._cond:
            dropped = [job for job in self._queue if which(job)]
            if dropped:
                self._queue = deque(job for job in self._queue if not any(job is d for d in dropped))
            return dropped

    def snapshot(self) -> tuple[Any, list[Any]]:
        """The running job (None when idle) and the queued ones, in order."""
        with self._cond:
            return self._active, list(self._queue)

    @property
    def stopping(self) -> bool:
        """True once `stop()` was called."""
        return self._stopping

    def close(self) -> None:
        """Take no more jobs; the thread ends once the queued ones have run."""
        with self._cond:
            self._stopping = self._drain = True
            self._cond.notify_all()

    def stop(self, timeout_ms: int = 10000) -> None:
        """End the thread: queued jobs are dropped (`on_drop` each), the running one is asked to stop."""
        with self._cond:
            self._stopping, self._drain = True, False
            dropped = list(self._queue)
            self._queue.clear()
            self.on_stop(self._active)
            self._cond.notify_all()
        for job in dropped:
            self.on_drop(job)
        if self.isRunning() and not self.wait(timeout_ms):
            log.warning("%s did not stop in %d ms", self.objectName(), timeout_ms)

    # ---- the thread ------------------------------------------------------------------------------------

    def _loop(self) -> None:
        use_all_cores()  # the main thread may be confined to one core
        self.open_resources()
        try:
            while True:
                with self._cond:
                    while not self._queue and not self._stopping:
                        self._cond.wait()
                    if not self._queue or (self._stopping and not self._drain):
                        return
                    job = self._queue.popleft()
                    self._active = job
                    self.on_take(job)
                try:
                    result = self.run_job(job)
                except Exception as exc:  # a bug in one job must not end the thread
                    log.exception("%s: a job failed", self.objectName())
                    result = self.job_crashed(job, exc)
                finally:
                    with self._cond:
                        self._active = None
                self.after_job(job, result)
        finally:
            self.close_resources()

    # ---- what a subclass says --------------------------------------------------------------------------

    def open_resources(self) -> None:
        """Runs first on the thread (open a connection here)."""

    def close_resources(self) -> None:
        """Runs last on the thread, also after a failure in `open_resources`' users."""

    def on_take(self, job: Any) -> None:
        """A job leaves the queue to run (called under the queue's lock: keep it short)."""

    def run_job(self, job: Any) -> Any:
        """Do one job on the thread; what it returns goes to `after_job`."""
        raise NotImplementedError

    def job_crashed(self, job: Any, exc: Exception) -> Any:
        """`run_job` raised: tell the window in a sentence (it was logged with its traceback); the return value
        goes to `after_job` in place of the job's result."""
        return None

    def after_job(self, job: Any, result: Any) -> None:
        """A job ended (finished, failed or crashed) and is no longer the running one."""

    def on_stop(self, active: Any) -> None:
        """`stop()` was called while `active` runs (None when idle): ask it to end (under the queue's lock)."""

    def on_drop(self, job: Any) -> None:
        """A queued job was dropped by `stop()` without running."""
