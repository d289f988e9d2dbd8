"""The store's one writer (core/library/store_writer.py): a worker's writes run on the writer's thread in the order
they came, results and errors come back to the caller, a reading connection cannot write past the queue, closing
writes what was queued, and a failed write leaves the previous state."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import pytest

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.errors import DocumentNotFound, LibraryTooNew
from pageindex_desktop.core.library import chats
from pageindex_desktop.core.library.migrations import MIGRATIONS
from pageindex_desktop.core.library.positions import ReadingPosition, load_position, save_positions
from pageindex_desktop.core.library.store import Library, sha256_of
from pageindex_desktop.core.library.store_writer import QueuedLibrary, ReadingLibrary, StoreClosed, StoreWriter
from pageindex_desktop.core.library.tree_store import add_usage, usage
from pageindex_desktop.core.outline.tree import Node, Outline

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "BEGIN IMMEDIATE", "COMMIT")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def store(home: Path) -> Iterator[StoreWriter]:
    writer = StoreWriter(home)
    writer.start()
    yield writer
    writer.close()


def _traced(conn: sqlite3.Connection, seen: list[tuple[str, str]]) -> None:
    """Record (thread name, statement) of every write statement the connection runs."""

    def trace(statement: str) -> None:
        if statement.lstrip().upper().startswith(WRITES):
            seen.append((threading.current_thread().name, statement.split()[0].upper()))

    conn.set_trace_callback(trace)


def _on_thread(fn, name: str = "a-worker"):  # type: ignore[no-untyped-def]
    """Run `fn()` on a thread of its own (as the import worker and the assistant do) and return what it returned
    or raise what it raised."""
    result: Future[object] = Future()

    def run() -> None:
        try:
            result.set_result(fn())
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            result.set_exception(exc)

    thread = threading.Thread(target=run, name=name)
    thread.start()
    thread.join(60)
    return result.result(0)


def test_a_workers_writes_run_on_the_writer_thread_and_its_own_connection_writes_nothing(
        home: Path, store: StoreWriter, tmp_path: Path) -> None:
    on_writer: list[tuple[str, str]] = []
    on_worker: list[tuple[str, str]] = []
    store.call(lambda library: _traced(library.conn, on_writer))
    src = tmp_path / "report.pdf"
    src.write_bytes(b"%PDF-1.4 a report")

    def work() -> tuple[str, str, list[chats.Message]]:
        with QueuedLibrary(home, store) as library:
            _traced(library.conn, on_worker)
            doc_id = library.add_file(src, sha256_of(src), "report").doc_id  # the copy stays here, the row goes
            library.set_status(doc_id, "importing")
            library.save_index(doc_id, title="Report", pages=[PageData(1, "i", "Revenue rose.", 612, 792)],
                               outline=Outline("pages", [Node("0001", "Revenue", 1, 1, 1)]))
            library.set_summaries(doc_id, {"0001": "Revenue rose."}, "A report.", {"0001": "model"})
            renamed = library.rename(doc_id, "  The   annual report ")
            add_usage(library, doc_id, "summaries", 2, 100, 20)
            save_positions(library, {doc_id: ReadingPosition(1, 3.0)})
            chat = chats.create_chat(library, [doc_id])
            chats.add_message(library, chat, "user", "What rose?")
            chats.add_message(library, chat, "assistant", "Revenue.")
            return doc_id, renamed.title, chats.messages(library, chat)  # read back on this thread's connection

    doc_id, title, stored = _on_thread(work)
    assert title == "The annual report"
    assert [m.content for m in stored] == ["What rose?", "Revenue."]
    assert on_worker == []  # the worker's connection wrote nothing ...
    assert {name for name, _ in on_writer} == {store.thread.name}  # ... every write ran on the writer's thread
    assert [s for _, s in on_writer].count("COMMIT") == 10  # one transaction per write, in the order they came
    with Library(home) as library:
        assert library.get(doc_id).status == "ready"  # type: ignore[union-attr]
        assert load_position(library, doc_id) == ReadingPosition(1, 3.0)
        assert [u.tokens for u in usage(library, doc_id)] == [120]
    assert (home / "files" / f"{sha256_of(src)}.pdf").exists()


def test_an_error_in_a_write_reaches_the_caller_leaves_the_previous_state_and_the_writer_goes_on(
        home: Path, store: StoreWriter, tmp_path: Path) -> None:
    with QueuedLibrary(home, store) as library:
        with pytest.raises(DocumentNotFound):
            library.rename("nosuchdoc", "A title")

        def half_written(writer: Library) -> None:  # a crash between two statements of one transaction
            with writer.transaction() as conn:
                conn.execute("INSERT INTO chats (scope, title, created_at, updated_at) VALUES ('*', 'x', 1, 1)")
                raise OSError("the disk went away")

        with pytest.raises(OSError):
            store.call(half_written)
        assert library.conn.execute("SELECT COUNT(*) FROM chats").fetchone()[0] == 0  # rolled back whole
        assert chats.create_chat(library, None) > 0  # the writer still writes


def test_a_reading_connection_cannot_write_past_the_queue(home: Path, store: StoreWriter) -> None:
    with ReadingLibrary(home) as window, QueuedLibrary(home, store) as worker:
        for library in (window, worker):
            with pytest.raises(RuntimeError):
                with library.transaction():
                    pass
            with pytest.raises(sqlite3.OperationalError, match="readonly"):
                library.conn.execute("INSERT INTO chats (scope, title, created_at, updated_at) VALUES ('*', '', 1, 1)")
        with pytest.raises(RuntimeError, match="only reads"):
            chats.create_chat(window, None)  # the window thread never writes, not even through the queue
        assert window.conn.execute("SELECT COUNT(*) FROM chats").fetchone()[0] == 0


def test_close_writes_everything_queued_then_refuses(home: Path) -> None:
    store = StoreWriter(home)
    store.start()
    gate = threading.Event()
    store.submit(lambda library: gate.wait(30))  # the writer is busy: what follows waits in the queue
    queued = [store.submit(chats.create_chat, None, f"chat {n}") for n in range(50)]
    assert not any(f.done() for f in queued)
    gate.set()
    assert store.close()
    assert [f.result(0) for f in queued] == list(range(1, 51))  # in the order they came
    assert not store.thread.is_alive()
    with pytest.raises(StoreClosed):
        store.call(chats.create_chat, None)
    with Library(home) as library:
        assert library.conn.execute("SELECT COUNT(*) FROM chats").fetchone()[0] == 50


def test_a_library_this_version_cannot_open_is_refused_at_start_and_for_every_write(home: Path) -> None:
    Library(home).close()
    with sqlite3.connect(home / "library.sqlite3") as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    store = StoreWriter(home)
    with pytest.raises(LibraryTooNew):
        store.start()
    store.thread.join(5)
    assert not store.thread.is_alive()  # nothing left running
    with pytest.raises(LibraryTooNew):
        store.call(chats.create_chat, None)


def test_a_writer_never_started_refuses_instead_of_hanging(home: Path) -> None:
    with pytest.raises(StoreClosed):
        StoreWriter(home).call(chats.create_chat, None)
