"""Seeded plans, regulations and specifications with known section trees (issue 11: government plans, rules,
specs and tax instructions are where the layout tree scored lowest on unseen documents).

What sets these apart from `synthetic_docs`' reports is how their headings are labelled and paged:
- headings carry a keyword label ("Goal 2:", "Strategy 2.1", "Action 2.1.3"; "PART 3 — ...", "Subpart B—...",
  "§ 3.12"; "ARTICLE IV" over the article's name; "CHAPTER 5" over the chapter's title, in two lines); half
  the article-labelled ones are agreements, whose sections run in: "Section 4.02 Notices." in bold opens the
  section's first paragraph, in regular type on the same line;
- folios count per chapter ("3-12") or say "Page 12 of 40", beside the document's name in a running footer;
- the contents list is set with dot leaders, as a table or as plain lines, sometimes in two columns, and is
  titled "Contents", "Table of Contents", "In this plan" or not at all; it lists the pages as the folios print them;
- footnotes in small type sit under a short rule at the foot of some pages.
Heading sizes and weights come from `synthetic_docs.draw_look`, so a label may sit on a body-size bold line.
The truth is where MuPDF's layout engine placed each heading element, as in synthetic_docs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path

import pymupdf

from tests.bench.synthetic_docs import (Look, Section, _body_block, _css, _printed, _sentence, _title, _write,
                                        draw_look, prepend, two_columns)

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
SCHEMES = ("plan", "regulation", "articles", "spec")  # drawn; "agreement" is half the "articles" ones
CONTENTS_TITLES = ("Contents", "Table of Contents", "In this plan", "")
RUN_IN = "run-in:"  # the key prefix under which `titles` keeps an agreement's run-in section heads


@dataclass(frozen=True)
class Plan:
    """One document's labelling and paging conventions."""

    scheme: str  # SCHEMES, or "agreement" (articles with run-in sections)
    folio: str  # "plain", "chapter" ("3-12"), "of" ("Page 12 of 40")
    contents: str  # "", "leaders", "table", "lines"
    contents_title: str
    contents_columns: int
    footnotes: bool


def draw_plan(rng: random.Random) -> Plan:
    scheme = rng.choice(SCHEMES)
    plan = Plan(scheme=scheme, folio=rng.choice(("plain", "chapter", "of")),
                contents=rng.choice(("", "leaders", "leaders", "table", "lines")),
                contents_title=rng.choice(CONTENTS_TITLES), contents_columns=1 if rng.random() < 0.75 else 2,
                footnotes=rng.random() < 0.5)
    # drawn last, and for articles alone, so every other document stays as it was drawn before agreements came
    if scheme == "articles" and rng.random() < 0.5:
        plan = replace(plan, scheme="agreement")
    return plan


def _label(scheme: str, path: list[int]) -> tuple[str, str]:
    """A heading's label and what joins it to the title: ("Goal 2:", " "), ("CHAPTER 5", "<br/>")..."""
    top = path[0]
    if scheme == "plan":
        return ("Goal", "Strategy", "Action")[len(path) - 1] + " " + ".".join(map(str, path)) + ":" * (
            len(path) == 1), " "
    if scheme == "regulation":
        if len(path) == 1:
            return f"PART {top} —", " "
        if len(path) == 2:
            return f"Subpart {chr(64 + path[1])}—", ""
        return f"§ {top}.{path[1]}{path[2]:02d}", " "
    if scheme == "agreement":
        return (f"ARTICLE {ROMAN[top - 1]}", "<br/>") if len(path) == 1 else (f"Section {top}.{path[1]:02d}", " ")
    if scheme == "articles":
        if len(path) == 1:
            return f"ARTICLE {ROMAN[top - 1]}", "<br/>"
        return ("Section " if len(path) == 2 else "") + ".".join(map(str, path)), " "
    if len(path) == 1:
        return f"CHAPTER {top}", "<br/>"
    return ".".join(map(str, path)), " "


def _heading(scheme: str, path: list[int], title: str, titles: dict[str, str]) -> str:
    """The heading element; `titles` learns its title as printed, keyed by its letters alone (the engine
    reports an element's text with no space where a line breaks). An agreement's section is no element but a
    bold lead opening its first paragraph, which the engine does not report: `titles` keeps it as its title
    alone, and build_plan finds its page by its words."""
    label, joint = _label(scheme, path)
    if scheme == "agreement" and len(path) == 2:
        titles[RUN_IN + f"{label} {title}"] = f"{label} {title}"
        return f"<p><b>{label} {title}.</b> "
    if scheme == "regulation" and len(path) == 1:
        title = title.upper()
    titles["".join(f"{label}{title}".split())] = f"{label} {title}"
    return f"<h{len(path)}>{label}{joint}{title}</h{len(path)}>"


def _body(rng: random.Random, scheme: str, titles: dict[str, str]) -> list[str]:
    """The body's HTML, one string per chapter (each opens a page, as these documents' chapters do)."""
    chapters = []
    figure = [0]
    for chapter in range(1, rng.randint(3, 7) + 1):
        parts = [_heading(scheme, [chapter], _title(rng), titles)]
        parts.extend(_body_block(rng, figure) for _ in range(rng.randint(1, 2)))
        for section in range(1, rng.randint(1, 4) + 1):
            parts.append(_heading(scheme, [chapter, section], _title(rng), titles))
            if scheme == "agreement":  # the run-in lead's paragraph goes on; an agreement's clauses are no sections
                parts.append(" ".join(_sentence(rng) for _ in range(rng.randint(2, 6))) + "</p>")
            parts.extend(_body_block(rng, figure) for _ in range(rng.randint(1, 3)))
            for sub in range(1, (rng.randint(1, 3) if rng.random() < 0.6 and scheme != "agreement" else 0) + 1):
                parts.append(_heading(scheme, [chapter, section, sub], _title(rng), titles))
                parts.extend(_body_block(rng, figure) for _ in range(rng.randint(1, 3)))
        chapters.append("".join(parts))
    return chapters


def _folio(plan: Plan, number: int, chapter: int, chapter_page: int, total: int) -> str:
    if plan.folio == "chapter":
        return f"{chapter}-{chapter_page}"
    if plan.folio == "of":
        return f"Page {number} of {total}"
    return str(number)


def _chapter_starts(sections: list[Section]) -> list[int]:
    return [s.page for s in sections if s.level == 1]


def _printed_folio(plan: Plan, page: int, starts: list[int], total: int) -> str:
    """The folio body page `page` (1-based within the body) prints."""
    chapter = sum(1 for start in starts if start <= page) or 1
    return _folio(plan, page, chapter, page - starts[chapter - 1] + 1 if starts else page, total)


def _contents_html(plan: Plan, sections: list[Section], starts: list[int], total: int) -> str:
    rows = []
    for s in sections:
        if s.level > 2:
            continue
        folio = _printed_folio(plan, s.page, starts, total)
        if plan.folio == "of":
            folio = folio.split()[1]  # the contents gives the page number alone
        indent = 14 * (s.level - 1)
        if plan.contents == "table":
            rows.append(f"<tr><td style='padding-left: {indent}pt'>{s.title}</td>"
                        f"<td style='text-align: right'>{folio}</td></tr>")
        elif plan.contents == "leaders":
            rows.append(f"<p style='margin: 2pt 0 2pt {indent}pt'>{s.title} {'.' * 12} {folio}</p>")
        else:
            rows.append(f"<p style='margin: 2pt 0 2pt {indent}pt'>{s.title}&#160;&#160;&#160;{folio}</p>")
    listing = f"<table style='width: 100%'>{''.join(rows)}</table>" if plan.contents == "table" else "".join(rows)
    title = f"<h1>{plan.contents_title}</h1>" if plan.contents_title else ""
    return f"<body>{title}{listing}</body>"


def _with_run_ins(sections: list[Section], leads: list[str], path: Path) -> list[Section]:
    """`sections` (the articles, from the engine) with the run-in sections `leads` (in reading order), each on
    the first page from the one before it onward that prints its words; an article opens its page, so it comes
    first there."""
    doc = pymupdf.open(path)
    flags = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES  # "finance", not "ﬁnance"
    texts = ["".join(page.get_text(flags=flags).split()).lower() for page in doc]
    doc.close()
    found: list[Section] = []
    page = 0
    for lead in leads:
        key = "".join(lead.split()).lower()
        hit = next((index for index in range(page, len(texts)) if key in texts[index]), None)
        if hit is not None:
            page = hit
            found.append(Section(2, lead, hit + 1))
    return sorted(sections + found, key=lambda s: (s.page, s.level))


def _footnotes(doc: pymupdf.Document, rng: random.Random, front: int, margin: float, body_size: float) -> None:
    """Small-type notes under a short rule at the foot of about a third of the body pages."""
    for page in list(doc)[front:]:
        if rng.random() > 0.35:
            continue
        y = page.rect.height - margin - 6
        page.draw_line((margin, y - 12), (margin + 120, y - 12), width=0.5)
        note = " ".join(_sentence(rng).split()[:12])
        page.insert_text((margin, y - 2), f"{rng.randint(1, 40)} {note}", fontsize=body_size - 2.5, fontname="tiro")


def plan_of(seed: int) -> Plan:
    """The conventions plan `seed` is drawn with (as `build_plan` draws them)."""
    rng = random.Random(seed + 4_000_037)
    draw_look(rng)
    return draw_plan(rng)


def build_plan(seed: int, path: Path) -> list[Section]:
    """Write plan `seed` to `path`; return the sections it prints, in reading order."""
    rng = random.Random(seed + 4_000_037)
    look: Look = draw_look(rng)
    plan = draw_plan(rng)
    css = _css(look) + "\nh1 { margin-top: 0; }"
    page_rect = pymupdf.paper_rect("letter" if rng.random() < 0.5 else "a4")
    margin = rng.uniform(50, 72)
    frame = page_rect + (margin, margin + 16, -margin, -margin - 36)  # room for footnotes above the footer
    titles: dict[str, str] = {}
    bodies = [f"<body>{chapter}</body>" for chapter in _body(rng, plan.scheme, titles)]
    sections = [Section(s.level, titles.get("".join(s.title.split()), s.title), s.page)
                for s in _write(path, bodies, css, page_rect, [frame])]
    sections = _printed(sections, path)
    if plan.scheme == "agreement":
        sections = _with_run_ins(sections, [t for key, t in titles.items() if key.startswith(RUN_IN)], path)
    name = f"{_title(rng).title()} Plan {rng.randint(2015, 2026)}"
    body_doc = pymupdf.open(path)
    total = body_doc.page_count
    body_doc.close()
    starts = _chapter_starts(sections)
    front = 0
    if plan.contents:
        front_path = path.with_suffix(".front.pdf")
        frames = [frame] if plan.contents_columns == 1 else two_columns(frame, 24)
        _write(front_path, [_contents_html(plan, sections, starts, total)], css, page_rect, frames)
        front = prepend(front_path, path)
    doc = pymupdf.open(path)
    if plan.footnotes:
        _footnotes(doc, random.Random(seed + 5_000_011), front, margin, look.body_size)
    for number, page in enumerate(doc, start=1):
        if number <= front:
            continue
        folio = _printed_folio(plan, number - front, starts, total)
        y = page.rect.height - margin / 2
        page.insert_text((margin, y), name, fontsize=8, fontname="helv")
        page.insert_text((page.rect.width - margin - 6 * len(folio), y), folio, fontsize=8, fontname="helv")
    doc.saveIncr()
    doc.close()
    sections = [Section(s.level, s.title, s.page + front) for s in sections]
    if plan.contents and plan.contents_title:
        sections.insert(0, Section(1, plan.contents_title, 1))
    return _printed(sections, path)
