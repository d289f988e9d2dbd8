"""Issue 11, held-out TeX documents: the layout tree (bookmarks ignored) on documents set in the conventions of
TeX's book classes and generators, imitated in `tests/core/tex_factory.py`."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.layout import find_layout_headings
from tests.bench.tree_score import normalise
from tests.core.tex_factory import Flow, book_heads, doxygen_heads, koma_heads, sphinx_heads, texinfo_heads

CHAPTERS = [("Introduction", ["Motivation", "Overview of the Method", "Notation"]),
            ("Background", ["Earlier Work", "Formal Setting"]),
            ("The Method", ["Reading the Input", "Keeping State", "Writing Results", "Complexity"]),
            ("Experiments", ["Data Sets", "Results", "Discussion"])]


def _layout(path: Path) -> list[tuple[int, str, int]]:
    """(level, title, page) of the layout headings, levels counted from 1 at the document's top, titles
    compared as the bench scores them ("Chapter 2 Background" is "2 Background")."""
    headings = find_layout_headings(extract(path))
    top = min((h.level for h in headings), default=1)
    return [(h.level - top + 1, normalise(h.title), h.page) for h in headings]


def _truth(flow: Flow) -> list[tuple[int, str, int]]:
    """The tree the flow set, titles normalised alike."""
    return [(level, normalise(title), page) for level, title, page in flow.truth]


def _title_page(flow: Flow) -> None:
    """A title page: the document's title, author and date centred, no section."""
    flow.new_page(plain=True, y=250)
    flow.line("A Treatise on Configuration", 24.88, "tiro", align="center")
    flow.line("Jane Q. Author", 12, "tiro", align="center", gap=3)


def _book(flow: Flow, label: str = "Chapter {n}", repeated: bool = True) -> None:
    """Numbered chapters ("Chapter 1" over the title), sections "1.2" and subsections "1.2.1", each section
    a page or two long, so most running heads name a section printed on one odd page only. `repeated`: every
    other section has the subsections "Inputs" and "Outputs", else they are named after their section."""
    for n, (chapter, sections) in enumerate(CHAPTERS, start=1):
        flow.new_page(plain=True, y=180)
        flow.line(label.format(n=n), 20.74, "tibo")
        flow.y += 20
        flow.heading(1, f"{n} {chapter}", chapter, 24.88)
        flow.marks.update(chapter=chapter, number=str(n), section="")
        flow.y += 20
        flow.para()
        for s, section in enumerate(sections, start=1):
            flow.heading(2, f"{n}.{s} {section}", f"{n}.{s}    {section}", 14.4)
            flow.marks["section"] = f"{n}.{s}. {section}"
            for _ in range(4):
                flow.para()
            if s % 2:
                subs = ("Inputs", "Outputs") if repeated else (f"Reading {section}", f"Checking {section}")
                for k, sub in enumerate(subs, start=1):
                    flow.heading(3, f"{n}.{s}.{k} {sub}", f"{n}.{s}.{k}    {sub}", 12.0)
                    flow.para()
                    flow.code()
                    flow.para()


def test_two_sided_running_heads_whose_words_change_are_no_headings(tmp_path: Path) -> None:
    """The book class heads odd pages with the current section and its folio ("1.2. OVERVIEW OF THE METHOD
    9"): a section a page or two long prints its head once or twice, too few for the repeated-row test, and
    each head was a heading. Their folios keep step with the pages, which marks the band as a header."""
    flow = Flow(book_heads)
    _title_page(flow)
    _book(flow, repeated=False)
    assert _layout(flow.save(tmp_path / "book.pdf")) == _truth(flow)


def test_numbered_sections_sharing_a_title_are_no_continuation(tmp_path: Path) -> None:
    """Sections of one chapter share their subsections' titles ("3.1.1 Inputs", "3.3.1 Inputs" a page later):
    the number tells them apart, so the second is no continued title printed again on the next page (a
    slide's frame title over two slides), which was dropped."""
    flow = Flow()
    _title_page(flow)
    _book(flow)
    assert _layout(flow.save(tmp_path / "book.pdf")) == _truth(flow)


def _koma(flow: Flow, prefix: bool, long_sections: frozenset[str] = frozenset()) -> None:
    """A KOMA-Script book: a starred "Preface", chapters in sans bold ("1 Introduction", or with chapterprefix
    a "Chapter 1" line over the larger title), sections of about a page (`long_sections` of about five), a
    starred "Bibliography"."""
    flow.new_page(plain=True, y=150)
    flow.heading(1, "Preface", "Preface", 24.88, "hebo")
    flow.marks.update(chapter="Preface", number="", section="Preface")
    flow.para()
    flow.para()
    for n, (chapter, sections) in enumerate(CHAPTERS, start=1):
        flow.new_page(plain=True, y=150)
        if prefix:
            flow.line(f"Chapter {n}", 20.74, "hebo")
            flow.y += 10
        flow.heading(1, f"{n} {chapter}", chapter if prefix else f"{n}   {chapter}", 24.88, "hebo")
        flow.marks.update(chapter=chapter, number=str(n), section="")
        flow.para()
        for s, section in enumerate(sections, start=1):
            flow.heading(2, f"{n}.{s} {section}", f"{n}.{s}   {section}", 14.4, "hebo")
            flow.marks["section"] = f"{n}.{s} {section}"
            for _ in range(60 if section in long_sections else 4):
                flow.para()
    flow.new_page(plain=True, y=150)
    flow.heading(1, "Bibliography", "Bibliography", 24.88, "hebo")
    for i in range(30):
        flow.line(f"[{i + 1}] A. Author. A paper about things, number {i}. Journal, {1990 + i}.", 9)


def test_running_heads_without_a_folio_are_found_by_their_slot(tmp_path: Path) -> None:
    """KOMA-Script heads each page with the current chapter or section and no folio ("1 Introduction",
    "3.4 Complexity" over one page): neither the words nor a number repeat, so each head was a heading. The
    slot repeats: each page's first row, in one band and a body-size face, set apart from the text."""
    flow = Flow(koma_heads)
    _title_page(flow)
    _koma(flow, prefix=False)
    assert _layout(flow.save(tmp_path / "koma.pdf")) == _truth(flow)


def test_a_running_head_slot_counts_the_heads_already_found_in_it(tmp_path: Path) -> None:
    """A long section in each chapter prints its head over three right-hand pages or more, and its chapter's
    name over as many left-hand ones: both are found as repeated rows. The short sections' heads, each printed
    once, were then too few to make a slot of their own and became headings. The heads already found sit in
    the same slot and count for it."""
    flow = Flow(koma_heads)
    _title_page(flow)
    _koma(flow, prefix=False, long_sections=frozenset(sections[0] for _chapter, sections in CHAPTERS))
    assert _layout(flow.save(tmp_path / "koma.pdf")) == _truth(flow)


def test_a_chapter_label_over_a_larger_title_ranks_with_the_starred_chapters(tmp_path: Path) -> None:
    """With a "Chapter 1" line over each chapter's larger title, the chapters ranked by the label's size and
    the starred "Preface" and "Bibliography", set in the title's size, went above them as if they were
    part titles; the joined heading now ranks by its title's size, level with them."""
    flow = Flow(koma_heads)
    _title_page(flow)
    _koma(flow, prefix=True)
    assert _layout(flow.save(tmp_path / "koma.pdf")) == _truth(flow)


CLASSES = ["mylib::Buffer", "mylib::Parser", "mylib::Reader", "mylib::Writer"]


def _doxygen(flow: Flow) -> None:
    """A Doxygen refman in sans: "Chapter 2" over "Class Index" with its "2.1 Class List", then "Class
    Documentation" with "3.1 mylib::Buffer Class Reference" per class and under each the same subsections
    ("3.1.1 Detailed Description", "3.1.2 Member Function Documentation") and one per member, named as in
    the code ("3.1.2.1 read()"), each over its signature in monospace."""
    chapters = [("Class Index", ["Class List"]), ("Class Documentation", [c + " Class Reference" for c in CLASSES])]
    for n, (chapter, sections) in enumerate(chapters, start=1):
        flow.new_page(plain=True, y=180)
        flow.line(f"Chapter {n}", 20.74, "hebo")
        flow.y += 15
        flow.heading(1, f"{n} {chapter}", chapter, 24.88, "hebo")
        flow.marks.update(chapter=f"Chapter {n}. {chapter}", number=str(n), section="")
        for s, section in enumerate(sections, start=1):
            flow.heading(2, f"{n}.{s} {section}", f"{n}.{s} {section}", 14.4, "hebo")
            flow.marks["section"] = f"{n}.{s} {section}"
            if n == 1:
                flow.line("Here is a list of all classes with brief descriptions:")
                for name in CLASSES:
                    flow.line(name, font="hebo")
                    flow.line("    A class that keeps a buffer of tokens and hands them out one by one")
                continue
            flow.line("#include <mylib.h>", font="cour")
            for k, (sub, members) in enumerate([("Detailed Description", []), ("Member Function Documentation",
                                                 ["read()", "size()", "reset()"])], start=1):
                flow.heading(3, f"{n}.{s}.{k} {sub}", f"{n}.{s}.{k} {sub}", 12, "hebo")
                flow.para(3)
                for m, member in enumerate(members, start=1):
                    flow.heading(4, f"{n}.{s}.{k}.{m} {member}", f"{n}.{s}.{k}.{m} {member}", 10.95, "hebo")
                    flow.line(f"void {section.split()[0]}::{member[:-2]} ( )", font="cour")
                    flow.para(2)


def test_a_reference_manual_titles_members_and_classes_by_their_code_names(tmp_path: Path) -> None:
    """Doxygen titles a member's section by its name ("3.1.2.1 read()": few letters, no capital) and a class's
    by a lower-case name over title-case words ("3.1 mylib::Buffer Class Reference"): the first were no
    headings and the second lost their number, so the subsections, restarting after the chapters, ranked
    above the sections. A name numbered two levels deep, set bold or larger, is a title."""
    flow = Flow(doxygen_heads, body="helv")
    _title_page(flow)
    _doxygen(flow)
    assert _layout(flow.save(tmp_path / "refman.pdf")) == _truth(flow)


TEXINFO = [("Overview", ["Reporting Bugs", "Getting Started"]), ("Invoking", ["Options", "Exit Status"]),
           ("Scripts", ["Script Syntax", "Commands", "Addresses"])]


def test_a_manual_index_keeps_its_title(tmp_path: Path) -> None:
    """A texinfo manual ends in an unnumbered "Concept Index" whose rows, in the terms' order, end in page
    numbers after dot leaders: read as a contents list without a heading, its title was skipped with its
    rows. In the back half of the document such a list is the index, and its title stays a chapter."""
    flow = Flow(texinfo_heads)
    _title_page(flow)
    chapters = [(str(n), title, sections) for n, (title, sections) in enumerate(TEXINFO, start=1)]
    for number, title, sections in chapters + [("", "Concept Index", [])]:
        flow.new_page(plain=True, y=120)
        label = f"{number} {title}".strip()
        flow.heading(1, label, label, 20.74, "tibo")
        flow.marks["chapter"] = f"Chapter {number}: {title}" if number else title
        if not number:
            for i in range(40):
                flow.line(f"option --regexp-{i} . . . . . . . . . . . . . . . . . {3 + (7 * i) % 11}", 9)
        for s, section in enumerate(sections, start=1):
            flow.heading(2, f"{number}.{s} {section}", f"{number}.{s} {section}", 14.4, "tibo")
            for _ in range(4):
                flow.para()
    assert _layout(flow.save(tmp_path / "manual.pdf")) == _truth(flow)


NUMBER_WORDS = ["ONE", "TWO", "THREE", "FOUR"]


def _sphinx(flow: Flow, chapters: list[tuple[str, list[str]]]) -> None:
    """Sphinx's LaTeX manual: each chapter opens with "CHAPTER" over its number in words ("ONE") over the
    title, all right-aligned in bold sans, then sections "1.1" in bold sans over Times text; an unnumbered
    "Python Module Index" and "Index" close the book."""
    for n, (chapter, sections) in enumerate(chapters, start=1):
        flow.new_page(plain=True, y=150)
        flow.line("CHAPTER", 14.4, "hebo", align="right")
        flow.line(NUMBER_WORDS[n - 1], 24.88, "hebo", align="right", gap=1.3)
        flow.y += 15
        flow.heading(1, f"{n} {chapter}", chapter, 24.88, "hebo", align="right")
        flow.marks.update(chapter=chapter, number=str(n), section="")
        flow.para()
        for s, section in enumerate(sections, start=1):
            flow.heading(2, f"{n}.{s} {section}", f"{n}.{s}  {section}", 17.28, "hebo")
            flow.marks["section"] = f"{n}.{s}. {section}"
            for _ in range(3):
                flow.para()
    for title in ("Python Module Index", "Index"):
        flow.new_page(plain=True, y=180)
        flow.heading(1, title, title, 24.88, "hebo", align="right")
        for i in range(12):
            flow.line(f"example.module{i}", font="cour")


def test_a_chapter_label_on_two_lines_is_the_chapter_s_number(tmp_path: Path) -> None:
    """"CHAPTER" over "ONE" over the title: each line alone was a heading of its own. Read as one label,
    "CHAPTER ONE", they join the title like a "Chapter 1" line."""
    flow = Flow(sphinx_heads)
    _title_page(flow)
    _sphinx(flow, CHAPTERS)
    assert _layout(flow.save(tmp_path / "sphinx.pdf")) == _truth(flow)


def test_a_numbered_title_with_figures_is_a_title(tmp_path: Path) -> None:
    """A changelog's "4.1 Version 1.0": counted with its outline number, the line had more figures than
    letters and was taken for a figure row; the number is left out of the count."""
    flow = Flow(sphinx_heads)
    _title_page(flow)
    _sphinx(flow, CHAPTERS[:3] + [("Changelog", ["Version 1.0", "Version 0.9", "Version 0.8"])])
    assert _layout(flow.save(tmp_path / "sphinx.pdf")) == _truth(flow)


DECK = [("Introduction", ["Why This Matters", "The Question"]), ("Method", ["Architecture", "Loss Function"]),
        ("Experiments", ["Benchmarks", "Main Table", "Ablations"]), ("Conclusion", ["Summary"])]


def _outline_slide(doc: pymupdf.Document, current: int | None, balls: bool) -> None:
    """An outline slide listing DECK's sections, `current` in full colour and the others shaded (all in full
    colour when None); with `balls`, each number stands apart in a ball as beamer's Madrid theme sets it."""
    page = doc.new_page(width=364.0, height=273.0)
    page.insert_text((20, 30), "Outline", fontsize=14, fontname="helv")
    for k, (name, _frames) in enumerate(DECK):
        full = current is None or k == current
        colour = (0, 0, 0) if full else (0.7, 0.7, 0.75)
        if balls:
            page.draw_circle((45, 76 + 20 * k), 6, color=(0.2, 0.2, 0.7), fill=(0.2, 0.2, 0.7))
            page.insert_text((42, 79 + 20 * k), str(k + 1), fontsize=8, fontname="helv",
                             color=(0.9, 0.9, 0.95) if full else (0.98, 0.98, 0.99))
            page.insert_text((58, 80 + 20 * k), name, fontsize=11, fontname="helv", color=colour)
        else:
            page.insert_text((40, 80 + 20 * k), f"{k + 1}  {name}", fontsize=11, fontname="helv", color=colour)


@pytest.mark.parametrize("madrid", [False, True])
def test_a_deck_s_sections_come_from_its_recurring_outline_slides(tmp_path: Path, madrid: bool) -> None:
    """A beamer deck with no navigation bar repeats its outline before each section, the current section in
    full colour and the others shaded, and sets only frame titles: no section was found. Each outline slide
    marking a new entry further down the list starts that section. In Madrid's style the sections' numbers
    stand apart in balls, shaded with their names, and an overview slide lists every section in full colour
    first: both made the outline slides read as marking nothing (two or no entries in a colour of their own)."""
    width, height = 364.0, 273.0
    doc = pymupdf.open()
    expected: list[tuple[int, str, int]] = []
    page = doc.new_page(width=width, height=height)
    page.insert_text((60, 110), "Learning to Read Long Inputs", fontsize=16, fontname="helv")
    if madrid:
        _outline_slide(doc, None, balls=True)
    for current, (section, frames) in enumerate(DECK):
        _outline_slide(doc, current, balls=madrid)
        expected.append((1, normalise(section), len(doc)))
        for frame in frames:
            page = doc.new_page(width=width, height=height)
            page.draw_rect(pymupdf.Rect(0, 10, width, 40), color=(0.2, 0.2, 0.7), fill=(0.2, 0.2, 0.7))
            page.insert_text((20, 30), frame, fontsize=14, fontname="helv", color=(1, 1, 1))
            for b, bullet in enumerate(["• The model reads each input once", "• Results are compared over runs",
                                        "• Costs grow with the input"]):
                page.insert_text((30, 80 + 22 * b), bullet, fontsize=11, fontname="helv")
    path = tmp_path / "deck.pdf"
    doc.save(path)
    assert _layout(path) == expected
