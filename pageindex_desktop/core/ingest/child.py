"""The extraction child process: reads PDFs and builds their trees, talking to the indexer over a pipe.

Why a child: pymupdf must never run on two threads at once in the GUI process, and a malformed file that crashes
MuPDF must take down only this process. The child stays warm between jobs (starting Python and MuPDF costs more
than a small PDF takes), and imports nothing heavy beyond pymupdf: no Qt, no openai.

Protocol (tuples over a multiprocessing Connection):
  child → parent   ("hello", pid, heavy_modules)               once, after start-up
                   ("fatal", message, traceback)                instead, when the engine cannot load
  parent → child   ("job", path, password, use_bookmarks, file_name, workers, ocr)   or None to stop
                   (ocr: {"languages", "tessdata"} for pages without text, or None; core/ingest/ocr.py)
  child → parent   ("progress", stage, done, total)            any number, throttled
                   ("log", level, logger name, message)         warnings, re-logged by the parent
                   ("result", payload dict)                     or
                   ("error", kind, message, details)            kind: "password" | "pdf" | "internal"
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import time
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core import framing

if TYPE_CHECKING:
    from pageindex_desktop.core.document import ExtractedDocument
    from pageindex_desktop.core.outline.tree import Outline

# Modules the child must never load (start-up cost, and Qt must stay in the GUI process).
HEAVY_MODULES = ("PySide6", "shiboken6", "openai", "httpx")
PROGRESS_INTERVAL = 0.05  # seconds between progress messages


def heavy_modules_loaded() -> list[str]:
    """Top-level names of forbidden heavy modules present in this interpreter (should be empty in the child)."""
    return sorted({name.split(".")[0] for name in sys.modules if name.split(".")[0] in HEAVY_MODULES})


class _PipeLogHandler(logging.Handler):
    """Forward warnings to the parent, which writes them to the app's log file (the child has no file)."""

    def __init__(self, conn: Connection) -> None:
        super().__init__(logging.WARNING)
        self.conn = conn

    def emit(self, record: logging.LogRecord) -> None:
        """Send one record; a closed pipe drops it (the parent is gone or stopping us)."""
        try:
            text = record.getMessage()
            if record.exc_info:
                text += "\n" + "".join(traceback.format_exception(*record.exc_info))
            framing.send(self.conn, ("log", record.levelno, record.name, text))
        except Exception:
            pass


def worker_main(conn: Connection) -> None:
    """Child entry point: announce readiness, then run jobs until the pipe closes or a None arrives."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C belongs to the parent, which then stops us
    if hasattr(os, "setpgrp"):
        os.setpgrp()  # our own process group, so the parent can stop us and any helper processes at once
    # Tesseract (OCR, core/ingest/ocr_read.py) spreads each page over OpenMP threads; a batch already runs one child per
    # core, and on a busy machine those threads wait on each other (a page took 30 s instead of 10).
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    root = logging.getLogger()
    root.addHandler(_PipeLogHandler(conn))
    root.setLevel(logging.WARNING)
    try:
        try:  # warm up MuPDF and the tree builders before the first job
            from pageindex_desktop.core.ingest import pdf  # noqa: F401
            from pageindex_desktop.core.outline import build  # noqa: F401
        except Exception as exc:  # a broken install: say so instead of dying with exit code 1
            framing.send(conn, ("fatal", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
            return
        framing.send(conn, ("hello", os.getpid(), heavy_modules_loaded()))
        while True:
            try:
                job = framing.recv(conn)
            except (EOFError, OSError):
                return
            if job is None:
                return
            _, path, password, use_bookmarks, file_name, workers, ocr = job
            framing.send(conn, run_job(conn, Path(path), password, use_bookmarks, file_name, workers, ocr))
    except (BrokenPipeError, EOFError, OSError):
        return  # the parent went away; nothing left to report to


def _stop_orphan() -> None:
    """The parent died mid-job (killed, crashed): stop this process and its helpers instead of finishing."""
    if hasattr(os, "killpg") and os.getpgrp() == os.getpid():
        os.killpg(os.getpgrp(), signal.SIGKILL)
    os._exit(1)


def heading_outline(doc: "ExtractedDocument") -> "Outline | None":
    """A Markdown document's tree, exactly its headings (kept as the laid-out PDF's bookmarks, levels nested);
    None when it has none (page groups then)."""
    from pageindex_desktop.core.outline.assemble import assemble
    from pageindex_desktop.core.outline.tree import Heading, Outline

    headings = [Heading(title, level, page) for level, title, page in doc.toc if page >= 1 and title]
    return Outline(source="markdown", nodes=assemble(headings, doc)) if headings else None


def run_job(
    conn: Connection | None,
    path: Path,
    password: str | None,
    use_bookmarks: bool,
    file_name: str,
    workers: int | None = None,
    ocr: dict[str, str] | None = None,
) -> tuple[Any, ...]:
    """Extract and build one document; returns the final ("result", ...) or ("error", ...) message.

    `workers` goes to pdf.extract: None lets it split a long document over two processes, 1 keeps it here
    (a batch already runs one child per core). `ocr`: read pages without text with Tesseract (core/ingest/ocr_read.py)
    and save the PDF with their words written in as invisible text beside the one read (`files/<sha>.ocr.pdf`).
    """
    from pageindex_desktop.core import formats
    from pageindex_desktop.core.ingest import convert
    from pageindex_desktop.core.ingest.blank_pages import blank_pages
    from pageindex_desktop.core.errors import PasswordRequired, PdfError
    from pageindex_desktop.core.outline.build import build_outline
    from pageindex_desktop.core.ingest.pdf import extract
    from pageindex_desktop.core.ingest.title import choose_title

    last = [0.0]
    parent = os.getppid()

    def progress(done: int, total: int, stage: str = "extracting") -> None:
        if os.getppid() != parent:
            _stop_orphan()
        now = time.monotonic()
        if conn is not None and (now - last[0] >= PROGRESS_INTERVAL or done >= total):
            last[0] = now
            framing.send(conn, ("progress", stage, done, total))

    fmt = formats.by_suffix(path.suffix.lstrip(".")) or formats.PDF
    use_bookmarks = use_bookmarks or not fmt.is_pdf  # an e-book's own contents is its tree
    try:
        if not fmt.is_pdf:  # laid out to pages once, beside the source copy (core/ingest/convert.py)
            path = convert.lay_out(path, fmt)
        doc = extract(path, password=password, progress=progress, workers=workers, use_bookmarks=use_bookmarks)
        ocr_problem = ""
        if ocr is not None and any(not p.has_text for p in doc.pages):
            from pageindex_desktop.core.ingest.ocr_read import recognise

            from pageindex_desktop.core.library.library_files import with_text_layer

            doc.pages, ocr_problem = recognise(path, password, doc.pages, ocr, frozenset(doc.unreadable_pages),
                                               lambda done, total: progress(done, total, "ocr"),
                                               layer=with_text_layer(path))
        blank = blank_pages(path, password, doc.pages, frozenset(doc.unreadable_pages))  # not scans: no warning
        if conn is not None:
            framing.send(conn, ("progress", "building", 0, 1))
        outline = heading_outline(doc) if fmt is formats.MARKDOWN else None
        outline = outline or build_outline(doc, use_bookmarks=use_bookmarks)
        title = choose_title(doc, file_name)
    except PasswordRequired as exc:
        return ("error", "password", str(exc), "")
    except PdfError as exc:
        return ("error", "pdf", str(exc), "")
    except MemoryError:
        return ("error", "pdf", "The PDF is too large to read in the available memory.", "")
    except Exception as exc:  # a bug or an unexpected MuPDF failure: report it, keep the child usable
        return ("error", "internal", f"{type(exc).__name__}: {exc}", traceback.format_exc())
    # Lines are only needed for building the tree; leaving them here keeps the pipe and the parent lean.
    pages = [PageData(p.number, p.label, p.text, p.width, p.height, ocr=p.ocr) for p in doc.pages]
    return (
        "result",
        {"title": title, "page_count": doc.page_count, "pages": pages, "outline": outline,
         "repair_note": doc.repair_note, "unreadable_pages": doc.unreadable_pages, "ocr_problem": ocr_problem,
         "blank_pages": blank},
    )
