"""What the model wrote: citation marks, the claim each one supports, and the factual sentences left uncited.

Forms understood: `[Title, p. 17]`, `[Title, p. 17.]`, `(Title, p. 17)`, `[Title, pp. 3-5]`, `[Title, p. 3, 5]`,
`[A, p. 1; B, p. 2]`, `[p. 17]` (the one document in scope), printed labels (`p. xiii`, `p. A-3`, `p. F-12`),
`<cite doc=".." page=".."/>`, and marks that open a sentence ("According to [T, p. 3], …"). A citation may name the
section too, `[Title, § Heading, p. 3]` or `[Title › Heading, p. 3]` (the form the pane shows), or the section
alone, `[Title, § Heading]` or `[Title › Heading]` (verify.py judges it on the section's pages). A bracket that
looks like a citation but cannot be read becomes a `Citation` with `understood=False`, so it is reported, never
dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pageindex_desktop.core.assistant.citations.figures import figures
from pageindex_desktop.core.assistant.citations.section import Section
from pageindex_desktop.core.text import Span, content_words, sentence_spans

MAX_RANGE = 20
_PAGE_TOKEN = r"(?:\d+|[ivxlcdm]{1,8}|[IVXLCDM]{1,8}|[A-Z]{1,2}-\d+)"
_PAGE_WORD = r"(?:pp?\.?|pages?|pgs?\.?)"
_PAGES = rf"{_PAGE_TOKEN}(?:\s*(?:[-–—]|to)\s*{_PAGE_TOKEN})?(?:\s*(?:,|&|and)\s*(?:{_PAGE_WORD}\s*)?{_PAGE_TOKEN}" \
         rf"(?:\s*(?:[-–—]|to)\s*{_PAGE_TOKEN})?)*"
_PART = re.compile(rf"^\s*(?P<title>.*?)[\s,]*\b{_PAGE_WORD}\s*(?P<pages>{_PAGES})\s*[.,]?\s*$")
_LOOKS_LIKE = re.compile(rf"\b{_PAGE_WORD}\s*\S|\bsee\s+p|§\s*\S", re.I)
_HEADING_PART = re.compile(r"^\s*(?P<title>[^§›]*?)[\s,]*(?:§+|›)\s*(?P<heading>[^§]*?\S)\s*[.,]?\s*$")
_SECTION_MARK = re.compile(r"\s*(?:,\s*)?(?:§+|›)\s*")
_BRACKET = re.compile(r"\[(?!\[)([^\[\]\n]{1,400})\](?![(\[])")
_PAREN = re.compile(rf"\(([^()\n]{{0,300}}\b{_PAGE_WORD}\s*{_PAGE_TOKEN}[^()\n]{{0,80}})\)")
_CITE_TAG = re.compile(r"<cite\b([^>]*?)/?>(?:\s*</cite>)?", re.I)
_ATTR = re.compile(r'(\w+)\s*=\s*["“]([^"”]*)["”]')
_FOOTNOTE = re.compile(r"\[\^?\d{1,3}\]")
_LEAD_IN = frozenset("according to as per see in on from the per stated reported by".split())


@dataclass
class Citation:
    """One cited page of an answer, as written, then as resolved and judged (see verify.py)."""

    written: str  # the document name as the model wrote it ('' for "[p. 17]")
    page_token: str  # the page as written: "17", "xiii", "A-3"
    start: int  # offsets of the whole citation mark in the answer
    end: int
    understood: bool = True
    claim: str = ""
    page: int = 0  # the physical page judged (0 until resolved)
    document: str = ""  # resolved title ('' when unknown)
    doc_id: str = ""
    verdict: str = "unverified"  # checked / unverified / contradicted
    reason: str = ""
    passage: str = ""  # the exact stretch of the page judged and highlighted
    numbering: str = ""  # e.g. "printed page 11 (page 17 of the file)" when a printed label was resolved
    judged_by: str = "rules"  # "rules" or "model" (the model judge decided)
    firm: bool = True  # whether a model judge may revise the rule verdict
    heading: str = ""  # the section as the model wrote it ("Installation" of "[Notes, § Installation]"), if any
    section: Section | None = None  # the section the judged passage (else the page's top) falls in
    format: str = ""  # the document's format ("pdf", "md", "epub": core/formats.py suffix) once resolved

    @property
    def verified(self) -> bool:
        """Checked: the passage states the claim."""
        return self.verdict == "checked"

    def to_dict(self) -> dict[str, object]:
        """The JSON shape of `ask --json` (design §9 plus the verdict, its reason and the passage)."""
        written_page: object = int(self.page_token) if self.page_token.isdigit() else self.page_token
        return {"document": self.document or self.written, "doc_id": self.doc_id,
                "page": self.page or written_page, "verified": self.verified, "verdict": self.verdict,
                "reason": self.reason, "claim": self.claim, "passage": self.passage,
                "written_page": written_page, "numbering": self.numbering, "judged_by": self.judged_by,
                "start": self.start, "end": self.end, "section": self.section.to_dict() if self.section else None,
                "written_heading": self.heading, "format": self.format}


@dataclass(frozen=True)
class Uncited:
    """An answer sentence that states a figure without citing a page."""

    text: str
    start: int
    end: int

    def to_dict(self) -> dict[str, object]:
        """The JSON shape in `ask --json`'s `uncited` list."""
        return {"text": self.text, "start": self.start, "end": self.end}


@dataclass
class ParsedAnswer:
    """An answer's citations (reading order, claims attached) and its uncited factual sentences."""

    citations: list[Citation] = field(default_factory=list)
    uncited: list[Uncited] = field(default_factory=list)
    brackets: list[Span] = field(default_factory=list)  # other brackets: a citation if they name a document


def page_tokens(spec: str) -> list[str]:
    """The pages a spec names, in order: '3-5, 9' → 3 4 5 9; a range of labels ('iv-vi') keeps its ends."""
    out: list[str] = []
    for piece in re.split(rf"\s*(?:,|&|\band\b)\s*(?:{_PAGE_WORD}\s*)?", spec.strip()):
        match = re.fullmatch(rf"({_PAGE_TOKEN})\s*(?:(?:[-–—]|to)\s*({_PAGE_TOKEN}))?", piece.strip())
        if not match:
            continue
        first, last = match.group(1), match.group(2)
        if last and first.isdigit() and last.isdigit():
            low, high = sorted((int(first), int(last)))
            out.extend(str(n) for n in range(low, min(high, low + MAX_RANGE - 1) + 1))
        else:
            out.extend([first] + ([last] if last else []))
    return list(dict.fromkeys(out))


def parse(answer: str) -> ParsedAnswer:
    """The citations of `answer` with their claims, and its uncited factual sentences."""
    cites, others = _marks(answer)
    masked = _mask(answer, [(c.start, c.end) for c in cites])
    sentences = sentence_spans(masked)
    used: set[int] = set()
    for cite in cites:
        cite.claim, index = _claim(masked, sentences, cite, cites)
        used.add(index)
    return ParsedAnswer(cites, _uncited(masked, sentences, used), others)


def parse_citations(answer: str) -> list[Citation]:
    """Every citation of `answer` in reading order (claims attached)."""
    return parse(answer).citations


def _marks(answer: str) -> tuple[list[Citation], list[Span]]:
    found: list[Citation] = []
    others: list[Span] = []
    taken: list[tuple[int, int]] = []
    for match in _CITE_TAG.finditer(answer):
        attrs = {k.lower(): v for k, v in _ATTR.findall(match.group(1))}
        title = attrs.get("doc") or attrs.get("document") or attrs.get("title") or ""
        heading = (attrs.get("section") or attrs.get("heading") or "").strip()
        pages = page_tokens(attrs.get("page") or attrs.get("pages") or "")
        taken.append((match.start(), match.end()))
        if not pages:
            found.append(Citation(title.strip(), "", match.start(), match.end(), understood=bool(heading),
                                  heading=heading))
        found.extend(Citation(title.strip(), p, match.start(), match.end(), heading=heading) for p in pages)
    for pattern in (_BRACKET, _PAREN):
        for match in pattern.finditer(answer):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue
            parsed = _bracket(match.group(1), match.start(), match.end())
            if parsed:
                found.extend(parsed)
                taken.append((match.start(), match.end()))
            elif pattern is _BRACKET and not _FOOTNOTE.fullmatch(match.group(0)):
                others.append(Span(match.start(), match.end()))
    for match in _FOOTNOTE.finditer(answer):
        if not any(a <= match.start() < b for a, b in taken):
            found.append(Citation("", match.group(0), match.start(), match.end(), understood=False))
    found.sort(key=lambda c: c.start)
    return found, others


def _bracket(inner: str, start: int, end: int) -> list[Citation]:
    """The citations one bracket holds; an unreadable bracket that looks like a citation is one not understood."""
    out: list[Citation] = []
    for part in inner.split(";"):
        parsed = _PART.match(part)
        if not parsed:
            named = _HEADING_PART.match(part)
            if named:  # "[Notes, § Installation]": the section alone
                heading = _title(named.group("heading"))
                out.append(Citation(_title(named.group("title")), "", start, end, heading=heading))
            elif _LOOKS_LIKE.search(part):
                out.append(Citation(part.strip(), "", start, end, understood=False))
            continue
        title, heading = _split_heading(parsed.group("title"))
        tokens = page_tokens(parsed.group("pages"))
        if not tokens:
            out.append(Citation(title, "", start, end, understood=False))
        out.extend(Citation(title, token, start, end, heading=heading) for token in tokens)
    if out and all(not c.understood for c in out) and not any(_LOOKS_LIKE.search(p) for p in inner.split(";")):
        return []
    return out


def _title(text: str) -> str:
    return text.strip().strip("\"'“”*_,").strip()


def _split_heading(written: str) -> tuple[str, str]:
    """'Notes, § Installation' or 'Notes › Installation' → ('Notes', 'Installation'); a title without a section
    mark is kept whole (verify.py may still read 'Notes, Installation' as a title and a heading)."""
    pieces = _SECTION_MARK.split(written, maxsplit=1)
    if len(pieces) == 2 and pieces[1].strip(" ,"):
        return _title(pieces[0]), _title(pieces[1])
    return _title(written), ""


def _mask(answer: str, marks: list[tuple[int, int]]) -> str:
    """The answer with citation marks blanked to an invisible character, so their full stops end nothing."""
    chars = list(answer)
    for start, end in marks:
        closes = answer[start:end].rstrip("]) ").endswith(".")  # "[T, p. 17.]" ends its sentence
        chars[start:end] = "\u2063" * (end - start)
        if closes:
            chars[end - 1] = "."
    return "".join(chars)


def _clean(text: str) -> str:
    text = text.replace("\u2063", " ")
    text = re.sub(r"^[\s*\-•>#]*(?:\d+[.)]\s+)?", "", text)
    return re.sub(r"\s+", " ", text).strip(" *_,;:")


def _claim(masked: str, sentences: list[Span], cite: Citation, cites: list[Citation]) -> tuple[str, int]:
    """The text a citation supports and the sentence it comes from: its sentence up to the mark (after the
    sentence's previous mark when that leaves a clause of its own), the rest of the sentence for a mark that
    opens it ("According to [T, p. 3], …"), or the sentence before for a mark placed after the full stop."""
    index = next((i for i, s in enumerate(sentences) if s.start <= cite.start < s.end), None)
    if index is None:
        return "", -1
    sentence = sentences[index]
    before = masked[sentence.start : cite.start]
    if not before.replace("\u2063", " ").strip() and index > 0:
        prev = sentences[index - 1]
        return _clean(masked[prev.start : prev.end]), index - 1
    lead = [w for w in content_words(before.replace("\u2063", " ")) if w not in _LEAD_IN]
    if not lead:
        after_end = next((c.start for c in cites if c.start >= cite.end and c.start < sentence.end), sentence.end)
        after = _clean(masked[cite.end : after_end])
        if len(after.split()) >= 3 or index == 0:
            return after, index
        prev = sentences[index - 1]
        return _clean(masked[prev.start : prev.end]), index - 1
    earlier = [c for c in cites if sentence.start <= c.end <= cite.start and c.start != cite.start]
    if earlier:
        segment = _clean(masked[earlier[-1].end : cite.start])
        if len(content_words(segment)) >= 2:
            return segment, index
    return _clean(before), index


def _uncited(masked: str, sentences: list[Span], used: set[int]) -> list[Uncited]:
    """Sentences that state an amount, a percentage or a count and that no citation claims."""
    out: list[Uncited] = []
    for i, sentence in enumerate(sentences):
        text = masked[sentence.start : sentence.end]
        if i in used or "\u2063" in text:
            continue
        stripped = text.strip()
        if stripped.endswith(("?", ":")) or stripped.startswith("#"):
            continue
        body = _clean(text)
        if any(f.kind in {"money", "percent"} or (f.kind == "number" and f.value >= 10) for f in figures(body)):
            out.append(Uncited(body, sentence.start, sentence.end))
    return out
