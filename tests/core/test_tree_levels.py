"""Issue 11 class 6 (hierarchy of layout trees) on PDFs built here: a heading style used once ranked above the
sections around it, and a seventh heading style merged into the sixth."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.tree import Heading
from tests.bench.tree_score import nested
from tests.core.built_pages import paragraph, write_line


def _depths(headings: list[Heading]) -> dict[str, int]:
    """Title -> nesting depth, nested the way the app's assembly nests levels (0 = top)."""
    return {e.title: e.depth for e in nested((h.level, h.title, h.page) for h in headings)}


def _cover() -> pymupdf.Document:
    """A new document whose first page carries only its title (a title block, never a section)."""
    doc = pymupdf.open()
    write_line(doc.new_page(width=612, height=792), 200, "Annual Review of Rivers", size=26, bold=True)
    return doc


def _page(doc: pymupdf.Document, heads: list[tuple[str, float, bool]]) -> None:
    """A page of headings (title, size, bold), each over a paragraph of body text."""
    page = doc.new_page(width=612, height=792)
    y = 80.0 + 40 * (len(doc) % 3)  # not at one spot on every page (a slide's frame title)
    for title, size, bold in heads:
        y = write_line(page, y + 8, title, size=size, bold=bold) + 4
        y = paragraph(page, y, 16 // len(heads) + 2)


def test_a_one_off_title_over_the_whole_body_is_a_sibling_of_the_sections(tmp_path: Path) -> None:
    """An earnings release opens with "Guidance and Outlook" set larger than anything after it, then one
    "Prepared Remarks" line a size smaller, then its sections: neither one-off is the parent of the rest."""
    doc = _cover()
    _page(doc, [("Guidance and Outlook", 14, True), ("Prepared Remarks and Webcast", 12, True)])
    sections = ["Revenue by Division", "Operating Profit", "Cash Flow Summary", "Glossary of Terms",
                "Cautionary Statement"]
    for title in sections:
        _page(doc, [(title, 11, True), ("Results for the Quarter", 10, True)])
    path = tmp_path / "release.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert {t: depths[t] for t in ["Guidance and Outlook", "Prepared Remarks and Webcast", *sections]} == dict.fromkeys(
        ["Guidance and Outlook", "Prepared Remarks and Webcast", *sections], 0)
    assert depths["Results for the Quarter"] == 1


def test_a_one_off_title_among_earlier_sections_is_their_sibling(tmp_path: Path) -> None:
    """A filing's "Report of Independent Auditors" is set larger than the sections printed before it, which
    stand at the top with no heading of its size over them: it is one more section, not the parent of the
    sections after it. A one-off larger title with only its own sub-sections under it keeps them."""
    doc = _cover()
    before = ["Introduction", "Executive Overview", "Business Segment Results"]
    after = ["Glossary of Terms", "Line of Business Metrics"]
    for title in before:
        _page(doc, [(title, 12, True), ("Selected Metrics", 10, True)])
    _page(doc, [("Report of Independent Auditors", 15, True)])
    for title in after:
        _page(doc, [(title, 12, True), ("Selected Metrics", 10, True)])
    _page(doc, [("Certification of the Officers", 18, True)])
    path = tmp_path / "filing.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert {t: depths[t] for t in [*before, "Report of Independent Auditors", *after]} == dict.fromkeys(
        [*before, "Report of Independent Auditors", *after], 0)

    doc = _cover()
    _page(doc, [("Rivers of the North", 18, True), ("Flow Measurements", 12, True)])
    _page(doc, [("Lakes of the North", 18, True), ("Estuaries in Detail", 15, True), ("Salt Marshes", 12, True),
                ("Tidal Flats", 12, True)])
    _page(doc, [("Coasts of the North", 18, True), ("Cliff Erosion", 12, True)])
    path = tmp_path / "book.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert (depths["Estuaries in Detail"], depths["Salt Marshes"], depths["Tidal Flats"]) == (1, 2, 2)


def test_a_seventh_heading_style_is_a_level_of_its_own(tmp_path: Path) -> None:
    """Seven heading faces nested one in the other: the seventh is a level of its own, not merged into the
    sixth (a long filing easily sets seven faces: parts, items, sections, sub-heads, notes, table titles)."""
    faces = [(20, True), (17, True), (15, True), (13, True), (12, True), (11, True), (10, True)]
    names = ["Northern", "Southern"]
    words = ["Overview", "Sampling", "Methods", "Instruments", "Calibration", "Records", "Archives"]
    doc = _cover()
    titles: list[str] = []
    for name in names:
        heads = [(f"{name} Stations {word}", size, bold) for word, (size, bold) in zip(words, faces)]
        titles += [h[0] for h in heads]
        _page(doc, heads[:4])
        _page(doc, heads[4:])
    path = tmp_path / "deep.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert [depths[t] for t in titles] == list(range(7)) * 2


def test_appendices_numbered_in_the_sections_face_continue_them(tmp_path: Path) -> None:
    """A paper's "1 ... 3" sections, then "Appendix A" and "Appendix B" in the same face with "A.1" sub-
    sections, then "References": the appendices take over the sections' count, so each is their sibling and
    "References" after the last one is a section too, not a child of "Appendix B". Schemes that interleave in
    one face (an outline's "I." over "A.") keep their own ranks."""
    doc = _cover()
    sections = ["1 Results of Experiment X", "2 Results of Experiment Y", "3 Results of Experiment Z"]
    for title in sections:
        _page(doc, [(title, 12, True)])
    _page(doc, [("Appendix A Proofs of the Lemmas", 12, True), ("A.1 Proof of Lemma One", 11, True),
                ("A.2 Proof of Lemma Two", 11, True)])
    _page(doc, [("Appendix B Additional Results", 12, True), ("B.1 Larger Samples", 11, True),
                ("B.2 Smaller Samples", 11, True)])
    _page(doc, [("References", 12, True)])
    path = tmp_path / "paper.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    tops = [*sections, "Appendix A Proofs of the Lemmas", "Appendix B Additional Results", "References"]
    assert {t: depths[t] for t in tops} == dict.fromkeys(tops, 0)
    assert depths["A.1 Proof of Lemma One"] == depths["B.2 Smaller Samples"] == 1

    doc = _cover()
    for roman, title in [("I.", "Background"), ("II.", "Discussion")]:
        _page(doc, [(f"{roman} {title} of the Rule", 12, True), (f"A. First Point on {title}", 12, True),
                    (f"B. Second Point on {title}", 12, True)])
    path = tmp_path / "outline.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert depths["I. Background of the Rule"] == 0 and depths["A. First Point on Background"] == 1


def test_lettered_appendices_after_a_last_sub_section_are_sections_too(tmp_path: Path) -> None:
    """A paper's "1." ... "4." sections with "4.1." sub-sections, then "References" and "A." ... "C." appendices
    in the sections' face: the letters restart once, right after "4.3.", but they take over the sections' count
    in their type; they are sections, not children of the last sub-section."""
    doc = _cover()
    for number in range(1, 5):
        heads = [(f"{number}. Results of Experiment {'WXYZ'[number - 1]}", 12.0, True)]
        if number > 2:
            heads += [(f"{number}.{k}. Samples of Series {k}", 11.0, True) for k in range(1, 4)]
        _page(doc, heads)
    _page(doc, [("References", 12, True)])
    appendices = ["A. Object Detection Baselines", "B. Object Detection Improvements", "C. Localization Results"]
    for title in appendices:
        _page(doc, [(title, 12, True)])
    path = tmp_path / "paper.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert depths["4.3. Samples of Series 3"] == 1
    assert {t: depths[t] for t in ["References", *appendices]} == dict.fromkeys(["References", *appendices], 0)


def test_a_decimal_section_set_bold_stays_inside_the_chapter_set_regular_at_its_size(tmp_path: Path) -> None:
    """"1 RIVERS OF THE NORTH" in regular capitals and "1.1 Spring Floods ..." bold at the same size, with
    unnumbered bold sub-heads a size down (too many for the numbering to nest every heading): bold before
    regular would hang chapter "2" under section "1.2"; the numbering puts "1.1" inside "1"."""
    doc = _cover()
    words = ["North", "South", "East"]
    for n, word in enumerate(words, start=1):
        _page(doc, [(f"{n} RIVERS OF THE {word.upper()}", 12, False), (f"{n}.1 Spring Floods of the {word}", 12, True),
                    (f"Gauge Readings in the {word}", 10, True), (f"Flood Markers in the {word}", 10, True)])
        _page(doc, [(f"{n}.2 Summer Levels of the {word}", 12, True), (f"Dry Spells in the {word}", 10, True),
                    (f"Low Water Marks in the {word}", 10, True), (f"Irrigation Draws in the {word}", 10, True)])
    path = tmp_path / "report.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    for n, word in enumerate(words, start=1):
        assert depths[f"{n} RIVERS OF THE {word.upper()}"] == 0
        assert depths[f"{n}.1 Spring Floods of the {word}"] == depths[f"{n}.2 Summer Levels of the {word}"] == 1
        assert depths[f"Dry Spells in the {word}"] == 2


def test_a_running_chapter_label_at_the_page_top_is_no_heading(tmp_path: Path) -> None:
    """A book prints "Chapter N" in bold at the top of alternate pages of chapter N (the part's name on the
    others, left on even pages, right on odd ones): the label's number moves with the chapters, not the pages,
    so it is a running header, not a chapter heading each time; the chapters and their sections keep their
    levels."""
    doc = _cover()

    def page(heads: list[tuple[str, float, bool]], header: str) -> None:
        new = doc.new_page(width=612, height=792)
        write_line(new, 40, header, size=10, bold=True, x=72 if len(doc) % 2 == 0 else 480)
        write_line(new, 760, str(len(doc)), size=9, x=300)
        y = 80.0 + 40 * (len(doc) % 3)
        for title, size, bold in heads:
            y = write_line(new, y + 8, title, size=size, bold=bold) + 4
            y = paragraph(new, y, 16 // len(heads) + 2)
        if not heads:
            paragraph(new, 80, 30)

    regions = ["North", "South", "East", "West"]
    waters = ["Lakes", "Ponds", "Bays", "Seas"]
    for p, part in enumerate(["PART ONE", "PART TWO"]):
        page([(f"{part}: The {['Rivers', 'Lakes'][p]}", 18, True)], part)
        for n in (2 * p + 1, 2 * p + 2):
            page([(f"Chapter {n}: Waters of the {regions[n - 1]}", 16, True),
                  (f"Flow in the {regions[n - 1]} in Spring", 12, True)], part)
            for k in range(3):
                page([], f"Chapter {n}")
                page([(f"Autumn Levels of the {waters[n - 1]}", 12, True)] if k == 1 else [], part)
    path = tmp_path / "book.pdf"
    doc.save(path)
    headings = find_layout_headings(extract(path))
    assert not [h.title for h in headings if h.title.startswith("Chapter") and ":" not in h.title]
    depths = _depths(headings)
    assert depths["PART TWO: The Lakes"] == 0 and depths["Chapter 3: Waters of the East"] == 1
    assert depths["Autumn Levels of the Bays"] == 2


def test_an_exhibit_label_over_each_of_its_pages_keeps_its_title(tmp_path: Path) -> None:
    """A filing's exhibits print "Exhibit 10.N" at the top of each of their pages: the label heads pages next
    to each other, so it is no running chapter label, and each exhibit keeps its title."""
    doc = _cover()
    for n in (1, 2, 3):
        for _ in range(2):
            page = doc.new_page(width=612, height=792)
            write_line(page, 60, f"Exhibit 10.{n}", size=12, bold=True)
            write_line(page, 760, str(len(doc)), size=9, x=300)
            paragraph(page, 100, 30)
    path = tmp_path / "exhibits.pdf"
    doc.save(path)
    titles = [h.title for h in find_layout_headings(extract(path))]
    assert [t for t in titles if t.startswith("Exhibit")] == ["Exhibit 10.1", "Exhibit 10.2", "Exhibit 10.3"]


def _numbered_body() -> pymupdf.Document:
    """A cover and two chapters numbered in three depths ("1", "1.1", "1.1.1") set 16, 12 and 10.5 pt bold: the
    body an appendix follows."""
    doc = _cover()
    _page(doc, [("1 Introduction", 16, True), ("1.1 Scope", 12, True), ("1.1.1 Terms Used", 10.5, True),
                ("1.1.2 Units", 10.5, True), ("1.2 Method", 12, True)])
    _page(doc, [("2 Findings", 16, True), ("2.1 Flows", 12, True), ("2.1.1 Winter Flows", 10.5, True),
                ("2.1.2 Summer Flows", 10.5, True)])
    return doc


def test_an_appendix_numbers_two_levels_in_one_lettered_scheme(tmp_path: Path) -> None:
    """"Appendix A" over "A.1 Sources" over "A.1.1 River Gauges": "A.1" and "A.1.1" are one scheme's two
    depths, as "1.1" and "1.1.1" are. Read as one scheme they were one level, under the appendix."""
    doc = _numbered_body()
    _page(doc, [("Appendix A: Data", 16, True), ("A.1 Sources", 12, True), ("A.1.1 River Gauges", 10.5, True),
                ("A.1.2 Rain Gauges", 10.5, True), ("A.2 Quality Checks", 12, True)])
    _page(doc, [("Appendix B: Glossary", 16, True), ("B.1 Terms", 12, True), ("B.1.1 Flow Terms", 10.5, True),
                ("B.1.2 Rain Terms", 10.5, True)])
    path = tmp_path / "appendix.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert [depths[t] for t in ("Appendix A: Data", "A.1 Sources", "A.1.1 River Gauges", "A.2 Quality Checks",
                                "B.1 Terms", "B.1.2 Rain Terms")] == [0, 1, 2, 1, 1, 2]
    assert depths["1.1.1 Terms Used"] == depths["A.1.1 River Gauges"]


def test_a_lone_appendix_sections_are_level_with_the_body_sections_set_alike(tmp_path: Path) -> None:
    """One "Appendix A", its "A.1" and "A.2" set like the body's "1.1" and divided into "A.1.1" like "1.1.1":
    "A.1.1" restarting under "A.1" made "A.1" the root of a nest of its own, level with the appendix, and its
    sections lost their parent. "A.1" restarts once, after "Appendix A", whose face ranks above its own."""
    doc = _numbered_body()
    _page(doc, [("Appendix A: Data", 16, True), ("A.1 Sources", 12, True), ("A.1.1 River Gauges", 10.5, True),
                ("A.1.2 Rain Gauges", 10.5, True)])
    _page(doc, [("A.2 Quality Checks", 12, True), ("A.2.1 Gaps", 10.5, True), ("A.2.2 Outliers", 10.5, True)])
    path = tmp_path / "appendix.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert [depths[t] for t in ("2 Findings", "Appendix A: Data", "A.1 Sources", "A.1.1 River Gauges",
                                "A.2 Quality Checks", "A.2.2 Outliers")] == [0, 0, 1, 2, 1, 2]


def test_sections_in_capitals_hold_their_bold_sub_sections_of_one_size(tmp_path: Path) -> None:
    """A bank's report sets its sections in plain capitals and their sub-sections in bold upper and lower case
    at the same size. Ranked bold first, every section hung under the last bold sub-section before it."""
    plan = [("EXECUTIVE OVERVIEW", ["Business Developments", "Recent Market Events"]),
            ("CAPITAL RISK MANAGEMENT", ["Capital Actions Taken", "Regulatory Capital Ratios"]),
            ("LIQUIDITY RISK MANAGEMENT", ["Funding Sources Used"]),
            ("MARKET RISK MANAGEMENT", [])]
    _assert_sections_hold_subs(tmp_path, plan, sections_bold=False)


def _assert_sections_hold_subs(tmp_path: Path, plan: list[tuple[str, list[str]]], sections_bold: bool) -> None:
    """Build sections at 12 pt (bold or not) each over its bold 12 pt sub-sections, the first on the section's
    page and the rest on the next; every section is top-level and every sub-section one level under it."""
    doc = _cover()
    for section, subs in plan:
        _page(doc, [(section, 12, sections_bold), *((sub, 12, True) for sub in subs[:1])])
        if subs[1:]:
            _page(doc, [(sub, 12, True) for sub in subs[1:]])
    path = tmp_path / "sections.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert [depths[section] for section, _ in plan] == [0] * len(plan)
    assert {depths[sub] for _, subs in plan for sub in subs} == {1}


def test_an_abstract_in_capitals_is_no_parent_of_bold_sections(tmp_path: Path) -> None:
    """A paper's lone "ABSTRACT" in capitals before sections set bold at its size heads no group of them
    twice over: the capitals style is not moved above the bold one, and the sections stay at the top."""
    doc = _cover()
    _page(doc, [("ABSTRACT", 12, False)])
    sections = ["Introduction", "Related Studies", "Methods Used", "Conclusions"]
    for title in sections:
        _page(doc, [(title, 12, True)])
    _page(doc, [("REFERENCES", 12, False)])
    path = tmp_path / "paper.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert [depths[t] for t in sections] == [0, 0, 0, 0]


def test_a_quarterly_reports_bold_sub_sections_stay_under_its_capitals_sections(tmp_path: Path) -> None:
    """A 10-Q prints its MD&A (sections in capitals, fewer bold sub-sections at the same size) before its
    items, which are set smaller. A face larger than the items and used less often than they are counts as a
    part title above them; the bold sub-sections did, while the more numerous capitals sections did not, so
    each section hung under the sub-section before it."""
    doc = _cover()
    plan = [("EXECUTIVE OVERVIEW", ["Business Developments"]), ("CAPITAL RISK MANAGEMENT", ["Capital Actions"]),
            ("LIQUIDITY RISK MANAGEMENT", ["Funding Sources"]), ("MARKET RISK MANAGEMENT", []),
            ("COUNTRY RISK MANAGEMENT", []), ("OPERATIONAL RISK MANAGEMENT", [])]
    for section, subs in plan:
        _page(doc, [(section, 12, False), *((sub, 12, True) for sub in subs)])
    items = ["Item 1. Legal Proceedings", "Item 1A. Risk Factors", "Item 2. Unregistered Sales of Equity",
             "Item 3. Defaults Upon Senior Securities", "Item 4. Mine Safety Disclosures", "Item 5. Other Information"]
    for pair in (items[:3], items[3:]):
        _page(doc, [(item, 10, False) for item in pair])
    path = tmp_path / "quarterly.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    for section, subs in plan:
        assert all(depths[sub] == depths[section] + 1 for sub in subs), (section, depths)


def test_capitals_and_mixed_case_in_one_face_are_two_levels(tmp_path: Path) -> None:
    """A release sets its sections in capitals and their sub-sections in upper and lower case, in one bold
    face: one style by size and weight, they were one flat level. A parenthesis in a capitals title ("(Since
    May 2, 2023)") does not make it mixed case."""
    plan = [("DISCUSSION OF SEGMENT RESULTS", ["Entertainment", "Sports Networks"]),
            ("OTHER FINANCIAL INFORMATION", ["Interest Expense", "Income Taxes Paid"]),
            ("RECENT NOTABLE DEVELOPMENTS (Since May 2, 2023)", ["Product Developments"]),
            ("FORWARD-LOOKING STATEMENTS", [])]
    _assert_sections_hold_subs(tmp_path, plan, sections_bold=True)


def test_front_and_back_matter_in_capitals_stay_level_with_the_sections(tmp_path: Path) -> None:
    """A report's "EXECUTIVE SUMMARY" before its sections and "APPENDICES" before its one appendix, in the
    sections' bold face: two capitals headings each followed by mixed-case ones are front and back matter, not
    an outer level (three are needed), so the face stays one level."""
    doc = _cover()
    titles = ["EXECUTIVE SUMMARY", "Introduction", "Related Studies", "Methods Used", "Conclusions", "REFERENCES",
              "APPENDICES", "Survey Questions Asked"]
    for title in titles:
        _page(doc, [(title, 12, True)])
    path = tmp_path / "paper.pdf"
    doc.save(path)
    depths = _depths(find_layout_headings(extract(path)))
    assert [depths[t] for t in titles] == [0] * len(titles)
