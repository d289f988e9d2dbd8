"""The store's one writer: a thread that owns the writing connection and runs short write transactions, handed to
it as callables, one at a time in the order they came.

Why one writer: SQLite lets one connection write at a time, and before this the window had three (the import
worker's, the reading positions' and the assistant's), each waiting on the others' locks up to its busy timeout.
With one queue the writes of a process never wait on each other's locks, they run in a known order, and "who wrote
this" has one answer. The long parts of a job (an extraction child, a model call, a file copy) stay on the thread
that asked; only the transaction travels, so a reading position queued while an import runs waits at most for one
short transaction, never for the import.

How a write gets here: a function that writes is marked `@store.writes`; called with a `QueuedLibrary` (the
connection a thread reads with), it is run on this thread with the writer's `Library` and its result (or its
exception) comes back to the caller, who waits for it; called with a plain `Library` (the CLI, the tests) it runs
in place. A `QueuedLibrary`'s own connection is `query_only`, so a write that was not routed fails loudly instead
of slipping past the queue.

`close()` runs what is queued, then ends the thread: a write handed over before the window closed is committed.
Each callable is one transaction (or a few, each atomic), so a crash mid-write leaves the previous state.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from pageindex_desktop.core.errors import PageIndexError
from pageindex_desktop.core.library.store import Library

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


class StoreClosed(PageIndexError):
    """A write was handed to a writer that has closed (the window is going away)."""


class StoreWriter:
    """One thread, one writing connection, a queue of write callables run in order."""

    def __init__(self, home: Path, name: str = "store-writer") -> None:
        self.home = Path(home)
        self.writes = 0  # callables run so far (tests read it)
        self._queue: deque[tuple[Callable[[Library], Any], Future[Any]]] = deque()
        self._cond = threading.Condition()
        self._closing = False
        self._refusal: BaseException | None = None  # why the library could not be opened
        self._opened: Future[None] = Future()
        self._library: Library | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        """Start the thread and wait until its connection is open (it upgrades the schema when needed); raises what
        opening the library raised (e.g. a library a newer version has upgraded)."""
        self._thread.start()
        self._opened.result()

    @property
    def thread(self) -> threading.Thread:
        """The writer's thread (tests check where writes ran)."""
        return self._thread

    def on_writer_thread(self) -> bool:
        """True when called from the writer's own thread."""
        return threading.get_ident() == self._thread.ident

    def submit(self, fn: Callable[Concatenate[Library, P], R], *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        """Queue `fn(library, *args, **kwargs)`; its result or exception arrives in the returned future."""
        future: Future[R] = Future()
        with self._cond:
            if self._closing or self._thread.ident is None:
                future.set_exception(self._refusal or StoreClosed("The library is closed; nothing more can be written."))
                return future
            self._queue.append((lambda library: fn(library, *args, **kwargs), future))
            self._cond.notify_all()
        return future

    def call(self, fn: Callable[Concatenate[Library, P], R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run `fn(library, *args, **kwargs)` on the writer and wait for its result (its exception is raised here).
        On the writer's own thread (a write calling another) it runs at once: waiting would wait for itself."""
        if self.on_writer_thread():
            assert self._library is not None
            return fn(self._library, *args, **kwargs)
        return self.submit(fn, *args, **kwargs).result()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything queued before this call has run; False when that took longer than `timeout`."""
        marker = self.submit(lambda library: None)
        try:
            marker.result(timeout)
        except StoreClosed:
            return not self._thread.is_alive()
        except TimeoutError:
            return False
        return True

    def close(self, timeout: float = 30.0) -> bool:
        """Take no more writes, run the queued ones and end the thread; False when it had not ended in `timeout`."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        if self._thread.ident is None:
            return True
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning("the store writer had not finished its queue %.0f s after closing", timeout)
            return False
        return True

    def _run(self) -> None:
        try:
            self._library = Library(self.home)
        except BaseException as exc:  # noqa: BLE001 - handed to start()'s caller and to every later write
            with self._cond:
                self._closing, self._refusal = True, exc
                refused = list(self._queue)
                self._queue.clear()
            for _, future in refused:
                future.set_exception(exc)
            self._opened.set_exception(exc)
            return
        self._opened.set_result(None)
        try:
            while True:
                with self._cond:
                    while not self._queue and not self._closing:
                        self._cond.wait()
                    if not self._queue:
                        return
                    job, future = self._queue.popleft()
                if not future.set_running_or_notify_cancel():
                    continue
                try:
                    result = job(self._library)
                except BaseException as exc:  # noqa: BLE001 - the caller gets it; the writer goes on
                    future.set_exception(exc)
                else:
                    future.set_result(result)
                self.writes += 1
        finally:
            self._library.close()


class ReadingLibrary(Library):
    """A connection that only reads (the window thread's): its connection is `query_only`, and a `@store.writes`
    function or a transaction called with it raises, so a write on the GUI thread is a bug found at once."""

    def __init__(self, home: Path) -> None:
        super().__init__(home)  # the writer has opened (and upgraded) the library first: this migrates nothing
        self.conn.execute("PRAGMA query_only = ON")

    def run_write(self, fn: Callable[Concatenate[Library, P], R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Refused: this thread does not write (hand the write to a worker that uses a `QueuedLibrary`)."""
        raise RuntimeError(f"{fn.__qualname__} writes; this connection only reads")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Refused: a transaction opened here would write past the queue (mark the function `@store.writes`)."""
        raise RuntimeError("this connection only reads: hand the write to the store writer (@store.writes)")
        yield self.conn  # pragma: no cover - makes this a generator like Library.transaction


class QueuedLibrary(ReadingLibrary):
    """A worker thread's reading connection whose writes go to the store writer: `@store.writes` functions called
    with it run there (the caller waits for the result); its own connection stays read-only."""

    def __init__(self, home: Path, writer: StoreWriter) -> None:
        super().__init__(home)
        self.writer = writer

    def run_write(self, fn: Callable[Concatenate[Library, P], R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run the write on the store writer and wait for it."""
        return self.writer.call(fn, *args, **kwargs)
