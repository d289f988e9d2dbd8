"""Bookmarks: usable outlines are kept whole and checked against the printed pages; junk outlines are ignored."""

from __future__ import annotations

from pathlib import Path

import pytest

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.bookmarks import bookmark_headings, check_bookmarks
from pageindex_desktop.core.ingest.pdf import extract
from tests.conftest import corpus_file
from tests.core.pdf_factory import body, heading, make_pdf

CHAPTERS = ["Overview", "Methods", "Field Work", "Findings", "Outlook", "Appendix"]


def _doc(tmp_path: Path, toc: list[list[int | str]], pages: int = 6) -> ExtractedDocument:
    """A document with one printed chapter heading per page and the given outline."""
    content = [[heading(f"{i + 1} {CHAPTERS[i % len(CHAPTERS)]}"), *body(12)] for i in range(pages)]
    return extract(make_pdf(tmp_path / "doc.pdf", content, toc=toc))


def test_good_outline_is_kept_and_found(tmp_path: Path) -> None:
    toc: list[list[int | str]] = [[1, f"{i + 1} {name}", i + 1] for i, name in enumerate(CHAPTERS)]
    toc.insert(2, [2, "2.1 Sampling", 2])  # not printed anywhere: kept, but not found
    check = check_bookmarks(_doc(tmp_path, toc))
    assert check.junk == ""
    assert [(h.title, h.level, h.page) for h in check.headings][:3] == [
        ("1 Overview", 1, 1),
        ("2 Methods", 1, 2),
        ("2.1 Sampling", 2, 2),
    ]
    assert check.found == [True, True, False, True, True, True, True]
    assert check.headings[0].y is not None and check.headings[0].y < 100


def test_titles_match_fuzzily_and_near_the_target(tmp_path: Path) -> None:
    toc: list[list[int | str]] = [
        [1, "OVERVIEW", 1],
        [1, "Method", 2],  # fuzzy: singular
        [1, "Bibliography", 2],  # printed nowhere
        [1, "3. Field-work", 2],  # numbering and punctuation differ; printed on the next page
        [1, "Findings", 4],
    ]
    check = check_bookmarks(_doc(tmp_path, toc))
    assert check.found == [True, True, False, True, True]
    assert [h.page for h in check.headings] == [1, 2, 2, 3, 4]  # "Field Work" opens page 3: moved there


def test_link_landing_before_a_page_break_moves_to_the_heading(tmp_path: Path) -> None:
    toc: list[list[int | str]] = [[1, "Overview", 1], [1, "Methods", 1], [1, "Findings", 4]]
    check = check_bookmarks(_doc(tmp_path, toc))
    assert [h.page for h in check.headings] == [1, 2, 4]  # "Methods" opens page 2
    assert all(check.found)


@pytest.mark.parametrize(
    ("toc", "reason"),
    [
        ([[1, "Overview", 1]], "fewer than"),
        ([[1, "Overview", 1], [1, "Bibliography", 2]], "not all printed"),
        ([[1, "Page 1", 1], [1, "Page 2", 2], [1, "Page 3", 3], [1, "Methods", 2]], "generic"),
        ([[1, "1", 1], [1, "2", 2], [1, "3", 3]], "generic"),
        ([[1, "Page 1 of 3", 1], [1, "Page ii", 2], [1, "Untitled", 3]], "generic"),
        ([[1, "index.html", 1], [1, "part2.html", 2], [1, "part3.htm", 3]], "generic"),
        ([[1, "Section", 1], [1, "Section", 2], [1, "Section", 3], [1, "Methods", 2]], "duplicate"),
    ],
)
def test_junk_outlines_are_ignored(tmp_path: Path, toc: list[list[int | str]], reason: str) -> None:
    doc = _doc(tmp_path, toc)
    assert reason in check_bookmarks(doc).junk
    assert bookmark_headings(doc) is None


def test_a_two_entry_outline_printed_where_it_points_is_kept(tmp_path: Path) -> None:
    doc = _doc(tmp_path, [[1, "Overview", 1], [1, "Methods", 2]])
    check = check_bookmarks(doc)
    assert check.junk == "" and check.found == [True, True]  # a short report's own two sections
    headings = bookmark_headings(doc)
    assert headings is not None and [(h.title, h.page) for h in headings] == [("Overview", 1), ("Methods", 2)]


@pytest.mark.parametrize("offset", [0, 2])
def test_bare_numbers_that_count_pages_are_junk(tmp_path: Path, offset: int) -> None:
    doc = _doc(tmp_path, [[1, str(page - offset), page] for page in range(1 + offset, 7)], pages=6)
    assert "generic" in check_bookmarks(doc).junk  # a scan's page bookmarks, after a cover and a blank page or not


def test_bare_chapter_numbers_are_titles(tmp_path: Path) -> None:
    content = [[heading(str(n)), *body(12)] if n else body(30) for n in (1, 0, 0, 2, 0, 3, 4, 0, 0, 5)]
    toc: list[list[int | str]] = [[1, str(n), page] for n, page in ((1, 1), (2, 4), (3, 6), (4, 7), (5, 10))]
    check = check_bookmarks(extract(make_pdf(tmp_path / "novel.pdf", content, toc=toc)))
    assert check.junk == ""  # a novel's chapters, as an e-book's contents gives them: numbers out of step with pages
    assert [(h.title, h.page) for h in check.headings] == [("1", 1), ("2", 4), ("3", 6), ("4", 7), ("5", 10)]


def test_a_reference_whose_entries_repeat_the_same_subheadings_is_kept(tmp_path: Path) -> None:
    toc: list[list[int | str]] = []
    for page, name in enumerate(CHAPTERS[:5], start=1):  # each function: Summary, Parameters, Returns
        toc += [[1, f"{page} {name}", page], [2, "Summary", page], [2, "Parameters", page], [2, "Returns", page]]
    check = check_bookmarks(_doc(tmp_path, toc))
    assert check.junk == "" and len(check.headings) == 20


def test_a_flat_outline_repeating_subheadings_under_each_entry_is_kept(tmp_path: Path) -> None:
    toc: list[list[int | str]] = []
    for page, name in enumerate(CHAPTERS[:5], start=1):  # the same reference written as one level
        toc += [[1, f"{page} {name}", page], [1, "Summary", page], [1, "Parameters", page], [1, "Returns", page]]
    check = check_bookmarks(_doc(tmp_path, toc))
    assert check.junk == "" and len(check.headings) == 20
    papers: list[list[int | str]] = [row for page, name in enumerate(CHAPTERS, start=1)
                                     for row in ([1, name, page], [1, "Abstract", page])]
    assert check_bookmarks(_doc(tmp_path, papers)).junk == ""  # a proceedings: every paper's "Abstract"


def test_one_title_stamped_on_most_bookmarks_is_junk(tmp_path: Path) -> None:
    toc: list[list[int | str]] = [[1, "Annual Report 2024", page] for page in range(1, 6)]
    toc += [[1, "1 Overview", 1], [1, "2 Methods", 2], [1, "3 Field Work", 3]]
    assert "duplicate" in check_bookmarks(_doc(tmp_path, toc)).junk


def test_a_broken_child_link_never_moves_its_sound_parent(tmp_path: Path) -> None:
    from pageindex_desktop.core.outline.assemble import assemble

    toc: list[list[int | str]] = [[1, f"{i + 1} {name}", i + 1] for i, name in enumerate(CHAPTERS)]
    toc[3:4] = [[1, "4 Findings", 4], [2, "Early results", 1], [2, "Late results", 6]]  # both links broken
    doc = _doc(tmp_path, toc)
    check = check_bookmarks(doc)
    placed = {h.title: h.page for h in check.headings}
    assert placed["Early results"] == 4 and placed["Late results"] == 4 and placed["4 Findings"] == 4
    roots = assemble(check.headings, doc)
    findings = next(n for n in roots if n.title == "4 Findings")
    assert (findings.start_page, findings.end_page) == (4, 4)
    assert [(n.title, n.start_page) for n in roots][:3] == [("1 Overview", 1), ("2 Methods", 2), ("3 Field Work", 3)]


def test_a_broken_child_link_never_moves_a_parent_whose_title_is_not_printed(tmp_path: Path) -> None:
    from pageindex_desktop.core.outline.assemble import assemble

    toc: list[list[int | str]] = [[1, "1 Overview", 1], [1, "2 Methods", 2], [1, "Part three", 3],  # not printed
                                  [2, "Early results", 1], [2, "Field notes", 3], [1, "4 Findings", 4],
                                  [1, "Part five", 5], [2, "Closing notes", 8]]  # the last part runs to the end
    doc = _doc(tmp_path, toc, pages=8)
    check = check_bookmarks(doc)
    placed = {h.title: h.page for h in check.headings}
    assert placed["Early results"] == 3 and placed["Part three"] == 3  # placed inside, the part stays on page 3
    assert placed["Closing notes"] == 8
    roots = assemble(check.headings, doc)
    assert [(n.title, n.start_page) for n in roots] == [("1 Overview", 1), ("2 Methods", 2), ("Part three", 3),
                                                        ("4 Findings", 4), ("Part five", 5)]


def test_an_unprinted_parent_pointing_late_is_pulled_back_to_its_children(tmp_path: Path) -> None:
    from pageindex_desktop.core.outline.assemble import assemble

    # "Part three" points a page late: its first child, printed on page 3, rightly comes before it
    toc: list[list[int | str]] = [[1, "1 Overview", 1], [1, "2 Methods", 2], [1, "Part three", 4],
                                  [2, "3 Field Work", 3], [2, "4 Findings", 4], [1, "5 Outlook", 5]]
    doc = _doc(tmp_path, toc, pages=6)
    check = check_bookmarks(doc)
    assert [h.page for h in check.headings] == [1, 2, 4, 3, 4, 5]
    part = next(n for n in assemble(check.headings, doc) if n.title == "Part three")
    assert part.start_page == 3


def test_a_parent_linked_back_to_the_first_page_keeps_its_children_where_they_point(tmp_path: Path) -> None:
    # merged files: each file's entry links to page 1, after entries that reached page 4 (it is the broken one)
    toc: list[list[int | str]] = [[1, "1 Overview", 1], [1, "2 Methods", 2], [1, "4 Findings", 4],
                                  [1, "exhibit-a.pdf", 1], [2, "5 Outlook", 5], [1, "exhibit-b.pdf", 1],
                                  [2, "6 Appendix", 6]]
    check = check_bookmarks(_doc(tmp_path, toc, pages=6))
    placed = {h.title: h.page for h in check.headings}
    assert (placed["5 Outlook"], placed["6 Appendix"]) == (5, 6)


def test_entries_without_a_page(tmp_path: Path) -> None:
    doc = _doc(tmp_path, [[1, "1 Overview", 1], [1, "2 Methods", 2], [1, "3 Field Work", 3], [1, "4 Findings", 4]])
    # pymupdf cannot write a target-less entry, so edit the extracted outline as a file would carry it
    # (-1: a link out of the document; 0: no page named, as `pdf_outline.read_outline` reports them)
    doc.toc = [(1, "Part A", -1), (2, "1 Overview", 1), (2, "2 Methods", 2), (1, "Lost link", -1), (1, "4 Findings", 4)]
    check = check_bookmarks(doc)
    assert [(h.title, h.page) for h in check.headings] == [
        ("Part A", 1),  # heads children: starts where its first child does
        ("1 Overview", 1),
        ("2 Methods", 2),
        ("4 Findings", 4),  # "Lost link" leads out of the document and has no children: dropped
    ]


def test_a_child_without_a_target_keeps_its_place_and_its_parent_keeps_its_page(tmp_path: Path) -> None:
    doc = _doc(tmp_path, [[1, "1 Overview", 1], [1, "2 Methods", 2], [1, "3 Field Work", 3], [1, "4 Findings", 4]])
    doc.toc = [(1, "1 Overview", 1), (1, "3 Field Work", 3), (2, "Sites", 3), (2, "Unlinked visits", 0),
               (2, "Project website", -1), (2, "Lost samples", 99), (2, "Interviews", 4), (1, "4 Findings", 4),
               (2, "Unlinked summary", 0), (1, "5 Outlook", 5)]
    check = check_bookmarks(doc)
    assert [(h.title, h.level, h.page) for h in check.headings] == [
        ("1 Overview", 1, 1),
        ("3 Field Work", 1, 3),
        ("Sites", 2, 3),
        ("Unlinked visits", 2, 3),  # no page named: at the previous entry's page, inside its parent
        ("Lost samples", 2, 3),  # a page past the end is a broken link too ("Project website" leads out: dropped)
        ("Interviews", 2, 4),
        ("4 Findings", 1, 4),
        ("Unlinked summary", 2, 4),
        ("5 Outlook", 1, 5),
    ]
    first = check_bookmarks(ExtractedDocument(doc.page_count, "", [(1, "Preface", 0), *doc.toc[:2]], doc.pages))
    assert [(h.title, h.page) for h in first.headings][:2] == [("Preface", 1), ("1 Overview", 1)]  # the next's page


def test_targets_out_of_range_count_as_missing(tmp_path: Path) -> None:
    doc = _doc(tmp_path, [[1, "1 Overview", 1], [1, "2 Methods", 2], [1, "3 Field Work", 3]])
    doc.toc = [(1, "1 Overview", 1), (1, "Beyond", 99), (1, "Before", 0), (1, "Far", 50)]
    assert "no page" in check_bookmarks(doc).junk


def test_corpus_junk_outline_tamreview() -> None:
    doc = extract(corpus_file("pdfjs__TAMReview.pdf"))
    assert bookmark_headings(doc) is None


def test_corpus_mistitled_outline_is_kept_unverified() -> None:
    doc = extract(corpus_file("py-pdf__mistitled_outlines_example.pdf"))
    check = check_bookmarks(doc)
    assert check.junk == "" and len(check.headings) == 27
    assert check.found_share < 0.1  # "First", "Second", ... are not printed: the headings say Foo, Bar, Baz


def test_corpus_outline_with_missing_page() -> None:
    check = check_bookmarks(extract(corpus_file("pdfplumber__chelsea_pdta.pdf")))
    assert len(check.headings) == 44  # both target-less entries head children, so both stay
    assert check.found_share > 0.85


@pytest.mark.parametrize(
    "name", ["2023-annual-report.pdf", "arxiv__1706.03762.pdf", "py-pdf__GeoTopo-komprimiert.pdf"]
)
def test_corpus_outlines_are_mostly_found(name: str) -> None:
    check = check_bookmarks(extract(corpus_file(name)))
    assert check.junk == "" and check.found_share >= 0.9
