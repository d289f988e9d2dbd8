"""What the assistant adds to the window besides its pane: citation → page + highlight (`CitationNavigator`),
Summarize and Make Tree Finer (`Summarizer`, `TreeExpander`) and the Assistant menu's actions.

`AssistantLink` is handed what it works on (the pane, the viewer and Navigation, the window's open rule and the
documents a menu item acts on as callables, the library folder and the store writer) and says what only the
window can do by signal: a sentence for the status bar (`message`), the library re-read after a run wrote to it
(`libraryWritten`). main_window connects those and places the actions in its Assistant menu; the scope bar is
fed by the window's own signals (main_window: the viewer's document, the library's settled selection).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pageindex_desktop.ui.qt import QAction, QObject, Signal
from pageindex_desktop.ui.assistant.expand import TreeExpander
from pageindex_desktop.ui.assistant.summarize import Summarizer
from pageindex_desktop.ui.workers import ImportWorker

if TYPE_CHECKING:
    from pageindex_desktop.ui.assistant.pane import AssistantPane
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


class AssistantLink(QObject):
    """The citations, Summarize and Make Tree Finer of one window, and the Assistant menu's actions (the window
    keeps it as one declared attribute; nothing is patched onto the window or the pane)."""

    message = Signal(str)  # a sentence for the status bar (a run's progress and outcome)
    libraryWritten = Signal()  # a run finished writing summaries or a finer tree: re-read the library

    def __init__(self, parent: QObject, pane: "AssistantPane", viewer: "ViewerPanel", navigation: "Navigation",
                 open_document: Callable[[str, int], bool], home: Path, worker: ImportWorker,
                 targets: Callable[[], list[str]]) -> None:
        """`open_document(doc_id, page)` is the window's open rule; `targets()` the documents Summarize and Make
        Tree Finer work on (the selected ones, else the open one)."""
        super().__init__(parent)
        self.citations = CitationNavigator(self, viewer, navigation, open_document)
        pane.citationActivated.connect(self.citations.show)
        self.summarizer = Summarizer(home, worker, self)
        self.expander = TreeExpander(home, worker, self)
        for run in (self.summarizer, self.expander):
            run.message.connect(self.message)
            run.finished.connect(lambda _reports: self.libraryWritten.emit())
        self.actions: list[QAction] = []  # the Assistant menu's, in order (also for the shortcuts list)
        for text, slot, name in (
            ("&Model Settings…", pane.open_settings, "actionModelSettings"),
            ("&Summarize Selected Documents", lambda: self.summarizer.run(targets()), "actionSummarize"),
            ("Make Tree &Finer", lambda: self.expander.run(targets()), "actionExpandTree"),
            ("&New Chat", pane.new_chat, "actionNewChat"),
        ):
            action = QAction(text, self)
            action.setObjectName(name)
            action.triggered.connect(lambda _checked=False, s=slot: s())
            self.actions.append(action)

    def resume_summaries(self, doc_ids: list[str]) -> bool:
        """At start-up: finish the Summarize runs that stopped part-way (`Summarizer.resume`)."""
        return self.summarizer.resume(doc_ids)

    def shutdown(self) -> None:
        """The window is closing: cancel a running Summarize or Make Tree Finer (before the writer stops)."""
        self.summarizer.cancel()
        self.expander.cancel()
