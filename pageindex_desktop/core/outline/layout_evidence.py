"""Evidence beside the heading rows themselves: what shares their baseline, and the headings around them.

`drop_table_rows` drops rows that share their baseline with figures or with two other texts: table headers,
"Total" lines and chart labels. `drop_continued_titles` keeps one of a title printed again on the next page.
`after_front_contents` drops what a cover and title pages print before the contents. `nest_notes` hangs a filing's numbered notes under the "Notes to … Financial Statements" heading over them.
"""

from __future__ import annotations

import re
from collections import Counter

from pageindex_desktop.core.outline.layout_filters import NOTE_KIND, Candidate
from pageindex_desktop.core.outline.numbering import title_key
from pageindex_desktop.core.outline.rows import Row

_NOTES_TO = re.compile(r"^notes\s+to\s+(?:the\s+)?(?:\w+\s+){0,3}financial\s+statements\b", re.IGNORECASE)
_FIGURE = re.compile(r"^[\s$€£(]*[-–—]?[0-9][0-9,.]*[)%]?\s*$|^[\s$€£]*[-–—]+\s*$")


def drop_table_rows(candidates: list[Candidate], rows_by_page: list[list[Row]], widths: list[float]) -> list[Candidate]:
    """Candidates sharing their baseline in their own column with a figure ("Total 369", "Period End ... 2023")
    or with two or more other texts (a table's column headers) are table rows, not headings. A heading in one
    column of a two-column page shares its baseline with the other column's text, which does not count."""
    kept = []
    two_columns: dict[int, bool] = {}
    for cand in candidates:
        row = cand.row
        height = row.y1 - row.y0
        rows = rows_by_page[row.page - 1]
        mid = widths[row.page - 1] / 2
        slack = 0.04 * widths[row.page - 1]
        if row.page not in two_columns:
            left = sum(1 for r in rows if r.x1 < mid + slack)
            right = sum(1 for r in rows if r.x0 > mid - slack)
            two_columns[row.page] = len(rows) >= 12 and min(left, right) >= 0.25 * len(rows)
        lo, hi = -1e9, 1e9
        if two_columns[row.page]:
            lo, hi = (-1e9, mid) if row.x1 < mid + slack else (mid, 1e9) if row.x0 > mid - slack else (lo, hi)
        others = [r for r in rows if r is not row and height > 0
                  and min(r.y1, row.y1) - max(r.y0, row.y0) >= 0.5 * min(height, r.y1 - r.y0)
                  and r.x0 < hi and r.x1 > lo]
        if len(others) >= 2 or any(_FIGURE.match(r.text) for r in others):
            continue
        kept.append(cand)
    return kept


def nest_notes(candidates: list[Candidate], levels: list[int]) -> list[int]:
    """`levels` with numbered notes ("Note 4 – Debt") one level under the "Notes to … Financial Statements"
    heading they follow, and the sub-heads between the first and last note below the notes.

    Filings set the notes in a face of their own (often larger than the heading over them), so style rank puts
    them beside or above the statements they belong to.
    """
    out = list(levels)
    notes = [i for i, c in enumerate(candidates) if c.style[2] == NOTE_KIND]
    if len(notes) < 2:
        return out
    head = next((i for i in range(notes[0] - 1, -1, -1) if _NOTES_TO.match(candidates[i].text)), None)
    if head is None:
        return out
    note_level = levels[head] + 1
    for i in range(notes[0], notes[-1] + 1):
        if candidates[i].style[2] == NOTE_KIND:
            out[i] = note_level
        elif levels[i] <= note_level:
            out[i] = note_level + 1
    return out


def drop_continued_titles(candidates: list[Candidate]) -> list[Candidate]:
    """A title printed twice in one style on one page is a label (a slide's "Example" blocks): all of them go.
    One printed again in the same style on the next page (a slide's continued frame title, "Summary of
    results" over each page of one survey section) opens no new section: only its first printing is kept."""
    per_page = Counter((title_key(c.text), c.style, c.row.page) for c in candidates)
    last: dict[tuple[str, tuple[float, bool, str]], int] = {}
    kept = []
    for cand in candidates:
        key = (title_key(cand.text), cand.style)
        if per_page[(key[0], key[1], cand.row.page)] > 1:
            continue
        seen = last.get(key)
        last[key] = cand.row.page
        if seen is not None and cand.row.page - seen == 1:
            continue
        kept.append(cand)
    return kept


def after_front_contents(candidates: list[Candidate], contents_pages: list[int], page_count: int) -> list[Candidate]:
    """Candidates from the printed contents on, when the contents is printed in the front half: the pages before
    it are the cover, title, copyright and dedication pages (a filing's SEC cover sheet, a book's half-title),
    which the contents does not list and which are no sections of the document."""
    if not contents_pages or min(contents_pages) > page_count / 2:
        return candidates  # no contents, or one printed at the back: nothing says where the front matter ends
    first = min(contents_pages)
    return [c for c in candidates if c.row.page >= first]
