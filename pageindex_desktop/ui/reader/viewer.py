"""The viewer panel: a toolbar (page box, zoom), the find bar, a note for image-only PDFs, and the page view."""

from __future__ import annotations

import logging
from pathlib import Path

from pageindex_desktop.core.library.positions import ReadingPosition
from pageindex_desktop.ui.elided_label import ElidedLabel
from pageindex_desktop.ui.reader.find_bar import FindBar
from pageindex_desktop.ui.reader.page_view import PageView
from pageindex_desktop.ui.tool_button import tool_button
from pageindex_desktop.ui.qt import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from pageindex_desktop.ui.reader.render import RenderService

log = logging.getLogger(__name__)

ZOOM_PRESETS = (50, 75, 100, 125, 150, 200, 300, 400)


class ViewerPanel(QWidget):
    """Everything right of the outline that shows the pages of the open document."""

    documentShown = Signal(str)  # key: the document's pages are laid out
    documentClosed = Signal()  # the viewer shows no document any more
    openFailed = Signal(str, str)  # key, error ("password" when the PDF needs one)
    notice = Signal(str)  # a sentence for the status bar (a typed page that does not exist)
    aboutToJump = Signal(int)  # a typed page number is about to be shown: where the reader was is a place to go Back to

    def __init__(self, renderer: RenderService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.renderer = renderer
        self.view = PageView(renderer, self)
        self.find_bar = FindBar(self.view, self)
        self._labels: list[str] = []
        # key, page (or the place the reader left) to show once the render process opened the PDF
        self._pending: tuple[str, int, ReadingPosition | None] | None = None
        self.page_box = QLineEdit(self)
        self.page_box.setObjectName("pageBox")
        self.page_box.setToolTip("Go to page (Ctrl+G): type the PDF's page number, or a printed page label "
                                 "such as xiv, A-3 or (12), and press Enter. The printed label is shown in "
                                 "brackets.")
        self.page_box.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.page_box.setFixedWidth(110)
        self.page_box.returnPressed.connect(self._go_to_typed_page)
        self.page_total = QLabel("/ 0", self)
        self.zoom_box = QComboBox(self)
        self.zoom_box.setObjectName("zoomBox")
        self.zoom_box.setEditable(False)
        self.zoom_box.addItem("Fit width", "width")
        self.zoom_box.addItem("Fit page", "page")
        for percent in ZOOM_PRESETS:
            self.zoom_box.addItem(f"{percent}%", percent)
        self.zoom_box.activated.connect(self._zoom_chosen)
        zoom_out = tool_button(self, "−", "Zoom out (Ctrl+-)")
        zoom_out.clicked.connect(self.view.zoom_out)
        zoom_in = tool_button(self, "+", "Zoom in (Ctrl++)")
        zoom_in.clicked.connect(self.view.zoom_in)
        find = tool_button(self, "Find", "Find in document (Ctrl+F)")
        find.clicked.connect(self.find_bar.open_bar)
        self._document_controls = (self.page_box, zoom_out, self.zoom_box, zoom_in, find)  # live only with a PDF
        self.title_label = ElidedLabel("", self)  # a long title must not widen the window: it ends in '…'
        self.title_label.setObjectName("viewerTitle")
        bar = QHBoxLayout()
        bar.setContentsMargins(6, 4, 6, 4)
        self.toolbar = bar  # Back / Forward are added in front by ui/reader/navigation.py
        bar.addWidget(self.title_label, 1)
        bar.addWidget(self.page_box)
        bar.addWidget(self.page_total)
        bar.addSpacing(12)
        bar.addWidget(zoom_out)
        bar.addWidget(self.zoom_box)
        bar.addWidget(zoom_in)
        bar.addSpacing(12)
        bar.addWidget(find)
        self.note = QLabel(self)
        self.note.setObjectName("viewerNote")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("QLabel { background: #fff4ce; color: #4a3b00; padding: 6px; }")
        self.note.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.find_bar)
        layout.addWidget(self.note)
        layout.addWidget(self.view, 1)
        self.view.currentPageChanged.connect(self._show_page)
        self.view.zoomChanged.connect(self._show_zoom)
        renderer.opened.connect(self._on_opened)
        self._show_page(0)
        self._show_zoom(self.view.zoom())
        self._enable_document_controls(False)

    def _enable_document_controls(self, enabled: bool) -> None:
        """The page box, zoom and find act on a document: greyed out while none is shown."""
        for control in self._document_controls:
            control.setEnabled(enabled)

    def open(self, key: str, path: Path, *, title: str, labels: list[str], image_only: bool, page: int = 1,
             password: str | None = None, position: ReadingPosition | None = None) -> None:
        """Start showing a PDF (the render process opens it; the pages appear when it answers), at the top of `page`
        or at `position` (page, scroll and zoom) when given."""
        if self.view.key and self.view.key != key:
            self.renderer.close_document(self.view.key)
        self.find_bar.reset()
        self._labels = labels
        self._pending = (key, page, position)
        self.title_label.setText(title)
        self.title_label.setToolTip(title)
        if image_only:
            self.note.setText("This PDF has no text layer (scanned or image-only pages): it can be read here, but "
                              "search, selection and the outline cannot use its text.")
        self.note.setVisible(image_only)
        self.renderer.open(key, str(path), password)

    def close_document(self) -> None:
        """Show nothing."""
        if self.view.key:
            self.renderer.close_document(self.view.key)
        self.find_bar.reset()
        self._pending = None
        self._labels = []
        self.view.clear()
        self.title_label.setText("")
        self.note.hide()
        self._show_page(0)
        self._enable_document_controls(False)
        self.documentClosed.emit()

    def go_to_page(self, page: int) -> None:
        """Show a page (also before the document finished opening)."""
        if self._pending is not None:
            self._pending = (self._pending[0], page, None)
        else:
            self.view.go_to_page(page)

    def is_opening(self) -> bool:
        """True while a PDF is being opened (the view still shows the previous one, or nothing)."""
        return self._pending is not None

    def focus_page_box(self) -> None:
        """Ctrl+G: type a page number."""
        self.page_box.setFocus()
        self.page_box.setText(str(self.view.current_page() or ""))
        self.page_box.selectAll()

    def label(self, page: int) -> str:
        """The printed label of a page ('' when the PDF has none)."""
        return self._labels[page - 1] if 1 <= page <= len(self._labels) else ""

    def _on_opened(self, key: str, count: int, width: float, height: float, error: str) -> None:
        if self._pending is None or self._pending[0] != key:
            return
        _key, page, position = self._pending
        self._pending = None
        if error:
            self.view.clear()
            self.openFailed.emit(key, error)
            return
        self.view.set_document(key, count, (width, height), page=page, position=position)
        self.page_total.setText(f"/ {count}")
        self._enable_document_controls(True)
        self.documentShown.emit(key)

    def _show_page(self, page: int) -> None:
        if self.page_box.hasFocus():
            return
        if not page:
            self.page_box.setText("")
            self.page_total.setText("")
            return
        label = self.label(page)
        self.page_box.setText(f"{page} ({label})" if label and label != str(page) else str(page))

    def _go_to_typed_page(self) -> None:
        text = self.page_box.text().strip()
        target = 0
        number = text.split(" ")[0]
        if number.isdigit():
            target = int(number)
        elif text:
            wanted = text.strip("()").casefold()
            target = next((i + 1 for i, lab in enumerate(self._labels) if lab.casefold() == wanted), 0)
        count = len(self._labels) or self.view.page_count()
        if target > count > 0:
            self.notice.emit(f"There is no page {target}: this document has {count} pages, so it shows the last.")
            target = count
        elif text and not target:
            self.notice.emit(f"No page is numbered or labelled “{text}”; type a number from 1 to {count}.")
        if target:
            self.aboutToJump.emit(target)
            self.view.go_to_page(target)
        self.view.setFocus()
        self._show_page(self.view.current_page())

    def _zoom_chosen(self, index: int) -> None:
        value = self.zoom_box.itemData(index)
        if value == "width":
            self.view.fit_width()
        elif value == "page":
            self.view.fit_page()
        else:
            self.view.set_zoom(float(value) / 100 * self.view.logicalDpiY() / 72.0)
        self.view.setFocus()

    def _show_zoom(self, zoom: float) -> None:
        mode = self.view.fit_mode()
        if mode:
            self.zoom_box.setCurrentIndex(0 if mode == "width" else 1)
            return
        percent = round(zoom * 72.0 / max(1, self.view.logicalDpiY()) * 100)
        text = f"{percent}%"
        index = self.zoom_box.findText(text)
        if index < 0:
            last = self.zoom_box.count() - 1
            if self.zoom_box.itemData(last) != ZOOM_PRESETS[-1]:
                self.zoom_box.removeItem(last)  # the previous custom zoom
            self.zoom_box.addItem(text, percent)
            index = self.zoom_box.count() - 1
        self.zoom_box.setCurrentIndex(index)
