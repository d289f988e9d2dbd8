"""The window's one background primitive: jobs run in order off the window thread, a crashed job does not end the
thread, stop() drops what has not started, close() lets the queue drain, and results arrive on the window thread."""

from __future__ import annotations

import threading
from typing import Any

from pageindex_desktop.ui.background import JobThread
from pageindex_desktop.ui.qt import QThread, Signal


class Recorder(JobThread):
    """Runs callables; reports (job name, result, thread it ran on) through a queued signal."""

    reported = Signal(str, object, bool)  # name, result, whether the job ran on the window thread

    def __init__(self) -> None:
        super().__init__("recorder")
        self.gate = threading.Event()
        self.results: list[tuple[str, Any]] = []
        self.on_window_thread: list[bool] = []  # where each report was delivered
        self.jobs_on_window_thread: list[bool] = []  # where each job ran
        self.reported.connect(self._record)

    def _record(self, name: str, result: object, ran_on_window: bool) -> None:
        self.results.append((name, result))
        self.on_window_thread.append(QThread.currentThread() is self.thread())
        self.jobs_on_window_thread.append(ran_on_window)

    def run_job(self, job: tuple[str, Any]) -> Any:
        name, fn = job
        return fn()

    def job_crashed(self, job: tuple[str, Any], exc: Exception) -> Any:
        return f"crashed: {exc}"

    def after_job(self, job: tuple[str, Any], result: Any) -> None:
        self.reported.emit(job[0], result, QThread.currentThread() is self.thread())


def test_jobs_run_in_order_and_a_crash_does_not_end_the_thread(qtbot: Any) -> None:
    worker = Recorder()
    worker.start()
    try:
        worker.enqueue(("one", lambda: 1))
        worker.enqueue(("boom", lambda: 1 / 0))
        worker.enqueue(("two", lambda: 2))
        qtbot.waitUntil(lambda: len(worker.results) == 3, timeout=5000)
        assert worker.results == [("one", 1), ("boom", "crashed: division by zero"), ("two", 2)]
        assert all(worker.on_window_thread)  # what a job reports is delivered on the window thread ...
        assert not any(worker.jobs_on_window_thread)  # ... and the jobs ran off it
        assert worker.isRunning()
    finally:
        worker.stop()
    assert not worker.isRunning()


def test_stop_drops_the_jobs_that_have_not_started(qtbot: Any) -> None:
    worker = Recorder()
    dropped: list[str] = []
    worker.on_drop = lambda job: dropped.append(job[0])  # type: ignore[method-assign]
    worker.on_stop = lambda active: worker.gate.set()  # type: ignore[method-assign]
    started = threading.Event()

    def blocking() -> str:
        started.set()
        worker.gate.wait(5)
        return "let go"

    worker.start()
    worker.enqueue(("blocking", blocking))
    worker.enqueue(("never", lambda: "ran"))
    assert started.wait(5)
    worker.stop()
    assert not worker.isRunning() and dropped == ["never"]
    assert not worker.enqueue(("late", lambda: "ran"))  # a stopped thread takes nothing new


def test_close_lets_the_queue_drain_and_then_ends_the_thread(qtbot: Any) -> None:
    worker = Recorder()
    worker.enqueue(("a", lambda: "a"))
    worker.enqueue(("b", lambda: "b"))
    worker.close()
    worker.start()
    assert worker.wait(5000)
    qtbot.waitUntil(lambda: len(worker.results) == 2, timeout=5000)
    assert [name for name, _ in worker.results] == ["a", "b"]
