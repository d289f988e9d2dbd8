"""Open and validate a PDF and extract, per page, the text, the printed label and the text lines with layout facts.

This module loads MuPDF, so it runs in the indexer's child process (pymupdf must never run on two threads at
once, and a malformed file must not take the GUI down). Each page is read from one MuPDF text page that is
dropped as soon as the page is done (`pdf_pages`); long documents are shared with a helper process
(`pdf_helper`).
"""

from __future__ import annotations

import logging
import os
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest import glyph_scale, pdf_damage, pdf_helper
from pageindex_desktop.core.ingest.file_check import pdf_problem
from pageindex_desktop.core.document import ExtractedDocument, PageData
from pageindex_desktop.core.errors import PasswordRequired, PdfError
from pageindex_desktop.core.outline.bookmarks import outline_targets
from pageindex_desktop.core.ingest.pdf_outline import read_outline
from pageindex_desktop.core.ingest.pdf_pages import clean_title, page_data
from pageindex_desktop.core.ingest.underlines import mark_underlined

log = logging.getLogger(__name__)

# Pages a helper process takes at a time; a helper is started for documents of START_HELPER_PAGES pages or more
# and, once warm, used for any document of USE_HELPER_PAGES pages or more.
CHUNK = 12
START_HELPER_PAGES = 40
USE_HELPER_PAGES = 2 * CHUNK
IN_FLIGHT = 2  # chunks a helper holds at once
LAST_CHUNK_WAIT = 0.2  # seconds to wait for a helper's last chunks before reading them here
MIN_IDLE_CORES = 0.4  # idle CPU (in cores) seen while the first pages are read before a helper is used

Progress = Callable[[int, int], None]


def open_pdf(path: Path, password: str | None) -> pymupdf.Document:
    """Open `path` as a PDF or raise the typed error a user can act on (shared with the helper processes)."""
    problem = pdf_problem(path)
    if problem:
        raise PdfError(problem)
    try:
        with path.open("rb") as handle:
            handle.seek(max(0, path.stat().st_size - 4096))
            tail = handle.read()
    except OSError as exc:
        raise PdfError(f"The file cannot be read: {exc.strerror or exc}.") from exc
    try:
        doc = pymupdf.open(str(path), filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for broken files
        if b"%%EOF" not in tail:
            raise PdfError("The PDF is truncated (the file ends early) and cannot be opened.") from exc
        raise PdfError("The PDF is damaged and cannot be opened.") from exc
    if doc.needs_pass:
        if not password:
            doc.close()
            raise PasswordRequired("The PDF is encrypted and needs a password to open.")
        if not doc.authenticate(password):
            doc.close()
            raise PasswordRequired("The password is wrong: the encrypted PDF could not be opened with it.")
    try:
        pages = doc.page_count
    except Exception as exc:  # MuPDF refuses a page tree whose /Count is negative or absurdly large
        doc.close()
        raise PdfError("The PDF's page tree is damaged (it declares an impossible number of pages).") from exc
    if pages == 0:
        doc.close()
        raise PdfError("The PDF has no readable pages (its page tree is missing, truncated or damaged).")
    if doc.is_repaired:
        if b"%%EOF" not in tail:
            doc.close()
            raise PdfError("The PDF is truncated (the file ends early, so part of it is missing).")
        log.warning("PDF %s needed repair on open", path.name)
    return doc


def _check_page_tree(doc: pymupdf.Document) -> None:
    """Raise PdfError when the page tree cannot be walked (a cycle, a dangling reference)."""
    try:
        for index in range(doc.page_count):
            doc.load_page(index)
    except Exception as exc:
        raise PdfError("The PDF's page tree is damaged (it loops or points to missing pages).") from exc


def _metadata_title(doc: pymupdf.Document) -> str:
    """The document-info title, or '' when missing or unreadable."""
    try:
        return clean_title((doc.metadata or {}).get("title") or "")
    except Exception:
        return ""


def extract(
    path: Path,
    password: str | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
    use_bookmarks: bool | None = None,
) -> ExtractedDocument:
    """Read a PDF into plain data: per-page text, label, size and lines, plus the bookmarks and metadata title.

    Raises PasswordRequired when the file is encrypted and no (or a wrong) password is given, and PdfError with
    a one-sentence message for an empty file, a non-PDF, a damaged or truncated file, an unreadable page tree or
    a document with no pages (or, once MuPDF repaired it, none that can be read).

    A file MuPDF had to repair keeps the pages it can read: pages it cannot (`pdf_damage`) come back without
    text (and without lines), listed in `unreadable_pages`, and `repair_note` says how many of the declared
    pages were readable. A file that needed no repair and has a page that cannot be loaded still fails.

    Per page: `text` (MuPDF reading order, one line per text line, a blank line between blocks, hyphenated words
    re-joined, control characters and unmapped glyphs dropped), `label` (printed page label, '' if none), `width`
    and `height` (as shown), and `lines`: one `Line` per MuPDF text line, in text order, blank ones dropped;
    `Line.text` is its spans joined and cleaned (a smaller superscript footnote marker after a word left out),
    `size` the size of the span with the most characters (0.1 pt), `color` that span's sRGB colour (0xRRGGBB),
    `runs` its runs of one colour when it has several, `bold` whether most of its characters are bold (MuPDF
    flag or a Bold/Black/Heavy/Semibold/Demi font name),
    `x0, y0, x1, y1` its box in points from the top-left of the page as shown. Details in `pdf_pages`.

    `workers`: processes to use, this one included (None: a helper joins in for documents long enough to gain
    from it when a core is seen idle while the first pages are read, else 1). See `extract_pages`: the output
    never depends on the number of workers.

    `use_bookmarks`: pass what you will pass to `build_outline`. None or False: lines on every page (the
    contents-page and layout builders need them). True: when the embedded outline is usable by the same test
    `build_outline` applies, lines only on page 1 (the cover, where a title is looked for) and on the pages its
    entries point to and the page after each (all that bookmark validation and spans read); every page still
    gets its full text.
    """
    path = Path(path)
    doc = open_pdf(path, password)
    try:
        damage = pdf_damage.assess(doc) if doc.is_repaired else None
        total = doc.page_count  # after the assessment: MuPDF recounts a page tree that lied about its size
        if damage is None:
            _check_page_tree(doc)
        elif damage.readable == 0:
            raise PdfError(f"The PDF is damaged: none of its {damage.declared} pages can be read.")
        toc = read_outline(doc)
        title = _metadata_title(doc)
        line_pages = None
        if use_bookmarks:
            targets = outline_targets(toc, total)
            if targets is not None:
                line_pages = frozenset({1} | {p for t in targets for p in (t, t + 1) if p <= total})
        skip = damage.unloadable if damage is not None else frozenset()
        pages = extract_pages(doc, path, password, progress, workers, line_pages, skip)
        glyph_scale.settle_sizes(pages)  # after every page is read: the same whatever the number of workers
        mark_underlined(doc, pages)
    finally:
        doc.close()
    if damage is None or not damage.note():
        return ExtractedDocument(page_count=total, metadata_title=title, toc=toc, pages=pages)
    log.warning("PDF %s: %s", path.name, damage.note())
    return ExtractedDocument(page_count=total, metadata_title=title, toc=toc, pages=pages,
                             repair_note=damage.note(), unreadable_pages=sorted(i + 1 for i in damage.unreadable))


def _may_split(total: int) -> bool:
    """Whether automatic mode may look for a spare core: several cores, not a frozen build, enough pages."""
    if getattr(sys, "frozen", False) or (os.cpu_count() or 1) < 2 or total < USE_HELPER_PAGES:
        return False
    return total >= START_HELPER_PAGES or pdf_helper.warm()


def extract_pages(
    doc: pymupdf.Document,
    path: Path,
    password: str | None,
    progress: Progress | None,
    workers: int | None,
    line_pages: frozenset[int] | None = None,
    skip: frozenset[int] = frozenset(),
) -> list[PageData]:
    """Every page, this process reading from the front while helper processes take chunks from the back.

    Chunks shrink as the pages left run out (at most a third of them goes to a helper at once); when this
    process reaches a chunk a helper still holds, it reads that chunk itself and the helper's late reply is
    dropped. A chunk a helper fails on is read here too. So the result is the same for any number of workers,
    and a slow or dead helper costs nothing but its share. Pages in `skip` (0-based: a repaired file's pages
    MuPDF cannot load) come back empty, here and when a helper failed its chunk on them.
    """
    total = doc.page_count
    helpers: list[pdf_helper.Helper] = []
    probe = pdf_helper.IdleProbe() if workers is None and _may_split(total) else None
    if workers is not None and workers > 1 and total > CHUNK:
        helpers = pdf_helper.helpers(workers - 1)
    pages: list[PageData | None] = [None] * total
    held: dict[pdf_helper.Helper, deque[tuple[int, int]]] = {}  # ranges sent to each helper, oldest first
    front, back, done, reported = 0, total, 0, 0

    def read(index: int) -> PageData:
        if index in skip:
            return PageData(index + 1, "", "", 0.0, 0.0, [])
        return page_data(doc, index, line_pages is None or index + 1 in line_pages)

    def subset(start: int, stop: int) -> frozenset[int] | None:
        return None if line_pages is None else frozenset(p for p in line_pages if start < p <= stop)

    def hand_out(helper: pdf_helper.Helper) -> None:
        nonlocal back
        queue = held.setdefault(helper, deque())
        while len(queue) < IN_FLIGHT:  # one chunk queued behind the one in work: the helper never waits
            size = min(CHUNK, (back - front) // 3)  # smaller near the end: less to redo if a chunk is late
            message = ("range", str(path), password, back - size, back, subset(back - size, back))
            if size < 1 or not helper.send(message):
                return
            queue.append((back - size, back))
            back -= size

    def collect(helper: pdf_helper.Helper, reply: tuple[str, object]) -> None:
        nonlocal done
        start, stop = held[helper].popleft()
        part = reply[1]
        if reply[0] == "ok" and isinstance(part, list) and len(part) == stop - start:
            pages[start:stop] = part
            helper.served += stop - start
            hand_out(helper)
        else:
            log.warning("PDF helper could not read pages %d-%d; reading them here", start + 1, stop)
            for index in range(start, stop):
                pages[index] = read(index)
        done += stop - start

    def poll_all() -> None:
        for helper, queue in held.items():
            while queue:
                reply = helper.poll()
                if reply is None:
                    break
                collect(helper, reply)

    try:
        for helper in helpers:
            hand_out(helper)
        while front < back:
            pages[front] = read(front)
            front += 1
            done += 1
            if probe is not None and probe.ready():
                if probe.idle_cores() >= MIN_IDLE_CORES:  # a core to spare: split the rest
                    helpers = pdf_helper.helpers(1)
                    for helper in helpers:
                        hand_out(helper)
                probe = None
            poll_all()
            if progress is not None and done - reported >= 10:
                progress(done, total)
                reported = done
        poll_all()
        for helper, queue in held.items():
            while queue and helper.served:  # a working helper is about done with its small last chunks
                reply = helper.wait(LAST_CHUNK_WAIT)
                if reply is None:
                    break
                collect(helper, reply)
            while queue:  # still busy (or still starting): read its chunks here, drop its late replies
                start, stop = queue.popleft()
                helper.abandon()
                for index in range(start, stop):
                    pages[index] = read(index)
    finally:  # on an error or a cancel too: late replies must not be taken for the next document's
        for helper, queue in held.items():
            for _ in queue:
                helper.abandon()
        for helper in helpers:
            helper.send(("close",))
    if progress is not None:
        progress(total, total)
    return [page if page is not None else read(index) for index, page in enumerate(pages)]
