"""Two contents entries printed on one row ("ITEM 16. Form 10-K Summary  97   Signatures  99").

A filing's contents table can set a short last entry beside the one before it; read as one row, the pair is one
title ending in the second page number, and the first entry's page is lost inside it. The row is split where a
page number sits between two titles: the left part must be a title of its own (two or more words once its section
number is set aside, so "Note 3 Debt 45" or "Chapter 2 Results 14" stay whole), the inner number must not fall
below the page of the entry before nor rise above the row's own (numbers of a contents rise), and the right
part must open like a title (a capital). Both entries keep the row's indentation: printed side by side, they are
siblings. A row naming a part and its item ("PART IV - ITEM 15. Exhibits ... 191") gives the part, without a
page, and the item with it: the part heads the item printed flush with it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pageindex_desktop.core.outline.numbering import leading_number, parse_page_number, split_trailing_page
from pageindex_desktop.core.outline.rows import Row

_INNER = re.compile(r"^(?P<left>.*?[^\W\d_].*?)\s+(?P<page>[0-9]{1,4})\s+(?P<right>[A-Z][^\W\d_]{2,}.*)$")
_WORD = re.compile(r"[^\W\d_]{2,}")
# a part and its only item on one row: "PART IV - ITEM 15. EXHIBITS AND FINANCIAL STATEMENT SCHEDULE  191"
_PART_ITEM = re.compile(r"^(?P<part>part\s+(?:[ivx]{1,5}|[0-9]{1,2}))\s*(?:[-–—:]\s*)?(?P<item>item\s+[0-9]{1,2}[a-z]?\b.*)$",
                        re.IGNORECASE)


def split_pairs(rows: list[Row], limit: int) -> list[Row]:
    """`rows` with every row that holds two entries replaced by one row per entry (pages up to `limit`)."""
    out: list[Row] = []
    previous = 0  # the last arabic page number read, for the rising-numbers test
    for row in rows:
        pair = _part_item(row.text.strip()) or _pair(row.text.strip(), previous, limit)
        if pair is None:
            out.append(row)
        else:
            out.extend(replace(row, text=text) for text in pair)
        value = parse_page_number(split_trailing_page(out[-1].text.strip())[1] or "")
        if value is not None and not value[1] and value[0] <= limit:
            previous = value[0]
    return out


def _part_item(text: str) -> tuple[str, str] | None:
    """("PART IV", "ITEM 15. ... 191") from a row naming a part and its first item, or None: read as one entry,
    the part's item was no child of it and the part's title carried the item's."""
    m = _PART_ITEM.match(text)
    if m is None or split_trailing_page(m.group("item"))[1] is None:
        return None
    return m.group("part"), m.group("item")


def _pair(text: str, previous: int, limit: int) -> tuple[str, str] | None:
    """The two entries of `text` ("title page", "title page"), or None when it holds one."""
    title, printed, dots = split_trailing_page(text)
    if printed is None or dots or not printed.isdigit():
        return None
    m = _INNER.match(title)
    if m is None:
        return None
    inner, outer = int(m.group("page")), int(printed)
    if not previous <= inner <= outer <= limit:
        return None
    left = m.group("left")
    num = leading_number(left)
    words = _WORD.findall(num.rest if num is not None else left)
    if len(words) < 2:
        return None
    return f"{left} {inner}", f"{m.group('right')} {printed}"
