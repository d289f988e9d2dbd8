"""Issue 11 cause 1, slide decks whose sections appear only on a contents slide that links each one to its
first slide (beamer's `\\tableofcontents` frame in a theme without a navigation bar). On PDFs built here."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.layout import find_layout_headings

WIDTH, HEIGHT = 364.0, 273.0
DECK = [("Introduction", ["Why This Matters"]), ("Method", ["Architecture", "Loss Function"]),
        ("Experiments", []), ("Conclusion", ["Summary"])]
BULLETS = ["• The model reads each input once", "• Results are compared over runs", "• Costs grow with the input"]


def _frame(doc: pymupdf.Document, title: str) -> None:
    """A slide with its frame title and three bullets, naming no section."""
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    page.insert_text((20, 30), title, fontsize=14, fontname="helv")
    for b, bullet in enumerate(BULLETS):
        page.insert_text((30, 80 + 22 * b), bullet, fontsize=11, fontname="helv")


def _deck(path: Path, linked: bool) -> list[tuple[int, str, int]]:
    """A title slide, a contents slide listing DECK (subsections indented), then a slide opening each section
    and two per subsection; with `linked`, each contents entry links to the slide it opens on. Returns (level,
    title, page) of every contents entry."""
    doc = pymupdf.open()
    doc.new_page(width=WIDTH, height=HEIGHT).insert_text((60, 110), "Learning to Read Long Inputs", fontsize=16,
                                                         fontname="helv")
    doc.new_page(width=WIDTH, height=HEIGHT).insert_text((20, 30), "Outline", fontsize=14, fontname="helv")
    expected: list[tuple[int, str, int]] = []
    for section, subsections in DECK:
        expected.append((1, section, len(doc) + 1))
        _frame(doc, "Where we are")
        for sub in subsections:
            expected.append((2, sub, len(doc) + 1))
            _frame(doc, f"{sub}: the idea")
            _frame(doc, f"{sub}: the numbers")
    contents = doc[1]
    for index, (level, title, page) in enumerate(expected):
        y = 70 + 18 * index
        x = 40 if level == 1 else 58
        contents.insert_text((x, y), title, fontsize=11, fontname="helv")
        if linked:
            box = pymupdf.Rect(x, y - 10, x + pymupdf.get_text_length(title, "helv", 11), y + 3)
            contents.insert_link({"kind": pymupdf.LINK_GOTO, "from": box, "page": page - 1})
    doc.save(path)
    return expected


def test_a_decks_contents_slide_links_its_sections_to_where_they_start(tmp_path: Path) -> None:
    """The contents slide's links say where each section and subsection starts; the slides name neither, so
    before, no section was found and the tree fell back to page groups. Now the entries are the deck's
    layout headings, subsections a level down, and the tree is built from them."""
    path = tmp_path / "deck.pdf"
    expected = _deck(path, linked=True)
    doc = extract(path)
    assert [(h.level, h.title, h.page) for h in find_layout_headings(doc)] == expected
    outline = build_outline(doc, use_bookmarks=False)
    assert outline.source == "layout"
    assert [(n.title, n.start_page) for n in outline.nodes[1:]] == [(t, p) for level, t, p in expected if level == 1]
    assert all(n.verified for n in outline.nodes[1:])  # the links vouch for where they start


def test_an_unlinked_contents_slide_places_no_section(tmp_path: Path) -> None:
    """The same slide without links says nothing of where its entries start: no heading comes from it."""
    path = tmp_path / "deck.pdf"
    _deck(path, linked=False)
    titles = {h.title for h in find_layout_headings(extract(path))}
    assert not titles & {title for title, _subs in DECK}


def _sidebar_deck(path: Path) -> list[tuple[int, str, int]]:
    """A deck with a sidebar on every slide listing and linking DECK's sections (6 pt, a long name wrapped over
    two lines) and subsections (4 pt, indented), and no contents slide. Returns (level, title, page) of every
    entry."""
    plan: list[tuple[int, str]] = []
    for section, subsections in DECK:
        plan.append((1, "Experiments and Their Results" if section == "Experiments" else section))
        plan.extend((2, sub) for sub in subsections)
    doc = pymupdf.open()
    doc.new_page(width=WIDTH, height=HEIGHT).insert_text((60, 110), "Learning to Read Long Inputs", fontsize=16,
                                                         fontname="helv")
    expected: list[tuple[int, str, int]] = []
    for level, title in plan:
        expected.append((level, title, len(doc) + 1))
        _frame(doc, f"{title}: the idea")
        _frame(doc, f"{title}: the numbers")
    for page in doc.pages(1):
        y = 40.0
        for level, title, target in expected:
            lines = ["Experiments and", "Their Results"] if title.startswith("Experiments") else [title]
            size = 6 if level == 1 else 4
            for line in lines:
                page.insert_text((3 + 2 * (level - 1), y), line, fontsize=size, fontname="helv")
                box = pymupdf.Rect(2, y - size, 2 + pymupdf.get_text_length(line, "helv", size) + 2, y + 1)
                page.insert_link({"kind": pymupdf.LINK_GOTO, "from": box, "page": target - 1})
                y += size + 2
    doc.save(path)
    return expected


def test_a_sidebar_linking_every_section_gives_them_when_no_contents_slide_does(tmp_path: Path) -> None:
    """A sidebar theme (beamer's Hannover) lists every section and subsection on every slide in small type,
    each a link to where it starts, and the deck has no contents slide: the sidebar's links give the sections,
    a subsection by its smaller type, and a name wrapped over two lines of the narrow sidebar is one title."""
    path = tmp_path / "sidebar.pdf"
    expected = _sidebar_deck(path)
    assert [(h.level, h.title, h.page) for h in find_layout_headings(extract(path))] == expected
