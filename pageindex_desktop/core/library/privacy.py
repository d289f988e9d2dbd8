"""The library is its owner's alone: folders 0700 and files 0600 on POSIX, set when made and repaired on open.

The library holds the documents an analyst imported, their text, chats and logs; on a shared machine other local
users must not read them (with the default umask they could: folders 755, files 644). The process umask is left
alone, because files the user saves elsewhere (an export on the desktop) should get their usual modes; instead
everything the library writes goes through here. On Windows and macOS the per-user folders are private already
and `chmod` means little, so these are no-ops off POSIX.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
_POSIX = os.name == "posix"


def private_dir(path: Path) -> Path:
    """Make the folder (and missing parents) and make it private; returns it."""
    Path(path).mkdir(parents=True, exist_ok=True)
    _chmod(Path(path), PRIVATE_DIR)
    return Path(path)


def private_file(path: Path) -> None:
    """Make an existing file private (a missing one is ignored: SQLite's -wal/-shm come and go)."""
    _chmod(Path(path), PRIVATE_FILE)


def open_private(path: Path) -> int:
    """A new file opened for writing, private from its first byte (no window in which others could read it)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, PRIVATE_FILE)
    if _POSIX:
        os.fchmod(fd, PRIVATE_FILE)  # an existing file keeps its old mode through O_CREAT
    return fd


def write_private_atomic(path: Path, text: str) -> None:
    """Write a small text file atomically (a temp file renamed over it), private from the start."""
    private_dir(path.parent)
    partial = path.with_suffix(path.suffix + ".tmp")
    with os.fdopen(open_private(partial), "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(partial, path)


def repair(home: Path, folders: tuple[str, ...]) -> int:
    """Make the library private again (one made by an older version, files copied in by hand): the home folder,
    the files directly in it, and the library's own `folders` with everything in them; returns how many modes it
    changed. Other folders a user keeps in the home, and symbolic links, are left alone."""
    home = Path(home)
    if not _POSIX or not home.is_dir():
        return 0
    changed = _chmod(home, PRIVATE_DIR)
    for entry in home.iterdir():
        if entry.is_file() and not entry.is_symlink():
            changed += _chmod(entry, PRIVATE_FILE)
    for name in folders:
        top = home / name
        if not top.is_dir() or top.is_symlink():
            continue
        for root, dirs, files in os.walk(top):
            changed += _chmod(Path(root), PRIVATE_DIR)
            for file_name in files:
                changed += _chmod(Path(root) / file_name, PRIVATE_FILE)
            dirs[:] = [d for d in dirs if not (Path(root) / d).is_symlink()]
    if changed:
        log.info("made %d library paths private", changed)
    return changed


def _chmod(path: Path, mode: int) -> int:
    """Set `mode` when it differs; 1 when it changed. Failures (a read-only mount, a file owned by someone else)
    are logged, never raised: privacy is repaired where it can be, and the library still opens."""
    if not _POSIX:
        return 0
    try:
        current = os.lstat(path)
    except FileNotFoundError:
        return 0
    except OSError as exc:
        log.warning("cannot read the mode of %s (%s)", path.name, exc.strerror)
        return 0
    if stat.S_ISLNK(current.st_mode) or stat.S_IMODE(current.st_mode) == mode:
        return 0
    try:
        os.chmod(path, mode)
    except OSError as exc:
        log.warning("cannot make %s private (%s)", path.name, exc.strerror)
        return 0
    return 1
