"""A two-column paper's section headings in small capitals (issue 11: printed headings missed, hierarchy).

IEEE's class, and a word processor's small caps, print each word's first letter at the line's size and the
rest as smaller capitals ("R" at 10 pt, "EFERENCES" at 8): read by its most-used size, the section face looks
smaller than the body. Its unnumbered headings ("REFERENCES") are centred in their column, not on the page,
and an appendix's label sits over its title in the same face; the sub-sections are italic at the body size.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import _centred, find_layout_headings
from pageindex_desktop.core.outline.rows import Row

COLUMNS = ((50.0, 282.0), (330.0, 562.0))  # each as wide as the longest line of PROSE
PROSE = ["the model was trained on the whole corpus and then", "compared with the baseline of the previous study,",
         "whose figures are reported in the tables below it."]


Piece = tuple[float, float, str, float, str]  # x, y, text, size, font


def _small_caps(y: float, text: str, left: float, right: float, size: float = 10) -> list[Piece]:
    """`text` (capitals) in made-up small capitals centred between `left` and `right`: each word's first letter
    (and a number like "II.") at `size`, the rest at 0.8 of it."""
    pieces: list[tuple[str, float]] = []
    for word in text.split():
        if word.endswith("."):
            pieces.append((word + " ", size))
        else:
            pieces += [(word[0], size), (word[1:] + " ", 0.8 * size)]
    width = sum(pymupdf.get_text_length(piece, fontname="helv", fontsize=s) for piece, s in pieces)
    x = (left + right - width) / 2
    out: list[Piece] = []
    for piece, s in pieces:
        out.append((x, y, piece, s, "helv"))
        x += pymupdf.get_text_length(piece, fontname="helv", fontsize=s)
    return out


def _print(page: pymupdf.Page, pieces: list[Piece]) -> None:
    """Put `pieces` on the page top to bottom, as a typesetter's output reads: a line of the right column is
    read before the next line of the left one."""
    for x, y, text, size, font in sorted(pieces, key=lambda piece: (piece[1], piece[0])):
        page.insert_text((x, y), text, fontsize=size, fontname=font)


def _paper(path: Path) -> Path:
    """Two pages of two columns: numbered sections in small capitals, italic sub-sections, then "REFERENCES"
    and an "APPENDIX A" label over its title, both in the section face and unnumbered."""
    blocks = [("I. INTRODUCTION", ["A. Earlier Work", "B. Our Approach"]), ("II. DATA SETS", ["A. Sources"]),
              ("III. RESULTS", ["A. Accuracy", "B. Speed"]), ("IV. DISCUSSION", []), ("REFERENCES", []),
              ("APPENDIX A", ["A. Proofs"])]
    pages: list[list[Piece]] = [[(150, 60, "Learning to Read Long Reports", 20, "hebo")]]
    column, y = 0, 80.0
    for section, subs in blocks:
        for title, kind in [(section, "section")] + [(sub, "sub") for sub in subs]:
            if y > 640:
                column, y = column + 1, 80.0
                if column == 2:
                    pages.append([])
                    column = 0
            left, right = COLUMNS[column]
            if kind == "section":
                pages[-1] += _small_caps(y + 18, title, left, right)
                y += 42
                if title == "APPENDIX A":
                    pages[-1] += _small_caps(y - 11, "SUPPORTING PROOFS", left, right)
                    y += 14
            else:
                pages[-1].append((left, y + 8, title, 10, "heit"))
                y += 22
            for line in range(8):
                pages[-1].append((left, y, PROSE[line % 3], 10, "helv"))
                y += 12.5
    doc = pymupdf.open()
    for pieces in pages:
        _print(doc.new_page(width=612, height=792), pieces)
    doc.save(path)
    return path


def test_small_capitals_read_at_their_capitals_size(tmp_path: Path) -> None:
    doc = pymupdf.open()
    _print(doc.new_page(), _small_caps(100, "VI. DISCUSSION OF RESULTS", 72, 540)
           + [(72, 130, "NASA AND ESA", 10, "helv")])  # capitals at one size
    path = tmp_path / "caps.pdf"
    doc.save(path)
    sizes = {line.text: line.size for line in extract(path).pages[0].lines}
    assert sizes == {"VI. DISCUSSION OF RESULTS": 10.0, "NASA AND ESA": 10.0}


def test_a_browsers_small_capitals_keep_the_texts_case_and_read_at_the_capitals_size(tmp_path: Path) -> None:
    """A browser prints CSS small-caps as each word's capital at the heading's size and its lower-case letters as
    smaller capitals, and the text keeps its case ("1. Discussion of results"): read by its most-used size the
    heading had been smaller than the body, and was lost. A line of capitals at one size, or of ordinary words
    at one size, keeps its size."""
    pieces: list[Piece] = []
    x = 72.0
    for text, size in (("1. D", 11.0), ("iscussion ", 7.5), ("of ", 7.5), ("r", 7.5), ("esults", 7.5)):
        pieces.append((x, 100, text, size, "hebo"))
        x += pymupdf.get_text_length(text, fontname="hebo", fontsize=size)
    doc = pymupdf.open()
    _print(doc.new_page(), pieces + [(72, 130, "the model was trained", 10, "helv")])
    path = tmp_path / "cased.pdf"
    doc.save(path)
    sizes = {line.text: line.size for line in extract(path).pages[0].lines}
    assert sizes == {"1. Discussion of results": 11.0, "the model was trained": 10.0}


def test_a_papers_sections_in_small_capitals_hold_their_sub_sections(tmp_path: Path) -> None:
    found = [(h.title, h.level) for h in find_layout_headings(extract(_paper(tmp_path / "paper.pdf")))]
    assert found == [("I. INTRODUCTION", 1), ("A. Earlier Work", 2), ("B. Our Approach", 2),
                     ("II. DATA SETS", 1), ("A. Sources", 2), ("III. RESULTS", 1), ("A. Accuracy", 2),
                     ("B. Speed", 2), ("IV. DISCUSSION", 1), ("REFERENCES", 1),
                     ("APPENDIX A SUPPORTING PROOFS", 1), ("A. Proofs", 2)]


def test_a_title_centred_in_its_column_is_judged_by_its_columns_lines() -> None:
    """Rows read top to bottom across both columns: a reference's label in the right column shares the
    baseline of the left column's "REFERENCES". The space round the title is measured to the lines of its own
    column (`layout._centred`), so the label beside it takes none of it away."""
    def row(text: str, x0: float, x1: float, y0: float) -> Row:
        return Row(text, 10.0, False, x0, y0, x1, y0 + 14, 1)

    rows = [row(PROSE[0], 50, 282, 560), row(PROSE[0], 330, 562, 560), row("REFERENCES", 137, 195, 592),
            row("[Red]", 330, 360, 592), row(PROSE[1], 50, 282, 618), row(PROSE[1], 330, 562, 618)]
    found = _centred(rows, 2, 50, 282, 10.0, lambda index: False)
    assert found is not None and found.text == "REFERENCES"
