"""Viewer parts on their own: the byte-bounded page cache, text selection and copy."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QApplication, QEvent, QImage, QMouseEvent, QPoint, QPointF, Qt
from pageindex_desktop.ui.reader.render import PageCache
from tests.ui.test_window import wait_open


def test_page_cache_evicts_least_recently_used_pages_past_its_byte_budget() -> None:
    image = QImage(100, 100, QImage.Format.Format_RGB32)  # 40,000 bytes
    cache = PageCache(max_bytes=100_000)
    cache.put("d", 1, 1.0, image)
    cache.put("d", 2, 1.0, image)
    assert cache.get("d", 1, 1.0) is not None  # page 1 is now the most recent
    cache.put("d", 3, 1.0, image)
    assert len(cache) == 2 and cache.bytes == 80_000
    assert cache.get("d", 2, 1.0) is None and cache.get("d", 1, 1.0) is not None
    assert cache.any_scale("d", 3) is not None and cache.get("d", 3, 2.0) is None
    cache.drop("d")
    assert len(cache) == 0 and cache.bytes == 0


def test_dragging_over_a_line_selects_its_words_and_ctrl_c_copies_them(window: MainWindow, report_pdf: Path,
                                                                       qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    wait_open(qtbot, window)
    view = window.viewer.view
    view.go_to_page(2)
    rect = view.page_rect(2)
    zoom = view.zoom()
    # page 2 prints "This is page 2 of the sample report." with its baseline at y = 72 pt, from x = 72 pt
    start = QPoint(round(rect.x() + 74 * zoom), round(rect.y() + 68 * zoom))
    end = QPoint(round(rect.x() + 300 * zoom), round(rect.y() + 68 * zoom))
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    qtbot.waitUntil(lambda: 2 in view.selection.words, timeout=20000)
    drag = QMouseEvent(QEvent.Type.MouseMove, QPointF(end), QPointF(view.viewport().mapToGlobal(end)),
                       Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), drag)  # a move with the button held (qtbot.mouseMove holds none)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=end)
    assert view.selection.text() == "This is page 2 of the sample report."
    view.setFocus()
    QApplication.clipboard().clear()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == "This is page 2 of the sample report."


def test_the_viewer_survives_a_crash_of_the_render_process(window: MainWindow, report_pdf: Path,
                                                           qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    wait_open(qtbot, window)
    view = window.viewer.view
    qtbot.waitUntil(lambda: view.was_shown(1), timeout=20000)
    with qtbot.waitSignal(window.renderer.restarted, timeout=20000):
        os.kill(window.renderer.process_id(), signal.SIGKILL)
    view.go_to_page(20)
    qtbot.waitUntil(lambda: view.was_shown(20), timeout=20000)
    assert window.renderer.restarts == 1


def test_rendered_colours_match_the_pdf(window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    import pymupdf

    path = tmp_path / "colours.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.draw_rect(pymupdf.Rect(0, 0, 100, 100), color=None, fill=(1, 0, 0))
    page.draw_rect(pymupdf.Rect(100, 0, 200, 100), color=None, fill=(0, 0, 1))
    page.insert_text((20, 200), "Colours", fontsize=20)
    doc.save(path)
    window.import_paths([path])
    wait_open(qtbot, window)
    view = window.viewer.view
    qtbot.waitUntil(lambda: view.was_shown(1), timeout=20000)
    image = view.renderer.cache.get(view.key, 1, view.render_scale())
    scale = image.width() / 300
    red = image.pixelColor(round(50 * scale), round(50 * scale))
    blue = image.pixelColor(round(150 * scale), round(50 * scale))
    paper = image.pixelColor(round(250 * scale), round(280 * scale))
    assert (red.red(), red.green(), red.blue()) == (255, 0, 0)
    assert (blue.red(), blue.green(), blue.blue()) == (0, 0, 255)
    assert (paper.red(), paper.green(), paper.blue()) == (255, 255, 255)
    assert image.format() == QImage.Format.Format_RGB32


def test_the_page_box_shows_printed_labels_and_accepts_them(window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    import pymupdf

    path = tmp_path / "labelled.pdf"
    doc = pymupdf.open()
    for number in range(1, 7):
        doc.new_page(width=300, height=400).insert_text((40, 60), f"Sheet {number}", fontsize=14)
    doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                         {"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 1}])
    doc.save(path)
    window.import_paths([path])
    wait_open(qtbot, window)
    view, box = window.viewer.view, window.viewer.page_box
    view.go_to_page(4)
    assert box.text() == "4 (2)" and window.viewer.page_total.text() == "/ 6"
    view.go_to_page(2)
    assert box.text() == "2 (ii)"
    box.setFocus()
    box.setText("i")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert view.current_page() == 1
