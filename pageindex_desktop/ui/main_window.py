"""The main window: library | outline | viewer | assistant in one splitter, menus, status bar, drops.

This module composes the panels and routes their signals; each panel owns its own logic.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from pageindex_desktop.config import library_home, log_dir
from pageindex_desktop.core.ingest import extract_worker
from pageindex_desktop.core.ingest.indexer import pdf_paths
from pageindex_desktop.core.outline.tree import Node
from pageindex_desktop.core.library.positions import ReadingPosition
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.library.store_writer import ReadingLibrary, StoreWriter
from pageindex_desktop.ui import settings as config
from pageindex_desktop.ui.assistant.model_status import ModelStatus
from pageindex_desktop.ui.assistant.window_link import AssistantLink
from pageindex_desktop.ui.assistant import AssistantPane
from pageindex_desktop.ui.about_dialog import AboutDialog
from pageindex_desktop.ui.dialogs import ShortcutsDialog
from pageindex_desktop.ui.library.document_actions import DocumentActions
from pageindex_desktop.ui.library.library_panel import LibraryPanel
from pageindex_desktop.ui.library.library_sync import LibrarySync
from pageindex_desktop.ui.reader.link_follow import MESSAGE_MS as LINK_MESSAGE_MS, LinkFollower
from pageindex_desktop.ui.locations_dialog import LocationsDialog
from pageindex_desktop.ui.log_view import LogDialog
from pageindex_desktop.ui.menus import WindowCommands, build_menus
from pageindex_desktop.ui.reader.navigation import attach_navigation
from pageindex_desktop.ui import open_policy
from pageindex_desktop.ui.reader.outline_memory import OutlineMemory
from pageindex_desktop.ui.reader.outline_panel import OutlinePanel
from pageindex_desktop.ui.reader.page_strip import attach_page_strip
from pageindex_desktop.ui.qt import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
    QLabel,
    QMainWindow,
    Qt,
    QSplitter,
    QTimer,
    QWidget,
)
from pageindex_desktop.ui.reader.reading_tracker import ReadingTracker
from pageindex_desktop.ui.reader.render import RenderService
from pageindex_desktop.ui.room import Room
from pageindex_desktop.ui.reader.viewer import ViewerPanel
from pageindex_desktop.ui.welcome import WelcomeController
from pageindex_desktop.ui.workers import ImportWorker, Job

log = logging.getLogger(__name__)

DEFAULT_SIZES = [250, 280, 820, 330]
# explicit minimum widths: a panel whose labels carry a long document title must not widen the window
MIN_WIDTHS = [150, 160, 320, 220]
FIRST_SIZE = (1500, 900)  # the window at its first start, where the screen has room for it
MIN_WIDTHS_SLACK = 40  # splitter handles and margins beside the panels' own minimum widths


def first_start_geometry(free_width: int, free_height: int) -> tuple[int, int, list[int]] | None:
    """The window's size and panel widths at its first start on a screen with this free area: None (the default
    1500x900) where that fits, or where not even the four panels' minimum widths fit (the window cannot be
    smaller; the window manager places it); else the free area, with the side panels shrunk to leave the page
    the room (at 1280x720 the default put the assistant pane off the screen)."""
    if free_width >= FIRST_SIZE[0] and free_height >= FIRST_SIZE[1]:
        return None
    if free_width < sum(MIN_WIDTHS) + MIN_WIDTHS_SLACK:
        return None
    width, height = min(FIRST_SIZE[0], free_width), min(FIRST_SIZE[1], free_height)
    return width, height, fitted_sizes(width)


def fitted_sizes(width: int) -> list[int]:
    """The splitter's panel widths for a window `width` wide: the page keeps half (it reads well at fit width),
    each side panel gets its minimum, and what is left goes first to the outline (its titles are what a narrow
    panel cuts worst), then the assistant, then the library, each up to its default width."""
    library_min, outline_min, page_min, assistant_min = MIN_WIDTHS
    page = max(page_min, width // 2)
    spare = max(0, width - page - library_min - outline_min - assistant_min)
    widths = {1: outline_min, 3: assistant_min, 0: library_min}
    for index in (1, 3, 0):  # the outline first, then the assistant, then the library
        extra = min(spare, DEFAULT_SIZES[index] - widths[index])
        widths[index] += extra
        spare -= extra
    return [widths[0], widths[1], width - widths[0] - widths[1] - widths[3], widths[3]]


class MainWindow(QMainWindow):
    """The application window over one library folder (`home`, else $PAGEINDEX_DESKTOP_HOME or the user dir)."""

    def __init__(self, home: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("PageIndex Desktop")
        self.setAcceptDrops(True)
        self.home = library_home(home)
        self.store = StoreWriter(self.home)  # the one writer: every write of the window's parts runs on its thread
        self.store.start()
        self.library: Library = ReadingLibrary(self.home)  # the window's connection only reads
        self.current_doc = ""
        self._shown_version = 0.0
        self.renderer = RenderService(self)
        self.worker = ImportWorker(self.home, self.store, self)
        self.library_panel = LibraryPanel(self)
        self.outline = OutlinePanel(self)
        self.viewer = ViewerPanel(self.renderer, self)
        self.assistant = AssistantPane(self, self.home, self.store)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("mainSplitter")
        for index, widget in enumerate((self.library_panel, self.outline, self.viewer, self.assistant)):
            widget.setMinimumWidth(MIN_WIDTHS[index])
            self.splitter.addWidget(widget)
            self.splitter.setCollapsible(index, index != 2)
        self.splitter.setStretchFactor(2, 1)
        self.splitter.setSizes(DEFAULT_SIZES)
        self.setCentralWidget(self.splitter)
        self.page_status = QLabel("", self)
        self.statusBar().addPermanentWidget(self.page_status)
        self.sync = LibrarySync(self.library, self.worker, self.library_panel)
        self.documents = DocumentActions(self, self.library, self.worker)
        self.documents.importRequested.connect(self.import_paths)
        self.documents.openRequested.connect(self.open_document)
        self.documents.message.connect(self.statusBar().showMessage)
        self.outline_memory = OutlineMemory(self.outline)  # the tree's folding per document
        self.reading = ReadingTracker(self.store, self.library, self.viewer.view, self)  # the reader's place per document
        self.room = Room(self, self.splitter,  # View ▸ panels and full screen
                         {"library": self.library_panel, "outline": self.outline, "assistant": self.assistant},
                         self.viewer, self.viewer.view, DEFAULT_SIZES)
        self.menus = build_menus(self.menuBar(), WindowCommands(
            open_files=self.choose_files, open_folder=self.choose_folder, reindex=self.reindex_selected,
            remove=self.remove_selected, quit=self.close, ask=self.assistant.focus_question,
            filter_sections=self.outline.focus_filter, shortcuts=self.show_shortcuts, show_log=self.show_log,
            locations=self.show_locations, about=self.show_about), self.viewer, self.room)
        self.recent_menu = self.menus.recent
        self.recent_menu.aboutToShow.connect(self.fill_recent_menu)
        self.actions_list = list(self.menus.actions)
        self.navigation = attach_navigation(  # Back / Forward over every jump
            self, self.viewer, self._open_place, [self.outline.view.viewport(), self.library_panel.view.viewport()])
        self.assistant_link = AssistantLink(  # citations → page, Summarize, Make Tree Finer, their menu items
            self, self.assistant, self.viewer, self.navigation, self.open_document, self.home, self.worker,
            self._chosen_documents)
        self.menus.assistant.addActions(self.assistant_link.actions)
        self.model_status = ModelStatus(self)  # the model and the tokens used, beside the page number
        self.statusBar().addPermanentWidget(self.model_status)
        self.actions_list += self.assistant_link.actions + self.navigation.actions()
        self.link_follower = LinkFollower(self, self.viewer.view, self.navigation, self.library)
        self.link_follower.openRequested.connect(self.open_document)
        self.link_follower.message.connect(lambda text: self.statusBar().showMessage(text, LINK_MESSAGE_MS))
        self.pages, thumbnails = attach_page_strip(  # the tree panel's Pages view: thumbnails
            self, self.renderer, self.outline, self.viewer, self.navigation, self.room)
        self.actions_list.append(thumbnails)
        self._connect()
        self.welcome = WelcomeController(  # first run: what to do while the library is empty
            self, self.viewer, self.library, self.worker, self.sync, lambda: self.current_doc,
            lambda path: bool(self.import_paths([path], open_when_done=True)))
        self.welcome.panel.openRequested.connect(self.choose_files)
        self.welcome.panel.modelRequested.connect(self.assistant.open_settings)
        self.welcome.message.connect(self.statusBar().showMessage)
        self._restore_settings()
        self.sync.refresh()
        self.worker.start()
        QTimer.singleShot(0, lambda: self.assistant_link.resume_summaries(list(self.library.unfinished_summaries())))

    def _connect(self) -> None:
        panel = self.library_panel
        panel.openRequested.connect(self._open_from_library)
        panel.reindexRequested.connect(self.documents.reindex)
        panel.removeRequested.connect(self.documents.remove)
        panel.showFileRequested.connect(self.documents.show_file)
        panel.renameRequested.connect(self.documents.rename)
        panel.importRequested.connect(self.choose_files)
        self.sync.documentReady.connect(self.open_document)
        self.sync.readyForEmptyWindow.connect(self._open_into_empty_window)
        self.sync.importFailed.connect(self.documents.import_failed)
        self.sync.statusMessage.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.worker.libraryChanged.connect(self._library_changed)
        self.sync.changedElsewhere.connect(self._library_changed)
        self.outline.nodeActivated.connect(self._node_activated)
        self.viewer.view.currentPageChanged.connect(self.outline.follow_page)
        self.viewer.view.currentPageChanged.connect(self._show_page_status)
        self.viewer.openFailed.connect(self.documents.open_failed)
        self.viewer.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        scope = self.assistant.scope_bar  # the assistant reads what the bar says: the viewer's document or the selection
        self.viewer.documentShown.connect(scope.set_document)
        self.viewer.documentClosed.connect(lambda: scope.set_document(""))
        panel.selectionSettled.connect(scope.set_selection)
        self.worker.libraryChanged.connect(self.assistant.refresh_scope)  # counts and titles in the scope label
        self.assistant.modelChanged.connect(self.model_status.show_model)
        self.assistant.tokensUsed.connect(self.model_status.add_tokens)
        self.assistant_link.message.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self.assistant_link.libraryWritten.connect(self.sync.refresh)
        remove = QAction("Remove", panel.view)
        remove.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        remove.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        remove.triggered.connect(self.remove_selected)
        panel.view.addAction(remove)
        rename = QAction("Rename", panel.view)
        rename.setShortcut(QKeySequence(Qt.Key.Key_F2))
        rename.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        rename.triggered.connect(self._rename_selected)
        panel.view.addAction(rename)

    # ---- stable API ------------------------------------------------------------------------------------

    def import_paths(self, paths: Iterable[str | Path], open_when_done: bool | None = None) -> list[Job]:
        """Queue PDFs (folders are searched for PDFs). What opens when ready (`ui/open_policy.py`): by default a
        single file given (the user asked to read it), else only the first ready one into an empty window;
        True opens the first file, False nothing."""
        given = [Path(p) for p in paths]
        files = pdf_paths(given)
        plans = open_policy.plan(given, files, open_when_done)
        self.sync.clear_unstored_failures()
        jobs = []
        for path, how in zip(files, plans):
            jobs.append(self.worker.submit(Job("import", path=path, open_when_done=how.open_when_done,
                                               open_if_empty=how.open_if_empty)))
        if files:
            self.statusBar().showMessage(f"Importing {len(files)} file{'s' if len(files) != 1 else ''}…", 5000)
        else:
            self.statusBar().showMessage("No documents found there (PDFs, e-books, text or Markdown).", 5000)
        return jobs

    def open_handed_over(self, paths: list[Path]) -> None:
        """Files the system handed over (macOS "Open With", `ui/file_open.py`): imported, the first one opened,
        and the window comes to the front, as the user asked to read them here."""
        self.import_paths(paths, open_when_done=True)
        self.raise_()
        self.activateWindow()

    def open_document(self, doc_id: str, page: int | None = None, position: ReadingPosition | None = None) -> bool:
        """Show a library document (its outline and pages): at the top of `page`, else at `position`, else where the
        reader left it (the first page if never read); False if it cannot be shown."""
        record = self.library.get(doc_id)
        if record is None or record.status != "ready":
            reason = "is not in the library" if record is None else f"is {record.status}"
            self.statusBar().showMessage(f"That document {reason}.", 5000)
            return False
        self.reading.capture()  # the place in the document shown now, before this one replaces it
        self.navigation.about_to_jump(doc_id, page or 0)
        if page is None and position is None:
            position = self.reading.position(doc_id)
        labels = self._show_outline(doc_id)
        self.current_doc = doc_id
        self.viewer.open(doc_id, self.library.pdf_path(doc_id), title=record.title, labels=labels,
                         image_only=record.page_count > 0 and record.image_only_pages >= record.page_count,
                         page=page or 1, password=self.documents.passwords.get(doc_id),
                         position=None if page else position)
        self.library_panel.select_doc(doc_id)
        config.remember_document(config.app_settings(), doc_id)
        self.setWindowTitle(f"{record.title} — PageIndex Desktop")
        return True

    def _open_place(self, doc_id: str, position: ReadingPosition) -> bool:
        """Back / Forward into another document: open it there, unless it is gone or not ready."""
        record = self.library.get(doc_id)
        if record is None or record.status != "ready":
            return False
        return self.open_document(doc_id, position=position)

    def reopen_last_document(self) -> bool:
        """At start-up: show the document read last, where the reader left it; False when there is none."""
        doc_id = self.reading.last_document()
        if not doc_id:
            return False
        return self.open_document(doc_id)

    def _rename_selected(self) -> None:
        """F2 in the library: rename the first selected document."""
        for doc_id in self.library_panel.selected_doc_ids()[:1]:
            self.documents.rename(doc_id)

    def _show_outline(self, doc_id: str) -> list[str]:
        """Load a document's tree into the outline panel (a re-index of the one shown keeps the tree's filter);
        returns its page labels."""
        record = self.library.get(doc_id)
        assert record is not None
        roots: list[Node] = self.library.tree(doc_id)
        labels = self.library.page_labels(doc_id)
        source = {"bookmarks": "the PDF's bookmarks", "toc_page": "its contents page", "layout": "its headings",
                  "markdown": "its Markdown headings", "model": "the model (no structure of its own)",
                  "pages": "page groups (no headings found)"}.get(record.outline_source, record.outline_source)
        self.outline_memory.begin()
        self.outline.set_tree(roots, labels, f"{record.page_count} pages · outline from {source}",
                              keep_filter=doc_id == self.current_doc)
        self.outline_memory.restore(doc_id)  # the folding the reader left it with
        self._shown_version = record.updated_at
        return labels

    # ---- menu slots -------------------------------------------------------------------------------------

    def choose_files(self) -> None:
        """File ▸ Open…"""
        self.documents.choose_files()

    def choose_folder(self) -> None:
        """File ▸ Open Folder…"""
        self.documents.choose_folder()

    def _chosen_documents(self) -> list[str]:
        """What File ▸ Re-index / Remove and Assistant ▸ Summarize / Make Tree Finer act on: the selected
        documents, else the open one."""
        return self.library_panel.selected_doc_ids() or ([self.current_doc] if self.current_doc else [])

    def reindex_selected(self) -> None:
        """File ▸ Re-index: the selected documents, or the open one."""
        self.documents.reindex(self._chosen_documents())

    def remove_selected(self) -> None:
        """File ▸ Remove from Library…: the selected documents (or the open one), after confirmation."""
        self.documents.remove(self._chosen_documents())

    def fill_recent_menu(self) -> None:
        """Open Recent lists the documents opened last that are still in the library."""
        self.recent_menu.clear()
        for doc_id in config.recent_documents(config.app_settings()):
            record = self.library.get(doc_id)
            if record is not None:
                action = self.recent_menu.addAction(record.title or record.file_name)
                action.triggered.connect(lambda _c=False, d=doc_id: self.open_document(d))
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction("No recent documents").setEnabled(False)

    def show_shortcuts(self) -> None:
        """Help ▸ Keyboard Shortcuts."""
        ShortcutsDialog(self.actions_list, self).exec()

    def show_log(self) -> None:
        """Help ▸ Show Log."""
        LogDialog(log_dir() / "pageindex-desktop.log", self).exec()

    def show_locations(self) -> None:
        """Help ▸ Where Files Are."""
        LocationsDialog(self.home, self).exec()

    def show_about(self) -> None:
        """Help ▸ About."""
        AboutDialog(self).exec()

    # ---- signals ---------------------------------------------------------------------------------------

    def _open_from_library(self, doc_id: str) -> None:
        """A click or Enter on a library row: show it (the document already shown is left where the reader is)."""
        if doc_id != self.current_doc or self.viewer.view.key != doc_id:
            self.open_document(doc_id)

    def _open_into_empty_window(self, doc_id: str) -> None:
        """A batch's document is ready: show it only if the reader has nothing open (no page to steal)."""
        if not self.current_doc:
            self.open_document(doc_id)

    def _node_activated(self, node: Node) -> None:
        self.navigation.about_to_jump(self.viewer.view.key, node.start_page)
        self.viewer.go_to_page(node.start_page)  # the keyboard stays in the tree: Up/Down/Enter walk on

    def _show_page_status(self, page: int) -> None:
        if not page or not self.viewer.view.page_count():
            self.page_status.setText("")  # no document open (a removed one's page must not linger)
            return
        label = self.viewer.label(page)
        extra = f" (printed {label})" if label and label != str(page) else ""
        self.page_status.setText(f"Page {page}{extra} of {self.viewer.view.page_count()}")

    def _library_changed(self) -> None:
        if not self.sync.active or not self.current_doc:
            return
        record = self.library.get(self.current_doc)
        if record is None:
            self.current_doc = ""
            self.page_status.setText("")
            self.outline.clear()
            self.viewer.close_document()
            self.setWindowTitle("PageIndex Desktop")
        elif record.status == "ready" and record.updated_at != self._shown_version:
            self.setWindowTitle(f"{record.title} — PageIndex Desktop")  # renamed or re-indexed
            self.viewer.title_label.setText(record.title)
            self.viewer.title_label.setToolTip(record.title)
            self._show_outline(self.current_doc)  # re-indexed: a new tree for the same pages
            self.outline.follow_page(self.viewer.view.current_page())

    # ---- window ----------------------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.import_paths(paths)

    def _first_start_size(self) -> None:
        """No saved geometry: sized by `first_start_geometry` for the screen the window opens on."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        free = screen.availableGeometry() if screen is not None else None
        fitted = first_start_geometry(free.width(), free.height()) if free is not None else None
        if free is None or fitted is None:
            self.resize(*FIRST_SIZE)
            return
        width, height, sizes = fitted
        frame = self.frameGeometry().size() - self.geometry().size()  # the window manager's borders, if known
        self.resize(width - max(0, frame.width()), height - max(0, frame.height()))
        self.move(free.topLeft())
        self.splitter.setSizes(sizes)

    def _restore_settings(self) -> None:
        settings = config.app_settings()
        geometry = config.read_bytes(settings, config.GEOMETRY)
        if geometry is None or not self.restoreGeometry(geometry):
            self._first_start_size()
        state = config.read_bytes(settings, config.STATE)
        if state is not None:
            self.restoreState(state)
        splitter = config.read_bytes(settings, config.SPLITTER)
        if splitter is not None:
            self.splitter.restoreState(splitter)
        self.room.hide_panels(config.hidden_panels(settings))
        self.assistant.scope_bar.set_mode(config.scope_mode(settings))

    def save_settings(self) -> None:
        """Remember geometry, splitter positions, the hidden panels and the assistant's scope choice."""
        settings = config.app_settings()
        settings.setValue(config.GEOMETRY, self.saveGeometry())
        settings.setValue(config.STATE, self.saveState())
        settings.setValue(config.SPLITTER, self.splitter.saveState())
        settings.setValue(config.HIDDEN_PANELS, self.room.hidden_panels())
        settings.setValue(config.SCOPE_MODE, self.assistant.scope_bar.mode())
        settings.sync()

    def shutdown(self) -> None:
        """Write the reader's place, stop the import worker (cancelling its job), the store writer (once what they
        handed it is written) and the render process; idempotent."""
        self.reading.shutdown()
        self.sync.stop()
        self.assistant_link.shutdown()  # a running Summarize or Make Tree Finer is cancelled first
        self.assistant.shutdown()
        self.worker.stop()
        self.store.close()  # last: it writes what the parts above handed it before they stopped
        self.renderer.shutdown()
        extract_worker.shutdown()  # the engine keeps idle extraction children warm; the app is closing

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_settings()
        self.shutdown()
        super().closeEvent(event)
