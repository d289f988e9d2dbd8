"""A filing's financial statements and notes under the contents entries that name them (issue 11, cause 2).

A 10-K's or 10-Q's printed contents lists the SEC form's Items and at most one row for the notes ("Notes to
Consolidated Financial Statements"). The statements themselves (balance sheet, income statement, cash flows,
equity), the auditor's report and each note are what an analyst reads a filing by, and they are what filers'
own bookmarks list under the financial statements Item even when they list nothing under Item 1. Layout finds
them, under the Item, with the notes under their heading (`layout_evidence.nest_notes`); but
`hang_layout_headings` hangs a layout level only where it divides the contents' spans the same way
throughout, and in a filing the level under the Items mixes Item 1's sub-heads, which the contents chose to
leave out, with the statements.

So the statements set is named by what it is, not by its style. Under a contents entry with no children of
its own:
- the financial statements Item ("Item 8. Financial Statements and Supplementary Data", a 10-Q's "Item 1.
  Financial Statements") gets the layout headings nested directly under it that name a part of the set
  (`_PART_OF_SET`): a statement, the auditor's report, the notes heading, their index, quarterly data; the rest
  of that level (an auditor's report's "Basis for Opinion", its critical audit matters) stays out;
- the notes heading, listed or hung so, gets its own layout children, each note, when there are two or more.
Sections the Regulation S-X names are the same in every filer's document, so the rule is a fact of filings,
not of one filer's house style. Only a filing's contents (three Items or more) is touched.
"""

from __future__ import annotations

import re

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.enrich import index_layout, layout_parents, printing_heading, toc_positions
from pageindex_desktop.core.outline.filing_pages import FILING_ITEMS
from pageindex_desktop.core.outline.layout import find_layout_headings
from pageindex_desktop.core.outline.layout_evidence import NOTES_TO
from pageindex_desktop.core.outline.numbering import leading_number, title_key
from pageindex_desktop.core.outline.tree import Heading

NOTES_AT_LEAST = 2

_FINANCIAL_ITEM = re.compile(r"\bfinancial\s+statements\b", re.IGNORECASE)
_FIRM = r"(?:registered\s+public\s+accounting\s+firm|auditors?|accountants?)"
# what the financial statements Item holds, title by title (Regulation S-X's statements and the audit report)
_PART_OF_SET = re.compile(
    r"^(?:(?:consolidated|condensed|combined|unaudited|interim|parent\s+company|company|group)\s+)*"
    r"(?:statements?\s+of\b|balance\s+sheets?\b)"
    rf"|^reports?\s+of\s+independent\s+{_FIRM}"
    r"|^independent\s+auditors?['’]?s?\s+report"
    r"|^index\s+to\s+(?:the\s+)?(?:\w+\s+){0,3}financial\s+statements"
    r"|^(?:selected\s+)?quarterly\s+financial\s+(?:data|information)"
    r"|^financial\s+information\s+by\s+quarter"
    r"|^supplementa(?:ry|l)\s+(?:financial\s+)?(?:data|information)\b",
    re.IGNORECASE,
)


def hang_financial_statements(toc: list[Heading], doc: ExtractedDocument) -> list[Heading]:
    """`toc` with a filing's statements, auditor's report and notes under the entries that name them (see the
    module's docstring); unchanged for any other document, or when the contents already lists them."""
    if sum(1 for h in toc if _is_item(h.title)) < FILING_ITEMS:
        return toc
    layout = find_layout_headings(doc)
    if not layout:
        return toc
    by_key, by_page = index_layout(layout)
    children: dict[int, list[Heading]] = {}  # id(layout heading) -> its layout children, in order
    parent_of: dict[int, Heading] = {}  # id(layout heading) -> the heading layout nests it under
    for heading, parent in zip(layout, layout_parents(layout)):
        if parent is not None:
            children.setdefault(id(parent), []).append(heading)
            parent_of[id(heading)] = parent
    toc = _under_notes_heading(toc, by_key, by_page, parent_of)
    listed = {(title_key(h.title), h.page + d) for h in toc for d in (-1, 0, 1)}
    at = toc_positions(toc)
    added: list[tuple[int, Heading]] = []  # (index of the contents entry it follows, heading at its level)
    for i, entry in enumerate(toc):
        if i + 1 < len(toc) and toc[i + 1].level > entry.level:
            continue  # the contents lists this entry's sections itself
        hit = printing_heading(entry, by_key, by_page)
        if hit is None:
            continue
        end = at[i + 1] if i + 1 < len(toc) else (doc.page_count + 1, 0.0)
        found = _statements_under(entry, hit, children, listed, end)
        added.extend((i, h) for h in found)
    if not added:
        return toc
    out: list[Heading] = []
    for i, entry in enumerate(toc):
        out.append(entry)
        out.extend(h for j, h in added if j == i)
    return out


def _under_notes_heading(toc: list[Heading], by_key: dict[tuple[str, int], Heading],
                         by_page: dict[int, list[tuple[str, Heading]]], parent_of: dict[int, Heading]) -> list[Heading]:
    """`toc` with the notes heading the contents leaves out put back over the notes it lists one by one: a
    filing's contents may list "Note 1 - General ..." to "Note 31 - Subsequent Events" straight under its
    financial statements Item, beside the statements, while the pages print them under "NOTES TO CONSOLIDATED
    FINANCIAL STATEMENTS" (layout nests them there, and so do filers' bookmarks). The heading goes in at the
    notes' level, before the first of them, and the notes, with anything listed under them, one level down."""
    for i, entry in enumerate(toc):
        if not (_FINANCIAL_ITEM.search(entry.title) and _is_item(entry.title)):
            continue
        end = next((j for j in range(i + 1, len(toc)) if toc[j].level <= entry.level), len(toc))
        under: dict[int, tuple[Heading, list[int]]] = {}  # id(notes heading) -> it, the entries nested under it
        for j in range(i + 1, end):
            hit = printing_heading(toc[j], by_key, by_page) if toc[j].level == entry.level + 1 else None
            parent = parent_of.get(id(hit)) if hit is not None else None
            if parent is not None and NOTES_TO.match(parent.title):
                under.setdefault(id(parent), (parent, []))[1].append(j)
        if not under:
            continue
        head, notes = max(under.values(), key=lambda item: len(item[1]))
        if len(notes) < NOTES_AT_LEAST or any(title_key(h.title) == title_key(head.title) for h in toc[i + 1:end]):
            continue
        first, last = notes[0], notes[-1]
        stop = next((j for j in range(last + 1, end) if toc[j].level <= entry.level + 1), end)
        moved = [Heading(h.title, h.level + 1, h.page, h.y) for h in toc[first:stop]]
        return [*toc[:first], Heading(head.title, entry.level + 1, head.page, head.y), *moved, *toc[stop:]]
    return toc


def _statements_under(entry: Heading, printed: Heading, children: dict[int, list[Heading]],
                      listed: set[tuple[str, int]], end: tuple[int, float]) -> list[Heading]:
    """The headings to hang under one childless contents `entry` (`printed` is the layout heading printing it),
    at their tree levels, in reading order; `end` is where the next contents entry starts."""
    if NOTES_TO.match(entry.title):
        return _notes(printed, entry.level + 1, children, listed, end)
    if not (_FINANCIAL_ITEM.search(entry.title) and _is_item(entry.title)):
        return []
    out: list[Heading] = []
    for child in _within(children.get(id(printed), []), listed, end):
        if _PART_OF_SET.match(child.title) is None and NOTES_TO.match(child.title) is None:
            continue
        out.append(Heading(child.title, entry.level + 1, child.page, child.y))
        if NOTES_TO.match(child.title):
            out.extend(_notes(child, entry.level + 2, children, listed, end))
    return out


def _notes(notes_heading: Heading, level: int, children: dict[int, list[Heading]],
           listed: set[tuple[str, int]], end: tuple[int, float]) -> list[Heading]:
    """The notes layout nests under the notes heading, at `level`, when there are NOTES_AT_LEAST of them."""
    notes = _within(children.get(id(notes_heading), []), listed, end)
    if len(notes) < NOTES_AT_LEAST:
        return []
    return [Heading(note.title, level, note.page, note.y) for note in notes]


def _within(headings: list[Heading], listed: set[tuple[str, int]], end: tuple[int, float]) -> list[Heading]:
    """`headings` that start before `end`, are not contents entries already and do not repeat a title among
    themselves (a statement's continuation page printed under the same title)."""
    seen: set[str] = set()
    out: list[Heading] = []
    for heading in headings:
        key = title_key(heading.title)
        if (heading.page, heading.y if heading.y is not None else 0.0) >= end or (key, heading.page) in listed:
            continue
        if key in seen:
            continue
        seen.add(key)
        out.append(heading)
    return out


def _is_item(title: str) -> bool:
    """True for a form Item's entry ("Item 8.", "ITEM 1A")."""
    num = leading_number(title)
    return num is not None and num.kind == "keyword:item"
