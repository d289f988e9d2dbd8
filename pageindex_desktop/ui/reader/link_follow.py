"""What a click on a link does: a page of this document (its target point at the top), a PDF in the library, a web
address after asking, a PDF named action (next / previous / first / last page, back / forward).

Every move to another page is a jump (`Navigation.about_to_jump` first), so Back returns to the link. A link that
would launch a program or open a file outside the library is not followed; the status bar says why.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from pageindex_desktop.ui.reader.pdf_links import LinkInfo
from pageindex_desktop.ui.qt import QDesktopServices, QMessageBox, QObject, QUrl, QWidget, Signal

if TYPE_CHECKING:
    from pageindex_desktop.core.library.store import Library
    from pageindex_desktop.ui.reader.navigation import Navigation
    from pageindex_desktop.ui.reader.page_view import PageView

TARGET_MARGIN = 12.0  # points shown above a link's target, so a heading's top is not cut
WEB_SCHEMES = ("http", "https", "mailto")
MESSAGE_MS = 8000


class LinkFollower(QObject):
    """Follows the links the page view reports (`PageLinks.activated`); what the window must do (open another
    document, show a sentence) it asks for by signal."""

    openRequested = Signal(str, int)  # doc id, page: a link into another PDF of the library
    message = Signal(str)  # why a link is not followed, for the status bar

    def __init__(self, parent: QWidget, view: "PageView", navigation: "Navigation", library: "Library") -> None:
        """`library` is the window's reading connection (a link into another PDF looks for it there); `parent`
        owns the "Open Link" question."""
        super().__init__(parent)
        self.parent_widget = parent
        self.navigation = navigation
        self.library = library
        self.view = view
        self.open_url: Callable[[QUrl], object] = QDesktopServices.openUrl  # the browser (tests put a fake here)
        self.view.links.activated.connect(self.follow)

    def follow(self, link: LinkInfo) -> None:
        """Do what the link says."""
        if link.kind in ("goto", "named") and link.page:
            self.go(link.page, link.y)
        elif link.kind == "named":
            self._named_action(link.name)
        elif link.kind == "gotor":
            self._other_pdf(link)
        elif link.kind == "uri":
            self._web(link.uri)
        else:
            self._say(f"This link would open {link.file or 'a file'} outside PageIndex Desktop; it is not followed.")

    def go(self, page: int, y: float | None = None) -> None:
        """Jump to `page` of the document shown, with its point `y` (points from the top) near the top."""
        self.navigation.about_to_jump(self.view.key, page)
        if y is None or y <= 0:
            self.view.go_to_page(page)
        else:
            self.view.go_to_page(page, max(0.0, y - TARGET_MARGIN), at=0.0)

    def _named_action(self, name: str) -> None:
        current, count = self.view.current_page(), self.view.page_count()
        pages = {"NextPage": current + 1, "PrevPage": current - 1, "FirstPage": 1, "LastPage": count}
        if name in pages:
            self.go(min(max(1, pages[name]), count))
        elif name == "GoBack":
            self.navigation.back()
        elif name == "GoForward":
            self.navigation.forward()
        else:
            self._say(f"This link points to a place the PDF does not define ({name or 'no name'}).")

    def _other_pdf(self, link: LinkInfo) -> None:
        """A link into another PDF: followed when that file is in the library (or is this document)."""
        name = PurePosixPath(link.file.replace("\\", "/")).name.casefold()
        library = self.library
        current = library.get(self.view.key)
        if current is not None and current.file_name.casefold() == name:
            self.go(link.page or 1, link.y)
            return
        match = next((d for d in library.documents() if d.status == "ready" and d.file_name.casefold() == name), None)
        if match is None:
            self._say(f"This link opens another file, {link.file}, which is not in the library; add it to follow "
                      "the link.")
            return
        self.openRequested.emit(match.doc_id, link.page or 1)  # a jump: opening tells the navigation

    def _web(self, uri: str) -> None:
        """Open a web address in the browser, after the reader said yes (a PDF's links can point anywhere)."""
        url = QUrl(uri)
        if not url.isValid() or url.scheme().lower() not in WEB_SCHEMES:
            self._say(f"This link is not a web address and is not opened: {uri}")
            return
        box = QMessageBox(QMessageBox.Icon.Question, "Open Link",
                          "Open this address in your web browser?", QMessageBox.StandardButton.NoButton, self.parent_widget)
        box.setObjectName("openLinkDialog")
        box.setInformativeText(uri)
        open_button = box.addButton("Open in Browser", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(open_button)
        box.exec()
        if box.clickedButton() is open_button:
            self.open_url(url)

    def _say(self, text: str) -> None:
        self.message.emit(text)
