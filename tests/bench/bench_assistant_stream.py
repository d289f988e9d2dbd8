"""Main-thread stalls while the assistant pane streams an answer under a long transcript.

A 5 ms QTimer on the window thread records the gaps between its ticks while the fake server streams an answer
(about 2,000 characters in 7-character deltas) below 40 earlier long answers. Measured twice in the same run:
the pane as built (only the streamed answer is laid out again) and the baseline that re-lays out the whole
transcript on every update. Prints p99 and max gap, the total time ticks ran late, the process's CPU time, and the ratios. What remains in the incremental run is mostly the worker thread's own
Python work (prompt building, citation checks) holding the GIL, not drawing.

Run: QT_QPA_PLATFORM=offscreen /tmp/venv/bin/python -m pytest -q -m bench -s tests/bench/bench_assistant_stream.py
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pageindex_desktop.core.assistant.settings import ModelSettings, save_settings
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.library.store_writer import StoreWriter
from pageindex_desktop.core.tokens import count_tokens
from pageindex_desktop.ui.assistant import AssistantPane
from pageindex_desktop.ui.assistant.entries import Exchange, TrailStep
from pageindex_desktop.ui.qt import QTimer
from tests.integration.fake_openai import FakeOpenAI, text, tool
from tests.integration.libdata import annual_report

EARLIER = 40
ANSWER = ("Net income rose **strongly** to $1,234 million [Annual Report 2023, p. 12]. " * 6 + "\n\n- a\n- b\n\n") * 4


def stream_gaps(pane: AssistantPane, fake: FakeOpenAI, doc: str, qtbot, full: bool) -> list[float]:  # type: ignore[no-untyped-def]
    """Tick gaps (seconds) on the window thread while one answer streams in."""
    pane.exchanges = [Exchange(f"Q{i}", ANSWER, trail=[TrailStep("Read pages 12 of Annual Report 2023")],
                               prompt_tokens=1000, completion_tokens=50) for i in range(EARLIER)]
    pane._cache.clear()
    pane.render()
    if full:  # the baseline: every streamed update lays out the whole transcript again
        pane._render_timer.timeout.disconnect()
        pane._render_timer.timeout.connect(pane.render)
    fake.script(tool("get_page_content", {"doc": doc, "pages": "12"}), text(ANSWER, chunk_delay=0.003))
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(tick)
    timer.start()
    pane.ask("What was net income?")
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=60_000)
    timer.stop()
    return sorted(gaps)


@pytest.mark.bench
def test_streaming_stalls_incremental_vs_full_redraw(home: Path, qtbot, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PAGEINDEX_CHAT_MODEL"):
        monkeypatch.delenv(name, raising=False)
    with Library(home) as library:
        doc = annual_report(library)
    count_tokens("warm up")  # load the tokenizer now: its one-time load holds the GIL for ~0.1 s
    results = {}
    cpus: dict[str, float] = {}
    with FakeOpenAI() as fake:
        save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat"), home)
        for full in (False, True):
            store = StoreWriter(home)  # the chats' writer, as the window's
            store.start()
            pane = AssistantPane(None, home, store)
            qtbot.addWidget(pane)
            pane.resize(460, 800)
            pane.show()
            qtbot.waitUntil(lambda: bool(pane.model), timeout=10_000)
            try:
                cpu = time.process_time()  # every thread of this process: the window, the worker, the fake server
                gaps = stream_gaps(pane, fake, doc, qtbot, full)
                cpus["full redraw" if full else "incremental"] = time.process_time() - cpu
            finally:
                pane.shutdown()
                store.close()
            results["full redraw" if full else "incremental"] = gaps
    def late(gaps: list[float]) -> float:
        return sum(max(0.0, g - 0.010) for g in gaps)  # time ticks ran more than 10 ms late

    for name, gaps in results.items():
        p99 = gaps[int(len(gaps) * 0.99)] * 1000
        print(f"{name:12s}: {len(gaps)} ticks, p99 gap {p99:.1f} ms, max gap {gaps[-1] * 1000:.1f} ms, "
              f"late {late(gaps) * 1000:.0f} ms in total, process CPU {cpus[name]:.2f} s")
    inc, full = results["incremental"], results["full redraw"]
    print(f"full redraw / incremental: max gap {full[-1] / max(1e-6, inc[-1]):.1f}x, "
          f"late time {late(full) / max(1e-6, late(inc)):.1f}x, "
          f"CPU time {cpus['full redraw'] / max(1e-6, cpus['incremental']):.1f}x")
    assert inc[int(len(inc) * 0.99)] < 0.1
