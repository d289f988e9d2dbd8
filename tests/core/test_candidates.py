"""The one gate for model-proposed headings: printed where claimed, inside the span, ascending, no repeats, sane."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.outline import candidates
from pageindex_desktop.core.outline.candidates import check_headings
from pageindex_desktop.core.outline.tree import Heading
from pageindex_desktop.core.ingest.pdf import extract
from tests.core.pdf_factory import Text, body, heading, make_pdf


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[int, PageData]:
    """Six real pages: 'Water Rights' on 2, 'Irrigation Schedules' on 3, 'Drainage' on 5."""
    spec = [
        [heading("Chapter 4 Farming"), *body(8)],
        [*body(4), Text("Water Rights", 12, True), *body(6)],
        [Text("Irrigation Schedules", 12, True), *body(10)],
        [*body(12)],
        [*body(3), Text("Drainage", 12, True), *body(6)],
        [*body(12)],
    ]
    doc = extract(make_pdf(tmp_path_factory.mktemp("cand") / "c.pdf", spec))
    return {p.number: p for p in doc.pages}


def test_printed_headings_in_span_are_accepted(pages: dict[int, PageData]) -> None:
    proposed = [Heading("Water Rights", 2, 2), Heading("irrigation  schedules", 2, 3), Heading("Drainage", 2, 5)]
    result = check_headings(proposed, pages, (1, 6), ["Chapter 4 Farming"])
    assert [(h.title, h.page) for h in result.accepted] == [
        ("Water Rights", 2), ("irrigation schedules", 3), ("Drainage", 5)]
    assert result.rejected == []


def test_each_failed_check_is_rejected_with_its_reason(pages: dict[int, PageData],
                                                        caplog: pytest.LogCaptureFixture) -> None:
    proposed = [
        Heading("Soil Chemistry", 2, 2),  # printed nowhere
        Heading("Drainage", 2, 3),  # printed, but on page 5
        Heading("Irrigation Schedules", 2, 3),
        Heading("Water Rights", 2, 2),  # printed on 2, but after a heading on 3
        Heading("Drainage", 2, 9),  # outside the section
        Heading("Chapter 4 Farming", 2, 1),  # the parent itself
        Heading("Irrigation Schedules", 2, 4),  # repeats an accepted sibling
        Heading("x", 2, 5),
        Heading("Drainage " + "and more words " * 12, 2, 5),
    ]
    with caplog.at_level(logging.INFO, logger="pageindex_desktop.core.outline.candidates"):
        result = check_headings(proposed, pages, (2, 6), ["Chapter 4 Farming"])
    assert [h.title for h in result.accepted] == ["Irrigation Schedules"]
    assert [reason for _, reason in result.rejected] == [
        candidates.UNPRINTED, candidates.UNPRINTED, candidates.DESCENDING, candidates.OUT_OF_SPAN,
        candidates.OUT_OF_SPAN, candidates.DUPLICATE, candidates.BAD_LENGTH, candidates.BAD_LENGTH]
    assert caplog.text.count("heading rejected") == 8 and "Soil Chemistry" in caplog.text


def test_pages_ascend_across_batches(pages: dict[int, PageData]) -> None:
    result = check_headings([Heading("Water Rights", 1, 2), Heading("Drainage", 1, 5)], pages, (1, 6), after=3)
    assert [h.title for h in result.accepted] == ["Drainage"]
    assert result.rejected[0][1] == candidates.DESCENDING


def test_numbering_and_case_do_not_make_a_duplicate_distinct(pages: dict[int, PageData]) -> None:
    result = check_headings([Heading("4 FARMING", 2, 1)], pages, (1, 6), ["Farming"])
    assert result.rejected[0][1] == candidates.DUPLICATE
