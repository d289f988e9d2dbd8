"""Bitmap-font TeX documents (dvips through Ghostscript): Type 3 fonts MuPDF reads at a pixel's size
(core/ingest/glyph_scale.py, issue 11: such a document got no tree at all).

The PDFs are built here the way Ghostscript writes them: each font a Type 3 font whose glyph space is 600 dpi
pixels (font matrix the identity, `0.12 Tf`), widths in pixels, a ToUnicode map without the digits (whose glyphs
are named "/1" ... "/9"), words placed one by one and broken by kerns inside them.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.ingest import glyph_scale
from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline

PIXEL = 0.12  # points per glyph unit at 600 dpi: the size Ghostscript gives `Tf`
WORDS = ("model value system report method review signal storage control measure result section reader "
         "channel process estimate capital network sample pattern feature kernel module structure").split()
# name -> (reference face its widths come from, em in points)
FONTS = {"body": ("tiro", 10.0), "italic": ("tiit", 10.0), "code": ("cour", 10.0 * 0.525 / 0.6),
         "section": ("tibo", 12.0), "chapter": ("tibo", 17.28), "title": ("tiro", 20.74)}
CHARS = [chr(c) for c in range(32, 127)]


def _glyph_name(ch: str) -> str:
    if ch.isdigit():
        return ch  # Ghostscript names a bitmap font's digit glyphs by the digit itself
    return f"g{ord(ch)}"


def _add_type3(doc: pymupdf.Document, face: str, em: float) -> int:
    """A Type 3 font in 600 dpi pixel units with `face`'s widths at `em` points; its ToUnicode leaves out digits."""
    font = pymupdf.Font(face)
    procs = []
    widths = []
    for ch in CHARS:
        width = round(font.glyph_advance(ord(ch)) * em / PIXEL)
        widths.append(width)
        xref = doc.get_new_xref()
        doc.update_object(xref, "<<>>")
        doc.update_stream(xref, f"{width} 0 0 -60 {width} 0 d1 0 -60 {width} 60 re f".encode(), new=True)
        procs.append(f"/{_glyph_name(ch)} {xref} 0 R")
    cmap = ["/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapType 2 def",
            "1 begincodespacerange <00> <ff> endcodespacerange"]
    mapped = [ch for ch in CHARS if not ch.isdigit()]
    cmap.append(f"{len(mapped)} beginbfchar")
    cmap += [f"<{ord(ch):02x}> <{ord(ch):04x}>" for ch in mapped]
    cmap.append("endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")
    to_unicode = doc.get_new_xref()
    doc.update_object(to_unicode, "<<>>")
    doc.update_stream(to_unicode, "\n".join(cmap).encode(), new=True)
    differences = " ".join(f"/{_glyph_name(ch)}" for ch in CHARS)
    xref = doc.get_new_xref()
    doc.update_object(xref, (
        f"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1 -1] /FontMatrix [1 0 0 -1 0 0] "
        f"/CharProcs << {' '.join(procs)} >> /Encoding << /Type /Encoding /Differences [32 {differences}] >> "
        f"/FirstChar 32 /LastChar 126 /Widths [{' '.join(map(str, widths))}] /ToUnicode {to_unicode} 0 R >>"))
    return xref


class _Page:
    """Content of one page, written line by line as dvips places words."""

    def __init__(self) -> None:
        self.ops: list[str] = []
        self.y = 80.0

    def line(self, words: list[tuple[str, str]], x: float = 72.0, step: float = 12.0, before: float = 0.0) -> None:
        """Words (font, text) on one baseline from `x`; a word longer than five letters is broken by a kern."""
        self.y += before
        for font, word in words:
            face, em = FONTS[font]
            advance = pymupdf.Font(face).text_length(word, fontsize=em)
            text = word.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            if len(word) > 5 and word.isalpha():
                shown = f"[({text[:3]})-3000({text[3:]})] TJ"  # a kern of 0.36 pt inside the word
                advance += 0.36
            else:
                shown = f"({text}) Tj"
            self.ops.append(f"BT /{font} {PIXEL} Tf 1 0 0 -1 {x:.2f} {792 - self.y:.2f} Tm {shown} ET")
            x += advance + (0.25 if font == "code" else 0.33) * em
        self.y += step


def _paragraph(page: _Page, rng: random.Random, lines: int, italic: bool = False) -> None:
    for k in range(lines):
        words = [("body", rng.choice(WORDS)) for _ in range(8)]
        if italic and k % 2:
            words[3] = ("italic", "emphasised")
        page.line(words, x=84.0 if k == 0 else 72.0)
    page.y += 6


def bitmap_tex_pdf(path: Path) -> list[tuple[int, str, int]]:
    """A three-page report set in bitmap Type 3 fonts; its headings as (level, title, page)."""
    rng = random.Random(7)
    pages = [_Page() for _ in range(3)]
    headings = [(1, "1 Introduction", 1), (2, "1.1 Background", 1), (2, "1.2 Method of Work", 2),
                (1, "2 Results", 3), (2, "2.1 Measured Values", 3)]
    first, second, third = pages
    first.line([("title", "Notes"), ("title", "on"), ("title", "Kernel"), ("title", "Modules")], x=180.0, step=24.0)
    first.line([("body", "A."), ("body", "Writer,"), ("body", "March")], x=260.0, step=40.0)
    first.line([("chapter", "1"), ("chapter", "Introduction")], step=30.0)
    _paragraph(first, rng, 8, italic=True)
    first.line([("section", "1.1"), ("section", "Background")], step=18.0, before=8.0)
    _paragraph(first, rng, 10, italic=True)
    for code in ("fun depth(L _) = 1", "| depth(N(i, l, r)) =", "    1 + max(depth l, depth r)",
                 "val t = N(3, L 4, L 5)", "structure Heap = struct"):
        first.line([("code", part) for part in code.split()], x=90.0)
    _paragraph(first, rng, 6)
    second.line([("section", "1.2"), ("section", "Method"), ("section", "of"), ("section", "Work")], step=18.0)
    _paragraph(second, rng, 14, italic=True)
    _paragraph(second, rng, 12)
    third.line([("chapter", "2"), ("chapter", "Results")], step=30.0)
    _paragraph(third, rng, 10, italic=True)
    third.line([("section", "2.1"), ("section", "Measured"), ("section", "Values")], step=18.0, before=8.0)
    _paragraph(third, rng, 12)
    doc = pymupdf.open()
    fonts = {name: _add_type3(doc, face, em) for name, (face, em) in FONTS.items()}
    for content in pages:
        page = doc.new_page(width=612, height=792)
        listed = " ".join(f"/{name} {xref} 0 R" for name, xref in fonts.items())
        doc.xref_set_key(page.xref, "Resources", f"<< /Font << {listed} >> >>")
        stream = doc.get_new_xref()
        doc.update_object(stream, "<<>>")
        doc.update_stream(stream, "\n".join(content.ops).encode(), new=True)
        doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    doc.save(path)
    doc.close()
    return headings


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[int, str, int]]]:
    path = tmp_path_factory.mktemp("bitmap") / "report.pdf"
    return path, bitmap_tex_pdf(path)


def test_mupdf_reads_such_fonts_at_a_pixels_size(built: tuple[Path, list[tuple[int, str, int]]]) -> None:
    """The premise: without the repair every span is about 0.1 pt high and each word is a line of its own."""
    path, _ = built
    with pymupdf.open(path) as doc:
        spans = [s for b in doc[0].get_text("dict")["blocks"] for ln in b["lines"] for s in ln["spans"]]
        blocks = doc[0].get_text("blocks")
    assert spans and all(s["size"] < 1 for s in spans)
    assert glyph_scale.has_broken_scale(blocks)


def test_page_text_reads_whole_words_and_digits(built: tuple[Path, list[tuple[int, str, int]]]) -> None:
    path, _ = built
    doc = extract(path, workers=1)
    text = doc.pages[0].text
    assert text.startswith("Notes on Kernel Modules\n")
    assert "\n\n1 Introduction\n\n" in text  # a paragraph of its own, not the first line of the next
    assert "1.1 Background" in text
    assert "emphasised" in text and "Backgr ound" not in text
    assert doc.pages[1].text.startswith("1.2 Method of Work\n")


def test_lines_are_sized_by_font_over_the_document(built: tuple[Path, list[tuple[int, str, int]]]) -> None:
    path, _ = built
    doc = extract(path, workers=1)
    sizes: dict[str, set[float]] = {}
    for page in doc.pages:
        for line in page.lines:
            assert line.scale is not None
            sizes.setdefault(line.scale.font, set()).add(line.size)
    assert all(len(found) == 1 for found in sizes.values()), sizes  # one size a font, on every page
    heading = {line.text: line.size for page in doc.pages for line in page.lines}
    body = next(line.size for line in doc.pages[1].lines[1:] if line.scale and not line.scale.others)
    assert heading["1 Introduction"] > heading["1.1 Background"] > body
    assert heading["1.1 Background"] < 1.6 * body
    code = next(line for line in doc.pages[0].lines if line.text.startswith("fun depth"))
    italic = next(line for line in doc.pages[0].lines if "emphasised" in line.text)
    assert code.size <= body and italic.size == body  # a listing and emphasis are no headings
    assert 9.0 <= body <= 11.5  # the body's em, measured from its advances (set at 10 pt)


def test_tree_of_a_bitmap_font_document(built: tuple[Path, list[tuple[int, str, int]]]) -> None:
    path, headings = built
    outline = build_outline(extract(path), use_bookmarks=False)

    def walk(nodes: list, depth: int = 1) -> list[tuple[int, str, int]]:  # type: ignore[type-arg]
        out = []
        for node in nodes:
            out.append((depth, node.title, node.start_page))
            out += walk(node.children, depth + 1)
        return out

    assert walk(outline.nodes) == headings


def test_settle_sizes_leaves_other_documents_alone() -> None:
    page = PageData(1, "", "text", 612, 792, [])
    glyph_scale.settle_sizes([page])
    assert page.lines == []
