"""Start-up of `pageindex-desktop [FILE ...]`: logging, QApplication, the main window, files to import."""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pageindex_desktop import __version__
from pageindex_desktop.config import APP_AUTHOR, APP_NAME

if TYPE_CHECKING:
    from pageindex_desktop.ui.file_open import FileOpenFilter
    from pageindex_desktop.ui.main_window import MainWindow
    from pageindex_desktop.ui.qt import QCoreApplication

log = logging.getLogger(__name__)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line left after Qt took its own options: PDF files or folders to import and open."""
    parser = argparse.ArgumentParser(prog="pageindex-desktop", description="PageIndex Desktop: read and ask PDFs.")
    parser.add_argument("files", nargs="*", type=Path, help="PDF files or folders to import; the first one opens")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--smoke-test", action="store_true",
                        help="open the window offscreen, import the bundled sample into a temporary library, "
                             "wait for its first page, print one line of timings and exit (0 = it works)")
    return parser.parse_args(argv)


SWITCH_INTERVAL_S = 0.001


def tune_interpreter() -> None:
    """Hand the GIL over every 1 ms instead of 5 ms: the window's worker threads (render, import, assistant)
    run Python between blocking calls, and the main thread must get back to painting quickly."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)


def setup_logging(level: int = logging.INFO) -> Path:
    """The shared rotating log file (`pageindex_desktop/log.py`, keys masked) plus the in-memory buffer of
    Help ▸ Show Log, which masks keys the same way."""
    from pageindex_desktop.log import RedactSecrets
    from pageindex_desktop.log import setup_logging as setup_log_file
    from pageindex_desktop.ui.log_view import ring_buffer

    path = setup_log_file(level)
    buffer = ring_buffer()
    if not any(isinstance(f, RedactSecrets) for f in buffer.filters):
        buffer.addFilter(RedactSecrets())
    return path


def install_crash_handler() -> None:
    """Uncaught exceptions (any thread) are logged and shown in one non-modal dialog, never a silent exit."""
    from pageindex_desktop.ui.crash_dialog import install_crash_handler as install

    install()


def accept_handed_over_files(window: "MainWindow") -> "FileOpenFilter":
    """Files the system hands over while the app runs (macOS Finder's "Open With" events) are imported and opened
    by the window: the application's event filter says them by signal, start-up connects it to the window."""
    from pageindex_desktop.ui.file_open import accept_file_open_events

    handler = accept_file_open_events(window)
    handler.filesOpened.connect(window.open_handed_over)
    return handler


def _quit_on_signals(app: "QCoreApplication") -> None:
    """Ctrl+C and SIGTERM close the app cleanly (a timer lets the interpreter run its signal handlers)."""
    from pageindex_desktop.ui.qt import QTimer

    def stop(_signum: int, _frame: object) -> None:
        app.quit()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    ticker = QTimer(app)
    ticker.timeout.connect(lambda: None)
    ticker.start(250)


def build_window(argv: list[str], home: Path | None = None) -> "MainWindow":
    """The main window for a command line (`argv[0]` is the program): files given on it are imported (the first
    opens), else the document read last reopens where the reader left it."""
    from pageindex_desktop.ui.main_window import MainWindow

    args = parse_args(argv[1:])
    window = MainWindow(home)
    if args.files:
        window.import_paths(args.files, open_when_done=True)  # the user named them: the first one opens
    else:
        window.reopen_last_document()
    return window


def main(argv: list[str] | None = None) -> int:
    """Entry point of `pageindex-desktop` (the gui script)."""
    multiprocessing.freeze_support()
    tune_interpreter()
    raw = list(sys.argv if argv is None else argv)
    if any(a in ("-h", "--help", "--version") for a in raw[1:]):
        parse_args(raw[1:])  # prints and exits before Qt needs a display
    if "--smoke-test" in raw[1:]:
        from pageindex_desktop.smoke import main as smoke_test

        return smoke_test()
    from pageindex_desktop.display_check import problem

    trouble = problem()  # no desktop, or Qt's X11 plugin cannot load: Qt would abort with a core dump
    if trouble is not None:
        print(trouble, file=sys.stderr)
        return 1
    from pageindex_desktop.ui.qt import QApplication, QCoreApplication

    QCoreApplication.setOrganizationName(APP_AUTHOR)
    QCoreApplication.setApplicationName(APP_NAME)
    app = QApplication(raw)
    app.setApplicationDisplayName("PageIndex Desktop")
    app.setApplicationVersion(__version__)
    path = setup_logging()
    install_crash_handler()
    log.info("PageIndex Desktop %s starting; log file %s", __version__, path)
    from pageindex_desktop.core.errors import PageIndexError

    try:
        window = build_window(app.arguments())
    except PageIndexError as exc:  # a library this version cannot open (written by a newer one): say so, stop
        log.error("the library cannot be opened: %s", exc)
        from pageindex_desktop.ui.qt import QMessageBox

        QMessageBox.critical(None, "PageIndex Desktop", str(exc))
        return 1
    accept_handed_over_files(window)  # macOS: "Open With" from Finder arrives as events, not arguments
    app.aboutToQuit.connect(window.save_settings)  # however the loop ends (Quit, last window, SIGTERM) ...
    app.aboutToQuit.connect(window.shutdown)  # ... threads and child processes stop
    _quit_on_signals(app)
    window.show()
    code = app.exec()
    log.info("exit %d", code)
    return code


if __name__ == "__main__":
    sys.exit(main())
