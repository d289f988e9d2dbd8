"""Sub-headings marked by italic alone, at the body's size and weight (issue 11: printed headings missed).

A report sets its sections in large bold and their sub-sections in its text face, italic, at the body's size.
By size and weight alone they read as body lines; an italic in which the document prints only short title
lines, on two pages or more, alone on their baselines, marks them (`core/outline/heading_italic.py`), and read
as bold they rank under the upright bold sub-headings of their size.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.ingest.pdf_pages import _is_italic
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, two_levels, write_line

SECTIONS = {"Purpose of the Plan": ["Background of the plan", "Scope of Work"],
            "Implementation": ["Staffing and budget", "Schedule of Works"],
            "Monitoring": ["Reporting to the board", "Annual Review"]}


def _report(tmp_path: Path, italic: bool = True, quote: bool = False, figures: tuple[str, str] | None = None
            ) -> Path:
    """Three 16 pt bold sections, each with two sub-headings at the 10 pt body size, italic unless `italic` is
    False. With `quote`, the first section's prose is followed by a sentence set in italic; with `figures`, each
    section ends on two italic row labels with these figures on their lines."""
    doc = pymupdf.open()
    for number, (section, subs) in enumerate(SECTIONS.items()):
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, write_line(page, 80, section, size=16, bold=True) + 6, 5)
        if quote and number == 0:
            y = paragraph(page, write_line(page, y + 4, "Every team reports on its progress twice a year.",
                                           italic=True) + 4, 2)
        for sub in subs:
            y = paragraph(page, write_line(page, y + 8, sub, italic=italic) + 2, 6)
        if figures is not None:
            for label, figure in zip(("Staff employed", "Running costs"), figures):
                write_line(page, y + 6, label, italic=True)
                y = write_line(page, y + 6, figure, x=420) + 6
    path = tmp_path / "report.pdf"
    doc.save(path)
    return path


def test_italic_sub_headings_at_the_body_size_are_found_under_their_sections(tmp_path: Path) -> None:
    found = [(h.title, h.level) for h in find_layout_headings(extract(_report(tmp_path)))]
    assert found == two_levels(SECTIONS)


def test_upright_the_same_lines_are_text(tmp_path: Path) -> None:
    """Italic is the only mark: the same lines set upright are no headings (the test above does not pass on
    their shape alone)."""
    found = [h.title for h in find_layout_headings(extract(_report(tmp_path, italic=False)))]
    assert found == list(SECTIONS)


def test_an_italic_that_also_prints_a_sentence_marks_nothing(tmp_path: Path) -> None:
    """A document that sets a sentence in italic uses italic for emphasis: its short italic lines may be
    emphasised phrases too, so none is read as a heading."""
    found = [h.title for h in find_layout_headings(extract(_report(tmp_path, quote=True)))]
    assert found == list(SECTIONS)


@pytest.mark.parametrize("figures", [("1,250.5", "980.0"), ("12", "9")], ids=["cells apart", "joined counts"])
def test_italic_row_labels_beside_their_figures_mark_nothing(tmp_path: Path, figures: tuple[str, str]) -> None:
    """A table's italic row labels share their baseline with the figures (kept apart as cells, or joined to the
    label's row as a small count is, like a contents entry's page number): the italic prints table labels, and
    neither they nor the sub-headings in it are read as headings."""
    found = [h.title for h in find_layout_headings(extract(_report(tmp_path, figures=figures)))]
    assert found == list(SECTIONS)


def test_a_table_in_the_next_column_is_not_the_sub_headings(tmp_path: Path) -> None:
    """Two columns of prose; in the right one a short table of figures whose rows fall on the left column's
    baselines, the first on an italic sub-heading's: the figures are not on the sub-heading's line, so the
    italic still marks. (A cover page first: the opening page's title block is not what this test is about.)"""
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), write_line(doc[0], 300, "Depot Plan 2026", size=24, bold=True))
    prose = ["The readings were taken every morning", "and compared with the previous season,",
             "the figures kept for the annual review."]
    for section, subs in SECTIONS.items():
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 70, section, size=16, bold=True) + 6
        for number, sub in enumerate(subs):
            y += 6
            for line in range(10):
                write_line(page, y, sub if line == 0 else prose[line % 3], italic=line == 0, x=50)
                if number == 1 and line < 3:  # the table's rows, the first on the sub-heading's baseline
                    write_line(page, y, f"Depot {line + 1}", x=320)
                    write_line(page, y, f"{1000 + 37 * line:,}.5", x=500)
                else:
                    write_line(page, y, prose[(line + 1) % 3], x=320)
                y += 15
    path = tmp_path / "columns.pdf"
    doc.save(path)
    found = [(h.title, h.level) for h in find_layout_headings(extract(path))]
    assert found == two_levels(SECTIONS)


def test_italic_terms_rank_under_the_bold_heading_of_their_size(tmp_path: Path) -> None:
    """A "Glossary" in bold at the body size, then the terms it defines in italic at the same size: read as
    bold, the terms would be its siblings; they rank a level under it."""
    doc = pymupdf.open()
    terms = ["Mark-to-market net impact", "Restructuring charges"]
    for section, subs in SECTIONS.items():
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, write_line(page, 80, section, size=16, bold=True) + 6, 4)
        y = paragraph(page, write_line(page, y + 8, subs[0], bold=True) + 2, 3)
        for term in terms:
            y = paragraph(page, write_line(page, y + 8, term, italic=True) + 2, 3)
    path = tmp_path / "release.pdf"
    doc.save(path)
    found = [(h.title, h.level) for h in find_layout_headings(extract(path))]
    assert found == [entry for section, subs in SECTIONS.items()
                     for entry in [(section, 1), (subs[0], 2)] + [(term, 3) for term in terms]]


def test_extraction_reads_italic_from_the_flag_or_the_font_name(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    write_line(page, 100, "An oblique line", italic=True)
    write_line(page, 120, "An upright line")
    path = tmp_path / "faces.pdf"
    doc.save(path)
    lines = {line.text: line.italic for line in extract(path).pages[0].lines}
    assert lines == {"An oblique line": True, "An upright line": False}
    italic_names = ["MinionPro-It", "MinionPro-BoldIt", "Calibri-Italic", "NimbusRomNo9L-ReguItal", "CMTI10", "CMSL12"]
    upright_names = ["MinionPro-Regular", "Helvetica-Light", "CMR10", "CMMI10", "Arial-BoldMT"]
    assert [_is_italic({"flags": 0, "font": name}) for name in italic_names] == [True] * len(italic_names)
    assert [_is_italic({"flags": 0, "font": name}) for name in upright_names] == [False] * len(upright_names)


def _narrow_column_report(tmp_path: Path, stacked: list[str]) -> Path:
    """A report set in a narrow column, after a cover page: three 16 pt bold sections, each with two italic body-size sub-headings
    over prose; in the second section, after its sub-headings, the italic lines `stacked` one under the
    other, then prose."""
    prose = ["The readings were taken every morning", "and compared with the previous season,"]
    doc = pymupdf.open()
    paragraph(doc.new_page(width=612, height=792), write_line(doc[0], 300, "Depot Plan 2026", size=24, bold=True))
    for number, (section, subs) in enumerate(SECTIONS.items()):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 80, section, size=16, bold=True) + 6
        for sub in subs:
            y = write_line(page, y + 8, sub, italic=True) + 2
            for line in range(6):
                y = write_line(page, y, prose[line % 2])
        if number == 1:
            y += 8
            for line in stacked:
                y = write_line(page, y, line, italic=True)
            for line in range(6):
                y = write_line(page, y + 2, prose[line % 2])
    path = tmp_path / "narrow.pdf"
    doc.save(path)
    return path


def test_a_long_italic_title_wrapped_over_three_lines_still_marks(tmp_path: Path) -> None:
    """In a narrow column a long italic sub-heading wraps onto three lines, each but the last filling the
    column: one title, so the italic still prints only headings; three short italic lines stacked (a list
    of names) are text, and the italic marks nothing."""
    wrapped = ["Requirements and Procedures for the", "Community Maintenance Framework and", "Public Housing Standards"]
    found = [h.title for h in find_layout_headings(extract(_narrow_column_report(tmp_path, wrapped)))]
    assert found == [title for section, subs in SECTIONS.items()
                     for title in [section, *subs, *([" ".join(wrapped)] if section == "Implementation" else [])]]
    listed = ["Street lighting", "Parks and gardens", "Public Housing"]
    found = [h.title for h in find_layout_headings(extract(_narrow_column_report(tmp_path, listed)))]
    assert found == list(SECTIONS)
