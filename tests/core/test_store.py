"""The library store: content addressing, one-transaction index writes, tree round trip, search, removal."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.errors import DocumentNotFound, LibraryTooNew, PageIndexError
from pageindex_desktop.core.library.migrations import MIGRATIONS
from pageindex_desktop.core.outline.tree import Node, Outline
from pageindex_desktop.core.library.store import Library, sha256_of


def _pages() -> list[PageData]:
    return [
        PageData(1, "i", "Annual report. Net income rose to $1,234 million.", 612, 792),
        PageData(2, "1", "Risk factors: interest rates and credit.", 612, 792),
        PageData(3, "2", "", 612, 792),
    ]


def _outline() -> Outline:
    child = Node("0002", "Risk factors", 2, 2, 3, True)
    return Outline("layout", [Node("0001", "Report", 1, 1, 3, True, "", [child])])


def _add(library: Library, tmp_path: Path, data: bytes = b"%PDF-1.4 test") -> str:
    src = tmp_path / "report.pdf"
    src.write_bytes(data)
    return library.add_file(src, sha256_of(src), "report").doc_id


def test_same_bytes_give_the_same_document_and_one_copy(library: Library, tmp_path: Path) -> None:
    first = _add(library, tmp_path)
    second = _add(library, tmp_path)
    assert first == second
    assert len(library.documents()) == 1
    assert len(list(library.files_dir.glob("*.pdf"))) == 1


def test_save_index_round_trips_tree_pages_and_status(library: Library, tmp_path: Path) -> None:
    doc_id = _add(library, tmp_path)
    library.save_index(doc_id, title="Annual", pages=_pages(), outline=_outline())
    doc = library.get(doc_id)
    assert doc is not None and doc.status == "ready" and doc.page_count == 3
    assert doc.outline_source == "layout" and doc.image_only_pages == 1
    assert [n.to_dict() for n in library.tree(doc_id)] == [n.to_dict() for n in _outline().nodes]
    assert [p.label for p in library.pages(doc_id, [3, 1])] == ["i", "2"]


def test_a_failed_index_write_leaves_the_previous_state(library: Library, tmp_path: Path) -> None:
    doc_id = _add(library, tmp_path)
    library.save_index(doc_id, title="Annual", pages=_pages(), outline=_outline())
    broken = Outline("layout", [Node("0001", "A", 1, 1, 1), Node("0001", "dup id", 1, 2, 2)])
    with pytest.raises(sqlite3.IntegrityError):
        library.save_index(doc_id, title="Changed", pages=_pages()[:1], outline=broken)
    assert library.get(doc_id).title == "Annual"
    assert len(library.pages(doc_id)) == 3
    assert library.tree(doc_id)[0].children[0].title == "Risk factors"


def test_search_finds_exact_terms_figures_and_survives_punctuation(library: Library, tmp_path: Path) -> None:
    doc_id = _add(library, tmp_path)
    library.save_index(doc_id, title="Annual", pages=_pages(), outline=_outline())
    assert [h.page for h in library.search("1,234")] == [1]
    assert [h.page for h in library.search('"interest rates"')] == [2]
    assert [h.page for h in library.search('risk AND "(')] == [2]
    assert "[[" in library.search("credit")[0].snippet


def test_resolve_by_id_and_title_prefix(library: Library, tmp_path: Path) -> None:
    doc_id = _add(library, tmp_path)
    library.save_index(doc_id, title="Annual Report 2023", pages=_pages(), outline=_outline())
    assert library.resolve(doc_id).doc_id == doc_id
    assert library.resolve("annual rep").doc_id == doc_id
    with pytest.raises(DocumentNotFound):
        library.resolve("quarterly")


def test_remove_deletes_rows_index_and_file(library: Library, tmp_path: Path) -> None:
    doc_id = _add(library, tmp_path)
    library.save_index(doc_id, title="Annual", pages=_pages(), outline=_outline())
    library.remove(doc_id)
    assert library.documents() == [] and library.search("risk") == []
    assert list(library.files_dir.glob("*.pdf")) == []


def test_interrupted_imports_become_retryable_failures(library: Library, tmp_path: Path) -> None:
    doc_id = _add(library, tmp_path)
    library.set_status(doc_id, "importing")
    assert library.recover_interrupted() == [doc_id]
    doc = library.get(doc_id)
    assert doc.status == "failed" and "Re-index" in doc.error


def test_schema_version_is_recorded(library: Library) -> None:
    assert library.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_ten_processes_opening_a_new_library_at_once_all_succeed(tmp_path: Path) -> None:
    from tests.core.concurrent_open import open_together

    for round_number in range(2):  # without the in-lock version check, most rounds lost several of ten
        outcomes = open_together(tmp_path / f"home{round_number}", 10)
        assert outcomes == ["ok"] * 10, outcomes
        with Library(tmp_path / f"home{round_number}") as library:
            assert library.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_a_library_written_by_a_newer_version_is_a_sentence_and_left_alone(tmp_path: Path) -> None:
    """It used to be a RuntimeError, which the CLI and the window showed as an internal error."""
    Library(tmp_path).close()
    with sqlite3.connect(tmp_path / "library.sqlite3") as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    with pytest.raises(LibraryTooNew) as raised:
        Library(tmp_path)
    assert isinstance(raised.value, PageIndexError)
    assert str(raised.value) == (f"The library was written by a newer version of PageIndex Desktop "
                                 f"(schema {len(MIGRATIONS) + 5}); please upgrade.")
    with sqlite3.connect(tmp_path / "library.sqlite3") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 5


def test_a_renamed_document_keeps_its_title_through_a_reindex(library: Library, tmp_path: Path) -> None:
    doc_id = _add(library, tmp_path)
    library.save_index(doc_id, title="Annual", pages=_pages(), outline=_outline())
    assert library.rename(doc_id, "  2023   Annual Report ").title == "2023 Annual Report"
    library.save_index(doc_id, title="Annual", pages=_pages(), outline=_outline())  # a re-index
    assert library.get(doc_id).title == "2023 Annual Report"  # type: ignore[union-attr]
    with pytest.raises(PageIndexError, match="needs a title"):
        library.rename(doc_id, "   ")
    with pytest.raises(DocumentNotFound):
        library.rename("nope", "x")
