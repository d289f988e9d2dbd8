"""Nothing steals the page (issue 12): imports, password prompts and re-indexes leave the document being read
where it is, and the keyboard still drives it; only a file the user asked to read opens."""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QApplication, QInputDialog, Qt, QTimer
from tests.ui.conftest import make_pdf
from tests.ui.test_library_watch import cli
from tests.ui.test_window import TIMEOUT, drop, wait_open


def answer_password(password: str, asked: list[str]) -> None:
    """Type `password` into the next password prompt when it appears (a modal dialog blocks the test)."""

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QInputDialog):
            asked.append(dialog.labelText())
            dialog.setTextValue(password)
            dialog.accept()
        else:
            QTimer.singleShot(50, answer)

    QTimer.singleShot(50, answer)


def go_to_page_by_keyboard(window: MainWindow, qtbot, page: int) -> None:  # type: ignore[no-untyped-def]
    """Ctrl+G, type the number, Enter: as a reader does."""
    view = window.viewer.view
    qtbot.keyClick(view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    box = window.viewer.page_box
    assert box.hasFocus()
    box.selectAll()
    qtbot.keyClicks(box, str(page))
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.current_page() == page, timeout=TIMEOUT)


def test_a_folder_import_with_a_password_leaves_the_reader_on_their_page(
        window: MainWindow, home: Path, report_pdf: Path, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert drop(window, [report_pdf])  # one dropped file: the user asked to read it
    doc_id = wait_open(qtbot, window)
    view = window.viewer.view
    qtbot.waitUntil(lambda: view.was_shown(1), timeout=TIMEOUT)
    view.setFocus()
    go_to_page_by_keyboard(window, qtbot, 7)
    title = window.windowTitle()

    folder = tmp_path / "filings"
    folder.mkdir()
    make_pdf(folder / "alpha.pdf", 6, chapters=("Alpha",))
    make_pdf(folder / "beta.pdf", 4, chapters=("Beta",))
    make_pdf(folder / "gamma-locked.pdf", 5, chapters=("Gamma",), password="s3cret")
    asked: list[str] = []
    answer_password("s3cret", asked)
    assert drop(window, [folder])
    rows = window.library_panel.model.rows
    qtbot.waitUntil(lambda: len(rows()) == 4 and all(r.status == "ready" for r in rows())
                    and not window.worker.jobs(), timeout=TIMEOUT)
    assert asked and "gamma-locked.pdf" in asked[0]
    assert window.current_doc == doc_id and view.key == doc_id and window.windowTitle() == title
    assert view.current_page() == 7

    # a re-index of the open document and an import by the CLI in another process leave it there too
    window.documents.reindex([doc_id])
    other = make_pdf(tmp_path / "cli-import.pdf", 3, chapters=("Elsewhere",))
    assert cli(home, "import", str(other)).returncode == 0
    qtbot.waitUntil(lambda: len(rows()) == 5 and all(r.status == "ready" for r in rows())
                    and not window.worker.jobs(), timeout=TIMEOUT)
    assert window.current_doc == doc_id and view.key == doc_id and view.current_page() == 7

    # the keyboard is still the reader's: PageDown goes to the focused page view and moves it
    focused = QApplication.focusWidget()
    assert focused is view
    before = view.verticalScrollBar().value()
    qtbot.keyClick(focused, Qt.Key.Key_PageDown)
    assert view.verticalScrollBar().value() > before and view.current_page() in (7, 8) and view.key == doc_id


def test_a_folder_into_an_empty_window_opens_its_first_ready_document(window: MainWindow, tmp_path: Path,
                                                                      qtbot) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "filings"
    folder.mkdir()
    make_pdf(folder / "alpha.pdf", 6, chapters=("Alpha",))
    make_pdf(folder / "beta.pdf", 4, chapters=("Beta",))
    assert drop(window, [folder])
    doc_id = wait_open(qtbot, window)
    qtbot.waitUntil(lambda: not window.worker.jobs(), timeout=TIMEOUT)
    assert window.current_doc == doc_id  # the second one did not replace the first
    assert window.library.get(doc_id).file_name == "alpha.pdf"  # type: ignore[union-attr]
