"""The GUI side of the render process, and the pixmap cache.

`RenderService` (main thread) owns the render process (`ui/reader/render_server.py`), which holds every pymupdf
Document shown on screen. Requests are small tuples written to the process's pipe; answers are read on the main
thread when a `QSocketNotifier` says the pipe is readable (on Windows, where it cannot watch pipes, a small thread
says so instead). A rendered page arrives in a shared-memory slot: it is painted straight from the slot, then
copied into the cache and the slot handed back.

Why no render thread: on the VMs we measure on, every party woken after an idle pause runs its first
milliseconds several times slower (a thread hop cost ~2 ms, a 1.3 MB copy ~1 ms). Reading the pipe on the main
thread and painting before copying removes one hop and the copy from the path between a jump and the painted
page; reading a small message costs the main thread well under a millisecond.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing as mp
import sys
import threading
from collections import OrderedDict
from multiprocessing import shared_memory
from multiprocessing.connection import Connection, wait
from typing import Any

from pageindex_desktop.core import framing
from pageindex_desktop.ui.cores import restore_main_thread, split_cores
from pageindex_desktop.ui.qt import QImage, QObject, QSocketNotifier, Signal
from pageindex_desktop.ui.reader.render_server import SLOT_BYTES, SLOTS, serve

log = logging.getLogger(__name__)

MAX_RESTARTS = 5
CACHE_BYTES = 96 * 1024 * 1024  # 18 pages of 1000 x 1300 pixels: four screens back and forth at fit width
THUMB_CACHE_BYTES = 16 * 1024 * 1024  # ~250 thumbnails of 120 x 155 pixels; apart, so they never evict pages
MESSAGES_PER_WAKE = 64  # answers read per notifier wake-up before the event loop runs again


def scale_key(scale: float) -> float:
    """Render scales are rounded so that a cached page is found again at the same zoom."""
    return round(scale, 4)


class PipeWatcher(QObject):
    """Says when a pipe is readable where `QSocketNotifier` cannot watch pipes (Windows: it takes sockets).

    A thread waits until the pipe has data, signals the main thread, and waits again only once the main thread
    has read it (`drained`), so it never races the reader. Elsewhere the notifier does this with no thread.
    """

    readable = Signal()

    def __init__(self, conn: Connection, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._conn = conn
        self._drained = threading.Event()
        self._drained.set()
        self._stopping = False
        self._thread = threading.Thread(target=self._watch, name="render-pipe-watcher", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while True:
            self._drained.wait()
            if self._stopping:
                return
            try:
                ready = wait([self._conn], timeout=0.25)
            except (OSError, ValueError):  # closed under us: the reader sees the end of file
                ready = [self._conn]
            if ready and not self._stopping:
                self._drained.clear()
                self.readable.emit()

    def drained(self) -> None:
        """The main thread read what was there: watch again."""
        self._drained.set()

    def stop(self) -> None:
        """End the thread (before the pipe closes)."""
        self._stopping = True
        self._drained.set()
        self._thread.join(2)


class RenderProcess:
    """One render process with its two pipes and its shared-memory arena (main thread only)."""

    def __init__(self) -> None:
        ctx = mp.get_context("spawn")
        req_r, self.requests = ctx.Pipe(duplex=False)
        self.results, res_w = ctx.Pipe(duplex=False)
        self.arena = shared_memory.SharedMemory(create=True, size=SLOTS * SLOT_BYTES)
        self.proc = ctx.Process(target=serve, args=(req_r, res_w, self.arena.name), name="pageindex-render",
                                daemon=True)
        self.proc.start()
        req_r.close()
        res_w.close()
        self.closed = False

    def post(self, msg: tuple[Any, ...]) -> None:
        """Send a request; a process that is gone is noticed by the reader (end of file on its pipe)."""
        if self.closed:
            return
        try:
            framing.send(self.requests, msg)
        except OSError:
            pass

    def slot_view(self, slot: int, size: int) -> memoryview:
        """The first `size` bytes of an arena slot (release it before the arena closes)."""
        start = slot * SLOT_BYTES
        buf = self.arena.buf
        if buf is None:  # the arena was closed (the process is being shut down)
            raise ValueError("the render arena is closed")
        return buf[start : start + size]

    def close(self, wait_s: float = 3.0) -> None:
        """Ask the process to quit, reap it (killing it if it hangs) and free the pipes and the arena."""
        if self.closed:
            return
        self.post(("quit",))
        self.closed = True
        self.proc.join(wait_s)
        if self.proc.is_alive():
            log.warning("the render process did not quit in %.0f s; killing it", wait_s)
            self.proc.kill()
            self.proc.join(1)
        self.requests.close()
        self.results.close()
        try:
            self.arena.close()
        except BufferError:  # an image still points into it; the mapping goes with the process
            log.warning("render arena still in use at close")
        self.arena.unlink()


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

    def replace(self, key: str, page: int, scale: float, old: QImage, new: QImage) -> None:
        """Swap `old` for `new` if the cache still holds `old` for this page (same size, same place)."""
        k = (key, page, scale_key(scale))
        if self._images.get(k) is old:
            self._images[k] = new

    def drop(self, key: str) -> None:
        """Forget every image of a document."""
        for k in [k for k in self._images if k[0] == key]:
            self.bytes -= self._images.pop(k).sizeInBytes()

    def __len__(self) -> int:
        return len(self._images)


class RenderService(QObject):
    """Main-thread front of the render process: typed requests in, typed signals out."""

    ready = Signal()  # the render process is up (pymupdf loaded)
    restarted = Signal()  # a new render process replaced one that died; views ask for their pages again
    opened = Signal(str, int, float, float, str)  # key, page_count, first width, first height (points), error
    sizesReady = Signal(str, int, list)  # key, first page number, [(w, h), ...]
    imageReady = Signal(str, int, float)  # key, page, scale (the image is in `cache`)
    thumbReady = Signal(str, int, float)  # key, page, scale (the thumbnail is in `thumbs`)
    renderFailed = Signal(str, int, str)
    searchHits = Signal(int, int, list)  # sid, page, rects
    searchProgress = Signal(int, int, int)  # sid, pages done, total
    searchDone = Signal(int)
    passageFound = Signal(int, str, int, list)  # rid, key, page, rects
    wordsReady = Signal(int, str, int, list)
    linksReady = Signal(int, str, int, list)  # rid, key, page, [LinkInfo, ...]

    def __init__(self, parent: QObject | None = None, cache_bytes: int = CACHE_BYTES,
                 watch_with_thread: bool = sys.platform == "win32") -> None:
        super().__init__(parent)
        self._watch_with_thread = watch_with_thread
        self.cache = PageCache(cache_bytes)
        self.thumbs = PageCache(THUMB_CACHE_BYTES)
        self._ids = itertools.count(1)
        self.is_ready = False
        self.restarts = 0
        self._closing = False
        self._open_docs: dict[str, tuple[str, str | None]] = {}  # key -> (path, password), for a restart
        self._render_ms: dict[tuple[str, int], float] = {}  # MuPDF's own time for the last render of a page
        self._thumb_ms: dict[tuple[str, int], float] = {}  # and of its thumbnail
        self._process, self._watcher = self._start_process()

    def _start_process(self) -> tuple[RenderProcess, QSocketNotifier | PipeWatcher]:
        process = RenderProcess()
        split_cores(process.proc.pid or 0)  # side by side with this thread, not taking turns on one core
        watcher: QSocketNotifier | PipeWatcher
        if self._watch_with_thread:
            watcher = PipeWatcher(process.results, self)
            watcher.readable.connect(self._read_answers)
        else:
            watcher = QSocketNotifier(process.results.fileno(), QSocketNotifier.Type.Read, self)
            watcher.activated.connect(self._read_answers)
        return process, watcher

    def _stop_watching(self) -> None:
        if isinstance(self._watcher, PipeWatcher):
            self._watcher.stop()
        else:
            self._watcher.setEnabled(False)
        self._watcher.deleteLater()

    def _post(self, msg: tuple[Any, ...]) -> None:
        self._process.post(msg)

    def _read_answers(self) -> None:
        """Handle what the render process sent; end of file means it died."""
        results = self._process.results
        try:
            for _ in range(MESSAGES_PER_WAKE):
                if not results.poll(0):
                    break
                msg = framing.recv(results)
                if msg[0] == "image":
                    self._on_image(msg)
                elif msg[0] == "thumb":
                    self._on_thumb(msg)
                else:
                    self._on_message(msg)
        except (EOFError, OSError):
            self._on_process_died()
            return
        if isinstance(self._watcher, PipeWatcher):
            self._watcher.drained()

    def _on_process_died(self) -> None:
        """The render process died (MuPDF crashed on a page): start a new one and re-open the documents."""
        self._stop_watching()
        self._process.close(wait_s=1.0)
        if self._closing:
            return
        log.error("the render process ended unexpectedly")
        self.is_ready = False
        if self.restarts >= MAX_RESTARTS:
            return
        self.restarts += 1
        log.warning("restarting the render process (%d)", self.restarts)
        self._process, self._watcher = self._start_process()
        for key, (path, password) in self._open_docs.items():
            self._post(("open", key, path, password))
        self.restarted.emit()

    def open(self, key: str, path: str, password: str | None = None) -> None:
        """Open (or re-open) a PDF under `key`; `opened` follows."""
        self._open_docs[key] = (path, password)
        self._post(("open", key, path, password))

    def close_document(self, key: str) -> None:
        """Release a PDF and its cached pages."""
        self._open_docs.pop(key, None)
        self.cache.drop(key)
        self.thumbs.drop(key)
        self._post(("close", key))

    def want(self, jobs: list[tuple[str, int, float]], urgent: int | None = None) -> None:
        """Replace the render queue with these (key, page, scale) jobs, most urgent first; the first `urgent`
        (default all) are on screen, the others are prefetched when the process is otherwise idle."""
        count = len(jobs) if urgent is None else urgent
        self._post(("want", [(k, p, scale_key(s)) for k, p, s in jobs], count))

    def want_thumbs(self, jobs: list[tuple[str, int, float]]) -> None:
        """Replace the thumbnail queue with these (key, page, scale) jobs: rendered only while no visible page of
        the main view waits, so the Pages view never delays the page being read."""
        self._post(("thumbs", [(k, p, scale_key(s)) for k, p, s in jobs]))

    def search(self, key: str, text: str, first_page: int = 1) -> int:
        """Start a search through the document, beginning at `first_page`; returns the search id."""
        sid = next(self._ids)
        self._post(("search", sid, key, text, first_page))
        return sid

    def cancel_search(self, sid: int) -> None:
        """Stop a running search."""
        self._post(("cancel_search", sid))

    def find_passage(self, key: str, page: int, text: str) -> int:
        """Look for `text` on one page; `passageFound` follows with its rectangles."""
        rid = next(self._ids)
        self._post(("passage", rid, key, page, text))
        return rid

    def words(self, key: str, page: int) -> int:
        """Ask for the words of a page with their boxes (for text selection)."""
        rid = next(self._ids)
        self._post(("words", rid, key, page))
        return rid

    def links(self, key: str, page: int) -> int:
        """Ask for the links of a page (`linksReady` follows); read once no visible page waits to be rendered."""
        rid = next(self._ids)
        self._post(("links", rid, key, page))
        return rid

    def shutdown(self) -> None:
        """Stop the render process; called when the window closes."""
        if self._closing:
            return
        self._closing = True
        self._stop_watching()
        self._process.close()
        restore_main_thread()

    def render_time_ms(self, key: str, page: int) -> float | None:
        """How long MuPDF took for the last rendering of a page, in the render process (benchmarks)."""
        return self._render_ms.get((key, page))

    def thumb_time_ms(self, key: str, page: int) -> float | None:
        """How long MuPDF took for the last thumbnail of a page (benchmarks)."""
        return self._thumb_ms.get((key, page))

    def process_id(self) -> int:
        """Pid of the render process; benchmarks add its memory to the window's."""
        return self._process.proc.pid or 0

    def is_running(self) -> bool:
        """True while a render process is alive."""
        return not self._process.closed and self._process.proc.is_alive()

    def _on_image(self, msg: tuple[Any, ...]) -> None:
        """Show a rendered page from its arena slot, then keep a copy in the cache and hand the slot back.

        Views repaint synchronously on `imageReady`, so the page is on screen before the copy is made."""
        _, key, page, scale, width, height, stride, slot, render_ms, fmt = msg
        self._render_ms[(key, page)] = render_ms
        view = self._process.slot_view(slot, stride * height)
        try:
            if fmt == "bgra":  # Qt's RGB32 layout: paint from the slot itself, then copy
                borrowed = QImage(view, width, height, stride, QImage.Format.Format_RGB32)
                self.cache.put(key, page, scale, borrowed)
                self.imageReady.emit(key, page, scale)
                self.cache.replace(key, page, scale, borrowed, borrowed.copy())
                del borrowed
            else:  # RGB888 (the fallback path): converting makes the copy
                image = QImage(view, width, height, stride, QImage.Format.Format_RGB888)
                self.cache.put(key, page, scale, image.convertToFormat(QImage.Format.Format_RGB32))
                del image
                self.imageReady.emit(key, page, scale)
        finally:
            view.release()
            self._post(("ack", slot))

    def _on_thumb(self, msg: tuple[Any, ...]) -> None:
        """Keep a thumbnail (a few kilobytes: copied at once) and hand its slot back."""
        _, key, page, scale, width, height, stride, slot, render_ms, fmt = msg
        self._thumb_ms[(key, page)] = render_ms
        view = self._process.slot_view(slot, stride * height)
        try:
            image = QImage(view, width, height, stride,
                           QImage.Format.Format_RGB32 if fmt == "bgra" else QImage.Format.Format_RGB888)
            self.thumbs.put(key, page, scale, image.convertToFormat(QImage.Format.Format_RGB32)
                            if fmt != "bgra" else image.copy())
            del image
        finally:
            view.release()
            self._post(("ack", slot))
        self.thumbReady.emit(key, page, scale)

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
        elif verb == "links":
            self.linksReady.emit(msg[1], msg[2], msg[3], msg[4])
