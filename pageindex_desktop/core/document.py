"""Plain data extracted from a PDF: what the child process hands back to the indexer.

Kept free of pymupdf so the store, the UI and the tests can use it without loading MuPDF.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class GlyphScale(NamedTuple):
    """What a line rebuilt from a Type 3 font read at a pixel's size (core/ingest/glyph_scale.py) tells of its
    fonts' sizes, which are settled over the whole document once every page is read."""

    font: str  # the font printing most of its characters
    width: float  # the width that font's glyphs print at on this line, in points
    reference: float  # the width of the same text in the reference font at 1 pt
    chars: int  # characters that font prints on this line
    others: tuple[str, ...] = ()  # the other fonts on the line (an emphasised word, a run-in head)


@dataclass(frozen=True)
class Line:
    """One text line with the layout facts heading detection needs (coordinates in PDF points, top-left origin)."""

    text: str
    size: float
    bold: bool
    x0: float
    y0: float
    x1: float
    y1: float
    # sRGB fill colour (0xRRGGBB) of the dominant span: a slide deck's navigation bar marks its current section
    # by colour alone (nav_bar.py). A default, so lines pickled before the field existed still load (as black).
    color: int = 0
    # a line printed in several colours: (text, colour, bold, x0, x1) of each run of one colour, in order
    # (MuPDF reads a navigation bar whose entries sit close together as one line); empty for one colour
    runs: tuple[tuple[str, int, bool, float, float], ...] = ()
    # the bold words a line opens with when it goes on in regular type: a run-in head ("Section 2.01 Defined
    # Terms." before "As used in this Agreement, ..."); empty for a line in one weight
    lead: str = ""
    # a drawn rule runs under the whole line (core/ingest/underlines.py): a sub-heading marked by an underline
    # alone, at the body's size and weight; False for lines extracted before the field existed
    underlined: bool = False
    # a line rebuilt from a Type 3 font MuPDF reads at a pixel's size: the evidence its size is settled from
    # over the whole document (core/ingest/glyph_scale.py); None for every other line
    scale: GlyphScale | None = None
    # more than half of its characters are in italic or oblique spans: a sub-heading marked by italic alone, at
    # the body's size and weight (core/outline/heading_italic.py); False for lines extracted before the field
    italic: bool = False


@dataclass
class PageData:
    """One physical page: 1-based number, printed label (may be empty), plain text and its lines."""

    number: int
    label: str
    text: str
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    ocr: bool = False  # the text was recognised from the page's image (core/ingest/ocr_read.py), not its text layer
    # links to another page of the document, (x0, y0, x1, y1, 1-based target page), read on the first pages
    # only (LINK_PAGES in core/ingest/pdf_pages.py): a deck's contents slide links each section to its first
    # slide, the only place many decks say where a section starts (core/outline/linked_outline.py)
    links: list[tuple[float, float, float, float, int]] = field(default_factory=list)

    @property
    def has_text(self) -> bool:
        """False for pages with no text layer (scanned or image-only)."""
        return bool(self.text.strip())


@dataclass
class ExtractedDocument:
    """Everything extraction learns about a PDF, before any tree is built."""

    page_count: int
    metadata_title: str
    # embedded bookmarks: (level, title, page): the 1-based page, 0 when the target is in the document but names
    # no page (no action, a name no destination carries), -1 when it leads out of it (a web address, another file)
    toc: list[tuple[int, str, int]]
    pages: list[PageData]
    # MuPDF repaired the file and lost pages: the note to show ("repaired: 25 of 28 pages readable") and the
    # physical numbers of the pages that could not be read (stored without text, not counted as scans)
    repair_note: str = ""
    unreadable_pages: list[int] = field(default_factory=list)

    @property
    def image_only_pages(self) -> list[int]:
        """Physical page numbers that carry no extractable text."""
        return [p.number for p in self.pages if not p.has_text]
