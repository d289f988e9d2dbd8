"""`pageindex-desktop --smoke-test`: start the real window offscreen, import the shipped sample into a throwaway
library, wait until its first page is painted, print one line of timings and exit 0 (non-zero on any failure).

It exists to check a build (the frozen bundle above all) on a machine without a display: the same window, import
worker, extraction child process and render process as a user gets, never the user's own library or settings.
"""

from __future__ import annotations

import faulthandler
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from pageindex_desktop.config import HOME_ENV

TIMEOUT_S = 60.0
MODEL_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PAGEINDEX_CHAT_MODEL")
HARD_EXIT_GRACE_S = 30.0  # a hung event loop cannot honour the timeout: faulthandler ends the process then


@dataclass
class SmokeRun:
    """What one run saw, in seconds since it started (None: never reached)."""

    started: float = field(default_factory=time.monotonic)
    window: float | None = None
    imported: float | None = None
    opened: float | None = None
    first_page: float | None = None
    pages: int = 0
    error: str = ""

    def mark(self) -> float:
        """Seconds since the start."""
        return time.monotonic() - self.started

    def line(self) -> str:
        """The one line the test prints."""
        def fmt(value: float | None) -> str:
            return "-" if value is None else f"{value:.2f} s"

        head = "smoke-test ok" if not self.error else f"smoke-test FAILED: {self.error}"
        return (f"{head} (window {fmt(self.window)}, import {fmt(self.imported)}, open {fmt(self.opened)}, "
                f"first page {fmt(self.first_page)}, total {fmt(self.mark())}, {self.pages} pages)")


def run_smoke_test(timeout_s: float = TIMEOUT_S, out: TextIO | None = None) -> int:
    """Run the check in this process (creating the QApplication if there is none); 0 when the page showed."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    run = SmokeRun()
    temp = Path(tempfile.mkdtemp(prefix="pageindex-smoke-"))
    saved = {name: os.environ.pop(name, None) for name in (HOME_ENV, *MODEL_ENV)}
    os.environ[HOME_ENV] = str(temp)  # logs and model settings follow the home: nothing lands in the user's
    try:
        _no_model(temp / "library")
        code = _run(run, temp, timeout_s)
    except Exception as exc:  # noqa: BLE001 - any failure is reported as the one line, with a non-zero exit
        run.error = f"{type(exc).__name__}: {exc}"
        code = 1
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(temp, ignore_errors=True)
    stream = out if out is not None else sys.stdout
    if stream is not None:  # a Windows GUI executable has no stdout
        print(run.line(), file=stream, flush=True)
    return code


def _no_model(home: Path) -> None:
    """Settings with no endpoint: with the user's variables unset, an import cannot send the sample to a model
    (the default OpenAI preset would pick up a key the user saved in the keychain)."""
    from pageindex_desktop.core.assistant.settings import ModelSettings, index_endpoint, save_settings

    save_settings(ModelSettings(provider="custom", base_url=""), home)
    if index_endpoint(home=home) is not None:
        raise RuntimeError("the smoke test's library would reach a model")


def _run(run: SmokeRun, temp: Path, timeout_s: float) -> int:
    from pageindex_desktop.ui.qt import QApplication, QSettings, QTimer
    from PySide6.QtCore import QEventLoop  # after ui.qt, which loads the binding first

    from pageindex_desktop.ui.main_window import MainWindow
    from pageindex_desktop.ui.welcome import sample_pdf

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(temp / "settings"))
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "pageindex-desktop"])
    assert isinstance(app, QApplication)
    sample = sample_pdf()
    if sample is None:
        run.error = "the sample PDF is missing from resources/sample"
        return 1
    loop = QEventLoop()
    previous_hook = sys.excepthook  # an error in any slot fails the run at once instead of timing out
    window = MainWindow(temp / "library")
    try:
        window.resize(1200, 800)
        window.show()
        run.window = run.mark()

        def fail(text: str) -> None:
            if not run.error:
                run.error = text
            loop.quit()

        def imported(_doc_id: str) -> None:
            run.imported = run.mark()

        def opened(_key: str) -> None:
            run.opened = run.mark()
            run.pages = window.viewer.view.page_count()

        def painted(page: int) -> None:
            if page == 1 and run.first_page is None:
                run.first_page = run.mark()
                loop.quit()

        window.sync.documentReady.connect(imported)
        window.sync.importFailed.connect(lambda _job, result: fail(f"import failed: {result.error}"))
        window.viewer.documentShown.connect(opened)
        window.viewer.openFailed.connect(lambda _key, error: fail(f"could not show the PDF: {error}"))
        window.viewer.view.pageShown.connect(painted)
        sys.excepthook = lambda kind, value, _tb: fail(f"uncaught {kind.__name__}: {value}")
        if not window.import_paths([sample]):
            run.error = f"nothing to import at {sample}"
            return 1
        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(lambda: fail(f"timed out after {timeout_s:g} s"))
        timer.start(int(timeout_s * 1000))
        if not run.error and run.first_page is None:
            loop.exec()
        timer.stop()
        if run.first_page is None and not run.error:
            run.error = "the event loop ended before the first page was shown"
        if not run.error:
            run.error = _about_problems()
        return 0 if not run.error else 1
    finally:
        sys.excepthook = previous_hook
        window.close()  # stops the import worker, the render process and the extraction children
        window.deleteLater()
        app.processEvents()


def _about_problems() -> str:
    """Help ▸ About in a bundle: every version readable and the licence texts present ('' when all is well)."""
    from pageindex_desktop.ui.about_dialog import component_versions, find_document

    unknown = [name for name, version, _ in component_versions() if version == "unknown"]
    missing = [name for name in ("LICENSE", "THIRD-PARTY-NOTICES.md") if find_document(name) is None]
    if unknown or missing:
        return f"About is incomplete: unknown versions {unknown}, missing files {missing}"
    return ""


def main(argv: list[str] | None = None) -> int:
    """The `--smoke-test` branch of the gui entry point; a hang past the timeout still ends the process."""
    faulthandler.dump_traceback_later(TIMEOUT_S + HARD_EXIT_GRACE_S, exit=True)
    try:
        return run_smoke_test(TIMEOUT_S)
    finally:
        faulthandler.cancel_dump_traceback_later()
