"""The library's `files/` folder: copies streamed in safely, and what no row needs swept out.

A document's files are `<sha>.pdf` (the PDF as imported, or laid out from an e-book's `<sha>.<suffix>` source
copy) and, when pages were read by OCR, `<sha>.ocr.pdf`: the same PDF with an invisible text layer over those
pages (core/ingest/ocr_layer.py), which the viewer opens instead (`shown_pdf`) so their words can be selected and
highlighted. The imported file itself is never changed; re-indexing reads `<sha>.pdf` and writes the layer again.

A copy goes to a private temporary file named for the writing process (`<sha>.<pid>.part`) and is renamed into
place only when whole; any failure removes it. A kill leaves it behind, so the start-up sweep removes `.part`
files of dead processes and PDF copies no document references, sparing one a live process is about to record
(it holds the document's lock from the copy to the row).
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from pageindex_desktop.core.formats import FORMATS
from pageindex_desktop.core.library.privacy import open_private, private_file

log = logging.getLogger(__name__)

COPY_CHUNK = 1 << 20
PART_SUFFIX = ".part"
COPY_SUFFIXES = frozenset(f.suffix for f in FORMATS)
TEXT_LAYER_SUFFIX = "ocr.pdf"  # `<sha>.ocr.pdf`: the PDF with OCR text written in
STALE_COPY = 86400.0  # seconds after which a temporary copy cannot be a live import's, whoever wrote it


def copy_in(source: Path, target: Path) -> None:
    """Stream `source` to `target` through a private temporary file; on any failure (a full disk, Ctrl+C) the
    temporary file is removed."""
    partial = target.with_name(f"{target.stem}.{os.getpid()}{PART_SUFFIX}")
    try:
        with open(source, "rb") as reader, os.fdopen(open_private(partial), "wb") as writer:
            shutil.copyfileobj(reader, writer, COPY_CHUNK)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def write_in(target: Path, data: bytes) -> None:
    """Write `data` to `target` through a private temporary file (a laid-out PDF beside its source copy): the
    target is either absent or whole, never half-written."""
    write_with(target, lambda partial: partial.write_bytes(data))


def write_with(target: Path, fill: Callable[[Path], object]) -> None:
    """Let `fill` write `target`'s bytes into a private temporary file (given by path: pymupdf saves a PDF too large
    to hold in memory twice straight to a file; made 0600 again after), then rename it into place;
    on any failure the temporary file is removed and an existing `target` stays as it was."""
    partial = target.with_name(f"{target.stem}.{os.getpid()}{PART_SUFFIX}")
    try:
        os.close(open_private(partial))
        fill(partial)
        private_file(partial)  # MuPDF writes a new file in the process's usual mode rather than into this one
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def with_text_layer(pdf: Path) -> Path:
    """Where the copy of `pdf` (`files/<sha>.pdf`) with OCR text written in goes."""
    return pdf.with_name(f"{pdf.stem}.{TEXT_LAYER_SUFFIX}")


def shown_pdf(files_dir: Path, sha: str) -> Path:
    """The PDF the viewer opens: the copy with OCR text written in when there is one, else `<sha>.pdf`."""
    pdf = files_dir / f"{sha}.pdf"
    layered = with_text_layer(pdf)
    return layered if layered.is_file() else pdf


def copies_of(files_dir: Path, sha: str) -> list[Path]:
    """The document's files: its PDF, its copy with OCR text and, for other formats, the source it was laid out
    from."""
    suffixes = sorted(COPY_SUFFIXES | {TEXT_LAYER_SUFFIX})
    return [files_dir / f"{sha}.{suffix}" for suffix in suffixes if (files_dir / f"{sha}.{suffix}").exists()]


def remove_copies(files_dir: Path, sha: str) -> None:
    """Delete every file the document has in `files/` (its PDF and its source copy)."""
    for path in copies_of(files_dir, sha):
        path.unlink(missing_ok=True)


def sweep(files_dir: Path, wanted: set[str], in_use: Callable[[str], bool]) -> list[str]:
    """Remove temporary copies whose process is gone (or a day old) and copies (PDFs, their OCR text copies,
    e-book, text and Markdown sources) whose sha is not `wanted`
    unless `in_use(sha)` (a live process holds that document's lock); returns the names removed."""
    removed = []
    now = time.time()
    for entry in files_dir.iterdir():
        name = entry.name
        try:
            age = now - entry.stat().st_mtime
        except OSError:
            continue
        if name.endswith(PART_SUFFIX):
            stale = not _process_alive(name.removesuffix(PART_SUFFIX).rpartition(".")[2]) or age > STALE_COPY
        elif entry.suffix.lstrip(".") in COPY_SUFFIXES:
            sha = name.split(".", 1)[0]  # `<sha>.pdf`, `<sha>.epub`, `<sha>.ocr.pdf`
            stale = sha not in wanted and not in_use(sha)
        else:
            stale = False
        if stale:
            entry.unlink(missing_ok=True)
            removed.append(name)
    if removed:
        log.info("removed %d files no document needs from %s", len(removed), files_dir)
    return removed


def _process_alive(pid_text: str) -> bool:
    """Whether the process that wrote a temporary copy still runs (unknown counts as alive)."""
    if not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True
    if os.name != "posix":
        return True  # no cheap check: the age rule removes it later
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists but belongs to someone else
    return True
