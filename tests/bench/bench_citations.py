"""The citation checker scored on the whole labelled set (tests/citation_eval/cases.json), end to end: each case
scripts the fake model (read the pages, write the answer) and runs `pageindex-desktop-cli ask --json` as a
subprocess; the citations it returns are compared with the labels.

It runs the set six times: with the model judge refused (the rules alone), and with the judge scripted to be
right, wrong (the opposite verdict, quotes made up), adversarial (the opposite verdict, quoting the passage),
slow (past its deadline) and junk (prose). It prints the confusion matrix by kind for each, then holds the rules
to issue 9's goals (at least 95 % of wrong citations caught, none correct flagged, every wrong changed number and
negation contradicted), a right judge to the same goals, and a wrong, slow or junk judge to changing no verdict
at all. An adversarial judge can move the verdicts the rules were unsure of (never a firm one); the count is
printed.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -s -m bench tests/bench/bench_citations.py`.
A selection of the rules alone: `.venv/bin/python -m tests.citation_eval.runner --kind negation`.
"""

from __future__ import annotations

import pytest

from tests.citation_eval.runner import (
    JUDGES,
    evaluate,
    format_report,
    load_cases,
    missing_documents,
    outcomes,
    summary,
    threshold_failures,
)


@pytest.mark.bench
@pytest.mark.timeout(3600)
def test_the_citation_checker_on_the_labelled_set() -> None:
    cases = load_cases()
    missing = missing_documents(cases)
    if missing:
        pytest.skip(f"corpus files not available (../shared/corpus): {missing}")
    runs = evaluate(cases, judges=JUDGES)
    verdicts = {mode: [o.got for o in outcomes(results)] for mode, results in runs.items()}
    failures: list[str] = []
    for mode, results in runs.items():
        print(f"\n===== model judge: {mode} =====")
        print(format_report(results))
        changed = sum(a != b for a, b in zip(verdicts["off"], verdicts[mode]))
        print(f"verdicts that differ from the rules alone: {changed}")
        figures = summary(results)
        assert not figures["setup_problems"], f"cases that no longer read what they say: {figures['setup_problems']}"
        if mode in ("off", "right"):
            failures += [f"judge {mode}: {f}" for f in threshold_failures(figures)]
        if mode in ("wrong", "slow", "junk") and changed:
            failures.append(f"judge {mode}: {changed} verdicts changed although the judge failed")
    assert not failures, "; ".join(failures)
