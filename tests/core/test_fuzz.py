"""Seeded fuzzing in the default suite: 30 mutants of small corpus PDFs and the pymupdf-built hostile files, each
imported through the real import path (`import_pdf`, extraction child included) into one temp library.

Each must end within its bound, raise nothing, say nothing of an "internal error", and be ready or failed with a
plain sentence; afterwards the library must pass SQLite's, FTS5's and the foreign keys' checks, and every document
must be ready with all its pages or failed with none. `tests/bench/bench_fuzz.py` runs 500 mutants.
"""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.core.library.store import Library
from tests.conftest import CORPUS, corpus_file
from tests.core.fuzz_cases import SOURCES, consistency_problems, hostile_files, mutants, run_case

SEED = 13
COUNT = 30
BOUND_SECONDS = 30.0  # one import; the slowest of 500 mutants took under a second here


def test_mutants_and_hostile_files_end_ready_or_failed_with_a_sentence(home: Path, tmp_path: Path) -> None:
    corpus_file(SOURCES[0])  # skips without the corpus
    cases = list(mutants(CORPUS, COUNT, SEED)) + hostile_files()
    assert len(cases) >= COUNT
    outcomes = {}
    for case in cases:
        path = tmp_path / f"{case.name}.pdf"
        path.write_bytes(case.data)
        outcomes[case.name] = run_case(home, path, BOUND_SECONDS)
    bad = [f"{o.case}: {o.kind}: {o.detail}" for o in outcomes.values() if o.kind not in ("ok", "failed")]
    assert not bad, "\n".join(bad)
    assert not consistency_problems(home)
    # the hostile files that are sound PDFs import; the impossible page count is a damaged page tree
    for name in ("deep-outline", "cyclic-outline", "zero-size-pages", "long-line", "surrogate-titles"):
        assert outcomes[name].kind == "ok", outcomes[name]
    assert outcomes["huge-page-count"].kind == "failed" and "page tree" in outcomes["huge-page-count"].detail
    with Library(home) as library:
        (page,) = library.pages(outcomes["long-line"].doc_id)
    assert max(len(line) for line in page.text.splitlines()) >= 100_000  # kept whole, not cut or dropped
    kinds = {o.kind for name, o in outcomes.items() if name[:3].isdigit()}
    assert kinds == {"ok", "failed"}  # the mutants reach both ends, so the test exercises the failure paths too
