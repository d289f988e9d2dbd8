"""An answer's citations, each resolved to a document and a page of it and judged against the passage it cites.

A citation is *checked* only when its page was returned to the model in this conversation and the rules
(rules.py) find its claim stated in the passage; *contradicted* when that passage says otherwise; *unverified*
with a reason in every other case (unknown or ambiguous document, page never read, no such page, citation not
understood, claim not found). Each page of a bracket is judged on its own. A citation that names a section and no
page (`[Notes, § Installation]`) is judged on that section's part of the pages read, and every resolved citation
carries the section its passage falls in (section.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from pageindex_desktop.core.formats import format_of
from pageindex_desktop.core.library import document_resolver
from pageindex_desktop.core.outline.tree import Node
from pageindex_desktop.core.assistant.citations.parse import Citation, Uncited, parse
from pageindex_desktop.core.assistant.citations.passage import best_window
from pageindex_desktop.core.assistant.citations.resolve import PageReading, page_readings
from pageindex_desktop.core.assistant.citations.rules import CHECKED, CONTRADICTED, UNVERIFIED, RuleVerdict, judge
from pageindex_desktop.core.assistant.citations.section import Section, find_sections, inside, section_at, stretch
from pageindex_desktop.core.library.store import DocumentRecord, Library
from pageindex_desktop.core.text import Span

NOT_UNDERSTOOD = "citation not understood"
SECTION_NEVER_READ = "no page of this section was read"
MAX_SECTION_PAGES = 20  # pages of a section a citation that names no page is judged on (as a page range's cap)
_PREFERENCE = {CHECKED: 0, CONTRADICTED: 1, UNVERIFIED: 2}


@dataclass
class AnswerCheck:
    """The judged citations of one answer and its uncited factual sentences."""

    citations: list[Citation] = field(default_factory=list)
    uncited: list[Uncited] = field(default_factory=list)


class _Pages:
    """Page texts and labels read once per check."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.texts: dict[tuple[str, int], str] = {}
        self.labels: dict[str, list[str]] = {}
        self.trees: dict[str, list[Node]] = {}

    def text(self, doc_id: str, page: int) -> str:
        if (doc_id, page) not in self.texts:
            stored = self.library.pages(doc_id, [page])
            self.texts[(doc_id, page)] = stored[0].text if stored else ""
        return self.texts[(doc_id, page)]

    def cover(self, doc: DocumentRecord) -> str:
        """Where the document names itself: title, file name and first two pages (its issuer's name, say)."""
        names = [doc.title or "", re.sub(r"[_\-.]+", " ", doc.file_name or "")]
        return "\n".join(names + [self.text(doc.doc_id, page) for page in (1, 2) if page <= doc.page_count])

    def tree(self, doc: DocumentRecord) -> list[Node]:
        """The stored tree, or none for a tree of page groups ("Pages 1-10" names no section)."""
        if doc.doc_id not in self.trees:
            self.trees[doc.doc_id] = [] if doc.outline_source == "pages" else self.library.tree(doc.doc_id)
        return self.trees[doc.doc_id]

    def section(self, doc: DocumentRecord, page: int, offset: int | None) -> Section | None:
        """The section `offset` of the page's text (None: its top) falls in."""
        tree = self.tree(doc)
        return section_at(tree, page, self.text(doc.doc_id, page), offset) if tree else None

    def labels_of(self, doc_id: str) -> list[str]:
        if doc_id not in self.labels:
            self.labels[doc_id] = self.library.page_labels(doc_id)
        return self.labels[doc_id]


def check_answer(
    answer: str, library: Library, scope: Iterable[str] | None, returned: set[tuple[str, int]]
) -> AnswerCheck:
    """Parse the answer, resolve every citation and give each its verdict, reason and passage."""
    wanted = set(scope) if scope is not None else None
    docs = [d for d in library.documents() if (wanted is None or d.doc_id in wanted) and d.status == "ready"]
    pages = _Pages(library)
    parsed = parse(answer)
    marked = _mark_sections(answer, parsed.brackets, docs, pages)
    if marked != answer:  # same length, same offsets: the claims are worked out with those brackets as citations
        parsed = parse(marked)
    # "[see § 4.2]" names no document: a section mark alone makes a citation only of a bracket that names one
    # (or, naming none, of the one document in scope), as for the brackets below
    cites = [c for c in parsed.citations if c.page_token or not c.heading or not c.understood
             or document_resolver.resolve(c.written, docs).document is not None]
    for span in parsed.brackets:  # "[Annual Report 2023, section 4]": names a document but no page
        inner = answer[span.start + 1 : span.end - 1]
        if document_resolver.resolve(inner.split(",")[0], docs).document is not None:
            cites.append(Citation(inner.strip(), "", span.start, span.end, understood=False))
    cites.sort(key=lambda c: c.start)
    for cite in cites:
        _judge_citation(cite, docs, pages, returned)
    return AnswerCheck(cites, parsed.uncited)


def _mark_sections(answer: str, brackets: list[Span], docs: list[DocumentRecord], pages: _Pages) -> str:
    """The answer with '[Notes, Installation]' read as '[Notes§ Installation]' where Notes is a document in scope
    and Installation one of its sections: a bracket naming a section and no page is a section citation."""
    chars = list(answer)
    for span in brackets:
        inner = answer[span.start + 1 : span.end - 1]
        title, comma, rest = inner.partition(",")
        if not comma or not rest.strip():
            continue
        found = document_resolver.resolve(title, docs)
        if found.document is not None and find_sections(pages.tree(found.document), rest.strip()):
            chars[span.start + 1 + len(title)] = "§"
    return "".join(chars)


def verify_citations(
    answer: str, library: Library, scope: Iterable[str] | None, returned: set[tuple[str, int]]
) -> list[Citation]:
    """The judged citations of `answer` (see check_answer)."""
    return check_answer(answer, library, scope, returned).citations


def _judge_citation(cite: Citation, docs: list[DocumentRecord], pages: _Pages, returned: set[tuple[str, int]]) -> None:
    if not cite.understood:
        cite.reason = NOT_UNDERSTOOD
        return
    match = _resolve(cite, docs, pages)
    if match.document is None:
        cite.reason = match.reason
        return
    doc = match.document
    cite.document, cite.doc_id = doc.title, doc.doc_id
    cite.format = format_of(doc.file_name).suffix
    if not cite.page_token:
        _judge_section(cite, doc, pages, returned)
        return
    readings = page_readings(cite.page_token, pages.labels_of(doc.doc_id), doc.page_count)
    readings += _folio_readings(cite.page_token, doc.doc_id, pages, returned, readings)
    if not readings:
        cite.reason = f"no page {cite.page_token} in this document ({doc.page_count} pages)"
        return
    read = [r for r in readings if (doc.doc_id, r.page) in returned]
    if not read:
        cite.page = readings[0].page
        cite.reason = "page never read"
        cite.section = pages.section(doc, cite.page, None)
        return
    cover = pages.cover(doc)
    judged = [(r, judge(cite.claim, pages.text(doc.doc_id, r.page), cover)) for r in read]
    reading, verdict = min(judged, key=lambda item: (_PREFERENCE[item[1].verdict], item[0].printed))
    _apply(cite, reading, verdict)
    cite.section = pages.section(doc, reading.page, verdict.passage.start if verdict.passage.text else None)
    if cite.heading and cite.verdict == CHECKED:
        _check_heading(cite, pages.tree(doc))


def _check_heading(cite: Citation, tree: list[Node]) -> None:
    """A page citation that names a section is checked only when the passage is in that section (or under it):
    the heading is part of what it claims. Firm: the model judge cannot move it back.

    A heading that names no section of the document at all is not held against the page: small models fill the
    slot with the page number again ("§ 21, p. 21") or a phrase of the passage, and the page alone locates the
    claim (the link shows the section the passage is really in). Only a heading that names another section is a
    wrong location."""
    named = find_sections(tree, cite.heading)
    if not named or (cite.section is not None and inside(tree, cite.section.node_id, named)):
        return
    if cite.section is not None:
        reason = f"the passage is under “{cite.section.title}”, not “{cite.heading}”"
    else:
        reason = f"page {cite.page} is not in “{cite.heading}”"
    cite.verdict, cite.reason, cite.firm = UNVERIFIED, reason, True


def _resolve(cite: Citation, docs: list[DocumentRecord], pages: _Pages) -> document_resolver.Resolution:
    """The document cited. 'Notes, Installation' is the document Notes and its section Installation when Notes
    has one (tried first: the fuzzy title match would take 'Notes, Installation' for Notes and drop the heading)."""
    if not cite.heading and "," in cite.written:
        pieces = cite.written.split(",")
        for cut in range(len(pieces) - 1, 0, -1):
            title, heading = ",".join(pieces[:cut]).strip(), ",".join(pieces[cut:]).strip()
            found = document_resolver.resolve(title, docs)
            if found.document is not None and find_sections(pages.tree(found.document), heading):
                cite.written, cite.heading = title, heading
                return found
    return document_resolver.resolve(cite.written, docs)


def _judge_section(cite: Citation, doc: DocumentRecord, pages: _Pages, returned: set[tuple[str, int]]) -> None:
    """A citation naming a section and no page: judged on the section's part of each of its pages that was read
    (the first that states the claim wins); unread, it means the section's first page."""
    tree = pages.tree(doc)
    named = find_sections(tree, cite.heading)
    if not named:
        cite.reason = f"no section “{cite.heading}” in this document"
        return
    spans = [range(s.start_page, min(s.end_page, s.start_page + MAX_SECTION_PAGES - 1) + 1) for s in named]
    read_in = [[p for p in span if (doc.doc_id, p) in returned] for span in spans]
    chosen = next((i for i, read in enumerate(read_in) if read), 0)  # a heading in two chapters: the one read
    section, read = named[chosen], read_in[chosen]
    cite.section = section
    if not read:
        cite.page, cite.reason = section.start_page, SECTION_NEVER_READ
        return
    cover = pages.cover(doc)
    judged = []
    for page in read:
        text = pages.text(doc.doc_id, page)
        start, end = stretch(tree, section.node_id, page, text)
        judged.append((page, start, judge(cite.claim, text[start:end], cover)))
    page, start, verdict = min(judged, key=lambda item: (_PREFERENCE[item[2].verdict], item[0]))
    _apply(cite, PageReading(page, False), verdict)
    if verdict.passage.text:
        cite.section = pages.section(doc, page, start + verdict.passage.start) or section


def _apply(cite: Citation, reading: PageReading, verdict: RuleVerdict) -> None:
    cite.page = reading.page
    cite.numbering = reading.describe(cite.page_token)
    cite.verdict, cite.reason, cite.firm = verdict.verdict, verdict.reason, verdict.firm
    cite.passage = verdict.passage.text


_FOLIO = re.compile(r"^\s*(?:page\s+)?[-–—]?\s*([0-9]{1,4}|[ivxlcdm]{1,8}|[A-Z]{1,2}-\d{1,3})\s*[-–—]?\s*$", re.I)


def _folio_readings(
    token: str, doc_id: str, pages: _Pages, returned: set[tuple[str, int]], known: list[PageReading]
) -> list[PageReading]:
    """Pages the model read whose printed folio (a number alone on the first or last lines) is the token: the
    page number printed on the page, for documents whose file carries no page labels."""
    out: list[PageReading] = []
    for doc, page in sorted(returned):
        if doc != doc_id or any(r.page == page for r in known):
            continue
        lines = [line for line in pages.text(doc_id, page).splitlines() if line.strip()]
        edge = lines[:2] + lines[-3:]
        if any((m := _FOLIO.match(line)) and m.group(1).casefold() == token.casefold() for line in edge):
            out.append(PageReading(page, True))
    return out


def best_passage(claim: str, page_text: str) -> str:
    """The exact stretch of `page_text` that a claim is judged against (and that the viewer highlights)."""
    return best_window(claim, page_text).text
