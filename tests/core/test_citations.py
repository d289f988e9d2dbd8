"""Citations: every written form parsed, titles resolved within scope, verdicts with reasons, passages found."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from libdata import add_document, annual_report  # noqa: E402

from pageindex_desktop.core.citations import best_passage, parse_citations, verify_citations  # noqa: E402
from pageindex_desktop.core.claims import claim_support, numbers  # noqa: E402
from pageindex_desktop.core.outline.tree import Node  # noqa: E402
from pageindex_desktop.core.store import Library  # noqa: E402


def test_every_citation_form_is_parsed() -> None:
    answer = (
        "A [Annual Report 2023, p. 12]. B [Annual Report 2023, pp. 14-16]. C [Doc, p. 3, 5]. "
        'D <cite doc="Annual Report 2023" page="7"/>. E [Rules, Part 2, page 9; Doc, p. 1]. '
        "Not a citation: [link](http://x) and [note]."
    )
    got = [(c.written, c.page) for c in parse_citations(answer)]
    assert got == [
        ("Annual Report 2023", 12), ("Annual Report 2023", 14), ("Annual Report 2023", 15),
        ("Annual Report 2023", 16), ("Doc", 3), ("Doc", 5), ("Annual Report 2023", 7),
        ("Rules, Part 2", 9), ("Doc", 1),
    ]


def test_verdicts_and_reasons(library: Library) -> None:
    doc = annual_report(library)
    returned = {(doc, 12), (doc, 20)}
    answer = (
        "Net income rose to $1,234 million in 2023 [Annual Report 2023, p. 12]. "
        "Net income rose to $9,999 million [Annual report 2023, p. 12]. "
        "The main risks include interest rates and credit losses. [Annual Reprot 2023, p. 20] "
        "Operating expenses were $610 million [Annual Report 2023, p. 13]. "
        "Dragons guard the vault [Annual Report 2023, p. 20]. "
        "Revenue doubled [Unknown Brochure, p. 1]."
    )
    cites = verify_citations(answer, library, None, returned)
    verdicts = [(c.page, c.verified, c.reason) for c in cites]
    assert verdicts == [
        (12, True, ""),
        (12, False, "claim not found on the page"),  # the figure does not match
        (20, True, ""),  # typo in the title tolerated; citation after the full stop
        (13, False, "page never read"),
        (20, False, "claim not found on the page"),
        (1, False, "unknown document"),
    ]
    assert cites[0].to_dict() == {"document": "Annual Report 2023", "doc_id": doc, "page": 12,
                                  "verified": True, "reason": ""}


def test_titles_resolve_only_within_scope(library: Library) -> None:
    report = annual_report(library)
    memo = add_document(library, "Board memo", ["The board approved a dividend of 2.50 per share."],
                        [Node("0001", "Memo", 1, 1, 1)])
    answer = "The board approved a dividend of 2.5 per share [Board memo, p. 1]."
    assert verify_citations(answer, library, None, {(memo, 1)})[0].verified is True  # 2.50 == 2.5
    out = verify_citations(answer, library, {report}, {(memo, 1)})[0]
    assert (out.verified, out.reason) == (False, "unknown document")


def test_claim_support_needs_exact_figures_and_most_words() -> None:
    page = "In 2023 the Reserve Banks transferred $1,234.50 million to the Treasury."
    assert numbers("$1,234.50 and 12.0%") == ["1234.5", "12"]
    assert claim_support("The Reserve Banks transferred $1234.5 million to the Treasury in 2023", page)
    assert not claim_support("The Reserve Banks transferred $1,235 million to the Treasury", page)
    assert not claim_support("Inflation expectations anchored firmly", page)


def test_best_passage_is_an_exact_stretch_of_the_page() -> None:
    page = ("Overview of the year. Many things happened.\nNet income rose to $1,234 million in 2023, "
            "up 12.5% from 2022. Operating expenses were $610 million. Staff grew.")
    passage = best_passage("net income was $1,234 million", page)
    assert passage in page and "1,234" in passage and "Staff" not in passage
    assert best_passage("anything", "") == ""


def test_claim_support_on_real_report_pages() -> None:
    import pymupdf

    path = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "2023-annual-report.pdf"
    if not path.exists():
        pytest.skip("corpus not available")
    with pymupdf.open(path) as pdf:
        p11, p41 = pdf[10].get_text(), pdf[40].get_text()
    supported = [
        (p11, "Real GDP grew 3.1% in 2023, faster than in 2022."),
        (p11, "The FOMC raised the federal funds target range by 25 basis points in July, for a cumulative "
              "525 basis points in this tightening cycle."),
        (p11, "Bank lending to households and businesses slowed notably after June."),
        (p41, "In 2023, the Board launched a pilot Climate Scenario Analysis exercise with large banks."),
        (p41, "Staff will focus on operational, cybersecurity, liquidity and illicit finance risks."),
    ]
    unsupported = [
        (p11, "Real GDP grew 2.5% in 2023."),
        (p11, "The Board launched a climate scenario pilot exercise."),
        (p41, "Housing activity turned back up in the second half of the year."),
    ]
    assert all(claim_support(claim, page) for page, claim in supported)
    assert not any(claim_support(claim, page) for page, claim in unsupported)
    passage = best_passage("Real GDP grew 3.1% in 2023", p11)
    assert "Real GDP increased 3.1 percent" in passage and passage in p11


def test_a_printed_page_number_of_a_page_read_maps_to_its_physical_page(library: Library) -> None:
    from pageindex_desktop.core.document import PageData
    from pageindex_desktop.core.outline.tree import Outline

    doc = add_document(library, "Labelled", ["cover", "preface", "Revenue was 42 million."],
                       [Node("0001", "All", 1, 1, 3)])
    pages = [PageData(1, "i", "cover", 1, 1), PageData(2, "ii", "preface", 1, 1),
             PageData(3, "1", "Revenue was 42 million.", 1, 1)]
    library.save_index(doc, title="Labelled", pages=pages, outline=Outline("layout", [Node("0001", "All", 1, 1, 3)]))
    both = "Revenue was 42 million [Labelled, p. 1] and 42 million again [Labelled, p. 3, 1]."
    cites = verify_citations(both, library, None, {(doc, 3)})
    assert [(c.page, c.verified) for c in cites] == [(3, True), (3, True), (3, True)]
    assert verify_citations("Revenue was 42 million [Labelled, p. 2].", library, None, {(doc, 3)})[0].reason == \
        "page never read"
