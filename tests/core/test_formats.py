"""E-books and other formats MuPDF opens (EPUB, XPS, FB2, CBZ, TXT, MOBI): imported through the same pipeline,
laid out to a PDF beside the source copy, their own contents as the tree, searchable; bad input fails in one
sentence with nothing half-written."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core import formats
from pageindex_desktop.core.ingest.indexer import import_pdf, pdf_paths, reindex
from pageindex_desktop.core.library.store import Library
from tests.core.ebook_factory import CHAPTERS, MOBI_RECORD, write_cbz, write_epub, write_fb2, write_mobi, write_xps
from tests.core.test_bad_input import assert_clean_failure


def files_of(home: Path) -> list[str]:
    """The names in the library's files/ folder."""
    return sorted(p.name for p in (home / "files").iterdir())


def test_epub_imports_with_its_contents_as_tree_and_is_searchable(home: Path, tmp_path: Path) -> None:
    book = write_epub(tmp_path / "almanac.epub")
    with Library(home) as library:
        result = import_pdf(library, book)
        assert result.status == "ready", result.error
        assert result.title == "The Lighthouse Almanac"  # the book's own metadata title
        assert result.outline_source == "bookmarks"
        tree = library.tree(result.doc_id)
        assert [n.title for n in tree] == [name for name, _ in CHAPTERS]
        starts = [n.start_page for n in tree]
        assert starts == sorted(starts) and starts[0] == 1 and starts[-1] > 1
        sha = library.get(result.doc_id).sha256  # type: ignore[union-attr]
        assert files_of(home) == [f"{sha}.epub", f"{sha}.pdf"]
        shown = pymupdf.open(library.pdf_path(result.doc_id))  # what the viewer opens is a PDF of the same pages
        assert shown.is_pdf and shown.page_count == result.page_count
        second = tree[1]
        hits = library.search("squall pressure millibars")
        assert hits and all(second.start_page <= h.page <= second.end_page for h in hits)
        assert "pelicans" in library.pages(result.doc_id, [1])[0].text


def test_a_mobi_built_here_is_what_mupdf_reads_as_a_mobi_book(tmp_path: Path) -> None:
    book = write_mobi(tmp_path / "almanac.mobi")
    assert formats.problem(book) is None
    raw = book.read_bytes()
    assert raw[60:68] == b"BOOKMOBI" and int.from_bytes(raw[76:78], "big") == 5  # header, 3 text records, EOF
    opened = pymupdf.open(str(book), filetype="mobi")
    assert opened.metadata["format"] == "MOBI" and opened.is_reflowable  # not taken for some other format
    text = "".join(page.get_text() for page in opened)
    assert "pelicans" in text and "millibars" in text and "pilings" in text  # every text record, joined
    assert [title for _, title, _ in opened.get_toc()] == [name for name, _ in CHAPTERS]


def test_mobi_imports_with_its_chapters_as_tree_and_is_searchable(home: Path, tmp_path: Path) -> None:
    book = write_mobi(tmp_path / "almanac.mobi")
    with Library(home) as library:
        result = import_pdf(library, book)
        assert result.status == "ready", result.error
        assert result.title == "The Lighthouse Almanac" and result.outline_source == "bookmarks"
        tree = library.tree(result.doc_id)
        assert [n.title for n in tree] == [name for name, _ in CHAPTERS]
        assert [n.start_page for n in tree] == sorted(n.start_page for n in tree) and tree[0].start_page == 1
        sha = library.get(result.doc_id).sha256  # type: ignore[union-attr]
        assert files_of(home) == [f"{sha}.mobi", f"{sha}.pdf"]
        assert (home / "files" / f"{sha}.mobi").read_bytes() == book.read_bytes()
        last = tree[-1]  # its text starts past the first text record and runs on into the third
        assert book.read_bytes().find(b"Cormorants returned") - book.read_bytes().find(b"<html>") > MOBI_RECORD
        hits = library.search("cormorants nested pilings")
        assert hits and all(last.start_page <= h.page <= last.end_page for h in hits)
        assert "pelicans" in library.pages(result.doc_id, [1])[0].text


@pytest.mark.parametrize("name, writer, words, pages", [
    ("almanac.fb2", write_fb2, "cormorants pilings", 2),
    ("tides.xps", write_xps, "appendix soundings", 2),
])
def test_fb2_and_xps_import_and_search(home: Path, tmp_path: Path, name: str, writer: object, words: str,
                                       pages: int) -> None:
    path = writer(tmp_path / name)  # type: ignore[operator]
    with Library(home) as library:
        result = import_pdf(library, path)
        assert result.status == "ready", result.error
        assert result.page_count >= pages
        assert library.search(words), f"{words!r} not found in {name}"


def test_cbz_imports_as_image_pages(home: Path, tmp_path: Path) -> None:
    comic = write_cbz(tmp_path / "comic.cbz", pages=3)
    with Library(home) as library:
        result = import_pdf(library, comic)
        assert result.status == "ready", result.error
        assert result.page_count == 3
        assert "text layer" in result.warning  # pictures: flagged like scanned pages


def test_plain_text_imports_and_reindexes(home: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Minutes of the harbour board\n\n" + "The dredging contract was renewed for two years.\n" * 200,
                     encoding="utf-8")
    with Library(home) as library:
        first = import_pdf(library, notes)
        assert first.status == "ready", first.error
        assert first.page_count > 1
        assert library.search("dredging contract")
        again = reindex(library, first.doc_id)
        assert again.status == "ready" and again.page_count == first.page_count
        library.remove(first.doc_id)
        assert files_of(home) == []  # the source copy goes with the laid-out PDF


@pytest.mark.parametrize("name, content, words", [
    ("empty.epub", b"", "empty"),
    ("fake.epub", b"<html>not a zip</html>" * 20, "not an EPUB"),
    ("fake.mobi", b"\x00" * 200, "MOBI"),
    ("binary.txt", b"\x00\x01\x02binary" * 50, "not UTF-8"),
    ("fake.fb2", b"plain words, no markup" * 20, "not an XML"),
    ("fake.cbz", b"GIF89a" + b"\x00" * 100, "not a zip"),
])
def test_bad_input_fails_before_any_copy(home: Path, tmp_path: Path, name: str, content: bytes, words: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with Library(home) as library:
        assert_clean_failure(home, import_pdf(library, path), words)
    assert files_of(home) == []


def test_damaged_epub_fails_in_one_sentence_and_writes_no_pdf(home: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.epub"
    with zipfile.ZipFile(broken, "w") as archive:  # a zip, but no container, no package, no chapters
        archive.writestr("mimetype", "application/epub+zip")
        archive.writestr("junk.bin", b"\x00" * 64)
    truncated = tmp_path / "truncated.epub"
    truncated.write_bytes(write_epub(tmp_path / "whole.epub").read_bytes()[:300])
    with Library(home) as library:
        for path in (broken, truncated):
            result = import_pdf(library, path)
            assert_clean_failure(home, result, "EPUB")
    assert not [n for n in files_of(home) if n.endswith((".pdf", ".part"))]  # sources kept for a retry, no pages


def test_folder_import_finds_every_format(tmp_path: Path) -> None:
    folder = tmp_path / "inbox"
    (folder / "sub").mkdir(parents=True)
    for name in ("a.pdf", "b.EPUB", "sub/c.md", "d.txt", "e.fb2", "f.xps", "g.cbz", "h.mobi", "i.docx", "j.png"):
        (folder / name).write_bytes(b"x")
    found = [p.relative_to(folder).as_posix() for p in pdf_paths([folder])]
    assert found == ["a.pdf", "b.EPUB", "d.txt", "e.fb2", "f.xps", "g.cbz", "h.mobi", "sub/c.md"]


def test_every_format_has_a_mime_type_and_a_dialog_pattern() -> None:
    patterns = formats.dialog_filter()
    for fmt in formats.FORMATS:
        assert fmt.mime_types
        for name in fmt.names:
            assert f"*.{name}" in patterns.split(";;")[0]
    assert formats.format_of("Report.PDF") is formats.PDF and formats.format_of("no_suffix") is formats.PDF
    assert formats.format_of("book.Epub") is formats.EPUB and formats.format_of("x.markdown") is formats.MARKDOWN
