"""The tree panel's Pages view on the 2,000-page PDF assembled from corpus pages (bench_viewer's library).

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -s -m bench tests/bench/bench_page_strip.py`

- opening the strip: how many thumbnails are asked for (target: the cells on screen, no more) and how long
  until they are all drawn.
- the strip scrolled end to end, one wheel-sized step every 16 ms: main-thread stalls (a 5 ms QTimer probe,
  p99 < 50 ms as for the viewer), how many thumbnails were rendered on the way (each request replaces the
  queue with the cells on screen now, so the render process draws what it can keep up with, never a backlog)
  and how soon the last screen is drawn once the scrolling stops (< 2 s).
- the main view's jumps to uncached pages right after the strip asked for a screen of new thumbnails, against
  jumps with the strip hidden, interleaved: the page being read is served first, so what a jump waits for
  beyond MuPDF's own time for its page grows by at most the one thumbnail being drawn when it came.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from pageindex_desktop.ui.qt import Qt, QTimer
from tests.bench.bench_viewer import PAGES, _window, big_library  # noqa: F401  (the fixture, shared)


def _jump(window, qtbot, page: int, shown_at: dict[int, float]) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Jump the viewer to an uncached page: (ms until it is painted, of which MuPDF's own ms)."""
    view = window.viewer.view
    shown_at.clear()
    view.invalidate_shown()  # a page painted once before (evicted since) is announced again
    with qtbot.waitSignal(view.pageShown, timeout=10000, check_params_cb=lambda p, want=page: p == want):
        start = time.perf_counter()
        view.go_to_page(page)
    return (shown_at[page] - start) * 1000, window.renderer.render_time_ms(view.key, page) or 0.0


def _busy_and_plain_jumps(window, qtbot, pages: list[int]):  # type: ignore[no-untyped-def]
    """Per page, interleaved so both see the same machine load: a jump while the strip has just asked for a
    screen of new thumbnails (scrolled two screens, asked at once, 5 ms before), then a jump to a page 48 further
    on with the strip hidden. Returns both lists of (ms, MuPDF ms) and how many thumbnails arrived before the
    page jumped to in the busy jumps."""
    view, strip = window.viewer.view, window.pages
    shown_at: dict[int, float] = {}
    thumbs_at: list[float] = []
    view.pageShown.connect(lambda p: shown_at.setdefault(p, time.perf_counter()))
    window.renderer.thumbReady.connect(lambda _k, _p, _s: thumbs_at.append(time.perf_counter()))
    busy, plain, ahead = [], [], 0
    for page in pages:
        window.outline.show_view("Pages")
        qtbot.wait(300)
        bar = strip.verticalScrollBar()
        bar.setValue(min(bar.maximum(), bar.value() + 2 * bar.pageStep()))
        strip.request_visible()
        qtbot.wait(5)
        thumbs_at.clear()
        busy.append(_jump(window, qtbot, page, shown_at))
        ahead += sum(1 for t in thumbs_at if t < shown_at[page])
        window.outline.show_view("Sections")
        qtbot.wait(300)
        plain.append(_jump(window, qtbot, page + 48, shown_at))
    return busy, plain, ahead


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
        stopped = time.perf_counter()
        qtbot.waitUntil(lambda: all(strip.has_thumbnail(p) for p in strip.visible_pages()), timeout=20000)
        settled_ms = (time.perf_counter() - stopped) * 1000
        probe_timer.stop()
        seconds = time.perf_counter() - start
        gaps.sort()
        p99 = gaps[int(len(gaps) * 0.99)]
        print(f"strip scrolled end to end ({bar.maximum()} px, 120 px every 16 ms): {seconds:.1f} s, stall p50 "
              f"{gaps[len(gaps) // 2]:.1f} ms, p99 {p99:.1f} ms, max {gaps[-1]:.1f} ms (target p99 < 50 ms); "
              f"{len(thumbs)} thumbnails rendered on the way ({len(set(thumbs))} pages); the last screen drawn "
              f"{settled_ms:.0f} ms after the scrolling stopped (no backlog: target < 2 s)")

        pages = list(range(61, 1900, 97))
        bar.setValue(0)
        qtbot.wait(1000)
        busy, plain, ahead = _busy_and_plain_jumps(window, qtbot, pages)
        print(f"main view jumps to {len(pages)} + {len(pages)} uncached pages, interleaved: median "
              f"{statistics.median(t for t, _m in busy):.1f} ms with the strip just asking for thumbnails vs "
              f"{statistics.median(t for t, _m in plain):.1f} ms with it hidden; beyond MuPDF's own time for the "
              f"page {statistics.median(t - m for t, m in busy):.1f} vs {statistics.median(t - m for t, m in plain):.1f}"
              f" ms (max {max(t - m for t, m in busy):.0f} vs {max(t - m for t, m in plain):.0f}); {ahead} "
              f"thumbnails arrived before the page jumped to")
        drawn = [t for t in (window.renderer.thumb_time_ms(view.key, p) for p in range(1, PAGES + 1)) if t]
        print(f"MuPDF's time per thumbnail ({len(drawn)} pages): median {statistics.median(drawn):.1f} ms, p90 "
              f"{sorted(drawn)[int(len(drawn) * 0.9)]:.1f} ms, max {max(drawn):.0f} ms: what a jump can wait for "
              f"when it arrives while one is drawn")
        assert settled_ms < 2000
        assert p99 < 50
    finally:
        window.close()
