"""The window writes the store through one writer (core/library/store_writer.py): an import, a rename, a removal,
the reader's place and a chat all reach the database on the writer's connection and none on the window thread's;
the place and a chat are written while an import-worker job sits in a minutes-long model call; what is pending
when the window closes is written; and the window thread never reads the keychain."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

from pageindex_desktop.core.assistant.settings import KEYRING_SERVICE, ModelSettings, save_settings
from pageindex_desktop.core.library import chats
from pageindex_desktop.core.library.positions import load_position
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QAction, Qt
from pageindex_desktop.ui.workers import Job
from memory_keyring import MemoryKeyring
from tests.integration.fake_openai import FakeOpenAI, Reply, text
from tests.integration.libdata import annual_report
from tests.ui.test_window import TIMEOUT, wait_open

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def traced(conn: sqlite3.Connection, seen: list[tuple[str, str]]) -> None:
    """Record (thread name, statement) of every write statement the connection runs."""

    def trace(statement: str) -> None:
        if statement.lstrip().upper().startswith(WRITES):
            seen.append((threading.current_thread().name, " ".join(statement.split())))

    conn.set_trace_callback(trace)


def go_to_page(qtbot, window: MainWindow, page: int) -> None:  # type: ignore[no-untyped-def]
    box = window.viewer.page_box
    box.setFocus()
    box.setText(str(page))
    qtbot.keyClick(box, Qt.Key.Key_Return)


def test_every_write_of_the_window_runs_on_the_one_writer_and_none_waits_for_a_long_job(  # type: ignore[no-untyped-def]
        home: Path, fake: FakeOpenAI, no_model_env: None, report_pdf: Path, qtbot) -> None:
    held, release = threading.Event(), threading.Event()

    def reply(body: dict) -> Reply:
        if body.get("model") == "fake-index":  # the import worker's follow-up job: a model call that takes long
            held.set()
            release.wait(TIMEOUT / 1000)
            return text(json.dumps({"summaries": {}, "description": "A sample report."}))
        return text("The report says revenue rose.")  # the assistant's answer

    fake.policy = reply
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat",
                                index_model="fake-index"), home)
    window = MainWindow(home)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    on_writer: list[tuple[str, str]] = []
    on_window: list[tuple[str, str]] = []
    try:
        window.store.call(lambda library: traced(library.conn, on_writer))
        traced(window.library.conn, on_window)
        assert window.library.conn.execute("PRAGMA query_only").fetchone()[0] == 1

        window.import_paths([report_pdf])
        doc_id = wait_open(qtbot, window)
        qtbot.waitUntil(held.is_set, timeout=TIMEOUT)  # the worker's job is now inside its model call
        (job, *_) = window.worker.jobs()
        assert job.kind in ("expand", "summarize") and job.started

        with Library(home) as reader:
            go_to_page(qtbot, window, 9)
            place = window.viewer.view.reading_position()
            assert place is not None and place.page == 9
            # the page, not the whole place: a relayout after the jump (the pane's width settling under load)
            # changes the fit-width zoom and saves the place again, so an exact match could be overtaken
            qtbot.waitUntil(lambda: getattr(load_position(reader, doc_id), "page", None) == 9, timeout=TIMEOUT)
            assert not release.is_set() and window.worker.jobs()[0] is job  # written while the job still runs

            pane = window.assistant
            qtbot.waitUntil(lambda: bool(pane.model), timeout=TIMEOUT)
            pane.focus_question()
            qtbot.keyClicks(pane.question, "What rose?")
            qtbot.keyClick(pane.question, Qt.Key.Key_Return)
            qtbot.waitUntil(lambda: "revenue rose" in pane.browser.toPlainText(), timeout=TIMEOUT)
            qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
            stored = [m.content for c in chats.chats_for_scope(reader, [doc_id]) + chats.chats_for_scope(reader, None)
                      for m in chats.messages(reader, c.id)]
            assert "What rose?" in stored and "The report says revenue rose." in stored
            assert not release.is_set() and window.worker.jobs()[0] is job  # the chat did not wait for the job either

        release.set()
        qtbot.waitUntil(lambda: not window.worker.jobs(), timeout=TIMEOUT)
        with qtbot.waitSignal(window.worker.jobFinished, timeout=TIMEOUT):
            window.worker.submit(Job("rename", doc_id=doc_id, title="The renamed report"))
        assert window.library.get(doc_id).title == "The renamed report"  # type: ignore[union-attr]
        go_to_page(qtbot, window, 20)
    finally:
        release.set()
        window.close()  # the place on page 20 is still pending: closing writes it

    with Library(home) as reader:
        assert load_position(reader, doc_id).page == 20  # type: ignore[union-attr]
    statements = [s for _, s in on_writer]
    assert on_window == []  # the window thread's connection wrote nothing
    assert {name for name, _ in on_writer} == {window.store.thread.name}
    for wanted in ("UPDATE documents SET status = 'importing'", "INSERT INTO pages", "INSERT INTO reading_positions",
                   "INSERT INTO messages", "UPDATE documents SET title = 'The renamed report', renamed = 1",
                   "UPDATE nodes SET summary"):  # (the statements as run, their parameters bound)
        assert any(s.startswith(wanted) for s in statements), (wanted, statements)


def test_a_removal_from_the_window_is_written_by_the_writer(window: MainWindow, report_pdf: Path,  # type: ignore[no-untyped-def]
                                                            qtbot) -> None:
    on_writer: list[tuple[str, str]] = []
    window.store.call(lambda library: traced(library.conn, on_writer))
    window.import_paths([report_pdf])
    doc_id = wait_open(qtbot, window)
    with qtbot.waitSignal(window.worker.jobFinished, timeout=TIMEOUT):
        window.worker.submit(Job("remove", doc_id=doc_id))
    assert window.library.get(doc_id) is None
    assert any(s.startswith("DELETE FROM documents") for _, s in on_writer)


def test_the_window_thread_never_reads_the_keychain(home: Path, fake: FakeOpenAI, no_model_env: None,  # type: ignore[no-untyped-def]
                                                    memory_keyring: MemoryKeyring, monkeypatch, qtbot) -> None:
    on_main: list[bool] = []  # per keychain read: was it on the window thread?
    read = memory_keyring.get_password

    def watched(service: str, user: str) -> str | None:
        on_main.append(threading.current_thread() is threading.main_thread())
        return read(service, user)

    monkeypatch.setattr(memory_keyring, "get_password", watched)
    memory_keyring.set_password(KEYRING_SERVICE, fake.url, "sk-test")
    with Library(home) as library:
        doc_id = annual_report(library)
    fake.policy = lambda body: text(json.dumps({"summaries": {}, "description": "A bank's annual report."}))
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat"), home)
    window = MainWindow(home)  # the pane finds its model, the summaries left part-way are looked at
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: bool(window.assistant.model), timeout=TIMEOUT)
        qtbot.waitUntil(lambda: bool(window.library_panel.model.rows()), timeout=TIMEOUT)
        window.library_panel.select_doc(doc_id)  # (the document has text and no file: it is not opened)
        assert window.library_panel.selected_doc_ids() == [doc_id]
        action = next(a for a in window.findChildren(QAction) if a.objectName() == "actionSummarize")
        with qtbot.waitSignal(window.assistant_link.summarizer.finished, timeout=TIMEOUT) as done:
            action.trigger()  # Summarize needs to know whether an index model (and its key) is set up
        assert done.args[0], "the summaries ran with the model"
    finally:
        window.close()
    assert on_main and not any(on_main)
