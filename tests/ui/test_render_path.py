"""How a rendered page reaches the screen: painted from its shared-memory slot, cached as a copy of its own;
after a jump the old frame is held until the page arrives (or for HOLD_MS); the pipe watcher used on Windows."""

from __future__ import annotations

import hashlib
import os
import signal
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.reader.page_view import HOLD_MS, PageView
from pageindex_desktop.ui.reader.render import RenderService
from pageindex_desktop.ui.reader.render_server import SLOT_BYTES, SLOTS
from tests.ui.conftest import make_pdf
from tests.ui.test_window import wait_open


def _digest(image) -> str:  # type: ignore[no-untyped-def]
    return hashlib.sha256(bytes(image.constBits())).hexdigest()


def _open_report(window: MainWindow, report_pdf: Path, qtbot) -> PageView:  # type: ignore[no-untyped-def]
    """Import the 25-page report, open it and wait until page 1 is painted; the view."""
    window.import_paths([report_pdf])
    wait_open(qtbot, window)
    view = window.viewer.view
    qtbot.waitUntil(lambda: view.was_shown(1), timeout=20000)
    return view


@contextmanager
def _render_process_stopped(window: MainWindow) -> Iterator[None]:
    """Freeze the render process (SIGSTOP), as a page that takes long to render would; resume it after."""
    pid = window.renderer.process_id()
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def test_a_cached_page_is_a_copy_not_the_arena_slot_it_was_painted_from(window: MainWindow, report_pdf: Path,
                                                                         qtbot) -> None:  # type: ignore[no-untyped-def]
    view = _open_report(window, report_pdf, qtbot)
    # the neighbour has arrived too, so both arena slots were used
    qtbot.waitUntil(lambda: window.renderer.cache.get(view.key, 2, view.render_scale()) is not None, timeout=20000)
    image = window.renderer.cache.get(view.key, 1, view.render_scale())
    before = _digest(image)
    arena = window.renderer._process.arena
    arena.buf[: SLOTS * SLOT_BYTES] = bytes(SLOTS * SLOT_BYTES)  # the render process reuses the slots
    assert _digest(window.renderer.cache.get(view.key, 1, view.render_scale())) == before
    assert image.pixel(2, 2) != 0  # white paper, not the zeroed slot


def test_a_jump_holds_the_old_frame_until_the_page_is_painted(window: MainWindow, report_pdf: Path,
                                                             qtbot) -> None:  # type: ignore[no-untyped-def]
    view = _open_report(window, report_pdf, qtbot)
    with qtbot.waitSignal(view.pageShown, timeout=20000, check_params_cb=lambda p: p == 20):
        view.go_to_page(20)
        assert view.paint_held_for() == 20
        assert view.current_page() == 20  # the page box and the outline follow at once
    assert view.paint_held_for() == 0
    # once the page is shown the neighbours are asked for
    qtbot.waitUntil(lambda: window.renderer.cache.get(view.key, 22, view.render_scale()) is not None,
                    timeout=20000)


def test_the_hold_ends_after_hold_ms_when_the_page_is_late(window: MainWindow, report_pdf: Path,
                                                           qtbot) -> None:  # type: ignore[no-untyped-def]
    view = _open_report(window, report_pdf, qtbot)
    with _render_process_stopped(window):
        view.go_to_page(15)
        assert view.paint_held_for() == 15
        qtbot.waitUntil(lambda: view.paint_held_for() == 0, timeout=HOLD_MS * 5)
        assert not view.was_shown(15)  # blank sheets are painted meanwhile
    qtbot.waitUntil(lambda: view.was_shown(15), timeout=20000)


def test_scrolling_during_a_hold_shows_the_pages_at_once(window: MainWindow, report_pdf: Path,
                                                         qtbot) -> None:  # type: ignore[no-untyped-def]
    view = _open_report(window, report_pdf, qtbot)
    with _render_process_stopped(window):
        view.go_to_page(12)
        assert view.paint_held_for() == 12
        bar = view.verticalScrollBar()
        bar.setValue(bar.value() + 40)  # the reader scrolls on
        assert view.paint_held_for() == 0


@pytest.mark.parametrize("watch_with_thread", [True, False])
def test_pages_render_with_either_pipe_watcher(watch_with_thread: bool, tmp_path: Path,
                                               qtbot) -> None:  # type: ignore[no-untyped-def]
    """Linux and macOS watch the answer pipe with a QSocketNotifier; Windows with a thread (run here too)."""
    path = make_pdf(tmp_path / "doc.pdf", pages=6)
    renderer = RenderService(watch_with_thread=watch_with_thread)
    view = PageView(renderer)
    qtbot.addWidget(view)
    view.resize(600, 500)
    view.show()
    renderer.opened.connect(lambda key, n, w, h, err: view.set_document(key, n, (w, h)))
    try:
        renderer.open("doc", str(path))
        qtbot.waitUntil(lambda: view.was_shown(1), timeout=20000)
        view.go_to_page(5)
        qtbot.waitUntil(lambda: view.was_shown(5), timeout=20000)
    finally:
        renderer.shutdown()
    assert not renderer.is_running()
