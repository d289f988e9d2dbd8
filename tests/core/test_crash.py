"""kill -9 at seeded random points of a CLI import and remove: the library stays consistent, the document next to
it is untouched, nothing in `files/` lacks a row after the next start, and the killed work can be retried.

The kill points are drawn from a fixed seed over the command's own measured duration, so each run kills at
different stages (hashing and copying, extraction, the save) but the same ones every time.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pageindex_desktop.core.ingest.indexer import import_pdf
from pageindex_desktop.core.library.store import Library
from tests.conftest import corpus_file

ROOT = Path(__file__).resolve().parents[2]
SEED = 13
KILLS = 4
TARGET = "financebench__AES_2020_10K.pdf"  # 203 pages: long enough to be killed at several stages
NEIGHBOUR = "financebench__PFIZER_2023Q2_EARNINGS.pdf"

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")


def start(home: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PAGEINDEX_DESKTOP_HOME": str(home), "PYTHONPATH": str(ROOT)}
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PAGEINDEX_CHAT_MODEL"):
        env.pop(name, None)
    return subprocess.Popen([sys.executable, "-m", "pageindex_desktop.cli", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    child = start(home, *args)
    out, err = child.communicate(timeout=180)
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def kill_at(home: Path, delay: float, *args: str) -> None:
    child = start(home, *args)
    time.sleep(delay)  # the kill point itself (drawn from the seed), not a wait for something to happen
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=60)
    for leftover in _children_of(child.pid):
        os.kill(leftover, signal.SIGKILL)  # an extraction child would outlive its parent for a moment


def _children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


def assert_consistent(home: Path, neighbour: tuple[str, int]) -> dict[str, str]:
    """Integrity, FTS and foreign keys hold; the neighbour keeps every page; each file in files/ has its row
    (after a start, which sweeps). Returns doc id → status."""
    assert finish(home, "list").returncode == 0  # a start: recovery and the sweep run here
    with sqlite3.connect(home / "library.sqlite3") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("INSERT INTO pages_fts(pages_fts) VALUES ('integrity-check')").fetchall() == []
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        doc_id, pages = neighbour
        assert conn.execute("SELECT count(*) FROM pages WHERE doc_id = ?", (doc_id,)).fetchone()[0] == pages
        assert conn.execute("SELECT status FROM documents WHERE id = ?", (doc_id,)).fetchone()[0] == "ready"
        rows = dict(conn.execute("SELECT sha256, status FROM documents").fetchall())
        statuses = dict(conn.execute("SELECT id, status FROM documents").fetchall())
        for doc, status in statuses.items():
            stored = conn.execute("SELECT count(*) FROM pages WHERE doc_id = ?", (doc,)).fetchone()[0]
            assert status != "importing" and (status == "ready") == (stored > 0), (doc, status, stored)
    for entry in (home / "files").iterdir():
        assert entry.suffix == ".pdf" and entry.stem in rows, f"{entry.name} has no row"
    return statuses


def test_kill_9_during_import_and_remove_loses_nothing(home: Path) -> None:
    rng = random.Random(SEED)
    target = corpus_file(TARGET)
    with Library(home) as library:
        settled = import_pdf(library, corpus_file(NEIGHBOUR))
    neighbour = (settled.doc_id, settled.page_count)
    started = time.monotonic()
    assert finish(home, "import", str(target), "--no-summaries").returncode == 0
    took = time.monotonic() - started
    with Library(home) as library:  # measured: now start again from the neighbour alone
        for doc in library.documents():
            if doc.doc_id != neighbour[0]:
                library.remove(doc.doc_id)
    outcomes = []
    for _ in range(KILLS):
        kill_at(home, rng.uniform(0.05, took), "import", str(target), "--no-summaries")
        statuses = assert_consistent(home, neighbour)
        outcomes.append(sorted(status for doc, status in statuses.items() if doc != neighbour[0]))
        if outcomes[-1] == ["ready"]:
            with Library(home) as library:  # finished before the kill: start over, so the next kill lands mid-way
                library.remove(next(doc for doc in statuses if doc != neighbour[0]))
    assert any(o != ["ready"] for o in outcomes), outcomes  # some kills landed mid-import
    retried = finish(home, "import", str(target), "--no-summaries")
    assert retried.returncode == 0, retried.stderr  # the killed import can be done again
    statuses = assert_consistent(home, neighbour)
    target_id = next(doc for doc in statuses if doc != neighbour[0])
    assert statuses[target_id] == "ready"
    for _ in range(KILLS):
        kill_at(home, rng.uniform(0.02, 0.6), "remove", target_id)
        statuses = assert_consistent(home, neighbour)
        if target_id not in statuses:
            break  # removed whole before the kill: nothing half-removed is possible any more
    if target_id in statuses:
        assert finish(home, "remove", target_id).returncode == 0
    assert set(assert_consistent(home, neighbour)) == {neighbour[0]}
