"""Sub-headings marked by an underline alone, at the body's size and weight (issue 11: printed headings missed).

A memo's or a plan's "Background" is set like its text with a rule drawn under it. Extraction finds the rule
(`core/ingest/underlines.py`); layout reads such a row as emphasised, as it reads a bold one.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, two_levels, write_line

SECTIONS = {"Purpose of the Plan": ["Background", "Scope of Work"],
            "Implementation": ["Staffing and Budget", "Schedule"],
            "Monitoring": ["Reporting", "Review"]}


def _underlined(page: pymupdf.Page, y: float, text: str, size: float = 10) -> float:
    """A line in the body's regular face with a rule drawn right under its words."""
    page.insert_text((72, y), text, fontsize=size, fontname="helv")
    width = pymupdf.get_text_length(text, "helv", size)
    page.draw_line((72, y + 1.5), (72 + width, y + 1.5), width=0.6)
    return y + size * 1.5


def _table_under(page: pymupdf.Page, y: float) -> float:
    """A table right under a heading: a bold row of column heads (9 pt), then rows of short cells."""
    for x, head in ((72, "Item"), (220, "Budget"), (320, "Spent")):
        write_line(page, y, head, size=9, bold=True, x=x)
    y += 14
    for label, budget, spent in (("Staff", "1,204", "1,100"), ("Vehicles", "310", "290"), ("Depots", "220", "75")):
        for x, cell in ((72, label), (220, budget), (320, spent)):
            write_line(page, y, cell, size=9, x=x)
        y += 13
    return y + 6


def _plan(tmp_path: Path, underline: bool = True, table: bool = False, tables_under: bool = False) -> Path:
    """Three bold chapters, each with two sub-headings underlined (or, with `underline` off, plain) over
    prose; with `table`, a page of a table whose row labels are underlined beside their figures; with
    `tables_under`, each second sub-heading sits right over a table instead of a paragraph."""
    doc = pymupdf.open()
    for chapter, subs in SECTIONS.items():
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 80, chapter, size=14, bold=True) + 6
        y = paragraph(page, y, 6)
        for number, sub in enumerate(subs):
            y = (_underlined(page, y + 6, sub) if underline else write_line(page, y + 6, sub)) - 4
            y = _table_under(page, y) if tables_under and number == 1 else paragraph(page, y + 6, 6)
    if table:
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 80, "Annex", size=14, bold=True) + 6
        for label, figure in (("Operating costs", "1,204"), ("Capital costs", "3,310"), ("Reserves", "220")):
            _underlined(page, y + 12, label)
            write_line(page, y + 12, figure, x=420)
            y += 30
        paragraph(page, y + 12, 10)
    path = tmp_path / "plan.pdf"
    doc.save(path)
    return path


def test_underlined_sub_headings_are_found_under_their_chapters(tmp_path: Path) -> None:
    doc = extract(_plan(tmp_path))
    assert sum(line.underlined for page in doc.pages for line in page.lines) == 6
    found = [(h.title, h.level) for h in find_layout_headings(doc)]
    assert found == two_levels(SECTIONS)


def test_a_sub_heading_right_over_a_table_is_found(tmp_path: Path) -> None:
    """A sub-heading with a table right under it, whose bold column heads are narrower than the heading: the line
    below is in another style, so the heading is no label in a run of like lines."""
    found = [(h.title, h.level) for h in find_layout_headings(extract(_plan(tmp_path, tables_under=True)))]
    assert found == two_levels(SECTIONS)


def test_underlined_lines_one_under_another_are_no_headings(tmp_path: Path) -> None:
    """A run of short underlined lines in one style (a list of links) are no sub-headings: the first stands apart
    from the text above but opens no text, the others go on from the line above them. (The table test above
    lets a line over another style through; this one holds the run of like lines out.)"""
    doc = pymupdf.open()
    for chapter in SECTIONS:
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, write_line(page, 80, chapter, size=14, bold=True) + 6, 6) + 6
        for link in ("Guidance for applicants", "Forms and templates", "Contact the team"):
            y = _underlined(page, y, link) - 4
        paragraph(page, y + 8, 6)
    path = tmp_path / "links.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == list(SECTIONS)


def test_without_the_rule_the_same_lines_are_text(tmp_path: Path) -> None:
    """The rule is the only mark: the same lines without it are no headings (the test above is not passing on
    their shape alone)."""
    found = [h.title for h in find_layout_headings(extract(_plan(tmp_path, underline=False)))]
    assert found == list(SECTIONS)


def test_underlined_row_labels_of_a_table_are_no_headings(tmp_path: Path) -> None:
    """A table's row labels underlined beside their figures share their baseline: no candidates, no headings."""
    doc = extract(_plan(tmp_path, table=True))
    labels = {"Operating costs", "Capital costs", "Reserves"}
    assert not any(line.underlined for page in doc.pages for line in page.lines if line.text in labels)
    assert labels.isdisjoint(h.title for h in find_layout_headings(doc))


def test_a_long_document_is_read_past_the_sample_whatever_the_workers(tmp_path: Path) -> None:
    """Paths are read first on eight candidate pages; once they show an underline every other candidate page is
    read too, and the lines marked are the same with one extraction worker or two."""
    doc = pymupdf.open()
    for number in range(1, 25):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 80, f"Chapter {number}", size=14, bold=True) + 6
        y = paragraph(page, y, 5)
        y = _underlined(page, y + 6, f"Findings of Survey {number}") + 2
        paragraph(page, y, 6)
    path = tmp_path / "long.pdf"
    doc.save(path)
    for workers in (1, 2):
        marked = [line.text for page in extract(path, workers=workers).pages for line in page.lines if line.underlined]
        assert marked == [f"Findings of Survey {n}" for n in range(1, 25)]


def test_underlined_heads_rank_under_the_bold_sub_heads_of_their_size(tmp_path: Path) -> None:
    """A filing's or a memo's three levels: bold chapters, bold sub-heads at the body's size, and under them
    heads marked by an underline alone. Read as bold, the underlined heads had ranked with the bold sub-heads,
    one flat level; an underline alone marks the level below."""
    outline = [("Business Overview", 1), ("Segments", 2), ("Retail", 3), ("Wholesale", 3), ("Competition", 2),
               ("Risk Management", 1), ("Credit Risk", 2), ("Consumer", 3), ("Commercial", 3), ("Market Risk", 2)]
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), 80, 30)  # a page of text before: no title block
    page = doc.new_page(width=612, height=792)
    y = 80.0
    for title, level in outline:
        if level == 1 and y > 80:
            page, y = doc.new_page(width=612, height=792), 80.0
        if level == 3:
            y = _underlined(page, y + 6, title) - 4
        else:
            y = write_line(page, y + 6, title, size=14 if level == 1 else 10, bold=True) - 4
        y = paragraph(page, y + 6, 3)
    path = tmp_path / "levels.pdf"
    doc.save(path)
    found = [(h.title, h.level) for h in find_layout_headings(extract(path))]
    assert found == outline
