"""Bad input ends in a clear error (or, for image-only files, a flagged import) and nothing half-written."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.indexer import ImportResult, import_pdf, pdf_paths, reindex
from pageindex_desktop.core.library.store import Library
from tests.conftest import corpus_file
from tests.core.fuzz_cases import declared_page_count, surrogate_titles


def assert_clean_failure(home: Path, result: ImportResult, *words: str) -> None:
    """Failed with a one-sentence error naming the problem; no pages or nodes; the database intact."""
    assert result.status == "failed"
    assert result.error and result.error.count(". ") == 0, result.error
    for word in words:
        assert word.lower() in result.error.lower(), result.error
    with sqlite3.connect(home / "library.sqlite3") as conn:
        status, error = conn.execute("SELECT status, error FROM documents WHERE id = ?", (result.doc_id,)).fetchone()
        assert (status, error) == ("failed", result.error)
        assert conn.execute("SELECT COUNT(*) FROM pages WHERE doc_id = ?", (result.doc_id,)).fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM nodes WHERE doc_id = ?", (result.doc_id,)).fetchone()[0] == 0
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("INSERT INTO pages_fts(pages_fts) VALUES ('integrity-check')").fetchall() == []


def test_encrypted_pdf_names_the_password_need_and_imports_with_it(home: Path) -> None:
    pdf = corpus_file("pdfplumber__password-example.pdf")
    with Library(home) as library:
        locked = import_pdf(library, pdf)
        assert_clean_failure(home, locked, "password")
        wrong = reindex(library, locked.doc_id, password="nope")
        assert_clean_failure(home, wrong, "password", "wrong")
        opened = import_pdf(library, pdf, password="test")
        assert opened.status == "ready" and opened.page_count == 4 and opened.doc_id == locked.doc_id
        assert library.pages(opened.doc_id, [1])[0].text.strip()


def test_zero_byte_file(home: Path) -> None:
    with Library(home) as library:
        assert_clean_failure(home, import_pdf(library, corpus_file("pdfplumber__empty.pdf")), "empty")


def test_text_file_renamed_pdf(home: Path, tmp_path: Path) -> None:
    fake = tmp_path / "notes.pdf"
    fake.write_text("Dear diary,\nthis is plain text with a .pdf name.\n" * 50)
    with Library(home) as library:
        assert_clean_failure(home, import_pdf(library, fake), "not a PDF")


def test_truncated_pdf(home: Path, tmp_path: Path) -> None:
    doc = pymupdf.open()
    for n in range(40):
        doc.new_page().insert_text((72, 72), f"Page {n} " + "filler words " * 40, fontsize=11)
    data = doc.tobytes(garbage=0, deflate=False)
    doc.close()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(data[: len(data) // 2])
    with Library(home) as library:
        result = import_pdf(library, cut)
    assert_clean_failure(home, result, "truncated")


def test_truncated_corpus_pdf_is_a_clear_failure(home: Path, tmp_path: Path) -> None:
    """A real file cut before its first page object: nothing left to read."""
    data = corpus_file("arxiv__1706.03762.pdf").read_bytes()
    cut = tmp_path / "attention-cut.pdf"
    cut.write_bytes(data[:2048])
    with Library(home) as library:
        assert_clean_failure(home, import_pdf(library, cut), "PDF")


def test_cyclic_page_tree(home: Path) -> None:
    with Library(home) as library:
        assert_clean_failure(home, import_pdf(library, corpus_file("pdfjs__Pages-tree-refs.pdf")), "page tree")


@pytest.mark.parametrize("count", [-1, 3000, 2_000_000_000])
def test_an_impossible_declared_page_count_is_a_damaged_page_tree(home: Path, tmp_path: Path, count: int) -> None:
    """MuPDF refuses such a page tree ("code=7: Invalid number of pages"): a sentence, not an internal error."""
    path = tmp_path / f"count-{count}.pdf"
    path.write_bytes(declared_page_count(count))
    with Library(home) as library:
        assert_clean_failure(home, import_pdf(library, path), "page tree", "impossible number of pages")


def test_pdf_that_opens_with_zero_pages(home: Path) -> None:
    with Library(home) as library:
        assert_clean_failure(home, import_pdf(library, corpus_file("py-pdf__unreadablemetadata.pdf")), "pages")


def test_image_only_pdf_is_imported_flagged_with_page_groups(home: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no Tesseract: the scan stays unread (tests/core/test_ocr.py reads it)
    with Library(home) as library:
        result = import_pdf(library, corpus_file("docling__nemotron_multipage.pdf"))
        assert (result.status, result.outline_source, result.page_count) == ("ready", "pages", 4)
        assert "no page has a text layer" in result.warning.lower()
        record = library.get(result.doc_id)
        assert record is not None and record.image_only_pages == 4
        nodes = library.tree(result.doc_id)
        assert nodes and min(n.start_page for n in nodes) == 1 and max(n.end_page for n in nodes) == 4


def test_partly_image_only_pdf_counts_the_pages_without_text(home: Path, tmp_path: Path) -> None:
    doc = pymupdf.open()
    for n in range(6):
        page = doc.new_page()
        if n % 2 == 0:
            page.insert_text((72, 72), f"Text on page {n + 1}", fontsize=12)
        else:
            page.draw_rect(pymupdf.Rect(72, 72, 300, 300), color=(0, 0, 0), fill=(0.5, 0.5, 0.5))
    path = tmp_path / "mixed.pdf"
    doc.save(path)
    doc.close()
    with Library(home) as library:
        result = import_pdf(library, path)
        assert result.status == "ready" and "3 of 6 pages have no text layer" in result.warning
        assert library.get(result.doc_id).image_only_pages == 3  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "name",
    ["pdfplumber__empty.pdf", "pdfjs__Pages-tree-refs.pdf", "py-pdf__unreadablemetadata.pdf"],
)
def test_a_failed_file_can_be_retried_without_duplicates(home: Path, name: str) -> None:
    with Library(home) as library:
        first = import_pdf(library, corpus_file(name))
        second = import_pdf(library, corpus_file(name))
        assert first.doc_id == second.doc_id and second.status == "failed" and not second.already_present
        assert len(library.documents()) == 1


def test_a_symbolic_link_that_loops_is_named_as_such(home: Path, tmp_path: Path) -> None:
    """Python 3.11's Path.resolve raises RuntimeError on a loop; it used to reach the user as "internal error"."""
    loop = tmp_path / "loop.pdf"
    loop.symlink_to(loop.name)
    (tmp_path / "a.pdf").symlink_to("b.pdf")
    (tmp_path / "b.pdf").symlink_to("a.pdf")
    assert pdf_paths([loop, tmp_path / "a.pdf"]) == [loop, tmp_path / "a.pdf"]
    with Library(home) as library:
        for path in (loop, tmp_path / "a.pdf"):
            result = import_pdf(library, path)
            assert result.status == "failed" and "symbolic link that loops" in result.error, result.error
            assert result.error.count(". ") == 0
        assert library.documents() == []


def test_a_file_name_that_is_not_utf8_is_stored_with_replacement_characters(home: Path, tmp_path: Path) -> None:
    """POSIX names are bytes; Python gives undecodable ones as surrogate escapes, which SQLite refused (the import
    stopped on an internal error and left an orphan copy in files/)."""
    doc = pymupdf.open()
    for n in range(2):
        doc.new_page().insert_text((72, 72), f"Plain body text on page {n + 1}.", fontsize=10)
    path = tmp_path / os.fsdecode(b"caf\xe9 report.pdf")
    path.write_bytes(doc.tobytes())  # MuPDF itself cannot open such a name: the child reads the library's copy
    doc.close()
    with Library(home) as library:
        result = import_pdf(library, path)
        assert result.status == "ready", result.error
        record = library.get(result.doc_id)
        assert record is not None and record.file_name == "caf\ufffd report.pdf"
        assert record.title == "caf\ufffd report"
        missing = import_pdf(library, tmp_path / os.fsdecode(b"gone\xff.pdf"))
        assert missing.status == "failed" and missing.error.endswith("gone\ufffd.pdf.")
        missing.error.encode("utf-8")


def test_titles_with_unpaired_surrogates_are_stored_with_replacement_characters(home: Path, tmp_path: Path) -> None:
    """A bookmark and metadata title in UTF-16 with unpaired surrogates: the save raised UnicodeEncodeError."""
    path = tmp_path / "surrogates.pdf"
    path.write_bytes(surrogate_titles())
    with Library(home) as library:
        result = import_pdf(library, path)
        assert result.status == "ready" and result.outline_source == "bookmarks", result
        titles = [node.title for node in library.tree(result.doc_id)]
        assert titles[1:] == ["Second", "Third"] and "\ufffd" in titles[0]
        assert result.title.encode("utf-8")


def damaged_pdf(path: Path, pages: int, lost: tuple[int, ...] = (), declared: int | None = None) -> Path:
    """A text PDF of `pages` pages damaged as a disk or a download damages one: its xref offset points nowhere (so
    MuPDF must repair it by scanning), the objects of the `lost` pages (1-based) are overwritten, and the page tree
    may declare more pages than it has."""
    doc = pymupdf.open()
    for n in range(pages):
        doc.new_page().insert_text((72, 72), f"Page {n + 1} of the damaged report, with its own figures.", fontsize=11)
    xrefs = [doc.load_page(n - 1).xref for n in lost]
    data = doc.tobytes(garbage=0, deflate=False)
    doc.close()
    for xref in xrefs:
        data = data.replace(b"\n%d 0 obj" % xref, b"\n%d 0 jbo" % xref, 1)
    if declared is not None:
        data = data.replace(b"/Count %d" % pages, b"/Count %d" % declared, 1)
    at = data.rindex(b"startxref")
    path.write_bytes(data[:at] + b"startxref\n999\n%%EOF\n")
    return path


@pytest.mark.parametrize(
    ("pages", "lost", "declared", "note"),
    [
        (28, (5, 12, 20), None, "repaired: 25 of 28 pages readable"),
        (25, (), 28, "repaired: 25 of 28 pages readable"),
        (4, (2, 3, 4), None, "repaired: 1 of 4 pages readable"),
    ],
)
def test_a_repaired_pdf_that_lost_pages_is_imported_with_a_note(
    home: Path, tmp_path: Path, pages: int, lost: tuple[int, ...], declared: int | None, note: str
) -> None:
    path = damaged_pdf(tmp_path / "damaged.pdf", pages, lost, declared)
    with Library(home) as library:
        result = import_pdf(library, path)
        assert result.status == "ready" and result.page_count == pages, result
        assert note in result.warning and "no text layer" not in result.warning, result.warning
        record = library.get(result.doc_id)
        assert record is not None and record.note == note and record.to_dict()["note"] == note
        texts = [p.text for p in library.pages(result.doc_id)]
        assert [n for n, text in enumerate(texts, 1) if not text] == list(lost)
        assert all(f"Page {n} of" in texts[n - 1] for n in range(1, pages + 1) if n not in lost)
        # a sound file gets no note (and list --json no 'note' key)
        sound = tmp_path / "sound.pdf"
        doc = pymupdf.open()
        doc.new_page().insert_text((72, 72), "A sound page.", fontsize=11)
        doc.save(sound)
        doc.close()
        clean = import_pdf(library, sound)
        assert clean.status == "ready" and library.get(clean.doc_id).note == ""  # type: ignore[union-attr]
        assert "note" not in library.get(clean.doc_id).to_dict()  # type: ignore[union-attr]


def test_a_repaired_pdf_with_no_readable_page_fails_with_a_sentence(home: Path, tmp_path: Path) -> None:
    path = damaged_pdf(tmp_path / "gone.pdf", 4, (1, 2, 3, 4))
    with Library(home) as library:
        assert_clean_failure(home, import_pdf(library, path), "damaged", "none of its 4 pages")


def test_a_content_stream_whose_only_fault_is_its_checksum_is_readable(home: Path, tmp_path: Path) -> None:
    """MuPDF says 'ignoring zlib error: incorrect data check' and reads the whole page: no note for it."""
    import zlib

    doc = pymupdf.open()
    for n in range(3):
        doc.new_page().insert_text((72, 72), f"Page {n + 1} keeps every word.", fontsize=11)
    page = doc.load_page(1)
    (xref,) = page.get_contents()
    packed = bytearray(zlib.compress(doc.xref_stream(xref)))
    packed[-1] ^= 0xFF  # the adler32 checksum after the data
    doc.update_stream(xref, bytes(packed), compress=False)
    doc.xref_set_key(xref, "Filter", "/FlateDecode")
    data = doc.tobytes(garbage=0, deflate=False)
    doc.close()
    path = tmp_path / "checksum.pdf"
    at = data.rindex(b"startxref")
    path.write_bytes(data[:at] + b"startxref\n999\n%%EOF\n")  # and MuPDF must repair the file
    with Library(home) as library:
        result = import_pdf(library, path)
        assert result.status == "ready" and result.warning == "", result
        assert library.get(result.doc_id).note == ""  # type: ignore[union-attr]
        assert "Page 2 keeps every word." in library.pages(result.doc_id, [2])[0].text
