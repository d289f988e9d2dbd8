"""Issue 11 class 1, printed headings missed: each rule on a PDF built here with pymupdf."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.analysis import analyse
from pageindex_desktop.core.outline.layout import find_layout_headings

PROSE = ["The program below reads every value once and keeps the running total in",
         "memory, so the second pass over the data never has to open the file again,",
         "which matters when the input is large and the disk is slow to answer."]


def _write(page: pymupdf.Page, y: float, text: str, size: float = 10, bold: bool = False, x: float = 72,
           font: str | None = None) -> float:
    """Put one line on the page and return the y of the next line."""
    page.insert_text((x, y), text, fontsize=size, fontname=font or ("hebo" if bold else "helv"))
    return y + size * 1.5


def _prose(page: pymupdf.Page, y: float, times: int = 1) -> float:
    """`times` copies of a three-line paragraph from `y`; returns the y below it."""
    for _ in range(times):
        for line in PROSE:
            y = _write(page, y, line)
        y += 4
    return y


def test_body_size_is_the_prose_not_the_code_listings(tmp_path: Path) -> None:
    """A manual whose listings (8 pt Courier) outweigh its prose (10 pt): the body is the prose, so plain
    prose-size titles set apart between paragraphs are found; measured on every line, the body was the
    listing's size and no heading was left."""
    doc = pymupdf.open()
    titles = ["Reading the Input", "Keeping a Running Total", "Writing the Report", "Checking the Results",
              "Cleaning Up"]
    for title in titles:
        page = doc.new_page(width=612, height=792)
        y = _write(page, _prose(page, 80.0) + 10, title)
        y = _prose(page, y)
        for k in range(30):
            y = _write(page, y, f"    total += value[{k}]  # step {k}", 8, font="cour")
    path = tmp_path / "listings.pdf"
    doc.save(path)
    extracted = extract(path)
    assert analyse(extracted).body_size == 10.0
    assert [(h.title, h.page) for h in find_layout_headings(extracted)] == [(t, i + 1) for i, t in enumerate(titles)]


FILLER = "the measurements were taken every morning and compared with the figures of the previous season,"


def _paragraph(page: pymupdf.Page, y: float, lines: int) -> float:
    """A paragraph of body text from `y`; returns the y below it."""
    for i in range(lines):
        y = _write(page, y, FILLER.capitalize() if i == 0 else FILLER)
    return y + 4


def test_sub_headings_repeated_under_every_chapter_are_sections(tmp_path: Path) -> None:
    """"Overview", "Risk Factors" and "Outlook" under each of ten chapters are each chapter's sections, one level
    under it; repeated ten times they were dropped as a label."""
    regions = ["North", "South", "East", "West", "Central", "Coastal", "Highland", "Valley", "Delta", "Island"]
    doc = pymupdf.open()
    _paragraph(doc.new_page(width=612, height=792), 90, 30)
    for c, region in enumerate(regions):
        page = doc.new_page(width=612, height=792)
        y = _write(page, 90 + 10 * (c % 3), f"{region} Region", 16, True) + 6
        for sub in ("Overview", "Risk Factors", "Outlook"):
            y = _paragraph(page, _write(page, y + 6, sub, 12, True), 12)
            if y > 600:
                page = doc.new_page(width=612, height=792)
                y = 90.0
    path = tmp_path / "regions.pdf"
    doc.save(path)
    headings = find_layout_headings(extract(path))
    expected = [(f"{r} Region", 1) for r in regions]
    assert [(h.title, h.level) for h in headings if h.level == 1] == expected
    chapter = ""
    found: list[tuple[str, str]] = []
    for h in headings:
        if h.level == 1:
            chapter = h.title
        else:
            assert h.level == 2
            found.append((chapter, h.title))
    assert found == [(f"{r} Region", sub) for r in regions for sub in ("Overview", "Risk Factors", "Outlook")]


def test_numbered_sub_headings_repeated_under_every_goal_are_sections(tmp_path: Path) -> None:
    """A plan's "Strategy 1.1: Objectives", "Strategy 2.1: Objectives", ... under each goal differ only by their
    numbers, like a repeated label ("Definition 4"), but each is titled under its own goal's number: sections,
    and so are "Action 1.4.1: Targets", "Action 1.5.1: Targets", ... a level down. A label repeated with no
    title ("Example 3") is still no section."""
    doc = pymupdf.open()
    _paragraph(doc.new_page(width=612, height=792), 90, 30)
    expected: list[tuple[str, int]] = []
    for goal in range(1, 6):
        page = doc.new_page(width=612, height=792)
        y = _write(page, 90, f"Goal {goal}: Regional Growth {'ABCDE'[goal - 1]}", 18, True) + 6
        expected.append((f"Goal {goal}: Regional Growth {'ABCDE'[goal - 1]}", 1))
        for k, sub in enumerate(("Objectives", "Actions", "Performance Measures"), start=1):
            y = _paragraph(page, _write(page, y + 6, f"Strategy {goal}.{k}: {sub}", 14, True), 6)
            expected.append((f"Strategy {goal}.{k}: {sub}", 2))
        y = _paragraph(page, _write(page, y + 6, f"Example {goal}", 10, True), 3)
        for s in (1, 2):  # a level deeper: the division is the number but its last part ("3.1" of "3.1.1")
            page = doc.new_page(width=612, height=792)
            stream = ("Capital", "Operating")[s - 1]
            y = _paragraph(page, _write(page, 90, f"Strategy {goal}.{s + 3}: {stream} Funding", 14, True), 4)
            expected.append((f"Strategy {goal}.{s + 3}: {stream} Funding", 2))
            for k, sub in enumerate(("Targets", "Milestones"), start=1):
                y = _paragraph(page, _write(page, y + 6, f"Action {goal}.{s + 3}.{k}: {sub}", 12, True), 6)
                expected.append((f"Action {goal}.{s + 3}.{k}: {sub}", 3))
    path = tmp_path / "plan.pdf"
    doc.save(path)
    assert [(h.title, h.level) for h in find_layout_headings(extract(path))] == expected


def test_a_sub_heading_repeated_in_every_chapter_that_at_times_opens_a_page_is_no_running_header(
        tmp_path: Path) -> None:
    """"1. Objectives" and "2. Actions" under every chapter: where a chapter's text fills its first page, its
    "2. Actions" opens the next page, right under the running header, at the same spot on three pages close
    together. Printed in the body of more pages than at that spot, it is a sub-heading, not a header."""
    doc = pymupdf.open()
    expected: list[tuple[str, int]] = []
    for chapter in range(1, 8):
        page = doc.new_page(width=612, height=792)
        _write(page, 40, "Regional Resilience Specification", 9)
        title = f"Chapter {chapter}: {['Water', 'Energy', 'Housing', 'Transport', 'Health', 'Parks', 'Safety'][chapter - 1]}"
        y = _paragraph(page, _write(page, 90, title, 18, True) + 6, 4)
        expected.append((title, 1))
        y = _paragraph(page, _write(page, y + 6, "1. Objectives", 11, True) + 2, 8 if chapter in (2, 3, 5) else 6)
        expected.append(("1. Objectives", 2))
        if chapter in (2, 3, 5):  # the page is full: "2. Actions" opens the next one
            page = doc.new_page(width=612, height=792)
            _write(page, 40, "Regional Resilience Specification", 9)
            y = 90.0
        _paragraph(page, _write(page, y + 6, "2. Actions", 11, True) + 2, 6 if chapter in (2, 3, 5) else 4)
        expected.append(("2. Actions", 2))
    path = tmp_path / "specification.pdf"
    doc.save(path)
    assert [(h.title, h.level) for h in find_layout_headings(extract(path))] == expected


def test_identifier_and_colon_headings_are_not_run_in_text(tmp_path: Path) -> None:
    """"V10: Malicious code" and "Requirement 3: Protect stored account data" (a standard's chapters, titles in
    sentence case, four or more "Requirement N:" rows) are headings; they were rejected as run-in paragraphs
    and as a repeated label. A bold "Theorem 2: Suppose ..." line that runs on to the margin stays text."""
    titles = ["V1: Architecture, design and threat modeling", "V2: Authentication verification requirements",
              "V10: Malicious code", "V11: Business logic verification",
              "Requirement 1: Install and maintain network security controls",
              "Requirement 2: Apply secure configurations", "Requirement 3: Protect stored account data",
              "Requirement 4: Protect cardholder data with strong cryptography"]
    doc = pymupdf.open()
    _paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = 90.0
    for title in titles:
        y = _paragraph(page, _write(page, y + 8, title, 11, True), 5)
        if y > 600:
            page = doc.new_page(width=612, height=792)
            y = 90.0
    for run_in in ("Step 3: Open the valve and wait until the pressure falls below the mark printed on the",
                   "Theorem 2: Suppose that the function is continuous on the whole interval and that"):
        y = _paragraph(page, _write(page, y + 8, run_in, bold=True), 3)
    path = tmp_path / "standard.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == titles


def test_a_section_number_on_its_own_line_belongs_to_the_title_below(tmp_path: Path) -> None:
    """"2.1" printed on its own line above "Sampling Plan" is one heading, "2.1 Sampling Plan", nested by its
    number; the bare number was dropped and the titles lost their numbers (bold) or were not found at all
    (body size, in capitals). A figure on a line of its own above a sentence stays out."""
    doc = pymupdf.open()
    _paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = _paragraph(page, 90.0, 3)
    for number, title in (("1", "Scope of the Work"), ("2", "Methods Used"), ("2.1", "Sampling Plan"),
                          ("3", "Results Obtained")):
        y = _paragraph(page, _write(page, _write(page, y + 8, number, 12, True), title, 12, True), 4)
    page = doc.new_page(width=612, height=792)
    y = _paragraph(page, 90.0, 3)
    for number, title in (("4.", "DISCUSSION OF THE FINDINGS"), ("5.", "CONCLUSIONS")):
        y = _paragraph(page, _write(page, _write(page, y + 8, number), title), 4)
    _paragraph(page, _write(page, _write(page, y + 8, "12"), "Seasons were compared with the figures"), 2)
    path = tmp_path / "numbers.pdf"
    doc.save(path)
    headings = find_layout_headings(extract(path))
    assert [h.title for h in headings] == ["1 Scope of the Work", "2 Methods Used", "2.1 Sampling Plan",
                                          "3 Results Obtained", "4. DISCUSSION OF THE FINDINGS", "5. CONCLUSIONS"]
    assert [h.level for h in headings[:4]] == [1, 1, 2, 1]


NAMES = ["open_file", "read_block", "write_block", "close_file", "seek_to", "flush_all", "lock_range",
         "unlock_range"]


def _reference_manual(path: Path, intro_pages: int) -> list[tuple[str, int]]:
    """Two pages per function: its name at the top of the first, "Summary" at the same spot under it, then
    "Parameters"; the book title above every page. Returns the expected (title, level) headings."""
    doc = pymupdf.open()
    for _ in range(intro_pages):
        _paragraph(doc.new_page(width=612, height=792), 90, 30)
    for name in NAMES:
        page = doc.new_page(width=612, height=792)
        _write(page, 40, "Storage Library Reference Manual", 8)
        y = _write(page, _write(page, 72, f"Function {name}", 16, True) + 4, "Summary", 12, True)
        y = _paragraph(page, y, 8)
        y = _paragraph(page, _write(page, y + 6, "Parameters", 12, True), 14 + len(name) % 3)
        page = doc.new_page(width=612, height=792)
        _write(page, 40, "Storage Library Reference Manual", 8)
        _paragraph(page, 90, 20)
    doc.save(path)
    return [pair for name in NAMES for pair in ((f"Function {name}", 1), ("Summary", 2), ("Parameters", 2))]


def test_a_sub_heading_under_a_changing_title_at_the_page_top_is_no_running_header(tmp_path: Path) -> None:
    """"Summary" at the same spot on every other page of a reference manual, under each function's name:
    repeated there it was read as a running header; with a title that changes from page to page above it, it
    is each function's first section. The book title above every page stays a header."""
    expected = _reference_manual(tmp_path / "reference.pdf", intro_pages=5)
    headings = find_layout_headings(extract(tmp_path / "reference.pdf"))
    assert [(h.title, h.level) for h in headings] == expected


def test_titles_opening_pages_of_prose_are_no_slide_frame_titles(tmp_path: Path) -> None:
    """The same manual with one page before it: the function names and their sub-headings stand at one spot
    on nearly half the pages, which made them slide frame titles; on full pages of prose, with no text of
    the spot on two neighbouring pages, they are sections."""
    expected = _reference_manual(tmp_path / "reference.pdf", intro_pages=1)
    headings = find_layout_headings(extract(tmp_path / "reference.pdf"))
    assert [(h.title, h.level) for h in headings] == expected


def test_chapters_opening_pages_stay_sections_when_most_chapters_are_short(tmp_path: Path) -> None:
    """Unnumbered chapter titles that each open a portrait page, at one spot: three chapters fill two pages,
    five end on their first, leaving it mostly empty. The titles were taken for slide frame titles unless 80 %
    of their pages were full pages of prose; at one spot, distinct texts, never the same on neighbouring pages,
    they are frame titles only in a deck of slides (landscape, no prose)."""
    titles = ["Market Overview", "Operating Results", "Capital Resources", "Risk Management",
              "Regional Review", "Outlook and Guidance", "Governance", "Supplementary Data"]
    doc = pymupdf.open()
    for i, title in enumerate(titles):
        page = doc.new_page(width=612, height=792)
        _write(page, 40, "Annual Review of the Regional Water Board", 8)
        y = _write(page, 80, title, 18, True) + 6
        if i % 3:
            _paragraph(page, y, 6)
            continue
        _paragraph(page, _paragraph(page, y, 18), 16)
        _paragraph(doc.new_page(width=612, height=792), 80, 34)
    path = tmp_path / "report.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == titles


def test_slide_frame_titles_at_one_spot_are_still_dropped(tmp_path: Path) -> None:
    """Slides with a frame title at one spot on every page and a few short lines under it: the frame titles
    are no sections (the prose-page exception above must not spare them)."""
    doc = pymupdf.open()
    for word in ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"):
        page = doc.new_page(width=640, height=480)
        _write(page, 40, f"Frame Title Number {word}", 16, True, x=30)
        y = 100.0
        for line in ("First point of the slide", "Second point of the slide", "A closing remark"):
            y = _write(page, y, line, 12, x=40)
    path = tmp_path / "slides.pdf"
    doc.save(path)
    assert not [h for h in find_layout_headings(extract(path)) if h.title.startswith("Frame Title")]


def test_a_centred_heading_over_two_columns_stays_whole(tmp_path: Path) -> None:
    """A heading centred over a two-column page wraps to a short last line ("Soil") that starts right of the
    page's middle: read with the right column, it split the heading in two; centred rows stay in the first
    pass, so the heading is one, and the columns' text is still read column by column."""
    heads = [("Results of the Regional Field Survey in", "Spring"), ("Methods Used for the Dry Weighing of", "Soil"),
             ("Notes on the Measurements Taken in the", "Rain")]
    doc = pymupdf.open()
    for p in range(4):
        page = doc.new_page(width=612, height=792)
        top = 80.0
        if p:
            for k, text in enumerate(heads[p - 1]):
                width = pymupdf.get_text_length(text, "hebo", 16)
                _write(page, 80 + 20 * k, text, 16, True, x=306 - width / 2)
            top = 140.0
        for x, words in ((50, "left"), (320, "right")):
            y = top
            for _ in range(40):
                y = _write(page, y, f"the samples in the {words} column were weighed and dried", 9, x=x)
    path = tmp_path / "columns.pdf"
    doc.save(path)
    extracted = extract(path)
    assert [h.title for h in find_layout_headings(extracted)] == [f"{a} {b}" for a, b in heads]
    rows = analyse(extracted).rows[2]
    assert [r.text.split()[4] for r in rows[2:]] == ["left"] * 40 + ["right"] * 40


def test_a_sub_heading_at_one_spot_under_each_pages_own_title_is_a_section(tmp_path: Path) -> None:
    """A reference manual gives each function a page: its name, then "Summary" right under it, at the same spot
    on page after page. Found on neighbouring pages at one spot, "Summary" was dropped as a running head; a
    running head has no heading of its page between it and the page's edge, and "Summary" has the function's
    name above it. A bold head repeated at one spot over each page's own title still goes."""
    names = ["open_file", "close_file", "read_block", "write_block", "seek_to", "tell_position", "flush_all"]
    doc = pymupdf.open()
    _prose(doc.new_page(width=612, height=792), 90, 8)
    for k, name in enumerate(names):
        page = doc.new_page(width=612, height=792)
        _write(page, 100, "Storage Library Reference", 12, True)  # a running head set like a heading
        y = _write(page, 140, f"Function {name}", 16, True) + 6
        y = _prose(page, _write(page, y, "Summary", 12, True), 1 + k % 3)
        _prose(page, _write(page, y + 6, "Parameters", 12, True), 2)
    path = tmp_path / "reference.pdf"
    doc.save(path)
    found = [(h.title, h.level) for h in find_layout_headings(extract(path))]
    assert found == [(title, level) for name in names
                     for title, level in [(f"Function {name}", 1), ("Summary", 2), ("Parameters", 2)]]


def test_a_title_of_short_words_is_a_heading_and_a_short_label_is_not(tmp_path: Path) -> None:
    """A sub-heading with no word of four letters ("Oil and Gas", "Ice Age") at the body's size in bold is a
    section like its siblings; it had been dropped with the short labels the four-letter rule keeps out, which
    stay out ("N/A", "USD", "Q1 Q2")."""
    doc = pymupdf.open()
    _prose(doc.new_page(width=612, height=792), 90, 8)
    segments = {"Energy Segments": ["Oil and Gas", "Power Generation", "Renewables"],
                "Climate Records": ["Ice Age", "Modern Period"]}
    for chapter, subs in segments.items():
        page = doc.new_page(width=612, height=792)
        y = _prose(page, _write(page, 90, chapter, 16, True) + 6, 2)
        for sub in subs:
            y = _prose(page, _write(page, y + 6, sub, 10, True), 2)
        for label in ("N/A", "USD", "Q1 Q2"):
            y = _prose(page, _write(page, y + 6, label, 10, True), 1)
    path = tmp_path / "short.pdf"
    doc.save(path)
    assert [(h.title, h.level) for h in find_layout_headings(extract(path))] == [
        (title, level) for chapter, subs in segments.items() for title, level in [(chapter, 1), *((s, 2) for s in subs)]]


def _numbered_report(path: Path, chapters: list[list[tuple[str, int]]], notes: list[str],
                     numbered: bool = True) -> None:
    """Chapters "N. Chapter N" (16 pt bold), each with (title, depth) sections numbered under it (13 pt bold at
    depth 2, 11 pt bold at depth 3), a page each; then, when `notes` is given, a "Notes" page that repeats those
    titles in 10 pt bold, a note under each (endnotes grouped by chapter). Unless `numbered`, the sections carry
    no numbers."""
    doc = pymupdf.open()
    for c, sections in enumerate(chapters, start=1):
        page = doc.new_page(width=612, height=792)
        y = _paragraph(page, _write(page, 90, f"{c}. Chapter {c}" if numbered else f"Chapter {c}", 16, True) + 4, 6)
        counters = [0, 0]
        for title, depth in sections:
            counters[depth - 2] += 1
            if depth == 2:
                counters[1] = 0
            number = ".".join(str(n) for n in [c, *counters[:depth - 1]])
            text = f"{number} {title}" if numbered else title
            y = _paragraph(page, _write(page, y + 6, text, 13 if depth == 2 else 11, True), 5)
    if notes:
        page = doc.new_page(width=612, height=792)
        y = _write(page, 90, "Notes", 16, True) + 4
        for title in notes:
            y = _paragraph(page, _write(page, y + 4, title, 10, True), 2)
    doc.save(path)


def test_sub_sections_named_like_earlier_ones_under_new_numbers_are_sections(tmp_path: Path) -> None:
    """A report names its sub-sections alike from chapter to chapter, at whichever level ("4.2.2 Targets", then
    "5.1 Targets"): three such in a row, each in another style than its namesake, are new sections under new
    numbers, not a back-matter index of the earlier ones."""
    chapters = [[("Monitoring Arrangements", 2), ("Pressure Management", 2), ("Targets", 3)],
                [("Targets", 2), ("Monitoring Arrangements", 3), ("Pressure Management", 3)]]
    path = tmp_path / "renumbered.pdf"
    _numbered_report(path, chapters, [])
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles[-4:] == ["2. Chapter 2", "2.1 Targets", "2.1.1 Monitoring Arrangements", "2.1.2 Pressure Management"]


def test_endnotes_repeating_the_section_titles_are_no_sections(tmp_path: Path) -> None:
    """Endnotes grouped under the sections they annotate, the section titles repeated in the notes' own style
    with their numbers: a back-matter index of the sections, not three more sections."""
    chapters = [[("Monitoring Arrangements", 2), ("Pressure Management", 2), ("Targets", 2)]]
    path = tmp_path / "endnotes.pdf"
    _numbered_report(path, chapters, ["1.1 Monitoring Arrangements", "1.2 Pressure Management", "1.3 Targets"])
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles == ["1. Chapter 1", "1.1 Monitoring Arrangements", "1.2 Pressure Management", "1.3 Targets", "Notes"]


def test_sub_sections_named_like_earlier_ones_out_of_their_order_are_sections(tmp_path: Path) -> None:
    """Unnumbered sub-sections named alike from chapter to chapter at whichever level: three in a row in new
    styles, but not in the order their names first came, are sections, not an index of the earlier ones."""
    chapters = [[("Overview", 2), ("Funding", 3), ("Data Sources", 2), ("Treatment Works", 3)],
                [("Treatment Works", 2), ("Funding", 2), ("Overview", 3)]]
    path = tmp_path / "reordered.pdf"
    _numbered_report(path, chapters, [], numbered=False)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles[-4:] == ["Chapter 2", "Treatment Works", "Funding", "Overview"]


def test_endnotes_repeating_unnumbered_titles_in_their_order_are_no_sections(tmp_path: Path) -> None:
    """Endnotes under the unnumbered section titles they annotate, in the sections' order: no sections."""
    chapters = [[("Monitoring Arrangements", 2), ("Pressure Management", 2), ("Targets", 2)]]
    path = tmp_path / "endnotes.pdf"
    _numbered_report(path, chapters, ["Monitoring Arrangements", "Pressure Management", "Targets"], numbered=False)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert titles[-4:] == ["Monitoring Arrangements", "Pressure Management", "Targets", "Notes"]
    assert titles.count("Targets") == 1


def _guide(path: Path, under: str) -> list[str]:
    """A guide numbering its chapters ("1. Rent", 16 pt bold) and three sections each ("1.1 Time limits", 13 pt
    bold), the first two sections of each chapter holding a bold body-size line, "Joint tenants" then
    "Agents", with `under` right below it: "prose" (a paragraph), "figures" (a row of a table's cells) or
    "aside" (two lines of prose, the line and its prose inset 8 pt as in a box). Returns the layout titles."""
    doc = pymupdf.open()
    for c, chapter in enumerate(["Rent", "Repairs", "Deposits"], start=1):
        page = doc.new_page(width=612, height=792)
        y = _paragraph(page, _write(page, 80, f"{c}. {chapter}", 16, True) + 4, 5)
        for s, section in enumerate(["Time limits", "Costs and fees", "Advice"], start=1):
            y = _paragraph(page, _write(page, y + 6, f"{c}.{s} {section}", 13, True), 5)
            if s == 3:
                continue
            inset = 8 if under == "aside" else 0
            y = _write(page, y + 4, ["Joint tenants", "Agents"][s - 1], 10, True, x=72 + inset)
            if under == "prose":
                y = _paragraph(page, y, 3)
            elif under == "aside":
                for line in PROSE[:2]:
                    y = _write(page, y, line, 10, x=72 + inset)
            else:
                for x, cell in ((72, "Fee"), (250, "120"), (350, "45"), (450, "F12")):
                    _write(page, y, cell, 10, x=x)
                y += 19
    doc.save(path)
    return [h.title for h in find_layout_headings(extract(path))]


def test_unnumbered_body_size_heads_over_prose_in_a_numbered_guide_are_sections(tmp_path: Path) -> None:
    """Bold body-size lines, each over a paragraph, under numbered sections: the sections' parts, kept though
    the document numbers its other headings."""
    titles = _guide(tmp_path / "prose.pdf", "prose")
    assert titles[:6] == ["1. Rent", "1.1 Time limits", "Joint tenants", "1.2 Costs and fees", "Agents", "1.3 Advice"]
    assert titles.count("Joint tenants") == titles.count("Agents") == 3


def test_a_boxed_asides_title_in_a_numbered_guide_is_no_section(tmp_path: Path) -> None:
    """The same lines and their sentences inset from the text's edge, as a box's padding sets them: an aside's
    title, no part of the outline, though prose follows it."""
    titles = _guide(tmp_path / "aside.pdf", "aside")
    assert "Joint tenants" not in titles and "Agents" not in titles


def test_unnumbered_body_size_heads_over_table_cells_in_a_numbered_guide_are_labels(tmp_path: Path) -> None:
    """The same lines, each over a row of a table's cells: labels, dropped in a numbered document."""
    titles = _guide(tmp_path / "cells.pdf", "figures")
    assert "Joint tenants" not in titles and "Agents" not in titles
    assert titles[:4] == ["1. Rent", "1.1 Time limits", "1.2 Costs and fees", "1.3 Advice"]


def test_unnumbered_heads_under_numbered_sections_of_chapters_sit_below_them(tmp_path: Path) -> None:
    """"Chapter 1: ..." over its "1.1"-numbered sections, and under one section unnumbered bold heads at body
    size over their paragraphs: those heads are the third level, not a second one above the numbered
    sections (the numbered schemes nest and give the levels; the heads are in no scheme's face)."""
    doc = pymupdf.open()
    expected: list[tuple[str, int]] = []
    for c, chapter in enumerate(["Health and Safety", "Appeals", "Deposits"], start=1):
        page = doc.new_page(width=612, height=792)
        y = _paragraph(page, _write(page, 80, f"Chapter {c}: {chapter}", 20, True) + 4, 3)
        expected.append((f"Chapter {c}: {chapter}", 1))
        for s, section in enumerate(["Time limits", "Inspections"], start=1):
            y = _paragraph(page, _write(page, y + 6, f"{c}.{s} {section}", 13, True), 3)
            expected.append((f"{c}.{s} {section}", 2))
            for sub in (["Agents", "Forms"] if (c, s) == (1, 2) else []):
                y = _paragraph(page, _write(page, y + 4, sub, 10, True), 3)
                expected.append((sub, 3))
    path = tmp_path / "chapters.pdf"
    doc.save(path)
    assert [(h.title, h.level) for h in find_layout_headings(extract(path))] == expected


def _protocol(path: Path, under_section: str) -> list[str]:
    """Sections ("Eligibility", 14 pt bold) over a paragraph, then, under each, bold body-size lines shaped by
    `under_section`: "terms" (three terms, each over its definition indented 40 pt as a block), "bullets" (two
    heads, each over an indented bulleted list), "figures" (two heads, each over a figure with a centred caption)
    or "quote" (one head over an indented quotation, then prose at the edge). Returns the layout titles."""
    doc = pymupdf.open()
    for section in ["Eligibility", "Recruitment", "Assessments"]:
        page = doc.new_page(width=612, height=792)
        y = _paragraph(page, _write(page, 90, section, 14, True) + 4, 4)
        if under_section == "terms":
            for term in ("Visit window", "Baseline visit", "Adverse event"):
                y = _write(page, y + 2, term, 10, True)
                for line in PROSE[:2]:
                    y = _write(page, y, line, 10, x=112)
        elif under_section == "figures":  # two heads whose sections open on a figure, its caption centred
            for k, head in enumerate(("Actions", "Performance Measures"), start=1):
                y = _write(page, y + 6, head, 10, True) + 60  # the figure's drawing takes no text
                y = _write(page, y, f"Figure {k}. Service districts and their staff", 10, x=200)
            y = _paragraph(page, y + 4, 3)
        elif under_section == "bullets":
            for head in ("Inclusion criteria", "Exclusion criteria"):
                y = _write(page, y + 6, head, 10, True)
                for line in PROSE:
                    y = _write(page, y, f"• {line}", 10, x=90)
        else:
            y = _write(page, y + 6, "Statement of purpose", 10, True)
            for line in PROSE:
                y = _write(page, y, line, 10, x=112)
            _paragraph(page, y + 4, 3)
    doc.save(path)
    return [h.title for h in find_layout_headings(extract(path))]


def test_a_heading_right_under_a_centred_caption_in_its_style_is_no_caption_line(tmp_path: Path) -> None:
    """A bold body-size caption centred under its figure, then at once a bold body-size heading at the margin
    ("1.2 Outreach"): a caption's next line starts at its edge or, centred, right of it; the heading opens a
    section. The caption's own centred second line stays part of it."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = _paragraph(page, _write(page, 90, "1 Regional Services", 16, True) + 6, 6)
    y = _paragraph(page, _write(page, y + 6, "1.1 Funding", 10, True) + 2, 6) + 80  # the figure's drawing
    y = _write(page, y, "Figure 1. Service districts of the county and the", 10, True, x=190)
    y = _write(page, y, "staff who serve them", 10, True, x=250)
    y = _paragraph(page, _write(page, y, "1.2 Outreach", 10, True) + 2, 8)
    _paragraph(page, _write(page, y + 6, "1.3 Reporting", 10, True) + 2, 6)
    path = tmp_path / "caption.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == [
        "1 Regional Services", "1.1 Funding", "1.2 Outreach", "1.3 Reporting"]


def test_the_terms_of_a_definition_list_are_no_sections(tmp_path: Path) -> None:
    """Bold body-size terms, each over its definition set as an indented block, one after another: a
    definition list's entries, not three sections under each section."""
    assert _protocol(tmp_path / "terms.pdf", "terms") == ["Eligibility", "Recruitment", "Assessments"]


def test_heads_over_indented_lists_or_a_quotation_stay_sections(tmp_path: Path) -> None:
    """Bold body-size heads over indented bulleted lists, or a single one over an indented quotation, are
    sections: a list's bullets and a lone indented block make no definition list."""
    assert _protocol(tmp_path / "bullets.pdf", "bullets").count("Inclusion criteria") == 3
    assert _protocol(tmp_path / "quote.pdf", "quote").count("Statement of purpose") == 3


def test_heads_over_a_figures_centred_caption_stay_sections(tmp_path: Path) -> None:
    """Bold body-size heads one after another, each over a figure whose caption is centred under it: the
    caption is indented past the head like a definition, but a caption opens no definition."""
    assert _protocol(tmp_path / "figures.pdf", "figures").count("Performance Measures") == 3


def test_a_definition_list_ending_on_prose_or_going_on_over_a_page_is_no_sections(tmp_path: Path) -> None:
    """The last term of a definition list whose text goes on in a paragraph at the edge, and the first term of
    a page the list goes on onto (the definition before it carried over, indented, at the page's top), are
    terms like the rest; they had stayed sections, one or two per list. A bold head over a paragraph whose
    first line alone is indented, full width, is still a section."""
    doc = pymupdf.open()
    _paragraph(doc.new_page(width=612, height=792), 90, 30)  # a page of text first: no title block
    page = doc.new_page(width=612, height=792)
    y = _paragraph(page, _write(page, 90, "Definitions", 14, True) + 4, 3)
    for term in ("Visit window", "Baseline visit", "Adverse event", "Serious event"):
        y = _write(page, y + 2, term, 10, True)
        for line in PROSE[:2]:
            y = _write(page, y, line, 10, x=112)
    while y < 700:  # the last definition runs on to the page's foot
        y = _write(page, y, PROSE[2], 10, x=112)
    page = doc.new_page(width=612, height=792)
    y = _write(page, 90, PROSE[0], 10, x=112)  # carried over from the page before
    for term in ("Study day", "End of study"):
        y = _write(page, y + 2, term, 10, True)
        for line in PROSE[:2]:
            y = _write(page, y, line, 10, x=112)
    y = _paragraph(page, y + 6, 4)  # the list ends: prose at the edge
    y = _write(page, y + 8, "Visit Timing", 10, True)
    y = _write(page, y, FILLER[: len(FILLER) * 9 // 10], 10, x=92)  # a first-line indent, full width
    _paragraph(page, y, 3)
    path = tmp_path / "definitions.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == ["Definitions", "Visit Timing"]


def test_a_term_at_a_page_foot_over_a_definition_overleaf_is_no_section(tmp_path: Path) -> None:
    """A definition list broken between a term, the last line of its page, and its definition, the first of
    the next: the term had no block under it and stayed a section, with the one before it. A definition
    opening on a word that can label a heading ("Schedule visits agreed ...") opens text, not a list item."""
    doc = pymupdf.open()
    _paragraph(doc.new_page(width=612, height=792), 90, 30)
    page = doc.new_page(width=612, height=792)
    y = _paragraph(page, _write(page, 90, "Definitions", 14, True) + 4, 3)
    for term in ("Visit window", "Baseline visit", "Adverse event", "Allocation", "Blinding", "Cohort",
                 "Data cut-off", "Dose level", "Endpoint"):
        y = _write(page, y + 2, term, 10, True)
        y = _write(page, y, "Schedule visits agreed with the site before the first participant is enrolled,",
                   10, x=112)
        for line in PROSE[:2]:
            y = _write(page, y, line, 10, x=112)
    _write(page, y + 2, "Serious event", 10, True)  # the page's last line
    page = doc.new_page(width=612, height=792)
    y = 90.0
    for line in PROSE:
        y = _write(page, y, line, 10, x=112)
    y = _write(page, y + 2, "End of study", 10, True)
    for line in PROSE:
        y = _write(page, y, line, 10, x=112)
    _paragraph(page, _write(page, y + 8, "Procedures", 14, True) + 4, 4)
    path = tmp_path / "definitions.pdf"
    doc.save(path)
    assert [h.title for h in find_layout_headings(extract(path))] == ["Definitions", "Procedures"]
