"""The steps of one import, split so a batch can run several extractions at once while saving on one thread.

begin (caller's thread: lock, status 'importing') → extract (any thread: the child process) → finish (caller's
thread: one-transaction save, or a recorded failure). Every step that ends an import releases its lock.
"""

from __future__ import annotations

import errno
import logging
import sqlite3
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pageindex_desktop.core.ingest import extract_worker, ocr
from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.formats import format_of, problem as format_problem
from pageindex_desktop.core.library.file_names import is_file, readable
from pageindex_desktop.core.library.import_lock import import_lock
from pageindex_desktop.core.ingest.import_types import CANCELLED, CancelFlag, ImportProgress, ImportResult, ProgressCallback
from pageindex_desktop.core.outline.tree import Outline
from pageindex_desktop.core.library.store import DocumentRecord, Library, sha256_of

log = logging.getLogger(__name__)
INTERNAL = "The import stopped on an internal error."


@dataclass
class Job:
    """One document between `begin` and `finish`: what extraction needs and what finishing must undo."""

    record: DocumentRecord
    file_name: str
    source: Path
    was_ready: bool
    started: float = field(default_factory=time.monotonic)
    locks: ExitStack = field(default_factory=ExitStack)
    ocr_languages: str = ""  # Tesseract languages ('deu+eng'); '' the system's language, then English
    ocr_plan: ocr.OcrPlan = field(default_factory=ocr.OcrPlan)  # what extraction did about pages without text

    @property
    def doc_id(self) -> str:
        """The document's id."""
        return self.record.doc_id


def prepare(library: Library, path: Path, on_progress: ProgressCallback | None) -> DocumentRecord | ImportResult:
    """Hash and copy a file into the library; a result instead when there is nothing to extract."""
    if not is_file(path):
        return failed_without_record(path, _missing(path))
    try:
        sha = sha256_of(path)
    except OSError as exc:
        return failed_without_record(path, f"The file cannot be read: {exc.strerror or exc}.")
    existing = library.find_by_sha(sha)
    if existing is not None and existing.status == "ready":
        emit(on_progress, existing.doc_id, "done", existing.page_count, existing.page_count, "Already in the library.")
        return result_of(existing, already_present=True)
    fmt = format_of(path)
    problem = format_problem(path, fmt)  # before the copy: a file that cannot be of its format is never copied
    try:
        record = library.add_file(path, sha, title=readable(path.stem), copy=problem is None,  # (heals a lost copy)
                                  suffix=fmt.suffix)
    except OSError as exc:
        return failed_without_record(path, f"The file could not be copied into the library: {exc.strerror or exc}.")
    if problem is None:
        return record
    library.set_status(record.doc_id, "failed", problem)  # a row, so the library says what happened to the file
    emit(on_progress, record.doc_id, "failed", 0, 0, problem)
    failed = library.get(record.doc_id)
    assert failed is not None
    return result_of(failed)


def _missing(path: Path) -> str:
    """Why `path` is not a file to read, in a sentence: a looping link, a folder, or nothing there."""
    try:
        path.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{readable(path)} is a symbolic link that loops back on itself, so there is no file to read."
        if exc.errno == errno.ENAMETOOLONG:
            return f"The path is longer than this system allows, so the file cannot be opened: {readable(path)[:120]}…"
        return f"There is no file at {readable(path)}."
    return f"{readable(path)} is not a file (it is a folder or a device)."


def begin(
    library: Library,
    record: DocumentRecord,
    file_name: str,
    on_progress: ProgressCallback | None,
    started: list[DocumentRecord] | None = None,
    ocr_languages: str = "",
) -> Job | ImportResult:
    """Take the document's import lock and mark it 'importing'; a result when that is not possible.

    The record is added to `started` just before its status changes, so a caller interrupted at any point
    (Ctrl+C can land between any two lines) knows which documents to `sweep`.
    """
    job = Job(record, readable(file_name), source_copy(library, record), record.status == "ready",
              ocr_languages=ocr_languages)
    emit(on_progress, job.doc_id, "queued", 0, 0, "Waiting to read the PDF.")
    if not job.locks.enter_context(import_lock(library.home, job.doc_id)):
        job.locks.close()
        return result_of(record, error="This document is being imported by another process right now.")
    if not job.source.is_file():
        return fail(library, job, on_progress, "The library's copy of this document is missing; import the file again.")
    if started is not None:
        started.append(record)
    library.set_status(job.doc_id, "importing")
    return job


def source_copy(library: Library, record: DocumentRecord) -> Path:
    """The library's copy extraction starts from: the PDF as imported (not the copy with OCR text, which the child
    writes again), or an e-book's, text or Markdown file's source (laid out to
    the PDF beside it in the child, `core/ingest/convert.py`), by the file name it was imported under."""
    fmt = format_of(record.file_name)
    return library.source_pdf(record.doc_id) if fmt.is_pdf else library.files_dir / f"{record.sha256}.{fmt.suffix}"


def sweep(library: Library, started: list[DocumentRecord]) -> None:
    """After an interruption: documents this caller marked 'importing' and never finished end cancelled."""
    for record in started:
        current = library.get(record.doc_id)
        if current is not None and current.status == "importing":
            if record.status == "ready":
                library.set_status(record.doc_id, "ready")
            else:
                library.set_status(record.doc_id, "failed", CANCELLED)


def extract(
    job: Job,
    password: str | None,
    use_bookmarks: bool,
    on_progress: ProgressCallback | None,
    cancel: CancelFlag | None,
    workers: int | None = None,
) -> extract_worker.JobOutcome:
    """Run a child on the library copy, forwarding its progress (from this thread); safe on any thread.

    `workers`: processes the child may use for one long document (None: its own choice).
    """
    emit(on_progress, job.doc_id, "extracting", 0, 0, "Opening the PDF.")
    job.ocr_plan = ocr.plan(job.ocr_languages)
    worker, failed = extract_worker.acquire(cancel)
    if worker is None:
        assert failed is not None
        return failed

    def forward(stage: str, done: int, total: int) -> None:
        if stage == "ocr":  # shown as extraction: the stages a window knows stay the same
            emit(on_progress, job.doc_id, "extracting", done, total, f"Recognising text (OCR): page {done} of {total}.")
            return
        text = f"Reading page {done} of {total}." if stage == "extracting" else "Building the section tree."
        emit(on_progress, job.doc_id, stage, done, total, text)

    outcome = extract_worker.JobOutcome("crashed", message="The import stopped unexpectedly.")
    try:
        outcome = worker.run(job.source, password, use_bookmarks, job.file_name, forward, cancel, workers,
                             job.ocr_plan.for_child())
    finally:
        pages = int(outcome.payload["page_count"]) if outcome.payload else 0
        extract_worker.release(worker, outcome, pages)
    if outcome.kind == "result" and cancel is not None and cancel.is_set():
        return extract_worker.JobOutcome("cancelled")
    return outcome


def finish(
    library: Library, job: Job, outcome: extract_worker.JobOutcome, on_progress: ProgressCallback | None
) -> ImportResult:
    """Save a result in one transaction, or record why there is none; releases the job's lock."""
    if outcome.kind != "result":
        return fail(library, job, on_progress, message_for(job.doc_id, outcome))
    assert outcome.payload is not None
    payload: dict[str, Any] = outcome.payload
    pages: list[PageData] = payload["pages"]
    outline: Outline = payload["outline"]
    title = str(payload["title"]) or job.record.title
    repair = str(payload.get("repair_note", ""))
    unreadable = set(payload.get("unreadable_pages", ()))
    if not pages:
        return fail(library, job, on_progress, "The PDF has no pages.")
    scans = [p for p in pages if p.number not in unreadable]
    blank = frozenset(payload.get("blank_pages", ()))
    ocr_note = ocr_sentence(job.ocr_plan, scans, str(payload.get("ocr_problem", "")), blank)
    note = "; ".join(n for n in (repair, ocr_note) if n)
    emit(on_progress, job.doc_id, "saving", 0, 1, "Saving the index.")
    try:
        library.save_index(job.doc_id, title=title, pages=pages, outline=outline, note=note)
    except (sqlite3.OperationalError, OSError) as exc:
        return fail(library, job, on_progress, f"The index could not be saved: {exc}.")
    job.locks.close()
    warning = " ".join(w for w in (repair_warning(repair), text_layer_warning(scans, ocr_note, blank)) if w)
    log.info("indexed %s: %d pages, outline %s, %.2f s", job.doc_id, len(pages), outline.source,
             time.monotonic() - job.started)
    emit(on_progress, job.doc_id, "done", len(pages), len(pages), warning or "Ready.")
    saved = library.get(job.doc_id)
    assert saved is not None
    return result_of(saved, warning=warning)


def abandon(library: Library, job: Job, exc: BaseException) -> None:
    """Ctrl+C or a bug stopped the import midway: never leave the document 'importing' (a saved one stays)."""
    current = library.get(job.doc_id)
    if current is None or current.status != "importing":
        job.locks.close()
        return
    fail(library, job, None, CANCELLED if isinstance(exc, KeyboardInterrupt) else INTERNAL)


def fail(library: Library, job: Job, on_progress: ProgressCallback | None, error: str) -> ImportResult:
    """Record a failure and release the lock; a re-index of a ready document keeps its previous index instead."""
    doc_id = job.doc_id
    try:
        if job.was_ready:
            library.set_status(doc_id, "ready")
            warning = f"Re-index did not finish ({error.rstrip('.')}); the previous index is kept."
            emit(on_progress, doc_id, "done", job.record.page_count, job.record.page_count, warning)
            saved = library.get(doc_id)
            assert saved is not None
            return result_of(saved, warning=warning)
        library.set_status(doc_id, "failed", error)
        emit(on_progress, doc_id, "failed", 0, 0, error)
        saved = library.get(doc_id)
        assert saved is not None
        return result_of(saved)
    finally:
        job.locks.close()


def message_for(doc_id: str, outcome: extract_worker.JobOutcome) -> str:
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


def repair_warning(note: str) -> str:
    """The sentence for a document MuPDF repaired with pages lost (`note`: "repaired: 25 of 28 pages readable"),
    or '' when there is no note."""
    if not note:
        return ""
    return f"The PDF is damaged ({note}); the pages that could not be read have no text."


def text_layer_warning(pages: list[PageData], ocr_note: str = "", blank: frozenset[int] = frozenset()) -> str:
    """Sentences about pages read by OCR and pages with no text, or '' when every page has its own text layer
    (pages a repair lost are left out by the caller: they are damaged, not scans). `ocr_note`: why OCR did not
    run (`ocr_sentence`). `blank`: pages that paint nothing (an empty verso): not scans, so not counted."""
    read = sum(1 for p in pages if p.ocr)
    missing = _scanned(pages, blank)
    said = [f"{read} of {len(pages)} pages had no text layer and were read by OCR."] if read else []
    if missing == 0:
        return " ".join(said)
    advice = _advice(ocr_note)
    why = f"; {advice[0].lower()}{advice[1:]}." if advice else "."
    if not any(p.has_text for p in pages):
        said.append("No page has a text layer (scanned or image-only), so the tree is plain page groups and search "
                    f"finds nothing{why}")
    else:
        said.append(f"{missing} of {len(pages)} pages have no text layer (scanned or image-only); their text is not "
                    f"searchable{why}")
    return " ".join(said)


def ocr_sentence(plan: ocr.OcrPlan, pages: list[PageData], problem: str, blank: frozenset[int] = frozenset()) -> str:
    """The note a document keeps about its scanned pages: what to install when Tesseract is missing, or why OCR
    failed; '' when there is nothing to say (blank pages, `blank`, are not scans)."""
    missing = _scanned(pages, blank)
    if not missing:
        return ""
    if plan.missing:  # "No page has ..." when no page has text, blank ones included
        return ocr.missing_sentence(missing, len(pages) if any(p.has_text for p in pages) else missing)
    if problem:
        return f"{problem}; {missing} of {len(pages)} pages have no text"
    return ""


def _advice(note: str) -> str:
    """`note` without its own count of pages ("2 of 5 pages have no text layer; install Tesseract ..." becomes
    "install Tesseract ..."): the warning has just said how many, and saying it twice reads as two problems."""
    head, sep, rest = note.partition("; ")
    return rest if sep and head.endswith("text layer") else note


def _scanned(pages: list[PageData], blank: frozenset[int]) -> int:
    """How many of `pages` have no text yet paint something (a scan, an image-only page)."""
    return sum(1 for p in pages if not p.has_text and p.number not in blank)


def failed_without_record(path: Path, error: str) -> ImportResult:
    """A failure before the file reached the library (missing, unreadable, disk full)."""
    return ImportResult("", readable(path.stem), 0, "", "failed", error, False)


def result_of(record: DocumentRecord, *, already_present: bool = False, warning: str = "", error: str = "") -> ImportResult:
    """The ImportResult that reflects a stored document."""
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


def emit(callback: ProgressCallback | None, doc_id: str, stage: str, done: int, total: int, message: str) -> None:
    """Call the progress callback, when there is one."""
    if callback is not None:
        callback(ImportProgress(doc_id, stage, done, total, message))
