"""Numbered run-in section heads (issue 11, classes 1 and 4): agreements and codes set "Section 2.01 Defined
Terms." in bold and go on with the section's text in regular type on the same line. Each case on a PDF built
here."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, tree_rows, write_line

_TEXT = "the parties agree to the terms set out below and in the schedules"


def _run_in(page: pymupdf.Page, y: float, lead: str, text: str = _TEXT) -> float:
    """A line opening with `lead` in bold and going on with `text` in regular type; the y of the next line."""
    page.insert_text((72, y), lead, fontsize=10, fontname="hebo")
    page.insert_text((72 + pymupdf.get_text_length(lead + " ", "hebo", 10), y), text, fontsize=10, fontname="helv")
    return y + 15


def _layout(path: Path) -> list[tuple[int, str]]:
    return [(h.level, h.title) for h in find_layout_headings(extract(path))]


def test_a_line_opening_in_bold_keeps_its_bold_words_as_its_lead(tmp_path: Path) -> None:
    """Extraction keeps the bold opening of a line that goes on in regular type, and nothing for a bold word
    inside a sentence or a line in one weight."""
    doc = pymupdf.open()
    page = doc.new_page()
    _run_in(page, 100, "Section 4.02 Notices.")
    x = 72.0
    for words, font in (("A word in ", "helv"), ("bold ", "hebo"), ("inside a sentence", "helv")):
        page.insert_text((x, 140), words, fontsize=10, fontname=font)
        x += pymupdf.get_text_length(words, font, 10)
    write_line(page, 180, "Entirely bold line", 10, True)
    path = tmp_path / "leads.pdf"
    doc.save(path)
    lines = extract(path).pages[0].lines
    assert [(line.text, line.lead) for line in lines] == [
        (f"Section 4.02 Notices. {_TEXT}", "Section 4.02 Notices."),
        ("A word in bold inside a sentence", ""),
        ("Entirely bold line", ""),
    ]


def test_an_agreements_run_in_sections_are_headings_titled_by_their_bold_lead(tmp_path: Path) -> None:
    """ARTICLE headings on lines of their own, their sections run in: "Section 2.01 Committed Loans." in bold,
    then the section's text. Every section is a heading under its article, titled by its bold words alone. Before,
    a section whose lead was the shorter part of its line was missed, and one whose lead was the longer part
    took the first words of its text into its title."""
    articles = (
        ("I", "DEFINITIONS AND ACCOUNTING TERMS", ("Defined Terms", "Other Interpretive Provisions", "Accounting Terms")),
        ("II", "THE COMMITMENTS AND CREDIT EXTENSIONS", ("Committed Loans", "Borrowings of Committed Loans",
                                                        "Prepayments", "Termination of Commitments")),
        ("III", "TAXES, YIELD PROTECTION AND ILLEGALITY", ("Taxes", "Illegality", "Survival")),
    )
    doc = pymupdf.open()
    expected = []
    for number, (roman, name, sections) in enumerate(articles, 1):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, f"ARTICLE {roman}", 11, True, x=270)
        y = write_line(page, y, name, 11, True, x=160) + 6
        expected.append((1, f"ARTICLE {roman} {name}"))
        for index, title in enumerate(sections, 1):
            # the short leads are the smaller part of their line, "Other Interpretive Provisions" the larger
            y = _run_in(page, y, f"Section {number}.{index:02d} {title}.", "As used in this Agreement, the following")
            expected.append((2, f"Section {number}.{index:02d} {title}"))
            y = paragraph(page, y, 6) + 6
    path = tmp_path / "agreement.pdf"
    doc.save(path)
    assert _layout(path) == expected


def test_run_in_leads_that_label_paragraphs_or_count_list_items_stay_text(tmp_path: Path) -> None:
    """Decimal sections run in under numbered chapters are headings; beside them, an unnumbered bold lead
    ("Residual Representations."), a bold list item ("1. Eligibility.") and a theorem ("Theorem 2.1.") are a
    paragraph's label and stay text, as authors' outlines leave them out."""
    chapters = (("General Terms", ("Scope", "Purpose", "Definitions")),
                ("Loans and Credits", ("Borrowings", "Interest Rates", "Fees")),
                ("Conditions Precedent", ("Closing Date", "Each Credit Extension", "Notices")))
    doc = pymupdf.open()
    expected = []
    for number, (chapter, sections) in enumerate(chapters, 1):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90 + 37 * number, f"{number} {chapter}", 14, True) + 4
        expected.append((1, f"{number} {chapter}"))
        for index, title in enumerate(sections, 1):
            y = _run_in(page, y, f"{number}.{index} {title}.")
            expected.append((2, f"{number}.{index} {title}"))
            y = paragraph(page, y, 4) + 4
        for index in (1, 2):
            y = _run_in(page, y, f"Residual Representations {index}.")
            y = _run_in(page, y, f"{index}. Eligibility.")
            y = _run_in(page, y, f"Theorem {number}.{index}.", "Let X be a compact space and f a map")
            y = paragraph(page, y, 3) + 4
    path = tmp_path / "sections.pdf"
    doc.save(path)
    assert _layout(path) == expected


def test_an_agreements_contents_list_maps_its_sections_to_the_pages_that_run_them_in(tmp_path: Path) -> None:
    """The agreement's contents page lists every article and section with its page; each section is printed
    run in, its bold lead opening a full line of text, and the pages print no folio, so only titles found where
    the numbers point vouch for them. Every entry lands on its page. The title index skipped full-width lines
    of regular type as body text: only the articles were found, too few to trust the numbers, and the sections
    were lost from the tree."""
    sections = {1: ("Defined Terms", "Accounting Terms", "Rounding"), 2: ("Committed Loans", "Prepayments"),
                3: ("Taxes", "Illegality", "Survival"), 4: ("Notices", "Amendments", "Counterparts")}
    doc = pymupdf.open()
    contents = doc.new_page(width=612, height=792)
    y = write_line(contents, 80, "TABLE OF CONTENTS", 12, True, x=250) + 8
    expected = []
    for article, titles in sections.items():
        first = 2 * article  # each article opens a page and goes on over the next one
        y = write_line(contents, y + 4, f"ARTICLE {'I' * article if article < 4 else 'IV'} ...... {first - 1}", 10, True)
        for index, title in enumerate(titles, 1):
            page = first + (index > 1)
            y = write_line(contents, y, f"Section {article}.{index:02d} {title} ...... {page - 1}", x=90)
            expected.append((f"Section {article}.{index:02d} {title}", page))
    for article, titles in sections.items():
        for half in (0, 1):
            page = doc.new_page(width=612, height=792)
            y = 90.0
            if half == 0:
                y = write_line(page, y, f"ARTICLE {'I' * article if article < 4 else 'IV'}", 11, True, x=270) + 6
            for index, title in enumerate(titles, 1):
                if (index > 1) == bool(half):
                    y = _run_in(page, y, f"Section {article}.{index:02d} {title}.")
                    y = paragraph(page, y, 8) + 6
    path = tmp_path / "agreement.pdf"
    doc.save(path)
    source, rows = tree_rows(path)
    assert source == "toc_page"
    assert [row for row in rows if row[0].startswith("Section")] == expected


def _amsart_run_in(page: pymupdf.Page, y: float, number: str, title: str, text: str = _TEXT) -> float:
    """A run-in head as amsart and many journals set it: the number in the text's regular type, the title in
    bold, then the section's text (none: the section opens on a list); the y of the next line."""
    x = 72.0
    for words, font in ((f"{number} ", "helv"), (f"{title}.", "hebo"), (f" {text}" if text else "", "helv")):
        if words:
            page.insert_text((x, y), words, fontsize=10, fontname=font)
            x += pymupdf.get_text_length(words, font, 10)
    return y + 15


def test_run_in_heads_numbered_in_the_texts_weight_are_headings(tmp_path: Path) -> None:
    """amsart's sections: "1. GENERAL TERMS" centred in capitals, its sections run in as "1.2. **Scope.**" with
    the number in regular type before the bold title, one of them alone on its line over a numbered list. Every
    section is a heading under its chapter. Before, the lead was read only when the line opened in bold, and a
    bold line ending in a stop read as a sentence, so the sections were lost."""
    chapters = (("GENERAL TERMS", ("Scope", "Purpose of the Rules", "Definitions")),
                ("LOANS AND CREDITS", ("Borrowings", "Interest Rates")))
    doc = pymupdf.open()
    expected = []
    for number, (chapter, sections) in enumerate(chapters, 1):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, f"{number}. {chapter}", 12, x=230) + 6
        expected.append((1, f"{number}. {chapter}"))
        for index, title in enumerate(sections, 1):
            if index == 2:  # opens on a list: the head stands alone on its line
                y = _amsart_run_in(page, y, f"{number}.{index}.", title, "")
                for item in (1, 2):
                    y = write_line(page, y, f"({item}) {_TEXT}", x=84)
            else:
                y = _amsart_run_in(page, y, f"{number}.{index}.", title)
            expected.append((2, f"{number}.{index}. {title}"))
            y = paragraph(page, y, 4) + 4
    path = tmp_path / "amsart.pdf"
    doc.save(path)
    assert _layout(path) == expected
