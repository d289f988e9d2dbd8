"""Hostile PDFs for the fuzz tests: seeded mutants of real corpus files and pymupdf-built pathological files,
and a runner that imports each one through the real import path with a time bound and says how it ended.

Shared by `tests/core/test_fuzz.py` (30 mutants in the default suite) and `tests/bench/bench_fuzz.py` (500).
Every mutant is a pure function of (seed, index, sources), so a failure names a case that can be rebuilt.
"""

from __future__ import annotations

import random
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.indexer import ImportResult, import_pdf
from pageindex_desktop.core.library.store import Library

# Small corpus files (a few pages, < 350 KB): xref tables and xref streams, with and without bookmarks.
SOURCES = [
    "docling__odf_presentation_01.odp.pdf",
    "py-pdf__mistitled_outlines_example.pdf",
    "q1-fy25-earnings.pdf",
    "pdfplumber__issue-316-example.pdf",
    "metropolis-beamer__demo.pdf",
    "docling__llncsdoc.pdf",
    "pdfplumber__issue-67-example.pdf",
    "financebench__PFIZER_2023Q2_EARNINGS.pdf",
]
OUTCOMES = ("ok", "failed", "hang", "traceback", "internal error", "unclear")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")
_STARTXREF = re.compile(rb"startxref\s+(\d+)")
_XREF_ENTRY = re.compile(rb"(\d{10}) (\d{5}) n")
_COUNT = re.compile(rb"/Count\s+(-?\d+)")  # page tree nodes' page counts and outline items' open children


@dataclass(frozen=True)
class Case:
    """One hostile file: a name that says how it was made, and its bytes."""

    name: str
    data: bytes


@dataclass(frozen=True)
class Outcome:
    """How importing one case ended: `kind` is one of OUTCOMES, `detail` the message or the exception."""

    case: str
    kind: str
    detail: str
    seconds: float
    doc_id: str = ""


# ---- mutations ------------------------------------------------------------------------------------------------


def _bit_flips(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    out = bytearray(data)
    flips = rng.randint(1, 40)
    for _ in range(flips):
        at = rng.randrange(len(out))
        out[at] ^= 1 << rng.randrange(8)
    return f"flip{flips}", bytes(out)


def _truncation(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    at = rng.randrange(len(data) // 20, len(data))
    return f"cut@{at}", data[:at]


def _chunk_deletion(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    size = rng.randint(1, max(2, len(data) // 10))
    at = rng.randrange(len(data) - size)
    return f"del{size}@{at}", data[:at] + data[at + size :]


def _chunk_duplication(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    size = rng.randint(1, max(2, len(data) // 10))
    at = rng.randrange(len(data) - size)
    to = rng.randrange(len(data))
    return f"dup{size}@{at}>{to}", data[:to] + data[at : at + size] + data[to:]


def _xref_offsets(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """Point `startxref` somewhere else, or move some object offsets of a classic xref table."""
    entries = list(_XREF_ENTRY.finditer(data))
    if entries and rng.random() < 0.6:
        out = bytearray(data)
        picked = rng.sample(entries, min(len(entries), rng.randint(1, 8)))
        for match in picked:
            offset = int(match.group(1))
            moved = max(0, offset + rng.choice([-1, 1]) * rng.randint(1, 5000)) if rng.random() < 0.7 else 0
            out[match.start(1) : match.end(1)] = b"%010d" % min(moved, 9_999_999_999)
        return f"xref{len(picked)}", bytes(out)
    starts = list(_STARTXREF.finditer(data))
    if not starts:
        return _bit_flips(data, rng)
    match = starts[-1]
    value = rng.choice([0, 1, len(data), len(data) * 10, rng.randrange(len(data))])
    return f"startxref={value}", data[: match.start(1)] + str(value).encode() + data[match.end(1) :]


def _stream_lengths(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """Declare wrong `/Length`s for some streams (0, shorter, longer, far past the end of the file)."""
    found = list(_LENGTH.finditer(data))
    if not found:
        return _bit_flips(data, rng)
    picked = sorted(rng.sample(found, min(len(found), rng.randint(1, 6))), key=lambda m: m.start(), reverse=True)
    out = data
    for match in picked:
        length = int(match.group(1))
        wrong = rng.choice([0, 1, length // 2, length + rng.randint(1, 200), length * 3, 2_000_000_000])
        out = out[: match.start(1)] + str(wrong).encode() + out[match.end(1) :]
    return f"length{len(picked)}", out


def _page_counts(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """Declare another count (/Count: a page tree node's pages, an outline item's children), keeping the xref table
    in step when there is one."""
    found = list(_COUNT.finditer(data))
    if not found:
        return _stream_lengths(data, rng)
    match = rng.choice(found)
    count = int(match.group(1))
    wrong = rng.choice([0, -1, count + 3, count * 1000, 2_000_000_000, 2**31, 2**63])
    new = match.group(0).replace(match.group(1), str(wrong).encode())
    try:
        return f"count{count}>{wrong}", patched(data, match.group(0), new)
    except (ValueError, IndexError):  # no xref table to keep in step: MuPDF repairs around the edit
        return f"count{count}>{wrong}", data.replace(match.group(0), new, 1)


MUTATIONS: list[Callable[[bytes, random.Random], tuple[str, bytes]]] = [
    _bit_flips,
    _truncation,
    _chunk_deletion,
    _chunk_duplication,
    _xref_offsets,
    _stream_lengths,
    _page_counts,
]


def mutants(corpus: Path, count: int, seed: int) -> Iterator[Case]:
    """`count` mutants of the SOURCES found in `corpus`, the mutation kinds in turn, reproducible by seed."""
    sources = [(name, (corpus / name).read_bytes()) for name in SOURCES if (corpus / name).is_file()]
    if not sources:
        return
    for index in range(count):
        rng = random.Random(f"{seed}:{index}")
        name, data = sources[rng.randrange(len(sources))]
        how, mutated = MUTATIONS[index % len(MUTATIONS)](data, rng)
        yield Case(f"{index:03d}-{name.removesuffix('.pdf')}-{how}", mutated)


# ---- pathological files built with pymupdf ------------------------------------------------------------------


def _pages(count: int, text: str = "Quarterly figures for the committee") -> pymupdf.Document:
    doc = pymupdf.open()
    for n in range(count):
        doc.new_page().insert_text((72, 72), f"{text}, page {n + 1}.", fontsize=11)
    return doc


def _bytes(doc: pymupdf.Document) -> bytes:
    data = doc.tobytes(garbage=0, deflate=False)
    doc.close()
    return data


def patched(data: bytes, old: bytes, new: bytes) -> bytes:
    """`data` with the first `old` replaced by `new` and the xref table's offsets moved to match, so MuPDF reads
    the edit as the file's own content instead of repairing around it (pymupdf refuses to save some edits)."""
    at = data.index(old)
    delta = len(new) - len(old)
    out = data[:at] + new + data[at + len(old) :]

    def shift(match: re.Match[bytes]) -> bytes:
        offset = int(match.group(1))
        return b"%010d %s n" % (offset + delta if offset > at else offset, match.group(2))

    out = _XREF_ENTRY.sub(shift, out)
    start = list(_STARTXREF.finditer(out))[-1]
    value = int(start.group(1))
    return out[: start.start(1)] + str(value + delta if value > at else value).encode() + out[start.end(1) :]


def declared_page_count(count: int = 2_000_000_000) -> bytes:
    """Three real pages whose page tree declares `count` (two billion unless said)."""
    return patched(_bytes(_pages(3)), b"/Count 3", b"/Count %d" % count)


def deep_outline(depth: int = 3000) -> bytes:
    """A bookmark nested `depth` levels deep."""
    doc = _pages(4)
    doc.set_toc([[level, f"Level {level}", 1 + level % 4] for level in range(1, depth + 1)])
    return _bytes(doc)


def cyclic_outline() -> bytes:
    """Bookmarks whose last item's /Next points back at the first and whose child's /First points at its parent."""
    doc = _pages(4)
    doc.set_toc([[1, "One", 1], [2, "One A", 2], [1, "Two", 3], [1, "Three", 4]])
    items = doc.get_outline_xrefs()
    first, one_a, last = items[0], items[1], items[-1]
    doc.xref_set_key(last, "Next", f"{first} 0 R")
    doc.xref_set_key(one_a, "First", f"{first} 0 R")
    doc.xref_set_key(one_a, "Count", "1")
    return _bytes(doc)


def zero_size_pages() -> bytes:
    """Pages whose media box is empty (0 by 0 points), one of them holding text anyway."""
    doc = _pages(3)
    for index in range(doc.page_count):
        doc.xref_set_key(doc.load_page(index).xref, "MediaBox", "[0 0 0 0]")
    return _bytes(doc)


def long_line(chars: int = 100_000) -> bytes:
    """One page holding a line of `chars` characters (words and spaces) and a word as long, set small enough to fit
    the page (text past the media box is clipped, as a viewer shows it)."""
    doc = pymupdf.open()
    page = doc.new_page()
    words = ("figure revenue committee " * (chars // 25 + 1))[:chars]
    page.insert_text((10, 72), words, fontsize=0.01)
    page.insert_text((10, 100), "x" * chars, fontsize=0.01)
    return _bytes(doc)


def surrogate_titles() -> bytes:
    """A bookmark and the metadata title written in UTF-16 with unpaired surrogates (pymupdf hands them over as
    surrogate escapes, which SQLite refused: the import raised UnicodeEncodeError)."""
    doc = _pages(3)
    doc.set_toc([[1, "ab", 1], [1, "Second", 2], [1, "Third", 3]])
    doc.set_metadata({"title": "cd"})
    data = patched(_bytes(doc), b"/Title(ab)", b"/Title<FEFFD800DC00D800>")
    return patched(data, b"/Title(cd)", b"/Title<FEFF0041DC00>")


def hostile_files() -> list[Case]:
    """The pathological files, by name."""
    return [
        Case("huge-page-count", declared_page_count()),
        Case("deep-outline", deep_outline()),
        Case("cyclic-outline", cyclic_outline()),
        Case("zero-size-pages", zero_size_pages()),
        Case("long-line", long_line()),
        Case("surrogate-titles", surrogate_titles()),
    ]


# ---- running a case -----------------------------------------------------------------------------------------


def is_plain_sentence(text: str) -> bool:
    """One sentence for a user: a capital first, a full stop last, one line, no traceback, no internal error."""
    text = text.strip()
    return (
        bool(text)
        and (text[0].isupper() or text[0].isdigit())
        and text.endswith(".")
        and "\n" not in text
        and "Traceback" not in text
        and "internal error" not in text.lower()
        and text.count(". ") == 0
    )


def classify(result: ImportResult) -> tuple[str, str]:
    """(outcome kind, detail) for a finished import."""
    message = " ".join(m for m in (result.error, result.warning) if m)
    if "internal error" in message.lower():
        return "internal error", message
    if result.status == "ready":  # a warning may hold several notes (a repair, pages without a text layer)
        notes = re.split(r"(?<=\.) (?=[A-Z0-9])", result.warning) if result.warning else []
        return ("ok", result.warning) if all(map(is_plain_sentence, notes)) else ("unclear", result.warning)
    if result.status == "failed" and is_plain_sentence(result.error):
        return "failed", result.error
    return "unclear", f"{result.status}: {result.error}"


def run_case(home: Path, path: Path, seconds: float) -> Outcome:
    """Import `path` into the library at `home` on a thread (with its own connection), cancelling after `seconds`.

    A case that does not end by then is a hang (the import is cancelled and given 10 s more to stop); an
    exception out of import_pdf is a traceback.
    """
    box: dict[str, object] = {}
    cancel = threading.Event()

    def work() -> None:
        try:
            with Library(home) as library:
                box["result"] = import_pdf(library, path, cancel=cancel)
        except BaseException as exc:  # what the test looks for: anything escaping the import path
            box["error"] = f"{type(exc).__name__}: {exc}"

    started = time.monotonic()
    thread = threading.Thread(target=work, name=f"fuzz-{path.name}", daemon=True)
    thread.start()
    thread.join(seconds)
    took = time.monotonic() - started
    if thread.is_alive():
        cancel.set()
        thread.join(10)
        return Outcome(path.name, "hang", f"still running after {seconds:.0f} s", took)
    if "error" in box:
        return Outcome(path.name, "traceback", str(box["error"]), took)
    result = box["result"]
    assert isinstance(result, ImportResult)
    kind, detail = classify(result)
    return Outcome(path.name, kind, detail, took, result.doc_id)


def consistency_problems(home: Path) -> list[str]:
    """What is wrong with the library database after the imports (empty list: consistent)."""
    problems: list[str] = []
    with sqlite3.connect(home / "library.sqlite3") as conn:
        check = conn.execute("PRAGMA integrity_check").fetchall()
        if check != [("ok",)]:
            problems.append(f"integrity_check: {check}")
        try:
            conn.execute("INSERT INTO pages_fts(pages_fts) VALUES ('integrity-check')")
        except sqlite3.DatabaseError as exc:
            problems.append(f"FTS integrity-check: {exc}")
        keys = conn.execute("PRAGMA foreign_key_check").fetchall()
        if keys:
            problems.append(f"foreign_key_check: {keys[:5]}")
        for doc_id, status, count in conn.execute("SELECT id, status, page_count FROM documents"):
            pages = conn.execute("SELECT COUNT(*) FROM pages WHERE doc_id = ?", (doc_id,)).fetchone()[0]
            nodes = conn.execute("SELECT COUNT(*) FROM nodes WHERE doc_id = ?", (doc_id,)).fetchone()[0]
            if status == "ready" and (pages != count or nodes == 0):
                problems.append(f"{doc_id} ready with {pages} page rows for {count} pages and {nodes} nodes")
            elif status == "failed" and (pages or nodes):
                problems.append(f"{doc_id} failed but kept {pages} pages and {nodes} nodes")
            elif status not in ("ready", "failed"):
                problems.append(f"{doc_id} left {status}")
    return problems
