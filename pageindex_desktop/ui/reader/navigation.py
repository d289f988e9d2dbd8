"""Back and Forward in the window: the actions (Alt+Left / Alt+Right, the mouse's back and forward buttons, two
toolbar buttons, View menu), the jumps that feed the history (`ui/reader/history.py`), and going back to a place, also
in another document.

Every jump tells `Navigation.about_to_jump` first: the outline (main_window), the Pages view (page_strip.py),
citations (assistant/window_link.py), links (link_follow.py), the page box (ViewerPanel.aboutToJump), find
(FindBar.aboutToJump) and opening another document (MainWindow.open_document). A jump to the page already shown
is not recorded (a footnote on the same page, the section the reader is in).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from pageindex_desktop.ui.menu_bar import add_to_menu
from pageindex_desktop.ui.reader.history import History, Place
from pageindex_desktop.ui.qt import (
    QAction,
    QEvent,
    QIcon,
    QKeySequence,
    QMainWindow,
    QMouseEvent,
    QObject,
    QStyle,
    Qt,
    QToolButton,
    QWidget,
)

if TYPE_CHECKING:
    from pageindex_desktop.core.library.positions import ReadingPosition
    from pageindex_desktop.ui.reader.viewer import ViewerPanel

OpenPlace = Callable[[str, "ReadingPosition"], bool]  # open a document at a place; False when it cannot be shown


def _keys(*names: str) -> list[QKeySequence]:
    """Back / Forward keys named explicitly: Qt's standard Back on Linux also holds Backspace, which would leave
    the page whenever the reader meant to delete a character outside a text field."""
    return [QKeySequence(name) for name in names]


BACK_KEYS = _keys("Alt+Left", "Back", *(["Ctrl+["] if sys.platform == "darwin" else []))  # Back: the media key
FORWARD_KEYS = _keys("Alt+Right", "Forward", *(["Ctrl+]"] if sys.platform == "darwin" else []))  # Ctrl is ⌘ on macOS


class Navigation(QObject):
    """The window's history of jumps and the Back / Forward actions over it."""

    def __init__(self, window: QWidget, viewer: "ViewerPanel", open_place: OpenPlace,
                 watched: list[QObject]) -> None:
        """`viewer` shows the places; `open_place` opens another document at one (the window's open rule);
        the mouse's back / forward buttons are read on `window` and the `watched` item views' viewports."""
        super().__init__(window)
        self.window = window
        self.viewer = viewer
        self.view = viewer.view
        self.open_place = open_place
        self.history = History()
        self._moving = False  # True while Back / Forward move the reader: that is not a new jump
        style = window.style()
        self.back_action = self._action("&Back", "actionBack", style.standardIcon(QStyle.StandardPixmap.SP_ArrowBack),
                                        BACK_KEYS, self.back)
        self.forward_action = self._action("&Forward", "actionForward",
                                           style.standardIcon(QStyle.StandardPixmap.SP_ArrowForward),
                                           FORWARD_KEYS, self.forward)
        bar = viewer.toolbar
        for index, action in enumerate((self.back_action, self.forward_action)):
            button = QToolButton(viewer)
            button.setObjectName(action.objectName().replace("action", "button"))
            button.setDefaultAction(action)
            button.setAutoRaise(True)
            bar.insertWidget(index, button)
        viewer.aboutToJump.connect(lambda page: self.about_to_jump(self.view.key, page))
        viewer.find_bar.aboutToJump.connect(lambda page: self.about_to_jump(self.view.key, page))
        # the mouse's back / forward buttons: the page view and most widgets pass them on to the window; the item
        # views take every button, so their viewports are watched too
        for target in (window, *watched):
            target.installEventFilter(self)
        self._update()

    def _action(self, text: str, name: str, icon: QIcon, keys: list[QKeySequence],
                slot: Callable[[], None]) -> QAction:
        action = QAction(text, self.window)
        action.setObjectName(name)
        action.setIcon(icon)
        action.setShortcuts(keys)
        action.setToolTip(f"{text.replace('&', '')} ({keys[0].toString(QKeySequence.SequenceFormat.NativeText)})")
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def actions(self) -> list[QAction]:
        """Back and Forward (for the View menu and the shortcuts list)."""
        return [self.back_action, self.forward_action]

    def here(self) -> Place | None:
        """Where the reader is now, or None when no document is shown."""
        position = self.view.reading_position()
        return Place(self.view.key, position) if position is not None and self.view.key else None

    def about_to_jump(self, doc_id: str, page: int) -> None:
        """A jump to `page` (0: its saved place) of `doc_id` is about to happen: remember where the reader is."""
        here = self.here()
        if self._moving or here is None or (doc_id == here.doc_id and page in (here.position.page, 0)):
            return
        self.history.leave(here)
        self._update()

    def back(self) -> None:
        """Return to the place the last jump left."""
        self._go(self.history.back)

    def forward(self) -> None:
        """Undo a Back."""
        self._go(self.history.forward)

    def _go(self, step: Callable[[Place | None], Place | None]) -> None:
        here = self.here()
        while True:
            target = step(here)
            if target is None or self._show(target):
                break
            here = None  # that document is gone: skip it, and keep the place left only once
        self._update()

    def _show(self, place: Place) -> bool:
        """Show a place: scroll to it, or open its document there; False when the document cannot be shown."""
        self._moving = True
        try:
            if place.doc_id == self.view.key and not self.viewer.is_opening():
                self.view.go_to_page(place.position.page, place.position.top, at=0.0)
                self.view.setFocus()
                return True
            return self.open_place(place.doc_id, place.position)
        finally:
            self._moving = False

    def _update(self) -> None:
        self.back_action.setEnabled(self.history.can_go_back())
        self.forward_action.setEnabled(self.history.can_go_forward())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            if event.button() == Qt.MouseButton.BackButton:
                self.back()
                return True
            if event.button() == Qt.MouseButton.ForwardButton:
                self.forward()
                return True
        return False


def attach_navigation(window: QMainWindow, viewer: "ViewerPanel", open_place: OpenPlace,
                      watched: list[QObject]) -> Navigation:
    """Give the window Back and Forward, in the View menu and in front of the viewer's toolbar."""
    navigation = Navigation(window, viewer, open_place, watched)
    add_to_menu(window, "View", navigation.actions(), separated=True)
    return navigation
