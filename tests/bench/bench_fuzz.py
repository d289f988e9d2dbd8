"""500 seeded mutants of small corpus PDFs (and the pymupdf-built hostile files), each imported through the real
import path (`import_pdf` into one temp library, the extraction child included) with a time bound.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -s -m bench tests/bench/bench_fuzz.py`
(`FUZZ_SEED` and `FUZZ_COUNT` change the seed and the number of mutants).

Prints the counts of each outcome (ok / failed with a sentence / hang / traceback / internal error / unclear),
the seconds spent, the slowest cases and every case that did not end ok or failed-with-a-sentence, then fails
when there was any such case or the library is not consistent afterwards. The mutations are described in
`tests/core/fuzz_cases.py`; the default suite runs 30 of them (`tests/core/test_fuzz.py`).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.core.fuzz_cases import OUTCOMES, Outcome, consistency_problems, hostile_files, mutants, run_case

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
SEED = int(os.environ.get("FUZZ_SEED", "13"))
COUNT = int(os.environ.get("FUZZ_COUNT", "500"))
BOUND_SECONDS = 60.0  # one import; far above the slowest case seen (a few seconds), far below the child's stall bound


@pytest.mark.bench
def test_fuzz_500_mutants(tmp_path: Path) -> None:
    cases = list(mutants(CORPUS, COUNT, SEED))
    if not cases:
        pytest.skip("corpus not available")
    cases += hostile_files()
    home = tmp_path / "library"
    outcomes: list[Outcome] = []
    started = time.monotonic()
    for case in cases:
        path = tmp_path / f"{case.name}.pdf"
        path.write_bytes(case.data)
        outcomes.append(run_case(home, path, BOUND_SECONDS))
        path.unlink()
    seconds = time.monotonic() - started
    counts = Counter(o.kind for o in outcomes)
    print(f"\nfuzz: {len(cases)} files ({COUNT} mutants, seed {SEED}, {len(cases) - COUNT} hostile) in {seconds:.1f} s: "
          + ", ".join(f"{kind} {counts.get(kind, 0)}" for kind in OUTCOMES))
    for outcome in sorted(outcomes, key=lambda o: -o.seconds)[:5]:
        print(f"  slowest: {outcome.seconds:.2f} s {outcome.case} ({outcome.kind})")
    messages = Counter(o.detail for o in outcomes if o.kind == "failed")
    for message, n in messages.most_common():
        print(f"  failed x{n}: {message}")
    bad = [o for o in outcomes if o.kind not in ("ok", "failed")]
    for outcome in bad:
        print(f"  {outcome.kind}: {outcome.case}: {outcome.detail}")
    problems = consistency_problems(home)
    assert not problems, problems
    assert not bad, f"{len(bad)} of {len(cases)} cases did not end ready or failed with a sentence"
