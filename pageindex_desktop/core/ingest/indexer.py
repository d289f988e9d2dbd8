"""The import pipeline: hash, copy into the library, extract and build the tree in a child process, save at once.

Callers (the CLI, the window's indexing worker) get progress as `ImportProgress` events and may cancel through a
`threading.Event`; the child is stopped within about half a second. Bad PDFs never raise: the result says
'failed' with a one-sentence error and the library keeps no half-written pages or nodes. Programming errors raise.
`import_many` reads several files at once (one child per core) and still saves on the caller's thread.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path

from pageindex_desktop.core.ingest import extract_worker
from pageindex_desktop.core.errors import DocumentNotFound
from pageindex_desktop.core.library.file_names import is_dir, is_file
from pageindex_desktop.core.formats import importable
from pageindex_desktop.core.ingest.import_steps import (
    Job,
    abandon,
    begin,
    extract,
    failed_without_record,
    finish,
    prepare,
    result_of,
    sweep,
)
from pageindex_desktop.core.ingest.import_types import (
    CANCELLED,
    STAGES,
    AnyOf,
    ImportProgress,
    ImportResult,
    ProgressCallback,
)
from pageindex_desktop.core.library.store import DocumentRecord, Library

__all__ = [
    "CANCELLED",
    "STAGES",
    "ImportProgress",
    "ImportResult",
    "ProgressCallback",
    "default_jobs",
    "import_many",
    "import_pdf",
    "pdf_paths",
    "reindex",
]

log = logging.getLogger(__name__)
MAX_AHEAD = 4  # extracted documents allowed to wait for their turn to be saved, per parallel job


def pdf_paths(paths: Iterable[Path]) -> list[Path]:
    """Files as given, folders expanded (recursively, sorted) to the documents inside (PDFs, e-books, text and
    Markdown: `formats.importable`); duplicates dropped."""
    out: list[Path] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw).expanduser()
        found = (
            sorted(p for p in path.rglob("*") if importable(p) and is_file(p))
            if is_dir(path)
            else [path]
        )
        for item in found:
            key = _resolved(item)
            if key not in seen:
                seen.add(key)
                out.append(item)
    return out


def _resolved(path: Path) -> Path:
    """The path with symbolic links followed, to tell duplicates apart; a link that loops (Python 3.11 raises
    RuntimeError for it) or cannot be followed stays as given, and `prepare` says why it cannot be read."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):
        return path.absolute()


def import_pdf(
    library: Library,
    path: Path,
    *,
    password: str | None = None,
    use_bookmarks: bool = True,
    on_progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    ocr_languages: str = "",
) -> ImportResult:
    """Add a PDF to the library and index it; the same bytes already indexed return at once (already_present).
    `ocr_languages`: Tesseract's languages for pages without text (the caller reads them from the settings)."""
    path = Path(path)
    prepared = prepare(library, path, on_progress)
    if isinstance(prepared, ImportResult):
        return prepared
    return _index(library, prepared, path.name, password, use_bookmarks, on_progress, cancel, ocr_languages)


def reindex(
    library: Library,
    doc_id: str,
    *,
    password: str | None = None,
    use_bookmarks: bool = True,
    on_progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    ocr_languages: str = "",
) -> ImportResult:
    """Index a library document again from its stored copy (after a failure, or with other options)."""
    record = library.get(doc_id)
    if record is None:
        raise DocumentNotFound(f"No document with id '{doc_id}'.")
    file_name = record.file_name or f"{record.doc_id}.pdf"
    return _index(library, record, file_name, password, use_bookmarks, on_progress, cancel, ocr_languages)


def _index(
    library: Library,
    record: DocumentRecord,
    file_name: str,
    password: str | None,
    use_bookmarks: bool,
    on_progress: ProgressCallback | None,
    cancel: threading.Event | None,
    ocr_languages: str,
) -> ImportResult:
    """One document, every step on the caller's thread (progress callbacks included)."""
    started: list[DocumentRecord] = []
    job: Job | ImportResult | None = None
    try:
        job = begin(library, record, file_name, on_progress, started, ocr_languages)
        if isinstance(job, ImportResult):
            return job
        outcome = extract(job, password, use_bookmarks, on_progress, cancel)
        return finish(library, job, outcome, on_progress)
    except BaseException as exc:  # Ctrl+C, or a bug (in a callback, say)
        if isinstance(job, Job):
            abandon(library, job, exc)
        sweep(library, started)
        raise


def _same_bytes(library: Library, doc_id: str) -> ImportResult:
    """The answer for a file whose bytes were imported earlier in the same batch."""
    record = library.get(doc_id)
    assert record is not None
    return result_of(record, already_present=record.status == "ready")


def default_jobs() -> int:
    """How many documents to read at once: one per core, at most two (each child may use two for big files)."""
    return max(1, min(2, os.cpu_count() or 1))


def import_many(
    library: Library,
    paths: Iterable[Path],
    *,
    password: str | None = None,
    use_bookmarks: bool = True,
    on_progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    jobs: int | None = None,
    ocr_languages: str = "",
) -> Iterator[tuple[Path, ImportResult]]:
    """Import files in order, reading up to `jobs` of them at once; yields (path, result) as each is saved.

    Hashing, copying and saving run on the caller's thread (the Library is not shared); extraction runs on
    helper threads, so `on_progress` may be called from those threads. Closing the iterator early, Ctrl+C or
    `cancel` stop the children still working and leave their documents failed with the cancel message; after
    `cancel`, files not started yet are yielded as failed without being copied into the library.
    """
    jobs = jobs or default_jobs()
    per_child = 1 if jobs > 1 else None  # the cores are already shared out: no helper processes inside a child
    todo = deque(Path(p) for p in paths)
    pending: deque[tuple[Path, Job | ImportResult | str, Future[extract_worker.JobOutcome] | None]] = deque()
    abort = threading.Event()
    flag = AnyOf(cancel, abort)
    started: list[DocumentRecord] = []
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="pageindex-import")
    try:
        while todo or pending:
            running = [f for _, _, f in pending if f is not None and not f.done()]
            while todo and len(running) < jobs and len(pending) < jobs * MAX_AHEAD:
                path = todo.popleft()
                if flag.is_set():  # cancelled: files not started yet are not copied into the library at all
                    pending.append((path, failed_without_record(path, CANCELLED), None))
                    continue
                item: Job | ImportResult | DocumentRecord | str = prepare(library, path, on_progress)
                if isinstance(item, DocumentRecord):
                    in_flight = {j.doc_id for _, j, _ in pending if isinstance(j, Job)}
                    # the same bytes twice in one batch: answer the second once the first is saved
                    if item.doc_id in in_flight:
                        item = item.doc_id
                    else:
                        item = begin(library, item, path.name, on_progress, started, ocr_languages)
                if not isinstance(item, Job):
                    pending.append((path, item, None))
                    continue
                submitted = pool.submit(extract, item, password, use_bookmarks, on_progress, flag, per_child)
                pending.append((path, item, submitted))
                running.append(submitted)
            path, item, future = pending[0]
            if future is not None and not future.done():
                wait(running, return_when=FIRST_COMPLETED)
                continue
            pending.popleft()
            if isinstance(item, str):
                yield path, _same_bytes(library, item)
                continue
            if future is None:
                assert isinstance(item, ImportResult)
                yield path, item
                continue
            assert isinstance(item, Job)
            try:
                outcome = future.result()
                if flag.is_set():  # cancelled while this one waited for its turn: not saved either
                    outcome = extract_worker.JobOutcome("cancelled")
                result = finish(library, item, outcome, on_progress)
            except BaseException as exc:
                abandon(library, item, exc)
                raise
            yield path, result
    finally:
        abort.set()
        for _, item, future in pending:
            if future is not None and isinstance(item, Job):
                try:
                    future.result()
                except BaseException:
                    log.warning("extraction of %s ended with an error while a batch stopped", item.doc_id)
                abandon(library, item, KeyboardInterrupt())
        pool.shutdown(wait=True)
        sweep(library, started)
