"""Helper processes that extract page ranges for `pdf.extract`, so a large PDF uses both cores.

A helper is a plain `python -m pageindex_desktop.core.ingest.pdf_helper` subprocess (not multiprocessing), so it can be
started from anything: a script without a main guard, a daemonic process, a test. It is kept warm and reused
across documents, reads requests from stdin and answers on stdout in the processes' one framing (`core/framing.py`), opens the
document itself, and exits when its stdin closes (its parent ended). A reader thread per helper turns replies
into a queue, so the parent can poll without blocking on any platform. Passwords travel through the pipe,
never on a command line.
"""

from __future__ import annotations

import atexit
import logging
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pageindex_desktop
from pageindex_desktop.core.framing import read_frame, write_frame

log = logging.getLogger(__name__)

_helpers: list["Helper"] = []
_lock = threading.Lock()


class Helper:
    """Parent side of one helper process: send range requests, poll for replies without blocking."""

    def __init__(self) -> None:
        env = dict(os.environ)
        package_root = str(Path(pageindex_desktop.__file__).resolve().parents[1])  # the folder holding the package
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pageindex_desktop.core.ingest.pdf_helper"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.replies: queue.Queue[Any] = queue.Queue()
        self.outstanding = 0  # requests sent whose reply has not been taken yet
        self.stale = 0  # of those, replies nobody wants any more (their range was done locally)
        self.served = 0  # pages this helper delivered and the parent used
        threading.Thread(target=self._read_replies, name="pdf-helper-reader", daemon=True).start()

    def _read_replies(self) -> None:
        """Reader thread: every reply frame into the queue; None when the helper is gone."""
        assert self.process.stdout is not None
        try:
            while True:
                self.replies.put(read_frame(self.process.stdout))
        except (EOFError, OSError, pickle.UnpicklingError):
            self.replies.put(None)

    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.poll() is None

    def usable(self) -> bool:
        """Alive and with no stale replies still in flight (they are drained here when they have arrived)."""
        while self.stale > 0:
            try:
                reply = self.replies.get_nowait()
            except queue.Empty:
                return False
            self.outstanding -= 1
            self.stale -= 1
            if reply is None:
                return False
        return self.alive()

    def send(self, message: Any) -> bool:
        """Send a request; False when the helper is gone."""
        assert self.process.stdin is not None
        try:
            write_frame(self.process.stdin, message)
        except (OSError, ValueError):
            return False
        if message[0] in ("range", "ping"):
            self.outstanding += 1
        return True

    def poll(self) -> tuple[str, Any] | None:
        """The next reply if it has arrived: ("ok", pages) or ("error", text); ("gone", None) if the helper died."""
        try:
            reply = self.replies.get_nowait()
        except queue.Empty:
            return None
        self.outstanding -= 1
        return ("gone", None) if reply is None else reply

    def wait(self, timeout: float) -> tuple[str, Any] | None:
        """Like `poll`, but waits up to `timeout` seconds for the reply."""
        try:
            reply = self.replies.get(timeout=timeout)
        except queue.Empty:
            return None
        self.outstanding -= 1
        return ("gone", None) if reply is None else reply

    def abandon(self) -> None:
        """Forget the reply to the request in flight: its range is being done elsewhere."""
        self.stale += 1

    def stop(self) -> None:
        """End the process (closing stdin is enough; kill if it lingers)."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


def helpers(count: int) -> list[Helper]:
    """`count` warm helpers ready for a new document, starting new ones as needed (busy ones are skipped)."""
    with _lock:
        _helpers[:] = [h for h in _helpers if h.alive()]
        ready = [h for h in _helpers if h.usable()]
        while len(ready) < count and len(_helpers) < count + 1:
            try:
                helper = Helper()
            except OSError:
                log.warning("could not start a PDF helper process", exc_info=True)
                break
            _helpers.append(helper)
            ready.append(helper)
        return ready[:count]


def _cpu_times() -> tuple[int, int] | None:
    """(idle, total) CPU jiffies of the whole machine from /proc/stat, or None where there is no such file."""
    try:
        with open("/proc/stat", "rb") as handle:
            fields = [int(v) for v in handle.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    return fields[3] + fields[4], sum(fields)


class IdleProbe:
    """Is a core idle while this process works? Measured over a short window, then answered once.

    A helper only pays when a core is free; the one-minute load average lags and counts this process's own
    last document, so the machine's idle CPU time is sampled while the first pages are read instead.
    """

    WINDOW = 0.05  # seconds of sampling (a few scheduler ticks on each core)

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.first = _cpu_times()

    def ready(self) -> bool:
        """True once the window has passed."""
        return time.monotonic() - self.started >= self.WINDOW

    def idle_cores(self) -> float:
        """Cores that were idle on average during the window (load-average estimate where /proc is missing)."""
        cores = os.cpu_count() or 1
        last = _cpu_times()
        if self.first is None or last is None or last[1] <= self.first[1]:
            try:
                return max(0.0, cores - os.getloadavg()[0])
            except (AttributeError, OSError):  # Windows: no load average either; trust the core count
                return float(cores - 1)
        return cores * (last[0] - self.first[0]) / (last[1] - self.first[1])


def warm_up(count: int = 1, timeout: float = 30.0) -> int:
    """Start `count` helpers and wait until each answers (so the next long document is split from its first page).

    Returns how many are ready. Callers that know a long import is coming (a batch, a test) may call it early.
    """
    ready = 0
    for helper in helpers(count):
        if not helper.send(("ping",)):
            continue
        try:
            reply = helper.replies.get(timeout=timeout)
        except queue.Empty:
            helper.abandon()
            continue
        helper.outstanding -= 1
        ready += reply is not None and reply[0] == "pong"
    return ready


def pages_served() -> int:
    """Pages the running helpers have delivered so far (for tests and benchmarks)."""
    with _lock:
        return sum(h.served for h in _helpers)


def warm() -> bool:
    """True when a helper process is already running (then even mid-sized documents are worth splitting)."""
    with _lock:
        return any(h.alive() for h in _helpers)


@atexit.register
def stop_all() -> None:
    """Stop every helper this process started."""
    with _lock:
        for helper in _helpers:
            helper.stop()
        _helpers.clear()


def main() -> int:
    """Helper loop: answer ("range", path, password, start, stop, line_pages), ("ping",), ("close",) until EOF."""
    from pageindex_desktop.core.ingest.pdf import open_pdf
    from pageindex_desktop.core.ingest.pdf_pages import pages_of

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    doc = None
    key: tuple[str, str | None] | None = None
    while True:
        try:
            request = read_frame(stdin)
        except EOFError:
            return 0
        if request[0] == "ping":
            write_frame(stdout, ("pong", None))
            continue
        if request[0] == "close":
            if doc is not None:
                doc.close()
            doc, key = None, None
            continue
        _, path, password, start, stop, line_pages = request
        try:
            if doc is None or key != (path, password):
                if doc is not None:
                    doc.close()
                doc, key = open_pdf(Path(path), password), (path, password)
            write_frame(stdout, ("ok", pages_of(doc, start, stop, line_pages)))
        except Exception as exc:  # the parent redoes the range itself and reports its own error
            write_frame(stdout, ("error", f"{type(exc).__name__}: {exc}"))


if __name__ == "__main__":
    sys.exit(main())
