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

from pageindex_desktop.core.outline.layout_filters import Candidate
from pageindex_desktop.core.outline.heading_colour import larger_than_body
from pageindex_desktop.core.outline.heading_italic import ITALIC_STEP
from pageindex_desktop.core.outline.rows import Row

MIN_UNDERLINED = 2
MIN_OPENED = 2  # bold heads each followed by an underlined one: underlining is the level under them


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
    underlined at about the body's size; marked so that it ranks under the bold rows of its size
    (`underline_under_bold`): an underline alone marks a level below bold."""
    return replace(row, bold=True, marked_underlined=True) if underlining and _plain_underlined(row, body) else row


def _plain_underlined(row: Row, body: float) -> bool:
    """An underlined row in regular weight at about the body's size: what an underline alone marks."""
    return row.underlined and not row.bold and row.size >= body - 0.5 and not larger_than_body(row.size, body)


def underline_under_bold(candidates: list[Candidate]) -> list[Candidate]:
    """`candidates` with the style of each regular underlined row read as bold set ITALIC_STEP under the bold
    style of its size and kind (in place), so the ranking puts it a level below: a filing or a memo underlines
    the level under its bold sub-heads, and ranked with them the two had been one. The headings must show it:
    MIN_OPENED bold heads of that style are each followed right away by an underlined one (a boxed aside's
    bold title set at the body's size is no level the underlined heads go under). Called once the capitals of
    a face are told apart (`capital_styles.capitals_apart`), which reads the underlined heads as part of the
    face they are set in."""
    opened: dict[tuple[float, bool, str], int] = {}
    for cand, after in zip(candidates, candidates[1:]):
        if not cand.row.marked_underlined and after.row.marked_underlined and cand.style == after.style:
            opened[cand.style] = opened.get(cand.style, 0) + 1
    for cand in candidates:
        if cand.row.marked_underlined and opened.get(cand.style, 0) >= MIN_OPENED:
            cand.style = (cand.style[0] - ITALIC_STEP, *cand.style[1:])
    return candidates
