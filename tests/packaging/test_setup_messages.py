"""Setup (issue 12): without a desktop, or without the system libraries Qt's X11 plugin needs, the launch command
exits 1 with one sentence instead of Qt's abort and core dump; a test run without the corpus says once why the
real-PDF tests were skipped."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pageindex_desktop.display_check import NO_DISPLAY, problem

ROOT = Path(__file__).resolve().parent.parent.parent


def scrubbed_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A login without a desktop: no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM, a scratch home and library."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "LANG": "C.UTF-8",
           "PYTHONPATH": str(ROOT), "PAGEINDEX_DESKTOP_HOME": str(tmp_path / "library")}
    env.update(extra)
    return env


def launch(env: dict[str, str], code: str = "") -> subprocess.CompletedProcess[str]:
    """`pageindex-desktop` as the gui script runs it (`python -m pageindex_desktop`), or `code` before main."""
    args = ["-c", code + "\nfrom pageindex_desktop.app import main\nraise SystemExit(main(['pageindex-desktop']))"] \
        if code else ["-m", "pageindex_desktop"]
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the display check is for Linux")
def test_without_a_display_the_launch_says_so_and_exits_1(tmp_path: Path) -> None:
    done = launch(scrubbed_env(tmp_path))
    assert done.returncode == 1
    assert done.stderr.strip() == NO_DISPLAY and done.stdout == ""
    assert not (tmp_path / "library").exists()  # it stopped before touching the library


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the library check is for Linux")
def test_missing_xcb_libraries_print_the_apt_line(tmp_path: Path) -> None:
    # a machine without the libraries: find_library finds nothing (the X server need not exist: we stop first)
    done = launch(scrubbed_env(tmp_path, DISPLAY=":99"),
                  "import ctypes.util\nctypes.util.find_library = lambda name: None")
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Qt cannot open a window: system libraries for X11 are missing.")
    assert "sudo apt-get install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 " in lines[0]


def test_the_checks_leave_other_setups_alone() -> None:
    nothing = lambda name: None  # noqa: E731
    assert problem({"QT_QPA_PLATFORM": "offscreen"}, "linux", nothing) is None  # a test run
    assert problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux", nothing) is None  # Wayland: no xcb plugin
    assert problem({}, "darwin", nothing) is None and problem({}, "win32", nothing) is None
    assert problem({"DISPLAY": ":0"}, "linux", lambda name: f"lib{name}.so") is None  # everything installed
    only_cursor = problem({"DISPLAY": ":0"}, "linux", lambda name: None if name == "xcb-cursor" else "found")
    assert only_cursor is not None and "install libxcb-cursor0 (" in only_cursor


CONFTEST = """
import sys
from pathlib import Path
sys.path[:0] = [{root!r}, {tests!r}]
import tests.conftest as shared
shared.CORPUS = Path({corpus!r})
pytest_terminal_summary = shared.pytest_terminal_summary
"""

TESTS = """
from tests.conftest import corpus_file

def test_one():
    corpus_file("a.pdf")

def test_two():
    corpus_file("b.pdf")

def test_three():
    pass
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2", "--dist", "loadfile"]], ids=["serial", "parallel"])
def test_a_run_without_the_corpus_says_once_why_tests_were_skipped(tmp_path: Path, workers: list[str]) -> None:
    """Run alone and as README's command runs the suite (pytest-xdist workers), the note is printed once."""
    absent = tmp_path / "shared" / "corpus"
    (tmp_path / "conftest.py").write_text(CONFTEST.format(root=str(ROOT), tests=str(ROOT / "tests"),
                                                          corpus=str(absent)))
    (tmp_path / "test_needs_corpus.py").write_text(TESTS)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers, str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    note = (f"2 real-PDF tests were skipped: the shared corpus of filings is not beside this checkout ({absent}); "
            "put it there to run them.")
    assert done.stdout.count(note) == 1
