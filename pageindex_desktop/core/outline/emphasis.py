"""The marks besides weight and size that set a heading apart at about the body's size, read as one: a colour
(`heading_colour`), an underline (`heading_underline`), a size a step over the body (`heading_size`), italic
(`heading_italic`) and capitals (`heading_capitals`). Each is judged over the whole document first (a face that
prints only headings), then a row in a marked face reads as bold, so the layout pass judges it as it judges a bold
sub-heading at the body's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from pageindex_desktop.core.outline.heading_capitals import heading_capitals, with_capitals_emphasis
from pageindex_desktop.core.outline.heading_colour import heading_colours, with_colour_emphasis
from pageindex_desktop.core.outline.heading_italic import heading_italics, with_italic_emphasis
from pageindex_desktop.core.outline.heading_size import heading_sizes, with_size_emphasis
from pageindex_desktop.core.outline.heading_underline import underlines_headings, with_underline_emphasis
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.size_scale import SizeScale


@dataclass(frozen=True)
class Emphasis:
    """What marks headings in one document besides weight and size (module docstring)."""

    body: float
    sizes: SizeScale
    colours: frozenset[int]  # a Word report's Heading 3: body size, theme colour
    underlining: bool  # a memo's sub-heads: body size, underlined
    stepped: frozenset[float]  # a report's sub-heads: a point over the body, regular
    italics: frozenset[float]  # a paper's third level: body size, italic
    capitals: frozenset[float]  # a memo's sub-heads: body size, typed in capitals

    @classmethod
    def of(cls, pages: list[list[Row]], body: float, sizes: SizeScale) -> Emphasis:
        """The marks `pages` (a document's rows) use."""
        return cls(body, sizes, heading_colours(pages, body), underlines_headings(pages, body),
                   heading_sizes(pages, body, sizes), heading_italics(pages, body, sizes),
                   heading_capitals(pages, body, sizes))

    def marked(self, row: Row) -> Row:
        """The row read as bold when one of the document's marks sets it apart, else the row itself."""
        row = with_colour_emphasis(row, self.colours, self.body)
        row = with_underline_emphasis(row, self.underlining, self.body)
        row = with_size_emphasis(row, self.stepped, self.sizes)
        row = with_italic_emphasis(row, self.italics, self.body, self.sizes)
        return with_capitals_emphasis(row, self.capitals, self.body, self.sizes)
