"""An underline as a heading's emphasis: a memo's, a plan's or a legal paper's sub-heading set at the body's size
and weight with a rule drawn under it (`core/ingest/underlines.py` finds the rule at extraction). By size and
weight alone it reads as a body line and the tree lost a level; read as bold, the layout rules take it as they
take a bold sub-heading at text size (`heading_colour` does the same for a theme colour).

Only a document that underlines two or more rows this way counts (a lone underlined line is a remark), and only
rows at about the body's size: an underlined title set larger is a heading already, and calling it bold too
would split its style from the plain ones of its rank.
"""

from __future__ import annotations

from dataclasses import replace

from pageindex_desktop.core.outline.heading_colour import larger_than_body
from pageindex_desktop.core.outline.rows import Row

MIN_UNDERLINED = 2


def underlines_headings(pages: list[list[Row]], body: float) -> bool:
    """True when the document underlines MIN_UNDERLINED rows or more at about the body's size."""
    count = 0
    for rows in pages:
        for row in rows:
            if _plain_underlined(row, body):
                count += 1
                if count >= MIN_UNDERLINED:
                    return True
    return False


def with_underline_emphasis(row: Row, underlining: bool, body: float) -> Row:
    """The row read as bold when the document underlines its headings (`underlines_headings`) and this row is
    underlined at about the body's size."""
    return replace(row, bold=True) if underlining and _plain_underlined(row, body) else row


def _plain_underlined(row: Row, body: float) -> bool:
    """An underlined row in regular weight at about the body's size: what an underline alone marks."""
    return row.underlined and not row.bold and row.size >= body - 0.5 and not larger_than_body(row.size, body)
