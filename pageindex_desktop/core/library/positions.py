"""Where the reader left each document: the page, the scroll within it and the zoom, kept in the library database
(`reading_positions`, schema 5) so that reopening a document, or the app after a restart or a crash, returns there.

A position changes on every scroll step. The window hands each one to a `PositionWriter`: a thread that keeps the
newest position per document and, once the reader pauses (`DEBOUNCE_S`) and at least every `MAX_DELAY_S` while they
keep moving, hands them to the store's one writer (`store_writer.StoreWriter`) as one transaction and waits for it.
So the store sees a handful of writes per reading session rather than one per scroll pixel, and the GUI thread never
waits on the database: only this thread waits, and only for the writer's queue, which holds short transactions (an
import's long extraction and model calls run elsewhere). A committed write survives a crash of the app (SQLite
WAL); a crash loses at most the last `DEBOUNCE_S` of movement.
"""

from __future__ import annotations

import logging
import math
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pageindex_desktop.core.errors import PageIndexError
from pageindex_desktop.core.library.store import Library, writes
from pageindex_desktop.core.library.store_writer import StoreWriter

log = logging.getLogger(__name__)

DEBOUNCE_S = 1.0  # write once the reader has not moved for this long ...
MAX_DELAY_S = 5.0  # ... or this long after the first unsaved move, whichever comes first
RETRY_S = 5.0  # after a failed write (the database locked past its timeout), try again this much later
FITS = ("width", "page", "")  # fit width, fit page, a fixed zoom
MIN_ZOOM, MAX_ZOOM = 0.05, 16.0


@dataclass(frozen=True)
class ReadingPosition:
    """One document's place: what the page view needs to show it again as the reader left it."""

    page: int  # the page shown (1-based physical), the one the page box names
    top: float = 0.0  # the viewport's top edge relative to that page's top, in PDF points (negative: above it)
    fit: str = "width"  # 'width', 'page', or '' when `zoom` is a fixed zoom
    zoom: float = 1.0  # logical pixels per PDF point as the reader last had it

    def normalised(self) -> "ReadingPosition":
        """The same position with impossible values made harmless (a hand-edited or damaged row)."""
        zoom = self.zoom if math.isfinite(self.zoom) and self.zoom > 0 else 1.0
        top = self.top if math.isfinite(self.top) else 0.0
        return ReadingPosition(max(1, int(self.page)), float(top), self.fit if self.fit in FITS else "width",
                               min(MAX_ZOOM, max(MIN_ZOOM, float(zoom))))


def load_position(library: Library, doc_id: str) -> ReadingPosition | None:
    """The stored position of a document, or None when it was never read (or is gone)."""
    row = library.conn.execute(
        "SELECT page, top_points, fit, zoom FROM reading_positions WHERE doc_id = ?", (doc_id,)
    ).fetchone()
    if row is None:
        return None
    return ReadingPosition(int(row["page"]), float(row["top_points"]), str(row["fit"]), float(row["zoom"])).normalised()


@writes
def save_positions(library: Library, positions: Mapping[str, ReadingPosition], now: float | None = None) -> int:
    """Store positions in one transaction; a document no longer in the library is skipped (it may have been removed
    while its position waited). Returns how many rows were written."""
    stamp = time.time() if now is None else now
    written = 0
    with library.transaction() as conn:
        for doc_id, position in positions.items():
            p = position.normalised()
            cursor = conn.execute(
                "INSERT INTO reading_positions (doc_id, page, top_points, fit, zoom, updated_at)"
                " SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM documents WHERE id = ?)"
                " ON CONFLICT (doc_id) DO UPDATE SET page = excluded.page, top_points = excluded.top_points,"
                " fit = excluded.fit, zoom = excluded.zoom, updated_at = excluded.updated_at",
                (doc_id, p.page, p.top, p.fit, p.zoom, stamp, doc_id),
            )
            written += max(0, cursor.rowcount)
    return written


def last_document(library: Library) -> str | None:
    """The ready document read most recently (what reopens after a restart), or None."""
    row = library.conn.execute(
        "SELECT r.doc_id FROM reading_positions r JOIN documents d ON d.id = r.doc_id"
        " WHERE d.status = 'ready' ORDER BY r.updated_at DESC LIMIT 1"
    ).fetchone()
    return str(row["doc_id"]) if row is not None else None


class PositionWriter:
    """Collects reading positions on its own thread, newest per document, and has the store writer write them,
    debounced.

    `put` only records the position under a lock held for a dict assignment, so the GUI thread can call it on every
    scroll step; `pending` answers for positions not written yet (a document reopened within the debounce).
    """

    def __init__(self, store: StoreWriter, debounce_s: float = DEBOUNCE_S, max_delay_s: float = MAX_DELAY_S,
                 retry_s: float = RETRY_S) -> None:
        self.store = store
        self.debounce_s = debounce_s
        self.max_delay_s = max_delay_s
        self.retry_s = retry_s
        self.batches = 0  # transactions written (tests check the debounce with it)
        self._cond = threading.Condition()
        self._pending: dict[str, ReadingPosition] = {}
        self._writing: dict[str, ReadingPosition] = {}  # taken from _pending, not committed yet
        self._first_put = 0.0
        self._last_put = 0.0
        self._flush = False
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="reading-positions", daemon=True)

    def start(self) -> None:
        """Start the thread (once)."""
        self._thread.start()

    def put(self, doc_id: str, position: ReadingPosition) -> None:
        """Remember the newest position of a document; it is written once the reader pauses."""
        with self._cond:
            if self._stopping:
                return
            now = time.monotonic()
            if not self._pending:
                self._first_put = now
            self._last_put = now
            self._pending[doc_id] = position
            self._cond.notify_all()

    def pending(self, doc_id: str) -> ReadingPosition | None:
        """A position recorded and not yet committed, else None (then the store has the newest one)."""
        with self._cond:
            return self._pending.get(doc_id) or self._writing.get(doc_id)

    def flush(self, timeout: float = 5.0) -> bool:
        """Write what is pending now and wait for it; False if that took longer than `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            self._flush = True
            self._cond.notify_all()
            while self._pending or self._writing:
                left = deadline - time.monotonic()
                if left <= 0 or not self._thread.is_alive():
                    return False
                self._cond.wait(left)
        return True

    def stop(self, timeout: float = 5.0) -> None:
        """Write what is pending and end the thread (the window is closing); later `put`s are ignored."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("reading positions were not written within %.0f s of closing", timeout)

    def _run(self) -> None:
        try:
            while True:
                batch = self._next_batch()
                if batch is None:
                    return
                try:
                    self.store.call(save_positions, batch)
                except (sqlite3.Error, PageIndexError) as exc:  # locked by another process past its timeout; closed
                    log.warning("could not save reading positions: %s", exc)
                    self._failed(batch)
                    continue
                with self._cond:
                    self._writing = {}
                    self.batches += 1
                    self._cond.notify_all()
        except Exception:  # never take the window down for a reading position
            log.exception("the reading-position writer stopped")
        finally:
            with self._cond:
                self._pending, self._writing = {}, {}
                self._cond.notify_all()

    def _next_batch(self) -> dict[str, ReadingPosition] | None:
        """Wait until something is due (the reader paused, the delay ran out, a flush or stop), then take it; None
        once stopping with nothing left."""
        with self._cond:
            while True:
                if not self._pending:
                    if self._stopping:
                        return None
                    self._cond.wait()
                    continue
                due = min(self._last_put + self.debounce_s, self._first_put + self.max_delay_s)
                wait = due - time.monotonic()
                if wait <= 0 or self._flush or self._stopping:
                    break
                self._cond.wait(wait)
            batch, self._pending = self._pending, {}
            self._writing = batch
            self._flush = False
            return batch

    def _failed(self, batch: dict[str, ReadingPosition]) -> None:
        """Put a batch that could not be written back (newer positions win) and try again later; when closing,
        give it up rather than keep the window waiting."""
        with self._cond:
            self._writing = {}
            if not self._stopping:
                for doc_id, position in batch.items():
                    self._pending.setdefault(doc_id, position)
                later = time.monotonic() + self.retry_s
                self._first_put = later - self.max_delay_s
                self._last_put = later - self.debounce_s
                self._flush = False
            self._cond.notify_all()
