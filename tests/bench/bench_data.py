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
