"""The library: one SQLite database (WAL, versioned schema) plus content-addressed copies of the PDFs.

Every multi-row write runs in one transaction, so a crash or a cancel leaves the previous state intact.
A `Library` owns one connection; open one per thread (SQLite connections are not shared across threads). The
functions that write are marked `@writes`: in the window they run on the store's one writer thread
(`store_writer.py`), elsewhere in place.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Concatenate, Iterable, Iterator, ParamSpec, TypeVar

from pageindex_desktop.core.library import document_resolver, library_files, page_search
from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.errors import DocumentBusy, DocumentNotFound, PageIndexError
from pageindex_desktop.core.library.file_names import readable
from pageindex_desktop.core.library.import_lock import LOCKS_DIR, import_lock, is_locked
from pageindex_desktop.core.library.migrations import migrate
from pageindex_desktop.core.outline.tree import Node, Outline
from pageindex_desktop.core.library.privacy import open_private, private_dir, repair
from pageindex_desktop.core.library.page_search import SearchHit  # noqa: F401  (re-exported: callers import it from here)

log = logging.getLogger(__name__)
DB_NAME = "library.sqlite3"
FILES_DIR = "files"
LOGS_DIR = "logs"  # where the logs go when the home is set by $PAGEINDEX_DESKTOP_HOME (config.log_dir)
STATUSES = ("queued", "importing", "ready", "failed")
P = ParamSpec("P")
R = TypeVar("R")


def writes(fn: Callable[Concatenate[Library, P], R]) -> Callable[Concatenate[Library, P], R]:
    """Mark a function (or method) whose first argument is the library and that writes to it: it runs through
    `library.run_write`, i.e. in place for a plain `Library`, on the store writer's thread for the window's
    connections (`store_writer.QueuedLibrary`). Keep such a function short (one transaction, no model call, no
    extraction): every other write of the window waits behind it."""

    @functools.wraps(fn)
    def routed(library: Library, *args: P.args, **kwargs: P.kwargs) -> R:
        return library.run_write(fn, *args, **kwargs)

    return routed


@dataclass(frozen=True)
class DocumentRecord:
    """One row of the documents table, as the CLI and the UI see it."""

    doc_id: str
    sha256: str
    title: str
    file_name: str
    page_count: int
    status: str
    error: str
    outline_source: str
    description: str
    image_only_pages: int
    created_at: float
    updated_at: float
    note: str = ""  # what the reader should know, e.g. "repaired: 25 of 28 pages readable"

    def to_dict(self) -> dict[str, object]:
        """The JSON shape of `pageindex-desktop-cli list` (design §9), plus `note` when there is one."""
        data: dict[str, object] = {
            "doc_id": self.doc_id,
            "title": self.title,
            "page_count": self.page_count,
            "status": self.status,
            "outline_source": self.outline_source,
            "error": self.error,
        }
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class PageText:
    """A stored page: physical number, printed label and text."""

    page: int
    label: str
    text: str


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file's bytes, read in chunks so large PDFs do not load into memory."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def doc_id_for(sha256: str) -> str:
    """Documents are named by their content: the first 12 hex digits of the SHA-256."""
    return sha256[:12]


_DOC_COLUMNS = (
    "id, sha256, title, file_name, page_count, status, error, outline_source, description, "
    "image_only_pages, created_at, updated_at, note"
)


def _record(row: sqlite3.Row) -> DocumentRecord:
    return DocumentRecord(
        doc_id=row["id"],
        sha256=row["sha256"],
        title=row["title"] or "",
        file_name=row["file_name"] or "",
        page_count=int(row["page_count"] or 0),
        status=row["status"],
        error=row["error"] or "",
        outline_source=row["outline_source"] or "",
        description=row["description"] or "",
        image_only_pages=int(row["image_only_pages"] or 0),
        created_at=float(row["created_at"] or 0),
        updated_at=float(row["updated_at"] or 0),
        note=row["note"] or "",
    )


MAX_TITLE = 200  # characters of a title the user types
WAL_WAIT = 30.0  # seconds a first open waits for another process switching the same new library to WAL


def _use_wal(conn: sqlite3.Connection) -> None:
    """Switch to write-ahead logging. On a new library several processes may try at once, and the switch takes an
    exclusive lock without SQLite's busy wait, so "database is locked" is retried here."""
    deadline = time.monotonic() + WAL_WAIT
    delay = 0.005
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


class Library:
    """A per-user library folder: `library.sqlite3` and `files/<sha256>.pdf`."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.files_dir = self.home / FILES_DIR
        private_dir(self.home)
        private_dir(self.files_dir)
        self.db_path = self.home / DB_NAME
        if not self.db_path.exists():
            os.close(open_private(self.db_path))  # SQLite gives its -wal and -shm files the database's mode
        self.conn = sqlite3.connect(self.db_path, timeout=30, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        _use_wal(self.conn)
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        try:
            migrate(self.conn)
        except BaseException:  # a library too new for this version (LibraryTooNew) or a failed step
            self.conn.close()
            raise
        repair(self.home, (FILES_DIR, LOCKS_DIR, LOGS_DIR))

    def close(self) -> None:
        """Close the connection (the database stays consistent either way)."""
        self.conn.close()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run_write(self, fn: Callable[Concatenate[Library, P], R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a `@writes` function's body with this library; a plain Library writes itself, here and now."""
        return fn(self, *args, **kwargs)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write: everything inside commits together or not at all."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # ---- documents -------------------------------------------------------------------------------------

    def documents(self) -> list[DocumentRecord]:
        """All documents, oldest first."""
        rows = self.conn.execute(f"SELECT {_DOC_COLUMNS} FROM documents ORDER BY created_at, id").fetchall()
        return [_record(r) for r in rows]

    def get(self, doc_id: str) -> DocumentRecord | None:
        """The document with this id, or None."""
        row = self.conn.execute(f"SELECT {_DOC_COLUMNS} FROM documents WHERE id = ?", (doc_id,)).fetchone()
        return _record(row) if row else None

    def find_by_sha(self, sha256: str) -> DocumentRecord | None:
        """The document whose bytes hash to `sha256`, or None."""
        row = self.conn.execute(f"SELECT {_DOC_COLUMNS} FROM documents WHERE sha256 = ?", (sha256,)).fetchone()
        return _record(row) if row else None

    def resolve(self, ref: str) -> DocumentRecord:
        """The document the CLI's DOC names: an id, an id prefix, a title or file name, an unambiguous prefix of
        one or a close spelling (`document_resolver`); raises DocumentNotFound saying why."""
        docs = self.documents()
        found = document_resolver.resolve(ref, docs)
        if found.document is not None:
            return found.document
        if not found.ambiguous:
            raise DocumentNotFound(f"No document matches '{ref}'.")
        names = ", ".join(document_resolver.label(d, found.candidates) for d in found.candidates[:5])
        raise DocumentNotFound(f"'{ref}' matches {len(found.candidates)} documents: {names}. Use a doc id.")

    def pdf_path(self, doc_id_or_sha: str) -> Path:
        """The PDF the viewer shows for the document: the library's copy with OCR text written in over its scanned
        pages when it has one (`library_files.shown_pdf`), else its copy as imported or laid out."""
        doc = self.get(doc_id_or_sha)
        sha = doc.sha256 if doc else doc_id_or_sha
        return library_files.shown_pdf(self.files_dir, sha)

    def source_pdf(self, doc_id_or_sha: str) -> Path:
        """The library's copy of the document's PDF as imported (or laid out): what indexing reads."""
        doc = self.get(doc_id_or_sha)
        sha = doc.sha256 if doc else doc_id_or_sha
        return self.files_dir / f"{sha}.pdf"

    def add_file(self, source: Path, sha256: str, title: str, copy: bool = True, suffix: str = "pdf") -> DocumentRecord:
        """Copy `source` into the library (atomically) and record it as queued; an existing entry is returned as
        is. `copy=False` records a file that is not kept (it cannot be a PDF: the row says why it failed).
        `suffix`: the copy's (`files/<sha>.epub` for an e-book, laid out to `<sha>.pdf` later; core/formats.py).

        The title and file name are stored as valid Unicode (`file_names.readable`): SQLite cannot store a name's
        undecodable bytes. The document's lock is held from the copy to the row, so `sweep_files` can tell a copy
        a live process is about to record from one a killed process left behind."""
        with import_lock(self.home, doc_id_for(sha256)) as held:
            if not held:
                existing = self.find_by_sha(sha256)
                if existing is not None:
                    return existing
                raise DocumentBusy("This file is being added to the library by another process right now.")
            existing = self.find_by_sha(sha256)
            target = self.files_dir / f"{sha256}.{suffix}"
            if copy and not target.exists():
                library_files.copy_in(Path(source), target)  # (a row whose copy was lost gets it back from the same file)
            if existing is not None:
                return existing
            self._insert_queued(sha256, readable(title), readable(Path(source).name))
        record = self.get(doc_id_for(sha256))
        assert record is not None
        return record

    @writes
    def _insert_queued(self, sha256: str, title: str, file_name: str) -> None:
        """The row of a file just copied in (the copy itself stays on the caller's thread: it can take seconds)."""
        now = time.time()
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO documents (id, sha256, title, file_name, page_count, status, error, outline_source,"
                " description, image_only_pages, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, 0, 'queued', '', '', '', 0, ?, ?)",
                (doc_id_for(sha256), sha256, title, file_name, now, now),
            )

    def sweep_files(self) -> list[str]:
        """Remove what no row needs from `files/` (at start-up; see core/library/library_files.py); the names removed."""
        wanted = {row[0] for row in self.conn.execute("SELECT sha256 FROM documents")}
        return library_files.sweep(self.files_dir, wanted, lambda sha: is_locked(self.home, doc_id_for(sha)))

    @writes
    def set_status(self, doc_id: str, status: str, error: str = "") -> None:
        """Move a document through queued → importing → ready | failed."""
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        with self.transaction() as conn:
            conn.execute(
                "UPDATE documents SET status = ?, error = ?, updated_at = ? WHERE id = ?",
                (status, error, time.time(), doc_id),
            )

    def recover_interrupted(self) -> list[str]:
        """Imports left 'importing' by a crash become 'failed' with a retry hint; returns their ids.

        A document whose import lock is held (a live process is importing it right now) is left alone.
        """
        self.sweep_files()
        rows = self.conn.execute("SELECT id FROM documents WHERE status = 'importing'").fetchall()
        ids = [r["id"] for r in rows if not is_locked(self.home, r["id"])]
        for doc_id in ids:
            self.set_status(doc_id, "failed", "The import was interrupted. Re-index the document to try again.")
        return ids

    @writes
    def save_index(
        self,
        doc_id: str,
        *,
        title: str,
        pages: list[PageData],
        outline: Outline,
        description: str = "",
        note: str = "",
    ) -> None:
        """Replace the document's pages and tree and mark it ready, all in one transaction; `note` replaces the
        document's note (a re-index that reads the file whole clears an old one)."""
        image_only = sum(1 for p in pages if not p.has_text)
        with self.transaction() as conn:
            conn.execute("DELETE FROM pages WHERE doc_id = ?", (doc_id,))
            conn.execute("DELETE FROM nodes WHERE doc_id = ?", (doc_id,))
            conn.executemany(
                "INSERT INTO pages (doc_id, page, label, text, ocr) VALUES (?, ?, ?, ?, ?)",
                ((doc_id, p.number, p.label, p.text, int(p.ocr)) for p in pages),
            )
            conn.executemany(
                "INSERT INTO nodes (doc_id, node_id, parent_id, ord, level, title, start_page, end_page,"
                " verified, summary, summary_source, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                _node_rows(doc_id, outline.nodes),
            )
            conn.execute(
                "UPDATE documents SET title = CASE WHEN renamed THEN title ELSE ? END, page_count = ?,"
                " status = 'ready', error = '', outline_source = ?, description = ?, image_only_pages = ?, note = ?,"
                " updated_at = ? WHERE id = ?",
                (title, len(pages), outline.source, description, image_only, note, time.time(), doc_id),
            )  # a title the user chose (rename) outlives re-indexes

    @writes
    def rename(self, doc_id: str, title: str) -> DocumentRecord:
        """Give the document the user's title: the library, the window, the assistant's tools and its citations
        all read it from here, and a re-index keeps it."""
        cleaned = " ".join(readable(title).split())[:MAX_TITLE]
        if not cleaned:
            raise PageIndexError("A document needs a title; the name was left as it was.")
        with self.transaction() as conn:
            changed = conn.execute("UPDATE documents SET title = ?, renamed = 1, updated_at = ? WHERE id = ?",
                                   (cleaned, time.time(), doc_id)).rowcount
        if not changed:
            raise DocumentNotFound(f"No document with id '{doc_id}'.")
        record = self.get(doc_id)
        assert record is not None
        return record

    @writes
    def set_summaries(self, doc_id: str, summaries: dict[str, str], description: str | None = None,
                      sources: dict[str, str] | None = None) -> None:
        """Store node summaries with where each came from (`sources`, node id → 'model' / 'excerpt' / 'text') and
        optionally the document description, in one transaction."""
        sources = sources or {}
        with self.transaction() as conn:
            conn.executemany(
                "UPDATE nodes SET summary = ?, summary_source = ? WHERE doc_id = ? AND node_id = ?",
                ((text, sources.get(node_id, ""), doc_id, node_id) for node_id, text in summaries.items()),
            )
            if description is not None:
                conn.execute(
                    "UPDATE documents SET description = ?, updated_at = ? WHERE id = ?",
                    (description, time.time(), doc_id),
                )

    def unfinished_summaries(self, doc_id: str | None = None) -> dict[str, tuple[int, int]]:
        """Documents whose summaries run stopped part-way (some sections have a summary, others none yet), each
        with (written by the model, wanted): what the library row and `list` show as "summaries: 210 of 518".
        One grouped query for the whole library (or one document)."""
        where, params = ("WHERE doc_id = ?", (doc_id,)) if doc_id else ("", ())
        rows = self.conn.execute(
            "SELECT doc_id, sum(summary_source = '') AS missing, sum(summary_source = 'model') AS model,"
            f" sum(summary_source = 'text') AS own, count(*) AS total FROM nodes {where} GROUP BY doc_id", params)
        return {r["doc_id"]: (int(r["model"]), int(r["total"]) - int(r["own"])) for r in rows
                if 0 < int(r["missing"]) < int(r["total"])}

    def remove(self, doc_id: str) -> None:
        """Delete the document, its pages, tree and PDF copy."""
        doc = self.get(doc_id)
        if doc is None:
            raise DocumentNotFound(f"No document with id '{doc_id}'.")
        with import_lock(self.home, doc_id) as held:  # the lock imports, re-indexes and summaries hold
            if not held:
                raise DocumentBusy(f"“{doc.title}” is being imported or summarized right now; remove it when that "
                                   "has finished.")
            self._delete_rows(doc_id)
            library_files.remove_copies(self.files_dir, doc.sha256)

    @writes
    def _delete_rows(self, doc_id: str) -> None:
        """A removed document's rows, in one transaction (rows that refer to it go by foreign key)."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM pages WHERE doc_id = ?", (doc_id,))
            conn.execute("DELETE FROM nodes WHERE doc_id = ?", (doc_id,))
            conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    # ---- pages and tree --------------------------------------------------------------------------------

    def tree(self, doc_id: str) -> list[Node]:
        """The document's section tree, rebuilt from the nodes table."""
        rows = self.conn.execute(
            "SELECT node_id, parent_id, level, title, start_page, end_page, verified, summary, summary_source,"
            " source FROM nodes WHERE doc_id = ? ORDER BY ord",
            (doc_id,),
        ).fetchall()
        by_id: dict[str, Node] = {}
        roots: list[Node] = []
        for r in rows:
            node = Node(
                node_id=r["node_id"],
                title=r["title"],
                level=int(r["level"]),
                start_page=int(r["start_page"]),
                end_page=int(r["end_page"]),
                verified=bool(r["verified"]),
                summary=r["summary"] or "",
                summary_source=r["summary_source"] or "",
                source=r["source"] or "",
            )
            by_id[node.node_id] = node
            parent = by_id.get(r["parent_id"]) if r["parent_id"] else None
            (parent.children if parent else roots).append(node)
        return roots

    def pages(self, doc_id: str, numbers: Iterable[int] | None = None) -> list[PageText]:
        """Stored text of the given physical pages (all pages when `numbers` is None), in page order."""
        if numbers is None:
            rows = self.conn.execute(
                "SELECT page, label, text FROM pages WHERE doc_id = ? ORDER BY page", (doc_id,)
            ).fetchall()
        else:
            wanted = sorted(set(numbers))
            rows = []
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows += self.conn.execute(
                    f"SELECT page, label, text FROM pages WHERE doc_id = ? AND page IN ({marks}) ORDER BY page",
                    (doc_id, *chunk),
                ).fetchall()
        return [PageText(int(r["page"]), r["label"] or "", r["text"] or "") for r in rows]

    def ocr_pages(self, doc_id: str) -> set[int]:
        """The document's pages whose text was recognised by OCR (schema 7's `pages.ocr`): the assistant marks
        them, since a word read from a scan may be misrecognised."""
        rows = self.conn.execute("SELECT page FROM pages WHERE doc_id = ? AND ocr = 1", (doc_id,))
        return {int(row[0]) for row in rows}

    def has_summaries(self, doc_id: str) -> bool:
        """Whether any of the document's sections has a summary (written or excerpt): a finer tree's new
        sections are then summarized too, so the document does not end half summarized."""
        row = self.conn.execute("SELECT 1 FROM nodes WHERE doc_id = ? AND summary_source != '' LIMIT 1", (doc_id,))
        return row.fetchone() is not None

    def data_version(self) -> int:
        """SQLite's `data_version` on this connection: it changes when another connection commits (a CLI import,
        the window's writer), which is how a reader notices the library changed elsewhere."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def page_labels(self, doc_id: str) -> list[str]:
        """Printed labels of every page in order (empty string where the PDF has none)."""
        rows = self.conn.execute("SELECT label FROM pages WHERE doc_id = ? ORDER BY page", (doc_id,)).fetchall()
        return [r["label"] or "" for r in rows]

    def search(self, query: str, doc_ids: Iterable[str] | None = None, limit: int = 50) -> list[SearchHit]:
        """Full-text search over page text (core/library/page_search.py): pages with every term first, best first; if
        none, pages with some of them (`matched_all` False); symbol terms verbatim."""
        return page_search.search(self.conn, query, None if doc_ids is None else list(doc_ids), limit)


def _node_rows(doc_id: str, nodes: list[Node]) -> list[tuple[object, ...]]:
    rows: list[tuple[object, ...]] = []

    def visit(children: list[Node], parent_id: str | None) -> None:
        for node in children:
            rows.append(
                (
                    doc_id,
                    node.node_id,
                    parent_id,
                    len(rows),
                    node.level,
                    node.title,
                    node.start_page,
                    node.end_page,
                    int(node.verified),
                    node.summary,
                    node.summary_source,
                    node.source,
                )
            )
            visit(node.children, node.node_id)

    visit(nodes, None)
    return rows
