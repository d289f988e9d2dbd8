"""Sub-headings marked by an underline alone, at the body's size and weight (issue 11: printed headings missed).

A memo's or a plan's "Background" is set like its text with a rule drawn under it. Extraction finds the rule
(`core/ingest/underlines.py`); layout reads such a row as emphasised, as it reads a bold one.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line

SECTIONS = {"Purpose of the Plan": ["Background", "Scope of Work"],
            "Implementation": ["Staffing and Budget", "Schedule"],
            "Monitoring": ["Reporting", "Review"]}


def _underlined(page: pymupdf.Page, y: float, text: str, size: float = 10) -> float:
    """A line in the body's regular face with a rule drawn right under its words."""
    page.insert_text((72, y), text, fontsize=size, fontname="helv")
    width = pymupdf.get_text_length(text, "helv", size)
    page.draw_line((72, y + 1.5), (72 + width, y + 1.5), width=0.6)
    return y + size * 1.5


def _plan(tmp_path: Path, underline: bool = True, table: bool = False) -> Path:
    """Three bold chapters, each with two sub-headings underlined (or, with `underline` off, plain) over
    prose; with `table`, a page of a table whose row labels are underlined beside their figures."""
    doc = pymupdf.open()
    for chapter, subs in SECTIONS.items():
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 80, chapter, size=14, bold=True) + 6
        y = paragraph(page, y, 6)
        for sub in subs:
            y = (_underlined(page, y + 6, sub) if underline else write_line(page, y + 6, sub)) + 2
            y = paragraph(page, y, 6)
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
    expected = []
    for chapter, subs in SECTIONS.items():
        expected.append((chapter, 1))
        expected.extend((sub, 2) for sub in subs)
    assert found == expected


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
