"""Sub-headings marked by a small size step alone: regular weight, a point over the body (issue 11: printed
headings missed).

A report sets its sections in large bold and their sub-sections in its text face at 11 pt over a 10 pt body.
By size and weight alone the sub-headings read as body lines; a size in which the document prints only short
title lines, on two pages or more, marks them (`core/outline/heading_size.py`).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import FILLER, paragraph, two_levels, write_line

SECTIONS = {"Purpose of the Plan": ["Background of the plan", "Scope of Work"],
            "Implementation": ["Staffing and budget", "Schedule of Works"],
            "Monitoring": ["Reporting to the board", "Annual Review"]}


def _report(tmp_path: Path, sub_size: float = 11, lead_size: float | None = None,
            table_size: float | None = None, minor_size: float | None = None) -> Path:
    """Three 16 pt bold sections, each with two regular sub-headings at `sub_size` over 10 pt prose. With
    `lead_size`, each section's first paragraph is followed by a two-line pull quote at that size; with
    `table_size`, each section ends on a four-row table of short labels set at that size; with `minor_size`,
    each sub-section holds two bold minor headings at that size, with longer titles."""
    doc = pymupdf.open()
    for section, subs in SECTIONS.items():
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, write_line(page, 80, section, size=16, bold=True) + 6, 5)
        if lead_size is not None:
            y = write_line(page, y + 4, "The plan sets out what the authority will deliver over the five years,",
                           size=lead_size)
            y = write_line(page, y, "and how each of its teams will report on the progress made.", size=lead_size) + 4
            y = paragraph(page, y, 3)
        for sub in subs:
            y = write_line(page, y + 8, sub, size=sub_size) + 2
            y = paragraph(page, y, 6 if minor_size is None else 2)
            for minor in ("Costs and funding of the work", "Risks and their management") if minor_size else ():
                y = paragraph(page, write_line(page, y + 6, minor, size=minor_size, bold=True) + 2, 2)
        if table_size is not None:
            for label, figure in (("Staff", "12"), ("Vehicles", "4"), ("Depots", "2"), ("Offices", "3")):
                write_line(page, y + 6, label, size=table_size)
                y = write_line(page, y + 6, figure, size=table_size, x=420) - 6
    path = tmp_path / "report.pdf"
    doc.save(path)
    return path


def test_sub_headings_a_point_over_the_body_are_found_under_their_sections(tmp_path: Path) -> None:
    found = [(h.title, h.level) for h in find_layout_headings(extract(_report(tmp_path)))]
    assert found == two_levels(SECTIONS)


def test_at_the_body_size_the_same_lines_are_text(tmp_path: Path) -> None:
    """The size step is the only mark: the same lines at 10 pt are no headings (the test above is not passing on
    their shape alone)."""
    found = [h.title for h in find_layout_headings(extract(_report(tmp_path, sub_size=10)))]
    assert found == list(SECTIONS)


def test_a_size_that_also_prints_prose_marks_nothing(tmp_path: Path) -> None:
    """A pull quote set at 11 pt: the size prints text, so its short lines are no headings either."""
    found = [h.title for h in find_layout_headings(extract(_report(tmp_path, lead_size=11)))]
    assert found == list(SECTIONS)


def test_a_size_that_also_sets_a_table_marks_nothing(tmp_path: Path) -> None:
    """Short labels one under the other at 11 pt (a table's rows): a run of rows, not headings."""
    found = [h.title for h in find_layout_headings(extract(_report(tmp_path, table_size=11)))]
    assert found == list(SECTIONS)


def test_short_lines_set_larger_on_one_page_are_no_headings(tmp_path: Path) -> None:
    """A document that sets three short remarks a point over its body, all on one page, has no heading size: a
    style seen on one page is too little evidence."""
    doc = pymupdf.open()
    for number, section in enumerate(SECTIONS):
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, write_line(page, 80, section, size=16, bold=True) + 6, 8)
        if number == 1:
            for remark in ("Figures are provisional", "Subject to audit", "Rounded to whole pounds"):
                y = paragraph(page, write_line(page, y + 8, remark, size=11) + 2, 3)
        write_line(page, y, FILLER)
    path = tmp_path / "remarks.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == list(SECTIONS)


def test_sub_headings_sharing_a_size_cluster_with_larger_bold_heads_are_found(tmp_path: Path) -> None:
    """Regular 11 pt sub-headings beside bold minor headings at 11.3 pt: one size cluster, keyed at 11.3, larger
    than the body by the layout's measure, while each 11 pt row is not. The step is judged on each row's own
    size, so the 11 pt rows are still marked."""
    titles = [h.title for h in find_layout_headings(extract(_report(tmp_path, minor_size=11.3)))]
    assert all(sub in titles for subs in SECTIONS.values() for sub in subs)
