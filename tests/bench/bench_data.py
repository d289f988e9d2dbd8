"""What several benchmarks build or measure the same way: long PDFs assembled from corpus pages, and the PyPDF2
text-extraction baseline they are compared against."""

from __future__ import annotations

import logging
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import pymupdf


def assemble_pdf(path: Path, pages: int, sources: list[Path], extra_text: str = "", **insert: Any) -> Path:
    """A `pages`-page PDF made of the sources' pages in turn, repeated as needed (`insert` goes to insert_pdf)."""
    opened = [pymupdf.open(str(source)) for source in sources]
    out = pymupdf.open()
    try:
        while out.page_count < pages:
            for src in opened:
                take = min(src.page_count, pages - out.page_count)
                if take <= 0:
                    break
                out.insert_pdf(src, from_page=0, to_page=take - 1, **insert)
        if extra_text:
            out[0].insert_text((72, 40), extra_text, fontsize=9)
        out.save(str(path), garbage=1)
    finally:
        out.close()
        for src in opened:
            src.close()
    return path


def pypdf2_baseline(files: list[Path], password: str,
                    cpu_clock: Callable[[], float] = time.process_time) -> tuple[int, float, float]:
    """Pages, wall seconds and CPU seconds for PyPDF2's `extract_text` of every page of the files."""
    import PyPDF2

    logging.getLogger("PyPDF2").setLevel(logging.CRITICAL)
    pages = 0
    start, cpu = time.perf_counter(), cpu_clock()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path in files:
            reader = PyPDF2.PdfReader(str(path))
            if reader.is_encrypted:
                reader.decrypt(password)
            for page in reader.pages:
                page.extract_text()
                pages += 1
    return pages, time.perf_counter() - start, cpu_clock() - cpu


def binder_pdf(path: Path, sources: list[Path]) -> Path:
    """One PDF bundling whole documents, as a data room or a filing binder does: a top-level bookmark per
    document (its file name) with that document's own bookmarks nested below it."""
    out = pymupdf.open()
    toc: list[list[Any]] = []
    try:
        for source in sources:
            with pymupdf.open(str(source)) as src:
                offset = out.page_count
                out.insert_pdf(src)
                toc.append([1, source.stem.replace("financebench__", "").replace("_", " "), offset + 1])
                toc += [[level + 1, title, page + offset] for level, title, page, *_ in src.get_toc() if page >= 1]
        out.set_toc(toc)
        out.save(str(path), garbage=1)
    finally:
        out.close()
    return path


REFERENCE_PACKAGES = [154, 429, 231, 318, 176, 402, 265, 193, 221]  # entries per package: 2,389 entries


def reference_pdf(path: Path, text_sources: list[Path], packages: list[int] | None = None) -> Path:
    """A wide API reference like a language's package manual: packages of hundreds of one-page entries, each a
    function name over Description / Usage / Arguments / Value paragraphs. The names and the prose come from the
    sources' own words (so search and token counts behave as on real text); the bookmarks hold the structure."""
    import re

    words: list[str] = []
    for source in text_sources:
        with pymupdf.open(str(source)) as src:
            for page in src:
                words += re.findall(r"[A-Za-z]{4,12}", page.get_text())
    sizes = packages or REFERENCE_PACKAGES
    out = pymupdf.open()
    toc: list[list[Any]] = []
    used: set[str] = set()
    cursor = 0
    try:
        for number, size in enumerate(sizes, 1):
            package = f"{words[(number * 7919) % len(words)].lower()}tools"
            page = out.new_page()
            page.insert_text((72, 90), f"Package '{package}'", fontsize=20)
            toc.append([1, f"Package {package}", out.page_count])
            for _ in range(size):
                name = ""
                while not name or name in used:
                    name = f"{words[cursor % len(words)].lower()}_{words[(cursor * 31 + 7) % len(words)].lower()}"
                    cursor += 3
                used.add(name)
                page = out.new_page()
                page.insert_text((72, 72), f"{name}", fontsize=16)
                body = []
                for heading in ("Description", "Usage", "Arguments", "Value"):
                    take = words[cursor % len(words): cursor % len(words) + 45]
                    cursor += 45
                    body.append(f"{heading}\n{' '.join(take)}.")
                body[1] = f"Usage\n{name}(x, ...)"
                page.insert_textbox(pymupdf.Rect(72, 90, 540, 760), "\n\n".join(body), fontsize=10)
                toc.append([2, name, out.page_count])
        out.set_toc(toc)
        out.save(str(path), garbage=1)
    finally:
        out.close()
    return path
