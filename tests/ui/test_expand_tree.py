"""The finer tree in the window: after an import (with a model) and from Assistant ▸ Make Tree Finer, the sections
the model found appear in the outline with a star and a tooltip; a model that is down leaves the tree as it was."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.reader.outline_model import FROM_MODEL
from pageindex_desktop.ui.qt import QAction, QModelIndex, Qt
from tests.integration.fake_openai import FakeOpenAI, Reply, text

TIMEOUT = 30_000
SUBHEADINGS = {3: "Lending Standards", 6: "Deposit Growth"}
CHAPTERS = {1: "1 Banking", 9: "2 Markets", 13: "3 Outlook"}


def canal_pdf(path: Path) -> Path:
    """Three bookmarked chapters (pages 1-8, 9-12, 13-16); chapter 1 prints two sub-headings (pages 3 and 6) that
    no bookmark lists."""
    doc = pymupdf.open()
    for number in range(1, 17):
        page = doc.new_page(width=612, height=792)
        y = 72
        if number in CHAPTERS:
            page.insert_text((72, y), CHAPTERS[number], fontsize=20)
            y += 40
        if number in SUBHEADINGS:
            page.insert_text((72, y), SUBHEADINGS[number], fontsize=11)
            y += 30
        page.insert_text((72, y), f"This is page {number} of the sample report on lending and deposits.", fontsize=11)
    doc.set_toc([[1, title, number] for number, title in CHAPTERS.items()])
    doc.save(path)
    doc.close()
    return path


def model(body: dict[str, Any]) -> Reply:
    """The scripted index model: the printed sub-headings plus an unprinted one; summaries for the rest."""
    prompt = body["messages"][-1]["content"]
    if '"sections"' in prompt:
        out = {}
        for node_id, first, last in re.findall(r"### id (\S+): .* \(pages (\d+)-(\d+)\)", prompt):
            out[node_id] = [{"title": t, "page": p} for p, t in SUBHEADINGS.items() if int(first) <= p <= int(last)]
            out[node_id].append({"title": "Invented Heading", "page": int(first) + 1})
        return text(json.dumps({"sections": out}))
    return text(json.dumps({"summaries": {i: f"Summary {i}." for i in re.findall(r"### id (\S+):", prompt)}}))


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    with FakeOpenAI() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        yield server


def rows(window: MainWindow) -> list[tuple[str, bool, str]]:
    """Every outline row as the reader sees it: title, whether it shows the star, its tooltip."""
    model = window.outline.model
    found: list[tuple[str, bool, str]] = []

    def visit(parent: QModelIndex) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            found.append((str(model.data(index)), model.data(index, Qt.ItemDataRole.DecorationRole) is not None,
                          str(model.data(index, Qt.ItemDataRole.ToolTipRole))))
            visit(index)

    visit(QModelIndex())
    return found


def test_an_import_with_a_model_gets_the_finer_tree_and_the_outline_marks_it(
        fake: FakeOpenAI, window: MainWindow, tmp_path: Path, qtbot, qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    fake.policy = model
    window.import_paths([canal_pdf(tmp_path / "bank.pdf")])
    qtbot.waitUntil(lambda: "Deposit Growth" in [r[0] for r in rows(window)], timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not window.worker.jobs(), timeout=TIMEOUT)
    shown = rows(window)
    assert [r[0] for r in shown] == ["1 Banking", "Lending Standards", "Deposit Growth", "2 Markets",
                                   "3 Outlook"]
    assert [r[1] for r in shown] == [False, True, True, False, False]
    assert FROM_MODEL in shown[1][2] and FROM_MODEL not in shown[0][2]
    assert "Invented Heading" not in json.dumps(shown)
    qtmodeltester.check(window.outline.model)
    doc_id = window.library.documents()[0].doc_id
    assert all(n.summary for n in window.library.tree(doc_id)[0].children)  # summarized after the split


def test_make_tree_finer_from_the_menu_and_a_model_that_is_down(
        monkeypatch: pytest.MonkeyPatch, fake: FakeOpenAI, window: MainWindow, tmp_path: Path,
        qtbot) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # down during the import
    window.import_paths([canal_pdf(tmp_path / "bank.pdf")])
    qtbot.waitUntil(lambda: bool(window.library.documents()) and window.library.documents()[0].status == "ready",
                    timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not window.worker.jobs(), timeout=TIMEOUT)
    qtbot.waitUntil(lambda: [r[0] for r in rows(window)] == list(CHAPTERS.values()), timeout=TIMEOUT)
    action = window.findChild(QAction, "actionExpandTree")
    assert action is not None and action.text().replace("&", "") == "Make Tree Finer"
    with qtbot.waitSignal(window.assistant_link.expander.finished, timeout=TIMEOUT):
        action.trigger()
    assert "left as it was" in window.statusBar().currentMessage()
    assert [r[0] for r in rows(window)] == list(CHAPTERS.values())
    monkeypatch.setenv("OPENAI_BASE_URL", fake.url)
    fake.policy = model
    said = lambda message: message.startswith("Finer tree:")  # noqa: E731 - the status line the expander shows
    with qtbot.waitSignal(window.assistant_link.expander.message, timeout=TIMEOUT, check_params_cb=said) as shown:
        action.trigger()
    assert shown.args[0].startswith("Finer tree: 1 of 1 long section split (2 headings added, 1 rejected)")
    qtbot.waitUntil(lambda: "Lending Standards" in [r[0] for r in rows(window)], timeout=TIMEOUT)
