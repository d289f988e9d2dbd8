"""Rows that list pages: what a contents entry's row looks like, shared by the contents finder
(`contents._bare_list`, a list with no heading and no leaders) and the layout pass (`listing_rows`, the rows of a
contents page the parser did not read, which must not become headings).

A row is an entry when it ends in a page number, plain ("12") or a chapter's ("3-12"). A list of them rises
down the page; its numbers line up in a column, or, when each follows its title after a few spaces, the rows
start at a few indents (one per level), read as titles, and step a page or so at a time.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.numbering import parse_page_number, split_chapter_page, split_trailing_page

PageKey = tuple[int, int]  # (chapter, page): (0, 12) for "12", (3, 12) for "3-12"


def page_entry(text: str) -> tuple[str, PageKey] | None:
    """(title, page key) of a row ending in an arabic or a chapter-page number after its title, else None."""
    title, printed, _dots = split_trailing_page(text)
    if printed is not None:
        value = parse_page_number(printed)
        return (title, (0, value[0])) if value is not None and not value[1] else None
    chapter = split_chapter_page(text)
    if chapter is None:
        return None
    part, _, page = chapter[1].partition("-")
    return chapter[0], (int(part) if part.isdigit() else 1000 + sum(ord(ch) for ch in part), int(page))


def unaligned_list(starts: list[float], titles: list[str], keys: list[PageKey]) -> bool:
    """True when entries whose numbers stand at no common right edge still make a list: their rows start at
    three indents or fewer, they read as titles (capitalised, each its own once figures are set aside: not a
    code listing's "total += value[3]" lines) and nearly every number repeats or passes the one before by
    three pages at most, or opens the next chapter (short documents list several sections to a page)."""
    return _indented(starts) and _distinct_titles(titles) and len(set(keys)) >= 3 and sum(
        1 for a, b in zip(keys, keys[1:]) if _short_step(a, b)) >= 0.9 * (len(keys) - 1)


def _distinct_titles(titles: list[str]) -> bool:
    """Nearly all capitalised (or numbered) and different from each other once their figures are set aside."""
    opened = sum(1 for title in titles if title[:1].isupper() or title[:1].isdigit() or title[:1] == "§")
    keys = {"".join(ch for ch in title.lower() if ch.isalpha()) for title in titles}
    return opened >= 0.8 * len(titles) and len(keys) >= 0.8 * len(titles)


def _short_step(before: PageKey, after: PageKey) -> bool:
    """The next entry's page is the same, up to three pages on, or the next chapter's first ("3-4", "4-1")."""
    if before[0] == 0 and after[0] == 0:
        return before[1] <= after[1] <= before[1] + 3
    return after in (before, (before[0], before[1] + 1), (before[0] + 1, 1))


def _indented(starts: list[float]) -> bool:
    """True when the rows' left edges fall at three indents or fewer, two points each, nearly all of them."""
    clusters: list[list[float]] = []
    for x in sorted(starts):
        if clusters and x - clusters[-1][-1] <= 2:
            clusters[-1].append(x)
        else:
            clusters.append([x])
    largest = sorted((len(c) for c in clusters), reverse=True)
    return sum(largest[:3]) >= 0.9 * len(starts)
