"""The tree-quality scorer itself: normalisation, one-to-one matching, F1 and page accuracy."""

from __future__ import annotations

from tests.bench.tree_score import Entry, nested, normalise, score, truth_from_toc


def test_normalise_drops_case_punctuation_and_section_numbers() -> None:
    assert normalise("3.2.1 Scaled Dot-Product Attention") == "scaled dot product attention"
    assert normalise("III-A Google DeepDream") == "google deepdream"
    assert normalise("CHAPTER ONE: Creators") == normalise("Chapter 1: Creators") == "creators"
    assert normalise("(2) Fees and Charges") == "fees and charges"
    assert normalise("Note 2 - Revenue") == normalise("2. REVENUE") == "revenue"  # a filing's note label
    assert normalise("Civil Rights") == "civil rights"  # a word of roman-numeral letters is not a number


def test_matching_is_one_to_one_and_counts_page_accuracy() -> None:
    truth = [Entry("1 Introduction", 3), Entry("Summary", 5), Entry("Summary", 9), Entry("Appendix", 20)]
    found = [Entry("Introduction", 3), Entry("SUMMARY", 9), Entry("Summary.", 6), Entry("Sumary", 12),
             Entry("References", 19)]
    result = score(truth, found)
    assert result.matched == 3  # "Sumary" has no bookmark left to take; "References" never matches
    assert result.page_ok == 3
    assert abs(result.precision - 3 / 5) < 1e-9 and abs(result.recall - 3 / 4) < 1e-9
    assert abs(result.f1 - 2 * 0.6 * 0.75 / 1.35) < 1e-9


def test_wrong_pages_lower_page_accuracy_not_f1() -> None:
    result = score([Entry("Methods", 4), Entry("Results", 8)], [Entry("Methods", 6), Entry("Results", 9)])
    assert result.f1 == 1.0 and result.page_accuracy == 0.5


def test_bookmarks_without_target_are_not_ground_truth() -> None:
    assert truth_from_toc([(1, "Cover", 1), (1, "*link", -1), (2, "   ", 3)]) == [Entry("Cover", 1)]


def test_levels_and_parents_among_matches() -> None:
    truth = truth_from_toc([(1, "Intro", 1), (2, "Scope", 1), (1, "Methods", 3), (2, "Data", 3), (3, "Sources", 4)])
    assert [(e.depth, e.parent) for e in truth] == [(0, None), (1, 0), (0, None), (1, 2), (2, 3)]
    # rebuilt tree: levels start at 2 and skip one (aligned and nested); "Data" flattened, "Sources" under Methods
    found = nested([(2, "Intro", 1), (4, "Scope", 1), (2, "Methods", 3), (2, "Data", 3), (3, "Sources", 4)])
    result = score(truth, found)
    assert result.matched == 5
    assert result.level_ok == 3  # Data sits at depth 0 instead of 1, so Sources at 1 instead of 2
    assert result.parent_ok == 4  # only Data lost its parent; Sources' parent is the match of Data in both


def test_dropped_bookmark_children_hang_from_its_ancestor() -> None:
    truth = truth_from_toc([(1, "Part", 2), (2, "*link", -1), (3, "Deep", 3)])
    assert [(e.title, e.depth, e.parent) for e in truth] == [("Part", 0, None), ("Deep", 1, 0)]
