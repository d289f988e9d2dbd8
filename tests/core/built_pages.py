"""Lines and paragraphs put on pymupdf pages for the tree tests that build their PDFs (issue 11's classes): one
body text and one way of writing a line, so the tests differ only in the headings they set."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.tree import Node

FILLER = "the measurements were taken every morning and compared with the figures of the previous season,"


def write_line(page: pymupdf.Page, y: float, text: str, size: float = 10, bold: bool = False, x: float = 72,
               italic: bool = False) -> float:
    """Put one line on the page (Helvetica, bold and oblique as asked) and return the y of the next line."""
    page.insert_text((x, y), text, fontsize=size, fontname={(False, False): "helv", (True, False): "hebo",
                                                            (False, True): "heit", (True, True): "hebi"}[bold, italic])
    return y + size * 1.5


def layout_titles(doc: pymupdf.Document, tmp_path: Path, name: str) -> list[str]:
    """The layout headings' titles of `doc` once saved as `name` and extracted."""
    path = tmp_path / name
    doc.save(path)
    return [h.title for h in find_layout_headings(extract(path))]


def paragraph(page: pymupdf.Page, y: float, lines: int = 8) -> float:
    """A paragraph of body text from `y`; returns the y below it."""
    for i in range(lines):
        y = write_line(page, y, FILLER.capitalize() if i == 0 else FILLER)
    return y + 4


def two_levels(sections: dict[str, list[str]]) -> list[tuple[str, int]]:
    """(title, level) of each section at level 1 followed by its sub-sections at level 2, in reading order: what
    a two-level document's layout headings should read."""
    expected = []
    for section, subs in sections.items():
        expected.append((section, 1))
        expected.extend((sub, 2) for sub in subs)
    return expected


def tree_rows(path: Path) -> tuple[str, list[tuple[str, int]]]:
    """The source of the tree built for `path` with its bookmarks ignored, and (title, start page) of every node
    in reading order: what a contents-page test compares with the entries it printed."""
    outline = build_outline(extract(path), use_bookmarks=False)
    rows: list[tuple[str, int]] = []

    def visit(nodes: list[Node]) -> None:
        for node in nodes:
            rows.append((node.title, node.start_page))
            visit(node.children)

    visit(outline.nodes)
    return outline.source, rows
