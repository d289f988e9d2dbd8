"""Parse, resolve and verify the citations in an answer, and find the passage a citation points at.

A citation is **checked** when its page was returned to the model in this conversation and the claim just before
it has its figures (exactly, modulo formatting) and most of its content words on that page. Otherwise it is
**unverified** with a reason: 'unknown document', 'page never read' or 'claim not found on the page'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from rapidfuzz import fuzz, process

from pageindex_desktop.core.claims import claim_support, content_words, numbers
from pageindex_desktop.core.store import DocumentRecord, Library

MAX_RANGE = 20

_BRACKET = re.compile(r"\[([^\[\]\n]{1,400})\](?!\()")
_PART = re.compile(r"^\s*(?P<title>.+?)\s*,?\s*(?:pp?\.|pages?|pg\.?)\s*(?P<pages>\d[\d\s,–—\-and&]*?)\s*$", re.I)
_CITE_TAG = re.compile(r"<cite\b([^>]*?)/?>(?:\s*</cite>)?", re.I)
_ATTR = re.compile(r'(\w+)\s*=\s*"([^"]*)"')
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(*])|\n+")


@dataclass
class Citation:
    """One cited page in an answer, with its verdict."""

    written: str  # the document name as the model wrote it
    page: int
    start: int  # offsets of the whole citation mark in the answer
    end: int
    document: str = ""  # resolved title ('' when unknown)
    doc_id: str = ""
    verified: bool = False
    reason: str = ""
    claim: str = ""

    def to_dict(self) -> dict[str, object]:
        """The JSON shape of `ask --json` (design §9)."""
        return {"document": self.document or self.written, "doc_id": self.doc_id, "page": self.page,
                "verified": self.verified, "reason": self.reason}


def _pages(spec: str) -> list[int]:
    out: list[int] = []
    for piece in re.split(r"\s*(?:,|&|\band\b)\s*", spec.strip()):
        match = re.fullmatch(r"(\d+)\s*(?:[-–—]\s*(\d+))?", piece.strip())
        if not match:
            continue
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) else first
        if last < first:
            first, last = last, first
        out.extend(range(first, min(last, first + MAX_RANGE - 1) + 1))
    return list(dict.fromkeys(out))


def parse_citations(answer: str) -> list[Citation]:
    """Every cited page in reading order: [Title, p. N], [Title, pp. N-M], [Title, p. 3, 5], [A, p. 1; B, p. 2],
    and <cite doc=".." page=".."/>."""
    found: list[Citation] = []
    for match in _BRACKET.finditer(answer):
        for part in match.group(1).split(";"):
            parsed = _PART.match(part)
            if parsed:
                title = parsed.group("title").strip().strip("\"'“”*_")
                for page in _pages(parsed.group("pages")):
                    found.append(Citation(title, page, match.start(), match.end()))
    for match in _CITE_TAG.finditer(answer):
        attrs = {k.lower(): v for k, v in _ATTR.findall(match.group(1))}
        if "doc" in attrs and "page" in attrs:
            for page in _pages(attrs["page"]):
                found.append(Citation(attrs["doc"].strip(), page, match.start(), match.end()))
    found.sort(key=lambda c: c.start)
    return found


def resolve_title(written: str, docs: list[DocumentRecord]) -> DocumentRecord | None:
    """The document in scope a written name refers to (id, title or file name; small differences tolerated)."""
    needle = written.strip().casefold().removesuffix(".pdf")
    for doc in docs:
        names = {doc.doc_id.casefold(), doc.title.casefold(), doc.file_name.casefold().removesuffix(".pdf")}
        if needle in names:
            return doc
    choices = {d.doc_id: d.title or d.file_name for d in docs}
    choices.update({d.doc_id + "#file": d.file_name.removesuffix(".pdf") for d in docs if d.file_name})
    best = process.extractOne(written, choices, scorer=fuzz.WRatio, processor=str.casefold)
    if best and best[1] >= 88:
        key = best[2].removesuffix("#file")
        return next(d for d in docs if d.doc_id == key)
    return None


def claim_before(answer: str, cite: Citation, marks: list[tuple[int, int]]) -> str:
    """The sentence (or the part of it after the previous citation) that a citation supports."""
    pieces: list[str] = []
    cursor, last_mark = 0, 0
    for start, end in marks:
        if start >= cite.start:
            break
        pieces.append(answer[cursor:start])
        cursor = end
        last_mark = sum(len(p) for p in pieces)
    pieces.append(answer[cursor : cite.start])
    text = "".join(pieces).rstrip()
    boundary = _last_boundary(text)
    start = boundary
    if last_mark > start and len(text[last_mark:].split()) >= 3:
        start = last_mark
    claim = text[start:].strip()
    if len(claim.split()) < 3 and boundary:  # a citation placed after the sentence's full stop
        head = text[:boundary].rstrip()
        claim = head[_last_boundary(head) :].strip()
    return re.sub(r"^[\s*\-•>#]*(?:\d+[.)]\s+)?", "", claim).strip(" *_")


def _last_boundary(text: str) -> int:
    """Offset where the last sentence of `text` starts (a full stop at the very end does not count)."""
    boundary = 0
    for match in _SENTENCE_END.finditer(text[:-1]):
        boundary = match.end()
    return boundary


def verify_citations(
    answer: str, library: Library, scope: Iterable[str] | None, returned: set[tuple[str, int]]
) -> list[Citation]:
    """Parse the answer's citations and give each one its verdict and reason."""
    cites = parse_citations(answer)
    docs = [d for d in library.documents() if scope is None or d.doc_id in set(scope)]
    marks = sorted({(c.start, c.end) for c in cites})
    texts: dict[tuple[str, int], str] = {}
    labels: dict[str, list[str]] = {}
    for cite in cites:
        cite.claim = claim_before(answer, cite, marks)
        doc = resolve_title(cite.written, docs)
        if doc is None:
            cite.reason = "unknown document"
            continue
        cite.document, cite.doc_id = doc.title, doc.doc_id
        if (doc.doc_id, cite.page) not in returned:
            physical = _by_label(library, labels, doc.doc_id, cite.page, returned)
            if physical is None:
                cite.reason = "page never read"
                continue
            cite.page = physical  # the model cited the printed page number of a page it read
    readable = [c for c in cites if c.doc_id and not c.reason]
    for cite in readable:
        own = _text(library, texts, cite.doc_id, cite.page)
        same_mark = [c.page for c in readable if c.start == cite.start and c.doc_id == cite.doc_id]
        union = " ".join(_text(library, texts, cite.doc_id, p) for p in same_mark)
        if claim_support(cite.claim, own, union):
            cite.verified = True
        else:
            cite.reason = "claim not found on the page"
    return cites


def _by_label(
    library: Library, labels: dict[str, list[str]], doc_id: str, page: int, returned: set[tuple[str, int]]
) -> int | None:
    """The physical page the model read whose printed label is `page`, if exactly one matches."""
    if doc_id not in labels:
        labels[doc_id] = library.page_labels(doc_id)
    matches = [i + 1 for i, label in enumerate(labels[doc_id]) if label == str(page) and (doc_id, i + 1) in returned]
    return matches[0] if len(matches) == 1 else None


def _text(library: Library, cache: dict[tuple[str, int], str], doc_id: str, page: int) -> str:
    if (doc_id, page) not in cache:
        stored = library.pages(doc_id, [page])
        cache[(doc_id, page)] = stored[0].text if stored else ""
    return cache[(doc_id, page)]


_PASSAGE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n\s*\n")


def best_passage(claim: str, page_text: str, max_chars: int = 400) -> str:
    """The exact stretch of `page_text` (one or two sentences) that best matches the claim, for the highlight."""
    if not page_text.strip():
        return ""
    spans: list[tuple[int, int]] = []
    cursor = 0
    for match in _PASSAGE_SPLIT.finditer(page_text):
        if match.start() > cursor:
            spans.append((cursor, match.start()))
        cursor = match.end()
    if cursor < len(page_text):
        spans.append((cursor, len(page_text)))
    words, figures = set(content_words(claim)), set(numbers(claim))
    best, best_score = (0, 0), -1.0
    for i in range(len(spans)):
        for j in (i, i + 1):
            if j >= len(spans):
                continue
            start, end = spans[i][0], spans[j][1]
            if end - start > max_chars and j > i:
                continue
            window = page_text[start:end]
            score: float = 2 * len(figures & set(numbers(window))) + len(words & set(content_words(window)))
            score += fuzz.token_set_ratio(claim, window) / 100 - (0.01 if j > i else 0)
            if score > best_score:
                best, best_score = (start, min(end, start + max_chars)), score
    return page_text[best[0] : best[1]].strip()
