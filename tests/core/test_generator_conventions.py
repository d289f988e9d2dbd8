"""Issue 11, held-out documents: the typographic conventions of the generators and document kinds the layout
tree meets outside the corpus (Word reports, FrameMaker/DITA manuals, annual reports, tax instructions), each on
a PDF built here with pymupdf and read without bookmarks or a contents page."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE, walk
from tests.core.built_pages import FILLER, paragraph, write_line


def _tree(path: Path) -> list[tuple[int, str, int]]:
    """(level, title, start page) of the layout tree, bookmarks ignored, front-matter node left out."""
    outline = build_outline(extract(path), use_bookmarks=False)
    return [(n.level, n.title, n.start_page) for n in walk(outline.nodes) if n.title != FRONT_MATTER_TITLE]


def test_sub_headings_repeated_under_each_task_on_one_page_are_sections(tmp_path: Path) -> None:
    """A DITA manual prints "Overview" and "Procedure" under every task, two tasks to a page, and an annual
    report "Highlights" under each chapter, one chapter a page: with the task's or chapter's heading between the
    two printings each is its parent's section. Taken for a label (twice on a page) or a continued title (again
    on the next page) they were all dropped."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "Model 400 Controller User Guide", 24, True)
    expected = []
    tasks = [("Mounting the Bracket", "Connecting Power"), ("Setting the Address", "Enabling Remote Access"),
             ("Replacing the Filter", "Cleaning the Sensor")]
    for c, pair in enumerate(tasks, 1):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, f"Maintenance Area {'ABC'[c - 1]}", 20, True) + 8
        expected.append((1, f"Maintenance Area {'ABC'[c - 1]}", c + 1))
        for task in pair:
            y = write_line(page, y + 6, task, 14, True)
            expected.append((2, task, c + 1))
            for sub in ("Overview", "Procedure"):
                y = paragraph(page, write_line(page, y + 4, sub, 11, True), 5)
                expected.append((3, sub, c + 1))
    path = tmp_path / "tasks.pdf"
    doc.save(path)
    assert _tree(path) == expected


def _body(page: pymupdf.Page, y: float, lines: int, size: float = 11) -> float:
    """A paragraph in a Word report's 11 pt body; returns the y below it."""
    for i in range(lines):
        y = write_line(page, y, FILLER.capitalize() if i == 0 else FILLER, size)
    return y + 4


THEME = (0.18, 0.33, 0.59)  # Word's Accent 1 blue, Heading 1 and 2
THEME_DARK = (0.12, 0.22, 0.39)  # its darker shade, Heading 3


def _word_report(path: Path, chapters: dict[str, list[str]], chapter_size: float = 16, section_size: float = 13,
                 h3: list[str] | None = None) -> list[tuple[int, str, int]]:
    """A Word report's chapters and sections in the theme colour (two Heading 3s in its darker shade under each
    section, from `h3`) over an 11 pt black body, after a title page; saved to `path`, its expected tree."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "Regional Water Quality Assessment", 26)
    expected = []
    sub_titles = iter(h3 or [])
    for chapter, sections in chapters.items():
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), chapter, fontsize=chapter_size, fontname="helv", color=THEME)
        expected.append((1, chapter, len(doc)))
        y = _body(page, 116, 3)
        for section in sections:
            page.insert_text((72, y + 12), section, fontsize=section_size, fontname="helv", color=THEME)
            expected.append((2, section, len(doc)))
            y = _body(page, y + 34, 3)
            for _ in range(2 if h3 else 0):
                title = next(sub_titles)
                page.insert_text((72, y + 10), title, fontsize=12, fontname="helv", color=THEME_DARK)
                expected.append((3, title, len(doc)))
                y = _body(page, y + 30, 4)
    doc.save(path)
    return expected


def test_word_heading_three_in_the_theme_colour_at_body_size_is_a_heading(tmp_path: Path) -> None:
    """A Word report's Heading 3 is Calibri Light 12 pt in the theme's dark blue over an 11 pt black body:
    neither larger by the layout's measure nor bold, it read as a body line and the tree lost its third level.
    Its colour, used on short rows and by no line of prose, sets it apart as bold would."""
    path = tmp_path / "word.pdf"
    expected = _word_report(path, {"Introduction": ["Purpose of the Study", "Scope and Limits"],
                                   "Methods and Data": ["Sampling Sites", "Laboratory Analysis"]},
                            h3=["Surface Water", "Groundwater", "Sediment Cores", "Soil Moisture", "Air Quality",
                                "River Biota", "Wetland Plants", "Coastal Waters"])
    assert _tree(path) == expected


def test_a_long_chapter_title_in_sentence_case_does_not_spoil_its_colour(tmp_path: Path) -> None:
    """Chapters and their sections in one colour, the sections at the body's size and weight, and a chapter
    titled in sentence case with eight words ("Chapter 1: Key findings of the survey and their causes"). Set
    larger and closed by no full stop, that title is no line of prose, so the colour still marks the
    sections."""
    path = tmp_path / "chapters.pdf"
    expected = _word_report(path, {"Chapter 1: Key findings of the survey and their causes": ["Surface Water",
                                                                                            "Groundwater"],
                                   "Chapter 2: Methods": ["Sampling Sites", "Laboratory Analysis"]},
                            chapter_size=18, section_size=11)
    assert _tree(path) == expected


_COLUMNS = (40.0, 220.0, 400.0)  # a tax form's three columns, 170 pt wide


class _Columns:
    """Writes a three-column page flow: lines fill a column top-down, then the next, then a new page."""

    def __init__(self, doc: pymupdf.Document) -> None:
        self.doc, self.column, self.y = doc, 2, 1e9
        self.page: pymupdf.Page | None = None

    def line(self, text: str, size: float = 8.5, bold: bool = False, band: bool = False) -> int:
        """Put one line (white on a dark band when `band`) and return its page number."""
        if self.y + size * 1.4 > 740:
            self.column += 1
            if self.column == 3:
                self.page = self.doc.new_page(width=612, height=792)
                self.page.insert_text((40, 40), "2024 Instructions for Form 9999", fontsize=8, fontname="helv")
                self.column = 0
            self.y = 120.0 if len(self.doc) == 1 else 70.0
        assert self.page is not None
        x = _COLUMNS[self.column]
        if band:
            self.page.draw_rect(pymupdf.Rect(x - 2, self.y + 2, x + 170, self.y + size * 1.7), color=None,
                                fill=(0.1, 0.1, 0.1))
        self.y += size * 1.4
        self.page.insert_text((x, self.y), text, fontsize=size, fontname="hebo" if bold else "helv",
                              color=(1, 1, 1) if band else (0, 0, 0))
        self.y += 4 if bold else 0
        return len(self.doc)


def test_three_column_instructions_keep_their_sections(tmp_path: Path) -> None:
    """Tax instructions are set in three narrow columns (lines of about 40 characters) under a title across
    the first page, sections in a dark band and bold sub-heads. Read by the page's halves, the first two
    columns' lines interleaved and each heading shared its baseline with the other columns' lines (a table
    row, a crowded cell); no line reached the 50 characters of running text, so every page with four headings
    was a cover and the first page all title block: the tree had one section of thirteen."""
    doc = pymupdf.open()
    flow = _Columns(doc)
    flow.line("")
    assert flow.page is not None
    flow.page.insert_text((40, 100), "Instructions for Form 9999", fontsize=20, fontname="hebo")
    words = FILLER.split()
    expected = []
    sections = {"What's New": ["Increased Limit", "New Credit"], "Reminders": ["Electronic Filing", "Direct Deposit"],
                "General Instructions": ["Purpose of Form", "Who Must File", "When To File"],
                "Specific Instructions": ["Income and Credits", "Payments and Refunds"]}
    for n, (section, subs) in enumerate(sections.items()):
        expected.append((1, section, flow.line(section, 11, True, band=True)))
        for k, sub in enumerate(subs):
            expected.append((2, sub, flow.line(sub, 10, True)))
            for i in range(22 + 5 * ((n + k) % 3)):
                start = (i * 3 + n) % (len(words) - 6)
                flow.line(" ".join(words[start:start + 6]))
    path = tmp_path / "instructions.pdf"
    doc.save(path)
    assert _tree(path) == expected


def test_annex_label_its_qualifier_and_title_are_one_heading(tmp_path: Path) -> None:
    """A standard opens each annex with three centred lines, "Annex A", "(normative)" and the title: one
    heading, as its bookmarks give it. The regular qualifier between label and title kept them apart, so the
    bare label and the title were two sections."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "Example Material — Specification", 18, True) + 10
    y = write_line(page, y, "1 Scope", 12, True)
    for number, title in ((2, "Normative references"), (3, "Terms and definitions")):
        y = write_line(page, paragraph(page, y, 6) + 8, f"{number} {title}", 12, True)
    paragraph(page, y, 6)
    for letter, kind, title in (("A", "normative", "Additional test procedures"),
                                ("B", "informative", "Examples of use")):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 100, f"Annex {letter}", 12, True, x=270)
        y = write_line(page, y, f"({kind})", 11, x=265)
        y = write_line(page, y, title, 12, True, x=230) + 8
        y = write_line(page, paragraph(page, y, 6) + 8, f"{letter}.1 General", 11, True)
        paragraph(page, y, 6)
    path = tmp_path / "standard.pdf"
    doc.save(path)
    assert [(level, title) for level, title, _ in _tree(path)] == [
        (1, "1 Scope"), (1, "2 Normative references"), (1, "3 Terms and definitions"),
        (1, "Annex A (normative) Additional test procedures"), (2, "A.1 General"),
        (1, "Annex B (informative) Examples of use"), (2, "B.1 General")]


def test_manual_opening_on_its_first_chapter_keeps_it(tmp_path: Path) -> None:
    """A manual (or one chapter of it) whose first page opens with the bare "Chapter 1" over the chapter's
    title, no cover or title block: the first page's rows above its first body line were all read as the title
    block, and the first chapter was lost, its sections hung at the top."""
    doc = pymupdf.open()
    expected = []
    chapters = {"Getting Started": ["Unpacking the Unit", "Choosing a Location"],
                "Operating the Unit": ["Powering On", "Shutting Down"],
                "Troubleshooting": ["Error Codes", "Contacting Support"]}
    for c, (chapter, sections) in enumerate(chapters.items(), 1):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 120, f"Chapter {c}", 14, True)
        y = write_line(page, y + 16, chapter, 24, True) + 10
        expected.append((1, chapter, len(doc)))
        for section in sections:
            y = paragraph(page, write_line(page, paragraph(page, y, 4) + 8, section, 14, True), 8)
            expected.append((2, section, len(doc)))
    path = tmp_path / "manual.pdf"
    doc.save(path)
    assert _tree(path) == expected


def test_kicker_over_a_display_title_is_no_section(tmp_path: Path) -> None:
    """An InDesign annual report prints a small bold label in colour right over each chapter's display title
    ("OUR STRATEGY" in 9 pt over "Building for the Future" in 32 pt): the title is the section. The kicker
    was a heading of its own, hung under the previous chapter's last section."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "Annual Report 2024", 44, True)
    expected = []
    chapters = [("OUR YEAR", "A Year of Growth", "Our Markets"), ("OUR STRATEGY", "Building for the Future",
                "Investing in People"), ("GOVERNANCE", "Leadership and Oversight", "Risk Management")]
    for kicker, title, section in chapters:
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 100), kicker, fontsize=9, fontname="hebo", color=(0.8, 0.3, 0.1))
        page.insert_text((72, 136), title, fontsize=32, fontname="helv", color=THEME_DARK)
        expected.append((1, title, len(doc)))
        y = paragraph(page, 170, 8)
        y = paragraph(page, write_line(page, y + 10, section, 13, True), 10)
        expected.append((2, section, len(doc)))
    path = tmp_path / "annual.pdf"
    doc.save(path)
    assert _tree(path) == expected


def test_numbered_list_in_the_body_is_no_heading(tmp_path: Path) -> None:
    """A Word report's numbered list, "1." at the list indent and its item's words after a tab, in the body's
    face and size, one item a line: each item read as a numbered heading (36 headings for 12 sections on a
    built report). A numbered heading in the body's face has its paragraph under it; items follow one another
    line after line, counting on at one indentation."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "Programme Evaluation Report", 26)
    items = ["Improve the Sampling Network", "Publish Quarterly Results", "Train Regional Staff"]
    expected = []
    for chapter in ("Findings", "Recommendations"):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), chapter, fontsize=16, fontname="helv", color=THEME)
        expected.append((1, chapter, len(doc)))
        y = _body(page, 116, 3)
        for section in ("Context", "Evidence"):
            page.insert_text((72, y + 12), section, fontsize=13, fontname="helv", color=THEME)
            expected.append((2, section, len(doc)))
            y = _body(page, y + 34, 3)
            for k, item in enumerate(items, 1):
                page.insert_text((90, y), f"{k}.", fontsize=11, fontname="helv")
                y = write_line(page, y, item, 11, x=108) - 2
            y = _body(page, y + 8, 3)
    path = tmp_path / "lists.pdf"
    doc.save(path)
    assert _tree(path) == expected


def test_numbered_sub_heads_sharing_a_title_on_a_page_are_sections(tmp_path: Path) -> None:
    """An Apache FOP specification sets every heading bold at the body's size, numbered 1 / 1.1 / 1.1.1, and
    its clauses repeat sub-titles ("1.1.2 Timing", "1.2.1 Timing" on one page): with the number left out of
    the key, the two were one title printed twice on a page, a label, and both were dropped."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "Message Interface Specification", 20, True)
    expected = []
    for c, chapter in enumerate(("General", "Messages"), 1):
        page = doc.new_page(width=612, height=792)
        y = paragraph(page, write_line(page, 90, f"{c} {chapter}", 10, True), 3)
        expected.append((1, f"{c} {chapter}", len(doc)))
        for s, section in enumerate(("Requests", "Responses"), 1):
            y = paragraph(page, write_line(page, y + 8, f"{c}.{s} {section}", 10, True), 3)
            expected.append((2, f"{c}.{s} {section}", len(doc)))
            for k, sub in enumerate(("Fields", "Timing") if s == 1 else ("Timing", "Limits"), 1):
                y = paragraph(page, write_line(page, y + 6, f"{c}.{s}.{k} {sub}", 10, True), 4)
                expected.append((3, f"{c}.{s}.{k} {sub}", len(doc)))
    path = tmp_path / "fop.pdf"
    doc.save(path)
    assert _tree(path) == expected


def _column(page: pymupdf.Page, x: float, y: float, lines: int) -> float:
    """`lines` lines of seven words of body text (9.5 pt) in a newsletter's column from (x, y); the y below."""
    words = FILLER.split()
    for i in range(lines):
        start = (i * 3) % (len(words) - 7)
        page.insert_text((x, y), " ".join(words[start:start + 7]), fontsize=9.5, fontname="helv")
        y += 12.8
    return y


def test_two_column_page_with_a_short_right_column_keeps_its_headings(tmp_path: Path) -> None:
    """A newsletter's last page fills its left column and a few lines of the right one: with under a quarter
    of the rows on the right the page was not read as two columns, its columns' lines interleaved, and a
    left-column heading sharing its baseline with two right-column lines was a table row and dropped. The
    columns' edges (two, each starting many lines of words, none crossing the gutter) read it as two."""
    doc = pymupdf.open()

    write_line(doc.new_page(width=612, height=792), 300, "Community Health Bulletin", 28, True)
    expected = []
    for n, titles in enumerate((("Clinic Locations", "Eligibility"), ("School Meals", "Local Markets"),
                                ("Helplines", "Peer Groups"))):
        page = doc.new_page(width=612, height=792)
        page.insert_text((54, 86), titles[0], fontsize=14, fontname="hebo")
        y = _column(page, 54, 110, 24 if n == 2 else 50)
        second = (54.0, y + 16) if n == 2 else (320.0, 86.0)
        page.insert_text(second, titles[1], fontsize=14, fontname="hebo")
        _column(page, 54, y + 40, 22) if n == 2 else _column(page, 320, 110, 50)
        if n == 2:
            _column(page, 320, y + 16 - 8.3 - 3 * 12.8, 10)  # the right column's few lines, two on its baseline
        expected += [(1, titles[0], n + 2), (1, titles[1], n + 2)]
    path = tmp_path / "bulletin.pdf"
    doc.save(path)
    assert _tree(path) == expected


def test_heading_beside_a_table_row_in_the_other_column_is_no_table_row(tmp_path: Path) -> None:
    """A two-column report: a left-column heading shares its baseline with a row of figures of a table in the
    right column. With the columns found by their edges, that row is the other column's; it was read as the
    heading's own figure cells (a table straddling the middle) and the heading dropped as a table row."""
    doc = pymupdf.open()

    expected = []
    for n, (left, right) in enumerate((("Water Quality", "Treatment Works"), ("Supply Network", "Storage"),
                                       ("Billing and Tariffs", "Customer Service"))):
        page = doc.new_page(width=612, height=792)
        y = _column(page, 54, 86, 20)
        page.insert_text((54, y + 14), left, fontsize=14, fontname="hebo")
        _column(page, 54, y + 38, 26)
        y_right = _column(page, 320, 86, 12)
        page.insert_text((320, y_right + 4), right, fontsize=14, fontname="hebo")
        y_right = _column(page, 320, y_right + 26, 6 if n == 1 else 4)
        for label in ("Reservoirs", "Pumping stations", "Mains renewed", "Meters fitted", "Leaks repaired"):
            page.insert_text((320, y_right), label, fontsize=9.5, fontname="helv")
            for i, figure in enumerate(("12,565", "89,325", "3,781")):
                page.insert_text((420 + 50 * i, y_right), figure, fontsize=9.5, fontname="helv")
            y_right += 12.8
        _column(page, 320, y_right + 10, 20)
        expected += [(1, left, n + 1), (1, right, n + 1)]
    path = tmp_path / "report.pdf"
    doc.save(path)
    assert _tree(path) == expected
