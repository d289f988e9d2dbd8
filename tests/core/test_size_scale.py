"""Issue 11: one heading style is one size however the extraction or a scaled page sets it off-grid
(size_scale.py). Each test builds its PDF with pymupdf."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.analysis import analyse
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.size_scale import size_scale

FILLER = "the measurements were taken every morning and compared with the figures of the previous season,"
CHAPTERS = {
    "Rivers and Their Floods": ["Spring Floods in the Valley", "Summer Levels of the River"],
    "Soils of the Lower Plain": ["Clay Along the Banks", "Sand on the Higher Ground"],
    "Crops and the Harvest": ["Wheat on the Open Fields", "Orchards Near the Town"],
}


def _line(page: pymupdf.Page, y: float, text: str, size: float, bold: bool = False) -> float:
    """Put one line on the page and return the y of the next line."""
    page.insert_text((72, y), text, fontsize=size, fontname="hebo" if bold else "helv")
    return y + size * 1.5


def _paragraph(page: pymupdf.Page, y: float, size: float = 10, lines: int = 6) -> float:
    """A paragraph of body text at `size` from `y`; returns the y below it."""
    for i in range(lines):
        y = _line(page, y, FILLER.capitalize() if i == 0 else FILLER, size)
    return y + 4


def _report(chapter_sizes: list[float], section_size: float) -> pymupdf.Document:
    """A title page, then one page per chapter: its title in bold at its size from `chapter_sizes`, then two
    bold sections."""
    doc = pymupdf.open()
    cover = doc.new_page(width=612, height=792)
    _paragraph(cover, _line(cover, 120, "Field Notes from the Valley", 24, bold=True) + 20)
    for (chapter, sections), size in zip(CHAPTERS.items(), chapter_sizes):
        page = doc.new_page(width=612, height=792)
        y = _paragraph(page, _line(page, 80, chapter, size, bold=True) + 6)
        for section in sections:
            y = _paragraph(page, _line(page, y + 8, section, section_size, bold=True) + 4)
    return doc


def _tree(doc: pymupdf.Document, path: Path) -> list[tuple[str, int]]:
    """(title, level) of the layout headings of `doc` saved at `path`."""
    doc.save(path)
    return [(h.title, h.level) for h in find_layout_headings(extract(path))]


def _built(path: Path) -> list[tuple[int, str, int]]:
    """(level, title, start page) of every node of the tree the app builds for the PDF at `path`."""
    rows: list[tuple[int, str, int]] = []
    stack = list(reversed(build_outline(extract(path), use_bookmarks=False).nodes))
    while stack:
        node = stack.pop()
        rows.append((node.level, node.title, node.start_page))
        stack.extend(reversed(node.children))
    return rows


def _expected() -> list[tuple[str, int]]:
    return [pair for chapter, sections in CHAPTERS.items() for pair in [(chapter, 1), *((s, 2) for s in sections)]]


def test_a_document_printed_at_97_percent_gives_the_same_tree(tmp_path: Path) -> None:
    """Chapters at 14.5 pt over sections at 13.5 pt (InDesign sizes). Keyed by whole points both were 14, one
    level; scaled to 97 % (a Letter page fitted to A4: 14.07 and 13.10) they were 14 and 13, two levels. The
    size clusters keep 14.5 and 13.5 apart at any scale."""
    plain = _report([14.5] * 3, 13.5)
    scaled = pymupdf.open()
    for page in plain:
        target = scaled.new_page(width=page.rect.width, height=page.rect.height)
        target.show_pdf_page(pymupdf.Rect(0, 0, 0.97 * page.rect.width, 0.97 * page.rect.height), plain, page.number)
    assert _tree(plain, tmp_path / "plain.pdf") == _expected()
    assert _tree(scaled, tmp_path / "scaled.pdf") == _expected()
    assert _built(tmp_path / "scaled.pdf") == _built(tmp_path / "plain.pdf")


def test_a_heading_style_at_14_4_and_14_6_is_one_level(tmp_path: Path) -> None:
    """One chapter style that the extraction gives at 14.4 pt and 14.6 pt: rounded, they were 14 and 15, and the
    14.4 chapters became children of the 14.6 one."""
    assert _tree(_report([14.6, 14.4, 14.4], 12), tmp_path / "split.pdf") == _expected()


def test_body_size_heads_at_10_4_and_10_6_over_a_10_5_body_are_one_level(tmp_path: Path) -> None:
    """A Word body at 10.5 pt whose bold run-level heads come out at 10.4 and 10.6: rounded, 10 and 11 ranked
    as two levels; the cluster around 10.5 makes them one style, and the body is that one size."""
    doc = pymupdf.open()
    heads = ["Spring Floods in the Valley", "Summer Levels of the River", "Clay Along the Banks",
             "Sand on the Higher Ground"]
    for k, head in enumerate(heads):
        page = doc.new_page(width=612, height=792)
        y = _paragraph(page, 80, 10.5)
        y = _paragraph(page, _line(page, y + 8, head, 10.6 if k % 2 else 10.4, bold=True) + 2, 10.5)
        _paragraph(page, y, 10.4 if k % 2 else 10.6, lines=2)
    path = tmp_path / "word.pdf"
    doc.save(path)
    extracted = extract(path)
    assert analyse(extracted).body_size == 10.5
    assert [(h.title, h.level) for h in find_layout_headings(extracted)] == [(h, 1) for h in heads]


def test_an_off_grid_body_split_across_half_points_is_one_body(tmp_path: Path) -> None:
    """A body at 10.25 pt that the extraction gives at 10.2 and 10.3 (half points: 10 and 10.5) beside 8 pt
    notes that outweigh either half: counted by half points the notes were the body and every text line read
    as larger than it; the body's cluster outweighs the notes."""
    doc = pymupdf.open()
    for k in range(4):
        page = doc.new_page(width=612, height=792)
        y = _paragraph(page, 80, 10.2, lines=5)
        y = _paragraph(page, y, 10.3, lines=5)
        _paragraph(page, y + 10, 8, lines=7)
    path = tmp_path / "notes.pdf"
    doc.save(path)
    assert analyse(extract(path)).body_size in (10.2, 10.3)


def test_sizes_that_differ_stay_apart_and_runs_do_not_chain() -> None:
    """10 and 10.5, 12 and 14 are different sizes; a run 10.0, 10.2, 10.4, 10.6 is not one cluster."""
    scale = size_scale([(10.0, 900), (10.5, 300), (12.0, 50), (14.0, 20), (14.4, 5), (14.6, 5)])
    assert [scale.key(s) for s in (10.0, 10.5, 12.0, 14.0, 14.4, 14.6)] == [10.0, 10.5, 12.0, 14.0, 14.4, 14.4]
    run = size_scale([(10.0, 100), (10.2, 10), (10.4, 10), (10.6, 10)])
    assert run.key(10.2) == 10.0 and run.key(10.6) != 10.0


def test_a_captions_second_line_at_a_noisy_size_stays_in_the_caption(tmp_path: Path) -> None:
    """A bold figure caption whose two lines come out at 9.4 and 9.6 pt: compared size for size, the second
    line was no caption line and its title-case words made a heading."""
    doc = _report([16] * 3, 12)
    page = doc[2]
    y = _line(page, 560, "Figure 2. Water Levels at the Gauge", 9.4, bold=True)
    _line(page, y, "Measured at the Northern Bridge", 9.6, bold=True)
    assert _tree(doc, tmp_path / "caption.pdf") == _expected()
