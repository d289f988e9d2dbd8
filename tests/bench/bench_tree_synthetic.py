"""Tree quality on seeded synthetic documents (issue 11): development seeds beside held-out seeds.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -m bench tests/bench/bench_tree_synthetic.py -s

`synthetic_docs.py` draws each document's house style and content from its seed (and, as a report, a cover,
a contents page listing one to three levels, folios counted from the body, chapter names as running headers,
numbered lists and a sub-heading title repeated under every chapter), 10-K-shaped filings
(`synthetic_filings.py`) and plans, regulations and specifications with labelled headings ("Strategy 2.1",
"Subpart B—", "CHAPTER 5" over its title), chapter-page folios and contents lists in one or two columns
(`synthetic_plans.py`), and study protocols from another producer, h1-h3 in its CSS with h3 at body size, beside
definition lists whose bold terms look like those h3, pull quotes as large as h2 and a title paragraph, numbered
or not (`synthetic_protocols.py`), and records where MuPDF's layout engine placed every heading, so the truth is
exact and no real document's titles are involved. The
development seeds are the ones failures were studied on; the held-out seeds were only ever scored in bulk.
A rule fitted to the development seeds shows as a gap between the two. Each set prints F1, level, parent and
start-page shares for the full pipeline (bookmarks: none), the layout finder alone and the font-size baseline
(lines at least 2 pt above the body), by numbering (a plan: labelling) scheme and by column count, with wall and CPU time.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.bench.cpu import cpu_seconds
from tests.bench.synthetic_docs import DEV_SEEDS, HELD_OUT_SEEDS, Measured, measure
from tests.bench.tree_corpus import shares
from tests.bench.tree_score import Score

TARGET_F1 = 0.80  # issue 11's target on unseen documents, which these stand in for
TARGET_LEVEL = 0.80
# synthetic_docs.build, as a report, synthetic_filings.build_filing, synthetic_plans.build_plan,
# synthetic_protocols.build_protocol
KINDS = ("plain", "report", "filing", "plan", "protocol")


def _figures(label: str, scores: list[Score]) -> str:
    level, parent, page = shares(scores)
    mean = sum(s.f1 for s in scores) / len(scores) if scores else 0.0
    return f"  {label:24} n={len(scores):3d} F1={mean:.3f} level={level:.3f} parent={parent:.3f} page={page:.3f}"


def _report(name: str, results: list[Measured], by_columns: bool) -> float:
    print(f"\n{name}: {len(results)} documents")
    print(_figures("full pipeline", [r.full for r in results]))
    print(_figures("layout only", [r.layout for r in results]))
    print(_figures("font-size baseline", [r.baseline for r in results]))
    for variant in sorted({r.variant for r in results}):
        print(_figures(f"full, {variant}", [r.full for r in results if r.variant == variant]))
    for columns in (1, 2) if by_columns else ():  # filings, plans and protocols are set in one column
        print(_figures(f"full, {columns} column(s)", [r.full for r in results if r.look.columns == columns]))
    worst = sorted(results, key=lambda r: r.full.f1)[:5]
    print("  lowest:", ", ".join(f"seed {r.seed} F1 {r.full.f1:.2f}" for r in worst))
    full = sum(r.full.f1 for r in results) / len(results)
    base = sum(r.baseline.f1 for r in results) / len(results)
    print(f"  full pipeline / baseline F1 ratio: {full / base:.2f}x" if base else "  baseline found nothing")
    return full


@pytest.mark.bench
@pytest.mark.timeout(3600)  # 2,000 documents built and scored: about 9 minutes on a 2-core machine
def test_synthetic_tree_quality(tmp_path: Path) -> None:
    wall, cpu = time.perf_counter(), cpu_seconds()
    sets = {(name, kind): measure(seeds, tmp_path, kind)
            for name, seeds in (("development", DEV_SEEDS), ("held-out", HELD_OUT_SEEDS)) for kind in KINDS}
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    means = {key: _report(f"{key[0]} seeds, {key[1]}", results, key[1] in ("plain", "report"))
             for key, results in sets.items()}
    for kind in KINDS:
        print(f"\n{kind}: held-out minus development F1 {means[('held-out', kind)] - means[('development', kind)]:+.3f}")
    print(f"{sum(len(r) for r in sets.values())} documents built and scored in {wall:.1f} s wall, {cpu:.1f} s CPU")
    for kind in KINDS:
        level, _parent, _page = shares([r.full for r in sets[("held-out", kind)]])
        assert means[("held-out", kind)] >= TARGET_F1 and level >= TARGET_LEVEL
