"""Room for the page (View menu): hide and restore the library, outline and assistant panels, and full screen.

A panel counts as shown when it is visible with a width (a panel dragged shut on the splitter counts as hidden,
so its menu check follows the splitter); showing one that has no width gives it its default width, taken from
the page. Which panels are hidden is saved with the window settings (`settings.HIDDEN_PANELS`) and applied after
the splitter's own state at the next start. Full screen (F11) keeps the menu bar, so the menu leaves it too.
"""

from __future__ import annotations

import sys

from pageindex_desktop.ui.qt import QAction, QEvent, QKeySequence, QMenu, QObject, QSplitter, Qt, QWidget

MAC = sys.platform == "darwin"
PANEL_MODIFIERS = "Ctrl+Alt+" if MAC else "Ctrl+Shift+"  # ⌘⇧3 and ⌘⇧4 are macOS's screenshot keys: ⌘⌥ there
# name, menu text, shortcut, object name; the splitter order of the panels
PANELS = (
    ("library", "&Library", PANEL_MODIFIERS + "1", "actionShowLibrary"),
    ("outline", "&Outline", PANEL_MODIFIERS + "2", "actionShowOutline"),
    ("assistant", "A&ssistant", PANEL_MODIFIERS + "3", "actionShowAssistant"),
)


def full_screen_keys() -> list[QKeySequence]:
    """F11; on macOS, where F11 shows the desktop, also ⌃⌘F (its standard key, known once the app runs)."""
    return [QKeySequence("F11")] + ([QKeySequence(QKeySequence.StandardKey.FullScreen)] if MAC else [])


class Room(QObject):
    """The panel and full-screen toggles of one window; `add_actions` puts them in its View menu."""

    def __init__(self, window: QWidget, splitter: QSplitter, panels: dict[str, QWidget], page: QWidget,
                 page_focus: QWidget, default_widths: list[int]) -> None:
        """`panels` by name ('library', 'outline', 'assistant') on `splitter`, beside `page`; a hidden panel's
        keyboard goes to `page_focus`; `window` is the one full screen applies to."""
        super().__init__(window)
        self.window = window
        self.splitter = splitter
        self.page, self.page_focus = page, page_focus
        self._widgets = dict(panels)
        self._default_widths = list(default_widths)
        self._actions: dict[str, QAction] = {}
        self.full_screen_action: QAction | None = None
        splitter.splitterMoved.connect(lambda _pos, _index: self._sync_checks())
        window.installEventFilter(self)

    def add_actions(self, menu: QMenu) -> list[QAction]:
        """Checkable View menu entries: one per panel, then Full Screen; returns them (for the shortcuts dialog)."""
        for name, text, keys, object_name in PANELS:
            action = QAction(text, menu, checkable=True)
            action.setObjectName(object_name)
            action.setShortcut(QKeySequence(keys))
            action.setChecked(self.shown(name))
            action.triggered.connect(lambda checked, n=name: self.set_shown(n, checked))
            menu.addAction(action)
            self._actions[name] = action
        menu.addSeparator()
        full = QAction("&Full Screen", menu, checkable=True)
        full.setObjectName("actionFullScreen")
        full.setShortcuts(full_screen_keys())
        full.triggered.connect(self.set_full_screen)
        menu.addAction(full)
        self.full_screen_action = full
        return [*self._actions.values(), full]

    # ---- panels ----------------------------------------------------------------------------------------

    def shown(self, name: str) -> bool:
        """Whether the reader sees the panel: not hidden and wider than nothing on the splitter."""
        widget = self._widgets[name]
        splitter = self.splitter
        return not widget.isHidden() and splitter.sizes()[splitter.indexOf(widget)] > 0

    def set_shown(self, name: str, show: bool) -> None:
        """Hide a panel (the keyboard goes to the page if it was in it) or bring it back with a width."""
        widget = self._widgets[name]
        splitter = self.splitter
        index = splitter.indexOf(widget)
        if show:
            widget.show()
            sizes = splitter.sizes()
            if sizes[index] == 0:  # dragged shut, or a state saved while hidden: its default width from the page
                page = splitter.indexOf(self.page)
                width = self._default_widths[index]
                sizes[index] = width
                sizes[page] = max(self.page.minimumWidth(), sizes[page] - width)
                splitter.setSizes(sizes)
        else:
            had_focus = widget.isAncestorOf(self.window.focusWidget()) if self.window.focusWidget() else False
            widget.hide()
            if had_focus:
                self.page_focus.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self._sync_checks()

    def reveal(self, name: str) -> None:
        """Show a panel before a shortcut puts the keyboard in it (Ctrl+L, Ctrl+Shift+F)."""
        if not self.shown(name):
            self.set_shown(name, True)

    def hidden_panels(self) -> list[str]:
        """The names of the panels the reader does not see (saved with the window settings)."""
        return [name for name, *_ in PANELS if not self.shown(name)]

    def hide_panels(self, names: list[str]) -> None:
        """At start-up: hide the panels saved as hidden (unknown names are ignored)."""
        for name in names:
            if name in self._widgets:
                self.set_shown(name, False)

    def _sync_checks(self) -> None:
        for name, action in self._actions.items():
            action.setChecked(self.shown(name))

    # ---- full screen -----------------------------------------------------------------------------------

    def set_full_screen(self, on: bool) -> None:
        """F11: the window fills the screen (or returns to what it was, maximized or not)."""
        state = self.window.windowState()
        if on:
            self.window.setWindowState(state | Qt.WindowState.WindowFullScreen)
        else:
            self.window.setWindowState(state & ~Qt.WindowState.WindowFullScreen)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.WindowStateChange and self.full_screen_action:
            self.full_screen_action.setChecked(self.window.isFullScreen())  # the window manager may change it too
        return False
