"""TeX-made documents imitated with pymupdf (issue 11, held-out TeX): a page flow that sets headings in the
sizes and faces of the common classes and generators, prints their running heads and footers, and records
the section tree it set, so a test compares the layout tree with what the document holds."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pymupdf

WIDTH, HEIGHT = 612.0, 792.0
LEFT, RIGHT = 90.0, 522.0
TOP, BOTTOM = 100.0, 700.0
_WORDS = ("the value of each parameter is read from the configuration file when the module is loaded and kept "
          "until the process ends so that later calls see the same settings unless they are changed explicitly "
          "by the caller through the interface described in this section which also lists the defaults and the "
          "errors raised when a value cannot be parsed or falls outside its range").split()


class Flow:
    """Lines set down pages in reading order; `head(flow, page, number)` prints each page's furniture once the
    page is full, from the marks (`chapter`, `number`, `section`) set while it was written."""

    def __init__(self, head: Callable[[Flow, pymupdf.Page, int], None] | None = None, body: str = "tiro",
                 size: float = 10.0, seed: int = 1) -> None:
        self.doc = pymupdf.open()
        self.rng = random.Random(seed)
        self.body, self.size, self.head = body, size, head
        self.page: pymupdf.Page | None = None
        self.y = TOP
        self.plain = False
        self.marks = {"chapter": "", "number": "", "section": ""}
        self.truth: list[tuple[int, str, int]] = []

    @property
    def number(self) -> int:
        """The physical page being written (1-based)."""
        return len(self.doc)

    def new_page(self, plain: bool = False, y: float = TOP) -> pymupdf.Page:
        """Close the page (its furniture printed) and open the next; a plain page gets only a folio."""
        self._close()
        self.page = self.doc.new_page(width=WIDTH, height=HEIGHT)
        self.y, self.plain = y, plain
        return self.page

    def _close(self) -> None:
        if self.page is not None and self.head is not None:
            self.head(self, self.page, self.number)

    def line(self, text: str, size: float | None = None, font: str | None = None, x: float = LEFT,
             gap: float = 1.25, align: str = "left") -> None:
        """One line below the last (a new page when this one is full), left, right or centre aligned."""
        size, font = size or self.size, font or self.body
        if self.page is None or self.y + size * gap > BOTTOM:
            self.new_page()
        assert self.page is not None
        self.y += size * gap
        width = pymupdf.get_text_length(text, fontname=font, fontsize=size)
        if align == "right":
            x = RIGHT - width
        elif align == "center":
            x = (LEFT + RIGHT - width) / 2
        self.page.insert_text((x, self.y), text, fontsize=size, fontname=font)

    def heading(self, level: int, title: str, text: str, size: float, font: str = "tibo", **kw: object) -> None:
        """A heading line, recorded in the truth as (level, title, page); kept with the lines after it."""
        if self.page is None or self.y + size * 1.25 + 60 > BOTTOM:
            self.new_page()
        self.y += 6
        self.line(text, size, font, **kw)  # type: ignore[arg-type]
        self.truth.append((level, title, self.number))
        self.y += 4

    def para(self, lines: int = 0) -> None:
        """A justified-looking paragraph of body text with an indented first line."""
        lines = lines or self.rng.randint(3, 8)
        self.y += 4
        for i in range(lines):
            words: list[str] = []
            while pymupdf.get_text_length(" ".join(words), fontname=self.body, fontsize=self.size) < RIGHT - LEFT - 20:
                words.append(self.rng.choice(_WORDS))
            words = words[:-1] if i < lines - 1 else words[: self.rng.randint(4, len(words) - 1)]
            text = " ".join(words)
            self.line((text.capitalize() + ("." if i == lines - 1 else "")), x=LEFT + (15 if i == 0 else 0))

    def code(self, lines: int = 3, font: str = "cour") -> None:
        """A short listing in monospace."""
        self.y += 4
        for k in range(lines):
            self.line(f"    result = compute(value_{k}, flag=True)", 9, font)
        self.y += 4

    def save(self, path: Path) -> Path:
        """Close the last page and write the file."""
        self._close()
        self.doc.save(str(path))
        self.doc.close()
        return path


def book_heads(flow: Flow, page: pymupdf.Page, number: int) -> None:
    """The book class's two-sided heads in slanted capitals: "8 CHAPTER 1. INTRODUCTION" on even pages,
    "1.2. OVERVIEW OF THE METHOD 9" on odd ones; a chapter's opening page (plain) gets a centred folio."""
    if flow.plain:
        page.insert_text(((LEFT + RIGHT) / 2 - 5, 740), str(number), fontsize=10, fontname="tiro")
        return
    chapter = flow.marks["chapter"].upper()
    if number % 2 == 0:
        text = f"CHAPTER {flow.marks['number']}. {chapter}" if flow.marks["number"] else chapter
        page.insert_text((LEFT, 70), str(number), fontsize=10, fontname="tiro")
        page.insert_text((LEFT + 30, 70), text, fontsize=10, fontname="tiit")
    else:
        text = flow.marks["section"].upper() or chapter
        width = pymupdf.get_text_length(text, fontname="tiit", fontsize=10)
        page.insert_text((RIGHT - 30 - width, 70), text, fontsize=10, fontname="tiit")
        page.insert_text((RIGHT - 10, 70), str(number), fontsize=10, fontname="tiro")


def koma_heads(flow: Flow, page: pymupdf.Page, number: int) -> None:
    """KOMA-Script's scrheadings: the current chapter ("1 Introduction") over even pages and section ("1.2
    Overview of the Method") over odd ones, slanted, at the outer edge, with no folio; the folio sits in the
    footer's outer corner, also on a chapter's opening page."""
    outer = RIGHT if number % 2 else LEFT
    page.insert_text((outer - 10 if number % 2 else outer, 740), str(number), fontsize=10, fontname="tiro")
    if flow.plain:
        return
    mark = flow.marks["section"] if number % 2 else f"{flow.marks['number']} {flow.marks['chapter']}".strip()
    width = pymupdf.get_text_length(mark, fontname="tiit", fontsize=10)
    page.insert_text((outer - width if number % 2 else outer, 70), mark, fontsize=10, fontname="tiit")


def doxygen_heads(flow: Flow, page: pymupdf.Page, number: int) -> None:
    """Doxygen's refman: bold heads, the folio at the outer edge and the chapter (even) or section (odd)
    at the inner one; "Generated by Doxygen" in small type at every page's foot."""
    page.insert_text((LEFT, 760), "Generated by Doxygen", fontsize=7, fontname="helv")
    if flow.plain:
        return
    mark = flow.marks["chapter"].upper() if number % 2 == 0 else flow.marks["section"]
    width = pymupdf.get_text_length(mark, fontname="hebo", fontsize=10)
    if number % 2 == 0:
        page.insert_text((LEFT, 70), str(number), fontsize=10, fontname="hebo")
        page.insert_text((RIGHT - width, 70), mark, fontsize=10, fontname="hebo")
    else:
        page.insert_text((LEFT, 70), mark, fontsize=10, fontname="hebo")
        page.insert_text((RIGHT - 10, 70), str(number), fontsize=10, fontname="hebo")


def texinfo_heads(flow: Flow, page: pymupdf.Page, number: int) -> None:
    """texinfo.tex's heads: "4 GNU Example Manual" over even pages, "Chapter 1: Overview 3" over odd ones; a
    chapter's opening page has none."""
    if flow.plain:
        return
    left, right = (str(number), "GNU Example Manual") if number % 2 == 0 else (flow.marks["chapter"], str(number))
    page.insert_text((LEFT, 70), left, fontsize=10, fontname="tiro")
    width = pymupdf.get_text_length(right, fontname="tiro", fontsize=10)
    page.insert_text((RIGHT - width, 70), right, fontsize=10, fontname="tiro")


def sphinx_heads(flow: Flow, page: pymupdf.Page, number: int) -> None:
    """Sphinx's LaTeX pages: "Project Documentation, Release 1.0" over a rule at the head, and at the foot
    the section (odd pages) or "Chapter 2. Title" (even) beside the folio, all in bold sans; a chapter's
    opening page has only the folio."""
    folio_x = RIGHT - 10 if number % 2 else LEFT
    page.insert_text((folio_x, 740), str(number), fontsize=10, fontname="hebo")
    if flow.plain:
        return
    title = "Example Project Documentation, Release 1.0"
    width = pymupdf.get_text_length(title, fontname="hebo", fontsize=10)
    page.insert_text((RIGHT - width if number % 2 else LEFT, 70), title, fontsize=10, fontname="hebo")
    page.draw_line((LEFT, 76), (RIGHT, 76), width=0.4)
    mark = flow.marks["section"] if number % 2 else f"Chapter {flow.marks['number']}. {flow.marks['chapter']}"
    width = pymupdf.get_text_length(mark, fontname="hebo", fontsize=10)
    page.insert_text((LEFT if number % 2 else RIGHT - width, 740), mark, fontsize=10, fontname="hebo")
