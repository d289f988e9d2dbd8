"""Deeper headings under a printed contents list: numbered layout headings of kinds the contents never uses.

Contents pages often stop at two or three levels ("I.", "A.", "1.") while the text numbers further ("a.",
"(1)", "i."). Layout headings numbered in a scheme the contents list does not use, and not already listed,
are those deeper sections; they are slotted under the contents entry they follow.
"""

from __future__ import annotations

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.numbering import leading_number, title_key
from pageindex_desktop.core.outline.tree import Heading

MAX_EXTRA_DEPTH = 4
TAIL_SHARE = 0.4


def _kind(title: str) -> str | None:
    """Numbering scheme of a title ("decimal2", "lower-letter", "paren"...), None when unnumbered."""
    num = leading_number(title)
    if num is None or not num.rest:
        return None
    return f"decimal{num.depth}" if num.kind == "decimal" else num.kind


def add_deeper_headings(toc: list[Heading], doc: ExtractedDocument) -> list[Heading]:
    """`toc` with numbered layout headings of schemes the contents list does not use, in reading order.

    When the contents list stops early (its last entry starts before the last 40 % of the document: annexes
    it does not list), every layout heading after that entry is added as well.
    """
    listed_kinds = {k for k in (_kind(h.title) for h in toc) if k}
    listed = {(title_key(h.title), h.page) for h in toc}
    first_page = min((h.page for h in toc[1:]), default=1)
    last_page = max((h.page for h in toc), default=1)
    uncovered = doc.page_count - last_page
    tail_from = last_page if uncovered >= 5 and uncovered > TAIL_SHARE * doc.page_count else doc.page_count + 1
    if not listed_kinds and tail_from > doc.page_count:
        return toc  # an unnumbered contents list gives no scheme to go deeper from
    extra: list[Heading] = []
    order: list[str] = []
    layout = find_layout_headings(doc)
    top_level = min((h.level for h in layout if h.page > tail_from), default=1)
    for heading in layout:
        if heading.page > tail_from:
            extra.append(Heading(title=heading.title, level=heading.level - top_level + 1, page=heading.page,
                                 y=heading.y))
            continue
        if not listed_kinds:
            continue
        kind = _kind(heading.title)
        if kind is None or kind in listed_kinds or kind.startswith("keyword") or heading.page < first_page:
            continue
        key = title_key(heading.title)
        if any((key, heading.page + d) in listed for d in (-1, 0, 1)):
            continue
        if kind not in order:
            if len(order) >= MAX_EXTRA_DEPTH:
                continue
            order.append(kind)
        extra.append(Heading(title=heading.title, level=order.index(kind) + 1, page=heading.page, y=heading.y))
    if not extra:
        return toc
    merged: list[tuple[int, float, int, Heading, bool]] = []
    for i, h in enumerate(toc):
        merged.append((h.page, h.y if h.y is not None else -1.0, i, h, True))
    for i, h in enumerate(extra):
        merged.append((h.page, h.y if h.y is not None else 0.0, len(toc) + i, h, False))
    merged.sort(key=lambda m: (m[0], m[1], m[2]))
    out: list[Heading] = []
    base = 0
    for page, _y, _i, heading, from_toc in merged:
        if from_toc:
            base = heading.level
            out.append(heading)
        elif page > tail_from:
            out.append(heading)  # annexes the contents list does not cover: their own top level
        else:
            out.append(Heading(title=heading.title, level=base + heading.level, page=heading.page, y=heading.y))
    return out
