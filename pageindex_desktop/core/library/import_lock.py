"""Per-document import locks: a file lock held while a process imports a document.

Why: `Library.recover_interrupted` turns documents left 'importing' into retryable failures at start-up. A
document whose lock is still held is being imported right now by another live process (a second window, a CLI
run) and must be left alone. The operating system drops the lock when the importing process dies, however it
dies, so a crashed import is never mistaken for a live one.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from pageindex_desktop.core.library.privacy import open_private, private_dir

LOCKS_DIR = "locks"
log = logging.getLogger(__name__)

if sys.platform != "win32":
    import fcntl

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # another open file holds it
        except OSError as exc:  # a file system without locks (some network mounts): never block imports on it
            log.warning("import locks unavailable in this folder (%s); continuing without", exc.strerror)
        return True

else:  # Windows
    import msvcrt

    def _try_lock(handle: IO[bytes]) -> bool:
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except PermissionError:
            return False  # another open file holds it
        except OSError as exc:
            log.warning("import locks unavailable in this folder (%s); continuing without", exc.strerror)
        return True


def _lock_path(home: Path, doc_id: str) -> Path:
    folder = private_dir(Path(home) / LOCKS_DIR)
    path = folder / f"{doc_id}.lock"
    if not path.exists():
        os.close(open_private(path))
    return path


BRIEF_WAIT = 1.0  # seconds a blocked action waits for the lock before it says the document is busy


@contextmanager
def import_lock(home: Path, doc_id: str, wait: float = BRIEF_WAIT) -> Iterator[bool]:
    """Hold the document's import lock for the block; yields False (holding nothing) when someone else still has
    it after `wait` seconds. The brief wait also covers a lock just released whose file descriptor a child
    process being forked at that instant still holds until it execs (flock belongs to the open file, which the
    fork shares): without it a batch import could call its own next document "being imported elsewhere"."""
    path = _lock_path(home, doc_id)
    handle = open(path, "a+b")
    try:
        deadline = time.monotonic() + wait
        while not _try_lock(handle):
            if time.monotonic() >= deadline:
                yield False
                return
            time.sleep(0.01)
        yield True
    finally:
        handle.close()  # closing releases the lock; the empty file stays (unlinking would race other lockers)


def is_locked(home: Path, doc_id: str) -> bool:
    """True when a live process holds the document's import lock right now."""
    path = Path(home) / LOCKS_DIR / f"{doc_id}.lock"
    if not path.exists():
        return False
    with open(path, "a+b") as handle:
        return not _try_lock(handle)
