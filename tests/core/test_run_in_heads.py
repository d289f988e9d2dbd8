"""Issue 11, remaining class 3, on a PDF built here: a filing's note sets run-in heads in bold at the start of
a paragraph ("Liquidity — We expect cash", "Revenue Recognition. We recognise"). When the paragraph's words on
that line are few, the line is bold as a whole and read like a heading; bookmarks leave these out, so they are
no sections. Numbered titles of the same shape ("Note 4 – Debt", "Part II – Other information") and a
heading with a title-case subtitle stay."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line

BOLD, PLAIN = pymupdf.Font("hebo"), pymupdf.Font("helv")  # fonts with the em and en dashes


def _run_in(page: pymupdf.Page, y: float, head: str, words: str) -> float:
    """A bold run-in head and the first words of its paragraph on one line, then the paragraph; returns the y
    under it."""
    writer = pymupdf.TextWriter(page.rect)
    writer.append((72, y), head, font=BOLD, fontsize=10)
    writer.append((72 + BOLD.text_length(head, 10), y), words, font=PLAIN, fontsize=10)
    writer.write_text(page)
    return paragraph(page, y + 15, 5) + 6


def _bold_line(page: pymupdf.Page, y: float, text: str) -> float:
    """A bold body-size line with dashes in it; returns the y under it."""
    writer = pymupdf.TextWriter(page.rect)
    writer.append((72, y), text, font=BOLD, fontsize=10)
    writer.write_text(page)
    return y + 15


def test_run_in_heads_are_not_sections(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Annual Report on Form 10-K", size=20, bold=True) + 6
    paragraph(page, y, 20)
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 72, "Notes to Consolidated Financial Statements", size=14, bold=True) + 6
    y = _bold_line(page, y, "Note 4 – Debt")
    y = paragraph(page, y, 4) + 6
    y = _run_in(page, y, "Liquidity and Capital Resources — ", "We expect cash")
    y = _run_in(page, y, "Revenue Recognition and Deferred Revenue. ", "We recognise")
    y = _bold_line(page, y, "Segment Information — Basis of Presentation")
    y = paragraph(page, y, 4) + 6
    y = _run_in(page, y, "Principles of Consolidation. ", "The statements")
    y = _bold_line(page, y + 6, "Part II – Other Information")
    paragraph(page, y, 6)
    path = tmp_path / "notes.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles == ["Notes to Consolidated Financial Statements", "Note 4 – Debt",
                      "Segment Information — Basis of Presentation", "Part II – Other Information"]


def test_a_chapter_number_and_colon_before_a_sentence_case_title_is_no_run_in_head(tmp_path: Path) -> None:
    """"Chapter 4: Primary channel operation demand" read as a run-in head ("...:" then four words of prose)
    and was dropped; what stands before the colon is only the chapter's number, so the line is its title.
    The first chapter opens page 1 right over a table, which had put it in the title block."""
    doc = pymupdf.open()
    titles = ["Chapter 1: Scope of the review", "Chapter 2: Sources of supply and demand",
              "Chapter 3: Primary channel operation demand", "Chapter 4: Funding of the planned works"]
    for n, title in enumerate(titles):
        page = doc.new_page(width=612, height=792)
        write_line(page, 40, "Regional Water Board", size=8)
        y = write_line(page, 80, title, size=18, bold=True) + 6
        if n == 0:
            for i, head in enumerate(("Region", "Mains", "Meters")):
                write_line(page, y, head, bold=True, x=72 + 150 * i)
            y += 16
            for label in ("North", "South", "East"):
                write_line(page, y, label)
                write_line(page, y, "12,565", x=222)
                write_line(page, y, "3,781", x=372)
                y += 14
        paragraph(page, y + 10, 30)
    path = tmp_path / "chapters.pdf"
    doc.save(path)
    assert [(h.title, h.page) for h in find_layout_headings(extract(path))] == [
        (title, n + 1) for n, title in enumerate(titles)]
