"""Adding actions to a menu of the window's menu bar by its name: the parts that bring their own actions (Back and
Forward, Page Thumbnails) put them in the View menu the window built, or on the window itself when it has none."""

from __future__ import annotations

from pageindex_desktop.ui.qt import QAction, QMainWindow, QMenu


def menu_named(window: QMainWindow, name: str) -> QMenu | None:
    """The menu bar's menu called `name` ('View'), its mnemonic '&' ignored; None when there is none."""
    for action in window.menuBar().actions():
        menu = action.menu()
        if action.text().replace("&", "") == name and isinstance(menu, QMenu):
            return menu
    return None


def add_to_menu(window: QMainWindow, name: str, actions: list[QAction], separated: bool = False) -> None:
    """Append `actions` to the menu `name` (after a separator with `separated`); without that menu their
    shortcuts still work, as the window's own actions."""
    menu = menu_named(window, name)
    if menu is None:
        window.addActions(actions)
        return
    if separated:
        menu.addSeparator()
    for action in actions:
        menu.addAction(action)
