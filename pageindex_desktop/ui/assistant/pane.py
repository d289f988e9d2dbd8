"""The assistant pane: transcript, question box, Ask / Stop / New chat, and the no-model setup note.

The pane only draws and dispatches: questions, history and settings go to an `AssistantWorker` thread and come
back as queued signals; streamed text is redrawn at most ten times a second.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from pageindex_desktop.config import library_home
from pageindex_desktop.core.library.store_writer import StoreWriter
from pageindex_desktop.ui.qt import (
    QAction,
    QCoreApplication,
    QDesktopServices,
    QFrame,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QPalette,
    QPushButton,
    Qt,
    QTextBlockFormat,
    QTextBrowser,
    QTextCharFormat,
    QTextCursor,
    QTimer,
    QUrl,
    QVBoxLayout,
    QWidget,
    Signal,
)
from pageindex_desktop.ui.assistant import tasks
from pageindex_desktop.ui.assistant.entries import Exchange, TrailStep
from pageindex_desktop.ui.assistant.question_box import QuestionBox
from pageindex_desktop.ui.assistant.scope_bar import ScopeBar
from pageindex_desktop.ui.assistant.transcript import Theme, exchange_html, transcript_html
from pageindex_desktop.ui.assistant.worker import AssistantWorker, ScopeInfo

log = logging.getLogger(__name__)

RENDER_INTERVAL_MS = 100

INTRO = (
    "<p>Ask a question about the documents named above: the one you are reading, those selected in the library "
    "(Ctrl+click or Shift+click rows, then <b>Selected</b>), or all of them.</p>"
    "<p>The assistant reads the section tree first, then only the pages it needs, and answers from those pages "
    "alone. Each claim carries a citation such as <b>[Annual Report, p. 12]</b>: click it to open that page with "
    "the passage highlighted. In Markdown files and e-books, whose pages the app laid out, a citation names the "
    "heading too (<b>[Notes › Installation, p. 3]</b>); in a PDF, hover it for the section. Each citation is "
    "judged against that passage: <b>✓</b> it states the claim, an amber <b>?</b> it could not be checked, a red "
    "<b>✗</b> the passage says otherwise (hover for the reason and the passage). Figures stated without a citation "
    "are marked <b>[no citation]</b>.</p>"
)

SETUP_NOTE = (
    "<b>No model is set up.</b> Questions are answered with search results: the pages that contain your words. "
    "For written answers, add an OpenAI API key, or point the app at a local "
    "<b>Ollama</b> (http://localhost:11434/v1) or <b>LM Studio</b> (http://localhost:1234/v1) server."
)


class AssistantPane(QWidget):
    """The right-hand pane of the window; `citationActivated(doc_id, page, passage)` asks to show a cited page."""

    citationActivated = Signal(str, int, str)
    modelChanged = Signal(str)  # '' when no model is configured
    tokensUsed = Signal(int, int)  # prompt and completion tokens of an answer that just ended

    def __init__(self, parent: QWidget | None, home: Path | None, store: StoreWriter) -> None:
        """`store`: the window's store writer, which writes the chats."""
        super().__init__(parent)
        self.setObjectName("assistantPane")
        self.home = library_home(home)
        self.exchanges: list[Exchange] = []
        self.model = ""
        self.scope: list[str] | None = None  # None: every document; [] nothing (see `set_scope`)
        self._scope_sent = False
        self._readable = True  # the last scope the worker loaded has something the tools can read
        self._live: dict[int, Exchange] = {}
        self._answered_exchanges: dict[int, Exchange] = {}  # answered, awaiting the model judge's verdicts
        self._running: int | None = None
        self._next_id = 1
        self._cache: dict[int, str] = {}
        self._live_start: int | None = None  # where the streamed answer starts in the transcript document
        self._refresh_after = False  # the library changed while an answer was running
        self._build()
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(RENDER_INTERVAL_MS)
        self._render_timer.timeout.connect(self.render_live)
        self.worker = AssistantWorker(self.home, store, self)
        self._connect_worker()
        self.worker.start()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)
        self.refresh_model()
        self.scope_bar.scopeChanged.connect(self.set_scope)
        self.set_scope(self.scope_bar.scope())
        self.redraw()

    # ---- layout ----------------------------------------------------------------------------------------

    def _build(self) -> None:
        title = QLabel("<b>Assistant</b>", self)
        self.scope_bar = ScopeBar(self)  # This document / Selected (N) / All documents, and what that reads
        self.scope_label = self.scope_bar.label
        self.model_button = QPushButton("Model…", self)
        self.model_button.setObjectName("modelSettingsButton")
        self.model_button.setToolTip("Model settings: provider, URL, API key, models")
        self.model_button.clicked.connect(self.open_settings)
        self.new_button = QPushButton("New chat", self)
        self.new_button.setObjectName("newChatButton")
        self.new_button.setToolTip("Start a new chat for this scope (the old one stays stored)")
        self.new_button.clicked.connect(self.new_chat)
        header = QHBoxLayout()
        header.addWidget(title, 1)
        header.addWidget(self.new_button)
        header.addWidget(self.model_button)

        self.setup_note = QFrame(self)
        self.setup_note.setObjectName("setupNote")
        self.setup_note.setStyleSheet("#setupNote { background: #fff4ce; border-radius: 4px; }"
                                      "#setupNote QLabel { color: #4a3b00; }")
        note_text = QLabel(SETUP_NOTE, self.setup_note)
        note_text.setWordWrap(True)
        note_text.setTextFormat(Qt.TextFormat.RichText)
        self.setup_button = QPushButton("Set up a model…", self.setup_note)
        self.setup_button.setObjectName("setupModelButton")
        self.setup_button.clicked.connect(self.open_settings)
        note_layout = QVBoxLayout(self.setup_note)
        note_layout.setContentsMargins(8, 6, 8, 6)
        note_layout.addWidget(note_text)
        note_layout.addWidget(self.setup_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.setup_note.hide()

        self.browser = QTextBrowser(self)
        self.browser.setObjectName("transcript")
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._anchor_clicked)
        self.model_label = QLabel("", self)
        self.model_label.setObjectName("assistantModel")
        self.model_label.setStyleSheet("color: palette(mid);")
        self.question = QuestionBox(self)
        self.question.submitted.connect(self.ask_typed)
        self.ask_button = QPushButton("Ask", self)
        self.ask_button.setObjectName("askButton")
        self.ask_button.setDefault(True)
        self.ask_button.clicked.connect(self.ask_typed)
        self.stop_button = QPushButton("Stop", self)
        self.stop_button.setObjectName("stopButton")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        stop = QAction("Stop", self)
        stop.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        stop.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        stop.triggered.connect(self.stop)
        self.addAction(stop)
        self.stop_button.setToolTip("Stop the answer (Esc)")
        buttons = QHBoxLayout()
        buttons.addWidget(self.model_label, 1)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.ask_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(header)
        layout.addWidget(self.scope_bar)
        layout.addWidget(self.setup_note)
        layout.addWidget(self.browser, 1)
        layout.addWidget(self.question)
        layout.addLayout(buttons)

    def _connect_worker(self) -> None:
        w = self.worker
        w.modelChanged.connect(self._model_changed)
        w.scopeLoaded.connect(self._scope_loaded)
        w.textDelta.connect(self._text_delta)
        w.stepStarted.connect(self._step_started)
        w.stepFinished.connect(self._step_finished)
        w.usage.connect(self._usage)
        w.answered.connect(self._answered)
        w.judged.connect(self._judged)
        w.failed.connect(self._failed)

    # ---- public API ------------------------------------------------------------------------------------

    def focus_question(self) -> None:
        """Ctrl+L: put the cursor in the question box."""
        self.question.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.question.selectAll()

    def set_scope(self, doc_ids: list[str] | None) -> None:
        """Ask about these documents from now on (None: every document; an empty list: nothing, and Ask waits);
        shows that scope's stored chat (once a running answer has finished)."""
        scope = None if doc_ids is None else sorted(set(doc_ids))
        if self._scope_sent and scope == self.scope:
            return
        self.scope, self._scope_sent = scope, True
        if self._running is not None:  # the running answer finishes in its own scope first
            self._refresh_after = True
            return
        self.worker.post("scope", scope)

    def refresh_scope(self) -> None:
        """The library changed: re-read the scope's label and stored chat (after the running answer, if any)."""
        if self._running is not None:
            self._refresh_after = True
        elif self._scope_sent:
            self.worker.post("scope", self.scope)

    def ask(self, question: str) -> bool:
        """Send a question; False when it is empty or another question is still running."""
        question = question.strip()
        if not question or self._running is not None:
            return False
        qid = self._next_id
        self._next_id += 1
        exchange = Exchange(question, running=True)
        self._live[qid] = exchange
        self.exchanges.append(exchange)
        self._set_running(qid)
        self.worker.post("ask", (qid, question))
        self._append_live()
        return True

    def ask_typed(self) -> None:
        """Ask what is in the question box (Enter or the Ask button)."""
        if self.ask(self.question.text()):
            self.question.clear()

    def stop(self) -> None:
        """Stop the running question; the answer so far stays on screen."""
        if self._running is not None:
            self.stop_button.setEnabled(False)
            self.worker.cancel()

    def new_chat(self) -> None:
        """Start over in this scope (the previous chat stays in the store)."""
        if self._running is not None:
            self.worker.cancel()
        self.worker.post("new_chat")

    def refresh_model(self) -> None:
        """Re-read the model settings (after the settings dialog saved them)."""
        self.worker.post("settings")

    def open_settings(self) -> None:
        """Show the model settings dialog; the pane picks up the new settings when it is saved."""
        from pageindex_desktop.ui.assistant.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.home, self.window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(self.refresh_model)
        dialog.open()

    def is_running(self) -> bool:
        """True while a question is being answered."""
        return self._running is not None

    def shutdown(self) -> None:
        """Stop the worker thread (the window is closing); idempotent."""
        self._render_timer.stop()
        self.worker.stop()
        tasks.wait_all(5.0)

    # ---- rendering -------------------------------------------------------------------------------------

    def theme(self) -> Theme:
        """Transcript colours from this widget's palette."""
        palette = self.browser.palette()
        base = palette.color(QPalette.ColorRole.Base)
        dark = base.lightness() < 128
        return Theme(
            text=palette.color(QPalette.ColorRole.Text).name(),
            link=palette.color(QPalette.ColorRole.Link).name(),
            muted="#9a9a9a" if dark else "#6b6b6b",
            question_bg=base.lighter(130).name() if dark else "#eef2f8",
        )

    def redraw(self) -> None:
        """Redraw the whole transcript, keeping the reader's scroll position (or following the end)."""
        with self._scroll_kept():
            theme = self.theme()
            live = self.exchanges[-1] if self.exchanges and self.exchanges[-1].running else None
            parts = []
            for number, exchange in enumerate(self.exchanges):
                if exchange is live:
                    continue
                key = id(exchange)
                if key not in self._cache:
                    self._cache[key] = exchange_html(number, exchange, theme)
                parts.append(self._cache[key])
            if not parts and live is None:
                self.browser.setHtml(transcript_html([], theme, INTRO))
            else:
                self.browser.setHtml("".join(parts))
            self._live_start = None
            if live is not None:
                cursor = QTextCursor(self.browser.document())
                cursor.movePosition(QTextCursor.MoveOperation.End)
                if parts:
                    cursor.insertBlock()
                self._live_start = cursor.position()
                cursor.insertHtml(exchange_html(len(self.exchanges) - 1, live, theme))

    def render_live(self) -> None:
        """Redraw only the answer being streamed (the rest of a long transcript is not laid out again)."""
        live = self.exchanges[-1] if self.exchanges and self.exchanges[-1].running else None
        if live is None or self._live_start is None:
            self.redraw()
            return
        self._replace_tail(exchange_html(len(self.exchanges) - 1, live, self.theme()))

    def _append_live(self) -> None:
        """Show a new question below the transcript without laying the earlier answers out again."""
        if len(self.exchanges) < 2 or self._live_start is not None:
            self.redraw()
            return
        with self._scroll_kept():
            cursor = QTextCursor(self.browser.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertBlock()
            self._live_start = cursor.position()
        self._replace_tail(exchange_html(len(self.exchanges) - 1, self.exchanges[-1], self.theme()))

    def _replace_tail(self, html: str) -> None:
        """Replace the transcript from the live answer's start to the end with `html`."""
        assert self._live_start is not None
        with self._scroll_kept():
            cursor = QTextCursor(self.browser.document())
            cursor.setPosition(self._live_start)
            cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
            listed = cursor.currentList()
            if listed is not None:  # the removed text left its list membership on the surviving block
                listed.remove(cursor.block())
            cursor.setBlockFormat(QTextBlockFormat())
            cursor.setCharFormat(QTextCharFormat())
            cursor.insertHtml(html)

    @contextmanager
    def _scroll_kept(self) -> Iterator[None]:
        """Follow the end when the reader was there; otherwise leave the view where it was."""
        bar = self.browser.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 4
        position = bar.value()
        yield
        bar.setValue(bar.maximum() if at_end else position)

    def _schedule_render(self) -> None:
        if not self._render_timer.isActive():
            self._render_timer.start()

    def _set_running(self, qid: int | None) -> None:
        self._running = qid
        self.ask_button.setEnabled(qid is None and self._readable)
        self.stop_button.setEnabled(qid is not None)

    # ---- worker signals --------------------------------------------------------------------------------

    def _model_changed(self, description: str) -> None:
        self.model = description
        self.setup_note.setVisible(not description)
        self.model_label.setText(f"Model: {description}" if description else "No model: search results only")
        self.modelChanged.emit(description)

    def _scope_loaded(self, info: ScopeInfo) -> None:
        self.scope_bar.show_scope(info)
        self._readable = info.everything or info.documents > 0
        self._set_running(self._running)
        running = self._live.get(self._running) if self._running is not None else None
        self.exchanges = list(info.exchanges) + ([running] if running is not None else [])
        self._cache.clear()
        self.redraw()

    def _text_delta(self, qid: int, text: str, turn: int) -> None:
        exchange = self._live.get(qid)
        if exchange is None:
            return
        if exchange.turn != turn:
            exchange.answer = ""  # a new model turn: the earlier turn's words were a preamble to tool calls
            exchange.turn = turn
        exchange.answer += text
        self._schedule_render()

    def _step_started(self, qid: int, label: str) -> None:
        exchange = self._live.get(qid)
        if exchange is not None:
            exchange.trail.append(TrailStep(label, None))
            self._schedule_render()

    def _step_finished(self, qid: int, label: str, ok: bool) -> None:
        exchange = self._live.get(qid)
        if exchange is None:
            return
        for step in reversed(exchange.trail):
            if step.ok is None and step.label == label:
                step.ok = ok
                break
        self._schedule_render()

    def _usage(self, qid: int, prompt: int, completion: int, estimated: bool) -> None:
        exchange = self._live.get(qid)
        if exchange is not None:
            exchange.prompt_tokens, exchange.completion_tokens = prompt, completion
            exchange.estimated = exchange.estimated or estimated
            self._schedule_render()

    def _answered(self, qid: int, done: Exchange) -> None:
        exchange = self._live.pop(qid, None)
        if exchange is None:
            return
        exchange.answer, exchange.citations = done.answer, done.citations
        exchange.uncited, exchange.judge_note = done.uncited, done.judge_note
        exchange.grounded, exchange.offered = done.grounded, done.offered
        exchange.trail = exchange.trail or done.trail
        exchange.prompt_tokens = exchange.prompt_tokens or done.prompt_tokens
        exchange.completion_tokens = exchange.completion_tokens or done.completion_tokens
        self._answered_exchanges[qid] = exchange
        self._finish(qid, exchange)

    def _judged(self, qid: int, done: Exchange) -> None:
        """The model judge's verdicts arrive a moment after the answer: redraw that answer's citations."""
        exchange = self._answered_exchanges.pop(qid, None)
        if exchange is None or exchange not in self.exchanges:
            return
        exchange.citations, exchange.judge_note = done.citations, done.judge_note
        self._cache.pop(id(exchange), None)
        self.redraw()

    def _failed(self, qid: int, message: str, cancelled: bool) -> None:
        exchange = self._live.pop(qid, None)
        if exchange is None:
            return
        exchange.cancelled = cancelled
        exchange.error = "" if cancelled else message
        self._finish(qid, exchange)

    def _finish(self, qid: int, exchange: Exchange) -> None:
        exchange.running = False
        for step in exchange.trail:
            if step.ok is None:
                step.ok = False
        if self._running == qid:
            self._set_running(None)
        if exchange.prompt_tokens or exchange.completion_tokens:
            self.tokensUsed.emit(exchange.prompt_tokens, exchange.completion_tokens)
        if self._refresh_after and self._running is None:
            self._refresh_after = False
            self.refresh_scope()
        self._render_timer.stop()
        if self._live_start is not None and self.exchanges and self.exchanges[-1] is exchange:
            number = len(self.exchanges) - 1
            self._cache[id(exchange)] = exchange_html(number, exchange, self.theme())
            self._replace_tail(self._cache[id(exchange)])  # the finished answer, without laying out the rest
            self._live_start = None
        else:
            self.redraw()

    # ---- links -----------------------------------------------------------------------------------------

    def _anchor_clicked(self, url: QUrl) -> None:
        self.activate_link(url.toString())

    def activate_link(self, href: str) -> None:
        """Follow a transcript link: a citation (open the page), a reading trail (fold), the model settings or a
        web address."""
        kind, _, rest = href.partition(":")
        try:
            if kind in ("cite", "hit"):
                number, index = (int(x) for x in rest.split(":"))
                exchange = self.exchanges[number]
                record = (exchange.citations if kind == "cite" else exchange.offered)[index]
                if record.get("doc_id"):
                    self.citationActivated.emit(str(record["doc_id"]), int(record.get("page") or 1),
                                                str(record.get("passage") or ""))
                return
            if kind == "settings":
                self.open_settings()
                return
            if kind == "trail":
                exchange = self.exchanges[int(rest)]
                exchange.expanded = not exchange.expanded
                self._cache.pop(id(exchange), None)
                self.redraw()
                return
        except (ValueError, IndexError):
            log.debug("stale transcript link %s", href)
            return
        if kind in ("http", "https"):
            QDesktopServices.openUrl(QUrl(href))
