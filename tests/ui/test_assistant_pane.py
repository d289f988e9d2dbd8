"""The assistant pane against the fake model server: streamed answer, citation clicks, Stop, errors, no-model
search results, history reload, and (in the real window) a citation opening its page with the passage marked."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from pageindex_desktop.core.assistant.settings import ModelSettings, save_settings
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.library.store_writer import StoreWriter
from pageindex_desktop.ui.assistant import AssistantPane, tasks
from pageindex_desktop.ui.assistant.transcript import AMBER
from pageindex_desktop.ui.qt import QApplication, QPoint, Qt
from pageindex_desktop.ui.qt import QTextCursor
from pageindex_desktop.ui.assistant.settings_dialog import SettingsDialog
from tests.integration.fake_openai import FakeOpenAI, error, free_port, text, tool
from tests.integration.libdata import annual_report

TIMEOUT = 15_000
NET_INCOME = "Net income rose to $1,234 million in 2023"


pytestmark = pytest.mark.usefixtures("no_model_env")


@pytest.fixture
def doc(home: Path) -> str:
    with Library(home) as library:
        return annual_report(library)


def use_fake(home: Path, fake: FakeOpenAI) -> None:
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat"), home)


def make_pane(home: Path, qtbot, model: bool, store: StoreWriter) -> AssistantPane:  # type: ignore[no-untyped-def]
    pane = AssistantPane(None, home, store)
    qtbot.addWidget(pane)
    pane.resize(460, 720)
    pane.show()
    qtbot.waitUntil(lambda: pane.scope_label.text() != "" and pane.model_label.text() != "", timeout=TIMEOUT)
    assert bool(pane.model) is model
    return pane


class Panes(list[AssistantPane]):
    """The panes a test made, and the store writer they write their chats with (as the window's would)."""

    def __init__(self, store: StoreWriter) -> None:
        super().__init__()
        self.store = store


@pytest.fixture
def panes(home: Path, qtbot) -> Iterator[Panes]:  # type: ignore[no-untyped-def]
    store = StoreWriter(home)
    store.start()
    made = Panes(store)
    yield made
    for pane in made:
        pane.shutdown()
    tasks.wait_all()
    store.close()


@dataclass
class Anchor:
    href: str
    text: str
    tooltip: str
    colour: str
    position: int


def anchors(pane: AssistantPane) -> list[Anchor]:
    """Every link in the transcript, read from the QTextBrowser's document as it is displayed."""
    found: list[Anchor] = []
    block = pane.browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.isAnchor() and fmt.anchorHref():
                found.append(Anchor(fmt.anchorHref(), fragment.text(), fmt.toolTip(),
                                    fmt.foreground().color().name(), fragment.position()))
            it += 1
        block = block.next()
    return found


def click_anchor(qtbot, pane: AssistantPane, anchor: Anchor) -> None:  # type: ignore[no-untyped-def]
    """A real mouse click in the middle of the link's text."""
    cursor = QTextCursor(pane.browser.document())
    cursor.setPosition(anchor.position + max(1, len(anchor.text) // 2))
    pane.browser.ensureCursorVisible()
    pane.browser.setTextCursor(cursor)
    pane.browser.ensureCursorVisible()
    rect = pane.browser.cursorRect(cursor)
    point = QPoint(rect.center().x(), rect.center().y())
    qtbot.mouseClick(pane.browser.viewport(), Qt.MouseButton.LeftButton, pos=point)


def type_question(qtbot, pane: AssistantPane, question: str) -> None:  # type: ignore[no-untyped-def]
    pane.focus_question()
    qtbot.keyClicks(pane.question, question)
    qtbot.keyClick(pane.question, Qt.Key.Key_Return)


def test_streamed_answer_with_citations_that_open_pages(home: Path, doc: str, fake: FakeOpenAI, panes, qtbot) -> None:  # type: ignore[no-untyped-def]
    use_fake(home, fake)
    pane = make_pane(home, qtbot, model=True, store=panes.store)
    panes.append(pane)
    assert pane.setup_note.isHidden() and "fake-chat" in pane.model_label.text()
    answer = (f"**{NET_INCOME}** [Annual Report 2023, p. 12]. The main risks include cyber attacks "
              "[Annual Report 2023, p. 20].")
    fake.script(tool("get_page_content", {"doc": doc, "pages": "12"}), text(answer, chunk_delay=0.03))
    type_question(qtbot, pane, "What was net income?")
    assert pane.question.text() == "" and pane.is_running() and not pane.ask_button.isEnabled()
    # text appears while the answer is still streaming
    qtbot.waitUntil(lambda: "Net income" in pane.browser.toPlainText() and pane.is_running(), timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    shown = pane.browser.toPlainText()
    assert "You: What was net income?" in shown and "tokens sent" in shown and "Reading trail · 1 step" in shown
    links = [a for a in anchors(pane) if a.href.startswith("cite:")]
    assert [a.href for a in links] == ["cite:0:0", "cite:0:1"]
    checked, unverified = links
    assert "Checked" in checked.tooltip and "1,234" in checked.tooltip and checked.colour != AMBER
    assert "Not verified" in unverified.tooltip and "never read" in unverified.tooltip and unverified.colour == AMBER
    assert "p. 12 ✓" in shown.replace("\xa0", " ")
    assert "p. 20 ?" in shown.replace("\xa0", " ")
    with qtbot.waitSignal(pane.citationActivated, timeout=TIMEOUT) as clicked:
        click_anchor(qtbot, pane, checked)
    doc_id, page, passage = clicked.args
    assert (doc_id, page) == (doc, 12) and NET_INCOME in passage
    trail = next(a for a in anchors(pane) if a.href == "trail:0")
    click_anchor(qtbot, pane, trail)
    assert "Read pages 12 of Annual Report 2023" in pane.browser.toPlainText()
    assert len(fake.chat_requests()) == 2


def test_a_contradicted_citation_an_uncited_figure_and_the_judges_late_verdict(home: Path, doc: str,  # type: ignore[no-untyped-def]
                                                                              fake: FakeOpenAI, panes, qtbot) -> None:
    import json

    from pageindex_desktop.ui.assistant.transcript import ERROR_RED

    use_fake(home, fake)
    pane = make_pane(home, qtbot, model=True, store=panes.store)
    panes.append(pane)
    answer = ("Net income fell to $1,234 million in 2023 [Annual Report 2023, p. 12]. Operating expenses were "
              "$610 million. Risks include rates, credit exposure and attacks on systems [Annual Report 2023, p. 20].")
    judge_says = json.dumps({"verdicts": [{"id": 1, "verdict": "not_stated",
                                           "quote": "The main risks are interest rates"}]})
    fake.script(tool("get_page_content", {"doc": doc, "pages": "12,20"}), text(answer), text(judge_says, delay=0.5))
    type_question(qtbot, pane, "What was net income?")
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    links = [a for a in anchors(pane) if a.href.startswith("cite:")]
    fell, risks = links
    assert "Contradicted" in fell.tooltip and "went up, not down" in fell.tooltip and fell.colour == ERROR_RED
    shown = pane.browser.toPlainText().replace("\xa0", " ")
    assert "p. 12 ✗" in shown and "$610 million. [no citation]" in shown
    # the model judge's verdict on the unsure citation arrives after the answer is shown
    qtbot.waitUntil(lambda: "not stated" in next(a for a in anchors(pane) if a.href == "cite:0:1").tooltip,
                    timeout=TIMEOUT)
    assert "p. 20 ?" in pane.browser.toPlainText().replace("\xa0", " ")


def test_an_answer_that_read_nothing_gets_a_banner_and_pages_to_open(home: Path, doc: str, fake: FakeOpenAI,  # type: ignore[no-untyped-def]
                                                                      panes, qtbot) -> None:
    # two steps allowed: the model answers from memory, is reminded, and answers from memory again before the
    # assistant could search for it, so the answer is not grounded and the pages with the words are offered
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat", max_turns=2), home)
    pane = make_pane(home, qtbot, model=True, store=panes.store)
    panes.append(pane)
    unread = text("Net income was $9 billion [Annual Report 2023, p. 490].")
    fake.script(unread, unread)
    type_question(qtbot, pane, "What was net income?")
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    shown = pane.browser.toPlainText()
    assert "Not drawn from your documents" in shown and "Pages that contain your words" in shown
    hit = next(a for a in anchors(pane) if a.href.startswith("hit:"))
    with qtbot.waitSignal(pane.citationActivated, timeout=TIMEOUT) as opened:
        click_anchor(qtbot, pane, hit)
    assert opened.args[:2] == [doc, 12]


def test_stop_during_a_slow_stream_is_quick_and_the_pane_stays_usable(home: Path, doc: str, fake: FakeOpenAI,  # type: ignore[no-untyped-def]
                                                                       panes, qtbot) -> None:
    use_fake(home, fake)
    pane = make_pane(home, qtbot, model=True, store=panes.store)
    panes.append(pane)
    fake.script(text("A long and slow answer " * 40, chunk_delay=0.2))
    pane.ask("Tell me everything")
    qtbot.waitUntil(lambda: "A long and slow" in pane.browser.toPlainText(), timeout=TIMEOUT)
    started = time.monotonic()
    qtbot.keyClick(pane.question, Qt.Key.Key_Escape)  # Esc in the pane stops, like the Stop button
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    assert time.monotonic() - started < 1.0
    assert "Stopped." in pane.browser.toPlainText() and pane.ask_button.isEnabled()
    fake.script(*[text("Still here " * 30, chunk_delay=0.05)] * 3)  # unread: a reminder, a search, the answer
    pane.ask("Another slow one")
    qtbot.waitUntil(lambda: "Still here" in pane.browser.toPlainText(), timeout=TIMEOUT)
    pane.set_scope([doc])  # a selection change does not cut the running answer short...
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    assert not pane.exchanges[-1].cancelled and pane.exchanges[-1].answer.startswith("Still here")
    qtbot.waitUntil(lambda: "Annual Report 2023" in pane.scope_label.text(), timeout=TIMEOUT)  # ...then it applies
    fake.script(text("Second answer."))
    assert pane.ask("And now?")
    qtbot.waitUntil(lambda: "Second answer." in pane.browser.toPlainText(), timeout=TIMEOUT)


def test_a_wrong_key_is_one_sentence_not_a_traceback(home: Path, doc: str, fake: FakeOpenAI, panes, qtbot) -> None:  # type: ignore[no-untyped-def]
    use_fake(home, fake)
    pane = make_pane(home, qtbot, model=True, store=panes.store)
    panes.append(pane)
    fake.script(error(401, "Incorrect API key provided"))
    pane.ask("What was net income?")
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    shown = pane.browser.toPlainText()
    assert "refused the API key (401); check the key in Model settings." in shown
    assert "Traceback" not in shown and "Error code" not in shown
    settings_link = next(a for a in anchors(pane) if a.href == "settings:")
    click_anchor(qtbot, pane, settings_link)
    qtbot.waitUntil(lambda: any(isinstance(w, SettingsDialog) and w.isVisible()
                                for w in QApplication.topLevelWidgets()), timeout=TIMEOUT)
    next(w for w in QApplication.topLevelWidgets() if isinstance(w, SettingsDialog)).reject()
    pane.focus_question()
    assert pane.question.hasFocus() and pane.ask_button.isEnabled()


class _RetryLog(logging.Handler):
    """Counts the model client's "retry N in S s" log lines: each one starts a backoff wait."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "retry" in record.getMessage():
            self.count += 1


def test_an_endpoint_that_is_down_is_a_sentence_and_stop_cuts_the_retries_short(home: Path, doc: str, panes,  # type: ignore[no-untyped-def]
                                                                                  qtbot) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    save_settings(ModelSettings(provider="custom", base_url=url, chat_model="fake-chat"), home)
    pane = make_pane(home, qtbot, model=True, store=panes.store)
    panes.append(pane)
    pane.ask("What was net income?")
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=20_000)  # after the client's backoff retries
    assert f"Could not reach the model at {url}. Is the local model server running?" in pane.browser.toPlainText()
    retries, client_log = _RetryLog(), logging.getLogger("pageindex_desktop.core.assistant.llm")
    level = client_log.level
    client_log.addHandler(retries)
    client_log.setLevel(logging.INFO)
    try:
        pane.ask("Again?")
        qtbot.waitUntil(lambda: retries.count > 0, timeout=TIMEOUT)  # the client is now inside a backoff wait
    finally:
        client_log.removeHandler(retries)
        client_log.setLevel(level)
    started = time.monotonic()
    qtbot.mouseClick(pane.stop_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    assert time.monotonic() - started < 1.0 and pane.exchanges[-1].cancelled


def test_without_a_model_questions_get_search_results_as_page_links(home: Path, doc: str, panes, qtbot) -> None:  # type: ignore[no-untyped-def]
    pane = make_pane(home, qtbot, model=False, store=panes.store)
    panes.append(pane)
    assert not pane.setup_note.isHidden() and "OpenAI API key" in pane.setup_note.findChild(
        type(pane.model_label)).text()
    type_question(qtbot, pane, "net income")
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    shown = pane.browser.toPlainText()
    assert "Search results" in shown and "not an answer" in shown
    links = [a for a in anchors(pane) if a.href.startswith("cite:")]
    assert links and all("Search result" in a.tooltip for a in links)
    with qtbot.waitSignal(pane.citationActivated, timeout=TIMEOUT) as clicked:
        click_anchor(qtbot, pane, links[0])
    assert clicked.args[:2] == [doc, 12] and "income" in clicked.args[2].lower()
    qtbot.mouseClick(pane.setup_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any(isinstance(w, SettingsDialog) and w.isVisible()
                                for w in QApplication.topLevelWidgets()), timeout=TIMEOUT)
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, SettingsDialog))
    dialog.reject()


def test_history_is_reloaded_per_scope_after_recreating_the_pane(home: Path, doc: str, fake: FakeOpenAI, panes,  # type: ignore[no-untyped-def]
                                                                  qtbot) -> None:
    use_fake(home, fake)
    pane = make_pane(home, qtbot, model=True, store=panes.store)
    panes.append(pane)
    fake.script(tool("get_page_content", {"doc": doc, "pages": "12"}),
                text(f"{NET_INCOME} [Annual Report 2023, p. 12]."))
    pane.ask("What was net income?")
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    pane.shutdown()
    again = make_pane(home, qtbot, model=True, store=panes.store)
    panes.append(again)
    qtbot.waitUntil(lambda: "What was net income?" in again.browser.toPlainText(), timeout=TIMEOUT)
    shown = again.browser.toPlainText()
    assert NET_INCOME in shown and "tokens sent" in shown and "Reading trail · 1 step" in shown
    link = next(a for a in anchors(again) if a.href == "cite:0:0")
    assert "Checked" in link.tooltip
    again.set_scope([doc])  # another scope has its own (empty) history
    qtbot.waitUntil(lambda: "Annual Report 2023" in again.scope_label.text(), timeout=TIMEOUT)
    assert "What was net income?" not in again.browser.toPlainText()
    again.set_scope(None)  # every document again: its chat comes back
    qtbot.waitUntil(lambda: "What was net income?" in again.browser.toPlainText(), timeout=TIMEOUT)
    again.new_chat()
    qtbot.waitUntil(lambda: "What was net income?" not in again.browser.toPlainText(), timeout=TIMEOUT)


def test_in_the_window_a_citation_opens_its_page_with_the_passage_highlighted(window, report_pdf: Path,  # type: ignore[no-untyped-def]
                                                                               fake: FakeOpenAI, qtbot) -> None:
    bar = window.assistant.scope_bar
    assert bar.buttons["document"].isChecked()  # the first time, the assistant reads the document being read
    qtbot.waitUntil(lambda: window.assistant.scope_label.text() == "No document open", timeout=TIMEOUT)
    assert not window.assistant.ask_button.isEnabled()
    window.import_paths([report_pdf])
    qtbot.waitUntil(lambda: bool(window.current_doc) and window.viewer.view.page_count() > 0, timeout=TIMEOUT)
    doc_id = window.current_doc
    title = window.library.get(doc_id).title
    use_fake(window.home, fake)
    pane = window.assistant
    with qtbot.waitSignal(pane.modelChanged, timeout=TIMEOUT):
        pane.refresh_model()
    assert window.findChild(AssistantPane, "assistantPane") is pane
    names = {a.objectName() for a in window.actions_list}
    assert {"actionModelSettings", "actionSummarize", "actionNewChat", "actionAsk"} <= names
    assert "fake-chat" in window.findChild(type(pane.model_label), "modelStatus").text()
    qtbot.waitUntil(lambda: pane.scope_label.text() == title, timeout=TIMEOUT)  # "This document" follows the viewer
    assert pane.ask_button.isEnabled()
    fake.script(tool("get_page_content", {"doc": doc_id, "pages": "9"}),
                text(f"On page 9 the report says net interest margin widened this year [{title}, p. 9]."))
    assert window.findChild(type(pane.ask_button), "askButton") is pane.ask_button  # the pane's own button is there
    assert pane.ask_button.isVisible() and pane.ask_button.isEnabled()
    next(a for a in window.actions_list if a.objectName() == "actionAsk").trigger()  # Ctrl+L
    assert pane.question.hasFocus()
    qtbot.keyClicks(pane.question, "What happened to the margin?")
    qtbot.keyClick(pane.question, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    link = next(a for a in anchors(pane) if a.href == "cite:0:0")
    assert "Checked" in link.tooltip, pane.browser.toPlainText()
    view = window.viewer.view
    view.go_to_page(2)
    with qtbot.waitSignal(view.passageShown, timeout=TIMEOUT) as shown:
        click_anchor(qtbot, pane, link)
    page, rects = shown.args
    assert page == 9 and rects >= 1
    assert view.current_page() == 9 and window.current_doc == doc_id
    assert view.overlays.passage[0] == 9  # type: ignore[index]
    assert "What happened to the margin?" in pane.browser.toPlainText()  # opening the page kept the chat
    assert "tokens used" in window.findChild(type(pane.model_label), "modelStatus").text()
    qtbot.mouseClick(bar.buttons["all"], Qt.MouseButton.LeftButton)  # every document, with its own chat
    qtbot.waitUntil(lambda: pane.scope_label.text() == "The 1 ready document", timeout=TIMEOUT)
    assert "What happened to the margin?" not in pane.browser.toPlainText()


def test_summarize_writes_summaries_on_the_store_writer_and_says_so(home: Path, doc: str, fake: FakeOpenAI,  # type: ignore[no-untyped-def]
                                                                     qtbot, request: pytest.FixtureRequest,
                                                                     store: StoreWriter) -> None:
    import json
    import re

    from pageindex_desktop.ui.assistant.summarize import NO_MODEL, Summarizer
    from pageindex_desktop.ui.workers import ImportWorker

    worker = ImportWorker(home, store)
    worker.start()
    request.addfinalizer(worker.stop)  # stopped when an assertion fails too, not only at the end
    summarizer = Summarizer(home, worker)
    messages: list[str] = []
    summarizer.message.connect(messages.append)
    with qtbot.waitSignal(summarizer.finished, timeout=TIMEOUT) as done:
        assert summarizer.run([doc])
    assert done.args == [[]] and messages[-1] == NO_MODEL  # no model configured yet

    def reply(body: dict) -> object:
        prompt = body["messages"][-1]["content"]
        data: dict = {"summaries": {i: f"Summary of section {i}." for i in re.findall(r"### id (\S+):", prompt)}}
        if '"description"' in prompt:
            data["description"] = "The 2023 annual report of a bank."
        return text(json.dumps(data))

    fake.policy = reply  # type: ignore[assignment]
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat"), home)
    with qtbot.waitSignal(summarizer.finished, timeout=TIMEOUT) as done:
        assert summarizer.run([doc])
        assert not summarizer.run([doc])  # one run at a time
    (report,) = done.args[0]
    assert report.calls >= 1 and messages[-1] == "Summaries: 1 of 1 written by the model; 4 short sections keep their own text."
    with Library(home) as library:
        assert library.get(doc).description == "The 2023 annual report of a bank."  # type: ignore[union-attr]


def test_question_box_enter_sends_and_shift_enter_starts_a_line(qtbot) -> None:  # type: ignore[no-untyped-def]
    from pageindex_desktop.ui.assistant.question_box import QuestionBox

    box = QuestionBox()
    qtbot.addWidget(box)
    box.show()
    sent: list[str] = []
    box.submitted.connect(lambda: sent.append(box.text()))
    qtbot.keyClicks(box, "first line")
    qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(box, "second line")
    assert sent == [] and box.text() == "first line\nsecond line"
    qtbot.keyClick(box, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier)
    assert sent == ["first line\nsecond line"]


def test_the_scope_bar_fits_a_narrow_pane_with_short_words(home: Path, panes, qtbot) -> None:  # type: ignore[no-untyped-def]
    pane = make_pane(home, qtbot, model=False, store=panes.store)
    panes.append(pane)
    bar = pane.scope_bar
    assert [b.text() for b in bar.buttons.values()] == ["This document", "Selected (0)", "All documents"]
    pane.setMinimumWidth(220)  # as the window sets it (MIN_WIDTHS)
    pane.resize(220, 720)
    qtbot.waitUntil(lambda: bar.buttons["all"].text() == "All", timeout=TIMEOUT)
    assert bar.buttons["document"].text() == "Document"
    assert all(bar.rect().contains(b.geometry()) for b in bar.buttons.values())  # none clipped
    pane.resize(460, 720)
    qtbot.waitUntil(lambda: bar.buttons["all"].text() == "All documents", timeout=TIMEOUT)
