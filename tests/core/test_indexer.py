"""The import pipeline: child process, progress, cancel, crashes, re-import, re-index and crash recovery."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest import extract_worker
from pageindex_desktop.core.document import ExtractedDocument, Line, PageData
from pageindex_desktop.core.errors import DocumentNotFound
from pageindex_desktop.core.library.import_lock import import_lock
from pageindex_desktop.core.ingest.indexer import (
    CANCELLED,
    MAX_AHEAD,
    ImportProgress,
    import_many,
    import_pdf,
    pdf_paths,
    reindex,
)
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.ingest.title import choose_title, metadata_title_ok

ROOT = Path(__file__).resolve().parents[2]


def make_pdf(path: Path, sections: int = 3, pages_per_section: int = 2, title: str = "", bookmarks: bool = True) -> Path:
    """A PDF with numbered section headings in a big bold font, body text, and (optionally) bookmarks."""
    doc = pymupdf.open()
    toc = []
    for s in range(1, sections + 1):
        for k in range(pages_per_section):
            page = doc.new_page()
            y = 72
            if k == 0:
                page.insert_text((72, y), f"{s} Section about topic {s}", fontsize=18, fontname="hebo")
                toc.append([1, f"{s} Section about topic {s}", doc.page_count])
                y += 36
            body = [f"Body text line {i} of section {s} page {k + 1} with words." for i in range(12)]
            page.insert_text((72, y), body, fontsize=10, lineheight=1.4)
    if bookmarks:
        doc.set_toc(toc)
    if title:
        doc.set_metadata({"title": title})
    doc.save(path)
    doc.close()
    return path


def counts(home: Path, doc_id: str) -> tuple[int, int]:
    """Rows in pages and nodes for a document, read through a fresh connection."""
    with sqlite3.connect(home / "library.sqlite3") as conn:
        pages = conn.execute("SELECT COUNT(*) FROM pages WHERE doc_id = ?", (doc_id,)).fetchone()[0]
        nodes = conn.execute("SELECT COUNT(*) FROM nodes WHERE doc_id = ?", (doc_id,)).fetchone()[0]
    return int(pages), int(nodes)


def active_child_pid() -> int:
    """The extraction child working right now: a child of this process that is not idle in the pool."""
    idle = set(extract_worker.child_pids())
    found: list[int] = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        text = (task / "children").read_text()
        found += [int(pid) for pid in text.split()]
    busy = [pid for pid in found if pid not in idle and _is_spawned_worker(pid)]
    assert len(busy) == 1, f"expected one busy extraction child, found {busy}"
    return busy[0]


def _is_spawned_worker(pid: int) -> bool:
    """A multiprocessing 'spawn' child (not the resource tracker, not a test's own subprocess)."""
    try:
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")


def test_import_indexes_a_generated_pdf_with_progress(home: Path, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "report.pdf", title="Quarterly Widget Report")
    events: list[ImportProgress] = []
    with Library(home) as library:
        result = import_pdf(library, pdf, on_progress=events.append)
        assert result.status == "ready", result.error
        assert (result.title, result.page_count, result.outline_source) == ("Quarterly Widget Report", 6, "bookmarks")
        assert not result.already_present and result.error == ""
        assert [n.title for n in library.tree(result.doc_id)][-3:] == [
            "1 Section about topic 1",
            "2 Section about topic 2",
            "3 Section about topic 3",
        ]
        assert "Body text line 3 of section 2 page 2" in library.pages(result.doc_id, [4])[0].text
        assert library.pdf_path(result.doc_id).read_bytes() == pdf.read_bytes()
    stages = [e.stage for e in events]
    assert stages[0] == "queued" and stages[-1] == "done"
    assert stages.index("extracting") < stages.index("building") < stages.index("saving")
    assert any(e.stage == "extracting" and e.done == e.total == 6 for e in events)
    assert all(e.doc_id == result.doc_id for e in events)


def test_reimporting_the_same_bytes_is_a_no_op(home: Path, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf")
    copy = tmp_path / "renamed copy.pdf"
    copy.write_bytes(pdf.read_bytes())
    with Library(home) as library:
        first = import_pdf(library, pdf)
        before = library.get(first.doc_id)
        events: list[ImportProgress] = []
        again = import_pdf(library, copy, on_progress=events.append)
        assert again.already_present and again.doc_id == first.doc_id and again.status == "ready"
        assert [e.stage for e in events] == ["done"]
        assert library.get(first.doc_id) == before  # not even a timestamp changed
        assert len(library.documents()) == 1
    assert len(list((home / "files").iterdir())) == 1


def test_cancel_stops_the_child_quickly_and_writes_nothing(home: Path, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "long.pdf", sections=50, pages_per_section=5)
    cancel = threading.Event()
    cancelled_at: list[float] = []

    def on_progress(event: ImportProgress) -> None:
        if event.stage == "extracting" and event.done > 0 and not cancel.is_set():
            cancel.set()
            cancelled_at.append(time.monotonic())

    with Library(home) as library:
        result = import_pdf(library, pdf, on_progress=on_progress, cancel=cancel)
        returned = time.monotonic()
        assert cancelled_at, "the import finished before it could be cancelled"
        assert returned - cancelled_at[0] < 0.5
        assert (result.status, result.error) == ("failed", CANCELLED)
        assert library.get(result.doc_id).status == "failed"  # type: ignore[union-attr]
        assert counts(home, result.doc_id) == (0, 0)
        again = reindex(library, result.doc_id)
        assert again.status == "ready" and again.page_count == 250


@needs_proc
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSEGV])
def test_a_child_that_dies_mid_import_fails_cleanly(home: Path, tmp_path: Path, sig: signal.Signals) -> None:
    pdf = make_pdf(tmp_path / "long.pdf", sections=40, pages_per_section=5)
    killed: list[int] = []

    def on_progress(event: ImportProgress) -> None:
        if event.stage == "extracting" and event.done > 0 and not killed:
            pid = active_child_pid()
            os.kill(pid, sig)
            killed.append(pid)

    with Library(home) as library:
        started = time.monotonic()
        result = import_pdf(library, pdf, on_progress=on_progress)
        assert time.monotonic() - started < 30
        assert killed
        assert result.status == "failed"
        assert sig.name in result.error and "re-index" in result.error
        assert counts(home, result.doc_id) == (0, 0)
        assert library.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # the pool recovers: the next import gets a fresh child
        assert reindex(library, result.doc_id).status == "ready"
    with pytest.raises(ProcessLookupError):
        os.kill(killed[0], 0)


@needs_proc
def test_a_child_that_stops_responding_is_stopped(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGSTOP freezes the child mid-extraction, as a pathological file would; the stall timeout ends it."""
    monkeypatch.setattr(extract_worker, "STALL_SECONDS", 1.0)
    pdf = make_pdf(tmp_path / "long.pdf", sections=40, pages_per_section=5)
    frozen: list[int] = []

    def on_progress(event: ImportProgress) -> None:
        if event.stage == "extracting" and event.done > 0 and not frozen:
            frozen.append(active_child_pid())
            os.kill(frozen[0], signal.SIGSTOP)

    with Library(home) as library:
        started = time.monotonic()
        result = import_pdf(library, pdf, on_progress=on_progress)
        assert time.monotonic() - started < 20
        assert result.status == "failed" and "stopped responding" in result.error
        assert counts(home, result.doc_id) == (0, 0)
    assert not Path(f"/proc/{frozen[0]}").exists() or _state(frozen[0]) == "Z"


def test_reindex_switches_source_and_a_cancelled_reindex_keeps_the_index(home: Path, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf")
    with Library(home) as library:
        first = import_pdf(library, pdf)
        assert first.outline_source == "bookmarks"
        again = reindex(library, first.doc_id, use_bookmarks=False)
        assert again.status == "ready" and again.outline_source != "bookmarks"
        assert again.page_count == 6
        cancel = threading.Event()
        cancel.set()
        kept = reindex(library, first.doc_id, cancel=cancel)
        assert kept.status == "ready" and "previous index is kept" in kept.warning
        assert library.get(first.doc_id).status == "ready"  # type: ignore[union-attr]
        assert counts(home, first.doc_id)[0] == 6
        with pytest.raises(DocumentNotFound):
            reindex(library, "nope")


def test_a_bug_in_a_callback_raises_and_leaves_no_importing_document(home: Path, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf")

    def broken(event: ImportProgress) -> None:
        if event.stage == "extracting":
            raise ZeroDivisionError("bug")

    with Library(home) as library:
        with pytest.raises(ZeroDivisionError):
            import_pdf(library, pdf, on_progress=broken)
        (doc,) = library.documents()
        assert doc.status == "failed"
        assert counts(home, doc.doc_id) == (0, 0)


def test_import_many_reads_two_at_once_and_saves_in_order(home: Path, tmp_path: Path) -> None:
    files = [make_pdf(tmp_path / f"doc{i}.pdf", sections=10 + i, pages_per_section=4, title=f"Doc number {i}")
             for i in range(4)]
    bad = tmp_path / "bad.pdf"
    bad.write_text("not a pdf")
    events: list[ImportProgress] = []
    lock = threading.Lock()

    def record(event: ImportProgress) -> None:
        with lock:
            events.append(event)

    paths = [files[0], files[1], bad, files[0], files[2], files[3]]
    with Library(home) as library:
        results = list(import_many(library, paths, on_progress=record, jobs=2))
        assert [p for p, _ in results] == paths
        statuses = [(r.title, r.status, r.already_present) for _, r in results]
        assert statuses == [
            ("Doc number 0", "ready", False),
            ("Doc number 1", "ready", False),
            ("bad", "failed", False),
            ("Doc number 0", "ready", True),
            ("Doc number 2", "ready", False),
            ("Doc number 3", "ready", False),
        ]
        assert [r.page_count for _, r in results if r.status == "ready"] == [40, 44, 40, 48, 52]
        assert library.conn.execute("SELECT COUNT(*) FROM pages").fetchone()[0] == 40 + 44 + 48 + 52
    first, second = results[0][1].doc_id, results[1][1].doc_id
    order = [(e.doc_id, e.stage) for e in events]
    # the second document was being read before the first one was saved: two children at work
    assert order.index((second, "extracting")) < order.index((first, "saving"))


def test_closing_a_batch_early_leaves_nothing_importing(home: Path, tmp_path: Path) -> None:
    files = [make_pdf(tmp_path / f"d{i}.pdf", sections=30, pages_per_section=5, title=f"Batch document {i}") for i in range(3)]
    with Library(home) as library:
        batch = import_many(library, files, jobs=2)
        path, result = next(batch)
        assert path == files[0] and result.status == "ready"
        batch.close()
        statuses = {d.title: (d.status, d.error) for d in library.documents()}
        assert statuses["Batch document 0"] == ("ready", "")
        assert all(st != "importing" for st, _ in statuses.values())
        assert all(err == CANCELLED for st, err in statuses.values() if st == "failed")
        for doc in library.documents():
            if doc.status == "failed":
                assert counts(home, doc.doc_id) == (0, 0)


def test_cancelling_a_batch_skips_the_files_not_started(home: Path, tmp_path: Path) -> None:
    files = [make_pdf(tmp_path / f"c{i}.pdf", sections=1, pages_per_section=1, title=f"Cancel test {i}")
             for i in range(12)]
    cancel = threading.Event()
    with Library(home) as library:
        results = []
        for path, result in import_many(library, files, cancel=cancel, jobs=2):
            results.append((path, result))
            cancel.set()
        assert [p for p, _ in results] == files
        assert results[0][1].status == "ready"
        assert all(r.status == "failed" and r.error == CANCELLED for _, r in results[1:])
        # before the first result is saved, at most MAX_AHEAD files per job were started; none after the cancel
        assert len(library.documents()) <= 2 * MAX_AHEAD < len(files)
        assert all(d.status in ("ready", "failed") for d in library.documents())
        assert results[-1][1].doc_id == ""


def test_missing_file_fails_without_a_record(home: Path, tmp_path: Path) -> None:
    with Library(home) as library:
        result = import_pdf(library, tmp_path / "nope.pdf")
        assert result.status == "failed" and "no file" in result.error
        assert library.documents() == []


def test_pdf_paths_expands_folders_recursively_and_sorted(tmp_path: Path) -> None:
    (tmp_path / "b" / "deep").mkdir(parents=True)
    for name in ["b/z.pdf", "b/a.PDF", "b/deep/m.pdf", "b/notes.odt", "top.pdf"]:  # .odt: not a format taken
        (tmp_path / name).write_bytes(b"%PDF-1.4")
    found = pdf_paths([tmp_path / "top.pdf", tmp_path / "b", tmp_path / "b" / "z.pdf"])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["top.pdf", "b/a.PDF", "b/deep/m.pdf", "b/z.pdf"]


def test_the_child_loads_neither_qt_nor_openai() -> None:
    worker, failed = extract_worker.acquire()
    assert failed is None and worker is not None
    try:
        assert worker.heavy == []
    finally:
        worker.stop()


def test_recover_leaves_a_live_import_alone(home: Path, tmp_path: Path) -> None:
    with Library(home) as library:
        doc = library.add_file(make_pdf(tmp_path / "a.pdf"), "ab" * 32, "a")
        library.set_status(doc.doc_id, "importing")
        with import_lock(home, doc.doc_id) as held:
            assert held
            assert library.recover_interrupted() == []
        assert library.recover_interrupted() == [doc.doc_id]
        assert library.get(doc.doc_id).status == "failed"  # type: ignore[union-attr]


def test_a_document_locked_by_another_import_is_left_alone(home: Path, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf")
    with Library(home) as library:
        failed = import_pdf(library, pdf, cancel=_set_event())
        assert failed.status == "failed"
        with import_lock(home, failed.doc_id) as held:
            assert held
            busy = import_pdf(library, pdf)
            assert busy.status == "failed" and "another process" in busy.error
            assert library.get(failed.doc_id).error == CANCELLED  # type: ignore[union-attr]
        assert import_pdf(library, pdf).status == "ready"


def _set_event() -> threading.Event:
    event = threading.Event()
    event.set()
    return event


@needs_proc
def test_killing_the_whole_cli_mid_import_leaves_a_retryable_document(home: Path, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "big.pdf", sections=60, pages_per_section=10)
    env = dict(os.environ, PAGEINDEX_DESKTOP_HOME=str(home), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "pageindex_desktop.cli", "import", str(pdf)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    children: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not children:
            time.sleep(0.05)
            try:
                with sqlite3.connect(f"file:{home / 'library.sqlite3'}?mode=ro", uri=True, timeout=5) as conn:
                    row = conn.execute("SELECT status FROM documents").fetchone()
            except sqlite3.OperationalError:  # not created or not migrated yet
                continue
            if row and row[0] == "importing":
                for task in Path(f"/proc/{proc.pid}/task").iterdir():
                    children += [int(p) for p in (task / "children").read_text().split()]
        assert children, "the CLI never got to the extraction stage"
        proc.kill()
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    with Library(home) as library:
        (doc,) = library.documents()
        assert doc.status == "importing"
        assert library.recover_interrupted() == [doc.doc_id]
        failed = library.get(doc.doc_id)
        assert failed is not None and failed.status == "failed" and "Re-index" in failed.error
        assert counts(home, doc.doc_id) == (0, 0)
        assert library.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert reindex(library, doc.doc_id).status == "ready"
    # the orphaned child notices its parent is gone and stops at its next progress step
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in children):
        for pid in children:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
        time.sleep(0.1)
    alive = [pid for pid in children if Path(f"/proc/{pid}").exists() and "Z" not in _state(pid)]
    assert alive == []


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0]
    except (OSError, IndexError):
        return "Z"


# ---- titles ------------------------------------------------------------------------------------------------


def _doc(meta: str, lines: list[Line]) -> ExtractedDocument:
    page = PageData(1, "", "\n".join(ln.text for ln in lines), 612, 792, lines)
    return ExtractedDocument(page_count=1, metadata_title=meta, toc=[], pages=[page])


def test_metadata_title_is_used_only_when_it_looks_real() -> None:
    assert metadata_title_ok("Annual Report, 2023", "x.pdf")
    for junk in ["Microsoft Word - report.docx", "", "  ", "four-lectures.dvi", "untitled", "88300 162..177",
                 "htmldoc797", "report", "C:\\work\\report", "report_v2-final"]:
        assert not metadata_title_ok(junk, "report.pdf"), junk


def test_title_falls_back_to_a_cover_title_then_the_file_name() -> None:
    body = [Line(f"body line {i} with some words", 10, False, 72, 300 + 14 * i, 500, 310 + 14 * i) for i in range(20)]
    cover = [Line("A Study of", 24, True, 100, 100, 400, 124), Line("Widget Markets", 24, True, 100, 128, 400, 152)]
    stamp = [Line("arXiv:1234.5678v1 [cs.CL] 1 Jan 2020", 20, False, 10, 200, 30, 600)]
    assert choose_title(_doc("Microsoft Word - x.doc", stamp + cover + body), "x.pdf") == "A Study of Widget Markets"
    assert choose_title(_doc("", stamp + body), "my-file.pdf") == "my-file"
    assert choose_title(_doc("Real Title Here", cover + body), "x.pdf") == "Real Title Here"


def test_an_engine_that_cannot_load_in_the_child_is_a_clear_failure(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child inherits sys.path: a pymupdf that fails to import stands in for a broken install."""
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "pymupdf.py").write_text("raise ImportError('no MuPDF in this install')\n")
    pdf = make_pdf(tmp_path / "a.pdf")
    extract_worker.shutdown()  # no warm child: the next one starts with the broken path
    monkeypatch.syspath_prepend(str(broken))
    with Library(home) as library:
        result = import_pdf(library, pdf)
    monkeypatch.undo()
    extract_worker.shutdown()
    assert result.status == "failed"
    assert "internal error" in result.error and "no MuPDF in this install" in result.error


def test_a_child_that_cannot_start_is_a_clear_failure(home: Path, tmp_path: Path) -> None:
    """A script read from stdin cannot be re-imported by a 'spawn' child, which then dies before its hello."""
    pdf = make_pdf(tmp_path / "a.pdf")
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from pageindex_desktop.core.ingest.indexer import import_pdf\n"
        "from pageindex_desktop.core.library.store import Library\n"
        f"with Library(Path({str(home)!r})) as library:\n"
        f"    result = import_pdf(library, Path({str(pdf)!r}))\n"
        "print(json.dumps(result.to_dict()))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    row = json.loads(out.stdout.strip().splitlines()[-1])
    assert row["status"] == "failed" and "could not start" in row["error"]
    with Library(home) as library:
        assert library.documents()[0].status == "failed"


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("arxiv__1706.03762.pdf", "Attention Is All You Need"),  # no metadata title; rotated arXiv stamp ignored
        # metadata title is 'four-lectures.dvi'; the cover's largest line, read once its bitmap fonts are sized
        ("four-lectures.pdf", "Four Lectures on Standard ML"),
        ("2023-annual-report.pdf", "Annual Report, 2023"),  # a real metadata title
    ],
)
def test_titles_of_corpus_files(name: str, title: str) -> None:
    from pageindex_desktop.core.ingest.pdf import extract
    from tests.conftest import corpus_file

    path = corpus_file(name)
    assert choose_title(extract(path, workers=1), path.name) == title


def test_a_cover_title_gets_the_one_year_or_period_its_cover_shows() -> None:
    body = [Line(f"body line {i} with some words", 10, False, 72, 300 + 14 * i, 500, 310 + 14 * i) for i in range(20)]
    cover = [Line("Annual Report", 28, True, 100, 100, 400, 128)]
    year = [Line("2023", 14, False, 100, 150, 140, 164)]
    period = [Line("Second Quarter 2024", 14, False, 100, 150, 260, 164)]
    notes = [Line("1.375% Notes due 2024", 9, False, 72, 600, 300, 609), Line("3.600% Notes due 2042", 9, False,
                                                                               72, 612, 300, 621)]
    stamp = [Line("arXiv:1234.5678v1 [cs.CL] 1 Jan 2020", 20, False, 10, 200, 30, 600)]
    assert choose_title(_doc("", cover + year + body), "x.pdf") == "Annual Report 2023"
    assert choose_title(_doc("", cover + period + body), "x.pdf") == "Annual Report, Second Quarter 2024"
    assert choose_title(_doc("", cover + notes + body), "x.pdf") == "Annual Report"  # several years: none is sure
    assert choose_title(_doc("", cover + stamp + body), "x.pdf") == "Annual Report"  # a margin stamp's date
    assert choose_title(_doc("Annual Report", cover + year + body), "x.pdf") == "Annual Report"  # metadata as is
