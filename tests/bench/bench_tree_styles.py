"""Tree quality on house styles the synthetic draw never makes (issue 11: rules fitted to the styles we tune on
do not carry): the same seeded documents restyled one way at a time, each scored beside the unchanged set.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -m bench tests/bench/bench_tree_styles.py -s

Every style keeps each seed's content, page size, columns and drawn look, and lays CSS over it: sub-headings in
italic at regular weight (the lowest at body size); every level in bold a point apart (two over the body at the
top, the body's size at the bottom); headings in a colour alone; headings in the body's serif face; a
sans-serif body; tight spacing round headings; second-level headings in regular weight one point over the
body; sub-headings underlined at body size. (MuPDF's layout engine sets neither small capitals nor
text-transform, so no style relies on them.) A row prints F1, level and parent shares of the full pipeline
(bookmarks: none) and layout alone, and the style's F1 as a difference from the unchanged set in the same run,
with wall and CPU time. A style more than MAX_DROP below the unchanged set fails the bench (a class of
documents the finders do not read), except KNOWN_GAPS, which are measured and reported until a finder reads them.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.bench.cpu import cpu_seconds
from tests.bench.synthetic_docs import Restyle, measure
from tests.bench.tree_corpus import shares

SEEDS = range(300, 360)  # away from the development seeds (0-199) and the held-out ones (1000-1199)
MAX_DROP = 0.10
STYLES: dict[str, Restyle] = {
    "unchanged": lambda look: "",
    "italic sub-headings": lambda look: (
        "h2 { font-weight: normal; font-style: italic; } "
        f"h3 {{ font-weight: normal; font-style: italic; font-size: {look.body_size}pt; }}"),
    "small size steps": lambda look: (
        f"h1 {{ font-size: {look.body_size + 2}pt; font-weight: bold; }} "
        f"h2 {{ font-size: {look.body_size + 1}pt; font-weight: bold; }} "
        f"h3 {{ font-size: {look.body_size}pt; font-weight: bold; }}"),
    "colour alone": lambda look: (
        "h1, h2 { color: #c00000; font-weight: normal; } "
        f"h3 {{ color: #c00000; font-weight: normal; font-size: {look.body_size}pt; }}"),
    "serif headings": lambda look: "h1, h2, h3 { font-family: serif; }",
    "sans-serif body": lambda look: "body { font-family: sans-serif; }",
    "tight spacing": lambda look: "h1, h2, h3 { margin-top: 0.2em; margin-bottom: 0.1em; }",
    "regular, a point over the body": lambda look: (
        f"h2 {{ font-weight: normal; font-size: {look.body_size + 1}pt; }}"),
    "underlined headings": lambda look: (
        f"h2, h3 {{ font-weight: normal; text-decoration: underline; font-size: {look.body_size}pt; }}"),
}
# Styles the finders do not read yet, printed and not asserted (the note on issue 11 gives the figures): none
# now. Italic sub-headings at body size are read since an italic that prints only short title lines marks them
# (core/outline/heading_italic.py): plain 0.931 -> 0.995, report 0.954 -> 0.989. Underlined sub-headings are read
# since the rule under them is found at extraction (core/ingest/underlines.py): plain 0.803 -> 0.945, report
# 0.924 -> 0.967.
KNOWN_GAPS: set[str] = set()

@pytest.mark.bench
@pytest.mark.timeout(1800)  # 9 styles x 2 kinds x 60 documents: about 3 minutes on a 2-core machine
@pytest.mark.parametrize("kind", ["plain", "report"])
def test_tree_on_unseen_house_styles(kind: str, tmp_path: Path) -> None:
    """No house style scores more than MAX_DROP below the unchanged documents."""
    print(f"\n{kind}: {len(SEEDS)} documents per style")
    means: dict[str, float] = {}
    for name, restyle in STYLES.items():
        folder = tmp_path / name.replace(" ", "-").replace(",", "")
        folder.mkdir()
        started, cpu = time.perf_counter(), cpu_seconds()
        results = measure(SEEDS, folder, kind, restyle)
        wall, used = time.perf_counter() - started, cpu_seconds() - cpu
        full = sum(r.full.f1 for r in results) / len(results)
        layout = sum(r.layout.f1 for r in results) / len(results)
        level, parent, _page = shares([r.full for r in results])
        means[name] = full
        lows = ", ".join(f"{r.seed}:{r.full.f1:.2f}" for r in sorted(results, key=lambda r: r.full.f1)[:3])
        gap = " (known gap)" if name in KNOWN_GAPS else ""
        print(f"  {name + gap:38} F1={full:.3f} ({full - means['unchanged']:+.3f}) layout={layout:.3f} "
              f"level={level:.3f} parent={parent:.3f} lowest {lows} | {wall:.0f} s wall, {used:.0f} s CPU")
    worst = min((name for name in means if name not in KNOWN_GAPS), key=lambda name: means[name])
    assert means[worst] >= means["unchanged"] - MAX_DROP, f"{worst}: {means[worst]:.3f}"
