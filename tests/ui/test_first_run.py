"""Issue 5 in the window: the first-run welcome, the sample document, Help's About and file locations,
the crash dialog, and `--smoke-test`."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pageindex_desktop.ui.main_window import MainWindow
from pageindex_desktop.ui.qt import QApplication, QLabel, QPlainTextEdit, QPushButton, QTextBrowser
from tests.ui.conftest import make_pdf

TIMEOUT = 30_000
ROOT = Path(__file__).resolve().parents[2]


def welcome_visible(window: MainWindow) -> bool:
    return window.welcome.panel.isVisible()


def test_welcome_shows_on_an_empty_library_and_hides_once_a_document_opens(  # type: ignore[no-untyped-def]
        window: MainWindow, tmp_path: Path, qtbot) -> None:
    panel = window.welcome.panel
    assert welcome_visible(window)
    assert panel.geometry() == window.viewer.view.geometry()  # lies over the page view, not the toolbar
    labels = {b.text() for b in panel.findChildren(QPushButton)}
    assert {"Open PDF…", "Try a sample document", "Set up a model"} <= labels
    assert not window.viewer.page_box.isEnabled() and not window.viewer.zoom_box.isEnabled()  # nothing to act on
    window.import_paths([make_pdf(tmp_path / "a.pdf", 6, chapters=("One", "Two"))])
    qtbot.waitUntil(lambda: bool(window.current_doc) and window.viewer.view.page_count() > 0, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not welcome_visible(window), timeout=5000)
    assert window.viewer.page_box.isEnabled() and window.viewer.zoom_box.isEnabled()
    window.documents.remove([window.current_doc], confirm=False)  # the library is empty again
    qtbot.waitUntil(lambda: welcome_visible(window), timeout=TIMEOUT)
    assert window.library.documents() == [] and window.current_doc == ""
    assert not window.viewer.page_box.isEnabled()


def test_welcome_stays_hidden_when_the_library_has_documents(  # type: ignore[no-untyped-def]
        home: Path, tmp_path: Path, qtbot) -> None:
    first = MainWindow(home)
    qtbot.addWidget(first)
    first.import_paths([make_pdf(tmp_path / "b.pdf", 4, chapters=("One",))], open_when_done=False)
    qtbot.waitUntil(lambda: [r.status for r in first.library.documents()] == ["ready"], timeout=TIMEOUT)
    qtbot.waitUntil(lambda: first.welcome.panel.isHidden(), timeout=5000)
    first.close()
    second = MainWindow(home)  # a later start: nothing open, but the library is not empty
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    assert not welcome_visible(second)
    assert second.welcome.hint.isVisible() and "library" in second.welcome.hint.text()  # says what to do
    second.open_document(second.library.documents()[0].doc_id)
    qtbot.waitUntil(lambda: second.welcome.hint.isHidden(), timeout=TIMEOUT)
    second.close()


def test_sample_button_imports_and_opens_the_sample(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    from pageindex_desktop.ui.welcome import sample_pdf

    sample = sample_pdf()
    assert sample is not None and sample.parent == ROOT / "resources" / "sample"
    button = window.welcome.panel.sample_button
    assert button.isEnabled()
    button.click()
    assert window.welcome.panel.status.text() == "Importing the sample document…" and not button.isEnabled()
    qtbot.waitUntil(lambda: window.viewer.view.was_shown(1), timeout=TIMEOUT)
    record = window.library.get(window.current_doc)
    assert record is not None and record.page_count == 28 and record.file_name == sample.name
    assert window.outline.model.rowCount() > 0  # its bookmarks became the outline
    qtbot.waitUntil(lambda: not welcome_visible(window), timeout=5000)


def test_set_up_a_model_opens_the_model_settings(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    from pageindex_desktop.ui.assistant.settings_dialog import SettingsDialog

    window.welcome.panel.model_button.click()
    qtbot.waitUntil(lambda: any(isinstance(w, SettingsDialog) and w.isVisible()
                                for w in QApplication.topLevelWidgets()), timeout=5000)
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, SettingsDialog) and w.isVisible())
    dialog.reject()
    qtbot.waitUntil(lambda: not dialog.isVisible() if _alive(dialog) else True, timeout=5000)


def _alive(widget: object) -> bool:
    try:
        widget.isVisible()  # type: ignore[attr-defined]
    except RuntimeError:  # deleted on close
        return False
    return True


def test_about_lists_versions_and_licences(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    import platform

    import pymupdf
    import PySide6
    from PySide6.QtCore import qVersion

    from pageindex_desktop import __version__
    from pageindex_desktop.ui.about_dialog import AboutDialog, TextFileDialog

    dialog = AboutDialog(window)
    qtbot.addWidget(dialog)
    text = dialog.findChild(QTextBrowser, "aboutText").toPlainText()
    for expected in (f"PageIndex Desktop {__version__}", platform.python_version(), qVersion(), PySide6.__version__,
                     pymupdf.VersionBind, pymupdf.VersionFitz, "AGPL-3.0-or-later", "LGPL-3.0"):
        assert expected in text, expected
    dialog.findChild(QPushButton, "aboutLicence").click()
    shown = dialog.file_dialog
    assert isinstance(shown, TextFileDialog)
    assert "GNU AFFERO GENERAL PUBLIC LICENSE" in shown.text.toPlainText()
    dialog.findChild(QPushButton, "aboutCopy").click()
    assert f"PageIndex Desktop {__version__} (AGPL-3.0-or-later)" in QApplication.clipboard().text()
    assert window.findChild(type(window.actions_list[0]), "actionLocations") is not None


def test_where_files_are_names_the_real_folders(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    from pageindex_desktop.config import log_dir
    from pageindex_desktop.ui.locations_dialog import LocationsDialog, file_locations

    places = {what: folder for what, folder, _ in file_locations(window.home)}
    assert places["Library"] == window.home and places["Logs"] == log_dir()
    assert places["Model settings"] == window.home  # settings.json sits in the library home
    dialog = LocationsDialog(window.home, window)
    qtbot.addWidget(dialog)
    texts = [w.text() for w in dialog.findChildren(QLabel)]
    assert any(str(window.home) in t for t in texts) and any(str(log_dir()) in t for t in texts)
    assert set(dialog.buttons) == {"Library", "Logs", "Model settings", "Window settings"}


@pytest.fixture
def reporter(qapp):  # type: ignore[no-untyped-def]
    """The app's crash handler, installed for one test and removed after it."""
    from pageindex_desktop.ui.crash_dialog import install_crash_handler, uninstall_crash_handler

    yield install_crash_handler()
    uninstall_crash_handler()


def _raise_and_report(message: str) -> None:
    try:
        raise ValueError(message)
    except ValueError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)


def test_uncaught_exception_shows_one_dialog_with_copyable_details(reporter, qtbot, caplog) -> None:  # type: ignore[no-untyped-def]
    _raise_and_report("the first failure")
    qtbot.waitUntil(lambda: reporter.dialog is not None and reporter.dialog.isVisible(), timeout=5000)
    dialog = reporter.dialog
    assert not dialog.isModal()  # the window stays usable
    assert "ValueError: the first failure" in dialog.message.text()
    assert "uncaught exception" in caplog.text and "the first failure" in caplog.text
    for _ in range(5):  # a storm: still one dialog, the repeats counted
        _raise_and_report("the first failure")
    qtbot.waitUntil(lambda: dialog.count == 6, timeout=5000)
    assert reporter.dialog is dialog and dialog.repeats.text() == "This error happened 6 times."
    dialog.copy_button.click()
    copied = QApplication.clipboard().text()
    assert copied.startswith("Traceback (most recent call last):") and "_raise_and_report" in copied
    assert "ValueError: the first failure" in copied
    dialog.close()
    qtbot.waitUntil(lambda: reporter.dialog is None, timeout=5000)


def test_exception_in_a_worker_thread_reaches_the_gui_thread(reporter, qtbot) -> None:  # type: ignore[no-untyped-def]
    shown_in: list[bool] = []
    original = reporter._show

    def spy(summary: str, details: str) -> None:
        shown_in.append(threading.current_thread() is threading.main_thread())
        original(summary, details)

    reporter.reported.disconnect()
    from pageindex_desktop.ui.qt import Qt

    reporter.reported.connect(spy, Qt.ConnectionType.QueuedConnection)

    def boom() -> None:
        raise RuntimeError("worker broke")

    thread = threading.Thread(target=boom, name="test-worker")
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: reporter.dialog is not None, timeout=5000)
    assert shown_in == [True]
    assert "RuntimeError: worker broke" in reporter.dialog.message.text()
    assert "In thread test-worker" in reporter.dialog.findChild(QPlainTextEdit, "crashDetails").toPlainText()


def test_smoke_test_in_process_never_reaches_a_model(qapp, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Even with a model configured in the environment, the smoke test's import has no endpoint to send to."""
    import os

    from pageindex_desktop.smoke import run_smoke_test
    from pageindex_desktop.ui import workers

    endpoints: list[object] = []
    real = workers.index_endpoint

    def recording(*args: object, **kwargs: object) -> object:
        endpoints.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return endpoints[-1]

    monkeypatch.setattr(workers, "index_endpoint", recording)
    url = "http://127.0.0.1:9/v1"  # nothing listens there; a request would only fail
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setenv("PAGEINDEX_CHAT_MODEL", "any-model")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert run_smoke_test(timeout_s=60) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("smoke-test ok (") and "28 pages" in line and "\n" not in line
    assert endpoints == [None]  # the import asked once whether to write summaries, and there was no model
    assert os.environ["OPENAI_BASE_URL"] == url  # the user's environment is put back


def test_smoke_test_command_exits_zero_without_a_display(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}  # no DISPLAY, no QT_QPA_PLATFORM
    done = subprocess.run([sys.executable, "-m", "pageindex_desktop", "--smoke-test"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("\n") == 1 and done.stdout.startswith("smoke-test ok")
    assert not (tmp_path / ".local").exists() and not (tmp_path / ".config").exists()  # the user's dirs untouched


@pytest.mark.qt_log_ignore("does not support raise", "propagateSizeHints")  # offscreen platform limits
def test_a_file_handed_over_by_the_system_is_imported_and_opened(  # type: ignore[no-untyped-def]
        window: MainWindow, report_pdf: Path, qtbot) -> None:
    from PySide6.QtGui import QFileOpenEvent

    from pageindex_desktop.app import accept_handed_over_files

    handler = accept_handed_over_files(window)  # the filter's signal, connected as app start-up does
    try:
        assert QApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(report_pdf)))
        qtbot.waitUntil(lambda: window.viewer.view.was_shown(1), timeout=TIMEOUT)
        record = window.library.get(window.current_doc)
        assert record is not None and record.file_name == report_pdf.name
    finally:
        QApplication.instance().removeEventFilter(handler)


def test_smoke_test_timeout_fails_with_one_line_and_stops_everything(qapp, capsys) -> None:  # type: ignore[no-untyped-def]
    from pageindex_desktop.smoke import run_smoke_test

    assert run_smoke_test(timeout_s=0.05) == 1  # the import cannot finish in 50 ms: the window closes mid-import
    out = capsys.readouterr().out
    assert out.startswith("smoke-test FAILED: timed out after") and out.count("\n") == 1


def test_exception_in_a_qt_slot_is_reported_and_the_loop_goes_on(reporter, qtbot) -> None:  # type: ignore[no-untyped-def]
    from pageindex_desktop.ui.qt import QTimer

    after: list[bool] = []

    def slot() -> None:
        raise KeyError("missing-entry")

    QTimer.singleShot(0, slot)
    QTimer.singleShot(20, lambda: after.append(True))  # the event loop keeps running after the error
    qtbot.waitUntil(lambda: reporter.dialog is not None and bool(after), timeout=5000)
    assert "KeyError: 'missing-entry'" in reporter.dialog.message.text()
