"""First run: while the library has nothing to read, the viewer area shows a welcome with the first steps.

The panel lies over the page view (a child of the viewer panel kept at the view's geometry), so the viewer's
own layout is untouched; it hides as soon as a document is open and comes back when the library is emptied.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pageindex_desktop.config import resources_dir
from pageindex_desktop.ui.qt import (
    QEvent,
    QFrame,
    QHBoxLayout,
    QLabel,
    QIcon,
    QObject,
    QPushButton,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
)

if TYPE_CHECKING:
    from pageindex_desktop.core.library.store import Library
    from pageindex_desktop.ui.library.library_sync import LibrarySync
    from pageindex_desktop.ui.reader.viewer import ViewerPanel
    from pageindex_desktop.ui.workers import ImportWorker

log = logging.getLogger(__name__)

ICON_SIZE = 96
COLUMN_WIDTH = 480


def sample_pdf() -> Path | None:
    """The public-domain sample shipped in resources/sample (None if the install lacks it)."""
    found = sorted((resources_dir() / "sample").glob("*.pdf"))
    return found[0] if found else None


class WelcomePanel(QFrame):
    """Open PDF…, a drag-and-drop hint, "Try a sample document" and "Set up a model"."""

    openRequested = Signal()
    sampleRequested = Signal()
    modelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomePanel")
        self.setAutoFillBackground(True)
        self.setStyleSheet(
            "#welcomePanel { background: palette(base); }"
            "#welcomeTitle { font-size: 17pt; font-weight: 600; }"
            "#welcomeHint, #welcomeNote { color: palette(dark); }"
            "#welcomePanel QPushButton { padding: 7px 18px; min-width: 200px; }"
        )
        icon = QLabel(self)
        app_icon = QIcon(str(resources_dir() / "icons" / "pageindex-desktop-128.png"))
        if not app_icon.isNull():
            icon.setPixmap(app_icon.pixmap(ICON_SIZE, ICON_SIZE))
        title = QLabel("Welcome to PageIndex Desktop", self)
        title.setObjectName("welcomeTitle")
        intro = QLabel("Read your PDFs with their section tree, search them, and ask questions answered with "
                       "citations you can check on the page.", self)
        intro.setWordWrap(True)
        self.open_button = QPushButton("Open PDF…", self)
        self.open_button.setObjectName("welcomeOpen")
        self.open_button.setDefault(True)
        self.open_button.clicked.connect(self.openRequested)
        hint = QLabel("or drop PDFs, e-books, Markdown files or folders anywhere on this window", self)
        hint.setObjectName("welcomeHint")
        self.sample_button = QPushButton("Try a sample document", self)
        self.sample_button.setObjectName("welcomeSample")
        self.sample_button.setToolTip("An SEC interpretive release (28 pages, public domain) shipped with the app")
        self.sample_button.clicked.connect(self.sampleRequested)
        self.sample_button.setEnabled(sample_pdf() is not None)
        self.model_button = QPushButton("Set up a model", self)
        self.model_button.setObjectName("welcomeModel")
        self.model_button.setToolTip("OpenAI, Azure OpenAI, Ollama, LM Studio or any OpenAI-compatible server")
        self.model_button.clicked.connect(self.modelRequested)
        note = QLabel("Reading, search and outlines work without a model; only the assistant needs one.", self)
        note.setObjectName("welcomeNote")
        note.setWordWrap(True)
        self.status = QLabel("", self)
        self.status.setObjectName("welcomeStatus")
        self.status.setWordWrap(True)
        body = QWidget(self)  # one centred column; wrapped text fills its width instead of its size hint
        body.setMaximumWidth(COLUMN_WIDTH)
        column = QVBoxLayout(body)
        column.setSpacing(10)
        column.addWidget(icon, 0, Qt.AlignmentFlag.AlignHCenter)
        for widget in (title, intro):
            widget.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            column.addWidget(widget)
        column.addSpacing(14)
        column.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignHCenter)
        hint.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        hint.setWordWrap(True)
        column.addWidget(hint)
        column.addSpacing(10)
        column.addWidget(self.sample_button, 0, Qt.AlignmentFlag.AlignHCenter)
        column.addWidget(self.model_button, 0, Qt.AlignmentFlag.AlignHCenter)
        column.addSpacing(10)
        for widget in (note, self.status):
            widget.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            column.addWidget(widget)
        title.setWordWrap(True)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(body, 100)
        row.addStretch(1)
        outer = QVBoxLayout(self)
        outer.addStretch(2)
        outer.addLayout(row)
        outer.addStretch(3)


class WelcomeController(QObject):
    """Shows the panel over the page view while the library has no readable document and none is open. The
    panel's buttons are its `openRequested` and `modelRequested`; the sample is imported through `import_sample`
    (the window's import, which opens it when ready: True when a job was queued)."""

    message = Signal(str, int)  # a sentence for the status bar, how long to show it (ms)

    def __init__(self, parent: QObject, viewer: "ViewerPanel", library: "Library", worker: "ImportWorker",
                 sync: "LibrarySync", current_doc: Callable[[], str],
                 import_sample: Callable[[Path], bool]) -> None:
        super().__init__(parent)
        self.viewer, self.library, self.worker, self.sync = viewer, library, worker, sync
        self.current_doc, self.import_sample = current_doc, import_sample
        self.panel = WelcomePanel(viewer)
        self.panel.sampleRequested.connect(self.try_sample)
        # with documents in the library but none open, the empty page view says what to do instead of staying grey
        self.hint = QLabel("Choose a document in the library to read it,\nor drop PDFs anywhere on this window.",
                           viewer)
        self.hint.setObjectName("viewerEmptyHint")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setStyleSheet("#viewerEmptyHint { color: palette(light); font-size: 12pt; }")
        self.hint.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.hint.hide()
        self._sample_jobs = False
        self._pending = QTimer(self)  # several signals in a row (job done, library changed, opened): one update
        self._pending.setSingleShot(True)
        self._pending.setInterval(0)
        self._pending.timeout.connect(self.update)
        viewer.view.installEventFilter(self)
        for signal in (worker.libraryChanged, worker.jobsChanged, viewer.documentShown):
            signal.connect(lambda *_: self._pending.start())
        self.update()

    def should_show(self) -> bool:
        """True while nothing is open and the library holds no document that can be read."""
        if self.current_doc():
            return False
        return not any(record.status == "ready" for record in self.library.documents())

    def update(self) -> None:
        """Show or hide the panel, and say whether the sample is being imported."""
        if not self.sync.active:
            return
        show = self.should_show()
        importing = any(j.kind in ("import", "reindex") for j in self.worker.jobs())
        if self._sample_jobs and not importing:
            self._sample_jobs = False
        self.panel.status.setText("Importing the sample document…" if self._sample_jobs else "")
        self.panel.sample_button.setEnabled(sample_pdf() is not None and not self._sample_jobs)
        hint = not show and not self.current_doc()
        if show or hint:
            self._place()
            (self.panel if show else self.hint).raise_()
        self.panel.setVisible(show)
        self.hint.setVisible(hint)

    def try_sample(self) -> None:
        """Import the shipped sample through the normal import path; it opens when ready."""
        path = sample_pdf()
        if path is None:
            self.message.emit("The sample document is missing from this installation.", 8000)
            return
        log.info("importing the sample document")
        self._sample_jobs = self.import_sample(path)
        self.update()

    def _place(self) -> None:
        geometry = self.viewer.view.geometry()
        self.panel.setGeometry(geometry)
        self.hint.setGeometry(geometry)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Move) and not (self.panel.isHidden() and
                                                                             self.hint.isHidden()):
            self._place()
        return False
