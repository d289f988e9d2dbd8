"""The per-user folders stay where appdirs put them now that platformdirs (its maintained fork) finds them, so an
existing library and its logs are found after the switch."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pageindex_desktop.config import HOME_ENV, library_home, log_dir


@pytest.mark.skipif(sys.platform.startswith(("win", "darwin")), reason="the XDG folders of Linux and the BSDs")
def test_the_library_and_logs_are_where_appdirs_put_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(HOME_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert library_home() == tmp_path / "data" / "PageIndexDesktop"  # appdirs.user_data_dir
    assert log_dir() == tmp_path / "cache" / "PageIndexDesktop" / "log"  # appdirs.user_log_dir, not XDG state


def test_the_home_variable_keeps_everything_in_one_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "lib"))
    assert library_home() == tmp_path / "lib" and log_dir() == tmp_path / "lib" / "logs"
