"""The reader's place, as a reader meets it: a restart reopens the last document at its page, scroll and zoom; a
document opened again from the library, Open Recent or a re-import is where it was left; and the place reaches
the store while reading, not only when the window closes."""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.app import build_window
from pageindex_desktop.core.library.positions import load_position
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.ui.library.library_model import DocIdRole
from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import Qt
from tests.ui.conftest import make_pdf
from tests.ui.test_window import TIMEOUT, wait_open


def start_app(home: Path, qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    """The window as `pageindex-desktop` starts it, without files on the command line."""
    window = build_window(["pageindex-desktop"], home)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    return window


def type_page(qtbot, window: MainWindow, page: int) -> None:  # type: ignore[no-untyped-def]
    box = window.viewer.page_box
    box.setFocus()
    box.setText(str(page))
    qtbot.keyClick(box, Qt.Key.Key_Return)


def choose_zoom(window: MainWindow, text: str) -> None:
    """Pick an entry of the zoom box, as the reader does."""
    box = window.viewer.zoom_box
    index = box.findText(text)
    box.setCurrentIndex(index)
    box.activated.emit(index)


def open_from_library(qtbot, window: MainWindow, doc_id: str) -> None:  # type: ignore[no-untyped-def]
    """Click the document's row in the library and press Enter."""
    panel = window.library_panel
    index = next(panel.proxy.index(r, 0) for r in range(panel.proxy.rowCount())
                 if panel.proxy.index(r, 0).data(DocIdRole) == doc_id)
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=panel.view.visualRect(index).center())
    qtbot.keyClick(panel.view, Qt.Key.Key_Return)


def test_after_a_restart_the_last_document_reopens_at_its_page_scroll_and_zoom(home: Path, report_pdf: Path,
                                                                              qtbot) -> None:  # type: ignore[no-untyped-def]
    first = start_app(home, qtbot)
    try:
        assert first.current_doc == ""  # nothing read yet: nothing reopens
        first.import_paths([report_pdf])
        doc_id = wait_open(qtbot, first)
        view = first.viewer.view
        choose_zoom(first, "150%")
        type_page(qtbot, first, 17)
        view.verticalScrollBar().setValue(view.verticalScrollBar().value() + 120)  # a little way into page 17
        assert first.viewer.page_box.text() == "17"
        top = view.page_rect(17).y()
        zoom = view.zoom()
        place = view.reading_position()
        assert place is not None and place.page == 17 and place.top > 0 and place.fit == ""
        with Library(home) as reader:  # the place reaches the store while reading (a crash keeps it)
            qtbot.waitUntil(lambda: load_position(reader, doc_id) == place, timeout=TIMEOUT)
    finally:
        first.close()
    second = start_app(home, qtbot)
    try:
        assert wait_open(qtbot, second) == doc_id
        view = second.viewer.view
        assert second.viewer.page_box.text() == "17"
        assert second.viewer.zoom_box.currentText() == "150%"
        assert abs(view.zoom() - zoom) < 1e-6
        assert abs(view.page_rect(17).y() - top) <= 1
        qtbot.waitUntil(lambda: view.was_shown(17), timeout=TIMEOUT)
        assert second.windowTitle().startswith(second.library.get(doc_id).title)  # type: ignore[union-attr]
    finally:
        second.close()


def test_a_document_opened_again_is_where_it_was_left(window: MainWindow, report_pdf: Path, tmp_path: Path,
                                                      qtbot) -> None:  # type: ignore[no-untyped-def]
    view = window.viewer.view
    window.import_paths([report_pdf])
    report = wait_open(qtbot, window)
    type_page(qtbot, window, 9)
    other = make_pdf(tmp_path / "other.pdf", 12, chapters=("Overview", "Segments"))
    window.import_paths([other])
    qtbot.waitUntil(lambda: window.current_doc not in ("", report) and view.page_count() == 12, timeout=TIMEOUT)
    second = window.current_doc
    assert window.viewer.page_box.text() == "1"  # never read: it starts at the top
    choose_zoom(window, "Fit page")
    type_page(qtbot, window, 4)

    open_from_library(qtbot, window, report)  # the library
    qtbot.waitUntil(lambda: view.key == report and view.page_count() == 25, timeout=TIMEOUT)
    assert window.viewer.page_box.text() == "9" and window.viewer.zoom_box.currentText() == "Fit width"

    window.fill_recent_menu()  # Open Recent
    entry = next(a for a in window.recent_menu.actions() if a.text() == window.library.get(second).title)  # type: ignore[union-attr]
    entry.trigger()
    qtbot.waitUntil(lambda: view.key == second and view.page_count() == 12, timeout=TIMEOUT)
    assert window.viewer.page_box.text() == "4" and window.viewer.zoom_box.currentText() == "Fit page"

    window.import_paths([report_pdf])  # importing the same file again opens the copy already in the library
    qtbot.waitUntil(lambda: view.key == report and view.page_count() == 25, timeout=TIMEOUT)
    assert window.viewer.page_box.text() == "9"


def test_a_citation_opens_its_own_page_not_the_saved_place(window: MainWindow, report_pdf: Path, tmp_path: Path,
                                                          qtbot) -> None:  # type: ignore[no-untyped-def]
    view = window.viewer.view
    window.import_paths([report_pdf])
    report = wait_open(qtbot, window)
    type_page(qtbot, window, 9)
    window.import_paths([make_pdf(tmp_path / "other.pdf", 12, chapters=("Overview",))])
    qtbot.waitUntil(lambda: window.current_doc not in ("", report) and view.page_count() == 12, timeout=TIMEOUT)
    window.assistant.citationActivated.emit(report, 14, "")  # the pane reports a citation of page 14 clicked
    qtbot.waitUntil(lambda: view.key == report and view.page_count() == 25, timeout=TIMEOUT)
    assert window.viewer.page_box.text() == "14"
