"""What reaches `files/` and what leaves it: no copy of a file that cannot be a PDF, no temporary file after a
failed or killed copy, no copy no row needs; and no removal of a document another process is working on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from pageindex_desktop.core.errors import DocumentBusy
from pageindex_desktop.core.ingest.indexer import import_pdf
from pageindex_desktop.core.library.store import Library, doc_id_for, sha256_of
from pageindex_desktop.core.assistant.summaries import summarize_with_settings
from pageindex_desktop.core.assistant.settings import ModelSettings

HOLD = """
import sys
from pathlib import Path
from pageindex_desktop.core.library.import_lock import import_lock
with import_lock(Path(sys.argv[1]), sys.argv[2]) as held:
    print("held" if held else "refused", flush=True)
    sys.stdin.read()
"""


@pytest.fixture
def holder(library: Library) -> Iterator[Any]:
    """Start another process that holds a document's lock until the test ends."""
    started: list[subprocess.Popen[str]] = []

    def hold(doc_id: str) -> None:
        child = subprocess.Popen([sys.executable, "-c", HOLD, str(library.home), doc_id], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
        started.append(child)
        assert child.stdout is not None and child.stdout.readline().strip() == "held"

    yield hold
    for child in started:
        child.communicate("", timeout=30)


def held_document(library: Library, tmp_path: Path, hold: Any) -> Any:
    """A document in the library whose lock another process holds (as an import in progress would)."""
    source = tmp_path / "report.pdf"
    source.write_bytes(b"%PDF-1.4 test")
    record = library.add_file(source, sha256_of(source), "Annual Report")
    hold(record.doc_id)
    return record


def test_a_file_that_is_not_a_pdf_is_recorded_as_failed_but_never_copied(library: Library, tmp_path: Path) -> None:
    fake = tmp_path / "holiday.pdf"
    fake.write_bytes(b"\x00\x00\x00 ftypisom" + os.urandom(200_000))  # a video with a .pdf name
    result = import_pdf(library, fake)
    assert result.status == "failed" and "not a PDF" in result.error
    assert library.get(result.doc_id) is not None  # the library row says what happened to the file
    assert list(library.files_dir.iterdir()) == []


def test_a_copy_that_fails_half_way_leaves_nothing_behind(library: Library, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "report.pdf"
    source.write_bytes(b"%PDF-1.4\n" + b"x" * 3_000_000)

    def disk_full(reader: Any, writer: Any, length: int = 0) -> None:
        writer.write(reader.read(1_000_000))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", disk_full)
    result = import_pdf(library, source)
    assert result.status == "failed" and "No space left on device" in result.error
    assert list(library.files_dir.iterdir()) == []


def test_start_up_sweeps_temporary_copies_of_dead_processes_and_copies_no_row_needs(library: Library,
                                                                                   tmp_path: Path,
                                                                                   holder: Any) -> None:
    source = tmp_path / "kept.pdf"
    source.write_bytes(b"%PDF-1.4 kept")
    kept = library.add_file(source, sha256_of(source), "kept")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_part = library.files_dir / f"{'a' * 64}.{gone.stdout.strip()}.part"  # a copy killed mid-way
    live_part = library.files_dir / f"{'b' * 64}.{os.getpid()}.part"  # a copy this process is writing
    orphan = library.files_dir / f"{'c' * 64}.pdf"  # copied, then killed before its row was written
    in_flight = library.files_dir / f"{'d' * 64}.pdf"  # copied by a live process that is about to write its row
    for path in (dead_part, live_part, orphan, in_flight):
        path.write_bytes(b"%PDF-1.4 partial")
    holder(doc_id_for("d" * 64))  # add_file holds the document's lock from the copy to the row
    library.recover_interrupted()
    assert sorted(p.name for p in library.files_dir.iterdir()) == sorted(
        [f"{kept.sha256}.pdf", live_part.name, in_flight.name])


def test_remove_refuses_while_another_process_imports_the_document(library: Library, tmp_path: Path,
                                                                   holder: Any) -> None:
    record = held_document(library, tmp_path, holder)
    with pytest.raises(DocumentBusy, match="Annual Report” is being imported or summarized right now"):
        library.remove(record.doc_id)
    assert library.get(record.doc_id) is not None and library.pdf_path(record.doc_id).exists()


def test_summaries_refuse_while_another_process_holds_the_document(library: Library, tmp_path: Path,
                                                                   holder: Any) -> None:
    record = held_document(library, tmp_path, holder)
    settings = ModelSettings(provider="custom", base_url="http://127.0.0.1:9/v1", chat_model="m")
    with pytest.raises(DocumentBusy, match="summarize it when that has finished"):
        summarize_with_settings(library, record.doc_id, settings)


def test_importing_a_file_another_process_is_importing_fails_with_a_sentence(library: Library, tmp_path: Path,
                                                                             holder: Any) -> None:
    from tests.conftest import corpus_file

    source = corpus_file("pdfplumber__empty.pdf").parent / "financebench__PEPSICO_2023Q2_EARNINGS.pdf"
    record = library.add_file(source, sha256_of(source), "PepsiCo")
    holder(record.doc_id)
    env = {**os.environ, "PAGEINDEX_DESKTOP_HOME": str(library.home)}
    done = subprocess.run([sys.executable, "-m", "pageindex_desktop.cli", "import", str(source)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1  # was 0 with "importing … 0 pages"
    assert "being imported by another process right now" in done.stderr and "0 pages" not in done.stdout


def test_a_path_longer_than_the_system_allows_is_a_sentence(library: Library, tmp_path: Path) -> None:
    result = import_pdf(library, tmp_path / ("x" * 300 + ".pdf"))  # a name past NAME_MAX (255 bytes)
    assert result.status == "failed" and "longer than this system allows" in result.error


def test_a_folder_argument_longer_than_the_system_allows_is_not_a_traceback(tmp_path: Path) -> None:
    from pageindex_desktop.core.ingest.indexer import pdf_paths

    too_long = tmp_path / ("y" * 300)
    assert pdf_paths([too_long]) == [too_long]  # taken as a file; its import then says why it cannot be read
