"""pageindex-desktop-cli per design §9: JSON shapes, text output, exit codes and one-line errors."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop import cli
from pageindex_desktop.core.pages_range import PageRangeError, format_page_ranges, parse_page_ranges
from pageindex_desktop.core.library.store import Library
from tests.conftest import corpus_file

ROOT = Path(__file__).resolve().parents[2]


def make_pdf(path: Path, pages: int = 5, title: str = "Widget Handbook") -> Path:
    """Chapters with bookmarks and page labels starting at roman numerals."""
    doc = pymupdf.open()
    toc = []
    for n in range(1, pages + 1):
        page = doc.new_page()
        page.insert_text((72, 72), f"Chapter {n} Gizmos number {n}", fontsize=18, fontname="hebo")
        page.insert_text((72, 110), [f"Zanzibar quokka line {i} on page {n}." for i in range(8)], fontsize=10)
        toc.append([1, f"Chapter {n} Gizmos number {n}", n])
    doc.set_toc(toc)
    doc.set_metadata({"title": title})
    doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1}])
    doc.save(path)
    doc.close()
    return path


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it: a separate process with PAGEINDEX_DESKTOP_HOME set."""
    env = dict(os.environ, PAGEINDEX_DESKTOP_HOME=str(home), PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "pageindex_desktop.cli", *args], capture_output=True, text=True, env=env, timeout=120
    )


def assert_one_line_error(proc: subprocess.CompletedProcess[str], code: int = 1) -> str:
    assert proc.returncode == code
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


@pytest.fixture
def library_with_doc(home: Path, tmp_path: Path) -> tuple[Path, str]:
    """A library holding one imported document (imported through the CLI)."""
    proc = run(home, "import", "--json", str(make_pdf(tmp_path / "handbook.pdf")))
    assert proc.returncode == 0, proc.stderr
    return home, json.loads(proc.stdout)["doc_id"]


def test_import_json_one_object_per_file_and_exit_1_when_one_fails(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    make_pdf(folder / "a.pdf", title="First Handbook")
    make_pdf(folder / "b.pdf", pages=3, title="Second Handbook")
    (folder / "bad.pdf").write_text("this is a text file, not a PDF")
    proc = run(home, "import", "--json", str(folder))
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [Path(r["path"]).name for r in rows] == ["a.pdf", "b.pdf", "bad.pdf"]
    for row in rows[:2]:
        assert {"doc_id", "title", "page_count", "outline_source", "status"} <= set(row)
        assert row["status"] == "ready" and row["outline_source"] == "bookmarks"
    assert (rows[0]["title"], rows[0]["page_count"]) == ("First Handbook", 5)
    assert rows[2]["status"] == "failed" and "not a PDF" in rows[2]["error"]
    assert "not a PDF" in assert_one_line_error(proc)


def test_no_bookmarks_builds_the_tree_from_the_pages(home: Path, tmp_path: Path) -> None:
    proc = run(home, "import", "--json", "--no-bookmarks", str(make_pdf(tmp_path / "h.pdf")))
    row = json.loads(proc.stdout)
    assert row["status"] == "ready" and row["outline_source"] in ("toc_page", "layout", "pages")
    assert row["outline_source"] != "bookmarks"


def test_import_text_mode_and_reimport(library_with_doc: tuple[Path, str], tmp_path: Path) -> None:
    home, doc_id = library_with_doc
    proc = run(home, "import", str(tmp_path / "handbook.pdf"))
    assert proc.returncode == 0 and proc.stderr == ""
    assert doc_id in proc.stdout and "already in the library" in proc.stdout


def test_list_json_and_text(library_with_doc: tuple[Path, str]) -> None:
    home, doc_id = library_with_doc
    (row,) = json.loads(run(home, "list", "--json").stdout)
    assert row == {
        "doc_id": doc_id,
        "title": "Widget Handbook",
        "page_count": 5,
        "status": "ready",
        "outline_source": "bookmarks",
        "error": "",
    }
    text = run(home, "list").stdout
    assert doc_id in text and "Widget Handbook" in text and "ready" in text


def test_tree_json_shape_and_text_markers(library_with_doc: tuple[Path, str]) -> None:
    home, doc_id = library_with_doc
    tree = json.loads(run(home, "tree", "Widget", "--json").stdout)
    assert set(tree) == {"doc_id", "title", "page_count", "outline_source", "nodes"}
    assert tree["doc_id"] == doc_id and tree["outline_source"] == "bookmarks"
    first = tree["nodes"][0]
    assert set(first) == {"node_id", "title", "level", "start_page", "end_page", "verified", "summary", "summary_source", "source",
                          "children"}
    assert (first["title"], first["start_page"], first["end_page"], first["verified"]) == (
        "Chapter 1 Gizmos number 1",
        1,
        1,
        True,
    )
    text = run(home, "tree", doc_id).stdout.splitlines()
    assert text[0].startswith("Widget Handbook")
    assert "  ✓ Chapter 2 Gizmos number 2  [p. 2]" in text


def test_pages_prints_headers_with_labels_and_notes_skipped(library_with_doc: tuple[Path, str]) -> None:
    home, doc_id = library_with_doc
    proc = run(home, "pages", doc_id, "2-3,9")
    assert proc.returncode == 0
    assert "===== Page 2 of 5 (printed label ii) =====" in proc.stdout
    assert "Zanzibar quokka line 0 on page 3." in proc.stdout
    assert "page 1." not in proc.stdout
    assert "skipped pages 9" in assert_one_line_error(proc, 0)
    nothing = run(home, "pages", doc_id, "40-41")
    assert "the document has 5 pages" in assert_one_line_error(nothing)
    bad = run(home, "pages", doc_id, "two")
    assert "'two' is not a page" in assert_one_line_error(bad)


def test_search_json_and_doc_filter(library_with_doc: tuple[Path, str]) -> None:
    home, doc_id = library_with_doc
    hits = json.loads(run(home, "search", "quokka \"on page 4\"", "--json").stdout)
    assert [(h["doc_id"], h["page"]) for h in hits] == [(doc_id, 4)]
    assert "[[quokka]]" in hits[0]["snippet"].lower() and hits[0]["title"] == "Widget Handbook"
    assert json.loads(run(home, "search", "quokka", "--doc", doc_id, "--json").stdout)
    assert "No matches." in run(home, "search", "platypus").stdout


def test_remove_then_unknown_doc_errors(library_with_doc: tuple[Path, str]) -> None:
    home, doc_id = library_with_doc
    proc = run(home, "remove", "Widget")
    assert proc.returncode == 0 and doc_id in proc.stdout
    assert json.loads(run(home, "list", "--json").stdout) == []
    assert "No document matches" in assert_one_line_error(run(home, "tree", doc_id))
    assert not list((home / "files").glob("*.pdf"))


def test_encrypted_pdf_needs_password_then_imports_with_it(home: Path) -> None:
    pdf = corpus_file("pdfplumber__password-example.pdf")
    proc = run(home, "import", "--json", str(pdf))
    assert json.loads(proc.stdout)["status"] == "failed"
    assert "password" in assert_one_line_error(proc)
    ok = run(home, "import", "--json", "--password", "test", str(pdf))
    assert ok.returncode == 0, ok.stderr
    row = json.loads(ok.stdout)
    assert row["status"] == "ready" and row["page_count"] == 4


def test_usage_errors_version_and_missing_paths(home: Path, tmp_path: Path) -> None:
    assert run(home, "--version").stdout.strip() == f"pageindex-desktop-cli {cli.__version__}"
    assert_one_line_error(run(home), 2)
    assert_one_line_error(run(home, "frobnicate"), 2)
    missing = run(home, "import", str(tmp_path / "nope.pdf"))
    assert "no file" in assert_one_line_error(missing)
    (tmp_path / "empty").mkdir()
    assert "no PDF files" in assert_one_line_error(run(home, "import", str(tmp_path / "empty")))


def test_every_subcommand_uses_the_home_from_the_environment(library_with_doc: tuple[Path, str], tmp_path: Path) -> None:
    home, doc_id = library_with_doc
    other = tmp_path / "other-home"
    assert json.loads(run(other, "list", "--json").stdout) == []
    assert (other / "library.sqlite3").exists()
    assert (home / "logs" / "pageindex-desktop.log").exists()


def test_a_new_subcommand_is_one_function_and_a_registration(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def add_hello(sub: cli.SubParsers) -> None:
        p = sub.add_parser("hello")
        p.set_defaults(func=lambda args, library: print(f"docs={len(library.documents())}") or 0)

    cli.SUBCOMMANDS.append(add_hello)
    try:
        assert cli.main(["hello"]) == 0
    finally:
        cli.SUBCOMMANDS.remove(add_hello)
    assert capsys.readouterr().out.strip() == "docs=0"


# ---- page ranges -------------------------------------------------------------------------------------------


def test_parse_page_ranges() -> None:
    assert parse_page_ranges("5-7,12", 20) == ([5, 6, 7, 12], [])
    assert parse_page_ranges(" 7-5 , 6 ", 20) == ([5, 6, 7], [])
    assert parse_page_ranges("18-", 20) == ([18, 19, 20], [])
    assert parse_page_ranges("-2", 20) == ([1, 2], [])
    assert parse_page_ranges("3..4,19–22", 20) == ([3, 4, 19, 20], [21, 22])
    assert parse_page_ranges("0,1", 3) == ([1], [0])
    for bad in ["", "a", "1-2-3", "5,,x", "-", "1-1000000"]:
        with pytest.raises(PageRangeError):
            parse_page_ranges(bad, 20)


def test_format_page_ranges_inverts_parse() -> None:
    assert format_page_ranges([12, 5, 6, 7, 7]) == "5-7,12"
    assert format_page_ranges([]) == ""
    pages, _ = parse_page_ranges(format_page_ranges([1, 3, 4, 5, 9]), 10)
    assert pages == [1, 3, 4, 5, 9]


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP/SIGCONT")
def test_ctrl_c_mid_import_exits_130_and_leaves_the_document_retryable(home: Path, tmp_path: Path) -> None:
    """Ctrl+C while a document is importing. The CLI is frozen (SIGSTOP) while the test checks that a document
    is still importing and sends SIGINT, so the import cannot finish before the signal is there, however slowly
    the test itself runs; SIGCONT lets it see the signal. (Polling and then signalling lost the race under load.)"""
    import time

    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(3):
        make_pdf(folder / f"big{i}.pdf", pages=400, title=f"Big handbook {i}")
    env = dict(os.environ, PAGEINDEX_DESKTOP_HOME=str(home), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "pageindex_desktop.cli", "import", "--json", str(folder)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

    def importing() -> bool:
        try:
            with sqlite3.connect(f"file:{home / 'library.sqlite3'}?mode=ro", uri=True) as conn:
                return bool(conn.execute("SELECT 1 FROM documents WHERE status = 'importing'").fetchone())
        except sqlite3.OperationalError:  # not created or not migrated yet
            return False

    deadline = time.monotonic() + 60
    interrupted = False
    try:
        while time.monotonic() < deadline and not interrupted and proc.poll() is None:
            if not importing():
                time.sleep(0.02)  # polling for the import to start
                continue
            proc.send_signal(signal.SIGSTOP)
            try:
                if importing():  # frozen: it stays importing until the CLI runs again, with the signal pending
                    proc.send_signal(signal.SIGINT)
                    interrupted = True
            finally:
                proc.send_signal(signal.SIGCONT)
    finally:
        if not interrupted:
            proc.kill()
            proc.communicate(timeout=30)
    assert interrupted, "the import never started"
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip().splitlines() == ["pageindex-desktop-cli: error: interrupted"]
    with sqlite3.connect(home / "library.sqlite3") as conn:
        rows = conn.execute("SELECT status, error FROM documents").fetchall()
        assert rows and all(status != "importing" for status, _ in rows)
        assert any(error == "Import cancelled. Re-index to try again." for _, error in rows)
        for (doc_id,) in conn.execute("SELECT id FROM documents WHERE status = 'failed'").fetchall():
            assert conn.execute("SELECT COUNT(*) FROM pages WHERE doc_id = ?", (doc_id,)).fetchone()[0] == 0


def test_log_file_masks_api_keys(tmp_path: Path) -> None:
    import logging

    from pageindex_desktop.log import setup_logging

    root = logging.getLogger()
    level = root.level
    path = setup_logging(folder=tmp_path / "logs")
    try:
        assert setup_logging(folder=tmp_path / "logs") == path  # idempotent: one handler
        assert sum(getattr(h, "_pageindex_log", None) == str(path) for h in root.handlers) == 1
        logging.getLogger("pageindex_desktop.test").warning("endpoint refused key %s", "sk-abcdefghijklmnop1234")
        for handler in root.handlers:
            handler.flush()
        text = path.read_text(encoding="utf-8")
        assert "endpoint refused key [redacted]" in text and "sk-abcdef" not in text
    finally:
        for handler in [h for h in root.handlers if getattr(h, "_pageindex_log", None) == str(path)]:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(level)


def test_a_looping_symbolic_link_is_one_sentence_not_an_internal_error(home: Path, tmp_path: Path) -> None:
    loop = tmp_path / "loop.pdf"
    loop.symlink_to(loop.name)
    line = assert_one_line_error(run(home, "import", str(loop)))
    assert "symbolic link that loops" in line and "internal error" not in line


def test_a_file_name_that_is_not_utf8_imports_and_lists(home: Path, tmp_path: Path) -> None:
    path = tmp_path / os.fsdecode(b"na\xefve handbook.pdf")
    path.write_bytes(make_pdf(tmp_path / "handbook.pdf").read_bytes())
    proc = run(home, "import", "--json", str(path))
    assert proc.returncode == 0 and "internal error" not in proc.stderr, proc.stderr
    assert json.loads(proc.stdout)["status"] == "ready"
    (row,) = json.loads(run(home, "list", "--json").stdout)
    assert row["title"] == "Widget Handbook"
    with Library(home) as library:
        assert library.documents()[0].file_name == "na\ufffdve handbook.pdf"


def test_a_library_written_by_a_newer_version_is_that_sentence(home: Path, tmp_path: Path) -> None:
    from pageindex_desktop.core.library.migrations import MIGRATIONS

    Library(home).close()
    with sqlite3.connect(home / "library.sqlite3") as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    for args in (["list"], ["import", str(make_pdf(tmp_path / "h.pdf"))]):
        line = assert_one_line_error(run(home, *args))
        assert line == (f"pageindex-desktop-cli: error: The library was written by a newer version of PageIndex "
                        f"Desktop (schema {len(MIGRATIONS) + 1}); please upgrade.")


def test_a_repaired_pdf_shows_its_note_in_import_list_and_show(home: Path, tmp_path: Path) -> None:
    from tests.core.test_bad_input import damaged_pdf

    path = damaged_pdf(tmp_path / "damaged.pdf", 28, (5, 12, 20))
    proc = run(home, "import", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "note: The PDF is damaged (repaired: 25 of 28 pages readable)" in proc.stdout
    (row,) = json.loads(run(home, "list", "--json").stdout)
    assert row["note"] == "repaired: 25 of 28 pages readable" and row["status"] == "ready"
    assert "[repaired: 25 of 28 pages readable]" in run(home, "list").stdout
    shown = run(home, "show", row["doc_id"]).stdout.splitlines()
    assert shown[0] == f"damaged ({row['doc_id']})" and "  note:    repaired: 25 of 28 pages readable" in shown
    assert json.loads(run(home, "show", "--json", "damaged").stdout)["note"] == "repaired: 25 of 28 pages readable"
