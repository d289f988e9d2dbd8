"""Text in Type 3 fonts whose scale MuPDF cannot read: lines rebuilt and sized from where the glyphs stand.

Old TeX documents made by dvips with bitmap fonts and turned into PDF by Ghostscript set every glyph in a Type 3
font whose glyph space is the printer's pixels: the font matrix is the identity and the size given to `Tf` is
one pixel (0.12 pt at 600 dpi). MuPDF takes that pixel for the font size, so every span reports a size of about
0.1 pt and a box of no height, and since the space between two words is then hundreds of "ems" wide, each word
(each piece of a word between two kerns) comes out as a line of its own. The page text read "Supp ose w e w ere
to dra w", every line had the same size, no heading could be told from the body, and the document got no tree.

The advances are right, though: each glyph stands where the printer put it. So on a page whose text blocks
average under MIN_LINE_HEIGHT pt of height per line (`has_broken_scale`: no readable text is that small), every
span of under MAX_BROKEN_SIZE pt whose glyphs advance more than BROKEN_ADVANCE times that size is re-read here:

- the pieces on one baseline that follow each other in the content stream's order are joined into one line
  (columns stay apart: a piece further than JOIN_GAP ems from the last one starts a new line), with a space
  where the gap is over SPACE_GAP ems (a kern inside a word is far less, an inter-word space far more);
- a line's size is the width its glyphs print at over the width the same text has in a reference font (Times)
  at 1 pt: an em measured from the advances, which puts one font's lines at one size and a larger font's
  above them (a bold font, wider, reads a little larger, as a heading should). Measured per line it depends
  on the letters (an "m" is wider than an "i"), so `settle_sizes` measures each font once over the whole
  document, after every page is read (the same for any number of extraction workers), and gives all its lines
  that size (a font set in running lines is sized by its leading against the body's instead, and one set inside
  the body's lines takes the body's size: see `settle_sizes`);
- a line's box is its baseline less ASCENT ems above to DESCENT ems below it;
- the page's text is rebuilt from those lines, a blank line between paragraphs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from statistics import median
from typing import Any

import pymupdf

from pageindex_desktop.core.document import GlyphScale, Line, PageData
from pageindex_desktop.core.ingest.text_clean import clean_text

# pdf_pages' maker of a Line from one MuPDF line's spans and box (None for a blank line)
LineMaker = Callable[[list[dict[str, Any]], tuple[float, float, float, float]], "Line | None"]

MIN_LINE_HEIGHT = 0.3  # points of block height per text line, on average over a page: no readable text is lower
MIN_LINES = 3  # text lines a page needs before its heights say anything
MAX_BROKEN_SIZE = 1.0  # points: a span reported smaller than this ...
BROKEN_ADVANCE = 3.0  # ... whose glyphs advance more than this many times its size per character
SPACE_GAP = 0.12  # ems between two pieces on a baseline that make a space between words
JOIN_GAP = 1.5  # ems: a piece further than this from the line's end starts a new line (another column, a cell)
SAME_BASELINE = 0.2  # ems: pieces whose baselines differ by this much or less sit on one line
ASCENT = 0.8  # ems above the baseline that a line's box takes in
DESCENT = 0.2  # ems below it
PARAGRAPH_STEP = 1.6  # ems from one baseline to the next: more is a new paragraph
SAME_SIZE = 1.25  # lines whose sizes (as measured on their page alone) differ more are a heading and its text
REFERENCE_FONT = "tiro"  # Times-Roman, one of PDF's base fonts: every MuPDF has its widths
LEADING_STEPS = 3  # line-to-line steps a font needs before its leading sizes it (a short listing has them)
LEADING_RANGE = (0.8, 2.0)  # ems (by advances) from one baseline to the next that are a paragraph's leading
INLINE_LINES = 3  # a font on this many lines beside the body font is set in the body's lines, at its size
# Ghostscript names a bitmap font's digit glyphs "/1" ... "/9" and MuPDF, reading a glyph name that is a
# number as the character's code, gives U+0001 ... U+0009 for them: in these fonts they are the digits
_DIGIT_NAMES = {code: str(code) for code in range(1, 10)}


@dataclass
class _Piece:
    """One span of a broken-scale font: its text, font, horizontal extent and baseline."""

    text: str
    font: str
    x0: float
    x1: float
    base: float
    reference: float  # the text's width in REFERENCE_FONT at 1 pt
    color: int


@dataclass
class _Building:
    """A line being gathered from pieces."""

    pieces: list[_Piece] = field(default_factory=list)
    text: str = ""
    width: float = 0.0  # the pieces' printed widths, summed as they are added
    reference: float = 0.0  # their widths in the reference font at 1 pt

    def add(self, piece: _Piece, space: bool) -> None:
        """Put `piece` at the line's end, after a space when `space`."""
        self.text += (" " if space else "") + piece.text
        self.pieces.append(piece)
        self.width += piece.x1 - piece.x0
        self.reference += piece.reference

    @property
    def em(self) -> float:
        """The line's em so far, from its pieces' advances against the reference font."""
        return self.width / self.reference if self.reference > 0 else 0.0


def has_broken_scale(blocks: list[tuple[Any, ...]]) -> bool:
    """True when a page's text blocks (MuPDF's `extractBLOCKS`) are too low for their lines to be real text: a
    Type 3 font MuPDF reads at a pixel's size (see the module docstring). Cheap: only such pages pay for more."""
    height = 0.0
    lines = 0
    for block in blocks:
        if block[6] == 0:
            height += block[3] - block[1]
            lines += block[4].count("\n") + 1
    return lines >= MIN_LINES and height < MIN_LINE_HEIGHT * lines


def _is_broken(span: dict[str, Any]) -> bool:
    """A span reported at under MAX_BROKEN_SIZE pt whose glyphs advance far more than that."""
    text = span["text"].strip()
    size = span["size"]
    if not text or size >= MAX_BROKEN_SIZE:
        return False
    return span["bbox"][2] - span["bbox"][0] > BROKEN_ADVANCE * max(size, 0.01) * len(text)


def rebuild_lines(data: dict[str, Any], line_of: LineMaker) -> list[Line]:
    """The page's lines from a MuPDF dict walk (`extractDICT`) with broken-scale pieces joined into lines and
    sized from their advances; other lines are made by `line_of(spans, bbox)` as on any page, in their order."""
    lines: list[Line] = []
    building: _Building | None = None

    def close() -> None:
        nonlocal building
        if building is not None and building.text.strip():
            lines.append(_line(building))
        building = None

    for block in data["blocks"]:
        if block.get("type", 0) != 0:
            continue
        for raw in block["lines"]:
            spans = raw["spans"]
            if not any(_is_broken(span) for span in spans):
                close()
                line = line_of(spans, raw["bbox"])
                if line is not None:
                    lines.append(line)
                continue
            for span in spans:
                piece = _piece(span)
                if piece is None:
                    continue
                if building is not None and _continues(building, piece):
                    building.add(piece, piece.x0 - building.pieces[-1].x1 > SPACE_GAP * building.em)
                else:
                    close()
                    building = _Building()
                    building.add(piece, False)
    close()
    return lines


def _piece(span: dict[str, Any]) -> _Piece | None:
    """A span as a piece of a line, its digits restored (`_DIGIT_NAMES`); None when it prints nothing."""
    text = clean_text(span["text"].translate(_DIGIT_NAMES))
    if not text:
        return None
    reference = pymupdf.get_text_length(text, fontname=REFERENCE_FONT, fontsize=1)
    if reference <= 0:
        return None
    x0, _, x1, _ = span["bbox"]
    return _Piece(text, span["font"], x0, x1, span["origin"][1], reference, span["color"])


def _continues(line: _Building, piece: _Piece) -> bool:
    """True when `piece` goes on `line`: the same baseline, starting near where the line ends."""
    last = line.pieces[-1]
    em = line.em or 1.0
    return abs(piece.base - last.base) <= SAME_BASELINE * em and -0.3 * em <= piece.x0 - last.x1 <= JOIN_GAP * em


def _line(line: _Building) -> Line:
    """A Line from gathered pieces, sized by its own em until `settle_sizes` sizes its font."""
    chars: dict[str, int] = defaultdict(int)
    for piece in line.pieces:
        chars[piece.font] += len(piece.text)
    font = max(chars, key=lambda name: chars[name])
    own = [p for p in line.pieces if p.font == font]
    width = sum(p.x1 - p.x0 for p in own)
    reference = sum(p.reference for p in own)
    em = width / reference
    base = line.pieces[0].base
    evidence = GlyphScale(font, width, reference, chars[font], tuple(sorted(set(chars) - {font})))
    return Line(line.text, round(em, 1), False, line.pieces[0].x0, base - ASCENT * em, line.pieces[-1].x1,
                base + DESCENT * em, line.pieces[0].color, scale=evidence)


def blocks_of(lines: list[Line]) -> list[tuple[Any, ...]]:
    """Rebuilt lines grouped as MuPDF's `extractBLOCKS` groups lines, for pdf_pages' text joiner: lines of
    about one size whose baselines follow at most PARAGRAPH_STEP ems apart and that overlap across are one
    block."""
    blocks: list[tuple[Any, ...]] = []
    group: list[Line] = []

    def close() -> None:
        if group:
            blocks.append((min(g.x0 for g in group), group[0].y0, max(g.x1 for g in group), group[-1].y1,
                           "\n".join(g.text for g in group), len(blocks), 0))
        group.clear()

    for line in lines:
        if group:
            last = group[-1]
            step = line.y1 - last.y1
            low, high = sorted((line.size, last.size))
            if not (0 < step <= PARAGRAPH_STEP * low and high <= SAME_SIZE * low and
                    max(last.x0, line.x0) < min(last.x1, line.x1)):
                close()
        group.append(line)
    close()
    return blocks


def settle_sizes(pages: list[PageData]) -> None:
    """Give every rebuilt line its font's size measured over the whole document, its box re-drawn around its
    baseline at that size; a no-op for documents without such lines.

    A font's size is first its advances against Times (`_advance_ems`). Against Roman Times an italic or a
    fixed-pitch font measures larger than it is, and its lines (an emphasised passage, a code listing) would
    read as headings; but set in running lines, a font shows its size by its leading too. So a font set in
    LEADING_STEPS steps or more from one line of it to the next is sized from the body's: the body font's
    size times the ratio of the two leadings (equal leading, equal size); a font seen in single lines only (a
    heading) keeps its measure by advances, unless it shares INLINE_LINES lines or more with the body font: a
    word set in it inside the body's lines (emphasis, a run-in head, code in a sentence) is at the body's size.
    """
    ems = _advance_ems(pages)
    if not ems:
        return
    steps = _leading_steps(pages, ems)
    body = max(ems, key=lambda font: ems[font][1])
    body_leading = median(steps[body]) if len(steps[body]) >= LEADING_STEPS else 0.0
    inline = _sharing_lines(pages, body)
    for font in ems:
        if font == body:
            continue
        if body_leading and len(steps[font]) >= LEADING_STEPS:
            ems[font] = (ems[body][0] * median(steps[font]) / body_leading, ems[font][1])
        elif inline[font] >= INLINE_LINES:
            ems[font] = ems[body]
    for page in pages:
        for i, line in enumerate(page.lines):
            if line.scale is not None and line.scale[0] in ems:
                em = ems[line.scale[0]][0]
                base = _baseline(line)
                page.lines[i] = replace(line, size=round(em, 1), y0=base - ASCENT * em, y1=base + DESCENT * em)


def _advance_ems(pages: list[PageData]) -> dict[str, tuple[float, int]]:
    """Per font of the rebuilt lines: (its em by its advances against Times over the document, characters)."""
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for page in pages:
        for line in page.lines:
            if line.scale is not None:
                font, width, reference, chars, _ = line.scale
                total = totals[font]
                total[0] += width
                total[1] += reference
                total[2] += chars
    return {font: (width / reference, int(chars)) for font, (width, reference, chars) in totals.items()
            if reference > 0}


def _sharing_lines(pages: list[PageData], body: str) -> dict[str, int]:
    """Per font: how many rebuilt lines it shares with the body font."""
    shared: dict[str, int] = defaultdict(int)
    for page in pages:
        for line in page.lines:
            if line.scale is not None:
                fonts = {line.scale.font, *line.scale.others}
                if body in fonts:
                    for font in fonts - {body}:
                        shared[font] += 1
    return shared


def _baseline(line: Line) -> float:
    return line.y1 - DESCENT * line.size


def _leading_steps(pages: list[PageData], ems: dict[str, tuple[float, int]]) -> dict[str, list[float]]:
    """Per font: the baseline steps from a rebuilt line of it to the next line of it right under it in the
    same column (a step of LEADING_RANGE ems of the font's advance size: lines of one paragraph or listing)."""
    steps: dict[str, list[float]] = defaultdict(list)
    for page in pages:
        for above, below in zip(page.lines, page.lines[1:]):
            if above.scale is None or below.scale is None or above.scale[0] != below.scale[0]:
                continue
            font = above.scale[0]
            step = _baseline(below) - _baseline(above)
            low, high = LEADING_RANGE
            if low * ems[font][0] <= step <= high * ems[font][0] and max(above.x0, below.x0) < min(above.x1, below.x1):
                steps[font].append(step)
    return steps
