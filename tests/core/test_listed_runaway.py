"""Issue 11 robustness: a section's own listing (core/outline/listed_children.py) nests only what it really lists.

Headings whose titles end in numbers, or rows naming the sections on every page, once chained each heading one
level under the one before (a stress PDF reached tree level 2,156). Each PDF is built here with pymupdf.
"""

from __future__ import annotations

import time
from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.tree import Node
from tests.core.built_pages import paragraph, write_line

FIRST = ["Regional", "Annual", "Quarterly", "Operating", "Capital", "Market", "Customer", "Product", "Research",
         "Supply"]
SECOND = ["results", "review", "outlook", "summary", "figures", "targets", "measures", "costs", "plans", "risks"]


def _title(i: int) -> str:
    """A distinct two-word title ("Annual review") for section `i`."""
    return f"{FIRST[i % 10]} {SECOND[(i // 10) % 10]}"


def _sections(path: Path, titles: list[str], rows: "list[list[str]]") -> Path:
    """One page per title: a few body lines (so no title sits where the last one did), the title as a heading,
    a paragraph, then the page's short rows in small type."""
    doc = pymupdf.open()
    for n, (title, lines) in enumerate(zip(titles, rows)):
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, 80, 1 + n % 4)
        y = paragraph(page, write_line(page, y + 8, title, size=16, bold=True) + 4, 4)
        for line in lines:
            y = write_line(page, y, line, size=8)
        paragraph(page, y + 6, 3)
    doc.save(path)
    return path


def _depth(nodes: list[Node]) -> int:
    return max((1 + _depth(n.children) for n in nodes), default=0)


def _tree(path: Path) -> tuple[list[Node], float]:
    """The tree users get without bookmarks, and the CPU seconds it took."""
    doc = extract(path)
    start = time.process_time()
    outline = build_outline(doc, use_bookmarks=False)
    assert outline.source == "layout"
    return outline.nodes, time.process_time() - start


def test_titles_ending_in_numbers_do_not_list_each_other(tmp_path: Path) -> None:
    """Each page names the next five sections by their titles, numbers and all ("Annual review 12"): the
    number is the title's own, not a page, so nothing lists anything and the sections stay side by side."""
    count = 60
    titles = [f"{_title(i)} {i + 1}" for i in range(count)]
    rows = [[f"{_title(k)} {k + 1}" for k in range(n + 1, min(count, n + 6))] for n in range(count)]
    path = _sections(tmp_path / "numbered.pdf", titles, rows)
    levels = {h.title: h.level for h in find_layout_headings(extract(path))}
    assert [levels.get(t) for t in titles] == [1] * count
    nodes, cpu = _tree(path)
    assert _depth(nodes) == 1
    assert cpu < 5.0


def test_an_index_printed_on_every_page_lists_no_section(tmp_path: Path) -> None:
    """A footer naming every section with its page, printed on each page, names the page's own heading too: it
    is the document's index, not the section's list of children."""
    count = 30
    titles = [_title(i) for i in range(count)]
    index = [f"{t} {k + 1}" for k, t in enumerate(titles)]
    path = _sections(tmp_path / "footer.pdf", titles, [index] * count)
    levels = {h.title: h.level for h in find_layout_headings(extract(path))}
    assert [levels.get(t) for t in titles] == [1] * count
    assert _depth(_tree(path)[0]) == 1


def test_a_section_named_by_one_listing_is_not_claimed_by_the_next(tmp_path: Path) -> None:
    """Each page names every later section with its page. The first page's list claims them all; the second
    page's list names the same sections again and moves nothing further down, so the tree is two deep, not
    one level per page."""
    count = 30
    titles = [_title(i) for i in range(count)]
    rows = [[f"{t} {k + 1}" for k, t in enumerate(titles) if k > n] for n in range(count)]
    path = _sections(tmp_path / "onward.pdf", titles, rows)
    levels = {h.title: h.level for h in find_layout_headings(extract(path))}
    assert [levels.get(t) for t in titles] == [1] + [2] * (count - 1)
    assert _depth(_tree(path)[0]) == 2


def test_a_list_of_numbered_headings_still_nests_them(tmp_path: Path) -> None:
    """The numbers must agree, not vanish: "Schedule 2 Costs ..... 4" still names "Schedule 2 Costs"."""
    titles = ["Supplementary Schedules", "Schedule 1 Revenue by Region", "Schedule 2 Operating Costs",
              "Schedule 3 Capital Spending", "Auditor Remarks"]
    rows = [[f"{t} {k + 2}" for k, t in enumerate(titles[1:4])], [], [], [], []]
    path = _sections(tmp_path / "schedules.pdf", titles, rows)
    levels = {h.title: h.level for h in find_layout_headings(extract(path))}
    assert [levels.get(t) for t in titles] == [1, 2, 2, 2, 1]
