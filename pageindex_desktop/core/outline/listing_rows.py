"""Rows of a page that lists other pages: a contents page the contents parser did not (fully) read.

A filing's contents page is often a table (titles left, page numbers in a right column, notes between the rows,
some rows holding two entries); when the parser stops early or does not find the page at all, its rows still
look like headings to the layout pass (bold "PART IV  93", "ITEM 10. Directors ... 92") and the tree would open
with them. What marks such a page whatever its form: many rows end in a page number ("12", or a chapter's "3-12"), those
numbers rise down the page and line up in one column, or the rows start at a few indents and step a page or so
at a time (`page_lists.unaligned_list`). A table of figures does not rise like that and prose rarely ends in a
number, so the rule leaves other pages alone.
"""

from __future__ import annotations

from pageindex_desktop.core.outline.page_lists import PageKey, page_entry, unaligned_list
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.title_shape import open_ended

MIN_ENTRIES = 5
ENTRY_SHARE = 0.5  # of the page's rows
RISE_SHARE = 0.8  # of consecutive entry pairs whose numbers do not fall
ALIGN_SHARE = 0.7  # of entries whose number ends within a digit's width (the row's size) of the common right edge


def listing_rows(rows: list[Row], page_count: int) -> set[int]:
    """Indices of the rows of a page that are entries of a list of pages (none when the page is no such list)."""
    if len(rows) < MIN_ENTRIES:
        return set()
    ends: list[tuple[int, PageKey, float, float]] = []  # (row index, page key, right edge, size)
    starts: list[float] = []
    titles: list[str] = []
    for i, row in enumerate(rows):
        text = row.text
        if not text[-1:].isdigit():
            continue  # cheap test first: arabic page numbers only (a roman "I" ends too many titles)
        entry = page_entry(text)  # "2,345", "12.5" are figures, not page numbers
        if entry is None or entry[1][1] > 2 * page_count + 20 or sum(ch.isalpha() for ch in entry[0]) < 3:
            continue
        ends.append((i, entry[1], row.x1, row.size))
        starts.append(row.x0)
        titles.append(entry[0].strip())
    if len(ends) < MIN_ENTRIES or len(ends) < ENTRY_SHARE * len(rows):
        return set()
    values = [v for _i, v, _x, _s in ends]
    if sum(1 for a, b in zip(values, values[1:]) if b >= a) < RISE_SHARE * (len(values) - 1):
        return set()
    # a number column centred or flush left ends one digit further for "24" than for "1"
    right = sorted(x for _i, _v, x, _s in ends)[len(ends) // 2]
    aligned = [i for i, _v, x, size in ends if abs(x - right) <= max(3.0, size)]
    if len(aligned) < ALIGN_SHARE * len(ends) and not unaligned_list(starts, titles, values):
        return set()
    # every row from the first entry to the last is the list's (a wrapped title's first line, a group's head),
    # and so is a line right above the first that its title goes on from ("PART 1 — AUDIT MODEL AND")
    first, last = ends[0][0], ends[-1][0]
    if first > 0 and open_ended(rows[first - 1].text):
        first -= 1
    return set(range(first, last + 1))
