"""The passage of a page that a claim is judged against, and highlighted: a window of one to three sentences.

Pages are cut into units: sentences, and the lines of a long run without full stops (a table, a list). The
window that shares most of the claim's figures and words wins; the verdict is then reached on that window alone,
so a figure elsewhere on the page (last year's column, a footnote) cannot make a wrong claim look checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pageindex_desktop.core.assistant.citations.figures import Figure, figures, same_value
from pageindex_desktop.core.assistant.citations.names import names, printed
from pageindex_desktop.core.text import Span, content_words, fold, sentence_spans, stem

MAX_UNITS = 3
_FIGURE = re.compile(r"\d[\d,.]*\d")  # two digits or more: a figure, not a list item's number
MAX_CHARS = 700
WIDE_UNITS = 5  # a claim whose figures sit in more sentences (two bullets, a table row and its header) may widen
WIDE_CHARS = 1000
LONG_UNIT = 300
_CLAUSE_BREAK = re.compile(
    r";|:\s|\s\(|\)[\s,]|,\s+(?=(?:and|while|whereas|but|compared|versus|respectively|or)\b)|,\s|\s(?=(?:and|while|whereas|but|"
    r"compared with|compared to|versus|vs\.)\s)"
)


@dataclass(frozen=True)
class Passage:
    """A window of the page: its offsets into the page text and the text itself (an exact substring)."""

    start: int
    end: int
    text: str


def units(page_text: str, width: int | None = None) -> list[Span]:
    """Sentences of the page, with a heading line cut off the sentence it precedes; a long sentence that spans
    lines (a table, a list without full stops) becomes its lines. `width` is the page's widest line when the
    text is a stretch of it (a passage's own lines say nothing about where the margin is)."""
    if width is None:
        width = line_width(page_text)
    out: list[Span] = []
    for whole in sentence_spans(page_text):
        for span in _heading_cut(page_text, whole, width):
            piece = page_text[span.start : span.end]
            if len(piece) <= LONG_UNIT or "\n" not in piece:
                out.append(span)
                continue
            out += _lines(page_text, span)
    return out


def line_width(text: str) -> int:
    """The widest line of a text (where a page's right margin is)."""
    return max((len(line.strip()) for line in text.splitlines()), default=0)


def _lines(page_text: str, span: Span) -> list[Span]:
    out = []
    cursor = span.start
    for line in page_text[span.start : span.end].split("\n"):
        if line.strip():
            start = cursor + (len(line) - len(line.lstrip()))
            out.append(Span(start, cursor + len(line.rstrip())))
        cursor += len(line) + 1
    return out


def _heading_cut(page_text: str, span: Span, width: int) -> list[Span]:
    """Cut a span after a short line that the next line does not continue (a heading, a table's title): prose
    lines run to the margin, and a short one that does not end a sentence is a line of its own."""
    lines = _lines(page_text, span)
    if len(lines) < 2:
        return [span]
    out: list[Span] = []
    start = lines[0].start
    for line, nxt in zip(lines, lines[1:]):
        text = page_text[line.start : line.end]
        following = page_text[nxt.start : nxt.end]
        at_line_start = line.start == 0 or page_text[line.start - 1] == "\n"
        short = at_line_start and len(text) < 0.6 * width
        # a line that lists figures between commas is a sentence broken early (a narrow box), not a heading
        if short and not text.endswith((",", "-", "and", "or", "of", "the")) and following[:1].isupper() \
                and not (", " in text and _FIGURE.search(text)):
            out.append(Span(start, line.end))
            start = nxt.start
    out.append(Span(start, span.end))
    return out


def claim_stems(claim: str) -> set[str]:
    """The claim's content words as stems (what a passage must share with it)."""
    return {stem(w) for w in content_words(claim)}


def text_stems(text: str) -> set[str]:
    """Stems of a page stretch's content words."""
    return {stem(w) for w in content_words(text)}


def figure_matches(claimed: list[Figure], printed: list[Figure]) -> int:
    """How many of the claim's figures the printed figures state."""
    return sum(1 for c in claimed if any(same_value(c, p) for p in printed))


def best_window(claim: str, page_text: str) -> Passage:
    """The window of one to three units that best matches the claim (the whole page when it has one unit)."""
    spans = units(page_text)
    if not spans:
        return Passage(0, 0, "")
    wanted = claim_stems(claim)
    claimed = [f for f in figures(claim) if f.kind != "year"]
    unit_stems = [text_stems(page_text[s.start : s.end]) for s in spans]
    unit_figures = [figures(page_text[s.start : s.end]) for s in spans]
    best: tuple[tuple[int, float], int, int] = ((-1, -1.0), 0, 0)
    for i in range(len(spans)):
        covered: set[str] = set()
        printed: list[Figure] = []
        for j in range(i, min(len(spans), i + WIDE_UNITS)):
            width = spans[j].end - spans[i].start
            if j > i and width > WIDE_CHARS:
                break
            covered |= unit_stems[j] & wanted
            printed += unit_figures[j]
            matched = figure_matches(claimed, printed)
            wide = j - i >= MAX_UNITS or width > MAX_CHARS
            if wide and matched <= best[0][0]:
                continue  # a wide window only to take in a figure a narrower one lacks
            score = (matched, len(covered) - 0.3 * (j - i))
            if score > best[0]:
                best = (score, i, j)
    _, i, j = best
    i, j = _trim(i, j, unit_stems, unit_figures, wanted, claimed)
    start, end = spans[i].start, spans[j].end
    return Passage(start, end, page_text[start:end])


def _trim(i: int, j: int, unit_stems: list[set[str]], unit_figures: list[list[Figure]], wanted: set[str],
          claimed: list[Figure]) -> tuple[int, int]:
    """Drop end units that add nothing the rest of the window lacks, so the highlight is as tight as the match."""

    def adds(k: int, others: range) -> bool:
        rest_stems = set().union(*(unit_stems[m] for m in others)) & wanted
        rest_figures = [f for m in others for f in unit_figures[m]]
        new_stems = (unit_stems[k] & wanted) - rest_stems
        return bool(new_stems) or figure_matches(claimed, rest_figures + unit_figures[k]) > figure_matches(
            claimed, rest_figures)

    while j > i and not adds(i, range(i + 1, j + 1)):
        i += 1
    while j > i and not adds(j, range(i, j)):
        j -= 1
    return i, j


_MAJOR_BREAK = re.compile(r";|,\s+(?=(?:and|but|while|whereas|although|though)\b)|\s(?=(?:but|whereas)\s)")


def major_clauses(text: str) -> list[str]:
    """A claim's clauses at its strong joins only ('…, and …', '…; …', '… but …'): a list comma inside a clause
    ("its board, senior management and supervisors did not …") does not cut it."""
    return [piece.strip() for piece in _MAJOR_BREAK.split(text) if piece and piece.strip()]


def clauses(text: str) -> list[str]:
    """The clauses of a passage (as printed): where a figure or a name is bound to what it describes."""
    if "\n" in text.strip() and not _prose(text):
        return [c for line in text.splitlines() for c in clauses(line)]
    flat = " ".join(text.split())
    return [piece.strip() for piece in _CLAUSE_BREAK.split(flat) if piece and piece.strip()]


def _prose(text: str) -> bool:
    """Whether a multi-line stretch is reflowed prose (lines run on) rather than a table or list (one item a line)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return sum(len(line.split()) for line in lines) >= 6 * len(lines)


def best_sentence(claim: str, text: str) -> str:
    """The sentence of `text` that states most of the claim's figures, then shares most of its words."""
    wanted = claim_stems(claim)
    claimed = [f for f in figures(claim) if f.kind != "year"]
    mine = names(claim)
    best, best_score = "", (-1, -1)
    for sentence in units(text):
        piece = text[sentence.start : sentence.end]
        folded = fold(piece)
        named = sum(1 for n in mine if printed(n, folded))
        score = (figure_matches(claimed, figures(piece)), len(text_stems(piece) & wanted) + named)
        if score > best_score:
            best, best_score = piece, score
    return best


def claim_region(claim: str, text: str) -> str:
    """The clauses of the best sentence that speak of the claim (they hold one of its figures or share two of
    its words): what the claim's polarity is compared with, so another clause's "not" does not count."""
    sentence = best_sentence(claim, text)
    wanted = claim_stems(claim)
    claimed = [f for f in figures(claim) if f.kind != "year"]
    pieces = clauses(sentence)
    overlaps = [len(text_stems(c) & wanted) for c in pieces]
    enough = max(2.0, 0.75 * max(overlaps, default=0))
    kept = [c for c, shared in zip(pieces, overlaps) if figure_matches(claimed, figures(c)) or shared >= enough]
    return " ".join(kept) or sentence


def best_clause(claim: str, text: str) -> str:
    """The clause of `text` (within its best sentence) that holds the claim's figures and shares most words."""
    wanted = claim_stems(claim)
    claimed = [f for f in figures(claim) if f.kind != "year"]
    best, best_score = "", (-1, -1.0)
    for clause in clauses(best_sentence(claim, text)):
        score = (figure_matches(claimed, figures(clause)), len(text_stems(clause) & wanted) - len(clause) / 1e4)
        if score > best_score:
            best, best_score = clause, score
    return best
