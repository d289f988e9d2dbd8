"""The library's `files/` folder: copies streamed in safely, and what no row needs swept out.

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
from pageindex_desktop.core.library.privacy import open_private

log = logging.getLogger(__name__)

COPY_CHUNK = 1 << 20
PART_SUFFIX = ".part"
COPY_SUFFIXES = frozenset(f.suffix for f in FORMATS)
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
    partial = target.with_name(f"{target.stem}.{os.getpid()}{PART_SUFFIX}")
    try:
        with os.fdopen(open_private(partial), "wb") as writer:
            writer.write(data)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def copies_of(files_dir: Path, sha: str) -> list[Path]:
    """The document's files: its PDF and, for other formats, the source copy it was laid out from."""
    return [files_dir / f"{sha}.{suffix}" for suffix in COPY_SUFFIXES if (files_dir / f"{sha}.{suffix}").exists()]


def remove_copies(files_dir: Path, sha: str) -> None:
    """Delete every file the document has in `files/` (its PDF and its source copy)."""
    for path in copies_of(files_dir, sha):
        path.unlink(missing_ok=True)


def sweep(files_dir: Path, wanted: set[str], in_use: Callable[[str], bool]) -> list[str]:
    """Remove temporary copies whose process is gone (or a day old) and copies (PDFs, e-book, text and Markdown
    sources) whose sha is not `wanted`
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
            sha = entry.stem
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
