"""Text the checker compares: one folding for answers and pages, words and stems, sentences that know abbreviations.

Everything that compares a claim with a page goes through `fold` so that ligatures, curly quotes, dashes and words
hyphenated across a line end ("regula-\\ntory") never decide a verdict or a highlight.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_LINE_HYPHEN = re.compile(r"(?<=\w)[-\u00ad\u2010\u2011]\s*\n\s*(?=\w)")
_DASHES = re.compile("[\u2010-\u2015\u2212]")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "`": "'",
                         "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"',
                         "\u00bb": '"', "\u00a0": " "})
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
STEM = 5

STOPWORDS = frozenset(
    """a an the and or for are was were with that this these those from into onto over under than then have has
    had but also its it's their there which what when where who whom whose will would shall should could may
    might can about above after again against all any because been before being below between both did does
    doing down during each few further here how more most other our out own same some such only very just they
    them his her him she you your yours per via upon within while whereas according document documents page
    pages states stated says said report reports shows shown amount approximately roughly around be is as at by
    in of on to we us it i so if let let's notes note noted mentions mentioned describes described indicates
    indicated including include includes included based well overall respectively percent per cent percentage
    points point basis thousand thousands million millions billion billions trillion dollars dollar cents euros
    pounds not no nor never none neither""".split()
)

ABBREVIATIONS = frozenset(
    """u.s u.k u.n e.u inc corp co ltd llc plc no nos vs etc e.g i.e al approx fig figs sec secs art arts ch
    mr mrs ms dr prof st jr sr dept est ed eds vol vols p pp para paras cf viz jan feb mar apr jun jul aug sep
    sept oct nov dec n.a a.m p.m govt intl assn bros ave s.a n.v a.g""".split()
)


def normalise(text: str, hyphen: str = "") -> str:
    """NFKC (ligatures, full-width forms), plain quotes and dashes, soft hyphens dropped, and a hyphen at a line
    end replaced by `hyphen` ('' re-joins "regula-\\ntory"; '-' keeps a compound such as "long-\\nterm")."""
    text = unicodedata.normalize("NFKC", text)
    text = _LINE_HYPHEN.sub(hyphen, text).replace("\u00ad", "")
    return _DASHES.sub("-", text).translate(_QUOTES)


def fold(text: str) -> str:
    """Text as the checker compares it: `normalise`d with line-end hyphens re-joined, case folded."""
    return normalise(text).casefold()


def words(text: str) -> list[str]:
    """Every word of the folded text (letters only; numbers are figures, see figures.py)."""
    return [w.replace("’", "'") for w in _WORD.findall(fold(text))]


def content_words(text: str) -> list[str]:
    """Words that carry meaning: 3+ letters, not a stopword, possessive 's dropped."""
    out = []
    for word in words(text):
        word = word.removesuffix("'s")
        if len(word) >= 3 and word not in STOPWORDS:
            out.append(word)
    return out


def stem(word: str) -> str:
    """A crude stem: plural and common endings off, then the first letters (enough to pair 'grew'/'growth' is
    not the aim; pairing 'increase'/'increased'/'increases' and 'regulation'/'regulatory' is)."""
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return word[:STEM] if len(word) > STEM else word


@dataclass(frozen=True)
class Span:
    """A stretch of a text, by offsets into it."""

    start: int
    end: int


def sentence_spans(text: str) -> list[Span]:
    """Sentences of `text`, by offsets: a full stop ends one unless it belongs to an abbreviation ('U.S.',
    'Inc.', 'No. 5', 'e.g.'), an initial ('J. Smith') or a decimal ('3.5'); blank lines and list items end one too."""
    spans: list[Span] = []
    start = 0
    length = len(text)
    i = 0
    while i < length:
        char = text[i]
        if char == "\n":
            blank = text.startswith("\n", i + 1) and not _runs_on(text, i)
            if blank or _list_item_follows(text, i + 1):
                _add(spans, text, start, i)
                start = i + 1
        elif char in ".!?" and _ends_sentence(text, i) and not _ORDINAL.fullmatch(text[start:i].strip()):
            # (a bare number opening the sentence is an ordinal or a heading's number: "0. Auflage", "2. Scope")
            end = i + 1
            while end < length and text[end] in "\"')]”’*_":
                end += 1
            note = _FOOTNOTE_MARK.match(text, end) if text[i - 1 : i].isalpha() else None
            end = note.end(1) if note else end
            _add(spans, text, start, end)
            start = end
            i = end
            continue
        i += 1
    _add(spans, text, start, length)
    return spans


_ORDINAL = re.compile(r"\d{1,3}")
_FOOTNOTE_MARK = re.compile(r"(\d{1,3})\s+(?=[A-Z][a-z])")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*•▪◦]|\d{1,2}[.)]|[a-z][.)])\s")


_RUN_ON_END = re.compile(r"(?:[a-z,]|\b(?:of|the|a|an|and|or|to|in|for|by|with|on|at|from|as|that|is|are))\s*$")
_CONTINUATION = re.compile(r"\s*[a-z]+[\s,;:.)]")  # "iPad" opens a line as a heading does
RUN_ON_LINE = 40  # a double-spaced body line is long; a short one before a blank line is a heading


def _runs_on(text: str, at: int) -> bool:
    """Whether the blank line at `at` is only double spacing: the line before stops mid-sentence (a lower-case
    word or a comma) and the next one carries on in lower case, or the line before ends on a word that cannot
    end a sentence ("… ahead of the interest of" / "the retail customer")."""
    line_start = text.rfind("\n", 0, at) + 1
    before = text[line_start:at]
    if len(before.strip()) < RUN_ON_LINE or not _RUN_ON_END.search(before[-12:]):
        return False
    following = text[at:].lstrip("\n")
    if _list_item_follows(following, 0):
        return False
    return bool(_CONTINUATION.match(following)) or bool(re.search(r"\b(?:of|the|a|an|and|or|to)\s*$", before))


DOUBLE_SPACED = 0.5  # share of a page's lines followed by a blank line when it is typed double-spaced


def double_spaced(text: str) -> bool:
    """Whether a page is double-spaced (a blank line after most lines of text), so blank lines are not breaks."""
    lines = text.split("\n")
    filled = [i for i, line in enumerate(lines[:-1]) if line.strip()]
    spaced = sum(1 for i in filled if not lines[i + 1].strip())
    return len(filled) >= 4 and spaced >= DOUBLE_SPACED * len(filled)


def _list_item_follows(text: str, at: int) -> bool:
    return bool(_LIST_ITEM.match(text, at))


def _add(spans: list[Span], text: str, start: int, end: int) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append(Span(start, end))


def _ends_sentence(text: str, i: int) -> bool:
    """Whether the punctuation at `i` closes a sentence."""
    after = text[i + 1 : i + 3]
    if text[i] != ".":
        return not after[:1].isalnum()
    if after[:1].isdigit() and i > 0 and text[i - 1].isdigit():
        return False  # a decimal
    if i > 0 and text[i - 1].isdigit() and _MONTH_AFTER.match(text, i + 1):
        return False  # "31. Dezember 2016": a day written as an ordinal
    if text[i - 1 : i].isalpha() and _FOOTNOTE_MARK.match(text, i + 1):
        return True  # "among others.391 Approximately 74%": a footnote mark after the full stop
    if after[:1].isalnum() or after[:1] in ",;:)":
        return False  # "e.g.," / "U.S.-based" / "www.x"
    token = re.search(r"([A-Za-z][A-Za-z.]*)$", text[max(0, i - 12) : i])
    if token:
        word = token.group(1).lower().rstrip(".")
        if word in ABBREVIATIONS or (len(word) == 1 and text[i - 1].isupper()):
            nxt = re.match(r"\s+(\S)", text[i + 1 :])
            # "the U.S. The next" still ends: an abbreviation ends a sentence when a capitalised common word follows
            # and the abbreviation is not a title or a 'No.' before a number.
            if not nxt:
                return True
            if word in {"no", "nos", "p", "pp", "fig", "figs", "sec", "art", "vol", "ch", "para", "mr", "mrs",
                        "ms", "dr", "prof", "st", "vs", "cf", "approx", "e.g", "i.e"}:
                return False
            following = re.match(r"\s+([A-Z][a-z]+)", text[i + 1 :])
            return bool(following and following.group(1).lower() in SENTENCE_STARTERS)
    return True


_MONTH_AFTER = re.compile(
    r"\s+(?:januar|jänner|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember|janvier|"
    r"février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|enero|febrero|marzo|abril|mayo|"
    r"junio|julio|agosto|septiembre|octubre|noviembre|diciembre)\b", re.I)
SENTENCE_STARTERS = frozenset(
    """the this that these those it its in on at for as a an we our they their however also its there such
    net total revenue revenues income sales operating during each both while although since overall""".split()
)
