"""100 first-opens of new libraries, ten processes at a time (issue 13: every one must succeed).

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -s -m bench tests/bench/bench_concurrent_open.py`
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.bench.cpu import cpu_seconds
from tests.core.concurrent_open import open_together

ROUNDS = 10
PROCESSES = 10


@pytest.mark.bench
def test_a_hundred_concurrent_first_opens(tmp_path: Path) -> None:
    started, parent, cpu = time.monotonic(), time.process_time(), cpu_seconds()
    outcomes = [o for n in range(ROUNDS) for o in open_together(tmp_path / f"home{n}", PROCESSES)]
    failed = [o for o in outcomes if o != "ok"]
    print(f"\nconcurrent first-opens: {len(outcomes) - len(failed)}/{len(outcomes)} ok "
          f"in {time.monotonic() - started:.1f} s wall, {cpu_seconds() - cpu:.1f} s CPU with the children "
          f"({time.process_time() - parent:.1f} s of it the parent's); failures: "
          f"{failed[:3]}")
    assert not failed
