"""OCR speed and word accuracy on scans made here: corpus text pages rendered to greyscale images (a scanner's
200 dpi), put on image-only pages, read back through `ocr_read.recognise` (the extraction child's path) and
compared with the pages' own text layer.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -s -m bench tests/bench/bench_ocr.py`
(`OCR_SCAN_DPI` changes the scan resolution). Needs Tesseract with English data.

Prints per page the characters recognised, wall and CPU seconds, characters per second and word accuracy (the
share of the text layer's lower-cased words OCR gives back, counted with multiplicity in any order; and the share
in the same order, which also scores reading order), then the totals; fails when accuracy over all pages is
below 90 %.
"""

from __future__ import annotations

import difflib
import os
import re
import time
from collections import Counter
from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest import ocr
from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.ingest.ocr_read import recognise

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
SCAN_DPI = int(os.environ.get("OCR_SCAN_DPI", "200"))
PAGES = [  # (file, 1-based page): prose, a filing's text page, a regulation, a paper with formulas
    ("arxiv__1706.03762.pdf", 2),
    ("arxiv__1512.03385.pdf", 3),
    ("financebench__NIKE_2023_10K.pdf", 5),
    ("financebench__APPLE_2022_10K.pdf", 8),
    ("Regulation Best Interest_Interpretive release.pdf", 6),
    ("four-lectures.pdf", 4),
    ("pdfplumber__federal-register-2020-17221.pdf", 2),
    ("earthmover.pdf", 2),
]


def words(text: str) -> list[str]:
    """Lower-cased words and numbers, hyphens and punctuation dropped."""
    return re.findall(r"[a-z0-9]+", text.lower())


def accuracy(reference: str, recognised: str) -> float:
    """Share of the reference's words OCR gives back (as many times as printed, in any order: a two-column
    page read in another order is still read right)."""
    ref, got = Counter(words(reference)), Counter(words(recognised))
    return sum((ref & got).values()) / max(1, sum(ref.values()))


def in_order(reference: str, recognised: str) -> float:
    """Share of the reference's words found in the same order (difflib's matching blocks): reading order too."""
    ref, got = words(reference), words(recognised)
    matcher = difflib.SequenceMatcher(None, ref, got, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / max(1, len(ref))


def require_ocr_and_corpus() -> ocr.OcrEngine:
    """Tesseract with English data, or skip; skip too when the shared corpus is not here (the OCR benches need
    both)."""
    engine = ocr.find_engine()
    if engine is None or "eng" not in engine.languages:
        pytest.skip("tesseract with English data is not installed (apt-get install tesseract-ocr)")
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not beside the checkout")
    return engine


@pytest.mark.bench
@pytest.mark.timeout(3600)  # a page takes 2-8 CPU-seconds, and far longer on a loaded machine
def test_ocr_speed_and_accuracy(tmp_path: Path) -> None:
    engine = require_ocr_and_corpus()
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # as in the extraction child
    scan = pymupdf.open()
    references = []
    for name, number in PAGES:
        source = pymupdf.open(CORPUS / name)
        page = source[number - 1]
        references.append(page.get_text())
        image = page.get_pixmap(dpi=SCAN_DPI, colorspace=pymupdf.csGRAY)
        target = scan.new_page(width=page.rect.width, height=page.rect.height)
        target.insert_image(target.rect, stream=image.tobytes("png"))
        source.close()
    path = tmp_path / "scans.pdf"
    scan.save(path)
    empty = [PageData(i + 1, "", "", 0.0, 0.0) for i in range(len(PAGES))]
    options = {"languages": "eng", "tessdata": engine.tessdata}
    totals = [0, 0.0, 0.0, 0, 0]  # chars, wall, cpu, words matched, words
    print(f"\nOCR at {SCAN_DPI} dpi scans, Tesseract data {engine.tessdata}")
    for index, (name, number) in enumerate(PAGES):
        wall, cpu = time.perf_counter(), time.process_time()
        pages, problem = recognise(path, None, [empty[index] if i == index else PageData(i + 1, "", "x", 0, 0)
                                                for i in range(len(PAGES))], options)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        assert not problem, problem
        text = pages[index].text
        score, ordered = accuracy(references[index], text), in_order(references[index], text)
        ref_words = len(words(references[index]))
        totals[0] += len(text)
        totals[1] += wall
        totals[2] += cpu
        totals[3] += round(score * ref_words)
        totals[4] += ref_words
        print(f"{name[:40]:40} p{number:<3} {len(text):5} chars {wall:6.1f} s wall {cpu:5.1f} s cpu "
              f"{len(text) / wall:6.0f} chars/s {score:6.1%} words ({ordered:.1%} in order)")
    overall = totals[3] / max(1, totals[4])
    print(f"total: {totals[0]} chars in {totals[1]:.1f} s wall ({totals[0] / totals[1]:.0f} chars/s), "
          f"{totals[2]:.1f} s cpu ({totals[0] / max(totals[2], 1e-9):.0f} chars/cpu-s); word accuracy {overall:.1%} "
          f"over {totals[4]} words; load average {os.getloadavg()[0]:.1f}")
    assert overall >= 0.90
