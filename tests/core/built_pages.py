"""Lines and paragraphs put on pymupdf pages for the tree tests that build their PDFs (issue 11's classes): one
body text and one way of writing a line, so the tests differ only in the headings they set."""

from __future__ import annotations

import pymupdf

FILLER = "the measurements were taken every morning and compared with the figures of the previous season,"


def write_line(page: pymupdf.Page, y: float, text: str, size: float = 10, bold: bool = False, x: float = 72) -> float:
    """Put one line on the page and return the y of the next line."""
    page.insert_text((x, y), text, fontsize=size, fontname="hebo" if bold else "helv")
    return y + size * 1.5


def paragraph(page: pymupdf.Page, y: float, lines: int = 8) -> float:
    """A paragraph of body text from `y`; returns the y below it."""
    for i in range(lines):
        y = write_line(page, y, FILLER.capitalize() if i == 0 else FILLER)
    return y + 4
