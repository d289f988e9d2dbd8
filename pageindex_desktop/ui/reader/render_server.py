"""The render process: the one place in the app that holds pymupdf Documents for display.

pymupdf keeps the GIL while it renders (a heavy page holds it for half a second), so a render *thread* in the
GUI process would freeze the window exactly when the user scrolls. The window's main thread (`ui/reader/render.py`)
therefore drives this child process over two pipes; everything here is plain Python + pymupdf, no Qt.

Requests (tuples, first item the verb):
  ("open", key, path, password)      -> ("opened", key, page_count, (w, h), error), then ("sizes", key, start, [...])
  ("want", [(key, page, scale), ...], urgent) replaces the render queue: the first `urgent` jobs are visible
                                     pages; the rest (neighbours) start only once every image sent was copied,
                                     so prefetching never competes for the CPU with showing the page; pages
                                     sent and not yet acknowledged are left out
  ("thumbs", [(key, page, scale), ...]) replaces the thumbnail queue (the tree panel's Pages view): rendered
                                     like neighbours, only while no visible page waits and both slots are free,
                                     so the main view's page always finds a slot; answered as ("thumb", ...)
                                     with the same fields as "image"
  ("search", sid, key, text, first)  -> ("hits", sid, page, rects)*, ("search_progress", sid, done, total)*,
                                        ("search_done", sid)
  ("cancel_search", sid)
  ("passage", rid, key, page, text)  -> ("passage", rid, key, page, rects)
  ("words", rid, key, page)          -> ("words", rid, key, page, [(x0, y0, x1, y1, word, block, line), ...])
  ("links", rid, key, page)          -> ("links", rid, key, page, [LinkInfo, ...])  (ui/reader/pdf_links.py); read only
                                     while no visible page waits: a contents page's links took 15-30 ms
  ("close", key), ("quit",)
Rendered pages come back as ("image", key, page, scale, width, height, stride, slot, render_ms, fmt): the pixels are in
slot `slot` of the shared-memory arena, which the parent hands back with ("ack", slot) once it copied them.
Pixels never go through the pipe: 3 MB read in 64 KB chunks by a thread that must win the GIL back for every
chunk took up to 250 ms while the window was busy; one memcpy from shared memory does not wait on anything.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from collections import OrderedDict
from multiprocessing.connection import Connection
from typing import Any

from pageindex_desktop.core import framing
from pageindex_desktop.core.assistant.citations.highlight import locate
from pageindex_desktop.ui.reader.pdf_links import read_links

log = logging.getLogger(__name__)

SIZE_CHUNK = 40  # pages measured per step, so a render request waits at most a few ms
SIZE_BATCH = 400  # pages per 'sizes' message (each one re-lays out the view)
SEARCH_PROGRESS_EVERY = 50
Rect = tuple[float, float, float, float]


SLOTS = 2
SLOT_BYTES = 48 * 1024 * 1024  # the largest page image: 12 megapixels of BGRA


def max_scale(width_pt: float, height_pt: float, scale: float) -> float:
    """`scale`, reduced when the page image would not fit in one arena slot (extreme zoom)."""
    need = width_pt * scale * height_pt * scale * 4
    if need <= SLOT_BYTES * 0.98:
        return scale
    return scale * (SLOT_BYTES * 0.98 / need) ** 0.5


def serve(requests: Connection, results: Connection, arena_name: str) -> None:
    """Child-process entry point: answer requests until told to quit or the parent goes away."""
    from multiprocessing import shared_memory

    # the parent created and unlinks the arena; a spawned child shares its resource tracker, whose registry is a
    # set, so attaching here registers nothing new
    arena = shared_memory.SharedMemory(name=arena_name)
    server = None
    try:
        server = _Server(requests, results, arena)
        server.run()
    except (EOFError, BrokenPipeError, ConnectionResetError, KeyboardInterrupt):
        pass
    finally:
        if server is not None:
            server._keep = None  # the last pixmap may point into the arena
        arena.close()


class _Server:
    """One loop: drain every pending request, then do the most urgent unit of work."""

    def __init__(self, requests: Connection, results: Connection, arena: Any) -> None:
        import pymupdf

        pymupdf.TOOLS.mupdf_display_errors(False)
        pymupdf.TOOLS.mupdf_display_warnings(False)
        self.pymupdf = pymupdf
        self.requests = requests
        self.results = results
        self.docs: dict[str, Any] = {}
        self.page_counts: dict[str, int] = {}  # read once: pymupdf's property calls into MuPDF every time
        self.wanted: list[tuple[str, int, float]] = []
        self.urgent = 0
        self.thumbs: list[tuple[str, int, float]] = []  # the Pages view's visible thumbnails, after the page
        self.sizes_todo: dict[str, int] = {}
        self.sizes_done: dict[str, list[tuple[float, float]]] = {}
        self.searches: OrderedDict[int, list[Any]] = OrderedDict()
        self.queries: list[tuple[Any, ...]] = []
        self.link_queries: list[tuple[Any, ...]] = []  # after the visible pages: nobody waits for them to paint
        self.renders = 0
        self._keep: Any = None
        self.arena = arena
        self.free_slots = list(range(SLOTS))
        self.in_flight: dict[int, tuple[str, int, float]] = {}  # slot -> page sent in it, until acknowledged
        self.send(("ready",))

    def send(self, msg: tuple[Any, ...]) -> None:
        """Answer the window (the processes' one framing, `core/framing.py`)."""
        framing.send(self.results, msg)

    def run(self) -> None:
        while True:
            idle = not (self.can_render() or self.can_thumb() or self.sizes_todo or self.searches or self.queries
                        or self.link_queries)
            if idle:
                self.requests.poll(None)
            while self.requests.poll(0):
                if not self.handle(framing.recv(self.requests)):
                    return
            self.step()

    def handle(self, msg: tuple[Any, ...]) -> bool:
        """Apply one request; False means quit."""
        verb = msg[0]
        if verb == "quit":
            return False
        if verb == "ack":
            self.free_slots.append(msg[1])
            self.in_flight.pop(msg[1], None)
        elif verb == "open":
            self.open(msg[1], msg[2], msg[3])
        elif verb == "want":
            # a page already sent is on its way to the window's cache: a new list that still names it (the
            # neighbours are asked for while the second visible page is in flight) must not render it twice
            sent = set(self.in_flight.values())
            jobs = list(msg[1])
            self.wanted = [job for job in jobs if job not in sent]
            self.urgent = sum(1 for job in jobs[: int(msg[2])] if job not in sent)
        elif verb == "thumbs":
            sent = set(self.in_flight.values())
            self.thumbs = [job for job in msg[1] if job not in sent]
        elif verb == "search":
            _, sid, key, text, first = msg
            doc = self.docs.get(key)
            if doc is None or not text.strip():
                self.send(("search_done", sid))
            else:
                count = doc.page_count
                order = list(range(first - 1, count)) + list(range(0, first - 1))
                self.searches[sid] = [key, text, order, 0]
        elif verb == "cancel_search":
            self.searches.pop(msg[1], None)
        elif verb in ("passage", "words"):
            self.queries.append(msg)
        elif verb == "links":
            self.link_queries.append(msg)
        elif verb == "close":
            doc = self.docs.pop(msg[1], None)
            self.page_counts.pop(msg[1], None)
            self.sizes_todo.pop(msg[1], None)
            self.sizes_done.pop(msg[1], None)
            self.wanted = [w for w in self.wanted if w[0] != msg[1]]
            self.thumbs = [t for t in self.thumbs if t[0] != msg[1]]
            self.link_queries = [q for q in self.link_queries if q[2] != msg[1]]
            self.urgent = min(self.urgent, len(self.wanted))
            if doc is not None:
                doc.close()
                self.pymupdf.TOOLS.store_shrink(100)
        return True

    def open(self, key: str, path: str, password: str | None) -> None:
        """Open a PDF under `key` and report its page count and first page size at once."""
        try:
            doc = self.pymupdf.open(path)
            if doc.needs_pass and not doc.authenticate(password or ""):
                doc.close()
                self.send(("opened", key, 0, (0.0, 0.0), "password"))
                return
            if doc.page_count < 1:
                raise ValueError("the PDF has no pages")
            first = doc.load_page(0).rect
        except Exception as exc:  # any open failure is reported, the server keeps running
            self.send(("opened", key, 0, (0.0, 0.0), f"Cannot open the PDF: {exc}"))
            return
        old = self.docs.pop(key, None)
        if old is not None:
            old.close()
        self.docs[key] = doc
        self.page_counts[key] = doc.page_count
        self.send(("opened", key, doc.page_count, (first.width, first.height), ""))
        self.sizes_done.pop(key, None)
        self.sizes_todo[key] = 0

    def can_render(self) -> bool:
        """A visible page is waiting, or a neighbour is and the parent has taken every image sent so far."""
        return bool(self.wanted) and (self.urgent > 0 or len(self.free_slots) == SLOTS)

    def can_thumb(self) -> bool:
        """A thumbnail waits, no visible page of the main view does, and the parent has taken every image sent:
        a thumbnail never holds the slot the main view's next page needs."""
        return bool(self.thumbs) and not (self.wanted and self.urgent) and len(self.free_slots) == SLOTS

    def step(self) -> None:
        """One unit of work, most urgent first: queries, visible pages, links, thumbnails, neighbours, sizes,
        search."""
        if self.queries:
            self.answer(self.queries.pop(0))
        elif self.link_queries and not (self.wanted and self.urgent):
            self.answer(self.link_queries.pop(0))
        elif self.can_thumb():
            key, page, scale = self.thumbs.pop(0)
            self.render(key, page, scale, verb="thumb")
        elif self.can_render():
            key, page, scale = self.wanted.pop(0)
            self.urgent = max(0, self.urgent - 1)
            self.render(key, page, scale)
        elif self.sizes_todo:
            key = next(iter(self.sizes_todo))
            self.send_sizes(key)
        elif self.searches:
            self.search_one_page()

    def render(self, key: str, page: int, scale: float, verb: str = "image") -> None:
        """Render one page into a free shared-memory slot and announce it ("image", or "thumb" for the Pages
        view)."""
        doc = self.docs.get(key)
        if doc is None or not 1 <= page <= self.page_counts.get(key, 0):
            return
        started = time.perf_counter()
        slot = self.free_slots.pop(0) if self.free_slots else None  # draw straight into it when one is free
        try:
            pix, samples, fmt = self.rasterize(doc, page - 1, scale, slot)
        except Exception as exc:  # a broken page must not take the viewer down
            if slot is not None:
                self.free_slots.insert(0, slot)
            self.send(("render_error", key, page, str(exc)))
            return
        render_ms = (time.perf_counter() - started) * 1000
        width, height, stride = pix
        if samples is not None:  # drawn elsewhere: copy into a slot
            if slot is None:
                while not self.free_slots:  # the parent still copies the previous images: serve requests
                    if not self.handle(framing.recv(self.requests)):
                        raise EOFError
                slot = self.free_slots.pop(0)
            self.arena.buf[slot * SLOT_BYTES : slot * SLOT_BYTES + stride * height] = samples
        assert slot is not None  # MuPDF drew straight into a slot, or the samples were copied into one just above
        self.in_flight[slot] = (key, page, scale)
        self.send((verb, key, page, scale, width, height, stride, slot, render_ms, fmt))
        self.renders += 1
        if self.renders % 64 == 0:
            self.pymupdf.TOOLS.store_shrink(50)

    def rasterize(self, doc: Any, index: int, scale: float, slot: int | None) -> tuple[tuple[int, int, int], Any, str]:
        """Draw page `index` onto white: ((width, height, stride), pixel bytes or None when drawn in `slot`,
        'bgra' | 'rgb').

        MuPDF draws straight into B,G,R,A bytes, which is Qt's RGB32 layout on little-endian machines, so the
        window only copies them; given a free arena slot it draws into the slot itself (no copy here either).
        The page is loaded with MuPDF's own calls too: pymupdf's `load_page` adds ~2 ms of Python on a cold
        CPU. Elsewhere (or if the low-level calls fail) pymupdf's RGB pixmap is used.
        """
        if sys.byteorder == "little":
            try:
                mupdf = self.pymupdf.mupdf
                fz_page = mupdf.fz_load_page(doc.this, index)
                bounds = mupdf.fz_bound_page(fz_page)
                scale = max_scale(bounds.x1 - bounds.x0, bounds.y1 - bounds.y0, scale)
                ctm = mupdf.FzMatrix(scale, 0, 0, scale, 0, 0)
                bbox = mupdf.fz_round_rect(mupdf.fz_transform_rect(bounds, ctm))
                fits = (bbox.x1 - bbox.x0) * (bbox.y1 - bbox.y0) * 4 <= SLOT_BYTES
                if slot is None or not fits:
                    slot = None
                    pix = mupdf.fz_new_pixmap_with_bbox(mupdf.fz_device_bgr(), bbox, mupdf.FzSeparations(), 1)
                else:
                    # the slot outlives the pixmap (`_keep` is dropped before the arena closes); the view is
                    # released at once so that no buffer export keeps the arena from closing
                    view = self.arena.buf[slot * SLOT_BYTES : (slot + 1) * SLOT_BYTES]
                    data = mupdf.python_mutable_buffer_data(view)
                    view.release()
                    pix = mupdf.fz_new_pixmap_with_bbox_and_data(
                        mupdf.fz_device_bgr(), bbox, mupdf.FzSeparations(), 1, data)
                mupdf.fz_clear_pixmap_with_value(pix, 255)  # opaque white paper
                device = mupdf.fz_new_draw_device(mupdf.FzMatrix(), pix)
                mupdf.fz_run_page(fz_page, device, ctm, mupdf.FzCookie())
                mupdf.fz_close_device(device)
                self._keep = pix  # the samples view below points into it
                samples = None if slot is not None else mupdf.fz_pixmap_samples_memoryview(pix)
                return (pix.w(), pix.h(), pix.stride()), samples, "bgra"
            except Exception:  # an unexpected binding or a broken page: the documented path decides
                log.debug("BGRA rendering unavailable", exc_info=True)
        pdf_page = doc.load_page(index)
        real = max_scale(pdf_page.rect.width, pdf_page.rect.height, scale)
        rgb = pdf_page.get_pixmap(matrix=self.pymupdf.Matrix(real, real), alpha=False)
        self._keep = rgb
        return (rgb.width, rgb.height, rgb.stride), rgb.samples_mv, "rgb"

    def send_sizes(self, key: str) -> None:
        """Measure the next few pages' sizes; send them in batches."""
        doc = self.docs[key]
        start = self.sizes_todo[key]
        end = min(doc.page_count, start + SIZE_CHUNK)
        sizes = self.sizes_done.setdefault(key, [])
        for index in range(start, end):
            try:
                rect = doc.load_page(index).rect
                sizes.append((rect.width, rect.height))
            except Exception:
                sizes.append((0.0, 0.0))  # the view keeps its estimate for this page
        finished = end >= doc.page_count
        if finished or len(sizes) >= SIZE_BATCH:
            self.send(("sizes", key, end - len(sizes) + 1, sizes))
            self.sizes_done.pop(key)
        if finished:
            del self.sizes_todo[key]
        else:
            self.sizes_todo[key] = end

    def search_one_page(self) -> None:
        """Advance the oldest search by one page."""
        sid, state = next(iter(self.searches.items()))
        key, text, order, done = state
        doc = self.docs.get(key)
        if doc is None or done >= len(order):
            self.searches.pop(sid, None)
            self.send(("search_done", sid))
            return
        index = order[done]
        try:
            rects = [_rect(r) for r in doc.load_page(index).search_for(text)]
        except Exception:
            rects = []
        if rects:
            self.send(("hits", sid, index + 1, rects))
        state[3] = done + 1
        if state[3] % SEARCH_PROGRESS_EVERY == 0:
            self.send(("search_progress", sid, state[3], len(order)))

    def answer(self, msg: tuple[Any, ...]) -> None:
        """Answer a one-page query: a passage's rectangles, the page's words or its links."""
        verb, rid, key, page = msg[0], msg[1], msg[2], msg[3]
        doc = self.docs.get(key)
        if doc is None or not 1 <= page <= doc.page_count:
            self.send((verb, rid, key, page, []))
            return
        pdf_page = doc.load_page(page - 1)
        if verb == "passage":
            self.send(("passage", rid, key, page, find_passage(pdf_page, msg[4])))
        elif verb == "links":
            try:
                links = read_links(doc, pdf_page)
            except Exception:  # a damaged annotation must not take the viewer down: no links on this page
                log.debug("links of page %d unreadable", page, exc_info=True)
                links = []
            self.send(("links", rid, key, page, links))
        else:
            words = [(w[0], w[1], w[2], w[3], w[4], w[5], w[6]) for w in pdf_page.get_text("words")]
            self.send(("words", rid, key, page, words))


def _rect(r: Any) -> Rect:
    return (float(r.x0), float(r.y0), float(r.x1), float(r.y1))


_SPACE = re.compile(r"\s+")
_CITATION = re.compile(r"\[[^\]]*\]")


def find_passage(page: Any, text: str, window: int = 6) -> list[Rect]:
    """Rectangles covering `text` on `page`: the page words that spell it (`citations.highlight`, robust to
    hyphenation, ligatures and reflowed lines), else MuPDF's search for the quote or its word runs."""
    clean = _SPACE.sub(" ", _CITATION.sub(" ", text)).strip().strip('"“”')
    if not clean:
        return []
    located = locate(clean, page.get_text("words"))
    if located:
        return located
    hits = page.search_for(clean)
    if hits:
        return [_rect(r) for r in hits]
    words = clean.split(" ")[:120]
    found: list[Rect] = []
    step = max(1, window // 2)
    for start in range(0, max(1, len(words) - window + 1), step):
        chunk = " ".join(words[start : start + window])
        if len(chunk) < 12:
            continue
        for r in page.search_for(chunk):
            rect = _rect(r)
            if rect not in found:
                found.append(rect)
    return found
