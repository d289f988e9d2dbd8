"""Viewer speed and memory on a 2,000-page PDF assembled from corpus pages (issue 3's four figures).

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -s -m bench tests/bench/bench_viewer.py`

- open_document → first page painted (render process warm, as in the app after start-up): < 300 ms.
- main-thread stalls, a 5 ms QTimer probe, while a second 2,000-page PDF imports and the open one scrolls
  (one wheel-sized step every 16 ms): p99 < 50 ms.
- peak memory (window process + render process, VmHWM) after scrolling the 2,000 pages end to end at fit
  width, each screen painted sharp before the next: < 500 MB.
- time to show an uncached page (request → painted) against pymupdf's own `load_page().get_pixmap()` at the
  same scale, both measured in this run on the same 41 pages: ratio of the totals <= 1.3. The viewer's time
  ends when `pageShown` is emitted for the page (stamped in a slot, not after the test's wait loop unwinds,
  which added up to a few ms per page on a cold CPU). Both start from the same 400 ms idle: on the VMs
  this runs on, any code run after an idle pause is several times slower than
  right after other work (the same get_pixmap: ~20 ms after `time.sleep(0.4)`, ~2 ms when repeated at once,
  CPU time equal to wall time), so a baseline timed right after the viewer's own render ran on a warm CPU
  the viewer never had. That warm figure is still printed.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pymupdf
import pytest

import pageindex_desktop.ui.qt  # noqa: F401  (PySide6/3.11 workaround first)
from pageindex_desktop.ui.qt import QSettings, Qt, QTimer
from tests.bench.bench_data import assemble_pdf
from tests.bench.cpu import process_cpu_seconds

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
REPO = Path(__file__).resolve().parents[2]
SOURCES = ["Regulation Best Interest_proposed rule.pdf", "pdfjs__freeculture.pdf", "2023-annual-report.pdf",
           "py-pdf__GeoTopo-komprimiert.pdf"]
PAGES = 2000
IDLE_MS = 400  # before each timed page, for the viewer and the baseline alike


def _assemble(path: Path, pages: int, extra_text: str = "") -> Path:
    return assemble_pdf(path, pages, [CORPUS / name for name in SOURCES], extra_text)


@pytest.fixture(scope="module")
def big_library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, Path]]:
    """A library holding the 2,000-page PDF, its doc id, and a second 2,000-page PDF to import live."""
    if not all((CORPUS / n).exists() for n in SOURCES):
        pytest.skip("corpus not available")
    root = tmp_path_factory.mktemp("viewer-bench")
    big = _assemble(root / "big.pdf", PAGES)
    other = _assemble(root / "other.pdf", PAGES, extra_text="a different file")
    home = root / "library"
    # imported by another process, so this one's memory is the window's alone
    code = ("import sys, json; from pathlib import Path; from pageindex_desktop.core.library.store import Library; "
            "from pageindex_desktop.core.ingest.indexer import import_pdf; lib = Library(Path(sys.argv[1])); "
            "print(json.dumps(import_pdf(lib, Path(sys.argv[2])).to_dict()))")
    out = subprocess.run([sys.executable, "-c", code, str(home), str(big)], capture_output=True, text=True,
                         check=True, cwd=REPO)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["status"] == "ready", result
    yield home, result["doc_id"], other


def _window(home: Path, qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    from pageindex_desktop.app import tune_interpreter
    from pageindex_desktop.ui.main_window import MainWindow

    tune_interpreter()  # as app.main() does
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    window = MainWindow(home)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    return window


def _status_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def _hwm_mb(pid: int) -> float:
    """Peak resident memory of a process (Linux)."""
    return _status_mb(pid, "VmHWM")


def _rss_mb(pid: int) -> float:
    """Resident memory of a process now (Linux)."""
    return _status_mb(pid, "VmRSS")


@pytest.mark.bench
def test_memory_after_scrolling_end_to_end(big_library, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    home, doc_id, _other = big_library
    window = _window(home, qtbot, tmp_path)
    view = window.viewer.view
    try:
        with qtbot.waitSignal(view.pageShown, timeout=20000):
            window.open_document(doc_id)
        opened_mb = _rss_mb(os.getpid())
        bar = view.verticalScrollBar()
        start = time.perf_counter()
        screens = 0
        while True:
            visible = list(view.visible_pages())
            qtbot.waitUntil(lambda: all(view.was_shown(p) for p in visible), timeout=20000)
            screens += 1
            if bar.value() >= bar.maximum():
                break
            bar.setValue(bar.value() + bar.pageStep())
        seconds = time.perf_counter() - start
        gui_mb = _hwm_mb(os.getpid())
        render_mb = _hwm_mb(window.renderer.process_id())
        print(f"\nscrolled {PAGES} pages end to end at fit width ({screens} screens, {seconds:.0f} s): peak RSS "
              f"window {gui_mb:.0f} MB + render process {render_mb:.0f} MB = {gui_mb + render_mb:.0f} MB "
              f"(target < 500 MB); window RSS with the document just opened {opened_mb:.0f} MB; cache "
              f"{window.renderer.cache.bytes / 2**20:.0f} MB in {len(window.renderer.cache)} pages")
        assert view.current_page() >= PAGES - 2
        assert gui_mb + render_mb < 500
    finally:
        window.close()


def _get_pixmap_ms(doc, page: int, scale: float, cpu_ms: list[float] | None = None) -> float:  # type: ignore[no-untyped-def]
    """Wall milliseconds of pymupdf's own load_page + get_pixmap; its CPU milliseconds appended to `cpu_ms`."""
    start, cpu = time.perf_counter(), time.process_time()
    doc.load_page(page - 1).get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=False)
    if cpu_ms is not None:
        cpu_ms.append((time.process_time() - cpu) * 1000)
    return (time.perf_counter() - start) * 1000


def _show_vs_get_pixmap(view, qtbot, doc, warm_doc, pages: list[int]):  # type: ignore[no-untyped-def]
    """Per page, interleaved so both see the same machine load: request -> painted in the viewer, then
    pymupdf's load_page + get_pixmap of the same page at the same scale in this process, each after the same
    idle pause; plus get_pixmap right after the viewer (a second Document, warm CPU) for comparison. CPU time
    too: the viewer's is this process's (every thread) plus the render process's (/proc, 10 ms ticks) from the
    request until the page is shown, get_pixmap's is this process's."""
    scale = view.render_scale()
    render_pid = view.renderer.process_id()
    viewer_ms: list[float] = []
    direct_ms: list[float] = []
    viewer_cpu_ms: list[float] = []
    direct_cpu_ms: list[float] = []
    warm_ms: list[float] = []
    child_ms: list[float] = []
    shown_at: dict[int, float] = {}  # stamped when the page is announced, not when the wait loop unwinds
    view.pageShown.connect(lambda p: shown_at.setdefault(p, time.perf_counter()))
    for page in pages:  # far apart: never prefetched by the previous step
        # a deliberate idle pause, the condition both sides are measured under (see the module docstring); the
        # render process has long finished prefetching the previous page's neighbours by its end
        qtbot.wait(IDLE_MS)
        shown_at.clear()
        with qtbot.waitSignal(view.pageShown, timeout=10000, check_params_cb=lambda p, want=page: p == want):
            start, cpu, render_cpu = time.perf_counter(), time.process_time(), process_cpu_seconds(render_pid)
            view.go_to_page(page)
        viewer_ms.append((shown_at[page] - start) * 1000)
        viewer_cpu_ms.append((time.process_time() - cpu + process_cpu_seconds(render_pid) - render_cpu) * 1000)
        warm_ms.append(_get_pixmap_ms(warm_doc, page, scale))
        child_ms.append(view.renderer.render_time_ms(view.key, page) or 0.0)
        qtbot.wait(IDLE_MS)  # the same idle pause before the baseline
        direct_ms.append(_get_pixmap_ms(doc, page, scale, direct_cpu_ms))
    return scale, viewer_ms, direct_ms, warm_ms, child_ms, viewer_cpu_ms, direct_cpu_ms


@pytest.mark.bench
def test_first_page_and_render_ratio(big_library, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    home, doc_id, _other = big_library
    window = _window(home, qtbot, tmp_path)
    view = window.viewer.view
    try:
        # warm the render process as the app does at start-up (it starts with the window)
        qtbot.waitUntil(lambda: window.renderer.is_ready, timeout=20000)
        opens: list[float] = []
        for _ in range(5):  # each time from a closed document: the render process re-opens the file
            window.viewer.close_document()
            qtbot.wait(300)  # a deliberate pause after the close, the same before each timed open
            start = time.perf_counter()
            with qtbot.waitSignal(view.pageShown, timeout=10000):
                window.open_document(doc_id)
            opens.append((time.perf_counter() - start) * 1000)
        first = statistics.median(opens)
        print(f"\nopen_document -> first page painted (2,000 pages): median {first:.0f} ms of "
              f"{[round(t) for t in opens]} (target < 300 ms)")

        doc = pymupdf.open(window.library.pdf_path(doc_id))
        warm_doc = pymupdf.open(window.library.pdf_path(doc_id))
        for warm in range(1, 9):  # the render process has its fonts loaded; give the baseline the same start
            for d in (doc, warm_doc):
                d.load_page(warm - 1).get_pixmap(matrix=pymupdf.Matrix(1, 1), alpha=False)
        results = {}
        for label, zoom in (("fit width", view.zoom()), ("twice that (a 2x screen)", view.zoom() * 2)):
            view.set_zoom(zoom)
            results[label] = _show_vs_get_pixmap(view, qtbot, doc, warm_doc, list(range(40, 1960, 47)))
        doc.close()
        warm_doc.close()
        ratios = {}
        for label, (scale, viewer_ms, direct_ms, warm_ms, child_ms, viewer_cpu, direct_cpu) in results.items():
            ratios[label] = sum(viewer_ms) / sum(direct_ms)
            print(f"show {len(viewer_ms)} uncached pages at {label} (scale {scale}), each after {IDLE_MS} ms idle: "
                  f"viewer {sum(viewer_ms):.0f} ms in all vs get_pixmap {sum(direct_ms):.0f} ms = "
                  f"{ratios[label]:.2f}x (target <= 1.3); CPU time viewer (window + render process) "
                  f"{sum(viewer_cpu):.0f} ms vs get_pixmap {sum(direct_cpu):.0f} ms = "
                  f"{sum(viewer_cpu) / max(1e-6, sum(direct_cpu)):.2f}x; per page median "
                  f"{statistics.median(viewer_ms):.1f} vs {statistics.median(direct_ms):.1f} ms; of the viewer's "
                  f"time MuPDF in the render process took {sum(child_ms):.0f} ms, request + copy + paint the other "
                  f"{sum(viewer_ms) - sum(child_ms):.0f} ms; get_pixmap right after the viewer (warm CPU) "
                  f"{sum(warm_ms):.0f} ms = {sum(viewer_ms) / sum(warm_ms):.2f}x")
        assert first < 300
        assert all(ratio <= 1.3 for ratio in ratios.values()), ratios  # every zoom it reports, not only fit width
    finally:
        window.close()


@pytest.mark.bench
def test_stalls_while_importing_and_scrolling(big_library, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    home, doc_id, other = big_library
    window = _window(home, qtbot, tmp_path)
    view = window.viewer.view
    try:
        with qtbot.waitSignal(view.pageShown, timeout=20000):
            window.open_document(doc_id)
        gaps: list[float] = []
        last = [time.perf_counter()]

        def probe() -> None:
            now = time.perf_counter()
            gaps.append((now - last[0]) * 1000 - 5)
            last[0] = now

        def scroll() -> None:
            bar = view.verticalScrollBar()
            bar.setValue(bar.value() + 120 if bar.value() < bar.maximum() else 0)

        probe_timer = QTimer(interval=5, timerType=Qt.TimerType.PreciseTimer)
        probe_timer.timeout.connect(probe)
        scroll_timer = QTimer(interval=16)
        scroll_timer.timeout.connect(scroll)
        (job,) = window.import_paths([other], open_when_done=False)
        start = time.perf_counter()
        last[0] = start
        probe_timer.start()
        scroll_timer.start()
        with qtbot.waitSignal(window.worker.jobFinished, timeout=300000):
            pass
        probe_timer.stop()
        scroll_timer.stop()
        seconds = time.perf_counter() - start
        gaps.sort()
        p99 = gaps[int(len(gaps) * 0.99)]
        print(f"\nimport of a 2,000-page PDF while scrolling: {seconds:.1f} s, {len(gaps)} probes, stall p50 "
              f"{gaps[len(gaps) // 2]:.1f} ms, p99 {p99:.1f} ms, max {gaps[-1]:.1f} ms (target p99 < 50 ms); "
              f"scrolled to page {view.current_page()}")
        assert job.stage == "done"
        assert p99 < 50
    finally:
        window.close()
