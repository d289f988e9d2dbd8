"""The tree panel's Pages view (issue 12): thumbnails asked for only for the cells on screen, drawn by the render
process; a click or Enter jumps (Back returns), the reader's page is highlighted as the viewer scrolls, the
arrows walk the thumbnails and another document resets the strip."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.reader.page_strip import PageRole, PageStrip, PageStripModel, sheet_rect
from pageindex_desktop.ui.qt import QApplication, QImage, Qt, QTabBar
from tests.ui.conftest import make_pdf
from tests.ui.test_window import TIMEOUT, wait_open


def numbered_pdf(path: Path, pages: int = 60) -> Path:
    """Each page carries its number in very large type, so its thumbnail is visibly not blank."""
    doc = pymupdf.open()
    for number in range(1, pages + 1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((150, 500), str(number), fontsize=260)
    doc.save(path)
    doc.close()
    return path


def show_pages_tab(qtbot, window: MainWindow) -> PageStrip:  # type: ignore[no-untyped-def]
    """Click the tree panel's Pages tab, as the reader does."""
    tabs = window.outline.findChild(QTabBar, "treeTabs")
    index = next(i for i in range(tabs.count()) if tabs.tabText(i) == "Pages")
    qtbot.mouseClick(tabs, Qt.MouseButton.LeftButton, pos=tabs.tabRect(index).center())
    strip = window.pages
    qtbot.waitUntil(strip.isVisible, timeout=TIMEOUT)
    return strip


def ink(image: QImage, strip: PageStrip, page: int) -> int:
    """How many clearly dark pixels the reader sees in the sheet of `page` in a grab of the strip."""
    rect = sheet_rect(strip.visualRect(strip.strip_model.index(page - 1)), strip.strip_model.page_size(page))
    rect = rect.toAlignedRect().adjusted(2, 2, -2, -2)
    dark = 0
    for y in range(rect.top(), rect.bottom(), 2):
        for x in range(rect.left(), rect.right(), 2):
            if image.pixelColor(x, y).lightness() < 100:
                dark += 1
    return dark


def click_thumbnail(qtbot, strip: PageStrip, page: int) -> None:  # type: ignore[no-untyped-def]
    index = strip.strip_model.index(page - 1)
    strip.scrollTo(index)
    qtbot.waitUntil(lambda: strip.visualRect(index).intersects(strip.viewport().rect()), timeout=TIMEOUT)
    qtbot.mouseClick(strip.viewport(), Qt.MouseButton.LeftButton, pos=strip.visualRect(index).center())


def test_the_pages_view_shows_lazy_thumbnails_and_jumps(window: MainWindow, tmp_path: Path,
                                                        qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([numbered_pdf(tmp_path / "numbered.pdf")])
    wait_open(qtbot, window)
    view = window.viewer.view
    qtbot.waitUntil(lambda: view.was_shown(1), timeout=TIMEOUT)
    assert not window.pages.asked  # hidden behind the Sections tab: nothing asked for
    strip = show_pages_tab(qtbot, window)
    assert strip.strip_model.rowCount() == 60
    visible = strip.visible_pages()
    assert visible and visible[0] == 1 and len(visible) < 60
    qtbot.waitUntil(lambda: all(strip.has_thumbnail(p) for p in strip.visible_pages()), timeout=TIMEOUT)
    asked = {p for request in strip.asked for p in request}
    assert asked <= set(visible) and not strip.has_thumbnail(60)  # only the cells on screen were rendered
    grab = strip.viewport().grab().toImage()
    assert ink(grab, strip, 1) > 20  # the big "1" is drawn, not a blank placeholder
    assert strip.current_page() == 1  # the reader's page is highlighted

    click_thumbnail(qtbot, strip, 40)
    qtbot.waitUntil(lambda: view.current_page() == 40, timeout=TIMEOUT)
    assert QApplication.focusWidget() is strip  # the keyboard stays in the strip
    qtbot.waitUntil(lambda: strip.has_thumbnail(40), timeout=TIMEOUT)
    asked = {p for request in strip.asked for p in request}
    assert len(asked) < 60 and 40 in asked

    qtbot.keyClick(strip, Qt.Key.Key_Right)  # the arrows walk the thumbnails, Enter jumps
    assert strip.current_page() == 41 and view.current_page() == 40
    qtbot.keyClick(strip, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.current_page() == 41, timeout=TIMEOUT)

    qtbot.keyClick(view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)  # Back: before Enter, then the click
    qtbot.waitUntil(lambda: view.current_page() == 40, timeout=TIMEOUT)
    qtbot.keyClick(view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: view.current_page() == 1, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: strip.current_page() == 1, timeout=TIMEOUT)

    vbar = view.verticalScrollBar()  # the reader scrolls the viewer (not a jump) to page 10
    vbar.setValue(vbar.value() + round(view.page_rect(10).y()))
    qtbot.waitUntil(lambda: view.current_page() == 10, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: strip.current_page() == 10, timeout=TIMEOUT)
    index = strip.strip_model.index(9)
    assert strip.selectionModel().isSelected(index)
    assert strip.viewport().rect().contains(strip.visualRect(index))  # kept in view
    qtbot.waitUntil(lambda: strip.has_thumbnail(10), timeout=TIMEOUT)


def test_another_document_resets_the_strip_and_the_tab_is_kept(window: MainWindow, tmp_path: Path,
                                                               qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([numbered_pdf(tmp_path / "numbered.pdf", 30)])
    first = wait_open(qtbot, window)
    strip = show_pages_tab(qtbot, window)
    qtbot.waitUntil(lambda: strip.has_thumbnail(1), timeout=TIMEOUT)
    click_thumbnail(qtbot, strip, 20)
    qtbot.waitUntil(lambda: window.viewer.view.current_page() == 20, timeout=TIMEOUT)

    window.import_paths([make_pdf(tmp_path / "short.pdf", 7)])
    qtbot.waitUntil(lambda: window.current_doc not in ("", first) and strip.key() == window.current_doc,
                    timeout=TIMEOUT)
    assert strip.strip_model.rowCount() == 7
    assert strip.current_page() == 1 and strip.verticalScrollBar().value() == 0
    qtbot.waitUntil(lambda: all(strip.has_thumbnail(p) for p in range(1, 8)), timeout=TIMEOUT)
    assert strip.strip_model.data(strip.strip_model.index(2)) == "3"
    assert window.outline.view_shown() == "Pages"

    again = MainWindow(window.home)  # the next start shows the tab the reader left
    qtbot.addWidget(again)
    try:
        assert again.outline.view_shown() == "Pages"
    finally:
        again.close()


def test_ctrl_shift_t_switches_to_the_thumbnails_and_back(window: MainWindow, tmp_path: Path,
                                                          qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([numbered_pdf(tmp_path / "numbered.pdf", 12)])
    wait_open(qtbot, window)
    window.room.set_shown("outline", False)  # even with the panel hidden
    window.viewer.view.setFocus()
    qtbot.keyClick(window.viewer.view, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    strip = window.pages
    qtbot.waitUntil(lambda: strip.isVisible() and QApplication.focusWidget() is strip, timeout=TIMEOUT)
    qtbot.keyClick(strip, Qt.Key.Key_Down)  # the next row of the grid (or the next page in one column)
    assert strip.current_page() > 1
    qtbot.keyClick(strip, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.outline.view.isVisible() and not strip.isVisible(), timeout=TIMEOUT)
    assert QApplication.focusWidget() is window.outline.view


def test_the_strip_model_passes_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = PageStripModel()
    model.set_pages("d", [(612.0, 792.0)] * 5, ["i", "ii", "1", "", "3"])
    qtmodeltester.check(model)
    index = model.index(1)
    assert (index.data(), index.data(PageRole)) == ("ii", 2)
    assert index.data(Qt.ItemDataRole.ToolTipRole) == "Page 2 (printed ii) of 5"
    assert model.index(3).data() == "4"  # no printed label: the page number
