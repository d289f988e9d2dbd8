"""The outline by keyboard (issue 12): a click jumps and leaves the keyboard in the tree, arrows walk and fold,
Enter jumps, a right-click selects without jumping, Ctrl+Shift+F filters the tree by title and Esc clears it."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QApplication, QModelIndex, Qt, QTreeView
from tests.ui.test_window import TIMEOUT, wait_open

TOC = [  # level, title, page: a parent and its first child open the same page, as in most filings
    (1, "1 Business", 1), (2, "1.1 Products", 2), (2, "1.2 Markets", 4),
    (1, "2 Risk Factors", 6), (2, "2.1 Credit Risk", 6), (2, "2.2 Liquidity", 9),
    (1, "3 Outlook", 12), (2, "3.1 Guidance", 13),
]


def nested_pdf(path: Path, pages: int = 15) -> Path:
    """A PDF whose bookmarks nest: each title printed at the top of its page."""
    doc = pymupdf.open()
    printed: dict[int, list[str]] = {}
    for _level, title, page in TOC:
        printed.setdefault(page, []).append(title)
    for number in range(1, pages + 1):
        page = doc.new_page(width=612, height=792)
        y = 72
        for title in printed.get(number, []):
            page.insert_text((72, y), title, fontsize=18)
            y += 30
        page.insert_text((72, y + 10), f"This is page {number} of the annual report.", fontsize=11)
    doc.set_toc([list(entry) for entry in TOC])
    doc.save(path)
    doc.close()
    return path


def find(tree: QTreeView, title: str) -> QModelIndex:
    model = tree.model()
    pending = [model.index(r, 0) for r in range(model.rowCount())]
    while pending:
        index = pending.pop(0)
        if index.data() == title:
            return index
        pending += [model.index(r, 0, index) for r in range(model.rowCount(index))]
    raise AssertionError(f"no node {title!r}")


def visible_titles(tree: QTreeView) -> list[str]:
    """The rows a reader sees in the tree, top to bottom (hidden and folded rows left out)."""
    model = tree.model()
    index = next((model.index(r, 0) for r in range(model.rowCount()) if not tree.isRowHidden(r, QModelIndex())),
                 QModelIndex())
    titles = []
    while index.isValid():
        titles.append(index.data())
        index = tree.indexBelow(index)
    return titles


def test_the_outline_walks_folds_and_jumps_by_keyboard(window: MainWindow, tmp_path: Path,
                                                       qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([nested_pdf(tmp_path / "annual.pdf")])
    wait_open(qtbot, window)
    view = window.viewer.view
    tree = window.outline.view
    qtbot.waitUntil(lambda: view.was_shown(1), timeout=TIMEOUT)
    follow = window.outline._follow_timer

    def settled() -> None:  # the tree's follow-the-page step has run
        qtbot.waitUntil(lambda: not follow.isActive())

    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(find(tree, "2 Risk Factors")).center())
    qtbot.waitUntil(lambda: view.current_page() == 6, timeout=TIMEOUT)
    settled()
    assert QApplication.focusWidget() is tree  # the viewer jumped, the keyboard stayed in the tree
    assert tree.currentIndex().data() == "2 Risk Factors"  # not moved to the child that opens the same page

    keys = QApplication.focusWidget
    qtbot.keyClick(keys(), Qt.Key.Key_Down)
    qtbot.keyClick(keys(), Qt.Key.Key_Down)
    assert tree.currentIndex().data() == "2.2 Liquidity" and view.current_page() == 6  # walking is not jumping
    qtbot.keyClick(keys(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.current_page() == 9, timeout=TIMEOUT)
    settled()
    assert keys() is tree and tree.currentIndex().data() == "2.2 Liquidity"

    qtbot.keyClick(keys(), Qt.Key.Key_Left)  # to the parent
    assert tree.currentIndex().data() == "2 Risk Factors"
    qtbot.keyClick(keys(), Qt.Key.Key_Left)  # fold it
    assert not tree.isExpanded(tree.currentIndex())
    assert "2.1 Credit Risk" not in visible_titles(tree)
    qtbot.keyClick(keys(), Qt.Key.Key_Right)  # unfold it
    assert tree.isExpanded(tree.currentIndex()) and "2.1 Credit Risk" in visible_titles(tree)
    assert view.current_page() == 9

    # a right-click selects a node (for what a context menu may offer) and leaves the page where it is
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.RightButton, pos=tree.visualRect(find(tree, "3 Outlook")).center())
    settled()
    assert tree.currentIndex().data() == "3 Outlook" and view.current_page() == 9

    # Ctrl+Shift+F filters by title; Enter jumps to the first match; Esc brings the whole tree back
    qtbot.keyClick(keys(), Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    box = window.outline.filter.box
    assert keys() is box and box.isVisible()
    qtbot.keyClicks(box, "guid")
    assert visible_titles(tree) == ["3 Outlook", "3.1 Guidance"]
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.current_page() == 13, timeout=TIMEOUT)
    assert keys() is tree and tree.currentIndex().data() == "3.1 Guidance"
    qtbot.keyClick(keys(), Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(box, "risk")
    assert visible_titles(tree) == ["2 Risk Factors", "2.1 Credit Risk", "2.2 Liquidity"]  # a match keeps its sections
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert box.text() == "" and keys() is tree
    assert visible_titles(tree) == [title for _level, title, _page in TOC]
    assert view.current_page() == 13
