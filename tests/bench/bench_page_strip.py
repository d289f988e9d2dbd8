"""The tree panel's Pages view on the 2,000-page PDF assembled from corpus pages (bench_viewer's library).

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -s -m bench tests/bench/bench_page_strip.py`

- opening the strip: how many thumbnails are asked for (target: the cells on screen, no more) and how long
  until they are all drawn.
- the strip scrolled end to end, one wheel-sized step every 16 ms: main-thread stalls (a 5 ms QTimer probe,
  p99 < 50 ms as for the viewer) and how many thumbnails were rendered on the way (asking only for where the
  strip is now: far fewer than 2,000).
- the main view's jumps to uncached pages while the strip keeps asking for thumbnails (it scrolls between
  jumps) against the same jumps with the strip hidden: the page being read is served first, so the median
  stays within one thumbnail's render of the plain one.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from pageindex_desktop.ui.qt import Qt, QTimer
from tests.bench.bench_viewer import PAGES, _window, big_library  # noqa: F401  (the fixture, shared)


def _jumps(window, qtbot, pages: list[int], strip_busy: bool) -> list[float]:  # type: ignore[no-untyped-def]
    view, strip = window.viewer.view, window.pages
    shown_at: dict[int, float] = {}
    view.pageShown.connect(lambda p: shown_at.setdefault(p, time.perf_counter()))
    times = []
    for page in pages:
        if strip_busy:  # new thumbnails on screen, asked for at once: their queue is full when the jump comes
            bar = strip.verticalScrollBar()
            bar.setValue(min(bar.maximum(), bar.value() + 2 * bar.pageStep()))
            strip.request_visible()
            qtbot.wait(5)
        else:
            qtbot.wait(200)
        shown_at.clear()
        with qtbot.waitSignal(view.pageShown, timeout=10000, check_params_cb=lambda p, want=page: p == want):
            start = time.perf_counter()
            view.go_to_page(page)
        times.append((shown_at[page] - start) * 1000)
    return times


@pytest.mark.bench
def test_the_pages_view_on_2000_pages(big_library, qtbot,  # type: ignore[no-untyped-def]  # noqa: F811
                                      tmp_path: Path) -> None:
    home, doc_id, _other = big_library
    window = _window(home, qtbot, tmp_path)
    view, strip = window.viewer.view, window.pages
    thumbs: list[int] = []
    window.renderer.thumbReady.connect(lambda _k, p, _s: thumbs.append(p))
    try:
        with qtbot.waitSignal(view.pageShown, timeout=20000):
            window.open_document(doc_id)
        qtbot.wait(500)
        start = time.perf_counter()
        window.outline.show_view("Pages")
        qtbot.waitUntil(lambda: bool(strip.visible_pages()) and all(strip.has_thumbnail(p)
                                                                   for p in strip.visible_pages()), timeout=20000)
        opened_ms = (time.perf_counter() - start) * 1000
        visible = strip.visible_pages()
        asked = {p for request in strip.asked for p in request}
        print(f"\nPages view opened on {PAGES} pages: {len(visible)} cells on screen, {len(asked)} thumbnails "
              f"asked for, all drawn in {opened_ms:.0f} ms")
        assert asked <= set(visible)

        gaps: list[float] = []
        last = [time.perf_counter()]

        def probe() -> None:
            now = time.perf_counter()
            gaps.append((now - last[0]) * 1000 - 5)
            last[0] = now

        bar = strip.verticalScrollBar()

        def scroll() -> None:
            bar.setValue(bar.value() + 120)

        probe_timer = QTimer(interval=5, timerType=Qt.TimerType.PreciseTimer)
        probe_timer.timeout.connect(probe)
        scroll_timer = QTimer(interval=16)
        scroll_timer.timeout.connect(scroll)
        thumbs.clear()
        start = time.perf_counter()
        last[0] = start
        probe_timer.start()
        scroll_timer.start()
        qtbot.waitUntil(lambda: bar.value() >= bar.maximum(), timeout=600000)
        scroll_timer.stop()
        qtbot.waitUntil(lambda: all(strip.has_thumbnail(p) for p in strip.visible_pages()), timeout=20000)
        probe_timer.stop()
        seconds = time.perf_counter() - start
        gaps.sort()
        p99 = gaps[int(len(gaps) * 0.99)]
        print(f"strip scrolled end to end ({bar.maximum()} px, 120 px every 16 ms): {seconds:.1f} s, stall p50 "
              f"{gaps[len(gaps) // 2]:.1f} ms, p99 {p99:.1f} ms, max {gaps[-1]:.1f} ms (target p99 < 50 ms); "
              f"{len(thumbs)} thumbnails rendered on the way ({len(set(thumbs))} pages), "
              f"{len(strip.asked)} requests")

        pages = list(range(61, 1960, 97))
        bar.setValue(0)
        qtbot.wait(1000)
        busy = _jumps(window, qtbot, pages, strip_busy=True)
        window.outline.show_view("Sections")
        window.renderer.cache.drop(view.key)  # the same pages uncached again
        qtbot.wait(500)
        plain = _jumps(window, qtbot, pages, strip_busy=False)
        print(f"main view jumps to {len(pages)} uncached pages: median {statistics.median(busy):.1f} ms with "
              f"the strip asking for thumbnails vs {statistics.median(plain):.1f} ms with it hidden "
              f"(max {max(busy):.0f} vs {max(plain):.0f} ms)")
        assert len(set(thumbs)) < PAGES // 2
        assert p99 < 50
    finally:
        window.close()
