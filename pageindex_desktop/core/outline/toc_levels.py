"""Levels of contents entries from their indentation, corrected for odd/even page margins."""

from __future__ import annotations

import re
from typing import Protocol, Sequence

CLUSTER_TOLERANCE = 3.0
_LABEL = re.compile(r"([0-9]{1,3}|[A-Z]|[IVXLC]{1,6})[.:]?\s")  # a title's number: "12 ", "B ", "IV. "
_ROMAN = frozenset("IVXLC")
LARGER_STEP = 1.5  # points a part's entry is set larger than the chapters flush with it (14.4 over 12, 12 over 10)
PART_KINDS = frozenset({"keyword:part", "keyword:book", "keyword:teil", "keyword:partie", "keyword:parte"})


class _Indented(Protocol):
    """What level assignment needs from a contents entry."""

    x0: float
    x1: float
    toc_page: int
    printed: tuple[int, bool] | None
    numbered: int
    part: bool
    level: int


class _Styled(_Indented, Protocol):
    """A contents entry with the style of its row."""

    title: str
    size: float
    bold: bool


def _usual_look(entries: Sequence[_Styled]) -> tuple[float, bool]:
    """The entries' median size, and whether most of them are bold: what a head is set apart from."""
    sizes = sorted(e.size for e in entries)
    return sizes[len(sizes) // 2], sum(e.bold for e in entries) * 2 > len(entries)


def mark_group_heads(entries: Sequence[_Styled]) -> None:
    """Mark as divisions (`part`) the rows without a page number that are set larger than the entries with one,
    or bold while those are not, and head a run of them ("Management's Discussion and Analysis" over "Our
    Products 17", "Segment Trends and Results 20"): printed flush with the entries, their indentation cannot
    say they sit above them. Two or more such heads, so one odd row is not taken for a level."""
    with_page = [e for e in entries if e.printed is not None]
    if len(with_page) < 3:
        return
    size, bold = _usual_look(with_page)
    heads = [i for i, e in enumerate(entries[:-1]) if e.printed is None and not e.part
             and (e.size >= size + 0.5 or (e.bold and not bold)) and entries[i + 1].printed is not None
             and entries[i + 1].size < e.size + 0.5 and abs(entries[i + 1].x0 - e.x0) <= 2 * CLUSTER_TOLERANCE]
    if len(heads) >= 2:
        for i in heads:
            entries[i].part = True


def mark_styled_heads(entries: Sequence[_Styled]) -> None:
    """Mark as divisions (`part`) the entries with a page number set larger than most entries, or bold while
    most are not, that head a run of plain entries printed flush with them ("Rivers of the North  3" in bold
    over "Spring floods  4"): a contents list that tells its chapters from their sections by type alone, not
    indentation, would read as one flat level. Only where no entry is a part already (the parts then head
    the list) and for two or more such heads, fewer than half the entries, each followed right below by a
    plain entry at its own indentation (indentation would say the level otherwise)."""
    if any(e.part for e in entries):
        return
    with_page = [e for e in entries if e.printed is not None]
    if len(with_page) < 4:
        return
    size, bold = _usual_look(with_page)

    def set_apart(entry: _Styled) -> bool:
        """Set larger than most entries, or bold while most are not."""
        return entry.size >= size + 0.5 or (entry.bold and not bold)

    heads = [i for i, e in enumerate(entries[:-1]) if e.printed is not None and set_apart(e)
             and not set_apart(entries[i + 1]) and abs(entries[i + 1].x0 - e.x0) <= CLUSTER_TOLERANCE]
    if len(heads) >= 2 and 2 * sum(1 for e in with_page if set_apart(e)) < len(with_page):
        for i in heads:
            entries[i].part = True


def mark_larger_flush_heads(entries: Sequence[_Styled]) -> None:
    """Mark as divisions (`part`) the entries at the list's margin set a clear size larger than the other
    entries there ("I  Installation  5" in 14 pt bold over "1  Options  13" in 12 pt bold, both flush left): the
    way LaTeX's book and report classes, KOMA-Script and memoir list parts above chapters. Both are set apart
    from the sections, so `mark_styled_heads` sees no plain entry under either, and a part without chapters of
    its own heads no run of them. Two or more such entries, no more than the smaller ones flush with them, one
    of those after the first larger one, so a single large row (a "Summary" set in display type) is none, and
    numbered in another scheme (parts "I", "II" over chapters "1", "2"): appendices "B" and "E" among "A"-"G"
    printed larger are the same level, their size an accident of the page."""
    if any(e.part for e in entries):
        return
    with_page = [e for e in entries if e.printed is not None]
    if len(with_page) < 4:
        return
    margin: dict[int, float] = {}
    for entry in with_page:
        margin[entry.toc_page] = min(margin.get(entry.toc_page, entry.x0), entry.x0)
    flush = [e for e in with_page if e.x0 - margin[e.toc_page] <= CLUSTER_TOLERANCE]
    top = max(e.size for e in flush)
    larger = [e for e in flush if e.size > top - LARGER_STEP / 2]
    smaller = [e for e in flush if e.size <= top - LARGER_STEP / 2]
    if not smaller or max(e.size for e in smaller) > top - LARGER_STEP or not 2 <= len(larger) <= len(smaller):
        return
    if _schemes(larger) & _schemes(smaller):
        return
    place = {id(e): i for i, e in enumerate(entries)}
    if max(place[id(e)] for e in smaller) > place[id(larger[0])]:  # a smaller entry after the first larger one
        for entry in larger:
            entry.part = True


def _schemes(entries: Sequence[_Styled]) -> set[str]:
    """The numbering schemes the entries' titles open with: "digits", "roman" or "letter" (a letter label is
    roman only when every letter label among them could be: "I", "V" and "X" among "II", "IV")."""
    labels = [m.group(1) for e in entries if (m := _LABEL.match(e.title))]
    letters = [label for label in labels if label.isalpha()]
    roman = all(set(label) <= _ROMAN for label in letters)
    return {"digits" if label.isdigit() else "roman" if roman else "letter" for label in labels}


def _facing_margin(entries: Sequence[_Indented], page: int, first_page: int, base: dict[int, float]) -> float:
    """The left margin of contents `page`, of the other parity than `first_page`: its leftmost entry, unless the
    page numbers' column stands where the first page's does while that entry is indented past the first page's
    margin. Mirrored margins move the whole list, numbers too; a continuation page that holds only a few
    sub-entries ("Overview  14" after "Health and Safety" and its first sub-entries) moves only its left edge,
    and taking that edge for the margin would lift those sub-entries to the top level."""
    rights: dict[int, float] = {}
    for entry in entries:
        if entry.printed is not None and entry.x1 > 0:
            rights[entry.toc_page] = max(rights.get(entry.toc_page, entry.x1), entry.x1)
    if page in rights and first_page in rights and abs(rights[page] - rights[first_page]) <= CLUSTER_TOLERANCE \
            and base[page] - base[first_page] > CLUSTER_TOLERANCE:
        return base[first_page]
    return base[page]


def assign_levels(entries: Sequence[_Indented]) -> None:
    """Set `level` on each entry: rank of its (page-shifted) indentation, never more than one below the previous."""
    if not entries:
        return
    first_page = entries[0].toc_page
    base: dict[int, float] = {}
    for entry in entries:  # leftmost entry per contents page
        base[entry.toc_page] = min(base.get(entry.toc_page, entry.x0), entry.x0)
    # the margin is read from entries that carry a page number when the page has some: a row without one at the
    # page's edge (a running folio, "ii  110th Annual Report |") would shift every entry of its page a level down
    numbered: dict[int, float] = {}
    for entry in entries:
        if entry.printed is not None:
            numbered[entry.toc_page] = min(numbered.get(entry.toc_page, entry.x0), entry.x0)
    base.update(numbered)
    reference = {first_page % 2: base[first_page]}
    shift: dict[int, float] = {}
    for page in sorted(base):
        parity = page % 2
        if parity not in reference:
            reference[parity] = _facing_margin(entries, page, first_page, base)
        # pages of one parity share a margin; the other parity's margin is its own leftmost entry
        shift[page] = reference[parity] - reference[first_page % 2]
    # "PART I" centred or indented past its items (10-K contents): a part is a division above the items whatever
    # its indentation, so the items' steps are counted among themselves and the parts sit above them
    inverted = _parts_indented_past_items(entries, shift)
    ranked = [e for e in entries if not e.part] if inverted else list(entries)
    shifted = [(round(e.x0 - shift[e.toc_page], 1), e.printed is not None) for e in ranked]
    # an indentation step is one an entry with a page number uses, or two entries: a lone row without a number
    # left of the rest (a running folio) is no level of its own, it goes with the first step
    indents = sorted({x for x, with_page in shifted if with_page
                      or sum(1 for y, _ in shifted if abs(y - x) <= CLUSTER_TOLERANCE) >= 2} or {x for x, _ in shifted})
    clusters: list[float] = []
    for x in indents:
        if not clusters or x - clusters[-1] > CLUSTER_TOLERANCE:
            clusters.append(x)
    def cluster_rank(entry: _Indented) -> int:
        """1 + the number of indentation steps left of the entry."""
        x = entry.x0 - shift[entry.toc_page]
        return 1 + sum(1 for c in clusters[1:] if x > c - CLUSTER_TOLERANCE / 2 + 0.01)

    # "PART I" listed flush with its items: the items sit one level below the parts. Below that an entry is a
    # child of the nearest entry above it set at a smaller indentation step (a filing's "General" under "ITEM 1.
    # Business" under "PART I", all three at steps of their own or the first two flush), so a step one group
    # of entries skips (a 10-Q indenting Item 2's sections further than Item 1's) makes no level of its own
    has_parts = inverted or any(e.part for e in entries)
    previous = 0
    open_ranks: list[tuple[int, int]] = []  # (indentation rank, level) of the entries still open above
    for entry in entries:
        if entry.part:
            open_ranks = []
            level = 1
        else:
            rank = cluster_rank(entry)
            while open_ranks and open_ranks[-1][0] >= rank:
                open_ranks.pop()
            level = open_ranks[-1][1] + 1 if open_ranks else 1 + has_parts
        if entry.numbered > 1:
            level = max(level, entry.numbered)
        level = max(min(level, previous + 1), 1)
        entry.level = level
        previous = level
        if not entry.part:
            open_ranks.append((cluster_rank(entry), level))


def _parts_indented_past_items(entries: Sequence[_Indented], shift: dict[int, float]) -> bool:
    """True when every part entry is indented further than the leftmost entry that is not a part."""
    parts = [e.x0 - shift[e.toc_page] for e in entries if e.part]
    others = [e.x0 - shift[e.toc_page] for e in entries if not e.part]
    return bool(parts and others) and min(parts) > min(others) + CLUSTER_TOLERANCE
