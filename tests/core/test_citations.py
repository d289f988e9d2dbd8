"""Citations: every written form parsed, titles and pages resolved, each claim judged against its passage."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from libdata import add_document, annual_report  # noqa: E402

from pageindex_desktop.core.assistant.citations.parse import parse_citations  # noqa: E402
from pageindex_desktop.core.assistant.citations.verify import best_passage, check_answer, verify_citations  # noqa: E402
from pageindex_desktop.core.assistant.citations.figures import figures, same_value  # noqa: E402
from pageindex_desktop.core.assistant.citations.rules import judge  # noqa: E402
from pageindex_desktop.core.text import sentence_spans  # noqa: E402
from pageindex_desktop.core.document import PageData  # noqa: E402
from pageindex_desktop.core.outline.tree import Node, Outline  # noqa: E402
from pageindex_desktop.core.library.store import Library  # noqa: E402

SEGMENTS = (
    "Segment results\n"
    "Revenue in South America was $3.2 billion, while revenue in Eurasia was $1.1 billion. FedEx Express is based "
    "in Memphis, and FedEx Ground is based in Pittsburgh.\n"
    "Net income rose to $4,420 million in 2023, up 12.5% from 2022. The company did not repurchase shares during "
    "the year. The Board expects regulatory costs to increase."
)


def test_every_citation_form_is_parsed() -> None:
    answer = (
        "A [Annual Report 2023, p. 12]. B [Annual Report 2023, pp. 14-16]. C [Doc, p. 3, 5]. "
        'D <cite doc="Annual Report 2023" page="7"/>. E [Rules, Part 2, page 9; Doc, p. 1]. '
        "F [Doc, p. 17.] G (Doc, p. 18). H [p. 19]. I [Doc, p. xiii] and [Doc, p. A-3]. "
        "Not a citation: [link](http://x) and [note]."
    )
    got = [(c.written, c.page_token) for c in parse_citations(answer)]
    assert got == [
        ("Annual Report 2023", "12"), ("Annual Report 2023", "14"), ("Annual Report 2023", "15"),
        ("Annual Report 2023", "16"), ("Doc", "3"), ("Doc", "5"), ("Annual Report 2023", "7"),
        ("Rules, Part 2", "9"), ("Doc", "1"), ("Doc", "17"), ("Doc", "18"), ("", "19"), ("Doc", "xiii"),
        ("Doc", "A-3"),
    ]


def test_claims_span_the_sentence_and_know_abbreviations_and_leading_citations() -> None:
    answer = ("The U.S. economy grew 3.1% in 2023 [AR, p. 11]. According to [AR, p. 3], the Board met 8 times. "
              "Apple Inc. sold No. 5 units, e.g. phones [AR, p. 4]. Costs fell by 2.5 percent. [AR, p. 5]")
    claims = [c.claim for c in parse_citations(answer)]
    assert claims == ["The U.S. economy grew 3.1% in 2023", "the Board met 8 times.",
                      "Apple Inc. sold No. 5 units, e.g. phones", "Costs fell by 2.5 percent."]
    assert len(sentence_spans("Rates rose 3.5 percent in the U.S. The Fed acted.")) == 2
    text = "0. Auflage, 31. Dezember 2016. Martin Thoma schrieb es. 2. Scope of the rule."
    assert [text[s.start:s.end] for s in sentence_spans(text)] == [
        "0. Auflage, 31. Dezember 2016.", "Martin Thoma schrieb es.", "2. Scope of the rule."]  # ordinals open them


def test_unreadable_citations_are_reported_and_uncited_figures_counted(library: Library) -> None:
    doc = annual_report(library)
    answer = ("Net income rose to $1,234 million in 2023 [Annual Report 2023, p. 12]. "
              "Operating expenses were $610 million. See [Annual Report 2023, section 4] and the note [1].")
    check = check_answer(answer, library, None, {(doc, 12)})
    assert [(c.verdict, c.reason) for c in check.citations] == [
        ("checked", ""), ("unverified", "citation not understood"), ("unverified", "citation not understood")]
    assert [u.text for u in check.uncited] == ["Operating expenses were $610 million."]


def test_verdicts_and_reasons(library: Library) -> None:
    doc = annual_report(library)
    returned = {(doc, 12), (doc, 20)}
    answer = (
        "Net income rose to $1,234 million in 2023 [Annual Report 2023, p. 12]. "
        "Net income rose to $9,999 million [Annual report 2023, p. 12]. "
        "The main risks include interest rates and credit losses. [Annual Reprot 2023, p. 20] "
        "Operating expenses were $610 million [Annual Report 2023, p. 13]. "
        "Dragons guard the vault [Annual Report 2023, p. 20]. "
        "Revenue doubled [Unknown Brochure, p. 1]. "
        "Net income rose 12.5% [Annual Report 2022, p. 12]. "
        "Net income rose to $1,234 million [Annual Report 2023, p. 490]."
    )
    cites = verify_citations(answer, library, None, returned)
    verdicts = [(c.page, c.verdict, c.reason) for c in cites]
    assert verdicts == [
        (12, "checked", ""),
        (12, "contradicted", "the passage gives $1,234 million, not $9,999 million"),
        (20, "checked", ""),  # typo in the title tolerated; citation after the full stop
        (13, "unverified", "page never read"),
        (20, "unverified", "the claim was not found on the page"),
        (0, "unverified", "unknown document"),
        (0, "unverified", "unknown document"),  # another year names another document
        (0, "unverified", "no page 490 in this document (30 pages)"),
    ]
    assert cites[0].to_dict()["verified"] is True and cites[0].to_dict()["verdict"] == "checked"


def test_titles_resolve_only_within_scope_and_p_alone_means_the_one_document(library: Library) -> None:
    report = annual_report(library)
    memo = add_document(library, "Board memo", ["The board approved a dividend of 2.50 per share."],
                        [Node("0001", "Memo", 1, 1, 1)])
    answer = "The board approved a dividend of 2.5 per share [Board memo, p. 1]."
    assert verify_citations(answer, library, None, {(memo, 1)})[0].verified is True  # 2.50 == 2.5
    out = verify_citations(answer, library, {report}, {(memo, 1)})[0]
    assert (out.verified, out.reason) == (False, "unknown document")
    bare = "The board approved a dividend of 2.5 per share [p. 1]."
    assert verify_citations(bare, library, {memo}, {(memo, 1)})[0].verdict == "checked"
    assert verify_citations(bare, library, None, {(memo, 1)})[0].reason.startswith("ambiguous document")


@pytest.mark.parametrize("claim, verdict", [
    ("Revenue in Eurasia was $1.1 billion.", "checked"),
    ("Net income was $4.42 billion in 2023.", "checked"),  # other units, same amount
    ("Net income was about $4.4 billion in 2023.", "checked"),  # rounded to the claim's precision
    ("Net income rose 12.5 percent in 2023.", "checked"),
    ("The company did not buy back shares during the year.", "checked"),
    ("Revenue in Eurasia was $3.2 billion.", "contradicted"),  # the other region's figure
    ("Net income rose to $4.52 billion in 2023.", "contradicted"),
    ("Net income rose 13.5% in 2023.", "contradicted"),
    ("The company repurchased shares during the year.", "contradicted"),  # negation dropped
    ("The Board expects regulatory costs to decrease.", "contradicted"),  # direction reversed
    ("FedEx Ground is based in Memphis.", "unverified"),  # assembled from the page's words
    ("Revenue in Asia was $1.1 billion.", "unverified"),  # a name the page does not print
    ("Net income in 2021 was $4,420 million.", "unverified"),
])
def test_rules_judge_the_claim_against_its_passage(claim: str, verdict: str) -> None:
    assert judge(claim, SEGMENTS, "FedEx annual report").verdict == verdict


def test_figures_compare_across_units() -> None:
    def one(text: str):  # type: ignore[no-untyped-def]
        return figures(text)[0]

    assert same_value(one("$4.42 billion"), one("$4,420 million"))
    assert same_value(one("5.25 percentage points"), one("525 basis points"))
    assert same_value(one("$4,420 million"), one("4,420"))  # a table cell under "in millions"
    assert not same_value(one("$3.1 billion"), one("$3.0 billion"))
    assert not same_value(one("3"), one("$3.0 billion")) or one("3").kind == "number"
    assert one("fiscal 2023").kind == "year" and one("FY23").value == 2023


def test_each_page_of_a_bracket_is_judged_alone(library: Library) -> None:
    doc = annual_report(library)
    answer = "Net income rose to $1,234 million in 2023 [Annual Report 2023, p. 12, 20]."
    cites = verify_citations(answer, library, None, {(doc, 12), (doc, 20)})
    assert [(c.page, c.verdict) for c in cites] == [(12, "checked"), (20, "unverified")]


def test_best_passage_is_an_exact_stretch_of_the_page() -> None:
    page = ("Overview of the year. Many things happened.\nNet income rose to $1,234 million in 2023, "
            "up 12.5% from 2022. Operating expenses were $610 million. Staff grew.")
    passage = best_passage("net income was $1,234 million", page)
    assert passage in page and "1,234" in passage and "Staff" not in passage and "Overview" not in passage
    assert best_passage("anything", "") == ""


def test_claims_on_real_report_pages() -> None:
    import pymupdf

    path = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "2023-annual-report.pdf"
    if not path.exists():
        pytest.skip("corpus not available")
    with pymupdf.open(path) as pdf:
        p11, p41 = pdf[10].get_text(), pdf[40].get_text()
    supported = [
        (p11, "Real GDP grew 3.1 percent in 2023, faster than in 2022."),
        (p11, "The FOMC raised the federal funds target range by 25 basis points in July, for a cumulative "
              "525 basis points in this tightening cycle."),
        (p41, "In 2023, the Board launched a pilot Climate Scenario Analysis exercise with large banks."),
    ]
    unsupported = [
        (p11, "Real GDP grew 2.5 percent in 2023."),
        (p41, "Housing activity turned back up in the second half of the year."),
    ]
    assert all(judge(claim, page).verdict == "checked" for page, claim in supported)
    assert not any(judge(claim, page).verdict == "checked" for page, claim in unsupported)
    assert judge("Real GDP grew 2.5 percent in 2023.", p11).verdict == "contradicted"
    passage = best_passage("Real GDP grew 3.1% in 2023", p11)
    assert "3.1 percent" in passage and passage in p11


def test_a_printed_page_number_of_a_page_read_maps_to_its_physical_page(library: Library) -> None:
    doc = add_document(library, "Labelled", ["cover", "preface", "Revenue was 42 million."],
                       [Node("0001", "All", 1, 1, 3)])
    pages = [PageData(1, "i", "cover", 1, 1), PageData(2, "ii", "Our preface thanks 7 reviewers.", 1, 1),
             PageData(3, "1", "Revenue was 42 million.", 1, 1)]
    library.save_index(doc, title="Labelled", pages=pages, outline=Outline("layout", [Node("0001", "All", 1, 1, 3)]))
    both = "Revenue was 42 million [Labelled, p. 1] and 42 million again [Labelled, p. 3, 1]."
    cites = verify_citations(both, library, None, {(doc, 3)})
    assert [(c.page, c.verdict) for c in cites] == [(3, "checked"), (3, "checked"), (3, "checked")]
    assert cites[0].numbering == "printed page 1 (page 3 of the file)"
    assert verify_citations("Revenue was 42 million [Labelled, p. 2].", library, None, {(doc, 3)})[0].reason == \
        "page never read"
    roman = verify_citations("The preface thanks 7 reviewers [Labelled, p. ii].", library, None, {(doc, 2)})[0]
    assert (roman.page, roman.verdict) == (2, "checked")


def test_the_highlight_covers_a_passage_hyphenated_across_lines() -> None:
    import pymupdf

    from pageindex_desktop.core.assistant.citations.highlight import locate

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 300, 300), "Intro line here.\nThe new rules raise the regula-\n"
                        "tory burden on small banks and the\nsector overall. Unrelated closing words follow.", fontsize=11)
    stored = "Intro line here.\nThe new rules raise the regulatory burden on small banks and the\nsector overall."
    passage = best_passage("New rules raise the regulatory burden on small banks", stored)
    boxes = locate(passage, page.get_text("words"))
    assert len(boxes) == 3  # the three printed lines of the passage, the hyphenated word's two halves included
    assert all(b[1] > 80 for b in boxes)  # not the intro line
    assert locate("words that are nowhere on this page at all", page.get_text("words")) == []


def test_a_claim_word_printed_elsewhere_on_the_page_but_not_in_its_passage_is_not_checked() -> None:
    page = ("Products and Services Performance\n\n"
            "Mac net sales increased during 2022 compared to 2021 due primarily to higher net sales of laptops. "
            "The weaker foreign currencies had an unfavourable effect on Mac net sales.\n\n"
            "iPad net sales decreased during 2022 compared to 2021 due primarily to lower net sales of iPad Air. "
            "Services net sales grew, led by advertising, cloud services and the App Store, in every segment. "
            "The Company's services offerings continued to expand across its installed base of active devices, "
            "and paid subscriptions grew in each geographic segment during the year.\n\n"
            "Wearables, Home and Accessories net sales increased during 2022 compared to 2021 due primarily to "
            "higher net sales of Apple Watch and AirPods.")
    page = "\n".join(textwrap.fill(paragraph, 90) for paragraph in page.split("\n"))  # lines as a PDF prints them
    swapped = judge("Wearables, Home and Accessories net sales increased during 2022 compared to 2021 due "
                    "primarily to higher net sales of laptops", page)
    assert swapped.verdict == "unverified" and "laptops" in swapped.reason
    assert judge("Wearables, Home and Accessories net sales rose in 2022 on higher sales of Apple Watch and AirPods",
                 page).verdict == "checked"  # the claim's words are all in its passage


def contradicts_but_keeps(page: str, wrong: str, reason: str, right: str, cover: str = "") -> None:
    """The wrong claim is contradicted, its reason naming `reason`; the right one on the same page is checked."""
    verdict = judge(wrong, page, cover)
    assert verdict.verdict == "contradicted" and reason in verdict.reason
    assert judge(right, page, cover).verdict == "checked"


def test_a_sentence_broken_early_in_a_narrow_box_still_binds_its_figures() -> None:
    page = ("Safety is our first value, and every business reports its lost time incidents to the board each quarter "
            "of the year.\n"
            "In 2020, AES’ LTI Rate was 0.084 for AES\n"
            "People, 0.046 for operational contractors, and 0.069 for construction contractors.\n")
    contradicts_but_keeps(page, "In 2020, AES' LTI Rate was 0.046 for AES People", "0.084",
                          "In 2020, AES' LTI Rate was 0.084 for AES People")


def test_a_figure_from_another_row_of_a_one_column_table_contradicts() -> None:
    page = ("Our direct to consumer businesses operate the following number of retail stores outside the United "
            "States:\nNON-U.S. RETAIL STORES\nNUMBER\nNIKE Brand factory stores\n \n560 \n"
            "NIKE Brand in-line stores (including employee-only stores)\n \n49 \n"
            "Converse stores (including factory stores)\n \n54 \nTOTAL\n \n663 \n")
    contradicts_but_keeps(page, "NIKE operates 663 retail stores outside the United States, including 560 NIKE Brand "
                          "in-line stores", "49",
                          "NIKE operates 663 retail stores outside the United States, including 560 NIKE Brand "
                          "factory stores")


def test_a_chart_row_the_claim_names_by_one_word_still_binds_the_figure() -> None:
    page = ("As of December 31, 2020, AES and its subsidiaries had approximately 8,200 full time/permanent\n"
            "employees. The following chart lists our full time/permanent employees by SBU:\n"
            "Full Time/Permanent Employees\n"
            "US and Utilities*\n2,882\nSouth America\n2,515\nMCAC\n1,899\nEurasia\n866\n")
    contradicts_but_keeps(page, "AES had 2,515 full time/permanent employees in its US and Utilities SBU", "2,882",
                          "AES had 2,515 full time/permanent employees in its South America SBU")


def test_a_count_written_as_a_word_is_checked_against_the_count_printed() -> None:
    page = ("For fiscal 2023, NIKE Brand footwear finished goods were manufactured by 15 contract manufacturers, many "
            "of which operate multiple factories. The largest single finished goods footwear factory accounted for "
            "approximately 9% of total fiscal 2023 NIKE Brand footwear production.")
    for wrong in ("a single contract manufacturer", "two contract manufacturers"):
        verdict = judge(f"For fiscal 2023, NIKE Brand footwear finished goods were manufactured by {wrong}", page)
        assert verdict.verdict == "contradicted" and "15" in verdict.reason
    assert judge("For fiscal 2023, NIKE Brand footwear was made by fifteen contract manufacturers",
                 page).verdict == "checked"
    assert judge("The largest single finished goods footwear factory accounted for approximately 9% of fiscal 2023 "
                 "NIKE Brand footwear production", page).verdict == "checked"  # the same count of the same thing


def test_the_claims_words_with_another_figure_in_the_next_sentence_contradict() -> None:
    page = ("As of\n\nDecember 2018, there were approximately 3,764 registered broker-dealers with over 140 million\n\n"
            "customer accounts. In total, these broker-dealers have over $4.3 trillion in total assets, which are\n\n"
            "total broker-dealer assets as reported on Form X-17a-5.74 Of the broker-dealers registered with\n\n"
            "the Commission as of December 2018, 363 broker-dealers were dually registered with the\n"
            "Commission as investment advisers.75 Dual registrant firms hold over 90 million (63%) of the\n73")
    wrong = judge("Of these, the 363 dually registered firms held over 140 million customer accounts", page)
    assert wrong.verdict == "contradicted" and "3,764, not for 363" in wrong.reason
    assert judge("Dual registrant firms hold over 90 million of the customer accounts", page).verdict == "checked"
    assert judge("In December 2018 there were approximately 3,764 registered broker-dealers with over 140 million "
                 "customer accounts", page).verdict == "checked"


def test_a_negation_in_the_sentence_that_states_the_claims_figure_contradicts() -> None:
    page = ("During fiscal 2023, Walmart Inc. and its affiliates (Walmart) accounted for 21 percent of our consolidated "
            "net sales and 28 percent of net sales of our North America Retail segment. No other customer accounted "
            "for 10 percent or more of our consolidated net sales.")
    contradicts_but_keeps(page, "Besides Walmart, at least one other customer accounted for 10 percent or more of "
                          "General Mills' consolidated net sales in fiscal 2023", "negation",
                          "No other customer accounted for 10 percent or more of General Mills' consolidated net "
                          "sales", cover="general mills annual report")


def test_a_changed_year_that_the_page_gives_in_the_sentence_before_contradicts() -> None:
    page = ("The studios were busy that decade. In 1928, a cartoon character was born. An early Mickey Mouse made "
            "his debut in May of that year, in a silent flop called Plane Crazy. In November, Steamboat Willie "
            "followed with synchronized sound.")
    contradicts_but_keeps(page, "An early Mickey Mouse made his debut in May 1929, in a silent flop called Plane Crazy",
                          "1928",
                          "An early Mickey Mouse made his debut in May 1928, in a silent flop called Plane Crazy")


def test_double_spaced_lines_are_one_sentence_but_a_heading_stays_apart() -> None:
    page = ("Overview\n\nThe board proposes a standard that requires each adviser to act for the client\n\n"
            "without placing the adviser's own financial interest ahead of\n\nthe interest of the client. "
            "Comments are due in May.")
    got = [page[s.start : s.end] for s in sentence_spans(page)]
    assert got[0] == "Overview" and got[1].startswith("The board") and got[1].endswith("of the client.")
    contradicts_but_keeps(page, "The proposed standard would allow an adviser to place its own financial interest "
                          "ahead of the interest of the client", "negation",
                          "The proposed standard requires each adviser to act for the client without placing its "
                          "own financial interest ahead of the interest of the client")


def test_a_footnote_mark_after_a_full_stop_ends_the_sentence() -> None:
    page = ("Roughly 120 clinics (8%) offered dental care, eye care and physiotherapy, among other services.41 "
            "Roughly 61% of clinics offer weekend opening hours.42 Most clinics are in towns.")
    got = [page[s.start : s.end] for s in sentence_spans(page)]
    assert got[0].endswith("services.41") and got[1].startswith("Roughly 61%")
    contradicts_but_keeps(page, "About 120 clinics, or 8%, offer weekend opening hours", "61%",
                          "About 120 clinics, or 8%, offered dental care, eye care and physiotherapy")


def test_little_changed_contradicts_a_claim_that_it_grew() -> None:
    page = ("Services activity expanded at a steady pace. Unlike services, factory output was little changed, on "
            "balance, last year, a pause after two years of strong growth. Hiring slowed in the autumn.")
    contradicts_but_keeps(page, "Factory output grew strongly last year, after two years of strong growth",
                          "little changed", "Factory output was little changed last year after two years of strong "
                          "growth")


def test_a_figure_from_another_periods_columns_contradicts_the_claims_period() -> None:
    page = ("SELECTED COSTS\n($ in millions)\nThree Months Ended\nNine Months Ended\n2024\n2023\n% Change\n"
            "2024\n2023\n% Change\nFreight Costs\n410\n388\n6%\n1,190\n1,102\n8%\nLicence Fees\n27\n3\n*\n"
            "61\n240\n(75%)\n")
    contradicts_but_keeps(page, "Licence fees were $61 million in the third quarter of 2024", "the quarter figure is 27",
                          "Licence fees were $27 million in the third quarter of 2024")
    assert judge("Licence fees were $61 million in the nine months of 2024", page).verdict == "checked"


def test_a_count_the_page_gives_another_figure_to_is_contradicted() -> None:
    page = ("At the end of 2022 there were about 5,210 licensed dealers with over 80 million client accounts. "
            "Of those, 412 dealers were also registered as advisers. Dual registrants hold about 30 million of "
            "the accounts.")
    contradicts_but_keeps(page, "The 412 dually registered dealers held over 80 million client accounts",
                          "5,210, not for 412",
                          "About 5,210 licensed dealers held over 80 million client accounts at the end of 2022")
