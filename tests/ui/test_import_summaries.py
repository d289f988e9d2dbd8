"""With an index model configured, importing in the window also writes summaries and a description (on the same
writer thread, after the document is ready); a model that is down never fails the import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pageindex_desktop.ui.main_window import MainWindow
from tests.integration.fake_openai import FakeOpenAI, text

TIMEOUT = 30_000


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    with FakeOpenAI() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        yield server


def _description(window: MainWindow, doc_id: str) -> str:
    record = window.library.get(doc_id)
    return record.description if record else ""


def test_an_import_gets_its_description_from_the_index_model(fake: FakeOpenAI, window: MainWindow,
                                                             report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    fake.policy = lambda body: text(json.dumps({"summaries": {}, "description": "A five-chapter sample report."}))
    window.import_paths([report_pdf])
    qtbot.waitUntil(lambda: bool(window.library.documents()) and window.library.documents()[0].status == "ready",
                    timeout=TIMEOUT)
    doc_id = window.library.documents()[0].doc_id
    qtbot.waitUntil(lambda: _description(window, doc_id) == "A five-chapter sample report.", timeout=TIMEOUT)
    assert all(node.summary for node in window.library.tree(doc_id))  # short chapters keep their own text
    assert fake.chat_requests(), "the index model was asked"


def test_a_model_that_is_down_leaves_the_import_ready(monkeypatch: pytest.MonkeyPatch, window: MainWindow,
                                                      report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    window.import_paths([report_pdf])
    qtbot.waitUntil(lambda: bool(window.library.documents()) and window.library.documents()[0].status == "ready",
                    timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not window.worker.jobs(), timeout=TIMEOUT)
    record = window.library.documents()[0]
    assert record.status == "ready" and record.error == ""
    assert all(node.summary for node in window.library.tree(record.doc_id))  # excerpts stand in


def _half_summarized(home: Path, report_pdf: Path) -> str:
    """A library whose summaries run stopped part-way: the document is imported, one section summarized."""
    from pageindex_desktop.core.ingest.indexer import import_pdf
    from pageindex_desktop.core.outline.tree import walk
    from pageindex_desktop.core.library.store import Library

    with Library(home) as library:
        doc_id = import_pdf(library, report_pdf).doc_id
        first = next(iter(walk(library.tree(doc_id))))
        library.set_summaries(doc_id, {first.node_id: "Written before the crash."}, None, {first.node_id: "model"})
        assert doc_id in library.unfinished_summaries()
    return doc_id


def test_the_row_says_how_far_stopped_summaries_got(home: Path, report_pdf: Path, qtbot,  # type: ignore[no-untyped-def]
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PAGEINDEX_CHAT_MODEL"):
        monkeypatch.delenv(name, raising=False)  # no model: nothing can resume them, the row says so
    doc_id = _half_summarized(home, report_pdf)
    window = MainWindow(home)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: bool(window.library_panel.model.rows()), timeout=TIMEOUT)
    row = window.library_panel.model.rows()[0]
    written, wanted = window.library.unfinished_summaries()[doc_id]
    assert f"summaries: {written} of {wanted}" in row.detail() and written == 1
    window.close()


def test_the_window_finishes_stopped_summaries_at_start(fake: FakeOpenAI, home: Path, report_pdf: Path,
                                                        qtbot) -> None:  # type: ignore[no-untyped-def]
    fake.policy = lambda body: text(json.dumps({"summaries": {
        i: f"Summary {i}." for i in __import__("re").findall(r"### id (\S+):", body["messages"][-1]["content"])}}))
    doc_id = _half_summarized(home, report_pdf)
    window = MainWindow(home)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: doc_id not in window.library.unfinished_summaries() and not window.worker.jobs(),
                    timeout=TIMEOUT)
    assert fake.chat_requests(), "the rest was asked for"
    qtbot.waitUntil(lambda: "summaries:" not in window.library_panel.model.rows()[0].detail(), timeout=TIMEOUT)
    window.close()
