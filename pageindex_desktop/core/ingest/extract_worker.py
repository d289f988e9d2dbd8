"""Parent side of the extraction child: start it ('spawn'), run one job while honouring cancel, survive crashes.

Idle children are kept warm in a small pool and reused; a child that was cancelled, crashed, stalled or read a
very large document is stopped instead of being returned. Everything here is safe to call from any thread.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from pageindex_desktop.core.ingest import child
from pageindex_desktop.core.ingest.import_types import CancelFlag
from pageindex_desktop.core import framing

log = logging.getLogger(__name__)

POLL_SECONDS = 0.1  # how often the parent looks at the cancel flag while the child works
START_TIMEOUT = 60.0  # seconds for a fresh child to import MuPDF and say hello
STALL_SECONDS = 300.0  # no message for this long: the child is stuck on a pathological file
MAX_IDLE = 2
RECYCLE_AFTER_PAGES = 1500  # a child that just read a document this large is not kept (MuPDF caches grow)
RECYCLE_AFTER_JOBS = 200

_pool_lock = threading.Lock()
_idle: list["Worker"] = []


@dataclass(frozen=True)
class JobOutcome:
    """How a job ended: kind is 'result', 'error', 'cancelled' or 'crashed'."""

    kind: str
    payload: dict[str, Any] | None = None
    error_kind: str = ""
    message: str = ""
    details: str = ""


class Worker:
    """One extraction child process and the parent's end of its pipe."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child_conn = context.Pipe(duplex=True)
        # Not a daemon: pdf.extract may start helper processes of its own for large files.
        self.process: BaseProcess = context.Process(
            target=child.worker_main, args=(child_conn,), name="pageindex-extract", daemon=False
        )
        self.process.start()
        child_conn.close()
        self.jobs = 0
        self.pid = self.process.pid or 0
        self.heavy: list[str] = []

    def wait_ready(self, cancel: CancelFlag | None) -> JobOutcome | None:
        """Wait for the child's hello; returns an outcome when it never came (crash, cancel, timeout)."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            message = self._receive(cancel, self._failed_start)
            if isinstance(message, JobOutcome):
                return message
            if message is not None and message[0] == "fatal":
                return JobOutcome("error", error_kind="internal", message=message[1], details=message[2])
            if message is not None and message[0] == "hello":
                self.heavy = list(message[2])
                if self.heavy:
                    log.warning("extraction child loaded heavy modules: %s", ", ".join(self.heavy))
                return None
        return JobOutcome("crashed", message="The PDF reader did not start in time.")

    def _failed_start(self) -> JobOutcome:
        """The child died before its hello: usually the caller's main module cannot be re-imported by 'spawn'
        (no `if __name__ == "__main__":` guard, or a script read from stdin); its traceback went to stderr."""
        self.process.join(timeout=2)
        log.error("extraction child exited with code %s before it was ready", self.process.exitcode)
        return JobOutcome(
            "error",
            error_kind="internal",
            message=f"the PDF reader process could not start (exit code {self.process.exitcode})",
        )

    def run(
        self,
        path: Path,
        password: str | None,
        use_bookmarks: bool,
        file_name: str,
        on_message: Callable[[str, int, int], None],
        cancel: CancelFlag | None,
        workers: int | None = None,
        ocr: dict[str, str] | None = None,
    ) -> JobOutcome:
        """Send one job and wait for its end, forwarding progress; cancel stops the child within POLL_SECONDS.
        `ocr`: options for reading pages without text (core/ingest/ocr.py `OcrPlan.for_child`), None for none."""
        self.jobs += 1
        try:
            framing.send(self.conn, ("job", str(path), password, use_bookmarks, file_name, workers, ocr))
        except (BrokenPipeError, OSError):
            return self._crashed()
        last_message = time.monotonic()
        while True:
            message = self._receive(cancel, self._crashed)
            if isinstance(message, JobOutcome):
                return message
            if message is None:
                if time.monotonic() - last_message > STALL_SECONDS:
                    return JobOutcome("crashed", message="The PDF reader stopped responding while reading this file.")
                continue
            last_message = time.monotonic()
            if message[0] == "progress":
                on_message(message[1], int(message[2]), int(message[3]))
            elif message[0] == "result":
                return JobOutcome("result", payload=message[1])
            elif message[0] == "error":
                return JobOutcome("error", error_kind=message[1], message=message[2], details=message[3])

    def _receive(self, cancel: CancelFlag | None,
                 gone: Callable[[], JobOutcome]) -> tuple[Any, ...] | JobOutcome | None:
        """One wait of up to POLL_SECONDS for the child's next message, the step both waits (for the hello, for a
        job's end) are made of: the message (a log line is relayed here and returned too, since it shows the child
        is alive), an outcome that ends the wait (cancel; the child gone, as `gone` says it), or None (nothing
        yet). A child that exited right after its last message has that message read first."""
        if cancel is not None and cancel.is_set():
            return JobOutcome("cancelled")
        if self.conn.poll(POLL_SECONDS):
            try:
                message: tuple[Any, ...] = framing.recv(self.conn)
            except (EOFError, OSError):
                return gone()
            if message[0] == "log":
                _relog(message)
            return message
        if not self.process.is_alive() and not self.conn.poll(0):
            return gone()
        return None

    def _crashed(self) -> JobOutcome:
        self.process.join(timeout=2)
        code = self.process.exitcode
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            how = f"was stopped by {name}"
            if name == "SIGKILL":
                how += " (possibly out of memory)"
        else:
            how = f"exited unexpectedly (code {code})"
        return JobOutcome("crashed", message=f"The PDF reader {how} while reading this file.")

    def alive(self) -> bool:
        """True while the child process runs."""
        return self.process.is_alive()

    def stop(self) -> None:
        """Stop the child and any helper processes it started, at once."""
        try:
            self.conn.close()
        except OSError:
            pass
        if self.process.is_alive():
            try:
                if hasattr(os, "killpg") and self.pid:
                    os.killpg(self.pid, signal.SIGKILL)
                else:
                    self.process.kill()
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        self.process.join(timeout=5)


def _relog(message: tuple[Any, ...]) -> None:
    """Write a record the child forwarded into this process's log."""
    logging.getLogger(str(message[2])).log(int(message[1]), "[extraction child] %s", message[3])


def acquire(cancel: CancelFlag | None = None) -> tuple[Worker | None, JobOutcome | None]:
    """A ready child: a warm idle one when available, else a new one (None plus the outcome when it failed)."""
    with _pool_lock:
        while _idle:
            worker = _idle.pop()
            if worker.alive():
                return worker, None
            worker.stop()
    worker = Worker()
    failed = worker.wait_ready(cancel)
    if failed is not None:
        worker.stop()
        return None, failed
    return worker, None


def release(worker: Worker, outcome: JobOutcome, pages: int) -> None:
    """Give a child back after a clean job, or stop it after a cancel, crash, stall, internal error (its state is
    unknown) or a very large document (MuPDF's caches have grown)."""
    reusable = (
        (outcome.kind == "result" or (outcome.kind == "error" and outcome.error_kind != "internal"))
        and worker.alive()
        and pages < RECYCLE_AFTER_PAGES
        and worker.jobs < RECYCLE_AFTER_JOBS
    )
    if reusable:
        with _pool_lock:
            if len(_idle) < MAX_IDLE:
                _idle.append(worker)
                return
    worker.stop()


def shutdown() -> None:
    """Stop every idle child (runs at interpreter exit, before multiprocessing would wait for them)."""
    with _pool_lock:
        workers = list(_idle)
        _idle.clear()
    for worker in workers:
        worker.stop()


def child_pids() -> list[int]:
    """Process ids of the idle children (for diagnostics and tests)."""
    with _pool_lock:
        return [w.pid for w in _idle]


atexit.register(shutdown)
