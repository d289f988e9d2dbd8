"""Colour as a heading's emphasis: a Word report's Heading 3 is set in the theme colour at about the body's size
(12 pt over 11), neither larger nor bold; by size and weight alone it reads as a body line and the tree lost a level.

A colour marks headings when it is saturated (not black or grey: running headers and footers are often grey), it
colours two or more short rows, and no line of prose is printed in it: a document whose body text is navy has no
heading colour of navy. A row set larger than the body reads as prose only when it ends on a full stop (a lead
paragraph's last line): a chapter title of eight words in sentence case is no prose. Only rows at about the body's
size are read as emphasised by it: a coloured heading set larger is one already, and calling it bold too would
split its style from the black ones of its rank (a filing's coloured 14 pt heads ranked apart from its black ones).
White is no heading colour: on a coloured ground it prints an infographic's labels and figures as often as a band's
title.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.title_shape import prose

MIN_SATURATION = 0x30  # spread between the strongest and weakest channel: below it a colour is a grey
PROSE_WORDS = 8  # a row of this many words reading as a sentence is prose
SHORT_ROW = 80  # characters: a heading's row, not a paragraph's


def _marking(color: int) -> bool:
    """True for a colour that can set a heading apart: a saturated one."""
    channels = ((color >> 16) & 0xFF, (color >> 8) & 0xFF, color & 0xFF)
    return max(channels) - min(channels) >= MIN_SATURATION


def heading_colours(pages: list[list[Row]], body: float) -> frozenset[int]:
    """The colours that mark headings in this document (see the module docstring)."""
    short: Counter[int] = Counter()
    in_prose: set[int] = set()
    for rows in pages:
        for row in rows:
            if not _marking(row.color):
                continue
            if len(row.text.split()) >= PROSE_WORDS and prose(row.text) and (
                    not larger_than_body(row.size, body) or row.text.rstrip().endswith(".")):
                in_prose.add(row.color)  # a long title in sentence case set larger ("Chapter 1: Key trust
                # program transfer and claim") is no prose; a lead paragraph set larger ends on a full stop
            elif row.size >= body - 0.5 and len(row.text) <= SHORT_ROW:
                short[row.color] += 1
    return frozenset(color for color, n in short.items() if n >= 2 and color not in in_prose)


def larger_than_body(size: float, body: float) -> bool:
    """True when `size` is set larger than the body by the layout pass's measure (layout._judge)."""
    return size >= body + max(1.0, 0.12 * body)


def with_colour_emphasis(row: Row, colours: frozenset[int], body: float) -> Row:
    """The row read as bold when it is set in a heading colour at about the body's size (not larger by the
    layout's measure, `larger_than_body`)."""
    if row.bold or row.color not in colours or row.size < body - 0.5 or larger_than_body(row.size, body):
        return row
    return replace(row, bold=True)
