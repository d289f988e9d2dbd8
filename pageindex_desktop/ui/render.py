"""The render thread: the GUI side of the render process, and the pixmap cache.

One `RenderThread` per window owns the render process (`ui/render_server.py`), which holds every pymupdf
Document shown on screen. Widgets talk to `RenderService` on the main thread; the thread forwards requests,
turns returned pixels into `QImage`s off the main thread and hands them over through queued signals.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing as mp
import threading
from collections import OrderedDict
from multiprocessing import shared_memory
from multiprocessing.connection import Connection
from typing import Any

from pageindex_desktop.ui.qt import QImage, QObject, QThread, Signal
from pageindex_desktop.ui.render_server import SLOT_BYTES, SLOTS, serve

log = logging.getLogger(__name__)

MAX_RESTARTS = 5
CACHE_BYTES = 96 * 1024 * 1024  # 18 pages of 1000 x 1300 pixels: four screens back and forth at fit width


def scale_key(scale: float) -> float:
    """Render scales are rounded so that a cached page is found again at the same zoom."""
    return round(scale, 4)


class RenderThread(QThread):
    """Starts the render process and turns its answers into signals; requests go straight to the process.

    Requests are small tuples written to the process's pipe by whichever thread asks (under a lock), so a
    page request costs no thread hop; the process reads its pipe between any two units of work.
    """

    message = Signal(object)
    imageReady = Signal(str, int, float, QImage)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("renderThread")
        self._lock = threading.Lock()
        self._req_w: Connection | None = None
        self._early: list[tuple[Any, ...]] = []  # requests made before the process started
        self._stopping = False
        self.pid = 0  # the render process, once started
        self.render_ms: dict[tuple[str, int], float] = {}  # MuPDF's own time for the last render of a page

    def post(self, msg: tuple[Any, ...]) -> None:
        """Send a request to the render process (queued until it has started)."""
        with self._lock:
            if self._stopping and msg[0] != "quit":
                return
            if self._req_w is None:
                self._early.append(msg)
                return
            try:
                self._req_w.send(msg)
            except OSError:  # the process is gone; the thread reports it and ends
                pass

    def stop(self, timeout_ms: int = 5000) -> None:
        """Ask the process to quit and wait for the thread to finish."""
        if not self.isRunning():
            return
        self.post(("quit",))
        with self._lock:
            self._stopping = True
        if not self.wait(timeout_ms):
            log.warning("render thread did not stop in %d ms", timeout_ms)

    def run(self) -> None:
        ctx = mp.get_context("spawn")
        req_r, req_w = ctx.Pipe(duplex=False)
        res_r, res_w = ctx.Pipe(duplex=False)
        self._arena = shared_memory.SharedMemory(create=True, size=SLOTS * SLOT_BYTES)
        proc = ctx.Process(target=serve, args=(req_r, res_w, self._arena.name), name="pageindex-render", daemon=True)
        proc.start()
        self.pid = proc.pid or 0
        req_r.close()
        res_w.close()
        with self._lock:
            for msg in self._early:
                req_w.send(msg)
            self._early.clear()
            self._req_w = req_w
        try:
            while True:
                self._receive(res_r)
        except (EOFError, OSError):
            if not self._stopping:
                log.error("the render process ended unexpectedly")
        finally:
            with self._lock:
                self._stopping = True
                self._req_w = None
            req_w.close()
            res_r.close()
            proc.join(3)
            if proc.is_alive():
                proc.kill()
                proc.join(1)
            self._arena.close()
            self._arena.unlink()

    def _receive(self, res_r: Connection) -> None:
        msg = res_r.recv()
        if msg[0] == "image":
            _, key, page, scale, width, height, stride, slot, render_ms, fmt = msg
            self.render_ms[(key, page)] = render_ms
            start = slot * SLOT_BYTES
            view = self._arena.buf[start : start + stride * height]
            try:
                if fmt == "bgra":  # already Qt's RGB32 layout: one copy out of the slot
                    image = QImage(view, width, height, stride, QImage.Format.Format_RGB32).copy()
                else:
                    image = QImage(view, width, height, stride, QImage.Format.Format_RGB888)
                    image = image.convertToFormat(QImage.Format.Format_RGB32)  # a copy: the slot can be reused
            finally:
                view.release()
            self.imageReady.emit(key, page, scale, image)  # first: the page waits on it, the process does not
            self.post(("ack", slot))
        else:
            self.message.emit(msg)


class PageCache:
    """Rendered pages, least recently used first out, bounded by their size in bytes."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._images: OrderedDict[tuple[str, int, float], QImage] = OrderedDict()

    def get(self, key: str, page: int, scale: float) -> QImage | None:
        """The image at exactly this scale, marked as recently used."""
        k = (key, page, scale_key(scale))
        image = self._images.get(k)
        if image is not None:
            self._images.move_to_end(k)
        return image

    def any_scale(self, key: str, page: int) -> QImage | None:
        """Some image of the page at another zoom: a placeholder while the right one renders."""
        for (k, p, _s), image in reversed(self._images.items()):
            if k == key and p == page:
                return image
        return None

    def put(self, key: str, page: int, scale: float, image: QImage) -> None:
        """Add an image, evicting the oldest ones past the byte budget."""
        k = (key, page, scale_key(scale))
        old = self._images.pop(k, None)
        if old is not None:
            self.bytes -= old.sizeInBytes()
        self._images[k] = image
        self.bytes += image.sizeInBytes()
        while self.bytes > self.max_bytes and len(self._images) > 1:
            _, evicted = self._images.popitem(last=False)
            self.bytes -= evicted.sizeInBytes()

    def drop(self, key: str) -> None:
        """Forget every image of a document."""
        for k in [k for k in self._images if k[0] == key]:
            self.bytes -= self._images.pop(k).sizeInBytes()

    def __len__(self) -> int:
        return len(self._images)


class RenderService(QObject):
    """Main-thread front of the render thread: typed requests in, typed signals out."""

    ready = Signal()  # the render process is up (pymupdf loaded)
    restarted = Signal()  # a new render process replaced one that died; views ask for their pages again
    opened = Signal(str, int, float, float, str)  # key, page_count, first width, first height (points), error
    sizesReady = Signal(str, int, list)  # key, first page number, [(w, h), ...]
    imageReady = Signal(str, int, float)  # key, page, scale (the image is in `cache`)
    renderFailed = Signal(str, int, str)
    searchHits = Signal(int, int, list)  # sid, page, rects
    searchProgress = Signal(int, int, int)  # sid, pages done, total
    searchDone = Signal(int)
    passageFound = Signal(int, str, int, list)  # rid, key, page, rects
    wordsReady = Signal(int, str, int, list)

    def __init__(self, parent: QObject | None = None, cache_bytes: int = CACHE_BYTES) -> None:
        super().__init__(parent)
        self.cache = PageCache(cache_bytes)
        self._ids = itertools.count(1)
        self.is_ready = False
        self.restarts = 0
        self._closing = False
        self._open_docs: dict[str, tuple[str, str | None]] = {}  # key -> (path, password), for a restart
        self._thread = self._start_thread()

    def _start_thread(self) -> RenderThread:
        thread = RenderThread(self)
        thread.message.connect(self._on_message)
        thread.imageReady.connect(self._on_image)
        thread.finished.connect(self._on_thread_finished)
        thread.start()
        return thread

    def _on_thread_finished(self) -> None:
        """The render process died (MuPDF crashed on a page): start a new one and re-open the documents."""
        if self._closing or self.sender() is not self._thread or self.restarts >= MAX_RESTARTS:
            return
        self.restarts += 1
        log.warning("restarting the render process (%d)", self.restarts)
        self.is_ready = False
        self._thread = self._start_thread()
        for key, (path, password) in self._open_docs.items():
            self._thread.post(("open", key, path, password))
        self.restarted.emit()

    def open(self, key: str, path: str, password: str | None = None) -> None:
        """Open (or re-open) a PDF under `key`; `opened` follows."""
        self._open_docs[key] = (path, password)
        self._thread.post(("open", key, path, password))

    def close_document(self, key: str) -> None:
        """Release a PDF and its cached pages."""
        self._open_docs.pop(key, None)
        self.cache.drop(key)
        self._thread.post(("close", key))

    def want(self, jobs: list[tuple[str, int, float]], urgent: int | None = None) -> None:
        """Replace the render queue with these (key, page, scale) jobs, most urgent first; the first `urgent`
        (default all) are on screen, the others are prefetched when the process is otherwise idle."""
        count = len(jobs) if urgent is None else urgent
        self._thread.post(("want", [(k, p, scale_key(s)) for k, p, s in jobs], count))

    def search(self, key: str, text: str, first_page: int = 1) -> int:
        """Start a search through the document, beginning at `first_page`; returns the search id."""
        sid = next(self._ids)
        self._thread.post(("search", sid, key, text, first_page))
        return sid

    def cancel_search(self, sid: int) -> None:
        """Stop a running search."""
        self._thread.post(("cancel_search", sid))

    def find_passage(self, key: str, page: int, text: str) -> int:
        """Look for `text` on one page; `passageFound` follows with its rectangles."""
        rid = next(self._ids)
        self._thread.post(("passage", rid, key, page, text))
        return rid

    def words(self, key: str, page: int) -> int:
        """Ask for the words of a page with their boxes (for text selection)."""
        rid = next(self._ids)
        self._thread.post(("words", rid, key, page))
        return rid

    def shutdown(self) -> None:
        """Stop the render process and the thread; called when the window closes."""
        self._closing = True
        self._thread.stop()

    def render_time_ms(self, key: str, page: int) -> float | None:
        """How long MuPDF took for the last rendering of a page, in the render process (benchmarks)."""
        return self._thread.render_ms.get((key, page))

    def process_id(self) -> int:
        """Pid of the render process (0 before it started); benchmarks add its memory to the window's."""
        return self._thread.pid

    def is_running(self) -> bool:
        """True while the render thread runs."""
        return self._thread.isRunning()

    def _on_image(self, key: str, page: int, scale: float, image: QImage) -> None:
        self.cache.put(key, page, scale, image)
        self.imageReady.emit(key, page, scale)

    def _on_message(self, msg: tuple[Any, ...]) -> None:
        verb = msg[0]
        if verb == "ready":
            self.is_ready = True
            self.ready.emit()
        elif verb == "opened":
            _, key, count, (w, h), error = msg
            self.opened.emit(key, count, float(w), float(h), error)
        elif verb == "sizes":
            self.sizesReady.emit(msg[1], msg[2], msg[3])
        elif verb == "render_error":
            log.warning("page %d could not be rendered", msg[2])
            self.renderFailed.emit(msg[1], msg[2], msg[3])
        elif verb == "hits":
            self.searchHits.emit(msg[1], msg[2], msg[3])
        elif verb == "search_progress":
            self.searchProgress.emit(msg[1], msg[2], msg[3])
        elif verb == "search_done":
            self.searchDone.emit(msg[1])
        elif verb == "passage":
            self.passageFound.emit(msg[1], msg[2], msg[3], msg[4])
        elif verb == "words":
            self.wordsReady.emit(msg[1], msg[2], msg[3], msg[4])
