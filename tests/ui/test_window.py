"""The window end to end: imports (drop, command line, password, cancel), outline ↔ viewer sync."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.app import build_window, parse_args
from pageindex_desktop.ui.library.library_model import FilterRole
from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import (
    QApplication,
    QDragEnterEvent,
    QDropEvent,
    QInputDialog,
    QMimeData,
    QPlainTextEdit,
    QPoint,
    QPointF,
    Qt,
    QTableWidget,
    QTimer,
    QUrl,
    QWheelEvent,
)
from tests.ui.conftest import make_pdf

TIMEOUT = 20_000


def wait_open(qtbot, window: MainWindow) -> str:  # type: ignore[no-untyped-def]
    """Wait until an imported document is open in the viewer with its first page painted; its doc id."""
    qtbot.waitUntil(lambda: bool(window.current_doc) and window.viewer.view.page_count() > 0, timeout=TIMEOUT)
    return window.current_doc


def drop(window: MainWindow, paths: list[Path]) -> bool:
    """Drag files over the window and drop them, as a file manager does; True when the drop was taken."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    enter = QDragEnterEvent(QPointF(200, 200), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    event = QDropEvent(QPointF(200, 200), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, event)
    return event.isAccepted()


def outline_index(window: MainWindow, title: str):  # type: ignore[no-untyped-def]
    model = window.outline.model
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        if index.data() == title:
            return index
    raise AssertionError(f"no outline node {title!r}")


def test_dropping_a_file_imports_it_and_opens_it(window: MainWindow, report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert drop(window, [report_pdf])
    doc_id = wait_open(qtbot, window)
    record = window.library.get(doc_id)
    assert record is not None and record.status == "ready" and record.page_count == 25
    rows = window.library_panel.model.rows()
    assert [(r.doc_id, r.status) for r in rows] == [(doc_id, "ready")]
    assert window.findChild(type(window.library_panel.view), "libraryView") is window.library_panel.view
    assert window.outline.model.rowCount() == 5
    assert window.viewer.view.current_page() == 1


def test_dropping_a_folder_imports_every_pdf_in_it(window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "inbox"
    (folder / "sub").mkdir(parents=True)
    make_pdf(folder / "a.pdf", 6, chapters=("Alpha", "Beta"))
    make_pdf(folder / "sub" / "b.pdf", 8, chapters=("Gamma", "Delta"))
    (folder / "notes.odt").write_text("not a format the library takes")
    assert drop(window, [folder])
    qtbot.waitUntil(lambda: sorted(r.status for r in window.library_panel.model.rows()) == ["ready", "ready"],
                    timeout=TIMEOUT)
    assert sorted(d.page_count for d in window.library.documents()) == [6, 8]
    qtbot.keyClicks(window.library_panel.filter, "B")
    assert window.library_panel.proxy.rowCount() == 1
    assert window.library_panel.proxy.index(0, 0).data(FilterRole).endswith("b.pdf")


def test_command_line_files_are_imported_and_the_first_opens(home: Path, report_pdf: Path, tmp_path: Path,
                                                            qtbot) -> None:  # type: ignore[no-untyped-def]
    second = make_pdf(tmp_path / "second.pdf", 4, chapters=("Only",))
    assert parse_args([str(report_pdf), str(second)]).files == [report_pdf, second]
    window = build_window(["pageindex-desktop", str(report_pdf), str(second)], home=home)
    qtbot.addWidget(window)
    window.show()
    try:
        doc_id = wait_open(qtbot, window)
        assert window.library.get(doc_id).page_count == 25  # type: ignore[union-attr]
        qtbot.waitUntil(lambda: len(window.library.documents()) == 2
                        and all(d.status == "ready" for d in window.library.documents()), timeout=TIMEOUT)
    finally:
        window.close()


def test_a_missing_file_shows_as_failed_with_its_reason(window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([tmp_path / "nowhere.pdf"])
    qtbot.waitUntil(lambda: [r.status for r in window.library_panel.model.rows()] == ["failed"], timeout=TIMEOUT)
    row = window.library_panel.model.rows()[0]
    assert "nowhere.pdf" in row.detail() and row.title == "nowhere"
    assert window.library.documents() == []


def test_an_import_into_a_library_a_newer_version_upgraded_fails_with_that_sentence(  # type: ignore[no-untyped-def]
        home: Path, report_pdf: Path, qtbot) -> None:
    """The window opened the library, then a newer version upgraded it: the import worker's own connection is
    refused, and each import says why instead of stopping on an internal error."""
    import sqlite3

    from pageindex_desktop.core.library.migrations import MIGRATIONS
    from pageindex_desktop.core.library.store import Library
    from pageindex_desktop.core.library.store_writer import StoreWriter
    from pageindex_desktop.ui.workers import ImportWorker, Job

    Library(home).close()
    with sqlite3.connect(home / "library.sqlite3") as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    worker = ImportWorker(home, StoreWriter(home))  # a writer that cannot start: the library is too new for it
    worker.start()
    try:
        with qtbot.waitSignal(worker.jobFinished, timeout=TIMEOUT) as finished:
            worker.submit(Job("import", path=report_pdf))
        result = finished.args[1]
        assert result.status == "failed" and "written by a newer version" in result.error
        assert "internal error" not in result.error
    finally:
        worker.stop()


def test_clicking_a_node_shows_its_start_page_and_scrolling_selects_the_node(
        window: MainWindow, report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    wait_open(qtbot, window)
    view = window.findChild(type(window.viewer.view), "pageView")
    tree = window.outline.view
    assert tree.objectName() == "outlineView"
    index = outline_index(window, "3 Risk Factors")
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
    qtbot.waitUntil(lambda: view.current_page() == 11)

    tree.setCurrentIndex(outline_index(window, "2 Revenue and Costs"))
    qtbot.keyClick(tree, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.current_page() == 6)

    with qtbot.waitSignal(view.currentPageChanged):
        view.verticalScrollBar().setValue(round(view.page_rect(17).y()) + view.verticalScrollBar().value() + 5)
    assert view.current_page() == 17
    qtbot.waitUntil(lambda: tree.currentIndex().data() == "4 Governance")
    assert tree.selectionModel().isSelected(tree.currentIndex())


def test_zoom_and_keyboard_navigation(window: MainWindow, report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    wait_open(qtbot, window)
    view = window.viewer.view
    qtbot.waitUntil(lambda: view.was_shown(1))
    fit = view.zoom()
    assert view.fit_mode() == "width" and abs(fit * 612 - (view.viewport().width() - 20)) < 2
    window.findChild(type(window.menuBar().actions()[0]), "actionZoomIn").trigger()
    assert abs(view.zoom() - fit * 1.2) < 1e-6 and view.fit_mode() == ""
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert abs(view.zoom() - fit) < 1e-6
    centre = QPointF(view.viewport().rect().center())
    wheel = QWheelEvent(centre, QPointF(view.viewport().mapToGlobal(centre.toPoint())), QPoint(0, 0), QPoint(0, 240),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier, Qt.ScrollPhase.NoScrollPhase,
                        False)
    QApplication.sendEvent(view.viewport(), wheel)
    assert abs(view.zoom() - fit * 1.44) < 1e-6  # two notches of Ctrl+wheel
    view.set_zoom(fit)
    view.fit_page()
    qtbot.waitUntil(lambda: view.was_shown(1), timeout=TIMEOUT)
    assert view.page_rect(1).height() <= view.viewport().height()
    assert view.renderer.cache.get(view.key, 1, view.render_scale()) is not None
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert view.current_page() == 25
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert view.current_page() == 1
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    assert view.current_page() == 2
    window.viewer.focus_page_box()
    box = window.viewer.page_box
    box.setText("12")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert view.current_page() == 12
    assert box.text() == "12"


def test_find_counts_hits_and_moves_to_them(window: MainWindow, report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    wait_open(qtbot, window)
    bar = window.viewer.find_bar
    view = window.viewer.view
    qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert bar.isVisible() and bar.field.hasFocus()
    qtbot.keyClicks(bar.field, "page 7 of")
    qtbot.waitUntil(lambda: bar.count.text() == "1 of 1", timeout=TIMEOUT)
    assert view.current_page() == 7
    assert view.overlays.current == (7, 0)

    bar.field.setText("interest margin")
    bar.start_search()
    qtbot.waitUntil(lambda: bar.count.text() == "7 of 25", timeout=TIMEOUT)
    assert view.current_page() == 7  # the search starts at the current page; hits count in page order
    qtbot.keyClick(bar.field, Qt.Key.Key_Return)
    assert view.current_page() == 8 and bar.count.text() == "8 of 25"
    qtbot.keyClick(bar.field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(bar.field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert view.current_page() == 6 and bar.count.text() == "6 of 25"
    qtbot.keyClick(bar.field, Qt.Key.Key_Escape)
    assert not bar.isVisible() and view.overlays.hits == {}


def test_show_passage_highlights_the_quoted_text(window: MainWindow, report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    wait_open(qtbot, window)
    view = window.viewer.view
    with qtbot.waitSignal(view.passageShown, timeout=TIMEOUT) as blocker:
        view.show_passage(9, "This is   page 9 of the sample report [Sample, p. 9]")
    assert blocker.args == [9, 1]
    assert view.current_page() == 9
    page, rects = view.overlays.passage  # type: ignore[misc]
    assert page == 9 and 60 < rects[0][0] < 80
    with qtbot.waitSignal(view.passageShown, timeout=TIMEOUT) as blocker:
        view.show_passage(10, "words that are printed nowhere in this document")
    assert blocker.args == [10, 0]


def test_cancelling_a_large_import_leaves_the_library_consistent(window: MainWindow, tmp_path: Path,
                                                                 qtbot) -> None:  # type: ignore[no-untyped-def]
    big = make_pdf(tmp_path / "big.pdf", 2000, words="Lorem ipsum dolor sit amet, consectetur adipiscing elit.")
    small = make_pdf(tmp_path / "small.pdf", 3, chapters=("One",))
    jobs = window.import_paths([big, small], open_when_done=False)
    model = window.library_panel.model
    qtbot.waitUntil(lambda: any(r.status == "importing" and r.total for r in model.rows()), timeout=TIMEOUT)
    row = next(r for r in model.rows() if r.status == "importing")
    view = window.library_panel.view
    index = view.model().index(model.row_for(row.key), 0)
    cancel_at = window.library_panel.delegate.cancel_rect(view.visualRect(index)).center()
    with qtbot.waitSignal(window.worker.jobFinished, timeout=TIMEOUT) as finished:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=cancel_at)
    job, result = finished.args
    assert job is jobs[0] and result.status == "failed" and "cancel" in result.error.lower()
    qtbot.waitUntil(lambda: [r.status for r in model.rows()] == ["failed", "ready"], timeout=TIMEOUT)
    record = window.library.get(result.doc_id)
    assert record is not None and record.status == "failed" and "cancel" in record.error.lower()
    assert window.library.pages(result.doc_id) == [] and window.library.tree(result.doc_id) == []
    assert "cancel" in model.rows()[0].detail().lower()


def test_an_encrypted_pdf_asks_for_its_password(window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    locked = make_pdf(tmp_path / "locked.pdf", 5, chapters=("Secret",), password="s3cret")
    asked: list[str] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QInputDialog):
            asked.append(dialog.labelText())
            dialog.setTextValue("s3cret")
            dialog.accept()
        else:
            QTimer.singleShot(50, answer)

    QTimer.singleShot(50, answer)
    window.import_paths([locked])
    doc_id = wait_open(qtbot, window)
    assert asked and "encrypted" in asked[0]
    assert window.library.get(doc_id).status == "ready"  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: window.viewer.view.was_shown(1), timeout=TIMEOUT)


def test_remove_clears_the_open_document(window: MainWindow, report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    doc_id = wait_open(qtbot, window)
    window.library_panel.select_doc(doc_id)
    assert window.documents.remove(window.library_panel.selected_doc_ids(), confirm=False)
    qtbot.waitUntil(lambda: window.library.get(doc_id) is None and window.library_panel.model.rows() == [],
                    timeout=TIMEOUT)
    qtbot.waitUntil(lambda: window.viewer.view.page_count() == 0 and window.outline.model.rowCount() == 0)


def test_an_image_only_pdf_says_it_has_no_text_layer(window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "scan.pdf"
    doc = pymupdf.open()
    for _ in range(2):
        page = doc.new_page(width=300, height=400)
        page.draw_rect(pymupdf.Rect(20, 20, 280, 380), color=(0, 0, 0), fill=(0.8, 0.8, 0.8))
    doc.save(path)
    window.import_paths([path])
    wait_open(qtbot, window)
    assert window.viewer.note.isVisible() and "no text layer" in window.viewer.note.text()


def test_a_repaired_pdf_shows_its_note_on_its_library_row(window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from tests.core.test_bad_input import damaged_pdf

    window.import_paths([damaged_pdf(tmp_path / "damaged.pdf", 28, (5, 12, 20))])
    qtbot.waitUntil(lambda: [r.status for r in window.library_panel.model.rows()] == ["ready"], timeout=TIMEOUT)
    row = window.library_panel.model.rows()[0]
    assert row.detail().endswith(" · repaired: 25 of 28 pages readable"), row.detail()


def test_geometry_and_splitters_are_remembered(home: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    first = MainWindow(home)
    qtbot.addWidget(first)
    first.show()
    first.resize(760, 560)  # inside the offscreen screen (800x800), so restoreGeometry need not clamp it
    first.splitter.setSizes([150, 150, 300, 150])
    sizes = first.splitter.sizes()
    first.close()
    second = MainWindow(home)
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    try:
        assert second.size() == first.size()
        assert all(abs(a - b) <= 2 for a, b in zip(second.splitter.sizes(), sizes))
    finally:
        second.close()


def test_reindex_recent_menu_and_shortcuts(window: MainWindow, report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    doc_id = wait_open(qtbot, window)
    with qtbot.waitSignal(window.worker.jobFinished, timeout=TIMEOUT) as finished:
        window.documents.reindex([doc_id])
    job, result = finished.args
    assert job.kind == "reindex" and result.status == "ready" and result.page_count == 25
    # the row is refreshed by the libraryChanged/jobsChanged signals queued right after jobFinished
    qtbot.waitUntil(lambda: window.library_panel.model.rows()[0].status == "ready", timeout=TIMEOUT)
    window.fill_recent_menu()
    titles = [a.text() for a in window.recent_menu.actions()]
    assert titles == [window.library.get(doc_id).title]  # type: ignore[union-attr]
    keys = {a.objectName(): a.shortcut().toString() for a in window.actions_list}
    assert keys["actionOpen"] == "Ctrl+O" and keys["actionFind"] == "Ctrl+F" and keys["actionGoToPage"] == "Ctrl+G"
    assert keys["actionZoomIn"] == "Ctrl++" and keys["actionZoomOut"] == "Ctrl+-" and keys["actionQuit"] == "Ctrl+Q"


def test_closing_the_window_during_an_import_stops_everything_quickly(home: Path, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    import time

    big = make_pdf(tmp_path / "big.pdf", 1500, words="Lorem ipsum dolor sit amet.")
    window = MainWindow(home)
    qtbot.addWidget(window)
    window.show()
    window.import_paths([big])
    qtbot.waitUntil(lambda: any(r.status == "importing" and r.total for r in window.library_panel.model.rows()),
                    timeout=TIMEOUT)
    start = time.monotonic()
    window.close()
    assert time.monotonic() - start < 5
    assert not window.worker.isRunning() and not window.renderer.is_running()
    record = window.library.documents()[0]
    assert record.status == "failed" and window.library.pages(record.doc_id) == []


def test_help_dialogs_list_the_shortcuts_and_the_log(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    import logging

    from pageindex_desktop.ui.dialogs import ShortcutsDialog
    from pageindex_desktop.ui.log_view import LogDialog, ring_buffer

    dialog = ShortcutsDialog(window.actions_list, window)
    qtbot.addWidget(dialog)
    table = dialog.findChild(QTableWidget)
    keys = {table.item(r, 0).text(): table.item(r, 1).text() for r in range(table.rowCount())}
    assert keys["Ctrl+F"] == "Find" and keys["Ctrl+G"] == "Go to Page" and "Home / End" in keys
    ring_buffer()
    logging.getLogger("pageindex_desktop.test").warning("a line for the log view")
    log_dialog = LogDialog(None, window)
    qtbot.addWidget(log_dialog)
    assert "a line for the log view" in log_dialog.findChild(QPlainTextEdit).toPlainText()


def _answer_confirmation(button_text: str) -> None:
    """Click a button of the removal question once it is on screen (it runs its own event loop)."""
    from pageindex_desktop.ui.qt import QMessageBox

    def click() -> None:
        boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
        if not boxes:
            QTimer.singleShot(20, click)
            return
        next(b for b in boxes[0].buttons() if b.text().replace("&", "") == button_text).click()

    QTimer.singleShot(20, click)


def test_remove_asks_first_and_cancel_keeps_the_document(window: MainWindow, report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    doc_id = wait_open(qtbot, window)
    _answer_confirmation("Cancel")
    assert window.documents.remove([doc_id]) is False
    assert window.library.get(doc_id) is not None
    _answer_confirmation("Remove")
    assert window.documents.remove([doc_id]) is True
    qtbot.waitUntil(lambda: window.library.get(doc_id) is None, timeout=TIMEOUT)


def test_an_import_a_crash_left_unfinished_shows_as_failed_with_how_to_retry(  # type: ignore[no-untyped-def]
        home: Path, report_pdf: Path, qtbot) -> None:
    """The last session died mid-import: at the next start the store's writer (the import worker, not the
    window thread) turns the row into a failure that says to re-index, and the sidebar shows it."""
    from pageindex_desktop.core.library.store import Library, sha256_of

    library = Library(home)
    doc = library.add_file(report_pdf, sha256_of(report_pdf), "Sample report")
    library.set_status(doc.doc_id, "importing")  # where the import was when the process died
    library.close()
    win = MainWindow(home)
    qtbot.addWidget(win)
    win.show()
    try:
        rows = win.library_panel.model.rows
        qtbot.waitUntil(lambda: [r.status for r in rows()] == ["failed"], timeout=TIMEOUT)
        assert "interrupted" in rows()[0].detail() and "Re-index" in rows()[0].detail()
    finally:
        win.close()
