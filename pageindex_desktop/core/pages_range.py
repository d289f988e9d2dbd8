"""Page-range specs like "5-7,12": parsed once here for the CLI's `pages` and the agent's get_page_content."""

from __future__ import annotations

import re

from pageindex_desktop.core.errors import PageIndexError

# A single spec may not ask for more than this many pages (guards "1-999999999" against building huge lists).
MAX_SPAN = 100_000
_PART = re.compile(r"^(\d+)?\s*(?:(-|–|\.\.)\s*(\d+)?)?$")


class PageRangeError(PageIndexError, ValueError):
    """A page-range spec that cannot be read (the message says what was wrong and shows the expected form)."""


def parse_page_ranges(spec: str, page_count: int) -> tuple[list[int], list[int]]:
    """The pages a spec names that exist (sorted, unique) and the ones it names beyond the document (sorted).

    Accepts comma-separated single pages and inclusive ranges: "12", "5-7", "5-" (to the end), "-3" (from the
    start), "5..7" and "5–7"; spaces are ignored and a reversed range ("7-5") means the same pages. Page 0 is
    not a page and is reported as skipped.
    """
    if not spec or not spec.strip():
        raise PageRangeError("No pages given; use a form like '5-7,12'.")
    wanted: set[int] = set()
    for raw in spec.split(","):
        part = raw.strip()
        if not part:
            continue
        match = _PART.match(part)
        if match is None or (match.group(1) is None and match.group(3) is None):
            raise PageRangeError(f"'{part}' is not a page or a page range; use a form like '5-7,12'.")
        first, dash, last = match.group(1), match.group(2), match.group(3)
        if dash is None:
            start = end = int(first)
        else:
            start = int(first) if first is not None else 1
            end = int(last) if last is not None else max(page_count, start)
        if start > end:
            start, end = end, start
        if end - start + 1 > MAX_SPAN:
            raise PageRangeError(f"'{part}' asks for more than {MAX_SPAN} pages.")
        wanted.update(range(start, end + 1))
    if not wanted:
        raise PageRangeError("No pages given; use a form like '5-7,12'.")
    pages = sorted(p for p in wanted if 1 <= p <= page_count)
    skipped = sorted(p for p in wanted if p < 1 or p > page_count)
    return pages, skipped


def format_page_ranges(pages: list[int]) -> str:
    """The compact spec for a list of pages ([5, 6, 7, 12] → "5-7,12"); the inverse of parse_page_ranges."""
    out: list[str] = []
    ordered = sorted(set(pages))
    index = 0
    while index < len(ordered):
        start = end = ordered[index]
        while index + 1 < len(ordered) and ordered[index + 1] == end + 1:
            index += 1
            end = ordered[index]
        out.append(str(start) if start == end else f"{start}-{end}")
        index += 1
    return ",".join(out)
