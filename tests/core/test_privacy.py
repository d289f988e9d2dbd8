"""The library is its owner's alone: folders 0700 and files 0600 when made, and repaired when opened."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from pageindex_desktop.core.library.import_lock import import_lock
from pageindex_desktop.core.assistant.settings import ModelSettings, save_settings
from pageindex_desktop.core.library.store import Library, sha256_of
from pageindex_desktop.log import PrivateRotatingFileHandler

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_library_and_everything_it_writes_are_private(tmp_path: Path) -> None:
    source = tmp_path / "report.pdf"
    source.write_bytes(b"%PDF-1.4 private test")
    source.chmod(0o644)
    home = tmp_path / "home"
    with Library(home) as library:
        library.add_file(source, sha256_of(source), "Report")
        with import_lock(home, "abc"):
            pass
        save_settings(ModelSettings(), home)
        written = [home, home / "files", home / "locks", *home.glob("library.sqlite3*"), *home.glob("files/*"),
                   *home.glob("locks/*"), home / "settings.json"]
        assert len(list(home.glob("files/*"))) == 1 and (home / "library.sqlite3-wal").exists()
        for path in written:
            assert mode(path) == (0o700 if path.is_dir() else 0o600), path


def test_opening_an_old_library_makes_it_private_but_leaves_other_folders_alone(tmp_path: Path) -> None:
    home = tmp_path / "home"
    Library(home).close()
    keep = home / "my notes"
    keep.mkdir()
    (keep / "todo.txt").write_text("mine")
    for path in [home, home / "files", keep]:
        path.chmod(0o755)
    for path in [home / "library.sqlite3", keep / "todo.txt"]:
        path.chmod(0o644)
    Library(home).close()
    assert mode(home) == 0o700 and mode(home / "files") == 0o700 and mode(home / "library.sqlite3") == 0o600
    assert mode(keep) == 0o755 and mode(keep / "todo.txt") == 0o644  # not the library's


def test_the_log_file_is_private_even_when_an_old_one_was_not(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "app.log"
    path.parent.mkdir()
    path.write_text("old line\n")
    path.chmod(0o644)
    handler = PrivateRotatingFileHandler(path, maxBytes=200, backupCount=2, encoding="utf-8")
    record = logging.LogRecord("t", logging.INFO, __file__, 1, "x" * 150, None, None)
    for _ in range(4):  # past maxBytes: the handler rolls over and opens a new file
        handler.emit(record)
    handler.close()
    assert sorted(p.name for p in path.parent.iterdir()) == ["app.log", "app.log.1", "app.log.2"]
    assert all(mode(p) == 0o600 for p in path.parent.iterdir())
