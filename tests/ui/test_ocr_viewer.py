"""A scanned PDF in the window: the words OCR read are selectable and copyable on the page, and a citation's
passage on a scanned page is highlighted, because the viewer opens the library's copy with the text written in."""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QApplication, QEvent, QMouseEvent, QPoint, QPointF, Qt
from tests.core.test_ocr import needs_tesseract, scanned_report
from tests.ui.test_window import TIMEOUT, wait_open

LINE = "The board reviewed the dredging works in the spring meeting."  # page 3's body, baseline y = 100 pt


@needs_tesseract
def test_dragging_over_a_scanned_line_selects_the_ocr_words_and_ctrl_c_copies_them(
        window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    pdf = scanned_report(tmp_path / "board-report.pdf", first_page_text=False)
    window.import_paths([pdf])
    doc_id = wait_open(qtbot, window)
    assert window.library.pdf_path(doc_id).name.endswith(".ocr.pdf")
    view = window.viewer.view
    view.go_to_page(3)
    rect = view.page_rect(3)
    zoom = view.zoom()
    start = QPoint(round(rect.x() + 38 * zoom), round(rect.y() + 96 * zoom))
    end = QPoint(round(rect.x() + 400 * zoom), round(rect.y() + 96 * zoom))
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    qtbot.waitUntil(lambda: 3 in view.selection.words, timeout=TIMEOUT)
    drag = QMouseEvent(QEvent.Type.MouseMove, QPointF(end), QPointF(view.viewport().mapToGlobal(end)),
                       Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), drag)  # a move with the button held (qtbot.mouseMove holds none)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=end)
    assert view.selection.text() == LINE  # the one line under the drag, as Tesseract read it from the image
    view.setFocus()
    QApplication.clipboard().clear()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == LINE


@needs_tesseract
def test_a_citation_on_a_scanned_page_is_highlighted_over_the_printed_words(
        window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    pdf = scanned_report(tmp_path / "board-report.pdf", first_page_text=False)
    window.import_paths([pdf])
    wait_open(qtbot, window)
    view = window.viewer.view
    with qtbot.waitSignal(view.passageShown, timeout=TIMEOUT) as blocker:
        view.show_passage(4, "the board reviewed the mooring rules in the spring meeting [Board Report, p. 4]")
    assert blocker.args[0] == 4 and blocker.args[1] >= 1
    page, rects = view.overlays.passage  # type: ignore[misc]
    x0, y0, x1, y1 = rects[0]
    assert page == 4 and 30 < x0 < 45 and 85 < y0 < 100 and x1 > 300  # the first body line, x = 36 pt, y ≈ 92-103
