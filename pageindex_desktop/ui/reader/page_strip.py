"""The tree panel's Pages view: a strip (a grid when the panel is wide) of page thumbnails with their labels.

A `QListView` in icon mode over `PageStripModel`, one row per page and no images in the model: the delegate
draws each page's sheet at its own aspect, with the thumbnail from `RenderService.thumbs` once it arrived.
Thumbnails are asked for only for the rows on screen (`visible_pages`), after each scroll, resize or show, and
come from the render process at a small scale through its thumbnail queue, which yields to the main view's
visible pages (`ui/reader/render_server.py`). So a 2,000-page document costs 2,000 empty rows (uniform cells: Qt lays
them out arithmetically) and a screenful of small renders. The reader's page is selected and kept in view as
the viewer moves; a click or Enter announces the page (`pageActivated`) and the keyboard stays in the strip.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from pageindex_desktop.ui.qt import (
    QAbstractItemView,
    QAction,
    QMainWindow,
    QAbstractListModel,
    QColor,
    QFontMetrics,
    QHideEvent,
    QItemSelectionModel,
    QKeyEvent,
    QKeySequence,
    QListView,
    QModelIndex,
    QObject,
    QPainter,
    QPen,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QRectF,
    QResizeEvent,
    QShowEvent,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTimer,
    QWidget,
    Signal,
)
from pageindex_desktop.ui.menu_bar import add_to_menu
from pageindex_desktop.ui.reader.render import RenderService, scale_key

if TYPE_CHECKING:
    from pageindex_desktop.ui.reader.navigation import Navigation
    from pageindex_desktop.ui.reader.outline_panel import OutlinePanel
    from pageindex_desktop.ui.reader.viewer import ViewerPanel
    from pageindex_desktop.ui.room import Room

THUMB_W, THUMB_H = 96, 124  # the box a page's thumbnail fits in, logical pixels (a letter page fills it)
PAD = 6
REQUEST_MS = 30  # scroll steps merged before the visible thumbnails are asked for
FOLLOW_MS = 120  # as the outline: following a fast scroll a few times a second is enough
ASKED_KEPT = 512
PageRole = Qt.ItemDataRole.UserRole + 1


class PageStripModel(QAbstractListModel):
    """One row per page of the document shown: its label (DisplayRole), tooltip and page number (PageRole)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.key = ""
        self.labels: list[str] = []
        self.sizes: list[tuple[float, float]] = []  # PDF points, updated as the render process measures pages

    def set_pages(self, key: str, sizes: list[tuple[float, float]], labels: list[str]) -> None:
        """Show another document's pages (or none)."""
        self.beginResetModel()
        self.key = key
        self.sizes = list(sizes)
        self.labels = [labels[i] if i < len(labels) else "" for i in range(len(sizes))]
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.sizes)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self.sizes):
            return None
        page = index.row() + 1
        label = self.labels[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return label or str(page)
        if role == Qt.ItemDataRole.ToolTipRole:
            printed = f" (printed {label})" if label and label != str(page) else ""
            return f"Page {page}{printed} of {len(self.sizes)}"
        if role == PageRole:
            return page
        return None

    def page_size(self, page: int) -> tuple[float, float]:
        """A page's size in points (the first page's until measured)."""
        return self.sizes[page - 1]


def sheet_rect(cell: QRect, size: tuple[float, float]) -> QRectF:
    """Where a page's sheet goes in its cell: fitted in the thumbnail box at the page's aspect, centred."""
    w, h = size
    fit = min(THUMB_W / (w or 1), THUMB_H / (h or 1))
    sw, sh = max(4.0, w * fit), max(4.0, h * fit)
    left = cell.left() + (cell.width() - sw) / 2
    top = cell.top() + PAD + (THUMB_H - sh) / 2
    return QRectF(left, top, sw, sh)


class PageStripDelegate(QStyledItemDelegate):
    """Draws a cell: the sheet (thumbnail or blank placeholder of the right aspect) and the label under it."""

    def __init__(self, strip: "PageStrip") -> None:
        super().__init__(strip)
        self.strip = strip

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return self.strip.cell_size()

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        model = self.strip.strip_model
        page = index.row() + 1
        cell = option.rect
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        palette = option.palette
        painter.save()
        sheet = sheet_rect(cell, model.page_size(page))
        if selected:  # the reader's page: a frame in the highlight colour around the sheet, and its label
            painter.setPen(QPen(palette.color(palette.ColorRole.Highlight), 3))
            painter.drawRoundedRect(sheet.adjusted(-3.5, -3.5, 3.5, 3.5), 3, 3)
        painter.fillRect(sheet, QColor("white"))
        image = self.strip.renderer.thumbs.any_scale(model.key, page)
        if image is not None:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            painter.drawImage(sheet, image)
        else:  # a placeholder on screen: make sure it is asked for (a geometry change Qt laid out late)
            self.strip.schedule_request()
        painter.setPen(QPen(QColor(0, 0, 0, 70), 1))
        painter.drawRect(sheet.adjusted(-0.5, -0.5, 0.5, 0.5))
        text_rect = QRect(cell.left() + 2, round(cell.top() + PAD + THUMB_H + 4), cell.width() - 4,
                          QFontMetrics(option.font).height() + 2)
        label = QFontMetrics(option.font).elidedText(
            str(index.data()), Qt.TextElideMode.ElideMiddle, text_rect.width())
        if selected:
            painter.setPen(palette.color(palette.ColorRole.Highlight))
            font = painter.font()
            font.setBold(True)
            painter.setFont(font)
        else:
            painter.setPen(palette.color(palette.ColorRole.Text))
        painter.drawText(text_rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, label)
        painter.restore()


class PageStrip(QListView):
    """The Pages view: thumbnails asked for lazily, the reader's page selected, click or Enter jumps."""

    pageActivated = Signal(int)  # a page the reader chose: the viewer shows it (a jump, for Back / Forward)

    def __init__(self, renderer: RenderService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pageStrip")
        self.renderer = renderer
        self.strip_model = PageStripModel(self)
        self.setModel(self.strip_model)
        self.setItemDelegate(PageStripDelegate(self))
        self.setViewMode(QListView.ViewMode.IconMode)
        self.setFlow(QListView.Flow.LeftToRight)
        self.setWrapping(True)  # one column in a narrow panel, a grid in a wide one
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setMovement(QListView.Movement.Static)
        self.setUniformItemSizes(True)
        self.setGridSize(self.cell_size())
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalScrollBar().setSingleStep(self.cell_size().height() // 3)
        self.asked: deque[list[int]] = deque(maxlen=ASKED_KEPT)  # the pages of the last thumbnail requests
        # (tests and benchmarks read them)
        self._follow_page = 0
        self._request_timer = QTimer(self, singleShot=True, interval=REQUEST_MS)
        self._request_timer.timeout.connect(self.request_visible)
        self._follow_timer = QTimer(self, singleShot=True, interval=FOLLOW_MS)
        self._follow_timer.timeout.connect(self._follow_now)
        self.verticalScrollBar().valueChanged.connect(self.schedule_request)
        self.clicked.connect(self._open_index)
        renderer.thumbReady.connect(self._on_thumb)
        renderer.sizesReady.connect(self._on_sizes)
        renderer.restarted.connect(self.schedule_request)

    def cell_size(self) -> QSize:
        """One cell of the grid: the thumbnail box, its label, margins."""
        return QSize(THUMB_W + 4 * PAD, PAD + THUMB_H + 4 + QFontMetrics(self.font()).height() + 2 + PAD)

    # ---- document ------------------------------------------------------------------------------------

    def set_document(self, key: str, sizes: list[tuple[float, float]], labels: list[str], page: int) -> None:
        """Show a document's pages from the top, its current `page` selected."""
        self._follow_timer.stop()
        self.strip_model.set_pages(key, sizes, labels)
        self.verticalScrollBar().setValue(0)
        self._follow_page = page
        self._follow_now()
        self.schedule_request()

    def clear(self) -> None:
        """No document (or another one is being opened)."""
        self._follow_timer.stop()
        self._follow_page = 0
        self.strip_model.set_pages("", [], [])
        self.renderer.want_thumbs([])

    def key(self) -> str:
        """The document shown."""
        return self.strip_model.key

    def _on_sizes(self, key: str, start: int, sizes: list[tuple[float, float]]) -> None:
        if key != self.strip_model.key:
            return
        known = self.strip_model.sizes
        for offset, size in enumerate(sizes):
            index = start - 1 + offset
            if 0 <= index < len(known) and size[0] > 0 and size[1] > 0:
                known[index] = (float(size[0]), float(size[1]))
        self.viewport().update()
        self.schedule_request()

    # ---- thumbnails ----------------------------------------------------------------------------------

    def thumb_scale(self, page: int) -> float:
        """The render scale that fits a page in the thumbnail box on this screen."""
        w, h = self.strip_model.page_size(page)
        return scale_key(min(THUMB_W / (w or 1), THUMB_H / (h or 1)) * self.devicePixelRatioF())

    def visible_pages(self) -> list[int]:
        """The pages whose cells intersect the viewport, top to bottom (sampled on a half-cell lattice, then
        checked against each cell: no walk over the other rows)."""
        model = self.strip_model
        if not model.rowCount():
            return []
        area = self.viewport().rect()
        cell = self.cell_size()
        rows: set[int] = set()
        for y in range(0, area.height() + cell.height() // 2, max(1, cell.height() // 2)):
            for x in range(0, area.width() + cell.width() // 2, max(1, cell.width() // 2)):
                index = self.indexAt(QPoint(min(x, area.width() - 1), min(y, area.height() - 1)))
                if index.isValid():
                    rows.add(index.row())
        if not rows:
            return []
        first, last = min(rows), max(rows)
        return [r + 1 for r in range(first, last + 1) if self.visualRect(model.index(r)).intersects(area)]

    def request_visible(self) -> None:
        """Ask the render process for the thumbnails on screen that are not cached (only while shown)."""
        key = self.strip_model.key
        if not key or not self.isVisible():
            return
        cache = self.renderer.thumbs
        jobs = []
        for page in self.visible_pages():
            scale = self.thumb_scale(page)
            if cache.get(key, page, scale) is None:
                jobs.append((key, page, scale))
        if jobs:
            self.asked.append([page for _key, page, _scale in jobs])
        self.renderer.want_thumbs(jobs)

    def schedule_request(self) -> None:
        """Ask for the visible thumbnails soon (calls are merged)."""
        if not self._request_timer.isActive():
            self._request_timer.start()

    def _on_thumb(self, key: str, page: int, scale: float) -> None:
        if key == self.strip_model.key and 1 <= page <= self.strip_model.rowCount():
            self.update(self.strip_model.index(page - 1))

    def has_thumbnail(self, page: int) -> bool:
        """True once a thumbnail of `page` is there to draw."""
        return self.renderer.thumbs.any_scale(self.strip_model.key, page) is not None

    # ---- the reader's page ---------------------------------------------------------------------------

    def follow_page(self, page: int) -> None:
        """The viewer moved to `page`: select its thumbnail soon (calls are merged)."""
        self._follow_page = page
        if not self._follow_timer.isActive():
            self._follow_timer.start()

    def current_page(self) -> int:
        """The page whose thumbnail is current (selected), 0 for none."""
        index = self.currentIndex()
        return index.row() + 1 if index.isValid() else 0

    def _follow_now(self) -> None:
        page = self._follow_page
        if not 1 <= page <= self.strip_model.rowCount():
            self.clearSelection()
            return
        index = self.strip_model.index(page - 1)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
        self.selectionModel().setCurrentIndex(index, flags)
        self.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def _open_index(self, index: QModelIndex) -> None:
        if index.isValid():
            self.pageActivated.emit(index.row() + 1)

    # ---- events --------------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self._open_index(self.currentIndex())
            return
        super().keyPressEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._follow_now()  # the page read while the strip was hidden
        self.schedule_request()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.renderer.want_thumbs([])  # the Sections view is back: no rendering for a strip nobody sees

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.schedule_request()


def attach_page_strip(window: QMainWindow, renderer: RenderService, outline: "OutlinePanel",
                      viewer: "ViewerPanel", navigation: "Navigation", room: "Room") -> tuple[PageStrip, QAction]:
    """Give the tree panel its Pages view and wire it: the document shown, the reader's page, jumps (recorded for
    Back / Forward like a click in the tree), the mouse's back / forward buttons over it, and View ▸ Page
    Thumbnails (Ctrl+Shift+T), which switches between it and the sections with the keyboard in the one shown.
    Returns the strip and that action (for the shortcuts list)."""
    strip = PageStrip(renderer, outline)
    outline.add_view("Pages", strip)

    def toggle() -> None:
        room.reveal("outline")
        if outline.view_shown() == "Pages" and strip.hasFocus():
            outline.show_view("Sections")
            outline.view.setFocus()
        else:
            outline.show_view("Pages")
            strip.setFocus()

    action = QAction("Page &Thumbnails", window)
    action.setObjectName("actionPageThumbnails")
    action.setShortcut(QKeySequence("Ctrl+Shift+T"))
    action.triggered.connect(lambda _checked=False: toggle())
    add_to_menu(window, "View", [action])

    def shown(key: str) -> None:
        view = viewer.view
        count = view.page_count()
        strip.set_document(key, [view.page_size(p) for p in range(1, count + 1)],
                           [viewer.label(p) for p in range(1, count + 1)], view.current_page())

    def jump(page: int) -> None:
        navigation.about_to_jump(viewer.view.key, page)
        viewer.go_to_page(page)  # the keyboard stays in the strip: arrows walk on, Enter jumps again

    viewer.documentShown.connect(shown)
    viewer.view.currentPageChanged.connect(strip.follow_page)
    strip.pageActivated.connect(jump)
    strip.viewport().installEventFilter(navigation)
    return strip, action
