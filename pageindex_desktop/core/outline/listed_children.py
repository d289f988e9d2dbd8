"""Headings a section lists on its own opening page go under it (issue 11, hierarchy).

A book's part page lists its chapters with their pages; a filing's "Financial Statements and Supplementary
Data" page opens with an index to the statements and notes that follow. Such sections are often set in the
same face as the headings they list, so style rank puts them side by side ("Part One" beside "Chapter 1",
the index page's heading beside "Consolidated Balance Sheets"). The page itself says which headings belong
to it: a run of the headings that follow at the same level, each named by a row of that page ending in a page
number, are its children, and everything under them moves down with them.

Nesting needs a real list, or a document whose headings end in numbers chains each heading one level under
the one before (a stress PDF reached level 2,156): a row ending in a number reads as a title and its page, so
the row "Annual review 12" listed "Annual review" and fuzzily every later "Annual review N". So a row names a
heading only with the heading's own numbers ("Results 2019" is not named by "Results ... 2019"); a page that
also lists the heading above it prints the document's index (a footer on every page), not the section's; and
a heading one listing named is not claimed again by the next page's. Each nesting step thus needs its own list
of headings no other list claimed, which bounds the depth by the document's lists, not its page count. One
row may still name two headings: "Reports of Independent Registered Public Accounting Firm" lists both
auditors' reports.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from pageindex_desktop.core.outline.contents import is_contents_heading
from pageindex_desktop.core.outline.layout_filters import Candidate
from pageindex_desktop.core.outline.numbering import split_trailing_page, title_key
from pageindex_desktop.core.outline.rows import Row

_ENTRY_END = re.compile(r"(?:(?:[^\W\d_]|\))\s+|[.…·_]\s*)[0-9]{1,4}$")  # a word or leaders, then the page
_NUMBER = re.compile(r"[0-9]+")
MIN_LISTED = 2  # one listed heading could be a cross-reference ("see Risk Factors, page 12"), two are a list
MATCH_RATIO = 88  # rapidfuzz ratio (0-100) between a listed row's title and a heading's ("Reports of" / "Report of")


def nest_listed(candidates: list[Candidate], levels: list[int], rows_by_page: list[list[Row]],
                contents_pages: set[int]) -> list[int]:
    """`levels` with each run of same-level headings that an earlier heading's page lists moved under it.

    The run starts right after the listing heading and ends at the first heading of its level or above that
    the page does not list; headings deeper than the listing one inside the run move down with it. Headings on
    the document's contents pages, and a heading that is itself a contents title, list the whole document, not
    a section, so they are skipped.
    """
    out = list(levels)
    keys = [title_key(c.text) for c in candidates]  # once each: the run below asks for them again per heading
    entries: dict[int, list[tuple[float, str]]] = {}  # page -> (top, title key) of its rows ending in a page number
    claimed: set[int] = set()  # headings a listing already named: their parent is decided
    for i, cand in enumerate(candidates):
        page = cand.row.page
        if page in contents_pages:
            continue
        if page not in entries:
            entries[page] = _entries(rows_by_page[page - 1])
        bottom = max(cand.bottom, cand.row.y1) - 0.5
        listed = [key for top, key in entries[page] if top >= bottom]
        if len(listed) < MIN_LISTED or is_contents_heading(cand.text) or keys[i].startswith("index"):
            continue
        if _is_listed(keys[i], listed):
            continue  # a page listing its own heading below it prints the document's index, not the section's
        level = out[i]
        end = i
        named: list[int] = []
        for j in range(i + 1, len(candidates)):
            if out[j] > level:
                continue
            if out[j] < level or j in claimed or not _is_listed(keys[j], listed):
                break
            named.append(j)
            end = j
        if len(named) < MIN_LISTED:
            continue
        claimed.update(named)
        stop = next((k for k in range(end + 1, len(candidates)) if out[k] <= level), len(candidates))
        for k in range(i + 1, stop):
            out[k] += 1
    return out


def _entries(rows: list[Row]) -> list[tuple[float, str]]:
    """(top, title key) of the page's rows that end in an arabic page number: what a list of contents prints."""
    found = []
    for row in rows:
        if not row.text[-1:].isdigit() or not _ENTRY_END.search(row.text):
            continue  # the cheap tests first: most rows end in a word, a table's in figures after figures
        title, number, _leaders = split_trailing_page(row.text)
        if number is not None and number.isdigit():
            key = title_key(title)
            if key:
                found.append((row.y0, key))
    return found


def _is_listed(key: str, listed: list[str]) -> bool:
    """True when one of the listed titles reads as the heading's title key `key` (fuzzy, leading numbering and
    punctuation dropped) and carries the same numbers. Fuzzy alone lets a number decide nothing: "quarterly
    results" is 92 from "quarterly results 7", and "note 12 income taxes" 95 from "note 13 income taxes"."""
    if not key:
        return False
    numbers = _NUMBER.findall(key)
    return any(fuzz.ratio(key, entry) >= MATCH_RATIO and _NUMBER.findall(entry) == numbers for entry in listed)
