"""The bookmarked corpus PDFs and the trees scored against their bookmarks (bench and default-run floor).

The bench (`bench_tree_quality.py`) prints every figure; `tests/core/test_tree_floor.py` asserts floors on the
same numbers so regressions fail the default run. Both read the corpus through here so they score alike.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE, Node
from pageindex_desktop.core.ingest.pdf import extract
from tests.bench.tree_score import Entry, Score, nested, truth_from_toc
from tests.conftest import CORPUS

# Bookmarks that are not a section tree (corpus README): TAMReview's single "htmldoc797.html" entry and
# mistitled_outlines_example's deliberately wrong titles. Reported, never counted.
JUNK_OUTLINES = {"pdfjs__TAMReview.pdf", "py-pdf__mistitled_outlines_example.pdf"}
PASSWORDS = {"pdfplumber__password-example.pdf": "test"}


def documents() -> list[tuple[str, ExtractedDocument]]:
    """Every corpus PDF that opens and has at least one bookmark with a target page, by file name."""
    docs = []
    for path in sorted(Path(CORPUS).glob("*.pdf")):
        try:
            doc = extract(path, PASSWORDS.get(path.name))
        except Exception:  # broken corpus files are other benches' business
            continue
        if truth_from_toc(doc.toc):
            docs.append((path.name, doc))
    return docs


def pipeline_entries(doc: ExtractedDocument) -> tuple[str, list[Entry]]:
    """The outline source that won and its sections (front-matter node left out), bookmarks ignored."""
    outline = build_outline(doc, use_bookmarks=False)
    return outline.source, outline_entries(outline.nodes)


def bookmark_entries(doc: ExtractedDocument) -> tuple[str, list[Entry]]:
    """The tree the app builds with bookmarks used (validated, repaired, kept whole), and its source.

    Scored against the same bookmarks it is built from, it measures what rejection and repair lose: a valid
    outline taken for junk, a sound entry moved by a broken one. It says nothing of the heading finders.
    """
    outline = build_outline(doc, use_bookmarks=True)
    return outline.source, outline_entries(outline.nodes)


def outline_entries(nodes: list[Node]) -> list[Entry]:
    """A built tree's sections in reading order (the synthetic front-matter node left out), nested as built."""
    rows: list[tuple[int, str, int]] = []

    def visit(children: list[Node]) -> None:
        for node in children:
            if node.title != FRONT_MATTER_TITLE:
                rows.append((node.level, node.title, node.start_page))
            visit(node.children)

    visit(nodes)
    return nested(rows)


def layout_entries(doc: ExtractedDocument) -> list[Entry]:
    """The layout finder's headings on their own, nested by their levels."""
    return nested((h.level, h.title, h.page) for h in find_layout_headings(doc))


def shares(scores: list[Score]) -> tuple[float, float, float]:
    """Level, parent and start-page (within one) shares pooled over every match."""
    matched = sum(s.matched for s in scores)
    if not matched:
        return 0.0, 0.0, 0.0
    return (sum(s.level_ok for s in scores) / matched, sum(s.parent_ok for s in scores) / matched,
            sum(s.page_ok for s in scores) / matched)


def font_size_baseline(doc: ExtractedDocument) -> list[Entry]:
    """Lines set at least 2 pt above the dominant body size: the heuristic to beat."""
    sizes: Counter[float] = Counter()
    for page in doc.pages:
        for line in page.lines:
            sizes[round(line.size)] += len(line.text)
    if not sizes:
        return []
    body = sizes.most_common(1)[0][0]
    return [Entry(line.text, page.number) for page in doc.pages for line in page.lines if line.size >= body + 2]
