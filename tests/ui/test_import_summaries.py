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
