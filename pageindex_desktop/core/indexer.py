"""The import pipeline: hash, copy into the library, extract and build the tree in a child process, save at once.

Callers (the CLI, the window's indexing worker) get progress as `ImportProgress` events and may cancel through a
`threading.Event`; the child is stopped within about half a second. Bad PDFs never raise: the result says
'failed' with a one-sentence error and the library keeps no half-written pages or nodes. Programming errors raise.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pageindex_desktop.core import extract_worker
from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.errors import DocumentNotFound
from pageindex_desktop.core.import_lock import import_lock
from pageindex_desktop.core.outline.tree import Outline
from pageindex_desktop.core.store import DocumentRecord, Library, sha256_of

log = logging.getLogger(__name__)

STAGES = ("queued", "extracting", "building", "saving", "done", "failed")
CANCELLED = "Import cancelled. Re-index to try again."
PDF_SUFFIX = ".pdf"


@dataclass(frozen=True)
class ImportProgress:
    """One progress event: stage (see STAGES), pages done of total, and a short message for a status bar."""

    doc_id: str
    stage: str
    done: int
    total: int
    message: str


@dataclass(frozen=True)
class ImportResult:
    """How one import ended; `error` is a sentence for the user when status is 'failed'.

    `warning` is set on success when something needs saying anyway (pages without a text layer, a re-index that
    did not finish and kept the previous index).
    """

    doc_id: str
    title: str
    page_count: int
    outline_source: str
    status: str
    error: str
    already_present: bool
    warning: str = ""

    def to_dict(self) -> dict[str, object]:
        """The JSON shape of `pageindex-desktop-cli import` (design §9), plus error/warning when set."""
        data: dict[str, object] = {
            "doc_id": self.doc_id,
            "title": self.title,
            "page_count": self.page_count,
            "outline_source": self.outline_source,
            "status": self.status,
        }
        if self.error:
            data["error"] = self.error
        if self.warning:
            data["warning"] = self.warning
        return data


ProgressCallback = Callable[[ImportProgress], None]


def pdf_paths(paths: Iterable[Path]) -> list[Path]:
    """Files as given, folders expanded (recursively, sorted) to the .pdf files inside; duplicates dropped."""
    out: list[Path] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw).expanduser()
        found = (
            sorted(p for p in path.rglob("*") if p.suffix.lower() == PDF_SUFFIX and p.is_file())
            if path.is_dir()
            else [path]
        )
        for item in found:
            key = item.resolve()
            if key not in seen:
                seen.add(key)
                out.append(item)
    return out


def import_pdf(
    library: Library,
    path: Path,
    *,
    password: str | None = None,
    use_bookmarks: bool = True,
    on_progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> ImportResult:
    """Add a PDF to the library and index it; the same bytes already indexed return at once (already_present)."""
    path = Path(path)
    if not path.is_file():
        return _failed_without_record(path, f"There is no file at {path}.")
    try:
        sha = sha256_of(path)
    except OSError as exc:
        return _failed_without_record(path, f"The file cannot be read: {exc.strerror or exc}.")
    existing = library.find_by_sha(sha)
    if existing is not None and existing.status == "ready":
        _emit(on_progress, existing.doc_id, "done", existing.page_count, existing.page_count, "Already in the library.")
        return _result(existing, already_present=True)
    try:
        record = existing or library.add_file(path, sha, title=path.stem)
    except OSError as exc:
        return _failed_without_record(path, f"The file could not be copied into the library: {exc.strerror or exc}.")
    return _index(library, record, path.name, password, use_bookmarks, on_progress, cancel)


def reindex(
    library: Library,
    doc_id: str,
    *,
    password: str | None = None,
    use_bookmarks: bool = True,
    on_progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> ImportResult:
    """Index a library document again from its stored copy (after a failure, or with other options)."""
    record = library.get(doc_id)
    if record is None:
        raise DocumentNotFound(f"No document with id '{doc_id}'.")
    return _index(library, record, record.file_name or f"{record.doc_id}.pdf", password, use_bookmarks,
                  on_progress, cancel)


def _index(
    library: Library,
    record: DocumentRecord,
    file_name: str,
    password: str | None,
    use_bookmarks: bool,
    on_progress: ProgressCallback | None,
    cancel: threading.Event | None,
) -> ImportResult:
    doc_id = record.doc_id
    was_ready = record.status == "ready"
    _emit(on_progress, doc_id, "queued", 0, 0, "Waiting to read the PDF.")
    source = library.pdf_path(doc_id)
    with import_lock(library.home, doc_id) as locked:
        if not locked:
            return _result(record, error="This document is being imported by another process right now.")
        if not source.is_file():
            return _finish_failed(library, record, was_ready, on_progress,
                                  "The library's copy of this PDF is missing; import the file again.")
        library.set_status(doc_id, "importing")
        started = time.monotonic()
        try:
            outcome = _extract(doc_id, source, password, use_bookmarks, file_name, on_progress, cancel)
            if outcome.kind == "result" and cancel is not None and cancel.is_set():
                outcome = extract_worker.JobOutcome("cancelled")
            if outcome.kind != "result":
                return _finish_failed(library, record, was_ready, on_progress, _message(doc_id, outcome))
            assert outcome.payload is not None
            return _save(library, record, was_ready, outcome.payload, on_progress, started)
        except BaseException as exc:  # Ctrl+C, or a bug (in a callback, say): never leave it 'importing'
            reason = CANCELLED if isinstance(exc, KeyboardInterrupt) else "The import stopped on an internal error."
            _finish_failed(library, record, was_ready, None, reason)
            raise


def _extract(
    doc_id: str,
    source: Path,
    password: str | None,
    use_bookmarks: bool,
    file_name: str,
    on_progress: ProgressCallback | None,
    cancel: threading.Event | None,
) -> extract_worker.JobOutcome:
    """Run the child on the library copy, forwarding its progress; the child is released or stopped after."""
    _emit(on_progress, doc_id, "extracting", 0, 0, "Opening the PDF.")
    worker, failed = extract_worker.acquire(cancel)
    if worker is None:
        assert failed is not None
        return failed

    def forward(stage: str, done: int, total: int) -> None:
        text = f"Reading page {done} of {total}." if stage == "extracting" else "Building the section tree."
        _emit(on_progress, doc_id, stage, done, total, text)

    outcome = extract_worker.JobOutcome("crashed", message="The import stopped unexpectedly.")
    try:
        outcome = worker.run(source, password, use_bookmarks, file_name, forward, cancel)
    finally:
        pages = int(outcome.payload["page_count"]) if outcome.payload else 0
        extract_worker.release(worker, outcome, pages)
    return outcome


def _save(
    library: Library,
    record: DocumentRecord,
    was_ready: bool,
    payload: dict[str, Any],
    on_progress: ProgressCallback | None,
    started: float,
) -> ImportResult:
    doc_id = record.doc_id
    pages: list[PageData] = payload["pages"]
    outline: Outline = payload["outline"]
    title = str(payload["title"]) or record.title
    if not pages:
        return _finish_failed(library, record, was_ready, on_progress, "The PDF has no pages.")
    _emit(on_progress, doc_id, "saving", 0, 1, "Saving the index.")
    try:
        library.save_index(doc_id, title=title, pages=pages, outline=outline)
    except (sqlite3.OperationalError, OSError) as exc:
        return _finish_failed(library, record, was_ready, on_progress, f"The index could not be saved: {exc}.")
    warning = _text_layer_warning(pages)
    log.info("indexed %s: %d pages, outline %s, %.2f s", doc_id, len(pages), outline.source,
             time.monotonic() - started)
    _emit(on_progress, doc_id, "done", len(pages), len(pages), warning or "Ready.")
    saved = library.get(doc_id)
    assert saved is not None
    return _result(saved, warning=warning)


def _text_layer_warning(pages: list[PageData]) -> str:
    """A sentence about pages with no text layer, or '' when every page has text."""
    missing = sum(1 for p in pages if not p.has_text)
    if missing == 0:
        return ""
    if missing == len(pages):
        return ("No page has a text layer (scanned or image-only), so the tree is plain page groups and search "
                "finds nothing; OCR is not available yet.")
    return f"{missing} of {len(pages)} pages have no text layer (scanned or image-only); their text is not searchable."


def _message(doc_id: str, outcome: extract_worker.JobOutcome) -> str:
    """The user's sentence for an outcome that is not a result."""
    if outcome.kind == "cancelled":
        return CANCELLED
    if outcome.kind == "crashed":
        log.warning("extraction child for %s ended abnormally: %s", doc_id, outcome.message)
        return outcome.message.rstrip(".") + "; re-index to try again."
    if outcome.error_kind == "internal":
        log.error("internal error while indexing %s: %s\n%s", doc_id, outcome.message, outcome.details)
        return f"The import stopped on an internal error ({outcome.message}); details are in the log."
    return outcome.message


def _finish_failed(
    library: Library,
    record: DocumentRecord,
    was_ready: bool,
    on_progress: ProgressCallback | None,
    error: str,
) -> ImportResult:
    """Record a failure; a re-index of a ready document keeps its previous index and stays ready."""
    doc_id = record.doc_id
    if was_ready:
        library.set_status(doc_id, "ready")
        warning = f"Re-index did not finish ({error.rstrip('.')}); the previous index is kept."
        _emit(on_progress, doc_id, "done", record.page_count, record.page_count, warning)
        saved = library.get(doc_id)
        assert saved is not None
        return _result(saved, warning=warning)
    library.set_status(doc_id, "failed", error)
    _emit(on_progress, doc_id, "failed", 0, 0, error)
    saved = library.get(doc_id)
    assert saved is not None
    return _result(saved)


def _failed_without_record(path: Path, error: str) -> ImportResult:
    return ImportResult("", path.stem, 0, "", "failed", error, False)


def _result(record: DocumentRecord, *, already_present: bool = False, warning: str = "", error: str = "") -> ImportResult:
    return ImportResult(
        doc_id=record.doc_id,
        title=record.title,
        page_count=record.page_count,
        outline_source=record.outline_source,
        status=record.status,
        error=error or record.error,
        already_present=already_present,
        warning=warning,
    )


def _emit(callback: ProgressCallback | None, doc_id: str, stage: str, done: int, total: int, message: str) -> None:
    if callback is not None:
        callback(ImportProgress(doc_id, stage, done, total, message))
