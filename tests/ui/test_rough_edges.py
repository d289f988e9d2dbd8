"""Everyday rough edges: a page that does not exist says so, and file dialogs start where the user last was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QFileDialog, QStandardPaths
from tests.ui.test_window import wait_open

TIMEOUT = 30_000


def test_a_typed_page_past_the_end_or_an_unknown_label_is_said_not_clamped_silently(
        window: MainWindow, report_pdf: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    wait_open(qtbot, window)
    box = window.viewer.page_box
    for typed in ("900", "zz"):
        qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(box.hasFocus, timeout=TIMEOUT)
        box.selectAll()
        qtbot.keyClicks(box, typed)
        qtbot.keyClick(box, Qt.Key.Key_Return)
        said = window.statusBar().currentMessage()
        if typed == "900":
            assert said == "There is no page 900: this document has 25 pages, so it shows the last."
            qtbot.waitUntil(lambda: window.viewer.view.current_page() == 25, timeout=TIMEOUT)
        else:
            assert said == "No page is numbered or labelled “zz”; type a number from 1 to 25."
            assert window.viewer.view.current_page() == 25  # stays where it was
    assert "printed page label" in box.toolTip()


def test_file_dialogs_start_in_the_folder_last_chosen_from(window: MainWindow, report_pdf: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def choose(parent: Any, caption: str, folder: str, filters: str) -> tuple[list[str], str]:
        asked.append(folder)
        return [str(report_pdf)], filters

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(choose))
    monkeypatch.setattr(window, "import_paths", lambda paths, open_when_done=True: [])
    window.documents.choose_files()
    window.documents.choose_files()
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    assert asked[0] in {documents, str(Path.home())}  # the Documents folder (or home), not the working directory
    assert Path(asked[1]) == report_pdf.parent  # then where the last file was chosen from


def test_a_reindex_is_named_by_title_and_a_cancelled_one_says_the_old_index_is_kept(
        window: MainWindow, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.conftest import make_pdf

    long_pdf = make_pdf(tmp_path / "long-report.pdf", 600, words="Segment revenue rose in every region this year.")
    window.import_paths([long_pdf])
    doc_id = wait_open(qtbot, window)
    said: list[str] = []
    window.statusBar().messageChanged.connect(said.append)
    cancelled: list[bool] = []

    def cancel_once(job: Any) -> None:
        if job.kind == "reindex" and job.stage == "extracting" and not cancelled:
            cancelled.append(window.worker.cancel(doc_id=doc_id))

    # cancelled in the worker thread as the re-index starts reading (a direct connection), so it cannot end
    # first: waiting for a page count above 0 raced a fast re-index, whose reading progress is throttled
    # away, and the cancel came after the result was saved (about one run in eight)
    window.worker.progress.connect(cancel_once, Qt.ConnectionType.DirectConnection)
    window.documents.reindex([doc_id])
    qtbot.waitUntil(lambda: any("previous index is kept" in m for m in said), timeout=60_000)
    assert cancelled == [True]
    assert not any(doc_id in m for m in said)  # never the raw id
    title = window.library.get(doc_id).title  # type: ignore[union-attr]
    assert any(m.startswith(f"Re-indexing {title}: ") for m in said), said  # its title, as the library row says
    assert not any(m.startswith(f"{title}: ready") for m in said)  # it did not re-index


def test_removing_the_open_document_clears_its_page_from_the_status_bar(window: MainWindow, report_pdf: Path,
                                                                        qtbot) -> None:  # type: ignore[no-untyped-def]
    window.import_paths([report_pdf])
    doc_id = wait_open(qtbot, window)
    window.viewer.go_to_page(3)
    qtbot.waitUntil(lambda: window.page_status.text() == "Page 3 of 25", timeout=TIMEOUT)
    window.documents.remove([doc_id], confirm=False)
    qtbot.waitUntil(lambda: not window.current_doc and not window.library.documents(), timeout=TIMEOUT)
    assert window.page_status.text() == "" and window.windowTitle() == "PageIndex Desktop"


def test_the_find_position_is_shown_once_counted_so_it_never_renumbers(window: MainWindow, report_pdf: Path,
                                                                       qtbot, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
                                                                       ) -> None:
    window.import_paths([report_pdf])
    wait_open(qtbot, window)
    bar, view = window.viewer.find_bar, window.viewer.view
    view.go_to_page(12)
    qtbot.waitUntil(lambda: view.current_page() == 12, timeout=TIMEOUT)
    shown: list[str] = []
    original = bar.count.setText
    monkeypatch.setattr(bar.count, "setText", lambda text: (shown.append(text), original(text)))
    qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(bar.field, "interest margin")
    qtbot.waitUntil(lambda: bar.count.text() == "12 of 25", timeout=TIMEOUT)  # from page 12 on, in page order
    positions = [t for t in shown if " of " in t]
    assert positions == ["12 of 25"]  # no earlier "5 of 12+" that later became another number
    assert all(t in ("", "12 of 25") or t.endswith("+ hits") or t.startswith("Searching…") for t in shown), shown


def test_two_documents_with_one_title_show_their_file_names(window: MainWindow, tmp_path: Path,
                                                            qtbot) -> None:  # type: ignore[no-untyped-def]
    import pymupdf

    paths = []
    for name, pages in (("manual-v1.pdf", 3), ("manual-v2.pdf", 4)):
        doc = pymupdf.open()
        for n in range(pages):
            doc.new_page().insert_text((72, 72), f"{name} page {n + 1}. Installation and setup.", fontsize=11)
        doc.set_metadata({"title": "User Manual"})
        doc.save(tmp_path / name)
        paths.append(tmp_path / name)
    window.import_paths(paths)
    qtbot.waitUntil(lambda: [r.status for r in window.library_panel.model.rows()] == ["ready", "ready"],
                    timeout=TIMEOUT)
    rows = window.library_panel.model.rows()
    assert [r.title for r in rows] == ["User Manual", "User Manual"]
    assert [r.detail().split(" · ")[0] for r in rows] == ["manual-v1.pdf", "manual-v2.pdf"]


def test_f2_renames_a_document_everywhere_and_a_reindex_keeps_the_name(window: MainWindow, report_pdf: Path,
                                                                       qtbot, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
                                                                       ) -> None:
    from pageindex_desktop.core.assistant.tools import ToolBox
    from pageindex_desktop.ui.qt import QInputDialog

    window.import_paths([report_pdf])
    doc_id = wait_open(qtbot, window)
    asked: list[str] = []

    def type_title(parent: Any, caption: str, label: str, mode: Any, text: str) -> tuple[str, bool]:
        asked.append(text)
        return "  2023 Annual   Report ", True

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(type_title))
    view = window.library_panel.view
    view.setCurrentIndex(view.model().index(0, 0))
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F2)
    qtbot.waitUntil(lambda: window.library_panel.model.rows()[0].title == "2023 Annual Report", timeout=TIMEOUT)
    assert asked and asked[0] != "2023 Annual Report"  # the dialog opened with the old title
    qtbot.waitUntil(lambda: window.windowTitle() == "2023 Annual Report — PageIndex Desktop", timeout=TIMEOUT)
    assert window.viewer.title_label.text() == "2023 Annual Report"
    structure = ToolBox(window.library, frozenset({doc_id})).call("get_document_structure", f'{{"doc": "{doc_id}"}}')
    assert "2023 Annual Report" in structure  # the assistant's tools, and so its citations, use the new title
    window.documents.reindex([doc_id])
    qtbot.waitUntil(lambda: not window.worker.jobs(), timeout=TIMEOUT)
    assert window.library.get(doc_id).title == "2023 Annual Report"  # type: ignore[union-attr]


def test_the_outline_folding_is_kept_per_document_and_across_a_restart(window: MainWindow, report_pdf: Path,
                                                                       tmp_path: Path, home: Path,
                                                                       qtbot) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.test_outline_keyboard import find, nested_pdf

    nested = nested_pdf(tmp_path / "nested.pdf")
    window.import_paths([nested, report_pdf])
    qtbot.waitUntil(lambda: [r.status for r in window.library_panel.model.rows()] == ["ready", "ready"],
                    timeout=TIMEOUT)
    first, second = (r.doc_id for r in window.library_panel.model.rows())
    window.open_document(first)
    qtbot.waitUntil(lambda: window.current_doc == first and window.outline.model.rowCount() == 3, timeout=TIMEOUT)
    tree = window.outline.view
    assert all(tree.isExpanded(find(tree, t)) for t in ("1 Business", "2 Risk Factors", "3 Outlook"))  # usual
    tree.collapse(find(tree, "2 Risk Factors"))  # the reader folds one section away
    window.open_document(second)
    qtbot.waitUntil(lambda: window.current_doc == second, timeout=TIMEOUT)
    window.open_document(first)
    qtbot.waitUntil(lambda: window.current_doc == first and window.outline.model.rowCount() == 3, timeout=TIMEOUT)
    tree = window.outline.view
    assert [tree.isExpanded(find(tree, t)) for t in ("1 Business", "2 Risk Factors", "3 Outlook")] == [
        True, False, True]
    window.close()
    again = MainWindow(home)
    qtbot.addWidget(again)
    again.show()
    again.open_document(first)
    qtbot.waitUntil(lambda: again.current_doc == first and again.outline.model.rowCount() == 3, timeout=TIMEOUT)
    tree = again.outline.view
    assert [tree.isExpanded(find(tree, t)) for t in ("1 Business", "2 Risk Factors", "3 Outlook")] == [
        True, False, True]  # after a restart too
    again.close()
