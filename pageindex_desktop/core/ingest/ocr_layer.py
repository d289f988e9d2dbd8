"""An invisible text layer for pages read by OCR, so the viewer can select, copy, find and highlight their words.

The recognised words (`TextPage.extractWORDS()` of the OCR text page; like all MuPDF text extraction, in the
unrotated page's coordinates) are written as text in render mode 3 (neither filled nor stroked: what OCR tools put over a scan), each word at its
own box: the font size fills the box's height and the glyphs are stretched sideways to its width, so MuPDF's
text extraction in the render process gives back boxes over the printed words. The scan's image and the rest of
the page's content are left as they are; only a text object is added. Runs in the extraction child (pymupdf).

Helvetica (MuPDF's built-in Nimbus Sans: Latin, Greek, Cyrillic) is used for words it can draw, MuPDF's built-in
CJK font for the rest; both are embedded as Unicode fonts (the text maps back to the characters Tesseract read),
once per document (Helvetica adds about 45 KB; the CJK font, only when a word needs it, about 3.5 MB: fonts are not
subset, since `Document.subset_fonts` would rewrite the fonts of the document's own text pages too).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import pymupdf
from pymupdf import mupdf

Word = tuple[float, float, float, float, str]  # x0, y0, x1, y1 in displayed page coordinates, the word
INVISIBLE = 3  # PDF text render mode: neither fill nor stroke


@lru_cache(maxsize=2)
def _font(name: str) -> pymupdf.Font:
    """A built-in font, loaded once per process."""
    return pymupdf.Font(name)


def font_for(word: str) -> pymupdf.Font:
    """Helvetica when it has a glyph for every character of `word`, else the CJK font (which covers more)."""
    latin = _font("helv")
    if all(latin.has_glyph(ord(c)) for c in word):
        return latin
    return _font("cjk")


def add_words(page: pymupdf.Page, words: Sequence[Sequence[object]]) -> int:
    """Write `words` (rows of extractWORDS: x0, y0, x1, y1, text, ...) onto `page` as invisible text; returns how
    many were placed. A rotated page is written in its unrotated space with the words turned to match, so they
    land on the printed words whichever way the page is shown."""
    rotation = page.rotation
    shown = page.rotation_matrix  # unrotated → displayed page coordinates (read before the rotation changes)
    derotate = page.derotation_matrix  # and back
    if rotation:
        page.set_rotation(0)
    try:
        writer = pymupdf.TextWriter(page.rect)
        flip = pymupdf.Matrix(1, 0, 0, -1, 0, page.rect.height)  # unrotated page space (y down) → PDF space (y up)
        language = mupdf.fz_text_language_from_string(None)
        placed = 0
        for row in words:
            box = pymupdf.Rect(*(float(v) for v in row[:4])) * shown  # type: ignore[arg-type]
            x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1  # the word as read: left to right on the shown page
            text = str(row[4]).strip()
            font = font_for(text)
            natural = font.text_length(text, fontsize=1.0)
            extent = font.ascender - font.descender
            if not text or natural <= 0 or extent <= 0 or x1 <= x0 or y1 <= y0:
                continue
            size = (y1 - y0) / extent
            stretch = (x1 - x0) / (natural * size)
            baseline = y1 + font.descender * size  # descender is negative: the baseline sits above the box's foot
            # glyph space (y up) → displayed page (y down) → unrotated page → PDF space
            trm = pymupdf.Matrix(size * stretch, 0, 0, -size, x0, baseline) * derotate * flip
            mupdf.fz_show_string(writer.this, font.this, mupdf.FzMatrix(*trm), text, 0, 0, 0, language)
            placed += 1
        if placed:
            writer.write_text(page, render_mode=INVISIBLE)
            _compress(page, page.get_contents()[-1])  # the stream just appended: ~100 bytes a word uncompressed
        return placed
    finally:
        if rotation:
            page.set_rotation(rotation)


def _compress(page: pymupdf.Page, xref: int) -> None:
    """Deflate one content stream of the page (the layer's), leaving every other stream of the file as it was."""
    doc = page.parent
    doc.update_stream(xref, doc.xref_stream(xref), compress=True)
