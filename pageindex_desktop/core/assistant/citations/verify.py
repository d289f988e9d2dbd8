"""An answer's citations, each resolved to a document and a page of it and judged against the passage it cites.

A citation is *checked* only when its page was returned to the model in this conversation and the rules
(rules.py) find its claim stated in the passage; *contradicted* when that passage says otherwise; *unverified*
with a reason in every other case (unknown or ambiguous document, page never read, no such page, citation not
understood, claim not found). Each page of a bracket is judged on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from pageindex_desktop.core.library import document_resolver
from pageindex_desktop.core.assistant.citations.parse import Citation, Uncited, parse
from pageindex_desktop.core.assistant.citations.passage import best_window
from pageindex_desktop.core.assistant.citations.resolve import PageReading, page_readings
from pageindex_desktop.core.assistant.citations.rules import CHECKED, CONTRADICTED, UNVERIFIED, RuleVerdict, judge
from pageindex_desktop.core.library.store import DocumentRecord, Library

NOT_UNDERSTOOD = "citation not understood"
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

    def text(self, doc_id: str, page: int) -> str:
        if (doc_id, page) not in self.texts:
            stored = self.library.pages(doc_id, [page])
            self.texts[(doc_id, page)] = stored[0].text if stored else ""
        return self.texts[(doc_id, page)]

    def cover(self, doc: DocumentRecord) -> str:
        """Where the document names itself: title, file name and first two pages (its issuer's name, say)."""
        names = [doc.title or "", re.sub(r"[_\-.]+", " ", doc.file_name or "")]
        return "\n".join(names + [self.text(doc.doc_id, page) for page in (1, 2) if page <= doc.page_count])

    def labels_of(self, doc_id: str) -> list[str]:
        if doc_id not in self.labels:
            self.labels[doc_id] = self.library.page_labels(doc_id)
        return self.labels[doc_id]


def check_answer(
    answer: str, library: Library, scope: Iterable[str] | None, returned: set[tuple[str, int]]
) -> AnswerCheck:
    """Parse the answer, resolve every citation and give each its verdict, reason and passage."""
    parsed = parse(answer)
    wanted = set(scope) if scope is not None else None
    docs = [d for d in library.documents() if (wanted is None or d.doc_id in wanted) and d.status == "ready"]
    pages = _Pages(library)
    cites = list(parsed.citations)
    for span in parsed.brackets:  # "[Annual Report 2023, section 4]": names a document but no page
        inner = answer[span.start + 1 : span.end - 1]
        if document_resolver.resolve(inner.split(",")[0], docs).document is not None:
            cites.append(Citation(inner.strip(), "", span.start, span.end, understood=False))
    cites.sort(key=lambda c: c.start)
    for cite in cites:
        _judge_citation(cite, docs, pages, returned)
    return AnswerCheck(cites, parsed.uncited)


def verify_citations(
    answer: str, library: Library, scope: Iterable[str] | None, returned: set[tuple[str, int]]
) -> list[Citation]:
    """The judged citations of `answer` (see check_answer)."""
    return check_answer(answer, library, scope, returned).citations


def _judge_citation(cite: Citation, docs: list[DocumentRecord], pages: _Pages, returned: set[tuple[str, int]]) -> None:
    if not cite.understood:
        cite.reason = NOT_UNDERSTOOD
        return
    match = document_resolver.resolve(cite.written, docs)
    if match.document is None:
        cite.reason = match.reason
        return
    doc = match.document
    cite.document, cite.doc_id = doc.title, doc.doc_id
    readings = page_readings(cite.page_token, pages.labels_of(doc.doc_id), doc.page_count)
    readings += _folio_readings(cite.page_token, doc.doc_id, pages, returned, readings)
    if not readings:
        cite.reason = f"no page {cite.page_token} in this document ({doc.page_count} pages)"
        return
    read = [r for r in readings if (doc.doc_id, r.page) in returned]
    if not read:
        cite.page = readings[0].page
        cite.reason = "page never read"
        return
    cover = pages.cover(doc)
    judged = [(r, judge(cite.claim, pages.text(doc.doc_id, r.page), cover)) for r in read]
    reading, verdict = min(judged, key=lambda item: (_PREFERENCE[item[1].verdict], item[0].printed))
    _apply(cite, reading, verdict)


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
