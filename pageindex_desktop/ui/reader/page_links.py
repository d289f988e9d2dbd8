"""Links in the page view: where they are on each page, the hand cursor over them, and the click that follows one.

A page's links are read in the render process (`RenderService.links`, `ui/reader/pdf_links.py`) once it has been painted
(or when the pointer reaches a page whose links are not known yet) and kept for the open document. A left click
that goes down and up on the same link follows it, and starts no text selection; what following means (a page of
this document, another PDF, a web address after asking) is decided by `ui/reader/link_follow.py` through `activated`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pageindex_desktop.ui.reader.pdf_links import LinkInfo
from pageindex_desktop.ui.qt import QMouseEvent, QObject, QPointF, Qt, Signal

if TYPE_CHECKING:
    from pageindex_desktop.ui.reader.page_view import PageView


def describe(link: LinkInfo) -> str:
    """The tooltip of a link: where a click leads."""
    if link.kind == "uri":
        return link.uri
    if link.kind in ("gotor", "launch"):
        return f"{link.file}, page {link.page}" if link.kind == "gotor" and link.page else link.file
    if link.page:
        return f"Go to page {link.page}"
    return link.name


class PageLinks(QObject):
    """The links of the open document's pages, hit-tested under the pointer."""

    activated = Signal(object)  # LinkInfo: the reader clicked it

    def __init__(self, view: "PageView") -> None:
        super().__init__(view)
        self.view = view
        self.links: dict[int, list[LinkInfo]] = {}  # page -> its links, for the document shown
        self._pending: dict[int, int] = {}  # request id -> page
        self._pressed: LinkInfo | None = None
        self._hover: LinkInfo | None = None
        self._pointer: QPointF | None = None
        # hover needs move events without a button held: a Python call per move, ~µs, only over the viewport
        view.viewport().setMouseTracking(True)
        view.renderer.linksReady.connect(self._on_links)
        view.pageShown.connect(self._want)
        view.verticalScrollBar().valueChanged.connect(self._content_moved)

    def clear(self) -> None:
        """Forget every page's links (another document, or none)."""
        self.links = {}
        self._pending = {}
        self._pressed = None
        self._set_hover(None)

    def link_at(self, pos: QPointF) -> LinkInfo | None:
        """The link under a viewport point, or None (its page's links not read yet: asked for now)."""
        hit = self.view.page_at(pos)
        if hit is None:
            return None
        page, x, y = hit
        links = self.links.get(page)
        if links is None:
            self._want(page)
            return None
        for link in links:
            x0, y0, x1, y1 = link.rect
            if x0 <= x <= x1 and y0 <= y <= y1:
                return link
        return None

    def mouse_press(self, event: QMouseEvent) -> bool:
        """A left press on a link: remember it (and select no text); True when the press is taken."""
        self._pressed = None
        if event.button() != Qt.MouseButton.LeftButton or event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            return False
        self._pressed = self.link_at(event.position())
        return self._pressed is not None

    def mouse_move(self, event: QMouseEvent) -> None:
        """Show the hand over a link, and where it leads in the tooltip."""
        self._pointer = event.position()
        if not event.buttons():
            self._set_hover(self.link_at(self._pointer))

    def mouse_release(self, event: QMouseEvent) -> bool:
        """Follow the link pressed, if the button comes up on it; True when the release is taken."""
        pressed, self._pressed = self._pressed, None
        if pressed is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        if self.link_at(event.position()) == pressed:
            self._set_hover(None)
            self.activated.emit(pressed)
        return True

    def _want(self, page: int) -> None:
        if not self.view.key or page in self.links or page in self._pending.values():
            return
        self._pending[self.view.renderer.links(self.view.key, page)] = page

    def _on_links(self, rid: int, key: str, page: int, links: list[LinkInfo]) -> None:
        if self._pending.pop(rid, None) is None or key != self.view.key:
            return
        self.links[page] = list(links)
        if self._pointer is not None and self.view.viewport().underMouse():
            self._set_hover(self.link_at(self._pointer))  # the pointer may already rest on one

    def _content_moved(self, _value: int) -> None:
        """The page moved under a resting pointer (wheel, keys): the link under it may have changed."""
        if self._pointer is not None and (self._hover is not None or self.links):
            if self.view.viewport().underMouse():
                self._set_hover(self.link_at(self._pointer))

    def _set_hover(self, link: LinkInfo | None) -> None:
        if link == self._hover:
            return
        self._hover = link
        viewport = self.view.viewport()
        if link is None:
            viewport.unsetCursor()
            viewport.setToolTip("")
        else:
            viewport.setCursor(Qt.CursorShape.PointingHandCursor)
            viewport.setToolTip(describe(link))

    def hovered(self) -> LinkInfo | None:
        """The link under the pointer (the hand cursor is showing), or None."""
        return self._hover
