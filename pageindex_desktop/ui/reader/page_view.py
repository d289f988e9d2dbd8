"""The page view: every page of a document in one continuous vertical scroll, rendered on demand.

Only the visible pages and their neighbours are requested from the render process; pages not rendered yet are
drawn as blank sheets of the right size, and a page rendered at another zoom (or its thumbnail) stands in
(scaled) until the sharp one arrives. Images are rendered at the screen's device pixel ratio, so text stays
crisp on high-DPI.
"""

from __future__ import annotations

import bisect
import itertools
import logging

from pageindex_desktop.core.library.positions import ReadingPosition
from pageindex_desktop.ui.reader.overlays import Overlays, Rect
from pageindex_desktop.ui.reader.page_links import PageLinks
from pageindex_desktop.ui.qt import (
    QAbstractScrollArea,
    QColor,
    QEvent,
    QGuiApplication,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QMouseEvent,
    QPointF,
    QRectF,
    QResizeEvent,
    Qt,
    QTimer,
    QWheelEvent,
    QWidget,
    Signal,
)
from pageindex_desktop.ui.reader.render import RenderService, scale_key
from pageindex_desktop.ui.reader.selection import TextSelection

log = logging.getLogger(__name__)

GAP = 10  # logical pixels between pages and around them
MIN_ZOOM, MAX_ZOOM = 0.1, 8.0
ZOOM_STEP = 1.2
NEIGHBOURS = 2
HOLD_MS = 100  # after a jump, how long the old frame may stay while the new page renders (no blank flash)


class PageView(QAbstractScrollArea):
    """A QAbstractScrollArea whose vertical scroll bar moves through the pages of one document."""

    currentPageChanged = Signal(int)
    zoomChanged = Signal(float)
    layoutChanged = Signal()
    pageShown = Signal(int)  # a page was painted with its final, sharp image
    passageShown = Signal(int, int)  # page, number of rectangles highlighted (0: the text was not found)

    def __init__(self, renderer: RenderService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pageView")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.renderer = renderer
        self.key = ""
        self._sizes: list[tuple[float, float]] = []
        self._tops: list[int] = []
        self._content_w = 0
        self._zoom = 1.0
        self._fit = "width"  # "width", "page" or "" (a fixed zoom)
        self._current = 0
        self._pinned = 0  # the page go_to_page asked for, kept current until the user scrolls
        self._programmatic = False
        self._shown: set[tuple[int, float]] = set()
        self.overlays = Overlays(self)
        self.selection = TextSelection(self)
        self._request_timer = QTimer(self, singleShot=True, interval=0)
        self._request_timer.timeout.connect(self._request_visible)
        self._held_for = 0  # after a jump: the page whose image ends the paint hold
        # the viewport's size and the scroll bar's maximum as of the last layout (every resize lays out
        # again): a jump and a paint read them without calling into Qt (each call counts on a cold CPU)
        self._viewport_h = 0
        self._viewport_w = 0
        self._scroll_max = 0
        self._scroll_x = 0  # the scroll bars' values, kept as they change: read on every paint
        self._scroll_y = 0
        self._dpr = float(self.devicePixelRatioF())
        self._hold_timer = QTimer(self, singleShot=True, interval=HOLD_MS)
        self._hold_timer.timeout.connect(self._release_hold)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.horizontalScrollBar().valueChanged.connect(self._on_hscrolled)
        renderer.imageReady.connect(self._on_image)
        renderer.sizesReady.connect(self._on_sizes)
        renderer.passageFound.connect(self._on_passage)
        renderer.restarted.connect(self._schedule)
        self._passage_request = 0
        self.links = PageLinks(self)  # turns on the viewport's mouse tracking, for the hand over a link

    # ---- document ------------------------------------------------------------------------------------

    def set_document(self, key: str, page_count: int, first_size: tuple[float, float], page: int = 1,
                     position: ReadingPosition | None = None) -> None:
        """Show a document whose pages are all assumed to have the first page's size until sizes arrive: at the top
        of `page`, or where `position` says (its page, scroll and zoom: the place the reader left)."""
        self._cancel_hold()
        self.key = key
        self._sizes = [first_size] * page_count
        self._shown.clear()
        self.overlays.clear()
        self.selection.clear()
        self.links.clear()
        self._current = 0
        fraction = 0.0
        if position is not None and page_count:
            self._fit = position.fit
            if not position.fit:
                self._zoom = min(MAX_ZOOM, max(MIN_ZOOM, position.zoom))
            page = min(max(1, position.page), page_count)
            fraction = position.top / (first_size[1] or 1)  # every page has the first one's height for now
        self._relayout(anchor=(page, fraction))
        self._pinned = page
        self._update_current()
        if position is not None:
            self.zoomChanged.emit(self._zoom)

    def clear(self) -> None:
        """Show nothing (no document open)."""
        self._cancel_hold()
        self.key = ""
        self._sizes = []
        self._tops = []
        self._current = 0
        self.overlays.clear()
        self.selection.clear()
        self.links.clear()
        self._relayout(anchor=None)

    def page_count(self) -> int:
        """Number of pages of the document shown."""
        return len(self._sizes)

    def page_size(self, page: int) -> tuple[float, float]:
        """Size of a page in PDF points."""
        return self._sizes[page - 1]

    def _on_sizes(self, key: str, start: int, sizes: list[tuple[float, float]]) -> None:
        if key != self.key:
            return
        anchor = self._anchor()
        for offset, size in enumerate(sizes):
            index = start - 1 + offset
            if 0 <= index < len(self._sizes) and size[0] > 0 and size[1] > 0:
                self._sizes[index] = (float(size[0]), float(size[1]))
        self._relayout(anchor)

    # ---- geometry ------------------------------------------------------------------------------------

    def zoom(self) -> float:
        """Logical pixels per PDF point (1.0 shows 72 dpi; actual size is logicalDpi / 72)."""
        return self._zoom

    def fit_mode(self) -> str:
        """'width', 'page' or '' when the zoom is fixed."""
        return self._fit

    def dpr(self) -> float:
        """Device pixels per logical pixel of the screen the view is on (read at each layout and screen change:
        asking Qt on every paint and request cost ~0.3 ms each on a cold CPU)."""
        return self._dpr

    def render_scale(self) -> float:
        """The pymupdf matrix scale for the current zoom on this screen."""
        return scale_key(self._zoom * self.dpr())

    def page_rect(self, page: int) -> QRectF:
        """Where a page is, in viewport coordinates."""
        w, h = self._page_px(page)
        x = (max(self._content_w, self._viewport_w) - w) / 2 - self._scroll_x
        y = self._tops[page - 1] - self._scroll_y
        return QRectF(x, y, w, h)

    def _page_px(self, page: int) -> tuple[float, float]:
        w, h = self._sizes[page - 1]
        return w * self._zoom, h * self._zoom

    def _fit_zoom(self) -> float:
        if not self._sizes:
            return self._zoom
        page = self._current or 1
        w, h = self._sizes[page - 1]
        avail_w = max(50, self.viewport().width() - 2 * GAP)
        if self._fit == "width":
            return avail_w / self._fit_width_points()
        avail_h = max(50, self.viewport().height() - 2 * GAP)
        return min(avail_w / w, avail_h / h)

    def _fit_width_points(self) -> float:
        """The width 'fit width' fits: the typical (median) page's, so a larger cover or a fold-out does not
        shrink every page; wider pages overflow evenly on both sides (the view stays centred)."""
        widths = sorted(w for w, _h in self._sizes)
        return widths[len(widths) // 2]

    def _anchor(self) -> tuple[int, float] | None:
        """The page at the top of the viewport and how far into it the top is (a fraction of its height)."""
        if not self._tops:
            return None
        y = self.verticalScrollBar().value()
        index = max(0, bisect.bisect_right(self._tops, y) - 1)
        top = self._tops[index]
        height = self._page_px(index + 1)[1] or 1
        return index + 1, max(0.0, (y - top) / height)

    def _relayout(self, anchor: tuple[int, float] | None) -> None:
        self._dpr = float(self.devicePixelRatioF())
        if self._fit:
            self._zoom = self._fit_zoom()
        heights = [round(h * self._zoom) + GAP for _w, h in self._sizes]
        self._tops = [GAP + t for t in itertools.accumulate([0] + heights[:-1])] if heights else []
        total = (self._tops[-1] + heights[-1] + GAP) if heights else 0
        widest = max((w for w, _h in self._sizes), default=0.0)
        self._content_w = round(widest * self._zoom) + 2 * GAP
        vbar, hbar = self.verticalScrollBar(), self.horizontalScrollBar()
        self._programmatic = True
        try:
            self._viewport_h = self.viewport().height()
            self._scroll_max = max(0, total - self._viewport_h)
            vbar.setRange(0, self._scroll_max)
            vbar.setPageStep(self._viewport_h)
            vbar.setSingleStep(48)
            self._viewport_w = self.viewport().width()
            hbar.setRange(0, max(0, self._content_w - self._viewport_w))
            hbar.setPageStep(self._viewport_w)
            hbar.setSingleStep(48)
            if self._fit:
                hbar.setValue(hbar.maximum() // 2)  # pages are centred: so is the view
            if anchor is not None and self._tops:
                page, fraction = anchor
                page = min(max(1, page), len(self._tops))
                vbar.setValue(self._tops[page - 1] + round(fraction * self._page_px(page)[1]))
        finally:
            self._programmatic = False
        self.layoutChanged.emit()
        self._update_current()
        self._schedule()
        self.viewport().update()

    # ---- navigation ----------------------------------------------------------------------------------

    def current_page(self) -> int:
        """The page the reader is looking at (1-based physical): the one filling most of the viewport."""
        return self._current

    def reading_position(self) -> ReadingPosition | None:
        """Where the reader is, to be shown again later: the current page, the viewport's top relative to that
        page's top (PDF points, so it survives a zoom change) and the zoom; None when nothing is shown."""
        if not self._current or not self._tops:
            return None
        top = (self._scroll_y - self._tops[self._current - 1]) / self._zoom
        return ReadingPosition(self._current, round(top, 2), self._fit, self._zoom)

    def go_to_page(self, page: int, y_points: float | None = None, at: float = 1 / 3) -> None:
        """Scroll so that `page` starts at the top (or its point `y_points` is `at` of the viewport's height down
        it: a third for a find hit or a passage, 0 for a link's target or a place to return to)."""
        if not self._tops:
            return
        page = min(max(1, page), len(self._tops))
        target = self._tops[page - 1] - GAP
        if y_points is not None:
            target = round(self._tops[page - 1] + y_points * self._zoom - self._viewport_h * at)
        target = min(max(0, target), self._scroll_max)
        # a jump: ask for the visible pages, this one first, before any other work (neighbours come later)
        missing = self._request_visible(target, first=page, neighbours=False)
        self._request_timer.stop()
        vbar = self.verticalScrollBar()
        if page in missing:
            # paint holding: keep the old frame until the page arrives or HOLD_MS passes,
            # rather than paint a blank sheet replaced a few ms later (that paint delayed showing the page)
            self._held_for = page
            self._hold_timer.start()
        else:
            self._schedule()  # the neighbours
        self._programmatic = True
        try:
            vbar.setValue(target)
        finally:
            self._programmatic = False
        self._pinned = page
        self._update_current()
        if not self._held_for:
            self.viewport().update()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        """Repaint after a scroll, unless a jump holds the old frame until its page is rendered."""
        if not self._held_for:
            self.viewport().update()

    def paint_held_for(self) -> int:
        """The page a jump is waiting for while the old frame stays on screen (0: no paint hold)."""
        return self._held_for

    def _cancel_hold(self) -> None:
        self._held_for = 0
        self._hold_timer.stop()

    def _release_hold(self) -> None:
        """End a paint hold (the page is late, or the reader scrolled): paint the viewport in the next frame
        with whatever pages are ready, and ask for the neighbours."""
        if self._held_for:
            self._cancel_hold()
            self.viewport().update()
            self._schedule()

    def visible_pages(self, top: int | None = None) -> range:
        """Pages that intersect the viewport (scrolled to `top`, by default where it is)."""
        if not self._tops:
            return range(0)
        y0 = self._scroll_y if top is None else top
        y1 = y0 + self._viewport_h
        first = max(0, bisect.bisect_right(self._tops, y0) - 1)
        if first < len(self._tops) - 1 and self._tops[first + 1] - GAP <= y0:
            first += 1  # only the gap below this page shows
        last = max(first, bisect.bisect_left(self._tops, y1) - 1)
        return range(first + 1, min(len(self._tops), last + 1) + 1)

    def _on_hscrolled(self, value: int) -> None:
        self._scroll_x = value
        self._schedule()

    def _on_scrolled(self, value: int) -> None:
        self._scroll_y = value
        if self._programmatic:
            return  # the code that moved the bar updates the current page and asks for pages itself
        self._release_hold()  # the reader moves on: show what there is
        self._pinned = 0
        self._update_current()
        self._schedule()

    def _update_current(self) -> None:
        visible = self.visible_pages()
        page = 0
        if self._pinned and self._pinned in visible:
            page = self._pinned
        elif visible:
            y0 = self.verticalScrollBar().value()
            y1 = y0 + self.viewport().height()
            best = -1.0
            for p in visible:
                top = self._tops[p - 1]
                shown = min(y1, top + self._page_px(p)[1]) - max(y0, top)
                if shown > best + 0.5:
                    page, best = p, shown
        if page != self._current:
            self._current = page
            if page:
                self.currentPageChanged.emit(page)

    # ---- zoom ----------------------------------------------------------------------------------------

    def set_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Fix the zoom (leaving fit modes), keeping the point under `anchor` (or the top page) in place."""
        zoom = min(MAX_ZOOM, max(MIN_ZOOM, zoom))
        self._fit = ""
        if not self._tops:
            self._zoom = zoom
            self.zoomChanged.emit(zoom)
            return
        point = anchor if anchor is not None else QPointF(self.viewport().width() / 2, 0)
        doc_y = (self.verticalScrollBar().value() + point.y()) / self._zoom
        doc_x = (self.horizontalScrollBar().value() + point.x()) / self._zoom
        self._zoom = zoom
        self._relayout(anchor=None)
        self._programmatic = True
        try:
            self.verticalScrollBar().setValue(round(doc_y * zoom - point.y()))
            self.horizontalScrollBar().setValue(round(doc_x * zoom - point.x()))
        finally:
            self._programmatic = False
        self._update_current()
        self.zoomChanged.emit(zoom)

    def zoom_in(self) -> None:
        """One step closer."""
        self.set_zoom(self._zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        """One step further away."""
        self.set_zoom(self._zoom / ZOOM_STEP)

    def actual_size(self) -> None:
        """Print size: one PDF point is one point on the screen."""
        self.set_zoom(self.logicalDpiY() / 72.0)

    def fit_width(self) -> None:
        """Zoom so the current page fills the width of the view, and follow the view's width."""
        self._set_fit("width")

    def fit_page(self) -> None:
        """Zoom so the whole current page is visible."""
        self._set_fit("page")

    def _set_fit(self, mode: str) -> None:
        anchor = self._anchor()
        self._fit = mode
        self._relayout(anchor)
        self.zoomChanged.emit(self._zoom)

    # ---- rendering -----------------------------------------------------------------------------------

    def _schedule(self) -> None:
        if not self._request_timer.isActive():
            self._request_timer.start()

    def _request_visible(self, top: int | None = None, first: int = 0, neighbours: bool = True) -> list[int]:
        """Ask for the visible pages (scrolled to `top`) that are not cached, `first` (else the middle ones)
        first, then their neighbours; returns the visible pages asked for."""
        if not self.key or not self._tops:
            return []
        visible = list(self.visible_pages(top))
        if not visible:
            return []
        middle = (visible[0] + visible[-1]) / 2
        order = sorted(visible, key=lambda p: (p != first, abs(p - middle)))
        around: list[int] = []
        if neighbours:
            after = range(visible[-1] + 1, min(len(self._tops), visible[-1] + NEIGHBOURS) + 1)
            before = range(visible[0] - 1, max(0, visible[0] - NEIGHBOURS - 1), -1)
            around = [p for pair in itertools.zip_longest(after, before) for p in pair if p]
        scale = self.render_scale()
        cache = self.renderer.cache
        missing = [p for p in order if cache.get(self.key, p, scale) is None]
        missing_neighbours = [p for p in around if cache.get(self.key, p, scale) is None]
        self.renderer.want([(self.key, p, scale) for p in missing + missing_neighbours], urgent=len(missing))
        return missing

    def _on_image(self, key: str, page: int, scale: float) -> None:
        if key != self.key or scale != self.render_scale():
            return
        held = page == self._held_for
        if held:
            self._cancel_hold()
        if page in self.visible_pages():
            # paint now: update() waits for the platform's next frame tick (up to a refresh interval), which
            # was most of the time between a page arriving and showing it
            self.viewport().repaint(self.page_rect(page).toAlignedRect().adjusted(-1, -1, 1, 1))
        if held:
            self.viewport().update()  # the rest of the viewport, in the next frame (this page is shown)
            self._schedule()  # then the neighbours

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        painter.fillRect(event.rect(), self.palette().color(self.palette().ColorRole.Dark))
        if not self.key:
            return
        scale = self.render_scale()
        dpr = self.dpr()
        cache = self.renderer.cache
        painted: list[int] = []
        for page in self.visible_pages():
            rect = self.page_rect(page)
            if not rect.intersects(QRectF(event.rect())):
                continue
            image = cache.get(self.key, page, scale)
            if image is not None:
                painter.drawImage(QRectF(rect.x(), rect.y(), image.width() / dpr, image.height() / dpr), image)
                painted.append(page)
            else:
                painter.fillRect(rect, QColor("white"))
                stand_in = cache.any_scale(self.key, page)
                thumb = stand_in is None
                if thumb:  # no other zoom's image: the Pages view's thumbnail, if it has one (blown up: smoothed)
                    stand_in = self.renderer.thumbs.any_scale(self.key, page)
                if stand_in is not None:
                    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, thumb)
                    painter.drawImage(rect, stand_in)
                else:
                    painter.setPen(QColor(190, 190, 190))
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(page))
            painter.setPen(QPen(QColor(0, 0, 0, 60), 1))
            painter.drawRect(rect.adjusted(-0.5, -0.5, 0.5, 0.5))
            self.overlays.paint(painter, page, rect, self._zoom)
            self.selection.paint(painter, page, rect, self._zoom)
        painter.end()
        for page in painted:
            if (page, scale) not in self._shown:
                self._shown.add((page, scale))
                self.pageShown.emit(page)

    def invalidate_shown(self) -> None:
        """Forget which pages were announced through `pageShown` (benchmarks re-measure)."""
        self._shown.clear()

    def was_shown(self, page: int) -> bool:
        """True once `page` was painted sharp at the current zoom."""
        return (page, self.render_scale()) in self._shown

    # ---- events --------------------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._relayout(self._anchor())

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.DevicePixelRatioChange:  # moved to a screen with another scale
            self._dpr = float(self.devicePixelRatioF())
            self._schedule()
            self.viewport().update()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120
            if steps:
                self.set_zoom(self._zoom * (ZOOM_STEP**steps), anchor=event.position())
            event.accept()
            return
        super().wheelEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        vbar = self.verticalScrollBar()
        fits = bool(self._current) and self._page_px(self._current)[1] + GAP <= self.viewport().height()
        if key == Qt.Key.Key_PageDown or (key == Qt.Key.Key_Space and not event.modifiers()):
            if fits:
                self.go_to_page(self._current + 1)
            else:
                vbar.setValue(vbar.value() + round(self.viewport().height() * 0.9))
        elif key == Qt.Key.Key_PageUp:
            if fits:
                self.go_to_page(self._current - 1)
            else:
                vbar.setValue(vbar.value() - round(self.viewport().height() * 0.9))
        elif key == Qt.Key.Key_Home:
            self.go_to_page(1)
        elif key == Qt.Key.Key_End:
            self.go_to_page(len(self._tops))
        elif key == Qt.Key.Key_Down:
            vbar.setValue(vbar.value() + vbar.singleStep())
        elif key == Qt.Key.Key_Up:
            vbar.setValue(vbar.value() - vbar.singleStep())
        else:
            super().keyPressEvent(event)

    def page_at(self, pos: QPointF) -> tuple[int, float, float] | None:
        """The page under a viewport point and the point in PDF coordinates, or None between pages."""
        for page in self.visible_pages():
            rect = self.page_rect(page)
            if rect.contains(pos):
                return page, (pos.x() - rect.x()) / self._zoom, (pos.y() - rect.y()) / self._zoom
        return None

    def highlight(self, page: int, rects: list[Rect]) -> None:
        """Mark a passage (PDF-point rectangles) on a page and bring it into view."""
        self.overlays.set_passage(page, rects)
        if rects:
            self.scroll_to_rect(page, min(rects, key=lambda r: r[1]))
        else:
            self.go_to_page(page)

    def show_passage(self, page: int, text: str) -> None:
        """Go to `page` and highlight where `text` (a cited quote) is printed on it, found by the renderer."""
        self.go_to_page(page)
        self._passage_request = self.renderer.find_passage(self.key, page, text)

    def _on_passage(self, rid: int, key: str, page: int, rects: list[Rect]) -> None:
        if rid == self._passage_request and key == self.key:
            self._passage_request = 0
            self.passageShown.emit(page, len(rects))
            if rects:
                self.highlight(page, rects)

    def scroll_to_rect(self, page: int, rect: Rect) -> None:
        """Make a rectangle of a page (PDF points) visible, a third down the viewport."""
        self.go_to_page(page, y_points=rect[1])

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() in (Qt.MouseButton.BackButton, Qt.MouseButton.ForwardButton):
            event.ignore()  # the window's Back / Forward take them (ui/reader/navigation.py)
            return
        if not self.links.mouse_press(event):
            self.selection.mouse_press(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self.links.mouse_move(event)
        self.selection.mouse_move(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if not self.links.mouse_release(event):
            self.selection.mouse_release(event)

    def update_page(self, page: int) -> None:
        """Repaint one page (overlays changed)."""
        if self._tops and 1 <= page <= len(self._tops):
            self.viewport().update(self.page_rect(page).toAlignedRect().adjusted(-2, -2, 2, 2))

    @staticmethod
    def screen_dpr() -> float:
        """Device pixel ratio of the primary screen (before the view is shown)."""
        screen = QGuiApplication.primaryScreen()
        return float(screen.devicePixelRatio()) if screen else 1.0

