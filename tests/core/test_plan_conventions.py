"""Plans, regulations and specifications (issue 11): labelled headings and chapter-paged contents lists, each
class on a PDF built here. `tests/bench/synthetic_plans.py` draws these conventions at random; these are the
cases it showed the finders missing."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.analysis import analyse
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.listing_rows import listing_rows
from pageindex_desktop.core.outline.toc_page import find_toc_entries
from tests.core.built_pages import paragraph, tree_rows, write_line


def _layout(path: Path) -> list[tuple[int, str]]:
    return [(h.level, h.title) for h in find_layout_headings(extract(path))]


def test_a_chapter_label_over_its_title_in_tight_leading_is_one_heading(tmp_path: Path) -> None:
    """"CHAPTER 2" over the chapter's name, both in 24 pt type set on 20 pt lines, so the two line boxes
    overlap; and "Annex B" in large regular type over a bold title that wraps onto a third line. Each is one
    heading. The label stood alone because its title began above the label's bottom edge, and a third line was
    compared with the label's style instead of the title's."""
    doc = pymupdf.open()
    expected = []
    for number, title in ((1, "General Provisions"), (2, "Scope of the Rules"), (3, "Records and Reports")):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 100, f"CHAPTER {number}", 24, True) - 16
        y = write_line(page, y, title, 24, True) + 6
        y = write_line(page, paragraph(page, y, 8) + 8, f"{number}.1 Purpose of this chapter", 12, True)
        paragraph(page, y, 8)
        paragraph(doc.new_page(width=612, height=792), 90, 40)  # the chapter goes on over the next page
        expected += [(1, f"CHAPTER {number} {title}"), (2, f"{number}.1 Purpose of this chapter")]
    for letter, lines in (("A", ("Consultation with the", "Regional Boards")), ("B", ("Survey of Members", "and Users"))):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 300, f"Annex {letter}", 28) - 22
        for line in lines:
            y = write_line(page, y, line, 16, True) - 6
        paragraph(page, y + 20, 10)
        expected.append((1, f"Annex {letter} {' '.join(lines)}"))
    path = tmp_path / "chapters.pdf"
    doc.save(path)
    assert _layout(path) == expected


def test_a_plans_strategies_set_a_point_larger_in_text_weight_are_its_second_level(tmp_path: Path) -> None:
    """Goals in large bold type, their strategies ("Strategy 1.2 Key Partners") a point larger than the 10 pt
    text and not bold, their actions ("Action 1.2.1 New Trail Map") bold at text size. The strategies were
    dropped for want of emphasis, and an action whose title opened with a short word ("New") was taken for a
    repeated label ("Definition 4")."""
    doc = pymupdf.open()
    expected = []
    for goal, name in ((1, "Safer Streets"), (2, "Connected Neighbourhoods"), (3, "Cleaner Air")):
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, f"Goal {goal}: {name}", 16, True) + 4
        expected.append((1, f"Goal {goal}: {name}"))
        y = paragraph(page, y, 3)
        for strategy, title in ((1, "Key Partners and Roles"), (2, "New Funding Sources")):
            title = f"{title} for {name}" if goal > 1 else title
            y = write_line(page, y + 8, f"Strategy {goal}.{strategy} {title}", 11) + 2
            expected.append((2, f"Strategy {goal}.{strategy} {title}"))
            y = paragraph(page, y, 3)
            for action, words in ((1, f"New Trail Map for {name}"), (2, f"Progress Review of {name}")):
                y = write_line(page, y + 6, f"Action {goal}.{strategy}.{action} {words}", 10, True) + 2
                expected.append((3, f"Action {goal}.{strategy}.{action} {words}"))
                y = paragraph(page, y, 2)
    path = tmp_path / "plan.pdf"
    doc.save(path)
    assert _layout(path) == expected


def test_a_chapter_paged_contents_list_keeps_entries_whose_numbers_wrapped(tmp_path: Path) -> None:
    """A regulation's contents list in two columns with "2-1" page numbers: an entry's title wraps short of its
    column's edge, its leaders and number go to a line of their own ("............ 1-1"), or the number alone to
    the next line. Each entry keeps its title and page. Rows holding no letters were dropped as rules, a
    left-column row took the right column's line beside it, the column was measured against the page's right
    edge, and a bare "2-1" became an entry of its own."""
    parts = [("PART 1: GENERAL PROVISIONS OF THE RULES", "IN FORCE"), ("PART 2: PERMITS, LICENCES AND TERMS", "OF ISSUE"),
             ("PART 3: RECORDS, RETURNS AND NOTICES", "TO THE BOARD"), ("PART 4: APPEALS AND REVIEW OF DECISIONS", "TAKEN")]
    subparts = ["Purpose and scope", "Definitions of terms", "Forms"]
    doc = pymupdf.open()
    contents = doc.new_page(width=612, height=792)
    write_line(contents, 80, "Contents", 20, True)
    expected = []
    for number, (first, second) in enumerate(parts, start=1):
        x = 72 if number <= 2 else 330  # parts 1-2 in the left column, 3-4 in the right one
        y = 120.0 + (number - 1) % 2 * 8 * 15
        y = write_line(contents, y, first, x=x)
        y = write_line(contents, y, f"{second} ............ {number}-1", x=x)
        expected.append((f"{first} {second}", 2 * number))
        for k, name in enumerate(subparts):
            y = write_line(contents, y, f"Subpart {'ABC'[k]}: {name}" + (f" ...... {number}-2" if k == 2 else ""),
                           x=x + 14)
            if k == 0:
                y = write_line(contents, y, f"............ {number}-1", x=x + 14)
            elif k == 1:
                y = write_line(contents, y, f"{number}-2", x=x + 14)
            expected.append((f"Subpart {'ABC'[k]}: {name}", 2 * number + (k > 0)))
    for number, (first, second) in enumerate(parts, start=1):
        for chapter_page in (1, 2):
            page = doc.new_page(width=612, height=792)
            y = 90.0
            if chapter_page == 1:
                y = write_line(page, y, f"{first} {second}", 14, True) + 6
                y = write_line(page, y, f"Subpart A: {subparts[0]}", 12, True) + 4
                y = paragraph(page, y, 12)
            for k in (1, 2) if chapter_page == 2 else ():
                y = write_line(page, y + 6, f"Subpart {'ABC'[k]}: {subparts[k]}", 12, True) + 4
                y = paragraph(page, y, 10)
            paragraph(page, y, 10)
            page.insert_text((300, 760), f"{number}-{chapter_page}", fontsize=9, fontname="helv")
    path = tmp_path / "regulation.pdf"
    doc.save(path)
    source, rows = tree_rows(path)
    assert source == "toc_page"
    assert [row for row in rows if row[0].startswith(("PART", "Subpart"))] == expected


def test_contents_titles_wrapped_in_their_cells_keep_their_last_lines(tmp_path: Path) -> None:
    """A report's contents list, headed "In this report", set as a table whose page numbers sit on each entry's
    first line: a title wraps in its cell flush with its start, onto "and of Its Annexes" or, set closer than
    the entries are to each other, "Offices"; another entry's leaders and number go to a line of their own.
    The heading was not known for a contents heading, and the wrapped lines became entries of their own."""
    entries = [("Foreword by the Chair", ""), ("Summary of Findings", ""), ("Members of the Panel", ""),
               ("Introduction and Scope of the Review", "and of Its Annexes"), ("Methods Used by the Regional", "Offices"),
               ("Findings of the Review", ""), ("Financial Statements of the Board", "leaders"),
               ("Recommendations to the Board", ""), ("Next Steps and Timetable", "")]
    doc = pymupdf.open()
    contents = doc.new_page(width=612, height=792)
    write_line(contents, 80, "In this report", 18, True)
    y = 120.0
    expected = []
    for number, (title, wrapped) in enumerate(entries, start=2):
        contents.insert_text((72, y), title, fontsize=10, fontname="helv")
        if wrapped == "leaders":
            contents.insert_text((72, y + 12), f"............ {number}", fontsize=10, fontname="helv")
            y += 12
        else:
            contents.insert_text((500, y), str(number), fontsize=10, fontname="helv")
            if wrapped:
                contents.insert_text((72, y + 11), wrapped, fontsize=10, fontname="helv")
                y += 11
        y += 18
        full = f"{title} {wrapped}" if wrapped and wrapped != "leaders" else title
        expected.append((full, number))
    for full, number in expected:
        page = doc.new_page(width=612, height=792)
        y = write_line(page, 90, full, 14, True) + 6
        paragraph(page, y, 30)
        page.insert_text((300, 760), str(number), fontsize=9, fontname="helv")
    path = tmp_path / "report.pdf"
    doc.save(path)
    headings = find_toc_entries(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings] == [("In this report", 1), *expected]


def test_numbered_headings_a_little_larger_than_the_text_may_be_in_sentence_case(tmp_path: Path) -> None:
    """"§ 1.101 New supply terms and their review" set at 11 pt over a 10 pt text, not bold, is a heading like
    "§ 1.102 Other Transfer Rules": a numbered title set apart by its size need not be in title case."""
    titles = ["§ 1.101 New supply terms and their review", "§ 1.102 Other Transfer Rules",
              "§ 1.103 Current grant rates for each region", "§ 1.104 Records kept by the operator"]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_line(page, 90, "PART 1 — GENERAL RULES", 18, True) + 6
    for title in titles:
        y = write_line(page, paragraph(page, y, 5) + 8, title, 11) + 2
        if y > 650:
            page = doc.new_page(width=612, height=792)
            y = 90.0
    paragraph(page, y, 5)
    path = tmp_path / "rules.pdf"
    doc.save(path)
    assert [title for _level, title in _layout(path) if title.startswith("§")] == titles


def test_a_headless_contents_list_of_chapter_page_numbers_is_read(tmp_path: Path) -> None:
    """A specification's first page lists its chapters and sections with no heading and no leaders, each
    title's "3-2" page number right-aligned, several sections on a chapter's first page. It is the contents
    list: the rising numbers were only looked for in plain folios, and the repeated "3-1" looked like a
    table's figures."""
    chapters = [("CHAPTER 1 Scope and Purpose", ["1.1 Terms Used", "1.2 Related Documents"]),
                ("CHAPTER 2 Design Rules", ["2.1 Loads and Margins", "2.2 Materials", "2.3 Joints"]),
                ("CHAPTER 3 Tests", ["3.1 Factory Tests", "3.2 Site Tests"]),
                ("CHAPTER 4 Records", ["4.1 Test Reports", "4.2 Retention"])]
    doc = pymupdf.open()
    contents = doc.new_page(width=612, height=792)
    y = 90.0
    expected = []
    physical = 2
    for number, (chapter, sections) in enumerate(chapters, start=1):
        rows = [(chapter, 72.0)] + [(section, 86.0) for section in sections]
        for k, (title, x) in enumerate(rows):
            folio = f"{number}-{1 + k // 2}"  # two entries to a page
            contents.insert_text((x, y), title, fontsize=10, fontname="helv")
            contents.insert_text((540 - pymupdf.get_text_length(folio, "helv", 10), y), folio, fontsize=10,
                                 fontname="helv")
            expected.append((title, physical + k // 2))
            y += 16
        physical += (len(rows) + 1) // 2
    for number, (chapter, sections) in enumerate(chapters, start=1):
        rows = [chapter] + sections
        for start in range(0, len(rows), 2):
            page = doc.new_page(width=612, height=792)
            y = 90.0
            for title in rows[start:start + 2]:
                y = write_line(page, y, title, 16 if title.startswith("CHAPTER") else 12, True) + 4
                y = paragraph(page, y, 12) + 8
            page.insert_text((300, 760), f"{number}-{start // 2 + 1}", fontsize=9, fontname="helv")
    path = tmp_path / "spec.pdf"
    doc.save(path)
    headings = find_toc_entries(extract(path))
    assert headings is not None
    assert [(h.title, h.page) for h in headings] == expected


def test_a_contents_list_with_no_heading_no_leaders_and_no_number_column_is_read(tmp_path: Path) -> None:
    """A short plan's contents list has no heading and no leaders, and each page number follows its title after
    a few spaces, so the numbers stand at no common right edge; the rows start at two indents, one per level,
    and the numbers go up a page or so at a time, several sections to a page. It is the document's contents
    list. It was not found, for want of an aligned number column, and the same rows were then taken for
    headings on the first page."""
    chapters = (("General Provisions", ("Purpose and Scope", "Definitions")),
                ("Eligible Projects", ("Capital Works", "Planning Studies", "Equipment")),
                ("Applications", ("Deadlines", "Review Criteria")),
                ("Funding Awards", ("Grant Agreements", "Reporting")),
                ("Program Administration", ("Records", "Audits")))
    doc = pymupdf.open()
    contents = doc.new_page(width=612, height=792)
    y = 80.0
    expected = []
    page = 1  # the body's first page prints folio 1 and is the PDF's page 2
    for number, (title, sections) in enumerate(chapters, start=1):
        y = write_line(contents, y, f"ARTICLE {number} {title}   {page}", x=66)
        expected.append((f"ARTICLE {number} {title}", page + 1))
        for index, section in enumerate(sections, start=1):
            on = page + (index > 1)
            y = write_line(contents, y, f"Section {number}.{index} {section}   {on}", x=80)
            expected.append((f"Section {number}.{index} {section}", on + 1))
        page += 2
    for number, (title, sections) in enumerate(chapters, start=1):
        for half in (0, 1):
            body = doc.new_page(width=612, height=792)
            y = 90.0
            if half == 0:
                y = write_line(body, y, f"ARTICLE {number} {title}", 14, True) + 6
            for index, section in enumerate(sections, start=1):
                if (index > 1) == bool(half):
                    y = write_line(body, y + 6, f"Section {number}.{index} {section}", 11, True) + 4
                    y = paragraph(body, y, 8)
            body.insert_text((300, 760), str(doc.page_count - 1), fontsize=9, fontname="helv")
    path = tmp_path / "plan.pdf"
    doc.save(path)
    source, rows = tree_rows(path)
    assert source == "toc_page"
    assert [row for row in rows if row[0].startswith(("ARTICLE", "Section"))] == expected


def test_a_regulations_sections_numbered_the_cfrs_way_are_headings_under_their_parts(tmp_path: Path) -> None:
    """The text of a rule: "PART 240—GENERAL RULES AND REGULATIONS" over its sections, each in bold at the
    text's size, numbered as the Code of Federal Regulations numbers them ("§ 240.15l-1", "§ 240.17a-3",
    "§ 275.204-3") and titled by a sentence-case phrase closed by a full stop. Each section is a heading under
    its part. The letters and hyphen in the number left a "l-1 Regulation best interest." that opened in lower
    case, and the closing stop read as a sentence's."""
    parts = (("PART 240—GENERAL RULES AND REGULATIONS, SECURITIES EXCHANGE ACT OF 1934",
              ("§ 240.15l-1 Regulation best interest.", "§ 240.17a-3 Records to be made by certain exchange members.",
               "§ 240.17a-4 Records to be preserved by certain exchange members.")),
             ("PART 275—RULES AND REGULATIONS, INVESTMENT ADVISERS ACT OF 1940",
              ("§ 275.204-3 Delivery of brochures and brochure supplements.", "§ 275.204-5 Delivery of form CRS.")))
    doc = pymupdf.open()
    opening = doc.new_page(width=612, height=792)
    paragraph(opening, write_line(opening, 90, "Text of the Proposed Amendments", 16, True) + 6, 30)
    expected = []
    for part, sections in parts:
        page = doc.new_page(width=612, height=792)
        writer = pymupdf.TextWriter(page.rect)
        writer.append((72, 90), part, font=pymupdf.Font("hebo"), fontsize=11)  # a font with the em dash
        writer.write_text(page)
        y = 90 + 11 * 1.5 + 6
        expected.append((1, part))
        for section in sections:
            y = write_line(page, y + 6, section, 10, True) + 2
            expected.append((2, section))
            y = paragraph(page, y, 7)
            if y > 640:
                page = doc.new_page(width=612, height=792)
                y = 80.0
    path = tmp_path / "rule.pdf"
    doc.save(path)
    assert [heading for heading in _layout(path) if heading[1].startswith(("PART", "§"))] == expected



def test_a_short_contents_list_the_parser_passes_over_is_known_for_a_list(tmp_path: Path) -> None:
    """After the cover, seven contents rows, no heading, no leaders, "2-1" page numbers a few spaces after the
    titles, and a title wrapped with its number on the next line: too short a list for the contents parser, so
    the layout pass reads the page, and must know every row of it for a list's, not a heading of that page. It
    knew only rows ending in a plain number in an aligned column, so the keyword-numbered rows became headings,
    their page numbers in their titles (seen on synthetic plans); a body page is still no list."""
    entries = (("ARTICLE I General Provisions", 1, 66), ("Section 1.1 Purpose and Scope", 1, 80),
               ("ARTICLE II Eligible Projects and Capital", 2, 66), ("Section 2.1 Capital Works", 2, 80),
               ("Section 2.2 Planning Studies", 2, 80), ("ARTICLE III Applications", 3, 66),
               ("Section 3.1 Deadlines", 3, 80))
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 300, "Capital Grants Program Rules 2026", 24, True)
    contents = doc.new_page(width=612, height=792)
    y = 80.0
    for title, chapter, x in entries:
        if title.endswith("Capital"):  # wrapped: the title's last word and the number on the next line
            y = write_line(contents, y, title.rsplit(" ", 1)[0], 11, x=x)
            title = title.rsplit(" ", 1)[1]
        y = write_line(contents, y, f"{title}   {chapter}-1", 11, x=x)
    for title, chapter, _x in entries:
        page = doc.new_page(width=612, height=792)
        paragraph(page, write_line(page, 90, title, 14, True) + 6, 20)
        page.insert_text((300, 760), f"{chapter}-1", fontsize=9, fontname="helv")
    path = tmp_path / "plan.pdf"
    doc.save(path)
    extracted = extract(path)
    rows = analyse(extracted).rows
    assert listing_rows(rows[1], extracted.page_count) == set(range(len(rows[1]))) == set(range(8))
    assert listing_rows(rows[2], extracted.page_count) == set()
