"""Room for the page (issue 12 item 6), as a reader meets it: the side panels hide and come back from the View
menu and Ctrl+Shift+1/2/3 and stay as they were at the next start; F11 fills the screen."""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QAction, Qt

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
