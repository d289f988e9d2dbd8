"""What a search query asks for: words to rank by, phrases to keep whole, and symbol terms to find verbatim.

A question typed in natural language ("What was FedEx net income in fiscal 2023?") is mostly filler: its
stopwords are dropped so BM25 ranks on "fedex net income fiscal 2023". Quoted phrases and a short query of
exact terms are kept as written. Terms made of symbols (`<<-`, `%in%`, `C++`, `§ 240.15l-1`) lose their symbols
in the full-text tokenizer, so they are also matched as substrings of the page text. Terms are deduplicated and
capped, so a query that repeats one word two thousand times costs what one word costs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pageindex_desktop.core.library.search_rank import Concept, words_of
from pageindex_desktop.core.library.search_vocabulary import (PERIODS, STATEMENT_ITEMS, WHOLE_WORDS, base_word,
                                                              concepts, country)

MAX_TERMS = 8
MAX_TERM_CHARS = 80
_TERM = re.compile(r'"[^"]+"|[^\s"]+')
_WORD_CHARS = re.compile(r"[^\W_]+(?:['’.,-][^\W_]+)*", re.UNICODE)
_SYMBOL = re.compile(r"[^\w\s'’.,\-]|(?<=\w)[+#]|^[-.]|[-.]$")

STOPWORDS = frozenset(
    """a an the and or but if of at by for with about against between into through during before after above
    below to from up down in out on off over under again further then once here there when where why how all
    any both each few more most other some such no nor only own same so than too very can will just should now
    is are was were be been being have has had having do does did doing i me my we our you your he him his she
    her it its they them their what which who whom this that these those am would could shall may might must
    tell show give find list please much many also per vs via according document documents page pages report
    located situated come comes came us total""".split()
)


@dataclass(frozen=True)
class SearchPlan:
    """The parts of a query: `words` ranked by BM25, `phrases` matched whole, `symbols` matched verbatim."""

    words: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    symbols: list[str] = field(default_factory=list)
    natural: bool = False  # typed as a sentence (its stopwords were dropped)
    concepts: list[list[str]] = field(default_factory=list)  # a question's words with their alternatives
    names: frozenset[str] = frozenset()  # words written with a capital inside a question: names ("Nike", "Intel")
    proportion: bool = False  # asks for a share ("what share of", "what percentage of"): the answer prints a "%"
    whole: bool = False  # asks for the whole company ("total headcount", "firm-wide"): its own pages preferred

    def optional_groups(self) -> list[int]:
        """Positions in `groups()` of the concepts that rank but are never required: a question's quarter ("Q2",
        "second quarter"), which the statement that answers prints as its dates ("12 Weeks Ended 6/17/2023")."""
        offset = len(self.phrases)
        return [offset + i for i, group in enumerate(self.concepts) if PERIODS.intersection(group)]

    def ranked_concepts(self, optional: frozenset[int] = frozenset(),
                        ignored: frozenset[int] = frozenset()) -> list[Concept]:
        """The concepts of `groups()` as `search_rank` scores them: those at the `optional` positions optional,
        those at the `ignored` positions left out."""
        words = self.concepts if self.concepts else [[w] for w in self.words]
        forms = [[(words_of(p), False)] for p in self.phrases]
        forms += [[(words_of(t), _is_prefix(t, self.natural)) for t in group] for group in words]
        forms += [[(words_of(t), False)] for t in self._symbol_words()]
        out = [Concept(tuple(f for f in group if f[0]), i in optional) for i, group in enumerate(forms)
               if i not in ignored]
        return out + [Concept((), True, PERCENTAGE)] if self.proportion else out

    def asks_statement_item(self) -> bool:
        """Whether a question asks for a figure the financial statements print (revenue, net income, EPS, …)."""
        return any(group[0] in STATEMENT_ITEMS for group in self.concepts)

    def name_groups(self) -> list[int]:
        """Positions in `groups()` of the concepts that are names (the company a question is about)."""
        offset = len(self.phrases)
        return [offset + i for i, group in enumerate(self.concepts) if group[0] in self.names]

    def groups(self) -> list[list[str]]:
        """Every concept the query needs, each as FTS5 alternatives: quoted phrases exactly, a question's words
        with the filer's synonyms and as prefixes (plurals), exact words as typed, symbols by their word parts."""
        words = self.concepts if self.concepts else [[w] for w in self.words]
        out = [[_quoted(p)] for p in self.phrases]
        out += [[_fts_term(t, self.natural) for t in group] for group in words]
        out += [[_quoted(t)] for t in self._symbol_words()]
        return out

    def fts_all(self, skip: frozenset[int] = frozenset()) -> str:
        """An FTS5 query that needs every concept (but those at the `skip` positions of `groups()`); each term
        quoted, so punctuation cannot break the syntax."""
        needed = [g for i, g in enumerate(self.groups()) if i not in skip]
        return " AND ".join(_either(g) for g in needed)

    def fts_concept(self, index: int) -> str:
        """The FTS5 query for one concept of `groups()`."""
        return _either(self.groups()[index])

    def fts_any(self) -> str:
        """An FTS5 query that any of the words may satisfy (BM25 then rewards pages with the rare ones)."""
        return " OR ".join(t for g in self.groups() for t in g)

    def _symbol_words(self) -> list[str]:
        """The word parts of symbol terms ('240.15l' of '§ 240.15l-1'), so FTS narrows before the substring test."""
        parts = []
        for term in self.symbols:
            parts += [w for w in _WORD_CHARS.findall(term) if len(w) > 1]
        return parts


PERCENTAGE = r"\d+(?:[.,]\d+)?\s?%|per\s?cent\b"  # "73%", "10.4 %", "10 percent"
_PROPORTION = re.compile(r"\b(?:what|which|how\s+large\s+a)\s+(?:share|percentage|portion|proportion|fraction|part)"
                         r"\s+of\b", re.I)


def plan(query: str) -> SearchPlan:
    """Read a query (see the module docstring)."""
    # "What share of sales …" asks for a percentage, which the page prints as "74%", not as the word "share"
    proportion = bool(_PROPORTION.search(query[:4000]))
    query = _PROPORTION.sub("what of", query[:4000])
    raw = [t for t in _TERM.findall(query) if t.strip('"').strip()]
    phrases, words, symbols = [], [], []
    names: set[str] = set()
    whole = False
    natural = len(raw) >= 4 or query.rstrip().endswith("?")
    for position, token in enumerate(raw):
        if token.startswith('"') and token.endswith('"') and len(token) > 2:
            phrases.append(" ".join(token.strip('"').split())[:MAX_TERM_CHARS])
            continue
        token = token.strip("?!;:()[]{}").rstrip(",.")
        if not token:
            continue
        if _SYMBOL.search(token) or not any(ch.isalnum() for ch in token):
            if any(not ch.isspace() for ch in token):
                symbols.append(token[:MAX_TERM_CHARS])
            continue
        folded = token.casefold()
        if natural and country(token):
            words.append(str(country(token)))
            continue
        if natural:
            folded = base_word(folded)
            if folded in WHOLE_WORDS:
                whole = True
                continue
            if folded in STOPWORDS:
                continue
            if position > 0 and token[:1].isupper() and not token.isupper():
                names.add(folded)
        words.append(folded[:MAX_TERM_CHARS])
    if not words and not phrases and not symbols and raw:  # a query of stopwords only ("was it"): keep them
        words = [t.strip('"?!.,').casefold() for t in raw if any(ch.isalnum() for ch in t)]
    words = _unique(_without_year_qualifiers(words) if natural else words)
    return SearchPlan(words, _unique(phrases), _unique(symbols), natural, concepts(words) if natural else [],
                      frozenset(names), proportion and natural, whole)


_YEAR_QUALIFIERS = frozenset({"fiscal", "calendar", "financial", "fy", "year", "end", "year-end"})


def _without_year_qualifiers(words: list[str]) -> list[str]:
    """"fiscal 2022" asks for 2022: a filing prints the year on the page that answers, but often not "fiscal"
    (a table headed "2022 2021 2020"), so the qualifier must not be required."""
    return [w for i, w in enumerate(words)
            if not (w in _YEAR_QUALIFIERS and i + 1 < len(words) and re.fullmatch(r"(?:19|20)\d{2}", words[i + 1]))]


def _unique(terms: list[str]) -> list[str]:
    return list(dict.fromkeys(terms))[:MAX_TERMS]


def _quoted(term: str) -> str:
    return '"' + term.replace('"', " ") + '"'


def _fts_term(term: str, natural: bool) -> str:
    """One alternative: a word of five letters or more from a question also matches as a prefix ("repurchase"
    finds "repurchases"); a shorter word or an exact query matches whole."""
    quoted = _quoted(term)
    return quoted + "*" if _is_prefix(term, natural) else quoted


def _is_prefix(term: str, natural: bool) -> bool:
    return natural and " " not in term and len(term) >= 5 and term.isalpha()


def _either(group: list[str]) -> str:
    return group[0] if len(group) == 1 else "(" + " OR ".join(group) + ")"
