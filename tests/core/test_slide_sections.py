"""Issue 11 class 1, slide decks whose sections appear only in a navigation bar: beamer-like decks built here
with pymupdf (128 x 96 mm slides) in the shapes of beamer's navigation themes, and decks without a bar."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.analysis import analyse
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.nav_bar import find_nav_headings
from tests.bench.tree_score import normalise
from tests.conftest import CORPUS

WIDTH, HEIGHT = 364.0, 273.0
BAND = (0.15, 0.2, 0.45)  # the headline's dark blue
CURRENT = (1.0, 1.0, 1.0)  # the current entry, in full colour
FADED = (0.58, 0.6, 0.72)  # the others, mixed toward the band (beamer's "shaded")
SECTIONS = ["Introduction", "Related Work", "Our Method", "Experiments", "Conclusion"]
SUBSECTIONS = {0: ["Motivation", "Problem"], 2: ["Model", "Training", "Inference"], 3: ["Datasets", "Results"]}
BULLETS = ["• The model reads each input once and keeps a summary", "• Results are compared over five runs",
           "• Costs grow with the length of the input"]

# (section index or -1 before the first section, subsection index or -1, frame title): a title slide and an
# outline slide before the first section, overlays repeating a frame title, sections with and without
# subsections
SLIDES = [(-1, -1, ""), (-1, -1, "Outline"),
          (0, 0, "Why This Matters"), (0, 0, "Why This Matters"), (0, 1, "The Question"),
          (1, -1, "Earlier Approaches"), (1, -1, "What They Miss"),
          (2, 0, "Architecture"), (2, 0, "Architecture"), (2, 1, "Loss Function"), (2, 2, "Decoding"),
          (3, 0, "Benchmarks"), (3, 1, "Main Table"), (3, 1, "Ablations"),
          (4, -1, "Summary"), (4, -1, "Questions")]


def _first_pages() -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(page, title) where each section and each subsection of SLIDES starts."""
    sections: list[tuple[int, str]] = []
    subsections: list[tuple[int, str]] = []
    last: tuple[int, int] = (-1, -1)
    for page, (sec, sub, _title) in enumerate(SLIDES, start=1):
        if sec >= 0 and sec != last[0]:
            sections.append((page, SECTIONS[sec]))
        if sub >= 0 and (sec, sub) != last:
            subsections.append((page, SUBSECTIONS[sec][sub]))
        last = (sec, sub)
    return sections, subsections


def _body(page: pymupdf.Page, title: str, x: float) -> None:
    """A frame title (14 pt bold) and three 11 pt bullets; the title slide gets the talk's title instead."""
    if not title:
        page.insert_text((x + 20, 110), "Learning to Read Long Inputs", fontsize=16, fontname="hebo")
        page.insert_text((x + 20, 140), "A. Author and B. Author", fontsize=11, fontname="helv")
        return
    page.insert_text((x, 50), title, fontsize=14, fontname="hebo")
    for i, bullet in enumerate(BULLETS):
        page.insert_text((x, 85 + 22 * i), bullet, fontsize=11, fontname="helv")


def _headline(page: pymupdf.Page, entries: list[str], current: int, y: float, x0: float = 8.0) -> None:
    """One row of a headline: every entry, the current one in full colour, spread over the slide's width."""
    step = (WIDTH - 2 * x0) / max(1, len(entries))
    for i, text in enumerate(entries):
        page.insert_text((x0 + i * step, y), text, fontsize=6, fontname="helv",
                         color=CURRENT if i == current else FADED)


def _deck(path: Path, theme: str) -> Path:
    """SLIDES set in one navigation theme's shape."""
    doc = pymupdf.open()
    for sec, sub, title in SLIDES:
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        subs = SUBSECTIONS.get(sec, [])
        if theme in ("bar", "two rows"):  # Berlin, Frankfurt, Singapore: the sections over the frame title
            page.draw_rect(pymupdf.Rect(0, 0, WIDTH, 24 if theme == "two rows" else 16), color=BAND, fill=BAND)
            _headline(page, SECTIONS, sec, 10)
            if theme == "two rows" and subs:  # Berlin with subsections: the current section's ones below
                _headline(page, subs, sub, 20, x0=30)
            _body(page, title, 16)
        elif theme == "split":  # Warsaw, Copenhagen: sections down the left half, subsections on the right
            page.draw_rect(pymupdf.Rect(0, 0, WIDTH, 16), color=BAND, fill=BAND)
            for i, name in enumerate(SECTIONS):
                page.insert_text((6 + 34 * i, 10), name, fontsize=5, fontname="helv",
                                 color=CURRENT if i == sec else FADED)
            for k, name in enumerate(subs):
                page.insert_text((WIDTH / 2 + 8 + 46 * k, 10), name, fontsize=5, fontname="helv",
                                 color=CURRENT if k == sub else FADED)
            _body(page, title, 16)
        elif theme == "stacked":  # Warsaw as pdfLaTeX sets it: the sections one under the other, flush right
            page.draw_rect(pymupdf.Rect(0, 0, WIDTH, 34), color=BAND, fill=BAND)
            for i, name in enumerate(SECTIONS):
                x = WIDTH / 2 - 8 - pymupdf.get_text_length(name, "helv", 5)
                page.insert_text((x, 7 + 6 * i), name, fontsize=5, fontname="helv",
                                 color=CURRENT if i == sec else FADED)
            for k, name in enumerate(subs):
                page.insert_text((WIDTH / 2 + 8, 7 + 6 * k), name, fontsize=5, fontname="helv",
                                 color=CURRENT if k == sub else FADED)
            _body(page, title, 16)
        elif theme == "sidebar":  # Goettingen, PaloAlto: the sections down a side bar, subsections indented
            page.draw_rect(pymupdf.Rect(0, 0, 80, HEIGHT), color=BAND, fill=BAND)
            y = 30.0
            for i, name in enumerate(SECTIONS):
                page.insert_text((6, y), name, fontsize=7, fontname="helv", color=CURRENT if i == sec else FADED)
                y += 12
                if i == sec:
                    for k, name_sub in enumerate(subs):
                        page.insert_text((14, y), name_sub, fontsize=6, fontname="helv",
                                         color=CURRENT if k == sub else FADED)
                        y += 10
            _body(page, title, 92)
        elif theme == "infolines":  # Madrid, Boadilla: current section | current subsection as plain text
            if sec >= 0:
                name = SECTIONS[sec]
                page.insert_text((WIDTH / 2 - 12 - 3 * len(name), 9), name, fontsize=6, fontname="helv")
                if sub >= 0:
                    page.insert_text((WIDTH / 2 + 12, 9), SUBSECTIONS[sec][sub], fontsize=6, fontname="helv")
            _body(page, title, 16)
            page.insert_text((WIDTH - 40, HEIGHT - 5), f"{doc.page_count} / {len(SLIDES)}", fontsize=6,
                             fontname="helv")
        elif theme == "footline":  # a custom footline: "Author | Title | Section" in one line
            if sec >= 0:
                text = f"A. Author | Learning to Read Long Inputs | {SECTIONS[sec]}"
                page.insert_text((10, HEIGHT - 5), text, fontsize=6, fontname="helv")
            _body(page, title, 16)
    doc.save(path)
    return path


def _tree(path: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(page, title) of the layout headings at levels 1 and 2."""
    headings = find_layout_headings(extract(path))
    return ([(h.page, h.title) for h in headings if h.level == 1],
            [(h.page, h.title) for h in headings if h.level == 2])


@pytest.mark.parametrize("theme", ["bar", "sidebar"])
def test_sections_start_where_the_highlighted_entry_changes(tmp_path: Path, theme: str) -> None:
    """A headline row (or a sidebar) listing every section, the current one in full colour and the rest faded:
    a section starts where the highlighted entry changes, and neither the bar's rows nor the frame titles
    (repeated by overlays) are headings. The sidebar also lists the current section's subsections, indented:
    the second level."""
    sections, subsections = _first_pages()
    level1, level2 = _tree(_deck(tmp_path / "deck.pdf", theme))
    assert level1 == sections
    assert level2 == (subsections if theme == "sidebar" else [])


def test_an_appendix_part_lists_its_own_sections(tmp_path: Path) -> None:
    """Beamer's appendix is a new part: its slides' bar lists only the appendix's sections. They follow the
    main sections, found by the main bar's highlight."""
    path = _deck(tmp_path / "main.pdf", "bar")
    doc = pymupdf.open(path)
    for current, title in [(0, "Extra Results"), (0, "More Ablations"), (1, "Proof of Lemma 1")]:
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        page.draw_rect(pymupdf.Rect(0, 0, WIDTH, 16), color=BAND, fill=BAND)
        _headline(page, ["Backup", "Proofs"], current, 10)
        _body(page, title, 16)
    doc.save(tmp_path / "deck.pdf")
    sections, _subsections = _first_pages()
    level1, _level2 = _tree(tmp_path / "deck.pdf")
    assert level1 == sections + [(17, "Backup"), (19, "Proofs")]


@pytest.mark.parametrize("theme", ["two rows", "split", "stacked"])
def test_a_second_headline_row_gives_the_subsections(tmp_path: Path, theme: str) -> None:
    """Sections over the current section's subsections (two highlighted rows), or beside them in one row
    split in halves, or stacked one under the other in the headline's halves (the sections flush right, the
    subsections flush left: each line was a bar of one entry, and no section was found): both levels, each
    subsection under its section, a subsection starting on its section's first slide too; the built tree
    nests them."""
    sections, subsections = _first_pages()
    extracted = extract(_deck(tmp_path / "deck.pdf", theme))
    headings = find_layout_headings(extracted)
    assert [(h.page, h.title) for h in headings if h.level == 1] == sections
    assert [(h.page, h.title) for h in headings if h.level == 2] == subsections
    assert [h.title for h in headings][:3] == ["Introduction", "Motivation", "Problem"]
    outline = build_outline(extracted, use_bookmarks=False)  # the tree the app shows: spans end at the next one
    method = next(node for node in outline.nodes if node.title == "Our Method")
    assert (outline.source, method.start_page, method.end_page) == ("layout", 8, 11)
    assert [(n.title, n.start_page, n.end_page) for n in method.children] == [
        ("Model", 8, 9), ("Training", 10, 10), ("Inference", 11, 11)]


def test_plain_section_and_subsection_names_in_the_headline(tmp_path: Path) -> None:
    """No highlight: the headline prints the current section's name on the left and the subsection's on the
    right, in plain text that changes when the section does; the frame counter in the footline is no slot."""
    sections, subsections = _first_pages()
    level1, level2 = _tree(_deck(tmp_path / "deck.pdf", "infolines"))
    assert level1 == sections
    assert level2 == subsections


def test_section_name_in_one_footline_line(tmp_path: Path) -> None:
    """"Author | Title | Section" as one line of the footline: the author and title stay, the third place
    names the section."""
    sections, _subsections = _first_pages()
    level1, level2 = _tree(_deck(tmp_path / "deck.pdf", "footline"))
    assert level1 == sections
    assert level2 == []


def test_a_bar_without_a_highlight_is_no_outline(tmp_path: Path) -> None:
    """Every entry in the same colour on every slide says nothing about where a section starts, and a
    footline counter held over each frame's two overlays ("Slide 3" twice) or a source note is no section's name:
    no sections from the margins (the deck gets what layout alone finds)."""
    path = tmp_path / "flat.pdf"
    doc = pymupdf.open()
    for i, (_sec, _sub, title) in enumerate(SLIDES):
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        _headline(page, SECTIONS, -1, 10)
        _body(page, title, 16)
        page.insert_text((WIDTH - 60, HEIGHT - 5), f"Slide {1 + i // 2}", fontsize=6, fontname="helv")
        source = ["annual survey", "field notes", "census tables", "press reports"][i // 5]
        page.insert_text((10, HEIGHT - 5), f"Source: {source}", fontsize=6, fontname="helv")
    doc.save(path)
    extracted = extract(path)
    assert find_nav_headings(extracted, analyse(extracted)) is None


def test_a_report_whose_running_header_names_the_chapter_is_no_deck(tmp_path: Path) -> None:
    """A portrait report printing its chapter's name as a small running header: a header, not a slot;
    layout finds the chapters from their headings as before."""
    path = tmp_path / "report.pdf"
    doc = pymupdf.open()
    chapters = ["Background", "Field Methods", "Findings"]
    for number, chapter in enumerate(chapters, start=1):
        for k in range(3):
            page = doc.new_page(width=612, height=792)
            page.insert_text((72, 40), chapter, fontsize=8, fontname="helv")
            y = 90.0
            if k == 0:
                page.insert_text((72, y), f"{number} {chapter}", fontsize=16, fontname="hebo")
                y += 30
            for _ in range(20):
                page.insert_text((72, y), "the measurements were taken every morning and compared with the "
                                 "figures of the previous season,", fontsize=10, fontname="helv")
                y += 15
    doc.save(path)
    extracted = extract(path)
    assert find_nav_headings(extracted, analyse(extracted)) is None
    assert [(h.page, h.title) for h in find_layout_headings(extracted)] == [
        (1, "1 Background"), (4, "2 Field Methods"), (7, "3 Findings")]


def test_a_deck_without_a_nav_bar_keeps_its_section_slides() -> None:
    """The metropolis demo has no navigation bar, only a slide per section: no bar is read, and the layout
    tree still holds its sections on their section slides (as its contents slide lists and links them, "1.
    Introduction")."""
    extracted = extract(Path(CORPUS) / "metropolis-beamer__demo.pdf")
    assert find_nav_headings(extracted, analyse(extracted)) is None
    found = {(h.page, normalise(h.title)) for h in find_layout_headings(extracted) if h.level == 1}
    assert {(3, "introduction"), (11, "elements"), (28, "conclusion")} <= found


def test_a_line_in_two_colours_keeps_its_colour_runs(tmp_path: Path) -> None:
    """Bar entries set close together come out of MuPDF as one line: the line keeps its dominant span's colour
    and, per run of one colour, the run's text and extent, so the highlighted entry is still told apart; a
    line in one colour has no runs."""
    path = tmp_path / "runs.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    page.insert_text((10, 10), "Related Work", fontsize=5, fontname="helv", color=FADED)
    page.insert_text((44, 10), "Our Method", fontsize=5, fontname="helv", color=CURRENT)
    page.insert_text((10, 60), "One colour only", fontsize=11, fontname="helv")
    doc.save(path)
    lines = extract(path).pages[0].lines
    bar = next(line for line in lines if line.text == "Related Work Our Method")
    assert bar.color == 0x9499B8
    assert [(text, color) for text, color, _bold, _x0, _x1 in bar.runs] == [
        ("Related Work", 0x9499B8), ("Our Method", 0xFFFFFF)]
    assert bar.runs[1][3] >= 44 > bar.runs[0][4]
    assert next(line for line in lines if line.text == "One colour only").runs == ()


def test_divider_slides_set_smaller_than_the_slide_titles_stand_level_with_them(tmp_path: Path) -> None:
    """A presentation template's section header (40 pt bold capitals, alone on its slide with one line under
    it) is smaller than its slide titles (44 pt, centred, so no one spot holds them all as a beamer frame
    title's does): ranked by size, every divider but the first had gone under
    the slide before it. The dividers now stand level with the slide titles, as the deck's own outline lists
    them."""
    slides = [("divider", "SEGMENT REVIEW"), ("title", "Revenue by region"), ("title", "Margin trends"),
              ("divider", "OUTLOOK"), ("title", "Guidance for the year"), ("title", "Capital returns"),
              ("divider", "APPENDIX"), ("title", "Reconciliations")]
    doc = pymupdf.open()
    cover = doc.new_page(width=720, height=405)
    cover.insert_text((60, 180), "Investor Presentation", fontsize=44, fontname="helv")
    cover.insert_text((60, 230), "Second quarter 2025", fontsize=24, fontname="helv")
    for kind, title in slides:
        page = doc.new_page(width=720, height=405)
        if kind == "divider":
            page.insert_text((50, 230), title, fontsize=40, fontname="hebo")
            page.insert_text((50, 270), "Where the year stands and what comes next", fontsize=20, fontname="helv")
        else:
            width = pymupdf.get_text_length(title, fontname="helv", fontsize=44)
            page.insert_text(((720 - width) / 2, 60), title, fontsize=44, fontname="helv")  # centred
            for k, bullet in enumerate(BULLETS):
                page.insert_text((40, 130 + 40 * k), bullet, fontsize=24, fontname="helv")
    path = tmp_path / "deck.pdf"
    doc.save(path)
    found = [(h.title, h.level) for h in find_layout_headings(extract(path))]
    assert found == [(title, 1) for _kind, title in slides], found
