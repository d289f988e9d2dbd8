"""The window's menus and their standard shortcuts, built in one place.

`build_menus` is handed what the menus work on and nothing more: the menu bar to fill, the viewer whose page the
Edit and View items act on, the `Room` (its panel and full-screen items, and showing a panel before typing into
it), and `WindowCommands`, the window's own slots as plain callables. It never sees the window, so it cannot
reach into it; the window keeps the `WindowMenus` it returns (Open Recent is filled by the window, which knows
the library).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pageindex_desktop.ui.qt import QAction, QKeySequence, QMenu, QMenuBar, Qt

if TYPE_CHECKING:
    from pageindex_desktop.ui.reader.viewer import ViewerPanel
    from pageindex_desktop.ui.room import Room

Keys = QKeySequence.StandardKey | str | list[QKeySequence.StandardKey | str] | None
Command = Callable[[], object]


@dataclass(frozen=True)
class WindowCommands:
    """What the menus ask of the window and of panels other than the viewer: one callable per item."""

    open_files: Command  # File ▸ Open…
    open_folder: Command
    reindex: Command  # the chosen documents (selected, else the open one)
    remove: Command
    quit: Command
    ask: Command  # put the cursor in the assistant's question box
    filter_sections: Command  # put the cursor in the outline's filter
    shortcuts: Command  # Help ▸ …
    show_log: Command
    locations: Command
    about: Command


@dataclass(frozen=True)
class WindowMenus:
    """What `build_menus` made: every action (for the shortcuts dialog), Open Recent (empty until the window
    fills it) and the Assistant menu, placed before Help and empty until the window adds the assistant's
    actions (`ui/assistant/window_link.AssistantLink`)."""

    actions: list[QAction]
    recent: QMenu
    assistant: QMenu


def _action(menu: QMenu, text: str, slot: Command, keys: Keys = None, name: str = "") -> QAction:
    action = QAction(text, menu)
    if name:
        action.setObjectName(name)
    if keys is not None:
        sequences = keys if isinstance(keys, list) else [keys]
        action.setShortcuts([QKeySequence(k) for k in sequences])
    action.triggered.connect(lambda _checked=False: slot())
    menu.addAction(action)
    return action


def _in_panel(room: "Room", panel: str, slot: Command) -> Command:
    """A shortcut that types into a panel shows that panel first if the reader had hidden it."""
    def run() -> None:
        room.reveal(panel)
        slot()
    return run


def build_menus(bar: QMenuBar, commands: WindowCommands, viewer: "ViewerPanel", room: "Room") -> WindowMenus:
    """Create File, Edit, View, Assistant and Help menus on `bar`."""
    view = viewer.view
    actions: list[QAction] = []

    file_menu = bar.addMenu("&File")
    actions += [
        _action(file_menu, "&Open…", commands.open_files, QKeySequence.StandardKey.Open, "actionOpen"),
        _action(file_menu, "Open &Folder…", commands.open_folder, "Ctrl+Shift+O", "actionOpenFolder"),
    ]
    recent = file_menu.addMenu("Open &Recent")
    file_menu.addSeparator()
    actions.append(_action(file_menu, "Re-&index", commands.reindex, None, "actionReindex"))
    actions.append(_action(file_menu, "Re&move from Library…", commands.remove, None, "actionRemove"))
    file_menu.addSeparator()
    actions.append(_action(file_menu, "&Quit", commands.quit, "Ctrl+Q", "actionQuit"))

    edit_menu = bar.addMenu("&Edit")
    copy = _action(edit_menu, "&Copy Selected Text", view.selection.copy, QKeySequence.StandardKey.Copy, "actionCopy")
    copy.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    view.addAction(copy)
    actions.append(copy)
    actions.append(_action(edit_menu, "&Ask the Assistant", _in_panel(room, "assistant", commands.ask),
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
    find_bar = viewer.find_bar
    actions += [
        _action(view_menu, "&Go to Page…", viewer.focus_page_box, "Ctrl+G", "actionGoToPage"),
        _action(view_menu, "Filter &Sections…", _in_panel(room, "outline", commands.filter_sections),
                "Ctrl+Shift+F", "actionFilterOutline"),
        _action(view_menu, "&Find…", find_bar.open_bar, QKeySequence.StandardKey.Find, "actionFind"),
        _action(view_menu, "Find &Next", find_bar.next_hit, QKeySequence.StandardKey.FindNext, "actionFindNext"),
        _action(view_menu, "Find Pre&vious", find_bar.previous_hit, QKeySequence.StandardKey.FindPrevious,
                "actionFindPrevious"),
    ]

    view_menu.addSeparator()
    actions += room.add_actions(view_menu)  # the panels and full screen (`room.py`)

    assistant_menu = bar.addMenu("&Assistant")
    help_menu = bar.addMenu("&Help")
    actions += [
        _action(help_menu, "&Keyboard Shortcuts", commands.shortcuts, "F1", "actionShortcuts"),
        _action(help_menu, "Show &Log", commands.show_log, None, "actionShowLog"),
        _action(help_menu, "&Where Files Are…", commands.locations, None, "actionLocations"),
        _action(help_menu, "&About PageIndex Desktop", commands.about, None, "actionAbout"),
    ]
    return WindowMenus(actions, recent, assistant_menu)
