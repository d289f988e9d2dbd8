"""Fixtures for the window tests: settings in a temp dir, a window on a temp library, generated PDFs,
and a check that no QThread, thread or child process outlives its test."""

from __future__ import annotations

import multiprocessing
import threading
import time
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import pymupdf
import pytest

if TYPE_CHECKING:
    from pageindex_desktop.core.library.store_writer import StoreWriter
    from tests.integration.fake_openai import FakeOpenAI

import pageindex_desktop.ui.qt  # noqa: F401  (applies the PySide6/3.11 refcount workaround first)
from pageindex_desktop.ui.qt import QSettings, QThread

CHAPTERS = ("Introduction", "Revenue and Costs", "Risk Factors", "Governance", "Outlook")


def make_pdf(path: Path, pages: int = 25, *, chapters: tuple[str, ...] = CHAPTERS, words: str = "",
             bookmarks: bool = True, password: str = "") -> Path:
    """A text PDF: chapter titles printed on their first page (and in the bookmarks), body text everywhere.

    Chapter k (0-based) starts on page 1 + k * (pages // len(chapters)); page p says "This is page p".
    """
    doc = pymupdf.open()
    step = max(1, pages // len(chapters))
    starts = {1 + k * step: title for k, title in enumerate(chapters) if 1 + k * step <= pages}
    for number in range(1, pages + 1):
        page = doc.new_page(width=612, height=792)
        y = 72
        if number in starts:
            page.insert_text((72, y), f"{list(starts).index(number) + 1} {starts[number]}", fontsize=20)
            y += 40
        page.insert_text((72, y), f"This is page {number} of the sample report.", fontsize=11)
        if words:
            page.insert_text((72, y + 30), words, fontsize=11)
    if bookmarks:
        doc.set_toc([[1, f"{list(starts).index(p) + 1} {t}", p] for p, t in starts.items()])
    if password:
        doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=password, owner_pw=password + "-owner")
    else:
        doc.save(path)
    doc.close()
    return path


@pytest.fixture(autouse=True)
def _settings_in_tmp(tmp_path: Path) -> Iterator[None]:
    """QSettings never touch the real user's file."""
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    yield


@pytest.fixture(autouse=True)
def _dangling_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail a test that leaves a QThread running, a Python thread alive or a child process behind."""
    started: list[weakref.ref[QThread]] = []
    original = QThread.start

    def start(self: QThread, *args: object) -> None:
        started.append(weakref.ref(self))
        original(self, *args)

    monkeypatch.setattr(QThread, "start", start)
    before = set(threading.enumerate())
    children_before = {c.pid for c in multiprocessing.active_children()}  # a warm child an earlier core test left
    yield
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        running = [t for t in (r() for r in started) if t is not None and t.isRunning()]
        # a QThread that ran Python code shows up as a _DummyThread that never dies; QThreads are checked above
        threads = [t for t in threading.enumerate()
                   if t not in before and t.is_alive() and not isinstance(t, threading._DummyThread)]
        children = [c for c in multiprocessing.active_children() if c.pid not in children_before]
        if not running and not threads and not children:
            return
        time.sleep(0.05)
    names = [t.objectName() for t in running] + [t.name for t in threads] + [c.name for c in children]
    pytest.fail(f"left running after the test: {names}")


@pytest.fixture
def window(home: Path, qtbot):  # type: ignore[no-untyped-def]
    """A shown MainWindow on a fresh library; closed (threads stopped) after the test."""
    from pageindex_desktop.ui.main_window import MainWindow

    win = MainWindow(home)
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()


@pytest.fixture
def store(home: Path) -> Iterator["StoreWriter"]:
    """The store's one writer for a test that builds a worker without a window (the window makes its own)."""
    from pageindex_desktop.core.library.store_writer import StoreWriter

    writer = StoreWriter(home)
    writer.start()
    yield writer
    writer.close()


@pytest.fixture
def report_pdf(tmp_path: Path) -> Path:
    """A 25-page PDF with five bookmarked chapters."""
    return make_pdf(tmp_path / "sample-report.pdf", 25, words="Net interest margin widened this year.")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Qt's offscreen platform warns that it cannot propagate size hints; that says nothing about our code."""
    for item in items:
        if "tests/ui/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore("propagateSizeHints"))


@pytest.fixture
def no_model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No model from the environment: the tests that use this say which endpoint the assistant talks to."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PAGEINDEX_CHAT_MODEL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def fake() -> Iterator["FakeOpenAI"]:
    """A scripted Chat Completions server on 127.0.0.1 (tests/integration/fake_openai.py)."""
    from tests.integration.fake_openai import FakeOpenAI

    with FakeOpenAI() as server:
        yield server
