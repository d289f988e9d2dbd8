"""Layout headings: numbering and weight at body size, levels, running headers/footers and title pages left out."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.ingest.pdf import extract
from tests.conftest import corpus_file

FILLER = "the measurements were taken every morning and compared with the figures of the previous season,"


def _write(page: pymupdf.Page, y: float, text: str, size: float = 10, bold: bool = False, x: float = 72) -> float:
    """Put one line on the page and return the y of the next line."""
    page.insert_text((x, y), text, fontsize=size, fontname="hebo" if bold else "helv")
    return y + size * 1.5


# physical page -> headings that open a block on it (bold at body size, numbered)
SECTIONS = {
    2: ["1 Introduction", "1.1 Scope of the survey"],
    3: ["1.2 Sources"],
    4: ["2 Field Work", "2.1 Equipment and Calibration"],
    5: [],
    6: ["3 Findings"],
}


def _report(path: Path) -> ExtractedDocument:
    """A title page, then five pages with a running header, a folio footer and bold body-size headings."""
    doc = pymupdf.open()
    for _ in range(6):
        doc.new_page(width=612, height=792)
    pages = [doc[i] for i in range(doc.page_count)]
    _write(pages[0], 220, "Survey of the Northern Lakes", size=28, bold=True)
    _write(pages[0], 270, "Prepared for the Regional Water Board", size=14)
    for number in range(2, 7):
        page = pages[number - 1]
        _write(page, 40, "Northern Lakes Survey 2024", size=9, bold=True)  # running header
        _write(page, 770, f"Page {number - 1}", size=9, x=290)  # footer
        y = 90.0
        for title in SECTIONS[number] or [""]:
            if title:
                y = _write(page, y + 8, title, bold=True) + 4
            for i in range(12):
                text = FILLER.capitalize() if i == 0 else FILLER
                y = _write(page, y, text)
    doc.save(path)
    return extract(path)


def test_bold_numbered_headings_with_levels(tmp_path: Path) -> None:
    headings = find_layout_headings(_report(tmp_path / "report.pdf"))
    found = [(h.title, h.level, h.page) for h in headings]
    expected = [
        (title, 2 if "." in title.split()[0] else 1, page) for page, titles in SECTIONS.items() for title in titles
    ]
    assert found == expected
    assert all(h.y is not None for h in headings)


def test_running_header_footer_and_title_page_are_not_headings(tmp_path: Path) -> None:
    titles = {h.title for h in find_layout_headings(_report(tmp_path / "report.pdf"))}
    assert "Northern Lakes Survey 2024" not in titles
    assert not any(t.startswith("Page ") for t in titles)
    assert "Survey of the Northern Lakes" not in titles
    assert "Prepared for the Regional Water Board" not in titles


def test_multi_line_heading_is_joined_and_sentences_are_not_headings(tmp_path: Path) -> None:
    doc = pymupdf.open()
    first = doc.new_page(width=612, height=792)
    y = 90.0
    for _ in range(30):
        y = _write(first, y, FILLER)
    page = doc.new_page(width=612, height=792)
    y = _write(page, 90, "Effects of Regulation on the Market for", size=14, bold=True)
    y = _write(page, y, "Investment Advice and Services", size=14, bold=True) + 6
    y = _write(page, y, "Note. The figures were revised in March, after the audit of the accounts.", bold=True)
    for _ in range(30):
        y = _write(page, y, FILLER)
    path = tmp_path / "joined.pdf"
    doc.save(path)
    headings = find_layout_headings(extract(path))
    assert [h.title for h in headings] == ["Effects of Regulation on the Market for Investment Advice and Services"]


def test_corpus_regulation_numbered_headings_at_body_size() -> None:
    doc = extract(corpus_file("Regulation Best Interest_proposed rule.pdf"))
    pages = {h.title: h.page for h in find_layout_headings(doc)}
    assert pages["(1) Capacity"] == 104
    assert pages["a. DOL Fiduciary Rule and Related PTEs"] == 58
    assert pages["II. DISCUSSION OF REGULATION BEST INTEREST"] == 44
    assert not any(title.startswith("17 See") for title in pages)  # footnotes are not sections


def test_corpus_paper_sections_and_no_title_block() -> None:
    doc = extract(corpus_file("arxiv__1706.03762.pdf"))
    headings = find_layout_headings(doc)
    pages = {h.title: (h.page, h.level) for h in headings}
    assert pages["1 Introduction"] == (1, 1)
    assert pages["3.2.1 Scaled Dot-Product Attention"][0] == 4
    assert pages["3.2.1 Scaled Dot-Product Attention"][1] > pages["3.2 Attention"][1] > pages["3 Model Architecture"][1]
    assert "Attention Is All You Need" not in pages


def _page_of(doc: pymupdf.Document, lines: list[tuple[float, float, str, float, bool]]) -> None:
    """A page with (x, y, text, size, bold) lines."""
    page = doc.new_page(width=612, height=792)
    for x, y, text, size, bold in lines:
        page.insert_text((x, y), text, fontsize=size, fontname="hebo" if bold else "helv")


def _paragraph(x: float, y: float, count: int, width_chars: int = 54) -> list[tuple[float, float, str, float, bool]]:
    """Body lines of a column starting at (x, y)."""
    return [(x, y + 13 * i, FILLER[:width_chars], 10, False) for i in range(count)]


def test_two_column_page_reads_left_column_first(tmp_path: Path) -> None:
    doc = pymupdf.open()
    _page_of(doc, _paragraph(50, 80, 40))  # a first page of plain text
    lines = [(50, 80, "1 Introduction", 10, True), *_paragraph(50, 100, 20, 50), (50, 380, "2 Method", 10, True),
             *_paragraph(50, 400, 20, 50), (320, 80, "3 Results", 10, True), *_paragraph(320, 100, 20, 50),
             (320, 380, "4 Discussion", 10, True), *_paragraph(320, 400, 20, 50)]
    _page_of(doc, lines)
    path = tmp_path / "columns.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles == ["1 Introduction", "2 Method", "3 Results", "4 Discussion"]


def test_repeated_environment_labels_and_initials_are_not_sections(tmp_path: Path) -> None:
    doc = pymupdf.open()
    _page_of(doc, _paragraph(72, 80, 50, 80))
    for number in range(1, 4):
        lines: list[tuple[float, float, str, float, bool]] = [
            (72, 80, f"{number} Chapter Title Number {number}", 14, True)
        ]
        y = 110.0 + 30 * number
        for k in range(2):
            lines.append((72, y, f"Definition {2 * number + k - 1}", 10, True))
            lines += _paragraph(72, y + 16, 6, 80)
            y += 110
        lines.append((72, y, "J. Andrew Figura", 10, False))
        lines += _paragraph(72, y + 16, 6, 80)
        _page_of(doc, lines)
        _page_of(doc, _paragraph(72, 80, 50, 80))  # each chapter runs on
    path = tmp_path / "labels.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles == ["1 Chapter Title Number 1", "2 Chapter Title Number 2", "3 Chapter Title Number 3"]


def test_centred_small_caps_title_between_paragraphs(tmp_path: Path) -> None:
    doc = pymupdf.open()
    _page_of(doc, _paragraph(72, 80, 50, 80))
    width = pymupdf.get_text_length("Recorded Music", "helv", 10)
    centre = 72 + pymupdf.get_text_length(FILLER[:80], "helv", 10) / 2
    lines = [*_paragraph(72, 80, 12, 80), (centre - width / 2, 260, "Recorded Music", 10, False),
             *_paragraph(72, 290, 20, 80)]
    _page_of(doc, lines)
    path = tmp_path / "centred.pdf"
    doc.save(path)
    assert [(h.title, h.page) for h in find_layout_headings(extract(path))] == [("Recorded Music", 2)]


def test_plain_isolated_titles_when_nothing_is_emphasised(tmp_path: Path) -> None:
    doc = pymupdf.open()
    sentence = "The workers were asked about their shifts and the time they spent with family."
    for number, title in enumerate(["Method", "Results", "Discussion"], start=1):
        lines: list[tuple[float, float, str, float, bool]] = []
        y = 80.0
        for _ in range(8):
            lines.append((72, y, sentence, 10, False))
            y += 13
        lines.append((72, y + 12, title, 10, False))  # set apart by a blank line, then its text
        y += 25
        for _ in range(20):
            lines.append((72, y, sentence, 10, False))
            y += 13
        _page_of(doc, lines)
    path = tmp_path / "plain.pdf"
    doc.save(path)
    headings = find_layout_headings(extract(path))
    assert [(h.title, h.page) for h in headings] == [("Method", 1), ("Results", 2), ("Discussion", 3)]


def test_sentence_case_heading_set_larger_is_found(tmp_path: Path) -> None:
    doc = pymupdf.open()
    _page_of(doc, _paragraph(72, 80, 50, 80))
    _page_of(doc, [(72, 80, "Pistes cyclables et sentiers utilitaires", 16, False), *_paragraph(72, 110, 40, 80)])
    _page_of(doc, [(72, 80, "the survey went on with questions about winter upkeep", 10, False),
                   *_paragraph(72, 96, 40, 80)])
    path = tmp_path / "sentence.pdf"
    doc.save(path)
    headings = find_layout_headings(extract(path))
    assert [(h.title, h.page) for h in headings] == [("Pistes cyclables et sentiers utilitaires", 2)]


def test_chapter_label_line_joins_the_title_below(tmp_path: Path) -> None:
    doc = pymupdf.open()
    _page_of(doc, [(150, 200, "A Book About Rivers", 24, True)])
    for number, title in enumerate(["Introduction", "Rivers of the North"], start=1):
        _page_of(doc, [(72, 150, f"Chapter {number}", 20, True), (72, 200, title, 24, True),
                       *_paragraph(72, 260, 30, 80)])
        _page_of(doc, _paragraph(72, 80, 45, 80))
    path = tmp_path / "book.pdf"
    doc.save(path)
    headings = find_layout_headings(extract(path))
    expected = [("Chapter 1 Introduction", 2), ("Chapter 2 Rivers of the North", 4)]
    assert [(h.title, h.page) for h in headings] == expected


def test_legal_outline_levels_come_from_the_numbering_schemes(tmp_path: Path) -> None:
    """Issue 11, cause 6: "I." set in small bold capitals, "A." bold, "1." and "a." plain, all near body size.

    Type size alone would put "I." at the bottom; each scheme restarting under the one before gives the nest.
    """
    outline = [("I. INTRODUCTION", 9, True), ("A. Background of the Rule", 10, True),
               ("1. Earlier Proposals", 10, False), ("2. Comments Received", 10, False),
               ("B. Objectives of the Proposal", 10, True), ("1. Investor Protection", 10, False),
               ("a. Disclosure of Fees", 10, False), ("b. Conflicts of Interest", 10, False),
               ("2. Market Efficiency", 10, False), ("II. DISCUSSION", 9, True),
               ("A. Scope of the Obligation", 10, True), ("1. Retail Customers", 10, False),
               ("a. Natural Persons", 10, False), ("b. Legal Representatives", 10, False)]
    expected_levels = [1, 2, 3, 3, 2, 3, 4, 4, 3, 1, 2, 3, 4, 4]
    doc = pymupdf.open()
    for _ in range(len(outline) // 2 + 1):
        doc.new_page(width=612, height=792)
    _write(doc[0], 200, "Proposed Rule on Conduct Standards", size=24, bold=True)
    for index, (title, size, bold) in enumerate(outline):
        page = doc[1 + index // 2]
        y = 90.0 if index % 2 == 0 else 420.0
        y = _write(page, y, title, size=size, bold=bold) + 6
        for _ in range(12):
            y = _write(page, y, FILLER)
    path = tmp_path / "rule.pdf"
    doc.save(path)
    headings = find_layout_headings(extract(path))
    assert [(h.title, h.level) for h in headings] == [(t, lvl) for (t, _s, _b), lvl in zip(outline, expected_levels)]


def _headed_pages(path: Path, pages: list[list[tuple[str, float, bool]]]) -> ExtractedDocument:
    """One page per entry of `pages`, each heading (title, size, bold) followed by a paragraph."""
    doc = pymupdf.open()
    for headings in pages:
        page = doc.new_page(width=612, height=792)
        y = 90.0
        for title, size, bold in headings:
            y = _write(page, y, title, size=size, bold=bold) + 6
            for _ in range(8):
                y = _write(page, y, FILLER)
    doc.save(path)
    return extract(path)


def test_filing_parts_and_items_outrank_larger_sub_heads(tmp_path: Path) -> None:
    """Issue 11, cause 6: "PART I" and "Item 1." in small bold type over 13 pt sub-heads: the keywords lead."""
    part, item, sub = 9, 9, 13
    pages = [[("PART I", part, True), ("Item 1. Business", item, True), ("Company Background", sub, False)],
             [("Products and Services", sub, False), ("Item 1A. Risk Factors", item, True)],
             [("Market Risks", sub, False), ("Operating Risks", sub, False)],
             [("PART II", part, True), ("Item 7. Management Discussion", item, True)],
             [("Fiscal Year Highlights", sub, False), ("Liquidity and Capital", sub, False)],
             [("Item 8. Financial Statements", item, True), ("Balance Sheets", sub, False)]]
    doc = _headed_pages(tmp_path / "filing.pdf", [[("Annual Report on Form 10-K", 22, True)], *pages])
    levels = {h.title: h.level for h in find_layout_headings(doc)}
    assert levels["PART I"] == levels["PART II"] == 1
    assert {levels[t] for t in ("Item 1. Business", "Item 1A. Risk Factors", "Item 7. Management Discussion",
                                "Item 8. Financial Statements")} == {2}
    assert {levels[t] for t in ("Company Background", "Market Risks", "Fiscal Year Highlights",
                                "Balance Sheets")} == {3}


def test_a_books_rarer_larger_part_titles_stay_above_its_chapters(tmp_path: Path) -> None:
    """Unnumbered part titles set larger than the chapters and used less often remain the top level."""
    pages = [[("Creation", 18, True), ("Chapter One: Makers", 13, True)], [("Chapter Two: Copyists", 13, True)],
             [("Chapter Three: Catalogues", 13, True)], [("Ownership", 18, True), ("Chapter Four: Pirates", 13, True)],
             [("Chapter Five: Film", 13, True)]]
    doc = _headed_pages(tmp_path / "book.pdf", [[("Free Thinking", 26, True)], *pages])
    levels = {h.title: h.level for h in find_layout_headings(doc)}
    assert levels["Creation"] == levels["Ownership"] == 1
    assert {levels[t] for t in levels if t.startswith("Chapter")} == {2}
