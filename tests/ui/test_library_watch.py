"""The window sees what other processes write to its library: a CLI import, and a CLI remove, show up in the
sidebar within seconds, without a restart or a click."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pageindex_desktop.ui.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 30_000


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PAGEINDEX_DESKTOP_HOME": str(home), "PYTHONPATH": str(ROOT)}
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PAGEINDEX_CHAT_MODEL"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "pageindex_desktop.cli", *args], env=env, capture_output=True,
                          text=True, timeout=120)


def test_a_cli_import_and_remove_appear_in_the_open_window(window: MainWindow, home: Path, report_pdf: Path,
                                                           qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.library_panel.model.rows() == []
    done = cli(home, "import", str(report_pdf), "--json")
    assert done.returncode == 0, done.stderr
    qtbot.waitUntil(lambda: [(r.status, r.page_count) for r in window.library_panel.model.rows()] == [("ready", 25)],
                    timeout=TIMEOUT)
    doc_id = window.library_panel.model.rows()[0].doc_id
    gone = cli(home, "remove", doc_id)
    assert gone.returncode == 0, gone.stderr
    qtbot.waitUntil(lambda: window.library_panel.model.rows() == [], timeout=TIMEOUT)
