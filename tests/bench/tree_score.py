"""Score a rebuilt section tree against a document's own bookmarks (issue 2's tree-quality measure).

Titles are normalised (case, punctuation, leading section numbers), matched one-to-one when their
rapidfuzz ratio is at least 0.85, and the result is reported as precision, recall, F1 and the share of
matches whose start page is within one page of the bookmark's. Among matches it also counts the hierarchy
(issue 11): the level is right when both entries sit at the same nesting depth (each tree's shallowest level
is depth 0), the parent is right when the entry's parent is the match of the bookmark's parent, or both are
top-level.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable

from rapidfuzz import fuzz

THRESHOLD = 0.85
PAGE_TOLERANCE = 1

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    "seventeen|eighteen|nineteen|twenty"
)
_ROMAN = r"(?=[IVXLCDM])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})\b"
# One leading numbering token: "Chapter 3:", "Part II", "1.2.3", "III-A", "A.1", "(2)", "iv.", "b)", "Item 1A",
# "Note 2 -" (a filing's contents lists "Note 2 - Revenue" where its page and bookmark read "2. REVENUE").
_LEADING_NUMBER = re.compile(
    r"^\s*(?:(?:chapter|section|part|article|appendix|annex|item|note|§)\s*"
    rf"(?:[0-9]+[a-z]?|[ivxlcdm]+|[a-z]|{_NUMBER_WORDS})\b"
    r"|\(?[0-9]+(?:[.\-][0-9]+)*[a-z]?[.)]?(?=\s|$|[:.\-–—])"
    rf"|(?-i:{_ROMAN}(?:-[A-Z0-9]+)?[.)]?(?=\s))"
    rf"|\(?(?-i:{_ROMAN.lower()})[.)]"
    r"|\(?[A-Za-z][.)](?=\s)"
    r"|(?-i:[A-Z](?:[.\-][A-Z0-9]+)+\.?(?=\s))"
    r"|(?-i:[A-Z](?=\s)))"
    r"\s*[:.\-–—]?\s*",
    re.IGNORECASE,
)
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def normalise(title: str) -> str:
    """Lower-case, leading-number-free, punctuation-free form of a title, for fuzzy comparison."""
    text = unicodedata.normalize("NFKC", title).replace("\u00ad", "")
    for _ in range(2):  # "Chapter 1: 1.2 Title" style double prefixes
        stripped = _LEADING_NUMBER.sub("", text, count=1)
        if not stripped.strip() or stripped == text:
            break
        text = stripped
    return _NON_WORD.sub(" ", text.lower()).strip()


@dataclass(frozen=True)
class Entry:
    """A title and its 1-based physical start page (either side of the comparison).

    `depth` (0 = top) and `parent` (index of the parent entry in the same list, None at the top) are the
    entry's place in its tree; entries built without them are all top-level.
    """

    title: str
    page: int
    depth: int = 0
    parent: int | None = None


@dataclass
class Score:
    """Outcome of comparing one document's rebuilt headings with its bookmarks."""

    truth: int
    predicted: int
    matched: int
    page_ok: int
    level_ok: int = 0
    parent_ok: int = 0
    pairs: list[tuple[Entry, Entry, float]] = field(default_factory=list)
    missed: list[Entry] = field(default_factory=list)
    extra: list[Entry] = field(default_factory=list)

    @property
    def precision(self) -> float:
        """Share of predicted headings that match a bookmark."""
        return self.matched / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        """Share of bookmarks that a predicted heading matches."""
        return self.matched / self.truth if self.truth else 0.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def page_accuracy(self) -> float:
        """Share of matches whose start page is within PAGE_TOLERANCE of the bookmark's."""
        return self.page_ok / self.matched if self.matched else 0.0

    @property
    def level_accuracy(self) -> float:
        """Share of matches at the bookmark's depth."""
        return self.level_ok / self.matched if self.matched else 0.0

    @property
    def parent_accuracy(self) -> float:
        """Share of matches whose parent is the match of the bookmark's parent (or both top-level)."""
        return self.parent_ok / self.matched if self.matched else 0.0


def nested(items: Iterable[tuple[int, str, int]]) -> list[Entry]:
    """(level, title, page) rows in reading order -> entries with nesting depth and parent index.

    Levels are nested the way the app's assembly nests them: an entry's parent is the nearest earlier entry
    with a smaller level, so skipped levels ("1" then "3") count as one step and the shallowest is depth 0.
    """
    stack: list[tuple[int, int]] = []  # (source level, index)
    entries: list[Entry] = []
    for level, title, page in items:
        while stack and stack[-1][0] >= level:
            stack.pop()
        entries.append(Entry(title, page, len(stack), stack[-1][1] if stack else None))
        stack.append((level, len(entries) - 1))
    return entries


def truth_from_toc(toc: Iterable[tuple[int, str, int]]) -> list[Entry]:
    """Bookmarks as ground truth: entries without a target page are dropped (nothing to compare them with).

    A dropped entry's children hang from its nearest kept ancestor.
    """
    return nested((level, title, page) for level, title, page in toc if page >= 1 and normalise(title))


def score(truth: list[Entry], predicted: list[Entry]) -> Score:
    """Match predicted headings to bookmarks one-to-one (best ratio first, then nearest page) and count."""
    norm_t = [normalise(e.title) for e in truth]
    norm_p = [normalise(e.title) for e in predicted]
    candidates: list[tuple[float, int, int, int]] = []
    for i, nt in enumerate(norm_t):
        for j, np_ in enumerate(norm_p):
            ratio = fuzz.ratio(nt, np_) / 100.0
            if ratio >= THRESHOLD:
                candidates.append((-ratio, abs(truth[i].page - predicted[j].page), i, j))
    candidates.sort()
    used_t: set[int] = set()
    used_p: set[int] = set()
    result = Score(truth=len(truth), predicted=len(predicted), matched=0, page_ok=0)
    match: dict[int, int] = {}
    for neg_ratio, dist, i, j in candidates:
        if i in used_t or j in used_p:
            continue
        used_t.add(i)
        used_p.add(j)
        match[i] = j
        result.matched += 1
        result.page_ok += dist <= PAGE_TOLERANCE
        result.pairs.append((truth[i], predicted[j], -neg_ratio))
    for i, j in match.items():
        result.level_ok += truth[i].depth == predicted[j].depth
        t_parent, p_parent = truth[i].parent, predicted[j].parent
        result.parent_ok += (p_parent is None) if t_parent is None else match.get(t_parent, -1) == p_parent
    result.missed = [e for i, e in enumerate(truth) if i not in used_t]
    result.extra = [e for j, e in enumerate(predicted) if j not in used_p]
    return result
