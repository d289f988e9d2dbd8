"""Issue 11 class 1 on a PDF built here: an API reference titles each entry by the member's name alone, set in
code type larger than the text ("flush()", "Client.connect(host, port)"): no title case marks it, and it was
no heading, so its "Parameters" and "Returns" hung from the chapter. A code listing's lines, names too, set at
the text's size (bold or not), stay text."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.core.built_pages import paragraph, write_line

MEMBERS = ["Client.connect(host, port)", "flush()", "read_config", "mylib::Buffer"]
PARTS = ["Parameters", "Returns"]
CHAPTERS = ["Client Interface", "Buffers and Settings"]
LISTING = ["client = Client()", "client.connect(host, 5432)", "flush()", "print(row)"]


def _code(page: pymupdf.Page, y: float, text: str, size: float, bold: bool = False) -> float:
    """A line in Courier (bold when asked); returns the y of the next line."""
    page.insert_text((72, y), text, fontsize=size, fontname="cobo" if bold else "cour")
    return y + size * 1.5


def test_an_api_entry_titled_by_a_members_name_is_a_section(tmp_path: Path) -> None:
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Relay Toolkit Reference Manual", size=26, bold=True)
    page = doc[0]
    y = 0.0
    for n, member in enumerate(MEMBERS):
        if n % 2 == 0:  # a chapter of two entries on each page
            page = doc.new_page(width=612, height=792)
            y = write_line(page, 80, CHAPTERS[n // 2], size=18, bold=True) + 4
            y = paragraph(page, y, 4)
        y = _code(page, y + 8, member, 13, bold=True) + 2
        y = paragraph(page, y, 3)
        for part in PARTS:
            y = write_line(page, y + 4, part, size=11, bold=True) + 2
            y = paragraph(page, y, 2)
        for k, line in enumerate(LISTING):  # an example: names at the text's size, the first one bold
            y = _code(page, y, line, 10, bold=k == 1)
        y += 6
    path = tmp_path / "reference.pdf"
    doc.save(path)
    found = [(h.level, h.title) for h in find_layout_headings(extract(path))]
    top = found[0][0]
    expected = []
    for n, member in enumerate(MEMBERS):
        expected += [(1, CHAPTERS[n // 2])] if n % 2 == 0 else []
        expected += [(2, member)] + [(3, part) for part in PARTS]
    assert [(level - top + 1, title) for level, title in found] == expected
