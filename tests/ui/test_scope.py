"""One rule for open and scope (issue 12 item 4), the way a reader does it: a click opens a document, Ctrl-click
selects more, the scope bar over the chat says what the assistant reads, and that is exactly what its tools could
read through the scripted model server. A failed import is never in scope, and a context menu on another row
changes neither the scope nor the document shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pymupdf
import pytest

from pageindex_desktop.core.assistant.settings import ModelSettings, save_settings
from pageindex_desktop.ui.library.library_model import DocIdRole
from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QApplication, QMenu, QModelIndex, QPoint, Qt, QTimer
from tests.integration.fake_openai import FakeOpenAI, text, tool
from tests.ui.test_assistant_pane import anchors, click_anchor

TIMEOUT = 20_000
TITLES = ("Alpha Report", "Beta Report", "Gamma Report", "Delta Report")
CTRL = Qt.KeyboardModifier.ControlModifier


pytestmark = pytest.mark.usefixtures("no_model_env")


def titled_pdf(path: Path, title: str) -> Path:
    """Three pages that name their document: '<title> page N says the margin was N0 percent.'"""
    doc = pymupdf.open()
    for n in range(1, 4):
        doc.new_page().insert_text((72, 72), f"{title} page {n} says the margin was {n}0 percent.", fontsize=11)
    doc.set_metadata({"title": title})
    doc.save(path)
    doc.close()
    return path


@pytest.fixture
def library(window: MainWindow, tmp_path: Path, qtbot) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Four ready documents and one failed import, nothing open; title (or 'failed') → doc id."""
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"this is not a PDF at all\n" * 20)
    paths = [titled_pdf(tmp_path / f"{t.split()[0].lower()}.pdf", t) for t in TITLES] + [broken]
    window.import_paths(paths, open_when_done=False)
    model = window.library_panel.model
    qtbot.waitUntil(lambda: sorted(r.status for r in model.rows()) == ["failed"] + ["ready"] * 4, timeout=TIMEOUT)
    ids = {r.title: r.doc_id for r in model.rows() if r.status == "ready"}
    ids["failed"] = next(r.doc_id for r in model.rows() if r.status == "failed")
    assert set(ids) == {*TITLES, "failed"} and all(ids.values()) and window.current_doc == ""
    return ids


def row_index(window: MainWindow, doc_id: str) -> QModelIndex:
    proxy = window.library_panel.proxy
    return next(proxy.index(r, 0) for r in range(proxy.rowCount()) if proxy.index(r, 0).data(DocIdRole) == doc_id)


def click_row(qtbot, window: MainWindow, doc_id: str, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,  # type: ignore[no-untyped-def]
              button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> QPoint:
    view = window.library_panel.view
    point = view.visualRect(row_index(window, doc_id)).center()
    qtbot.mouseClick(view.viewport(), button, modifier, point)
    return point


def context_menu_choice(qtbot, window: MainWindow, doc_id: str, choice: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Right-click a row and click `choice` in its menu; returns the menu's entries."""
    from PySide6.QtGui import QContextMenuEvent

    seen: list[str] = []

    def pick() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(20, pick)
            return
        seen.extend(a.text() for a in menu.actions() if a.text())
        action = next(a for a in menu.actions() if a.text() == choice)
        qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())

    QTimer.singleShot(0, pick)
    view = window.library_panel.view
    point = click_row(qtbot, window, doc_id, button=Qt.MouseButton.RightButton)
    if not seen:  # the platform sent no context-menu event for the press: the reader's menu key does
        event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point, view.viewport().mapToGlobal(point))
        QApplication.sendEvent(view.viewport(), event)
    qtbot.waitUntil(lambda: bool(seen), timeout=TIMEOUT)
    return seen


def tool_results(fake: FakeOpenAI, name: str) -> list[dict[str, Any]]:
    """The envelopes of every `name` call the model was sent back (what the tools could read)."""
    last = fake.chat_requests()[-1]["messages"]
    calls = {c["id"]: c["function"]["name"] for m in last if m["role"] == "assistant"
             for c in m.get("tool_calls") or []}
    return [json.loads(m["content"]) for m in last if m["role"] == "tool" and calls.get(m["tool_call_id"]) == name]


def use_fake(window: MainWindow, fake: FakeOpenAI, qtbot) -> None:  # type: ignore[no-untyped-def]
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat",
                                judge_citations=False), window.home)
    with qtbot.waitSignal(window.assistant.modelChanged, timeout=TIMEOUT):
        window.assistant.refresh_model()


def ask(qtbot, window: MainWindow, question: str) -> None:  # type: ignore[no-untyped-def]
    pane = window.assistant
    qtbot.waitUntil(pane.ask_button.isEnabled, timeout=TIMEOUT)
    pane.focus_question()
    qtbot.keyClicks(pane.question, question)
    qtbot.keyClick(pane.question, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)


def shown(window: MainWindow) -> str:
    """The document the viewer shows, by its title bar ('' when none is laid out)."""
    viewer = window.viewer
    return viewer.title_label.text() if viewer.view.page_count() > 0 and not viewer.is_opening() else ""


def scope_text(window: MainWindow) -> Callable[[], str]:
    return window.assistant.scope_bar.label.text


def test_a_click_opens_ctrl_click_selects_and_the_tools_read_what_the_bar_says(window: MainWindow, library,  # type: ignore[no-untyped-def]
                                                                               fake: FakeOpenAI, qtbot) -> None:
    alpha, beta, gamma, delta = (library[t] for t in TITLES)
    bar, pane = window.assistant.scope_bar, window.assistant
    use_fake(window, fake, qtbot)
    click_row(qtbot, window, alpha)  # one click opens
    qtbot.waitUntil(lambda: shown(window) == "Alpha Report", timeout=TIMEOUT)
    assert bar.buttons["document"].isChecked()
    qtbot.waitUntil(lambda: scope_text(window)() == "Alpha Report", timeout=TIMEOUT)
    assert not bar.buttons["selected"].isEnabled()  # one row selected: that is "This document"

    click_row(qtbot, window, beta, CTRL)  # Ctrl-click selects more rows and opens nothing
    click_row(qtbot, window, gamma, CTRL)
    qtbot.waitUntil(lambda: bar.buttons["selected"].text() == "Selected (3)" and bar.buttons["selected"].isEnabled(),
                    timeout=TIMEOUT)
    assert shown(window) == "Alpha Report" and scope_text(window)() == "Alpha Report"
    qtbot.mouseClick(bar.buttons["selected"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: scope_text(window)().startswith("3 documents: "), timeout=TIMEOUT)
    listed = set(bar.label.toolTip().splitlines()[1:])
    assert listed == {"Alpha Report", "Beta Report", "Gamma Report"}

    fake.script(tool("browse_documents", {}),
                tool("get_page_content", {"doc": beta, "pages": "2"}, ("get_page_content", {"doc": delta, "pages": "2"})),
                text("Beta says the margin was 20 percent [Beta Report, p. 2]."))
    ask(qtbot, window, "What was the margin?")
    (browse,) = tool_results(fake, "browse_documents")
    readable = {d["doc_id"]: d["title"] for d in browse["result"]["documents"]}
    assert set(readable) == {alpha, beta, gamma} and set(readable.values()) == listed  # the bar said just this
    beta_page, delta_page = tool_results(fake, "get_page_content")
    assert beta_page["ok"] and "Beta Report page 2" in beta_page["result"]["pages"][0]["text"]
    assert not delta_page["ok"] and delta_page["error"]["code"] == "NOT_FOUND"  # outside the bar's scope
    system = fake.chat_requests()[0]["messages"][0]["content"]
    assert all(t in system for t in listed) and "Delta Report" not in system and "broken" not in system

    cite = next(a for a in anchors(pane) if a.href.startswith("cite:"))
    assert "Checked" in cite.tooltip
    click_anchor(qtbot, pane, cite)  # the citation opens Beta; the scope stays the three documents
    qtbot.waitUntil(lambda: shown(window) == "Beta Report", timeout=TIMEOUT)
    assert bar.buttons["selected"].isChecked() and scope_text(window)().startswith("3 documents: ")
    assert sorted(window.library_panel.selected_doc_ids()) == sorted([alpha, beta, gamma])
    assert "What was the margin?" in pane.browser.toPlainText()

    click_row(qtbot, window, delta)  # a plain click opens Delta and selects only it
    qtbot.waitUntil(lambda: shown(window) == "Delta Report", timeout=TIMEOUT)
    qtbot.waitUntil(lambda: scope_text(window)() == "Delta Report", timeout=TIMEOUT)
    assert bar.buttons["selected"].text() == "Selected (1)"
    qtbot.mouseClick(bar.buttons["document"], Qt.MouseButton.LeftButton)
    assert not bar.buttons["selected"].isEnabled() and scope_text(window)() == "Delta Report"


def test_a_failed_import_is_never_in_scope(window: MainWindow, library, fake: FakeOpenAI, qtbot) -> None:  # type: ignore[no-untyped-def]
    alpha, failed = library["Alpha Report"], library["failed"]
    bar, pane = window.assistant.scope_bar, window.assistant
    use_fake(window, fake, qtbot)
    click_row(qtbot, window, failed)  # a failed row does not open: nothing is shown, nothing is in scope
    qtbot.waitUntil(lambda: scope_text(window)() == "No document open", timeout=TIMEOUT)
    assert shown(window) == "" and window.current_doc == "" and not pane.ask_button.isEnabled()
    click_row(qtbot, window, alpha, CTRL)
    qtbot.waitUntil(lambda: bar.buttons["selected"].text() == "Selected (1)", timeout=TIMEOUT)
    assert not bar.buttons["selected"].isEnabled()  # the failed row does not count
    click_row(qtbot, window, library["Gamma Report"], CTRL)
    qtbot.waitUntil(lambda: bar.buttons["selected"].text() == "Selected (2)", timeout=TIMEOUT)
    qtbot.mouseClick(bar.buttons["selected"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: scope_text(window)() == "2 documents: Alpha Report, Gamma Report", timeout=TIMEOUT)
    assert len(window.library_panel.selected_doc_ids()) == 3  # the failed row is selected, not in scope
    fake.script(tool("browse_documents", {}), text("Two documents are here."))
    ask(qtbot, window, "Which documents are there?")
    (browse,) = tool_results(fake, "browse_documents")
    assert {d["doc_id"] for d in browse["result"]["documents"]} == {alpha, library["Gamma Report"]}

    pane.set_scope([failed])  # the worker refuses it too: nothing to read, never "every document"
    qtbot.waitUntil(lambda: scope_text(window)() == "No documents selected", timeout=TIMEOUT)
    assert not pane.ask_button.isEnabled()
    requests = len(fake.chat_requests())
    pane.ask("Anything?")
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    assert "Nothing in this scope can be read" in pane.browser.toPlainText()
    assert len(fake.chat_requests()) == requests  # the model was not asked


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing", "propagateSizeHints")  # a popup menu
def test_a_context_menu_on_another_row_changes_neither_scope_nor_viewer(window: MainWindow, library,  # type: ignore[no-untyped-def]
                                                                        qtbot) -> None:
    alpha, beta, gamma, delta = (library[t] for t in TITLES)
    bar, panel = window.assistant.scope_bar, window.library_panel
    click_row(qtbot, window, alpha)
    qtbot.waitUntil(lambda: shown(window) == "Alpha Report" and scope_text(window)() == "Alpha Report",
                    timeout=TIMEOUT)
    entries = context_menu_choice(qtbot, window, beta, "Re-index")
    assert "Re-index" in entries
    qtbot.waitUntil(lambda: not window.worker.jobs() and window.library.get(beta).status == "ready",  # type: ignore[union-attr]
                    timeout=TIMEOUT)
    assert panel.selected_doc_ids() == [alpha] and window.current_doc == alpha and shown(window) == "Alpha Report"
    assert bar.buttons["document"].isChecked() and scope_text(window)() == "Alpha Report"

    click_row(qtbot, window, gamma, CTRL)
    qtbot.waitUntil(lambda: bar.buttons["selected"].isEnabled(), timeout=TIMEOUT)
    qtbot.mouseClick(bar.buttons["selected"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: scope_text(window)() == "2 documents: Alpha Report, Gamma Report", timeout=TIMEOUT)
    context_menu_choice(qtbot, window, delta, "Re-index")
    qtbot.waitUntil(lambda: not window.worker.jobs() and window.library.get(delta).status == "ready",  # type: ignore[union-attr]
                    timeout=TIMEOUT)
    assert sorted(panel.selected_doc_ids()) == sorted([alpha, gamma]) and shown(window) == "Alpha Report"
    assert scope_text(window)() == "2 documents: Alpha Report, Gamma Report"


def test_arrow_keys_walk_the_library_without_opening_and_enter_opens(window: MainWindow, library, home: Path,  # type: ignore[no-untyped-def]
                                                                      qtbot) -> None:
    alpha, beta = library["Alpha Report"], library["Beta Report"]
    view = window.library_panel.view
    click_row(qtbot, window, alpha)
    qtbot.waitUntil(lambda: shown(window) == "Alpha Report", timeout=TIMEOUT)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Up)  # Finder and Zotero: the arrows move the current row, they open nothing
    assert view.currentIndex().data(DocIdRole) == beta
    assert window.current_doc == alpha and shown(window) == "Alpha Report"
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: shown(window) == "Beta Report", timeout=TIMEOUT)
    qtbot.waitUntil(lambda: scope_text(window)() == "Beta Report", timeout=TIMEOUT)
    assert view.hasFocus()  # the keyboard stays in the list

    qtbot.mouseClick(window.assistant.scope_bar.buttons["all"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: scope_text(window)() == "All 4 ready documents", timeout=TIMEOUT)
    window.close()  # the choice is kept for the next start
    again = MainWindow(home)
    qtbot.addWidget(again)
    try:
        assert again.assistant.scope_bar.mode() == "all"
        qtbot.waitUntil(lambda: again.assistant.scope_bar.label.text() == "All 4 ready documents", timeout=TIMEOUT)
    finally:
        again.close()
