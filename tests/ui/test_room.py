"""Room for the page (issue 12 item 6), as a reader meets it: the side panels hide and come back from the View
menu and Ctrl+Shift+1/2/3 and stay as they were at the next start; F11 fills the screen; long outline titles
elide in the middle so sibling sections stay apart, with their pages still in sight."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QAction, QApplication, QImage, Qt
from tests.ui.test_window import TIMEOUT, wait_open

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
PANEL_KEYS = {"library": Qt.Key.Key_1, "outline": Qt.Key.Key_2, "assistant": Qt.Key.Key_3}
PANEL_ACTIONS = {"library": "actionShowLibrary", "outline": "actionShowOutline", "assistant": "actionShowAssistant"}


def panel(window: MainWindow, name: str):  # type: ignore[no-untyped-def]
    return {"library": window.library_panel, "outline": window.outline, "assistant": window.assistant}[name]


def action(window: MainWindow, name: str) -> QAction:
    found = window.findChild(QAction, name)
    assert found is not None, name
    return found


def seen(window: MainWindow, name: str) -> bool:
    """The reader sees the panel: on screen with a width."""
    widget = panel(window, name)
    return widget.isVisible() and widget.width() > 0


def view_menu_entry(window: MainWindow, object_name: str) -> QAction:
    """The entry as it sits in the View menu (what a click there triggers)."""
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    entry = next((a for a in menu.actions() if a.objectName() == object_name), None)
    assert entry is not None, f"{object_name} is not in the View menu"
    return entry


def test_each_side_panel_hides_with_its_shortcut_and_comes_back_from_the_view_menu(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    page = window.viewer
    for name, key in PANEL_KEYS.items():
        entry = view_menu_entry(window, PANEL_ACTIONS[name])
        assert entry.isCheckable() and entry.isChecked() and seen(window, name)
        wide_before = page.width()
        qtbot.keyClick(window.viewer.view, key, CTRL_SHIFT)
        qtbot.waitUntil(lambda: not seen(window, name) and page.width() > wide_before)
        assert not entry.isChecked()
        others = [n for n in PANEL_KEYS if n != name]
        assert all(seen(window, n) for n in others)  # one shortcut, one panel
        entry.trigger()  # View ▸ Library / Outline / Assistant, clicked
        widget = panel(window, name)
        qtbot.waitUntil(lambda: seen(window, name) and widget.width() >= widget.minimumWidth())
        assert entry.isChecked()


def test_hiding_the_panel_with_the_keyboard_gives_the_keyboard_to_the_page_and_ctrl_l_brings_the_assistant_back(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClick(window.viewer.view, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    box = window.assistant.question
    qtbot.waitUntil(box.hasFocus)
    qtbot.keyClick(box, Qt.Key.Key_3, CTRL_SHIFT)
    qtbot.waitUntil(lambda: not seen(window, "assistant") and window.viewer.view.hasFocus())
    qtbot.keyClick(window.viewer.view, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)  # asking shows it again
    qtbot.waitUntil(lambda: seen(window, "assistant") and box.hasFocus())
    assert action(window, "actionShowAssistant").isChecked()


def test_a_panel_dragged_shut_reads_as_hidden_and_its_shortcut_opens_it_again(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    splitter = window.splitter
    library = window.library_panel
    splitter.moveSplitter(0, 1)  # the handle right of the library dragged to the left edge
    qtbot.waitUntil(lambda: splitter.sizes()[0] == 0)
    assert not action(window, "actionShowLibrary").isChecked()
    qtbot.keyClick(window.viewer.view, Qt.Key.Key_1, CTRL_SHIFT)
    qtbot.waitUntil(lambda: splitter.sizes()[0] >= library.minimumWidth() and library.width() > 0)
    assert action(window, "actionShowLibrary").isChecked()


def start(home: Path, qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    """A new window on `home`, shown and active (the window's shortcuts need it), as a start leaves it."""
    window = MainWindow(home)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def test_hidden_panels_stay_hidden_at_the_next_start(home: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    first = start(home, qtbot)
    try:
        qtbot.keyClick(first.viewer.view, Qt.Key.Key_1, CTRL_SHIFT)
        qtbot.keyClick(first.viewer.view, Qt.Key.Key_3, CTRL_SHIFT)
        qtbot.waitUntil(lambda: not seen(first, "library") and not seen(first, "assistant"))
    finally:
        first.close()
    second = start(home, qtbot)
    try:
        assert not seen(second, "library") and not seen(second, "assistant") and seen(second, "outline")
        assert not action(second, "actionShowLibrary").isChecked()
        assert not action(second, "actionShowAssistant").isChecked()
        assert action(second, "actionShowOutline").isChecked()
        view_menu_entry(second, "actionShowLibrary").trigger()  # and the menu brings one back
        qtbot.waitUntil(lambda: seen(second, "library")
                        and second.library_panel.width() >= second.library_panel.minimumWidth())
    finally:
        second.close()
    third = start(home, qtbot)  # the restored panel is remembered too
    try:
        assert seen(third, "library") and not seen(third, "assistant")
    finally:
        third.close()


def test_f11_fills_the_screen_and_f11_again_gives_the_window_back(  # type: ignore[no-untyped-def]
        window: MainWindow, qtbot) -> None:
    entry = view_menu_entry(window, "actionFullScreen")
    assert entry.isCheckable() and not entry.isChecked()
    before = window.geometry()
    screen = window.screen().geometry()
    qtbot.keyClick(window.viewer.view, Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: window.isFullScreen() and window.geometry() == screen)
    assert entry.isChecked()
    assert window.menuBar().isVisible()  # the menu stays, so View ▸ Full Screen leaves too
    qtbot.keyClick(window.viewer.view, Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: not window.isFullScreen() and window.geometry() == before)
    assert not entry.isChecked()
    entry.trigger()  # the menu entry does the same
    qtbot.waitUntil(window.isFullScreen)
    entry.trigger()
    qtbot.waitUntil(lambda: not window.isFullScreen())


def statements_pdf(path: Path) -> Path:
    """Three bookmarked sections, two of which differ only after a long shared beginning."""
    titles = {1: "Financial Highlights", 4: "Consolidated Statements of Operations",
              8: "Consolidated Statements of Cash Flows"}
    doc = pymupdf.open()
    for number in range(1, 13):
        page = doc.new_page(width=612, height=792)
        if number in titles:
            page.insert_text((72, 72), titles[number], fontsize=20)
        page.insert_text((72, 120), f"This is page {number} of the annual report.", fontsize=11)
    doc.set_toc([[1, title, number] for number, title in titles.items()])
    doc.save(path)
    doc.close()
    return path


def row_image(window: MainWindow, title: str, column: int) -> QImage:
    """What the tree paints for a top-level row's cell."""
    tree = window.outline.view
    model = window.outline.model
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data() == title)
    return tree.viewport().grab(tree.visualRect(model.index(row, column))).toImage()


def test_long_outline_titles_elide_in_the_middle_and_keep_their_pages_in_sight(
        window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([statements_pdf(tmp_path / "statements.pdf")])
    wait_open(qtbot, window)
    tree = window.outline.view
    operations, cash = "Consolidated Statements of Operations", "Consolidated Statements of Cash Flows"
    qtbot.waitUntil(lambda: window.outline.model.rowCount() == 3)
    assert tree.textElideMode() == Qt.TextElideMode.ElideMiddle
    sizes = window.splitter.sizes()  # the outline as narrow as it goes
    narrow = window.outline.minimumWidth()
    window.splitter.setSizes([sizes[0], narrow, sizes[2] + sizes[1] - narrow, sizes[3]])
    window.library_panel.view.setFocus()  # no selection highlight or focus frame in the tree's rows
    tree.clearSelection()
    tree.setCurrentIndex(window.outline.model.index(0, 0))
    QApplication.processEvents()
    width = tree.visualRect(window.outline.model.index(1, 0)).width()
    assert tree.fontMetrics().horizontalAdvance(operations) > width  # the titles do not fit: they are elided
    assert row_image(window, operations, 0) != row_image(window, cash, 0)  # yet the two rows read differently
    tree.setTextElideMode(Qt.TextElideMode.ElideRight)  # the old way showed the same shared beginning twice
    tree.viewport().update()
    QApplication.processEvents()
    assert row_image(window, operations, 0) == row_image(window, cash, 0)
    tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    for title, span in ((operations, "4–7"), (cash, "8–12")):  # the page column stays whole and inside the panel
        model = window.outline.model
        row = next(r for r in range(model.rowCount()) if model.index(r, 0).data() == title)
        cell = tree.visualRect(model.index(row, 1))
        assert model.index(row, 1).data() == span
        assert cell.width() >= tree.fontMetrics().horizontalAdvance(span)
        assert cell.right() <= tree.viewport().width()


def test_the_first_start_fits_the_screen_it_opens_on() -> None:
    """No saved geometry: a 1280x720 laptop gets the window at its free area with all four panels at least their
    minimum, the page half the width and the outline the rest first (the default 1500x900 put the assistant pane off the screen); a big
    screen gets the default; a screen narrower than the panels' minimum cannot be fitted and gets the default."""
    from pageindex_desktop.ui.main_window import MIN_WIDTHS, first_start_geometry

    fitted = first_start_geometry(1280, 690)  # 720 less a panel bar
    assert fitted is not None
    width, height, (library, outline, page, assistant) = fitted
    assert (width, height) == (1280, 690)
    assert library >= MIN_WIDTHS[0] and assistant >= MIN_WIDTHS[3] and page >= 640
    assert outline >= 260  # the titles get the room first: a narrow outline cut them to "Item…ness"
    assert library + outline + page + assistant == 1280
    assert first_start_geometry(1920, 1050) is None
    assert first_start_geometry(800, 800) is None
    width, height, _ = first_start_geometry(1600, 860) or (0, 0, [])
    assert (width, height) == (1500, 860)  # only what does not fit shrinks
