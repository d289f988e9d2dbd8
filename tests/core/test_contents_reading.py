"""Issue 11 class 5 (contents pages), on PDFs built here: a contents entry wrapped over three lines of a narrow
column is one entry."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.toc_page import find_toc_entries
from tests.core.built_pages import paragraph, write_line

WRAPPED = [("1. Governance and the quality", "inspection of the supply network", "and its reservoirs"),
           ("2. Financial review of the", "capital programme and the renewal", "of the older mains")]


def test_a_title_wrapped_over_three_lines_of_a_narrow_column_is_one_entry(tmp_path: Path) -> None:
    """A contents list in the left column of a two-column page: each long title wraps over three lines and
    its page number stands on the last."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of the Water Board", size=24, bold=True)
    contents = doc.new_page(width=612, height=792)
    y = write_line(contents, 90, "Contents", size=18, bold=True) + 10
    for number, lines in enumerate(WRAPPED + [("3. Outlook",)], start=3):
        for line in lines:
            contents.insert_text((72, y), line, fontsize=11, fontname="hebo")
            y += 16
        contents.insert_text((286 - pymupdf.get_text_length(str(number), "hebo", 11), y - 16), str(number),
                             fontsize=11, fontname="hebo")
        y += 6
    for lines in WRAPPED + [("3. Outlook",)]:
        page = doc.new_page(width=612, height=792)
        paragraph(page, write_line(page, 90, " ".join(lines), size=16, bold=True) + 6, 20)
    path = tmp_path / "wrapped.pdf"
    doc.save(path)
    entries = find_toc_entries(extract(path)) or []
    assert [(h.title, h.page) for h in entries if h.title != "Contents"] == [
        (" ".join(WRAPPED[0]), 3), (" ".join(WRAPPED[1]), 4), ("3. Outlook", 5)]
