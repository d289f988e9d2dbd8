"""Issue 11, remaining class 2, on PDFs built here: a report's first section heading set right under the title
block of its first page ("Executive Summary" under the title, the authors and the date, no section number) is
a section starting on page 1, while the block's own lines (title, authors, date, a subtitle set in the
sections' style) are not."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line


def _report(path: Path, block: list[tuple[str, float, bool]], sections: float = 14) -> list[tuple[str, int]]:
    """A four-page report whose first page opens with `block` (text, size, bold) over its prose, its sections
    set in bold at `sections` pt; its layout headings as (title, page)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Regional Water Supply Plan 2024", size=22, bold=True) + 6
    for text, size, bold in block:
        y = write_line(page, y, text, size=size, bold=bold) + 4
    y = paragraph(page, y, 12)
    y = write_line(page, y + 10, "Background of the Plan", size=sections, bold=True) + 4
    paragraph(page, y, 10)
    for title in ("Current Supply", "Future Demand", "Recommended Strategies"):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 72, title, size=sections, bold=True) + 4
        paragraph(page, y, 20)
    doc.save(path)
    return [(h.title, h.page) for h in find_layout_headings(extract(path))]


SECTIONS = [("Background of the Plan", 1), ("Current Supply", 2), ("Future Demand", 3),
            ("Recommended Strategies", 4)]


def test_first_heading_under_the_title_block_is_a_section(tmp_path: Path) -> None:
    """The unnumbered "Executive Summary" in the sections' style, right over the body, under the authors and
    the date, opens the tree on page 1."""
    block = [("Prepared by the Planning Office", 12, False), ("March 2024", 11, False),
             ("Executive Summary", 14, True)]
    assert _report(tmp_path / "summary.pdf", block) == [("Executive Summary", 1)] + SECTIONS


def test_first_heading_at_a_noisy_size_of_the_sections_style_is_a_section(tmp_path: Path) -> None:
    """The sections come out at 14.6 pt and "Executive Summary" at 14.4: rounded (15 and 14) it shared no
    later heading's style and was left in the block; one size cluster, it opens the tree."""
    block = [("Prepared by the Planning Office", 12, False), ("March 2024", 11, False),
             ("Executive Summary", 14.4, True)]
    assert _report(tmp_path / "noisy.pdf", block, 14.6) == [("Executive Summary", 1)] + SECTIONS


def test_title_block_lines_stay_out(tmp_path: Path) -> None:
    """A subtitle set like the sections but with the date under it, and the date over the body, are the
    block's: no section comes before the first one after the body starts."""
    block = [("Final Report", 14, True), ("March 2024", 11, False)]
    assert _report(tmp_path / "subtitle.pdf", block) == SECTIONS


def _table(page: pymupdf.Page, y: float) -> float:
    """A table of figures from `y`: bold column heads, then rows of a label and two amounts."""
    for x, head in ((72, "Measure"), (300, "2023"), (400, "2022")):
        write_line(page, y, head, bold=True, x=x)
    for label, now, before in (("Water supplied", "19,901", "18,412"), ("Pipes renewed", "1,204", "1,180"),
                               ("Leakage rate", "12.5%", "13.1%")):
        y += 15
        for x, cell in ((72, label), (300, now), (400, before)):
            write_line(page, y, cell, x=x)
    return y + 20


def _opens_on_a_chapter(path: Path, first: str, first_size: float,
                        later: tuple[str, ...] = ("Operating Results", "Capital Resources", "Outlook and Guidance"),
                        table_first: bool = False, caption: str = "") -> list[tuple[str, int]]:
    """A report with no title block: a small running header, then `first` at `first_size` over its first
    sub-heading and prose on page 1 (with `table_first`, over a table of figures and then prose; with `caption`,
    over that figure caption set small, the figure's drawing left out, and then prose), and the `later`
    chapters (bold 18 pt, their sub-headings bold 12 pt) that each open a page. Its layout headings as (title,
    page)."""
    doc = pymupdf.open()
    titles = [first, *later]
    subs = ["Scope of the Review", "Revenue by Region", "Funding Sources", "Planned Works"]
    for number, (title, sub) in enumerate(zip(titles, subs), start=1):
        page = doc.new_page(width=612, height=792)
        write_line(page, 40, "Regional Water Board Annual Review", size=8)
        y = write_line(page, 80, title, size=first_size if number == 1 else 18, bold=True) + 4
        if table_first and number == 1:
            y = _table(page, y + 6)
        if caption and number == 1:
            y = write_line(page, y + 2, caption, size=9) + 2
            y = paragraph(page, y, 3)
        y = write_line(page, y, sub, size=12, bold=True) + 4
        paragraph(page, y, 24 if number > 1 or not table_first else 16)
    doc.save(path)
    return [(h.title, h.page) for h in find_layout_headings(extract(path))]


def test_a_report_that_opens_on_its_first_chapter_keeps_it(tmp_path: Path) -> None:
    """Page 1 starts with a chapter heading in the style of the chapters on later pages, under nothing but a
    small running header: it is the first chapter, not the document's title (it was left in the title block
    and page 1's sub-heading came out as the first top-level section)."""
    found = _opens_on_a_chapter(tmp_path / "chapters.pdf", "Market Overview", 18)
    assert found[:3] == [("Market Overview", 1), ("Scope of the Review", 1), ("Operating Results", 2)]


def test_a_title_in_a_style_of_its_own_stays_out(tmp_path: Path) -> None:
    """The same report opening on a 24 pt line no later heading shares: the document's title, no section."""
    found = _opens_on_a_chapter(tmp_path / "titled.pdf", "Regional Water Review", 24)
    assert ("Regional Water Review", 1) not in found and found[0] == ("Scope of the Review", 1)


def test_an_appendix_in_the_chapters_face_counts_as_one_of_them(tmp_path: Path) -> None:
    """A short report opening on its first chapter, with one more chapter and "Appendix A" set in their face:
    the appendix is a later heading in that face too, so page 1's line is the first chapter. One later chapter
    alone is too little to tell it from a title."""
    found = _opens_on_a_chapter(tmp_path / "short.pdf", "Market Overview", 18,
                                ("Operating Results", "Appendix A: Data Tables"))
    assert found[:3] == [("Market Overview", 1), ("Scope of the Review", 1), ("Operating Results", 2)]
    found = _opens_on_a_chapter(tmp_path / "shorter.pdf", "Market Overview", 18, ("Operating Results",))
    assert ("Market Overview", 1) not in found


def test_a_report_that_opens_on_a_chapter_over_a_table_keeps_it(tmp_path: Path) -> None:
    """Page 1 opens on its first chapter's heading right over a table of figures: no paragraph follows the
    heading, so the title block ran on over the table to the first line of prose, and the chapter was lost in it.
    A table's cells of figures are body text too."""
    found = _opens_on_a_chapter(tmp_path / "table.pdf", "Market Overview", 18, table_first=True)
    assert found[:3] == [("Market Overview", 1), ("Scope of the Review", 1), ("Operating Results", 2)]


def test_a_report_that_opens_on_a_chapter_over_a_figure_keeps_it(tmp_path: Path) -> None:
    """Page 1's first chapter heading right over a figure and its caption ("Figure 1. Supply by source"): the
    caption is body, not a title block's line, so the heading at the block's foot is the first chapter."""
    found = _opens_on_a_chapter(tmp_path / "figure.pdf", "Market Overview", 18, caption="Figure 1. Supply by source")
    assert found[:3] == [("Market Overview", 1), ("Scope of the Review", 1), ("Operating Results", 2)]


def test_a_memo_that_opens_on_its_first_numbered_section_keeps_it(tmp_path: Path) -> None:
    """A memo or a chapter printed on its own opens on "1. Background" over its paragraph, with no title block:
    the section's line, first on the page, had been taken for the document's title."""
    doc = pymupdf.open()
    sections = {"1. Background": ["1.1 The Parties", "1.2 The Agreement"], "2. Discussion": ["2.1 Jurisdiction"],
                "3. Conclusion": []}
    page = doc.new_page(width=612, height=792)
    y = 90.0
    for title, subs in sections.items():
        for heading in [title, *subs]:
            if y > 600:
                page, y = doc.new_page(width=612, height=792), 90.0
            y = paragraph(page, write_line(page, y, heading, bold=True) + 2, 5) + 6
    path = tmp_path / "memo.pdf"
    doc.save(path)
    assert [(h.title, h.level) for h in find_layout_headings(extract(path))] == [
        (title, level) for top, subs in sections.items() for title, level in [(top, 1), *((s, 2) for s in subs)]]


LONG_WORDS = ["Randomisation procedures require independent", "investigators throughout recruitment periods.",
              "Participants' eligibility assessments precede", "randomisation whenever practicable."]
PROTOCOL_CHAPTERS = ["Background", "Participants", "Interventions"]


def _protocol(path: Path, justified: bool) -> list[tuple[str, int]]:
    """A protocol of three chapters, a page each, the first under the title and a version line; each chapter
    (22 pt) over two narrow columns of lines of long words, five words or fewer. When `justified`, the left
    column's first line stands word by word 9 pt apart, as a justified line's stretched gaps set it. Returns
    the layout headings as (title, page)."""
    doc = pymupdf.open()
    for number, chapter in enumerate(PROTOCOL_CHAPTERS):
        page = doc.new_page(width=612, height=792)
        y = 80.0
        if number == 0:
            y = write_line(page, y, "Clinical Study Protocol 993", size=26, bold=True)
            y = write_line(page, y, "Version 1.0", size=10) + 6
        y = write_line(page, y, chapter, size=22, bold=True)
        if justified:
            x = 72.0
            for word in LONG_WORDS[0].split():
                page.insert_text((x, y), word, fontsize=10, fontname="helv")
                x += pymupdf.get_text_length(word, "helv", 10) + 9
            y += 13
        for k in range(30):
            page.insert_text((72, y), LONG_WORDS[(k + justified) % 4], fontsize=10, fontname="helv")
            page.insert_text((320, y), LONG_WORDS[(k + 1) % 4], fontsize=10, fontname="helv")
            y += 13
    doc.save(path)
    return [(h.title, h.page) for h in find_layout_headings(extract(path))]


def test_a_first_chapter_over_a_narrow_column_of_long_words_is_a_section(tmp_path: Path) -> None:
    """The title, a version line, then the first chapter ("Background") over a narrow column whose lines of
    long words hold five words or fewer: the column's lines open the body, so the chapter under the title is
    a section, not part of the title block."""
    assert _protocol(tmp_path / "narrow.pdf", False) == [
        (chapter, page) for page, chapter in enumerate(PROTOCOL_CHAPTERS, start=1)]


def test_a_justified_first_line_split_into_words_still_opens_the_body(tmp_path: Path) -> None:
    """The same protocol with the column justified: its first line's words come out of the page as a row each.
    Joined back along their baseline they open the body, so the first chapter is kept."""
    assert _protocol(tmp_path / "justified.pdf", True) == [
        (chapter, page) for page, chapter in enumerate(PROTOCOL_CHAPTERS, start=1)]


def test_a_first_page_of_contents_rows_opens_no_paragraph_and_keeps_its_heading(tmp_path: Path) -> None:
    """Two synthetic documents whose first page is their contents. A plan's wrapped entries ("model and
    customer ...... 2-1") read as prose and had opened the body, so the contents rows became headings and hid
    the sections they list (`tests/bench/synthetic_plans.py`, seed 149); a report's list of numbered chapters
    is the page's body, and the "Contents" heading over it stays a section (`synthetic_docs.py`, seed 42)."""
    from tests.bench.synthetic_docs import build
    from tests.bench.synthetic_plans import build_plan

    plan = tmp_path / "plan.pdf"
    build_plan(149, plan)
    titles = [h.title for h in find_layout_headings(extract(plan))]
    assert {"Section 3.2 Technical Labour", "Section 3.3 New Provision", "ARTICLE IV Financial Output"} <= set(titles)
    report = tmp_path / "report.pdf"
    build(42, report, True)
    assert ("Contents", 1) in [(h.title, h.page) for h in find_layout_headings(extract(report))]


def test_a_paragraph_opening_on_a_keyword_label_opens_the_body(tmp_path: Path) -> None:
    """A synthetic plan (`tests/bench/synthetic_plans.py`, seed 143) opens on "ARTICLE I" / "Key audit" over a
    paragraph whose first line starts "Exhibit 1. Internal resource and test": a keyword label in running
    text is no contents row, so the paragraph opens the body and the article under the title stays a
    section (taken for one, every heading of the plan had gone a level up)."""
    from tests.bench.synthetic_plans import build_plan

    plan = tmp_path / "plan.pdf"
    build_plan(143, plan)
    assert ("ARTICLE I Key audit", 1) in [(h.title, h.page) for h in find_layout_headings(extract(plan))]
