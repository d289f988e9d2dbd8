"""Transcript rendering without a window: Markdown subset, citation placement and styling, stored history."""

from __future__ import annotations

from pageindex_desktop.core.assistant.ask import NO_MODEL_NOTE
from pageindex_desktop.core.library.chats import Message
from pageindex_desktop.ui.assistant.entries import Exchange, exchanges_from_messages
from pageindex_desktop.ui.assistant.markdown import to_html
from pageindex_desktop.ui.assistant.transcript import AMBER, Theme, answer_html, place_citations, tooltip

ANSWER = "Net income rose to $1,234 million [Annual Report 2023, p. 12]. Risks grew [Annual Report 2023, pp. 20-21]."


def record(page: int, start: int, end: int, verified: bool, reason: str = "", passage: str = "") -> dict:
    return {"document": "Annual Report 2023", "doc_id": "abc", "page": page, "verified": verified, "reason": reason,
            "start": start, "end": end, "claim": "", "passage": passage}


def test_markdown_subset() -> None:
    html = to_html("# Results\n\n**Net** income is *up* and `x<y`.\n\n- one\n- two\n  - nested\n1. first\n\n"
                   "| A | B |\n|---|---|\n| 1 | 2 |\n\n```\ncode <b>\n```\n> quoted")
    assert "<b>Net</b>" in html and "<i>up</i>" in html and "<code>x&lt;y</code>" in html
    assert html.count("<ul") == 2 and "<li>nested</li>" in html and "<ol" in html
    assert "<th>A</th>" in html and "<td>2</td>" in html
    assert "<pre>code &lt;b&gt;</pre>" in html and "<blockquote" in html
    assert "<script>" not in to_html("<script>alert(1)</script>")


def test_citations_become_links_styled_by_verdict() -> None:
    first = ANSWER.index("[Annual")
    second = ANSWER.index("[Annual", first + 1)
    cites = [record(12, first, ANSWER.index("]", first) + 1, True, passage="Net income rose to $1,234 million"),
             record(20, second, len(ANSWER) - 1, False, "page never read"),
             record(21, second, len(ANSWER) - 1, False, "claim not found on the page")]
    html = answer_html(3, Exchange("q", ANSWER, cites), Theme(link="#0b57d0"))
    assert html.count('href="cite:3:') == 3
    assert 'href="cite:3:0"' in html and "color:#0b57d0" in html and "✓" in html
    assert 'href="cite:3:1" title="' in html and f"color:{AMBER}" in html and html.count("?</span>") == 2
    assert "p.&nbsp;21" in html and "[Annual Report 2023" not in html.split('href="cite:3:0"')[0]
    tip = tooltip(cites[1], search=False)
    assert "Not verified" in tip and "never read" in tip
    assert "Checked" in tooltip(cites[0], False) and "1,234" in tooltip(cites[0], False)


def test_search_results_are_placed_by_title_and_page_and_get_a_passage() -> None:
    body = ("- [Annual Report 2023, p. 12] … Net [[income]] rose to $1,234 million …\n"
            "- [Annual Report 2023, p. 14] … other [[income]] …")
    cites = [{"document": "Annual Report 2023", "doc_id": "abc", "page": p, "verified": False,
              "reason": "search result (no model configured)"} for p in (12, 14)]
    exchange = Exchange("income", NO_MODEL_NOTE + "\n" + body, cites)
    marks = place_citations(exchange.body, cites, use_offsets=False)
    assert [m.indices for m in marks] == [[0], [1]]
    html = answer_html(0, exchange, Theme())
    assert 'href="cite:0:0"' in html and 'href="cite:0:1"' in html and "<b>income</b>" in html
    assert "?" not in html.split("cite:0:0")[1][:400]  # search hits are not verdicts
    assert cites[0]["passage"] == "Net income rose to $1,234 million"
    assert "Search result" in tooltip(cites[0], search=True)


def test_stored_messages_become_exchanges() -> None:
    def msg(i: int, role: str, content: str, usage: dict | None = None, calls: list | None = None) -> Message:
        return Message(i, role, content, calls or [], [], usage or {}, 0.0)

    stored = [
        msg(1, "user", "Q1"), msg(2, "assistant", "A1", {"prompt_tokens": 10, "completion_tokens": 2},
                                  [{"name": "get_page_content", "arguments": {"doc": "abc", "pages": "12"}}]),
        msg(3, "user", "Q2"), msg(4, "assistant", "⚠ Stopped.", {"failed": True}),
        msg(5, "user", "Q3"), msg(6, "assistant", "⚠ The endpoint refused the key.", {"failed": True}),
        msg(7, "user", "Q4"),
    ]
    out = exchanges_from_messages(stored, {"abc": "Annual Report 2023"})
    assert [e.question for e in out] == ["Q1", "Q2", "Q3", "Q4"]
    assert out[0].answer == "A1" and out[0].prompt_tokens == 10
    assert out[0].trail[0].label == "Read pages 12 of Annual Report 2023"
    assert out[1].cancelled and not out[1].error
    assert out[2].error == "The endpoint refused the key."
    assert "not answered" in out[3].error


def test_contradicted_citations_and_uncited_sentences_are_shown_as_such() -> None:
    from pageindex_desktop.ui.assistant.transcript import ERROR_RED

    answer = "Net income fell to $1,234 million [Annual Report 2023, p. 12]. Costs were $610 million."
    start = answer.index("[")
    cite = record(12, start, answer.index("]") + 1, False, "the passage says it went up, not down",
                  passage="Net income rose to $1,234 million in 2023.")
    cite["verdict"] = "contradicted"
    uncited = [{"text": "Costs were $610 million.", "start": answer.index("Costs"), "end": len(answer)}]
    html = answer_html(0, Exchange("q", answer, [cite], uncited), Theme())
    assert f"color:{ERROR_RED}" in html and "✗" in html and "✓" not in html
    assert html.count("[no citation]") == 1 and html.index("Costs") < html.index("[no citation]")
    tip = tooltip(cite, search=False)
    assert "Contradicted" in tip and "went up, not down" in tip and "rose to $1,234 million" in tip


def test_a_laid_out_document_s_citation_names_its_heading_and_a_pdf_s_keeps_it_in_the_tooltip() -> None:
    def section(node_id: str, path: list[str], first: int, last: int) -> dict:
        return {"node_id": node_id, "title": path[-1], "path": path, "start_page": first, "end_page": last}

    answer = "Census in spring [Notes, p. 3, 4]. Income rose [Annual Report 2023, p. 12]. Dredged [Notes, § Works]."
    notes = answer.index("[Notes")
    report = answer.index("[Annual")
    works = answer.index("[Notes, §")
    cites = [
        {**record(3, notes, answer.index("]") + 1, True), "document": "Notes", "format": "md",
         "section": section("0005", ["Minutes", "Any other business"], 3, 3)},
        {**record(4, notes, answer.index("]") + 1, True), "document": "Notes", "format": "md",
         "section": section("0007", ["Appendix", "Soundings"], 4, 5)},
        {**record(12, report, answer.index("]", report) + 1, True), "format": "pdf",
         "section": section("0003", ["Financial results", "Income statement"], 11, 14)},
        {**record(0, works, len(answer) - 1, False, "no section “Works” in this document"), "document": "Notes",
         "format": "md", "written_page": "", "written_heading": "Works", "section": None},
    ]
    html = answer_html(0, Exchange("q", answer, cites), Theme())
    assert "Notes › Any other business, p.&nbsp;3</a>" in html
    assert "› Soundings, p.&nbsp;4</a>" in html  # the second page is in another section
    assert ">Annual Report 2023, p.&nbsp;12</a>" in html  # a PDF's link stays the page
    assert "Notes, § Works</a>" in html
    assert "Section: Financial results › Income statement (pages 11–14)." in tooltip(cites[2], search=False)
    assert "Section: Minutes › Any other business (page 3)." in tooltip(cites[0], search=False)
    top = {**cites[0], "section": section("0001", ["Notes"], 1, 5)}  # the file's top heading is its title
    assert ">Notes, p.&nbsp;3</a>" in answer_html(0, Exchange("q", answer, [top]), Theme())
    same = [{**cites[0], "page": 3}, {**cites[0], "page": 4}]  # one section over two pages: named once
    once = answer_html(0, Exchange("q", answer, same), Theme())
    assert once.count("Any other business, p.&nbsp;") == 1 and ">p.&nbsp;4</a>" in once
