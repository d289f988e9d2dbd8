"""A floor on search quality over the labelled analyst questions on the corpus filings (tests/search_eval): the
page that answers is in the top 3 for at least FLOOR of the 45 the rules were tuned on, HELD_OUT_FLOOR of the
10 on other filings they were not tuned on, and HELD_OUT_2_FLOOR of the 10 written after the last rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.search_eval.runner import CASES, CORPUS, HELD_OUT, HELD_OUT_2, TOP, evaluate, load_cases

# measured 45/45 in the top 3 and 35/45 first (before the fiscal-period spans and the whole-company preference:
# 43 and 32; before concept BM25, optional quarters and printed shares: 40 and 31; before the vocabulary and
# names: 28 and 18)
FLOOR = 45
HELD_OUT_FLOOR = 10  # measured 10/10 in the top 3, 6/10 first (before concept BM25: 10 and 5)
# measured 9/10 in the top 3, 7/10 first (the rules before the spans: 10 and 6; Pfizer's "first half" revenue
# fell from 2, where "first" and "half" matched apart on "second half", to 10: its tables head "Six Months")
HELD_OUT_2_FLOOR = 9


@pytest.mark.parametrize(("path", "floor"), [(CASES, FLOOR), (HELD_OUT, HELD_OUT_FLOOR), (HELD_OUT_2, HELD_OUT_2_FLOOR)],
                         ids=["tuned", "held-out", "held-out-2"])
def test_the_answering_page_ranks_in_the_top_three(tmp_path: Path, path: Path, floor: int) -> None:
    if not all((CORPUS / str(case["file"])).exists() for case in load_cases(path)):
        pytest.skip("the shared corpus is not beside the checkout")
    outcomes = evaluate(tmp_path / "home", path)
    found = [o for o in outcomes if o.rank is not None and o.rank <= TOP]
    missed = "\n".join(f"{o.question} → {o.ranked[:5]} (answers {o.answers[:5]})"
                       for o in outcomes if o not in found)
    assert len(found) >= floor, f"{len(found)}/{len(outcomes)} in the top {TOP}; missed:\n{missed}"
