"""Read one PDF page into plain data: its text, its printed label and its text lines with layout facts.

`PageData.lines` semantics (heading detection relies on them): one `Line` per MuPDF text line of a text
block, in the same order as the text; whitespace-only lines are dropped. `text` is the line's spans joined,
control characters and U+FFFD (unmapped glyphs) turned to spaces, runs of whitespace collapsed to one space,
stripped; a footnote marker after a word (a superscript span smaller than the line holding only a number or
note sign: "GUIDANCE⁽⁴⁾") is left out, since a heading's title must not carry it (the page text keeps it).
`size` is the font size of the span with the most non-space characters, rounded to 0.1 pt, and
`color` that span's sRGB fill colour (MuPDF's 0xRRGGBB int); a line printed in more than one colour also has
its `runs`, (text, colour, bold, x0, x1) per run of spans of one colour (a navigation bar MuPDF read as one
line), else none. `bold`
is True when more than half of the line's non-space characters are in bold spans (MuPDF bold flag, or a font
name with Bold, Black, Heavy, Semibold or Demi); `italic` likewise for italic spans (MuPDF italic flag, or a
font name with Italic, Oblique, a closing "It" as in "MinionPro-BoldIt", or TeX's slanted and italic faces).
`x0, y0, x1, y1` is the line's box in points, top-left origin, on the page as it is shown (a /Rotate is
applied, like `PageData.width` and `height`). MuPDF may split one visual line into several lines when spans
are far apart (table cells, right-aligned page numbers), and it does not merge lines across blocks.

Page text is MuPDF's reading order (blocks as the file's content stream groups them), one line per text line
(cleaned like `Line.text`), a blank line between blocks, words hyphenated across a line break re-joined; a block
whose "lines" are single words or cells is joined with spaces instead. Text and
lines come from the same MuPDF text page, so lines follow the text's order; the text is always complete, while
the lines (the costlier walk) can be skipped for pages that no tree builder will read.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import Any

import pymupdf

from pageindex_desktop.core.document import Line, PageData
from pageindex_desktop.core.errors import PdfError
from pageindex_desktop.core.ingest import glyph_scale
from pageindex_desktop.core.ingest.text_clean import clean_text
from pageindex_desktop.core.library.file_names import readable

log = logging.getLogger(__name__)

# Expand ligatures, normalise whitespace, clip to the media box, no images: the cheapest walk that still gives
# fonts, sizes and boxes.
TEXT_FLAGS = pymupdf.TEXT_MEDIABOX_CLIP
LINK_PAGES = 12  # pages whose links are read: where a contents page or slide sits
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|extrabold|ultrabold", re.IGNORECASE)
# "MinionPro-It", "Calibri-BoldItalic", "Helvetica-Oblique", "NimbusRomNo9L-ReguItal", TeX's CMTI10 and CMSL10
_ITALIC_NAME = re.compile(r"italic|oblique|ital\b|-[a-z]*it$|^(?:cmti|cmsl|cmbxti|cmbxsl|cmitt)\d", re.IGNORECASE)
# a section's number printed alone: "1.2.", "3", "A.1"
_SECTION_NUMBER = re.compile(r"^\s*(?:\d{1,3}|[A-Z])(?:\.\d{1,3})*\.?\s*$")
_HEX_STRING = re.compile(r"<([0-9A-Fa-f]+)>")  # a PDF hex string left in a page label by pymupdf
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_BOLD_FONTS: dict[str, bool] = {}
_ITALIC_FONTS: dict[str, bool] = {}
# A block of at least this many lines averaging fewer characters than this is words, not lines: it is read
# with spaces between them (Type3 fonts that MuPDF splits word by word, table rows split by cell, chart axes).
FRAGMENT_MIN_LINES = 4
FRAGMENT_MEAN_CHARS = 5.5
_SPACES = re.compile(r"\s+")
SMALL_CAPS = (0.6, 0.9)  # the size of small capitals as a share of the capitals': 0.7 to 0.8 in most faces
# a footnote reference: "4", "(4)", "(3)(5)", "1,2", "*", "†", "(a)"
_MARKER = re.compile(r"^(?:[\s,]*(?:[(\[]?(?:[0-9]{1,2}[a-z]?|[*†‡§¶]{1,3})[)\]]?|\([a-z]\))){1,4}\s*$")

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


def clean_title(title: str) -> str:
    """A bookmark or metadata title without control characters and with single spaces (they come from the file),
    as valid Unicode: pymupdf hands a UTF-16 string's unpaired surrogate over as surrogate escapes, which SQLite
    cannot store."""
    return _SPACES.sub(" ", _CONTROL.sub(" ", readable(title or ""))).strip()


def _is_bold_font(font: str) -> bool:
    """True for font names that say bold (cached: a document uses few fonts)."""
    bold = _BOLD_FONTS.get(font)
    if bold is None:
        bold = _BOLD_FONTS[font] = bool(_BOLD_NAME.search(font))
    return bold


def _is_italic(span: dict[str, Any]) -> bool:
    """True for a span MuPDF flags italic or whose font name says so (names cached: a document uses few fonts)."""
    if span["flags"] & 2:
        return True
    font = span["font"]
    italic = _ITALIC_FONTS.get(font)
    if italic is None:
        italic = _ITALIC_FONTS[font] = bool(_ITALIC_NAME.search(font))
    return italic


def _line_of(spans: list[dict[str, Any]], bbox: tuple[float, float, float, float]) -> Line | None:
    """One Line from a MuPDF line's spans: size and weight of the dominant span, None when only whitespace."""
    if len(spans) == 1:
        span = spans[0]
        text = clean_text(span["text"])
        if not text:
            return None
        bold = bool(span["flags"] & 16) or _is_bold_font(span["font"])
        return Line(text, round(span["size"], 1), bold, bbox[0], bbox[1], bbox[2], bbox[3], span["color"],
                    italic=_is_italic(span))
    parts: list[str] = []
    best_chars = 0
    size = 0.0
    color = 0
    bold_chars = 0
    italic_chars = 0
    chars = 0
    raised = False
    first_color: int | None = None
    mixed = False
    for index, span in enumerate(spans):
        text = span["text"]
        parts.append(text)
        n = len(text) - text.count(" ")
        if n <= 0:
            continue
        raised = raised or bool(index and span["flags"] & 1)
        chars += n
        if span["flags"] & 16 or _is_bold_font(span["font"]):
            bold_chars += n
        if _is_italic(span):
            italic_chars += n
        if first_color is None:
            first_color = span["color"]
        elif span["color"] != first_color:
            mixed = True
        if n > best_chars:
            best_chars = n
            size = span["size"]
            color = span["color"]
    if raised:
        parts = [span["text"] for index, span in enumerate(spans) if not (index and _is_marker(span, size))]
    text = clean_text("".join(parts))
    if not text:
        return None
    if text.isupper() or _cased_small_caps(spans):
        size = _small_caps_size(spans) or size
    runs = _color_runs(spans) if mixed else ()
    lead = _bold_lead(spans) if 0 < bold_chars < chars else ""
    return Line(text, round(size, 1), bold_chars * 2 > chars, bbox[0], bbox[1], bbox[2], bbox[3], color, runs, lead,
                italic=italic_chars * 2 > chars)


def _bold_lead(spans: list[dict[str, Any]]) -> str:
    """The text of the bold spans a line opens with when every span after them is regular (a run-in head),
    else "": a bold word inside a sentence, or bold after regular, is emphasis, not a head. The head's number
    may be in the text's weight before its bold title, as amsart and many journals print "1.2. **Scope.**"."""
    lead: list[str] = []
    start = _regular_number_spans(spans)
    index = start
    for index, span in enumerate(spans[start:], start):
        if span["text"].strip() and not (span["flags"] & 16 or _is_bold_font(span["font"])):
            break
        lead.append(span["text"])
    else:
        return ""
    if index == start or any(span["text"].strip() and (span["flags"] & 16 or _is_bold_font(span["font"]))
                             for span in spans[index:]):
        return ""
    return clean_text("".join(span["text"] for span in spans[:start]) + "".join(lead))


def _regular_number_spans(spans: list[dict[str, Any]]) -> int:
    """How many spans a line opens with that together print a number alone ("1.2." before a bold title), when a
    bold span follows them; else 0."""
    number = ""
    for index, span in enumerate(spans):
        if span["flags"] & 16 or _is_bold_font(span["font"]):
            return index if number.strip() and _SECTION_NUMBER.match(number) else 0
        number += span["text"]
        if len(number) > 12:
            return 0
    return 0


def _color_runs(spans: list[dict[str, Any]]) -> tuple[tuple[str, int, bool, float, float], ...]:
    """(text, colour, bold, x0, x1) of each run of spans in one colour, for a line printed in several (blank
    spans join the run they follow)."""
    runs: list[tuple[str, int, bool, float, float]] = []
    texts: list[str] = []
    color = -1
    bold = chars = 0
    x0 = x1 = 0.0

    def close() -> None:
        """Add the run gathered so far, when it holds text."""
        text = clean_text("".join(texts))
        if text:
            runs.append((text, color, bold * 2 > chars, x0, x1))

    for span in spans:
        text = span["text"]
        n = len(text) - text.count(" ")
        if n > 0 and span["color"] != color:
            if color != -1:
                close()
            texts, color, bold, chars, x0 = [], span["color"], 0, 0, span["bbox"][0]
        texts.append(text)
        if n > 0:
            chars += n
            bold += n if span["flags"] & 16 or _is_bold_font(span["font"]) else 0
            x1 = span["bbox"][2]
    close()
    return tuple(runs)


def _small_caps_size(spans: list[dict[str, Any]]) -> float | None:
    """The size of a line set in small capitals, else None. A face's small capitals, and a word processor's or
    TeX's made-up ones, print each word's first letter at the line's size and the rest as capitals SMALL_CAPS
    of it ("R" at 10 pt, "EFERENCES" at 8; a browser's keep the text's case, `_cased_small_caps`): the line's most-used size is the smaller one, so a section heading
    ("VI. DISCUSSION", "REFERENCES") read as a line set smaller than the body. Capitals at two sizes only,
    three letters or more at the smaller, and a larger span's letters each opening a word (or a number: "II.")."""
    sizes = {round(span["size"], 1) for span in spans if span["text"].strip()}
    if len(sizes) != 2:
        return None
    small, large = sorted(sizes)
    if not SMALL_CAPS[0] <= small / large <= SMALL_CAPS[1]:
        return None
    small_letters = 0
    previous = ""
    for span in spans:
        text = span["text"]
        if round(span["size"], 1) == small:
            small_letters += sum(ch.isalpha() for ch in text)
        elif any(sum(ch.isalpha() for ch in word) > 1 and not word.endswith(".") for word in text.split()):
            return None  # a word in full capitals at the larger size (a number's "II." aside): no small capitals
        elif text[:1].isalpha() and previous[-1:].isalpha():
            return None  # a larger capital inside a word
        previous = text
    return large if small_letters >= 3 else None


def _cased_small_caps(spans: list[dict[str, Any]]) -> bool:
    """Small capitals that keep the text's own case: a browser prints CSS small-caps as each word's capital at
    the line's size and its lower-case letters as smaller capitals, and the text still reads "1. Discussion" (a
    word processor's and TeX's read "DISCUSSION"). Two sizes, every letter at the larger one a capital, every
    letter at the smaller one lower case, and one of each at least: `_small_caps_size` then checks the rest."""
    if len(spans) < 2:
        return False  # most lines: one span, one size
    sizes = sorted({round(span["size"], 1) for span in spans if span["text"].strip()})
    if len(sizes) != 2:
        return False
    small = [ch for span in spans if round(span["size"], 1) == sizes[0] for ch in span["text"] if ch.isalpha()]
    large = [ch for span in spans if round(span["size"], 1) == sizes[1] for ch in span["text"] if ch.isalpha()]
    return bool(small) and bool(large) and all(ch.islower() for ch in small) and all(ch.isupper() for ch in large)


def _is_marker(span: dict[str, Any], size: float) -> bool:
    """A footnote reference after a word: a superscript span (MuPDF's flag for a raised baseline) set smaller
    than the line, holding only a number or a note sign ("GUIDANCE⁽⁴⁾", "Revenue¹", "Total*"). It points
    elsewhere and is no part of the line's words, so a heading's title does not carry it ("ratings⁽ᵃ⁾" too; a
    letter only in brackets: a bare raised letter may be an exponent)."""
    return bool(span["flags"] & 1) and span["size"] < 0.85 * size and _MARKER.match(span["text"]) is not None


def _join_block(lines: list[str]) -> str:
    """A block's lines as text, re-joining words hyphenated across a line break ("exam-" + "ple")."""
    out = lines[0]
    for nxt in lines[1:]:
        if out[-1] == "-" and len(out) > 1 and out[-2].isalpha() and nxt[:1].islower():
            out = out[:-1] + nxt
        else:
            out += "\n" + nxt
    return out


def _label_rules(doc: pymupdf.Document) -> list[tuple[int, str]] | None:
    """The document's page-label rules, read once per open document (pymupdf re-reads them for every page)."""
    cached: list[tuple[int, str]] | None | bool = getattr(doc, "_pageindex_label_rules", False)
    if cached is not False:
        return cached  # type: ignore[return-value]
    rules: list[tuple[int, str]] | None
    try:
        rules = sorted(doc._get_page_labels())
    except Exception:  # a private helper of pymupdf: fall back to the per-page public call
        rules = None
    setattr(doc, "_pageindex_label_rules", rules)
    return rules


def _label(page: pymupdf.Page) -> str:
    """The page's printed label ('' when the document has none or its label tree is broken)."""
    try:
        rules = _label_rules(page.parent)
        if rules is None:
            return _HEX_STRING.sub(_decoded_hex, page.get_label() or "")
        return _HEX_STRING.sub(_decoded_hex, pymupdf.utils.get_label_pno(page.number, rules)) if rules else ""
    except Exception:
        return ""


def _decoded_hex(match: re.Match[str]) -> str:
    """A PDF hex string's text: hyperref writes every beamer slide's label prefix as one ("/P<FEFF0031>" for
    "1"), and pymupdf hands it back undecoded, so the viewer showed "<FEFF0031>" for the page's number."""
    data = bytes.fromhex(match.group(1) + "0" * (len(match.group(1)) % 2))
    if data.startswith(b"\xfe\xff"):
        return data[2:].decode("utf-16-be", errors="replace")
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    return data.decode("latin-1")


def _continues(prev: tuple[Any, ...], prev_lines: int, block: tuple[Any, ...]) -> bool:
    """True when `block` starts right under `prev` in the same column: the next line of one paragraph."""
    line_height = (prev[3] - prev[1]) / max(1, prev_lines)
    gap = block[1] - prev[3]
    return -0.5 * line_height < gap < 0.75 * line_height and max(prev[0], block[0]) < min(prev[2], block[2])


def _text_of(blocks: list[tuple[Any, ...]]) -> str:
    """Page text from MuPDF's text blocks: lines cleaned, words re-joined across hyphens, blank line between blocks.

    Blocks that continue the previous one's paragraph (set line by line, as some typesetters do) are joined
    with a plain line break.
    """
    out = ""
    prev: tuple[Any, ...] | None = None
    prev_lines = 0
    for block in blocks:
        if block[6] != 0:
            continue
        texts = [text for text in (clean_text(raw) for raw in block[4].split("\n")) if text]
        if not texts:
            continue
        if len(texts) >= FRAGMENT_MIN_LINES and sum(map(len, texts)) < FRAGMENT_MEAN_CHARS * len(texts):
            part = " ".join(texts)  # a word or a cell per "line": fragmented fonts, table rows, axes
        else:
            part = _join_block(texts)
        if not out:
            out = part
        elif out[-1] == "-" and len(out) > 1 and out[-2].isalpha() and part[:1].islower():
            out = out[:-1] + part  # a paragraph MuPDF cut into blocks at a hyphen ("il-" | "lustrates")
        else:
            out += ("\n" if prev is not None and _continues(prev, prev_lines, block) else "\n\n") + part
        prev, prev_lines = block, len(texts)
    return out


def _lines_of(data: dict[str, Any], rotation: pymupdf.Matrix | None = None) -> list[Line]:
    """Every non-blank text line of a MuPDF dict walk, in its order; boxes turned as the page is shown."""
    lines: list[Line] = []
    for block in data["blocks"]:
        if block.get("type", 0) != 0:
            continue
        for raw in block["lines"]:
            bbox = raw["bbox"]
            if rotation is not None:
                bbox = tuple((pymupdf.Rect(bbox) * rotation).normalize())
            line = _line_of(raw["spans"], bbox)
            if line is not None:
                if rotation is not None and line.runs:
                    line = replace(line, runs=())  # the runs' spans are not turned: no runs on a turned page
                lines.append(line)
    return lines


def _page_data(page: pymupdf.Page, number: int, with_lines: bool = True) -> PageData:
    """Text, label, size and (unless `with_lines` is False) lines of one page, from one MuPDF text page."""
    rect = page.rect
    textpage = page.get_textpage(flags=TEXT_FLAGS)
    blocks = textpage.extractBLOCKS()
    rotation = page.rotation_matrix if page.rotation else None
    if rotation is None and glyph_scale.has_broken_scale(blocks):  # a Type 3 font read at a pixel's size
        # read again keeping control characters: its digit glyphs come out as U+0001-U+0009 (glyph_scale); the
        # text is made from the rebuilt lines, so they are read whether or not they are kept
        textpage = page.get_textpage(flags=TEXT_FLAGS | pymupdf.TEXT_PRESERVE_WHITESPACE)
        lines = glyph_scale.rebuild_lines(textpage.extractDICT(), _line_of)
        text = _text_of(glyph_scale.blocks_of(lines))
        lines = lines if with_lines else []
    else:
        text = _text_of(blocks)
        lines = _lines_of(textpage.extractDICT(), rotation) if with_lines and text else []
    links = _internal_links(page) if lines and rotation is None and number <= LINK_PAGES else []
    return PageData(number, clean_title(_label(page)), text, rect.width, rect.height, lines, links=links)


def _internal_links(page: pymupdf.Page) -> list[tuple[float, float, float, float, int]]:
    """The page's links to another page of its document: (x0, y0, x1, y1, 1-based target page); none when
    its link annotations cannot be read (a broken annotation loses the links, not the page)."""
    try:
        found = page.get_links()
    except Exception:
        log.warning("links unreadable on page %d", page.number + 1, exc_info=True)
        return []
    links = []
    for link in found:
        target = link.get("page", -1)
        if link.get("kind") in (pymupdf.LINK_GOTO, pymupdf.LINK_NAMED) and isinstance(target, int) and target >= 0:
            box = link["from"]
            links.append((box.x0, box.y0, box.x1, box.y1, target + 1))
    return links


def page_data(doc: pymupdf.Document, index: int, with_lines: bool = True) -> PageData:
    """One page (0-based index) as PageData; a page whose content cannot be interpreted comes back empty."""
    try:
        page = doc.load_page(index)
    except Exception as exc:
        raise PdfError(f"Page {index + 1} cannot be read: the PDF's page tree is damaged.") from exc
    try:
        return _page_data(page, index + 1, with_lines)
    except Exception:  # a broken content stream loses that page's text, not the document
        log.warning("text extraction failed on page %d", index + 1, exc_info=True)
        rect = page.rect
        return PageData(index + 1, "", "", rect.width, rect.height, [])


def pages_of(
    doc: pymupdf.Document, start: int, stop: int, line_pages: frozenset[int] | None = None
) -> list[PageData]:
    """Pages [start, stop) (0-based) of an open document; lines only on `line_pages` (1-based) unless None."""
    return [page_data(doc, i, line_pages is None or i + 1 in line_pages) for i in range(start, stop)]
