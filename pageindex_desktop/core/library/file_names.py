"""File names as text the library can store and show.

On POSIX a file name is bytes; Python hands bytes that are not valid UTF-8 over as lone surrogates
("caf\\udce9.pdf"), which SQLite, JSON and Qt all refuse to encode, so such a name once made an import stop on
an internal error. Every name that reaches the store or a message goes through `readable` first; the real path
is still what the file is opened by.
"""

from __future__ import annotations

from pathlib import Path, PurePath


def readable(name: str | PurePath) -> str:
    """`name` as valid Unicode: bytes that were not UTF-8 become U+FFFD (the name is otherwise unchanged)."""
    text = str(name)
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:  # POSIX: undecodable bytes arrive as surrogate escapes; give them back as bytes, then decode leniently
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # other lone surrogates (Windows' unpaired UTF-16 halves)
        return text.encode("utf-8", "replace").decode("utf-8")


def is_file(path: Path) -> bool:
    """Path.is_file without the OSError it raises for a name longer than the system allows (Python 3.11)."""
    try:
        return path.is_file()
    except OSError:
        return False


def is_dir(path: Path) -> bool:
    """Path.is_dir, likewise."""
    try:
        return path.is_dir()
    except OSError:
        return False
