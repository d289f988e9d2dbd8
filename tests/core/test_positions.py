"""Reading positions: stored per document, gone with it, debounced off the caller's thread, and still there after
the process is killed."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.library.migrations import MIGRATIONS, migrate
from pageindex_desktop.core.outline.tree import Outline
from pageindex_desktop.core.library.positions import (
    PositionWriter,
    ReadingPosition,
    last_document,
    load_position,
    save_positions,
)
from pageindex_desktop.core.library.store import Library, sha256_of
from pageindex_desktop.core.library.store_writer import StoreWriter

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(library: Library) -> Iterator[StoreWriter]:
    """The store writer the position writer hands its transactions to (the window's one writer)."""
    writer = StoreWriter(library.home)
    writer.start()
    yield writer
    writer.close()


def _ready_doc(library: Library, tmp_path: Path, data: bytes) -> str:
    src = tmp_path / f"doc-{len(data)}.pdf"
    src.write_bytes(data)
    doc_id = library.add_file(src, sha256_of(src), src.stem).doc_id
    library.save_index(doc_id, title=src.stem, pages=[PageData(1, "1", "text", 612, 792)],
                       outline=Outline("pages", []))
    return doc_id


def _wait(condition, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_a_position_round_trips_and_the_newest_read_document_is_the_last_one(library: Library,
                                                                               tmp_path: Path) -> None:
    first = _ready_doc(library, tmp_path, b"%PDF-1.4 one")
    second = _ready_doc(library, tmp_path, b"%PDF-1.4 second")
    assert load_position(library, first) is None and last_document(library) is None
    assert save_positions(library, {first: ReadingPosition(17, -4.5, "", 1.5)}, now=100.0) == 1
    save_positions(library, {second: ReadingPosition(3, 120.0, "page", 0.8)}, now=200.0)
    assert load_position(library, first) == ReadingPosition(17, -4.5, "", 1.5)
    assert load_position(library, second) == ReadingPosition(3, 120.0, "page", 0.8)
    assert last_document(library) == second
    save_positions(library, {first: ReadingPosition(18)}, now=300.0)  # an update, not a second row
    assert load_position(library, first) == ReadingPosition(18, 0.0, "width", 1.0)
    assert last_document(library) == first
    library.set_status(first, "failed", "broken")  # only a readable document reopens by itself
    assert last_document(library) == second


def test_removing_a_document_removes_its_position_and_a_late_write_for_it_is_dropped(library: Library,
                                                                                     tmp_path: Path) -> None:
    doc_id = _ready_doc(library, tmp_path, b"%PDF-1.4 gone")
    save_positions(library, {doc_id: ReadingPosition(2)})
    library.remove(doc_id)
    assert library.conn.execute("SELECT COUNT(*) FROM reading_positions").fetchone()[0] == 0
    assert save_positions(library, {doc_id: ReadingPosition(5), "nosuchdoc": ReadingPosition(1)}) == 0
    assert load_position(library, doc_id) is None


def test_damaged_values_are_read_back_harmless(library: Library, tmp_path: Path) -> None:
    doc_id = _ready_doc(library, tmp_path, b"%PDF-1.4 odd")
    library.conn.execute("INSERT INTO reading_positions VALUES (?, 0, 'nan', 'sideways', -3, 1)", (doc_id,))
    assert load_position(library, doc_id) == ReadingPosition(1, 0.0, "width", 1.0)


def test_a_schema_3_library_gains_the_table_and_keeps_its_documents(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "old.sqlite3", isolation_level=None)
    for version, script in enumerate(MIGRATIONS[:3], start=1):
        conn.executescript(script)
        conn.execute(f"PRAGMA user_version = {version}")
    conn.execute("INSERT INTO documents (id, sha256, status, created_at, updated_at) VALUES ('abc', 'abc', 'ready', 1, 1)")
    assert migrate(conn) == len(MIGRATIONS) >= 6  # every later step too (7: pages.ocr, 8: nodes.source)
    conn.execute("INSERT INTO reading_positions (doc_id, page, updated_at) VALUES ('abc', 9, 2)")
    assert conn.execute("SELECT page, fit FROM reading_positions").fetchall() == [(9, "width")]
    assert conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0] == 1
    conn.close()


def test_the_writer_writes_a_burst_of_moves_once_with_the_last_position(library: Library, tmp_path: Path, store: StoreWriter) -> None:
    doc_id = _ready_doc(library, tmp_path, b"%PDF-1.4 burst")
    writer = PositionWriter(store, debounce_s=0.3, max_delay_s=10.0)
    writer.start()
    try:
        for page in range(1, 201):  # a fast scroll through 200 pages
            writer.put(doc_id, ReadingPosition(page, float(page)))
        assert writer.pending(doc_id) == ReadingPosition(200, 200.0)
        assert writer.batches == 0  # still moving: nothing written yet
        assert _wait(lambda: writer.batches > 0)
        assert writer.batches == 1 and writer.pending(doc_id) is None
        assert load_position(library, doc_id) == ReadingPosition(200, 200.0)
    finally:
        writer.stop()


def test_the_writer_writes_at_least_every_max_delay_while_the_reader_keeps_moving(library: Library,
                                                                                 tmp_path: Path, store: StoreWriter) -> None:
    doc_id = _ready_doc(library, tmp_path, b"%PDF-1.4 moving")
    writer = PositionWriter(store, debounce_s=10.0, max_delay_s=0.3)
    writer.start()
    try:
        writer.put(doc_id, ReadingPosition(4))
        assert _wait(lambda: load_position(library, doc_id) == ReadingPosition(4))
    finally:
        writer.stop()


def test_put_never_waits_for_a_locked_database_and_stop_writes_what_is_pending(library: Library,
                                                                              tmp_path: Path, store: StoreWriter) -> None:
    doc_id = _ready_doc(library, tmp_path, b"%PDF-1.4 locked")
    writer = PositionWriter(store, debounce_s=0.0)
    writer.start()
    blocker = Library(library.home)
    try:
        blocker.conn.execute("BEGIN IMMEDIATE")  # an import's long transaction holds the write lock
        writer.put(doc_id, ReadingPosition(2))
        assert _wait(lambda: writer.pending(doc_id) is not None and writer._writing)  # the writer waits on the lock
        started = time.perf_counter()
        for page in range(3, 103):
            writer.put(doc_id, ReadingPosition(page))
        assert time.perf_counter() - started < 0.5  # the caller (the GUI thread) did not wait
        assert writer.pending(doc_id) == ReadingPosition(102)
        blocker.conn.execute("COMMIT")
        writer.stop()
        assert load_position(library, doc_id) == ReadingPosition(102)
        writer.put(doc_id, ReadingPosition(1))  # after stop: ignored, no thread to write it
        assert writer.pending(doc_id) is None
    finally:
        if blocker.conn.in_transaction:
            blocker.conn.execute("ROLLBACK")
        blocker.close()
        writer.stop()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_position_written_while_reading_survives_the_process_being_killed(library: Library,
                                                                           tmp_path: Path) -> None:
    doc_id = _ready_doc(library, tmp_path, b"%PDF-1.4 crash")
    code = textwrap.dedent(f"""
        import os, signal, time
        from pathlib import Path
        from pageindex_desktop.core.library.positions import PositionWriter, ReadingPosition
        from pageindex_desktop.core.library.store_writer import StoreWriter
        store = StoreWriter(Path({str(library.home)!r}))
        store.start()
        writer = PositionWriter(store, debounce_s=0.1)
        writer.start()
        writer.put({doc_id!r}, ReadingPosition(42, 17.5, "", 2.0))
        while writer.batches == 0:  # the reader paused: the debounced write went through
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGKILL)  # no stop(), no flush, no close
    """)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", code], env=env, timeout=60)
    assert result.returncode == -signal.SIGKILL
    assert load_position(library, doc_id) == ReadingPosition(42, 17.5, "", 2.0)
