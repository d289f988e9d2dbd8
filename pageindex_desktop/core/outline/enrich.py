"""Deeper headings under a printed contents list: numbered layout headings of kinds the contents never uses.

Contents pages often stop at two or three levels ("I.", "A.", "1.") while the text numbers further ("a.",
"(1)", "i."). Layout headings numbered in a scheme the contents list does not use, and not already listed,
are those deeper sections; they are slotted under the contents entry they follow.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable

from rapidfuzz import fuzz

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import analyse
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.numbering import leading_number, title_key
from pageindex_desktop.core.outline.tree import Heading

MAX_EXTRA_DEPTH = 4
TAIL_SHARE = 0.4
SHORT_TAIL = 2  # pages after the last entry's page that make a short tail
SHORT_TAIL_SECTIONS = 2
# hang_layout_headings: share of contents entries layout must find, and of contents parent/child pairs it must
# rank the same way, before its deeper headings are trusted under the contents entries
FRAME_FOUND_SHARE = 0.6
FRAME_AGREE_SHARE = 0.8
MATCH_RATIO = 90  # rapidfuzz ratio (0-100) at which a layout heading prints a contents entry in other words


def _kind(title: str) -> str | None:
    """Numbering scheme of a title ("decimal2", "lower-letter", "paren"...), None when unnumbered."""
    num = leading_number(title)
    if num is None or not num.rest:
        return None
    return f"{num.kind}{num.depth}" if num.kind in ("decimal", "letter-decimal") else num.kind


Listed = dict[tuple[str, int], list[Heading]]  # contents entries by (title key, page)


def listed_titles(toc: list[Heading]) -> Listed:
    """The contents entries by (title key, page)."""
    listed: Listed = {}
    for heading in toc:
        listed.setdefault((title_key(heading.title), heading.page), []).append(heading)
    return listed


def _number(title: str) -> str | None:
    """A title's leading section number ("6.2"), None when it has none."""
    num = leading_number(title)
    return num.token.rstrip(".") if num is not None and num.rest else None


def is_listed(heading: Heading, listed: Listed, before: Callable[[Heading], bool] | None = None) -> bool:
    """True when the contents lists `heading` itself: an entry of its title on its page or a neighbouring one
    (a title repeated from an entry), unless both carry section numbers and they differ ("6.2.1 Funding"
    printed under the listed "6.2 Funding" is a section of its own), or `heading` reads before the heading
    that prints the entry (`before(entry)`): a title repeated from an entry comes after it (a section
    "continued" overleaf), one before it is a namesake of its own ("Approach" closing one chapter's page, over
    the listed "Approach" that opens the next chapter's)."""
    key, number = title_key(heading.title), _number(heading.title)
    for d in (-1, 0, 1):
        for entry in listed.get((key, heading.page + d), []):
            other = _number(entry.title)
            if number is not None and other is not None and number != other:
                continue
            if before is not None and before(entry):
                continue
            return True
    return False


def add_deeper_headings(toc: list[Heading], doc: ExtractedDocument) -> list[Heading]:
    """`toc` with numbered layout headings of schemes the contents list does not use, in reading order, and the
    sections after its last entry that it does not reach (`_tail_headings`).
    """
    listed_kinds = {k for k in (_kind(h.title) for h in toc) if k}
    listed = listed_titles(toc)
    first_page = min((h.page for h in toc[1:]), default=1)
    last_page = max((h.page for h in toc), default=1)
    if not listed_kinds and doc.page_count - last_page < SHORT_TAIL:
        return toc  # an unnumbered contents list gives no scheme to go deeper from, and it reaches the end
    layout = find_layout_headings(doc)
    tail_of = _tail_headings(layout, last_page, doc.page_count, _top_layout_level(toc, layout))
    tail = [heading for _printed, heading in tail_of]
    at = reading_keys(toc, layout, printing_headings(toc, *index_layout(layout)))
    source: dict[int, Heading] = {id(heading): printed for printed, heading in tail_of}  # extra -> layout heading
    extra: list[Heading] = list(tail)
    order: list[str] = []
    for heading in layout if listed_kinds else []:
        if heading.page > last_page and tail:
            continue  # the tail's own headings are added above
        kind = _kind(heading.title)
        if kind is None or kind in listed_kinds or kind.startswith("keyword") or heading.page < first_page:
            continue
        if is_listed(heading, listed):
            continue
        if kind not in order:
            if len(order) >= MAX_EXTRA_DEPTH:
                continue
            order.append(kind)
        extra.append(Heading(title=heading.title, level=order.index(kind) + 1, page=heading.page, y=heading.y))
        source[id(extra[-1])] = heading
    if not extra:
        return toc
    merged: list[tuple[int, float, int, Heading, bool]] = []
    for i, h in enumerate(toc):
        merged.append((*at[id(h)], i, h, True))
    for i, h in enumerate(extra):
        merged.append((*at[id(source[id(h)])], len(toc) + i, h, False))
    merged.sort(key=lambda m: (m[0], m[1], m[2]))
    out: list[Heading] = []
    base = 0
    in_tail = {id(h) for h in tail}
    for _page, _y, _i, heading, from_toc in merged:
        if from_toc:
            base = heading.level
            out.append(heading)
        elif id(heading) in in_tail:
            out.append(heading)  # annexes the contents list does not cover: their own top level
        else:
            out.append(Heading(title=heading.title, level=base + heading.level, page=heading.page, y=heading.y))
    return out


def _tail_headings(layout: list[Heading], last_page: int, page_count: int,
                   top: int | None) -> list[tuple[Heading, Heading]]:
    """The layout headings after the contents list's last entry's page, each with its copy at its own top level
    (level 1 up).

    A long tail (five pages or more and over 40 % of the document: annexes the list leaves out) gives all its
    headings. A short one (SHORT_TAIL pages or more: a filing's signatures, power of attorney and exhibits after
    its last Item, a report's appendices) gives only headings that layout sets as high as the contents' top
    entries (`top`, the level of the layout heading printing one; else the last entry's own sub-headings, which
    run on past its page, would come up to the top), and only when there are two or more of them: one closing
    heading ("Questions?", a back cover's address) is no run of sections.
    """
    uncovered = page_count - last_page
    tail = [h for h in layout if h.page > last_page]
    if uncovered < SHORT_TAIL or not tail:
        return []
    if not (uncovered >= 5 and uncovered > TAIL_SHARE * page_count):
        tail = [h for h in tail if top is not None and h.level <= top]
        if len(tail) < SHORT_TAIL_SECTIONS:
            return []
    highest = min(h.level for h in tail)
    return [(h, Heading(title=h.title, level=h.level - highest + 1, page=h.page, y=h.y)) for h in tail]


def _top_layout_level(toc: list[Heading], layout: list[Heading]) -> int | None:
    """The layout level of the highest heading that prints one of the contents' top-level entries, or None."""
    by_key, by_page = index_layout(layout)
    top_entries = [h for h in toc if h.level == min(e.level for e in toc)]
    levels = [hit.level for hit in (printing_heading(e, by_key, by_page) for e in top_entries) if hit is not None]
    return min(levels, default=None)


def index_layout(layout: list[Heading]) -> tuple[dict[tuple[str, int], Heading], dict[int, list[tuple[str, Heading]]]]:
    """Layout headings by (title key, page), first one kept, and by page with their keys (for `printing_heading`)."""
    by_key: dict[tuple[str, int], Heading] = {}
    by_page: dict[int, list[tuple[str, Heading]]] = {}
    for heading in layout:
        key = title_key(heading.title)
        by_key.setdefault((key, heading.page), heading)
        by_page.setdefault(heading.page, []).append((key, heading))
    return by_key, by_page


def _position(heading: Heading) -> tuple[int, float]:
    """Reading-order key of a heading (an entry whose place on its page is unknown counts as its top)."""
    return heading.page, -1.0 if heading.y is None else heading.y


def toc_positions(toc: list[Heading]) -> list[tuple[int, float]]:
    """Merge keys of contents entries that keep the contents' own reading order: each entry's (page, y), never
    before the entry listed above it. An entry whose place on its page is unknown ("ITEM 4(a). Information
    about our Executive Officers", its number a row apart from its title) would otherwise go to the page's
    top, above the items it follows."""
    keys: list[tuple[int, float]] = []
    for heading in toc:
        key = _position(heading)
        keys.append(max(key, keys[-1]) if keys else key)
    return keys


def reading_keys(toc: list[Heading], layout: list[Heading], printing: dict[int, Heading]
                 ) -> dict[int, tuple[int, float]]:
    """Merge keys, by id(), of contents entries and layout headings in reading order: (page, rank), a layout
    heading's rank being its place in the layout list (read column by column), a contents entry's that of the
    layout heading printing it on its page, else its place by height among its page's layout headings; never
    before the entry listed above it (`toc_positions`). By height alone, a sub-heading at the top of a
    two-column page's right column went before the section that opens low in its left column."""
    keys: dict[int, tuple[int, float]] = {id(h): (h.page, float(i)) for i, h in enumerate(layout)}
    heights: dict[int, list[tuple[float, int]]] = {}
    for i, heading in enumerate(layout):
        heights.setdefault(heading.page, []).append((-1.0 if heading.y is None else heading.y, i))
    last: tuple[int, float] | None = None
    for entry in toc:
        hit = printing.get(id(entry))
        if hit is not None and hit.page == entry.page:
            key = keys[id(hit)]
        else:
            y = -1.0 if entry.y is None else entry.y
            on_page = heights.get(entry.page, [])
            below = [i for hy, i in on_page if hy > y]
            rank = min(below) - 0.5 if below else max((i for _hy, i in on_page), default=-1) + 0.5
            key = (entry.page, rank)
        key = max(key, last) if last is not None else key
        keys[id(entry)] = last = key
    return keys


def hang_layout_headings(toc: list[Heading], doc: ExtractedDocument) -> list[Heading]:
    """`toc` with the layout headings deeper than any level the contents lists, each under the entry whose span
    holds it (issue 11: a contents page that lists only the top levels must not hide the sections below them).

    The contents entries are the frame. Each is matched to the layout heading printed with its title on its
    page (±1), which gives the layout style level of every contents level. The rule applies only when the
    document's own evidence agrees: most entries are found by layout, and where the contents nests an entry
    under another, layout ranks it deeper too (in 10-Ks "Item 7" is often set smaller than its sub-heads, so
    layout levels would say nothing there). A layout heading is then hung under the last entry before it
    when its level is the first layout level below every level the contents uses (the next level found, not
    the next number: layout levels are ranks that can skip one), it is not one of the entries (or a
    title repeated from them on a neighbouring page), it lies after the first entry, its title is not repeated
    by another heading of the same span (continued slide titles, "Example" block labels), and the span holds
    at least two such headings (a section is divided into parts, a lone bold line is a label; one is enough
    where two other spans are divided so: `_hang_divided`), and the levels below it follow
    (`_hang_deeper`). A heading is hung
    only under the entry layout itself nests it under: when its layout parent is a heading the contents leaves
    out (a 10-K listing the sections of Item 1 but not those of Item 7, set in the same style), the contents
    chose its depth there, and hanging the left-out section's sub-headings without it would make them children
    of the wrong node. Entries are matched to layout headings by title, or nearly the same title (a ratio of
    MATCH_RATIO: "Notes to the Consolidated Financial Statements" listed, "Notes to Consolidated ..." printed).
    Layout has already ruled out running headers, captions, contents rows and table cells; each heading is a
    printed row.
    """
    entries = toc[1:] if len(toc) > 1 else toc  # toc[0] may be the "Contents" heading itself
    layout = find_layout_headings(doc)
    if len(entries) < 3 or not layout:
        return toc
    by_key, by_page = index_layout(layout)
    layout_level: dict[int, int] = {}  # id(entry) -> level of the layout heading that prints it
    matched: dict[int, Heading] = {}  # id() of layout headings that are contents entries -> the entry
    printing = printing_headings(entries, by_key, by_page)  # id(entry) -> the layout heading that prints it
    for entry in entries:
        hit = printing.get(id(entry))
        if hit is not None:
            layout_level[id(entry)] = hit.level
            matched[id(hit)] = entry
    if len(layout_level) < FRAME_FOUND_SHARE * len(entries):
        return toc
    if not _levels_agree(entries, layout_level):
        return toc
    deepest_listed = max(layout_level.values())
    listed = listed_titles(toc)
    at = reading_keys(toc, layout, printing)
    first = at[id(entries[0])]
    unlisted: dict[int, list[tuple[Heading, Heading]]] = {}  # layout level -> (heading, entry it hangs from)
    for heading, parent in zip(layout, layout_parents(layout)):
        if heading.level <= deepest_listed or id(heading) in matched or at[id(heading)] <= first:
            continue
        if is_listed(heading, listed, lambda entry: id(entry) in printing
                     and at[id(heading)] < at[id(printing[id(entry)])]):
            continue
        if parent is None or id(parent) not in matched:
            continue  # its layout parent is a heading the contents leaves out: the contents chose its depth
        unlisted.setdefault(heading.level, []).append((heading, matched[id(parent)]))
    if not unlisted:
        return toc
    # the first level below the listed ones that is a level of the document by `_hang_divided`'s measure: a
    # stray level in one entry's span (a table's bold rows ranked between) does not hide the real one under it
    below = next((level for level in sorted(unlisted) if _established(Counter(id(e) for _h, e in unlisted[level]))),
                 min(unlisted))
    extra = [heading for heading, _entry in unlisted[below]]
    parent_entry = {id(heading): entry for heading, entry in unlisted[below]}
    merged = sorted([(h, True) for h in toc] + [(h, False) for h in extra],
                    key=lambda item: (*at[id(item[0])], 0 if item[1] else 1))
    spans: list[tuple[Heading, list[Heading]]] = []  # each frame entry and the candidates of its span
    for heading, from_toc in merged:
        if from_toc:
            spans.append((heading, []))
        elif spans:
            spans[-1][1].append(heading)
    hung: dict[int, int] = {}  # id(layout heading) -> its level in the tree
    groups = []
    for frame, under in spans:
        counts = Counter(title_key(h.title) for h in under)
        groups.append((frame.level, [h for h in under if counts[title_key(h.title)] == 1
                                     and parent_entry[id(h)] is frame]))
    _hang_divided(groups, hung)
    _hang_deeper(layout, listed, hung, _below_body(doc))
    out = sorted([(h, True) for h in toc] + [(h, False) for h in layout if id(h) in hung],
                 key=lambda item: (*at[id(item[0])], 0 if item[1] else 1))
    return [h if from_toc else Heading(h.title, hung[id(h)], h.page, h.y) for h, from_toc in out]


def _established(per_parent: Counter[int]) -> bool:
    """True when headings counted under their parents (`per_parent`: parent id -> how many) make a level of the
    document: two parents or more divided (two headings or more each), or one divided while another holds one
    too, three in all."""
    divided = sum(1 for count in per_parent.values() if count >= 2)
    return divided >= 2 or divided == 1 and len(per_parent) >= 2 and sum(per_parent.values()) >= 3


def _hang_divided(groups: list[tuple[int, list[Heading]]], hung: dict[int, int],
                  small: Callable[[Heading], bool] | None = None) -> None:
    """Hang each group's headings one level under its parent's `level`, into `hung`, where they divide it:
    two or more, or one where the level is established (two or more groups hold two or more). A lone bold
    line in a document no span of which is divided is a label, not a section level. Below the first hung
    level (`small` given), a level that divides only one sub-section is hung there only when none of its
    headings is `small` (set below the body text): a sub-section's few body-size sub-heads are its sections,
    small bold table heads under its text are labels."""
    established = _established(Counter({k: len(found) for k, (_level, found) in enumerate(groups) if found}))
    for level, found in groups:
        if found and established or len(found) >= 2 and (small is None or not any(small(h) for h in found)):
            for heading in found:
                hung[id(heading)] = level + 1


def _below_body(doc: ExtractedDocument) -> Callable[[Heading], bool]:
    """Whether a layout heading's row is set in a size cluster below the body text's."""
    analysis = analyse(doc)

    def small(heading: Heading) -> bool:
        rows = analysis.rows[heading.page - 1] if 0 < heading.page <= len(analysis.rows) else []
        row = next((r for r in rows if r.y0 == heading.y), None)
        return row is not None and analysis.sizes.key(row.size) < analysis.body_size
    return small


def _hang_deeper(layout: list[Heading], listed: Listed, hung: dict[int, int],
                 small: Callable[[Heading], bool]) -> None:
    """The levels under the hung headings, one by one (up to MAX_EXTRA_DEPTH): a hung heading's own layout
    children at the next layout level found, neither listed nor repeating a sibling's title, divide it as the
    first hung level divides a contents entry (`_hang_divided`, where a level under one sub-section only must
    not be set below the body)."""
    parents = layout_parents(layout)
    for _ in range(MAX_EXTRA_DEPTH - 1):
        deeper = [(h, p) for h, p in zip(layout, parents) if id(h) not in hung and p is not None
                  and id(p) in hung and not is_listed(h, listed)]
        if not deeper:
            return
        level = min(h.level for h, _p in deeper)
        by_parent: dict[int, list[Heading]] = {}
        for heading, parent in deeper:
            if heading.level == level:
                by_parent.setdefault(id(parent), []).append(heading)
        groups = []
        for parent_id, found in by_parent.items():
            counts = Counter(title_key(h.title) for h in found)
            groups.append((hung[parent_id], [h for h in found if counts[title_key(h.title)] == 1]))
        before = len(hung)
        _hang_divided(groups, hung, small)
        if len(hung) == before:
            return


def printing_headings(entries: list[Heading], by_key: dict[tuple[str, int], Heading],
                      by_page: dict[int, list[tuple[str, Heading]]]) -> dict[int, Heading]:
    """id(entry) -> the layout heading that prints it (`printing_heading`). Where its page prints the title
    twice (a section "Key Findings" right after a sub-section of that name), the one at the layout level that
    prints most entries of its contents level: the first one had made the sub-section's level the deepest
    listed, and no layout heading was hung under the contents."""
    first = {id(e): hit for e in entries if (hit := printing_heading(e, by_key, by_page)) is not None}
    by_level: dict[int, Counter[int]] = {}
    for entry in entries:
        if id(entry) in first:
            by_level.setdefault(entry.level, Counter())[first[id(entry)].level] += 1
    usual = {level: counts.most_common(1)[0][0] for level, counts in by_level.items()}
    found = ((e, printing_heading(e, by_key, by_page, usual.get(e.level))) for e in entries)
    return {id(e): hit for e, hit in found if hit is not None}


def printing_heading(entry: Heading, by_key: dict[tuple[str, int], Heading],
                     by_page: dict[int, list[tuple[str, Heading]]], level: int | None = None) -> Heading | None:
    """The layout heading that prints a contents entry on its page (±1): the same title (the one at layout
    `level` when given and the page prints the title more than once), else one that reads nearly the same
    ("Notes to the Consolidated Financial Statements" listed, "Notes to Consolidated Financial Statements"
    printed)."""
    key = title_key(entry.title)
    for d in (0, -1, 1):
        hit = by_key.get((key, entry.page + d))
        if hit is not None:
            if level is not None and hit.level != level:
                return next((h for k, h in by_page.get(entry.page + d, []) if k == key and h.level == level), hit)
            return hit
    for d in (0, -1, 1):
        for other, heading in by_page.get(entry.page + d, []):
            if fuzz.ratio(key, other) >= MATCH_RATIO:
                return heading
    return None


def layout_parents(layout: list[Heading]) -> list[Heading | None]:
    """For each layout heading, the heading layout nests it under (the last one before it at a smaller level)."""
    parents: list[Heading | None] = []
    stack: list[Heading] = []
    for heading in layout:
        while stack and stack[-1].level >= heading.level:
            stack.pop()
        parents.append(stack[-1] if stack else None)
        stack.append(heading)
    return parents


def _levels_agree(entries: list[Heading], layout_level: dict[int, int]) -> bool:
    """True when layout ranks contents children below their contents parents (most such pairs, at least one)."""
    stack: list[Heading] = []
    agree = disagree = 0
    for entry in entries:
        while stack and stack[-1].level >= entry.level:
            stack.pop()
        if stack and id(entry) in layout_level and id(stack[-1]) in layout_level:
            if layout_level[id(entry)] > layout_level[id(stack[-1])]:
                agree += 1
            else:
                disagree += 1
        stack.append(entry)
    if agree + disagree == 0:
        # a flat contents list: layout must at least put the entries on one level
        return len(set(layout_level.values())) == 1
    return agree >= FRAME_AGREE_SHARE * (agree + disagree)
