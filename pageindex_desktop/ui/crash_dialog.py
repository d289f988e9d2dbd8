"""Uncaught exceptions: logged with their traceback and shown in one non-modal dialog; the app keeps running.

`sys.excepthook` (exceptions in the main thread and in Qt slots) and `threading.excepthook` (Python threads)
both hand the error to a `CrashReporter` living in the GUI thread through a queued signal, so a worker thread
never touches a widget. While the dialog is open, further errors are added to it and counted instead of
opening a dialog each (an error in a paint or timer slot would otherwise open hundreds).
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from types import TracebackType

from pageindex_desktop.ui.qt import (
    QCoreApplication,
    QDialog,
    QDialogButtonBox,
    QGuiApplication,
    QLabel,
    QObject,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)

log = logging.getLogger(__name__)

MAX_KEPT = 20  # tracebacks kept for "Copy details" while one dialog is open


def summary_of(value: BaseException) -> str:
    """One line for the dialog: the exception type and its message."""
    text = str(value).strip().splitlines()[0] if str(value).strip() else ""
    return f"{type(value).__name__}: {text}" if text else type(value).__name__


class CrashDialog(QDialog):
    """The summary of an unexpected error, its traceback, "Copy details" and Close."""

    def __init__(self, summary: str, details: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("crashDialog")
        self.setWindowTitle("Unexpected error")
        self.setModal(False)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.resize(640, 420)
        self.errors: list[tuple[str, str]] = []
        self.count = 0
        icon = QLabel(self)
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical).pixmap(32, 32))
        self.message = QLabel(self)
        self.message.setObjectName("crashSummary")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.repeats = QLabel("", self)
        self.repeats.setObjectName("crashRepeats")
        self.details = QPlainTextEdit(self)
        self.details.setObjectName("crashDetails")
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        buttons = QDialogButtonBox(self)
        self.copy_button = QPushButton("Copy details", self)
        self.copy_button.setObjectName("crashCopy")
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.setDefault(True)
        self.copy_button.clicked.connect(self.copy_details)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(icon)
        layout.addWidget(self.message)
        layout.addWidget(self.repeats)
        layout.addWidget(self.details, 1)
        layout.addWidget(buttons)
        self.add(summary, details)

    def add(self, summary: str, details: str) -> None:
        """Record one more error; the first one stays the headline, later ones are counted."""
        self.count += 1
        if len(self.errors) < MAX_KEPT:
            self.errors.append((summary, details))
        first = self.errors[0][0]
        self.message.setText(f"<b>Something went wrong:</b> {_escape(first)}<br>The app keeps running; the "
                             "details are also in the log (Help ▸ Show Log). If this keeps happening, save your "
                             "work and restart, and please report it with the details.")
        if self.count > 1:
            same = all(s == first for s, _ in self.errors)
            self.repeats.setText(f"This error happened {self.count} times." if same
                                 else f"{self.count - 1} more error(s) happened since; the details list them all.")
        self.details.setPlainText(self.details_text())

    def details_text(self) -> str:
        """Every kept traceback, the first first (what "Copy details" copies)."""
        parts = [details.rstrip() for _, details in self.errors]
        dropped = self.count - len(self.errors)
        if dropped > 0:
            parts.append(f"... and {dropped} more (see the log)")
        return "\n\n".join(parts) + "\n"

    def copy_details(self) -> None:
        """Put the tracebacks on the clipboard, ready to paste into a bug report."""
        QGuiApplication.clipboard().setText(self.details_text())
        self.copy_button.setText("Copied")


class CrashReporter(QObject):
    """Lives in the GUI thread; turns reports from any thread into at most one open dialog."""

    reported = Signal(str, str)  # summary, traceback text

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dialog: CrashDialog | None = None
        self.reported.connect(self._show, Qt.ConnectionType.QueuedConnection)

    def report(self, kind: type[BaseException], value: BaseException, tb: TracebackType | None,
               where: str = "") -> None:
        """Log the traceback now (any thread) and show it later in the GUI thread."""
        details = "".join(traceback.format_exception(kind, value, tb))
        if where:
            details = f"In thread {where}:\n{details}"
        log.error("uncaught exception%s:\n%s", f" in thread {where}" if where else "", details)
        self.reported.emit(summary_of(value), details)

    def _show(self, summary: str, details: str) -> None:
        if self.dialog is not None:
            self.dialog.add(summary, details)
            return
        app = QCoreApplication.instance()
        parent = getattr(app, "activeWindow", lambda: None)() if app is not None else None
        dialog = CrashDialog(summary, details, parent)
        dialog.destroyed.connect(self._forget)
        dialog.finished.connect(self._forget)
        self.dialog = dialog
        dialog.show()

    def _forget(self, *_args: object) -> None:
        self.dialog = None


_reporter: CrashReporter | None = None
_previous: tuple[object, object] | None = None


def install_crash_handler() -> CrashReporter:
    """Route uncaught exceptions of every thread to the log and the dialog (call once a QApplication exists)."""
    global _reporter, _previous
    if _reporter is not None:
        return _reporter
    reporter = CrashReporter(QCoreApplication.instance())
    previous_sys, previous_thread = sys.excepthook, threading.excepthook

    def sys_hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            previous_sys(kind, value, tb)
            return
        reporter.report(kind, value, tb)

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None or issubclass(args.exc_type, SystemExit):
            return
        name = args.thread.name if args.thread is not None else "?"
        reporter.report(args.exc_type, args.exc_value, args.exc_traceback, where=name)

    sys.excepthook = sys_hook
    threading.excepthook = thread_hook
    _reporter, _previous = reporter, (previous_sys, previous_thread)
    return reporter


def uninstall_crash_handler() -> None:
    """Put back the hooks that were there before (tests; the app keeps its handler until exit)."""
    global _reporter, _previous
    if _previous is not None:
        sys.excepthook, threading.excepthook = _previous  # type: ignore[assignment]
    if _reporter is not None and _reporter.dialog is not None:
        _reporter.dialog.close()
    _reporter, _previous = None, None


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
