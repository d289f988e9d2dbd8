"""The invisible text layer written over OCR'd pages: do its words come back where OCR read them and where they are
printed, what does writing it cost in time and bytes. Corpus text pages are scanned as in `bench_ocr.py`, read
by OCR once, the words written with `ocr_layer.add_words`, the PDF saved, and the saved layer read back.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -s -m bench tests/bench/bench_ocr_layer.py`
(needs Tesseract with English data and ../shared/corpus).

Prints per page: OCR words, the share given back by the saved layer with the same text at the same box
(intersection over union > 0.8), the share of the page's own text-layer words that a layer word of the same text
has over its centre (selection and highlight land on the printed word), and the time to write the layer; then the
bytes the layer added to the file. Fails when fewer than 99 % of OCR words come back in place.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.ocr_layer import add_words
from pageindex_desktop.core.ingest.pdf_pages import TEXT_FLAGS
from tests.bench.bench_ocr import CORPUS, PAGES, SCAN_DPI, require_ocr_and_corpus


def iou(a: pymupdf.Rect, b: pymupdf.Rect) -> float:
    """Intersection over union of two boxes."""
    inter = abs(pymupdf.Rect(a) & b)
    return inter / (abs(a) + abs(b) - inter) if inter else 0.0


def by_word(rows: list[tuple[object, ...]]) -> dict[str, list[pymupdf.Rect]]:
    """Boxes of each word (lower case, punctuation around it stripped)."""
    out: dict[str, list[pymupdf.Rect]] = {}
    for row in rows:
        key = re.sub(r"^\W+|\W+$", "", str(row[4]).lower())
        if key:
            out.setdefault(key, []).append(pymupdf.Rect(*row[:4]))  # type: ignore[misc]
    return out


def share_in_place(wanted: dict[str, list[pymupdf.Rect]], have: dict[str, list[pymupdf.Rect]],
                   least: float) -> tuple[int, int]:
    """How many boxes of `wanted` a box of the same word in `have` overlaps by more than `least`, of how many."""
    hit = total = 0
    for word, boxes in wanted.items():
        for box in boxes:
            total += 1
            hit += any(iou(box, other) > least for other in have.get(word, []))
    return hit, total


def share_under(printed: dict[str, list[pymupdf.Rect]], have: dict[str, list[pymupdf.Rect]]) -> tuple[int, int]:
    """How many printed words have a box of the same word in `have` over their centre, of how many (the centre,
    not the overlap: some fonts give their words boxes of no height, four-lectures.pdf's for one)."""
    hit = total = 0
    for word, boxes in printed.items():
        for box in boxes:
            total += 1
            centre = (box.tl + box.br) / 2
            hit += any(centre in other for other in have.get(word, []))
    return hit, total


@pytest.mark.bench
@pytest.mark.timeout(3600)
def test_the_ocr_layer_puts_words_where_they_were_read(tmp_path: Path) -> None:
    engine = require_ocr_and_corpus()
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    scan, printed = pymupdf.open(), []
    for name, number in PAGES:
        source = pymupdf.open(CORPUS / name)
        page = source[number - 1]
        printed.append(by_word(page.get_text("words")))
        image = page.get_pixmap(dpi=SCAN_DPI, colorspace=pymupdf.csGRAY)
        target = scan.new_page(width=page.rect.width, height=page.rect.height)
        target.insert_image(target.rect, stream=image.tobytes("png"))
        source.close()
    plain = tmp_path / "scans.pdf"
    scan.save(plain)
    doc = pymupdf.open(plain)
    read: list[list[tuple[object, ...]]] = []
    spent = 0.0
    for page in doc:
        textpage = page.get_textpage_ocr(flags=TEXT_FLAGS, language="eng", dpi=300, full=True,
                                         tessdata=engine.tessdata)
        words = textpage.extractWORDS()
        read.append(words)
        started = time.perf_counter()
        assert add_words(page, words) == len([w for w in words if str(w[4]).strip()])
        spent += time.perf_counter() - started
    layered = tmp_path / "scans.ocr.pdf"
    started = time.perf_counter()
    doc.save(layered, garbage=1)
    saving = time.perf_counter() - started
    back = pymupdf.open(layered)
    totals = [0, 0, 0, 0]
    print(f"\nOCR layer over {SCAN_DPI} dpi scans")
    for index, (name, number) in enumerate(PAGES):
        again = by_word(back[index].get_text("words"))
        same, count = share_in_place(by_word(read[index]), again, 0.8)
        covered, printed_count = share_under(printed[index], again)
        totals = [totals[0] + same, totals[1] + count, totals[2] + covered, totals[3] + printed_count]
        print(f"{name[:40]:40} p{number:<3} {count:5} OCR words, {same / max(1, count):6.1%} back in place, "
              f"{covered / max(1, printed_count):6.1%} of {printed_count} printed words covered")
    added = layered.stat().st_size - plain.stat().st_size
    print(f"total: {totals[0] / totals[1]:.1%} of {totals[1]} OCR words back in place; {totals[2] / totals[3]:.1%} "
          f"of {totals[3]} printed words covered; writing {spent:.2f} s for {len(PAGES)} pages, saving "
          f"{saving:.2f} s; {added} bytes added ({added / plain.stat().st_size:.1%} of the scans' file)")
    assert totals[0] >= 0.99 * totals[1]
