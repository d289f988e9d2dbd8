"""Ranking a question's candidate pages: BM25 over concepts, not over the words FTS5 matched.

FTS5's `bm25()` scores every term of the MATCH on its own. A concept written with the filer's synonyms
("revenue OR sales OR turnover") then counts a rare synonym's high IDF each time it appears: Intel's page on
employee "turnover" outranked its revenue table, and Nike's page printing "corporate headquarters" once outranked
the page printing "headquarters" four times. Search engines treat synonyms as one term for scoring (Lucene's
SynonymQuery): the concept's term frequency is the count of any of its forms on the page, its document frequency
the pages printing any of them. This module does that for the candidates FTS5 returns, and adds:

- optional concepts (a question's quarter, "Q2" or "second quarter"): scored with half weight where printed,
  never required, since the statement that answers prints "12 Weeks Ended 6/17/2023" rather than "Q2";
- proximity: a page printing every concept within a sentence's reach gains over one that prints them in separate
  tables, by up to one more concept's worth; a question asking for a share ("What share of sales comes from
  the US government?") counts a printed percentage as one of them, since the page that answers says "73% of our
  net sales from the U.S. Government" and the sales tables say no percentage.

Words match as FTS5's unicode61 tokenizer matches them (whole runs of letters and digits, case and diacritics
folded, a prefix form "revenue*" also "revenues"). A page's length is its characters: BM25 needs only its ratio
to the others, and counting tokens in Python cost more than the rest of the ranking. The IDF is Lucene's (see
`idf`), over the searched documents.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import dataclass

from pageindex_desktop.core.library.search_vocabulary import WHOLE_HEAD

K1 = 1.2  # FTS5's bm25() constants
B = 0.75
OPTIONAL_WEIGHT = 0.5
NEAR_CHARS = 160  # all concepts inside this many characters: "near" (about a sentence)
HEAD_LINES = 4  # a page's heading: its first lines (a running header, the company, the statement's title)
TITLE_CHARS = 60  # a title line is short; a longer one is wrapped prose
WHOLE_BOOST = 1.5  # a whole-company question's page headed "Consolidated …": as if it printed a third more
_TOKEN = re.compile(r"[^\W_]+")
_ACCENTED = re.compile(r"[\u00c0-\u024f\u0300-\u036f\u1e00-\u1eff]")  # letters that decompose, and marks
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


@dataclass(frozen=True)
class Concept:
    """One concept of a query: its forms (each a token sequence, the last token a prefix when `prefix`)."""

    forms: tuple[tuple[tuple[str, ...], bool], ...]
    optional: bool = False
    printed: str = ""  # instead of forms: a regex over the page text for what the index cannot hold ("73%")

    @property
    def near(self) -> bool:
        """Whether the proximity window must hold it: every required concept, and a printed one."""
        return not self.optional or bool(self.printed)

    def fts(self) -> str:
        """The FTS5 query for any of its forms (what its document frequency counts)."""
        return " OR ".join('"' + " ".join(words) + '"' + ("*" if prefix else "") for words, prefix in self.forms)

    def patterns(self) -> list[re.Pattern[str]]:
        """One regex per form over folded page text, each starting with its literal word (which `re` scans for
        fast; a combined alternation was 8x slower), the start's word boundary checked by `_places`."""
        return list(_patterns(self.forms, self.printed))


@functools.lru_cache(maxsize=512)
def _patterns(forms: tuple[tuple[tuple[str, ...], bool], ...], printed: str) -> tuple[re.Pattern[str], ...]:
    """A concept's regexes, built once per concept: escaping and compiling a period's dozen forms for every
    candidate and every snippet was a tenth of such a question's search."""
    if printed:
        return (re.compile(printed),)
    return tuple(re.compile(r"[\W_]+".join(re.escape(w) for w in words) + (r"[^\W_]*" if prefix else r"(?![^\W_])"))
                 for words, prefix in forms)


def fold(text: str) -> str:
    """Text as the index compares it: case folded, diacritics removed."""
    text = text.casefold()
    if text.isascii() or not _ACCENTED.search(text):  # most pages' only non-ASCII is ’ and —: nothing to strip
        return text
    return _COMBINING.sub("", unicodedata.normalize("NFD", text))


def words_of(term: str) -> tuple[str, ...]:
    """The index's tokens of a query term ("U.S." → ("u", "s"))."""
    return tuple(_TOKEN.findall(fold(term)))


def idf(df: int, total: int) -> float:
    """Lucene's BM25 IDF, log(1 + (N - df + 0.5) / (df + 0.5)): within one filing the concept asked about is
    printed on half its pages, where FTS5's log((N - df + 0.5) / (df + 0.5)) falls to zero and ranks nothing."""
    return math.log(1 + (total - df + 0.5) / (df + 0.5))


def rank(texts: list[str], concepts: list[Concept], dfs: list[int], total: int,
         whole: bool = False) -> list[float]:
    """A score per text (higher is better): weighted BM25 per concept plus the proximity bonus; with `whole`
    (the question asks for the whole company) a page headed as the company's own figures gains WHOLE_BOOST."""
    if not texts or not concepts:
        return [0.0] * len(texts)
    weights = [0.0 if c.printed else idf(df, total) * (OPTIONAL_WEIGHT if c.optional else 1.0)
               for c, df in zip(concepts, dfs)]
    patterns = [c.patterns() for c in concepts]
    folded = [fold(t) for t in texts]
    lengths = [len(t) or 1 for t in folded]  # characters: BM25 needs only a page's length relative to the others
    average = sum(lengths) / len(lengths)
    required = [i for i, c in enumerate(concepts) if not c.optional]
    near = [i for i, c in enumerate(concepts) if c.near]
    bonus = min((weights[i] for i in required), default=0.0)
    scores = []
    for text, length in zip(folded, lengths):
        norm = K1 * (1 - B + B * length / average)
        places = [_places(text, forms) for forms in patterns]
        score = sum(w * len(at) * (K1 + 1) / (len(at) + norm) for w, at in zip(weights, places) if at)
        if len(near) > 1 and required and all(places[i] for i in near):
            score += bonus * max(0.0, 1 - _tightest([places[i] for i in near]) / NEAR_CHARS)
        if whole and _headed_whole(text):
            score *= WHOLE_BOOST
        scores.append(score)
    return scores


def _headed_whole(text: str) -> bool:
    """Whether one of a page's first HEAD_LINES lines is a short title naming the whole company ("Condensed
    Consolidated Statement of Income"); a longer line is prose ("The consolidated financial statements include")."""
    lines = [" ".join(line.split()) for line in text.lstrip().split("\n", HEAD_LINES)[:HEAD_LINES]]
    return any(len(line) <= TITLE_CHARS and WHOLE_HEAD.search(line) for line in lines)


def _places(text: str, forms: list[re.Pattern[str]]) -> list[int]:
    """Where any of a concept's forms starts as a whole word (a phrase inside a longer form counted once)."""
    spans: dict[int, int] = {}
    for pattern in forms:
        for found in pattern.finditer(text):
            at = found.start()
            if at and (text[at - 1].isalnum() and found.group()[:1].isalnum()):
                continue  # inside a longer word
            spans[at] = max(spans.get(at, 0), found.end())
    starts, end = [], -1
    for at in sorted(spans):
        if at >= end:  # "corporate headquarters" holds "headquarters": one occurrence
            starts.append(at)
            end = spans[at]
    return starts


def snippet(text: str, concepts: list[Concept], width: int = 110) -> str:
    """A short passage of `text` where most concepts are printed, matches wrapped in [[ ]] as FTS5's snippet()
    wraps them (made here for the hits shown: one FTS5 snippet query per hit was a quarter of a search). An
    page is searched lower-cased with the compiled forms when that keeps every place (no letter whose lower case
    is longer, as "İ"): `re.IGNORECASE` over the page was most of a snippet's cost, and a period's dozen forms
    made it a third of such a question's search."""
    spans: list[tuple[int, int, int]] = []
    lowered: str | None = text.lower()
    if lowered is not None and len(lowered) != len(text):
        lowered = None
    for index, concept in enumerate(concepts):
        for pattern in concept.patterns():
            found_all = pattern.finditer(lowered) if lowered is not None else re.finditer(pattern.pattern, text, re.I)
            for found in found_all:
                at = found.start()
                if not (at and text[at - 1].isalnum() and found.group()[:1].isalnum()) and found.end() > at:
                    spans.append((at, found.end(), index))
    if not spans:
        return " ".join(text[: 2 * width // 2].split())
    spans.sort()
    start = max(spans, key=lambda s: (len({c for a, _, c in spans if s[0] <= a < s[0] + width}), -s[0]))[0]
    begin, end = max(0, start - width // 3), min(len(text), start + width)
    out, at = [], begin
    for left, right, _ in spans:
        if left >= at and right <= end:
            out += [text[at:left], "[[", text[left:right], "]]"]
            at = right
    out.append(text[at:end])
    return ("… " if begin else "") + " ".join("".join(out).split()) + (" …" if end < len(text) else "")


def _tightest(places: list[list[int]]) -> int:
    """The smallest character window holding one place of every list (sweep over the merged, sorted places)."""
    merged = sorted((at, which) for which, ats in enumerate(places) for at in ats)
    seen: dict[int, int] = {}
    best = 1 << 30
    left = 0
    for at, which in merged:
        seen[which] = seen.get(which, 0) + 1
        while len(seen) == len(places):
            start, first = merged[left]
            best = min(best, at - start)
            seen[first] -= 1
            if not seen[first]:
                del seen[first]
            left += 1
    return best
