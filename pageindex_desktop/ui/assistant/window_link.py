"""How the assistant pane plugs into the main window: citation → page + highlight, and an Assistant menu (Model
Settings…, Summarize, Make Tree Finer). Kept here so main_window.py stays a composition. The scope bar is fed by
the window's own signals (main_window: the viewer's document, the library's settled selection).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pageindex_desktop.ui.qt import QAction, QLabel, QMenu, QObject, QTimer
from pageindex_desktop.ui.assistant.expand import TreeExpander
from pageindex_desktop.ui.assistant.summarize import Summarizer

if TYPE_CHECKING:
    from pageindex_desktop.ui.main_window import MainWindow
    from pageindex_desktop.ui.reader.navigation import Navigation
    from pageindex_desktop.ui.reader.viewer import ViewerPanel

log = logging.getLogger(__name__)


class CitationNavigator(QObject):
    """Opens a cited document at its page and highlights the passage once the viewer has laid it out."""

    def __init__(self, parent: QObject, viewer: "ViewerPanel", navigation: "Navigation",
                 open_document: Callable[[str, int], bool]) -> None:
        """`open_document(doc_id, page)` is the window's open rule (False when it cannot be shown)."""
        super().__init__(parent)
        self.viewer = viewer
        self.navigation = navigation
        self.open_document = open_document
        self._pending: tuple[str, int, str] | None = None
        viewer.documentShown.connect(self._shown)

    def show(self, doc_id: str, page: int, passage: str) -> None:
        """Show `page` of `doc_id` with `passage` highlighted (just the page when there is no passage)."""
        view = self.viewer.view
        self.navigation.about_to_jump(doc_id, page)  # a jump: Back returns to where the reader was
        if view.key == doc_id and view.page_count() > 0 and not self.viewer.is_opening():
            self._highlight(page, passage)
            return
        self._pending = (doc_id, page, passage)
        if not self.open_document(doc_id, page):
            self._pending = None

    def _shown(self, key: str) -> None:
        if self._pending is not None and self._pending[0] == key:
            _, page, passage = self._pending
            self._pending = None
            self._highlight(page, passage)

    def _highlight(self, page: int, passage: str) -> None:
        view = self.viewer.view
        if passage.strip():
            view.show_passage(page, passage)
        else:
            view.go_to_page(page)
        view.setFocus()


@dataclass
class AssistantLink:
    """What `attach_assistant` made: the window keeps it as one declared attribute (nothing is patched onto the
    window itself)."""

    citations: CitationNavigator
    summarizer: Summarizer
    expander: TreeExpander
    actions: list[QAction] = field(default_factory=list)  # the Assistant menu's, for the shortcuts list


def attach_assistant(window: "MainWindow") -> AssistantLink:
    """Connect the window's assistant pane and make the Assistant menu."""
    pane = window.assistant
    navigator = CitationNavigator(window, window.viewer, window.navigation, window.open_document)
    pane.citationActivated.connect(navigator.show)

    window.worker.libraryChanged.connect(pane.refresh_scope)  # document counts and titles in the scope label

    summarizer = Summarizer(window.home, window.worker, window)
    summarizer.message.connect(lambda text: window.statusBar().showMessage(text, 10000))
    summarizer.finished.connect(lambda _reports: window.sync.refresh())
    pane.shutdown_hooks.append(summarizer.cancel)
    QTimer.singleShot(0, lambda: summarizer.resume(list(window.library.unfinished_summaries())))
    expander = TreeExpander(window.home, window.worker, window)
    expander.message.connect(lambda text: window.statusBar().showMessage(text, 10000))
    expander.finished.connect(lambda _reports: window.sync.refresh())
    pane.shutdown_hooks.append(expander.cancel)
    model_label = QLabel("", window)
    model_label.setObjectName("modelStatus")
    window.statusBar().addPermanentWidget(model_label)
    used = [0]

    def show_model(text: str) -> None:
        tokens = f" · {used[0]:,} tokens used" if used[0] else ""
        model_label.setText((f"Model: {text}" if text else "No model") + tokens)

    def add_tokens(prompt: int, completion: int) -> None:
        used[0] += prompt + completion
        show_model(pane.model)

    pane.modelChanged.connect(show_model)
    pane.tokensUsed.connect(add_tokens)

    bar = window.menuBar()
    menu = QMenu("&Assistant", bar)
    help_action = next((a for a in bar.actions() if a.text().replace("&", "") == "Help"), None)
    if help_action is not None:
        bar.insertMenu(help_action, menu)
    else:
        bar.addMenu(menu)
    actions = []
    for text, slot, name in (
        ("&Model Settings…", pane.open_settings, "actionModelSettings"),
        ("&Summarize Selected Documents", lambda: summarizer.run(_targets(window)), "actionSummarize"),
        ("Make Tree &Finer", lambda: expander.run(_targets(window)), "actionExpandTree"),
        ("&New Chat", pane.new_chat, "actionNewChat"),
    ):
        action = QAction(text, menu)
        action.setObjectName(name)
        action.triggered.connect(lambda _checked=False, s=slot: s())
        menu.addAction(action)
        actions.append(action)
    return AssistantLink(navigator, summarizer, expander, actions)


def _targets(window: "MainWindow") -> list[str]:
    """The documents Summarize works on: the selected ones, else the open one."""
    return window.library_panel.selected_doc_ids() or ([window.current_doc] if window.current_doc else [])
