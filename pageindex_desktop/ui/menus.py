"""The window's menus and their standard shortcuts, built in one place from the panels' slots."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pageindex_desktop.ui.qt import QAction, QKeySequence, QMenu, Qt

if TYPE_CHECKING:
    from pageindex_desktop.ui.main_window import MainWindow

Keys = QKeySequence.StandardKey | str | list[QKeySequence.StandardKey | str] | None


def _action(menu: QMenu, text: str, slot: Callable[[], object], keys: Keys = None, name: str = "") -> QAction:
    action = QAction(text, menu)
    if name:
        action.setObjectName(name)
    if keys is not None:
        sequences = keys if isinstance(keys, list) else [keys]
        action.setShortcuts([QKeySequence(k) for k in sequences])
    action.triggered.connect(lambda _checked=False: slot())
    menu.addAction(action)
    return action


def _in_panel(window: "MainWindow", panel: str, slot: Callable[[], object]) -> None:
    """A shortcut that types into a panel shows that panel first if the reader had hidden it."""
    window.room.reveal(panel)
    slot()


def build_menus(window: "MainWindow") -> list[QAction]:
    """Create File, Edit, View and Help menus on `window`; returns every action (for the shortcuts dialog)."""
    bar = window.menuBar()
    viewer = window.viewer
    view = viewer.view
    actions: list[QAction] = []

    file_menu = bar.addMenu("&File")
    actions += [
        _action(file_menu, "&Open…", window.choose_files, QKeySequence.StandardKey.Open, "actionOpen"),
        _action(file_menu, "Open &Folder…", window.choose_folder, "Ctrl+Shift+O", "actionOpenFolder"),
    ]
    window.recent_menu = file_menu.addMenu("Open &Recent")
    window.recent_menu.aboutToShow.connect(window.fill_recent_menu)
    file_menu.addSeparator()
    actions.append(_action(file_menu, "Re-&index", window.reindex_selected, None, "actionReindex"))
    actions.append(_action(file_menu, "Re&move from Library…", window.remove_selected, None, "actionRemove"))
    file_menu.addSeparator()
    actions.append(_action(file_menu, "&Quit", window.close, "Ctrl+Q", "actionQuit"))

    edit_menu = bar.addMenu("&Edit")
    copy = _action(edit_menu, "&Copy Selected Text", view.selection.copy, QKeySequence.StandardKey.Copy, "actionCopy")
    copy.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    view.addAction(copy)
    actions.append(copy)
    actions.append(_action(edit_menu, "&Ask the Assistant", lambda: _in_panel(window, "assistant",
                                                                               window.assistant.focus_question),
                           "Ctrl+L", "actionAsk"))

    view_menu = bar.addMenu("&View")
    actions += [
        _action(view_menu, "Zoom &In", view.zoom_in, [QKeySequence.StandardKey.ZoomIn, "Ctrl+="], "actionZoomIn"),
        _action(view_menu, "Zoom &Out", view.zoom_out, QKeySequence.StandardKey.ZoomOut, "actionZoomOut"),
        _action(view_menu, "&Actual Size", view.actual_size, "Ctrl+0", "actionActualSize"),
        _action(view_menu, "Fit &Width", view.fit_width, "Ctrl+1", "actionFitWidth"),
        _action(view_menu, "Fit &Page", view.fit_page, "Ctrl+2", "actionFitPage"),
    ]
    view_menu.addSeparator()
    actions += [
        _action(view_menu, "&Go to Page…", viewer.focus_page_box, "Ctrl+G", "actionGoToPage"),
        _action(view_menu, "Filter &Sections…", lambda: _in_panel(window, "outline", window.outline.focus_filter),
                "Ctrl+Shift+F", "actionFilterOutline"),
        _action(view_menu, "&Find…", viewer.find_bar.open_bar, QKeySequence.StandardKey.Find, "actionFind"),
        _action(view_menu, "Find &Next", viewer.find_bar.next_hit, QKeySequence.StandardKey.FindNext,
                "actionFindNext"),
        _action(view_menu, "Find Pre&vious", viewer.find_bar.previous_hit, QKeySequence.StandardKey.FindPrevious,
                "actionFindPrevious"),
    ]

    view_menu.addSeparator()
    actions += window.room.add_actions(view_menu)  # the panels and full screen (`room.py`)

    help_menu = bar.addMenu("&Help")
    actions += [
        _action(help_menu, "&Keyboard Shortcuts", window.show_shortcuts, "F1", "actionShortcuts"),
        _action(help_menu, "Show &Log", window.show_log, None, "actionShowLog"),
        _action(help_menu, "&Where Files Are…", window.show_locations, None, "actionLocations"),
        _action(help_menu, "&About PageIndex Desktop", window.show_about, None, "actionAbout"),
    ]
    return actions
