"""Links on the page and Back / Forward, as a reader uses them: hover shows the hand, a click on a contents entry
jumps to its heading, Alt+Left / the mouse's back button / the toolbar return, a web link asks first, and every
kind of jump (outline, page box, find, citation, another document) can be undone while scrolling is not a jump."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QApplication, QMessageBox, QPoint, Qt, QTimer, QToolButton, QUrl
from tests.ui.conftest import make_pdf
from tests.ui.test_window import TIMEOUT, outline_index, wait_open

RISK_Y = 300.0  # where page 12 prints its "Risk Factors" heading (points from the top)
CONTENTS_LINK = pymupdf.Rect(72, 120, 400, 136)  # "Risk Factors .... 12" on page 1
WEB_LINK = pymupdf.Rect(72, 160, 400, 176)
NAMED_LINK = pymupdf.Rect(72, 200, 400, 216)  # "see also Governance", a named destination as LaTeX writes them
GOVERNANCE_Y = 500.0  # where page 16 prints "Governance"


def linked_pdf(path: Path, pages: int = 20) -> Path:
    """A report whose page 1 is a contents page: a GoTo link to page 12's heading, a web link, and a link to a
    named destination (PDF coordinates, bottom-left origin) on page 16."""
    doc = pymupdf.open()
    for number in range(1, pages + 1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 72), f"This is page {number} of the linked report.", fontsize=11)
    first = doc[0]
    first.insert_text((72, 100), "Contents", fontsize=16)
    first.insert_text((72, 132), "Risk Factors ........................ 12", fontsize=11)
    first.insert_text((72, 172), "Our filings: https://www.sec.gov/", fontsize=11)
    first.insert_text((72, 212), "See also Governance", fontsize=11)
    doc[11].insert_text((72, RISK_Y + 14), "Risk Factors", fontsize=16)
    doc[15].insert_text((72, GOVERNANCE_Y + 14), "Governance", fontsize=16)
    first.insert_link({"kind": pymupdf.LINK_GOTO, "from": CONTENTS_LINK, "page": 11, "to": pymupdf.Point(72, RISK_Y)})
    first.insert_link({"kind": pymupdf.LINK_URI, "from": WEB_LINK, "uri": "https://www.sec.gov/"})
    names = doc.get_new_xref()
    doc.update_object(names, f"<< /Dests << /Names [(sec.governance) [{doc[15].xref} 0 R /XYZ 0 "
                             f"{792 - GOVERNANCE_Y} 0]] >> >>")
    doc.xref_set_key(doc.pdf_catalog(), "Names", f"{names} 0 R")
    annot = doc.get_new_xref()
    r = NAMED_LINK
    doc.update_object(annot, f"<< /Type /Annot /Subtype /Link /Rect [{r.x0} {792 - r.y1} {r.x1} {792 - r.y0}] "
                             "/Border [0 0 0] /Dest (sec.governance) >>")
    annots = doc.xref_get_key(first.xref, "Annots")
    doc.xref_set_key(first.xref, "Annots", annots[1][:-1] + f" {annot} 0 R]")
    doc.save(path)
    doc.close()
    return path


def on_screen(window: MainWindow, page: int, rect: pymupdf.Rect) -> QPoint:
    """The centre of a rectangle of a page (PDF points) in the page view's viewport."""
    view = window.viewer.view
    box, zoom = view.page_rect(page), view.zoom()
    return QPoint(round(box.x() + (rect.x0 + rect.x1) / 2 * zoom), round(box.y() + (rect.y0 + rect.y1) / 2 * zoom))


def hover(qtbot, window: MainWindow, pos: QPoint) -> None:  # type: ignore[no-untyped-def]
    """Move the pointer there and wait for the hand cursor (the page's links come from the render process)."""
    viewport = window.viewer.view.viewport()
    qtbot.mouseMove(viewport, pos)
    qtbot.waitUntil(lambda: viewport.cursor().shape() == Qt.CursorShape.PointingHandCursor, timeout=TIMEOUT)


def shown_page(window: MainWindow) -> str:
    """What the page box says."""
    return window.viewer.page_box.text()


def alt(qtbot, window: MainWindow, key: Qt.Key) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClick(window.viewer.view, key, Qt.KeyboardModifier.AltModifier)


def test_a_contents_link_jumps_to_its_heading_and_back_returns(window: MainWindow, tmp_path: Path,
                                                               qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([linked_pdf(tmp_path / "linked.pdf")])
    wait_open(qtbot, window)
    view = window.viewer.view
    viewport = view.viewport()
    qtbot.waitUntil(lambda: view.was_shown(1), timeout=TIMEOUT)
    back = window.findChild(QToolButton, "buttonBack")
    forward = window.findChild(QToolButton, "buttonForward")
    assert not back.isEnabled() and not forward.isEnabled()

    qtbot.mouseMove(viewport, on_screen(window, 1, pymupdf.Rect(72, 400, 300, 420)))  # plain text: no hand
    assert viewport.cursor().shape() != Qt.CursorShape.PointingHandCursor
    link = on_screen(window, 1, CONTENTS_LINK)
    hover(qtbot, window, link)
    assert viewport.toolTip() == "Go to page 12"
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=link)
    assert view.current_page() == 12 and shown_page(window) == "12"
    heading = view.page_rect(12).y() + RISK_Y * view.zoom()
    assert 0 < heading < 0.1 * viewport.height()  # the heading is at the top of the view
    assert view.selection.text() == ""  # following a link selects nothing
    assert back.isEnabled() and not forward.isEnabled()
    qtbot.keyClick(view, Qt.Key.Key_Backspace)  # not Back (Qt's standard Back key list holds it)
    assert shown_page(window) == "12"
    assert back.toolTip() == "Back (Alt+Left)"

    alt(qtbot, window, Qt.Key.Key_Left)
    assert view.current_page() == 1 and shown_page(window) == "1"
    assert forward.isEnabled() and not back.isEnabled()
    alt(qtbot, window, Qt.Key.Key_Right)
    assert view.current_page() == 12 and shown_page(window) == "12"
    qtbot.mouseClick(viewport, Qt.MouseButton.BackButton, pos=QPoint(50, 50))  # the mouse's back button
    assert shown_page(window) == "1"
    qtbot.mouseClick(forward, Qt.MouseButton.LeftButton)  # the toolbar's Forward
    assert shown_page(window) == "12"

    qtbot.keyClick(view, Qt.Key.Key_PageDown)  # reading on is not a jump ...
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    reached = view.current_page()
    assert reached > 12
    alt(qtbot, window, Qt.Key.Key_Left)  # ... so Back goes to the contents page, not to page 12
    assert shown_page(window) == "1"
    alt(qtbot, window, Qt.Key.Key_Right)  # and Forward to where the reader had read on to
    assert view.current_page() == reached


def test_a_named_destination_link_lands_on_its_target(window: MainWindow, tmp_path: Path,
                                                      qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([linked_pdf(tmp_path / "linked.pdf")])
    wait_open(qtbot, window)
    view = window.viewer.view
    qtbot.waitUntil(lambda: view.was_shown(1), timeout=TIMEOUT)
    link = on_screen(window, 1, NAMED_LINK)
    hover(qtbot, window, link)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=link)
    assert shown_page(window) == "16"
    heading = view.page_rect(16).y() + GOVERNANCE_Y * view.zoom()
    assert 0 < heading < 0.1 * view.viewport().height()


def test_a_web_link_asks_before_opening_the_browser(window: MainWindow, tmp_path: Path,
                                                    qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([linked_pdf(tmp_path / "linked.pdf")])
    wait_open(qtbot, window)
    view = window.viewer.view
    qtbot.waitUntil(lambda: view.was_shown(1), timeout=TIMEOUT)
    opened: list[str] = []
    window.link_follower.open_url = lambda url: opened.append(url.toString())
    asked: list[str] = []

    def answer(button: str) -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            asked.append(box.informativeText())
            chosen = next(b for b in box.buttons() if b.text().replace("&", "") == button)
            chosen.click()
        else:
            QTimer.singleShot(20, lambda: answer(button))

    link = on_screen(window, 1, WEB_LINK)
    hover(qtbot, window, link)
    assert view.viewport().toolTip() == "https://www.sec.gov/"
    QTimer.singleShot(20, lambda: answer("Cancel"))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=link)
    assert asked == ["https://www.sec.gov/"] and opened == []
    QTimer.singleShot(20, lambda: answer("Open in Browser"))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=link)
    assert opened == [QUrl("https://www.sec.gov/").toString()]
    assert view.current_page() == 1 and not window.navigation.back_action.isEnabled()  # not a jump


def test_every_kind_of_jump_can_be_undone(window: MainWindow, report_pdf: Path, tmp_path: Path,
                                          qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    report = wait_open(qtbot, window)
    view = window.viewer.view
    tree = window.outline.view
    index = outline_index(window, "3 Risk Factors")
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())  # outline
    assert shown_page(window) == "11"
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.BackButton, pos=QPoint(5, 5))  # the mouse over the tree
    assert shown_page(window) == "1"
    qtbot.mouseClick(window.library_panel.view.viewport(), Qt.MouseButton.ForwardButton, pos=QPoint(5, 5))
    assert shown_page(window) == "11"
    box = window.viewer.page_box
    box.setFocus()
    box.setText("20")
    qtbot.keyClick(box, Qt.Key.Key_Return)  # the page box
    assert shown_page(window) == "20"
    bar = window.viewer.find_bar
    qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(bar.field, "page 7 of")  # find
    qtbot.waitUntil(lambda: bar.count.text() == "1 of 1", timeout=TIMEOUT)
    assert shown_page(window) == "7"
    qtbot.keyClick(bar.field, Qt.Key.Key_Escape)

    other = make_pdf(tmp_path / "other.pdf", 12, chapters=("Overview", "Segments"))
    window.import_paths([other])  # another document opens: also a jump
    qtbot.waitUntil(lambda: window.current_doc not in ("", report) and view.page_count() == 12, timeout=TIMEOUT)
    second = window.current_doc
    # a citation the assistant pane reports clicked: page 9 of the report
    window.assistant.citationActivated.emit(report, 9, "This is page 9 of the sample report.")
    qtbot.waitUntil(lambda: view.key == report and view.current_page() == 9, timeout=TIMEOUT)
    assert shown_page(window) == "9"

    visited = []
    while window.navigation.back_action.isEnabled():
        alt(qtbot, window, Qt.Key.Key_Left)
        qtbot.waitUntil(lambda: not window.viewer.is_opening() and view.current_page() > 0, timeout=TIMEOUT)
        visited.append((view.key, shown_page(window)))
    assert visited == [(second, "1"), (report, "7"), (report, "20"), (report, "11"), (report, "1")]
    assert window.windowTitle().startswith(window.library.get(report).title)  # type: ignore[union-attr]

    alt(qtbot, window, Qt.Key.Key_Right)
    alt(qtbot, window, Qt.Key.Key_Right)
    assert shown_page(window) == "20"
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton,
                     pos=tree.visualRect(outline_index(window, "2 Revenue and Costs")).center())
    assert shown_page(window) == "6"
    assert not window.navigation.forward_action.isEnabled()  # a new jump forgets what was ahead
    alt(qtbot, window, Qt.Key.Key_Left)
    assert shown_page(window) == "20"
