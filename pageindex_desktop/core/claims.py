"""Does a page support a claim? Figures must match exactly (modulo formatting); content words mostly present."""

from __future__ import annotations

import re
import unicodedata

_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_WORD = re.compile(r"[^\W\d_]{3,}")
_HYPHEN_BREAK = re.compile(r"(\w)-\s*\n\s*(\w)")
STEM = 6
WORD_SHARE = 0.6

STOPWORDS = frozenset(
    """the and for are was were with that this these those from into over under than then have has had not but
    also its their there which what when where who whom whose will would shall should could may might can about
    above after again against all any because been before being below between both did does doing down during
    each few further here how more most other our out own same some such only very just they them his her him
    she you your yours per via upon within without while whereas according document documents page pages states
    stated says said report reports shows shown total amount approximately about roughly around""".split()
)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = _HYPHEN_BREAK.sub(r"\1\2", text)
    return text.replace("\u2019", "'").casefold()


def numbers(text: str) -> list[str]:
    """Figures in the text, normalized: no thousands separators, no trailing decimal zeros ('1,234.50' → '1234.5')."""
    out = []
    for raw in _NUMBER.findall(unicodedata.normalize("NFKC", text)):
        value = raw.replace(",", "").rstrip(",")
        if "." in value:
            value = value.rstrip("0").rstrip(".")
        value = value.lstrip("0") or "0"
        out.append(value)
    return out


def content_words(text: str) -> list[str]:
    """Lower-cased words of 3+ letters that carry meaning (stopwords dropped)."""
    return [w for w in _WORD.findall(_fold(text)) if w not in STOPWORDS]


def claim_support(claim: str, page_text: str, context_text: str | None = None) -> bool:
    """True when the claim's figures are all on the page and most of its content words are on it.

    `context_text` (the text of every page cited in the same bracket) may supply words and figures too, but at
    least one term must be found on `page_text` itself.
    """
    figures = set(numbers(claim))
    words = list(dict.fromkeys(content_words(claim)))
    if not figures and not words:
        return False
    own_figures, own_words = set(numbers(page_text)), set(content_words(page_text))
    pool_text = context_text if context_text is not None else page_text
    pool_figures = own_figures | set(numbers(pool_text))
    pool_words = own_words | set(content_words(pool_text))
    if not figures <= pool_figures:
        return False
    stems = {w[:STEM] for w in pool_words if len(w) >= STEM}
    own_stems = {w[:STEM] for w in own_words if len(w) >= STEM}

    def present(word: str, vocab: set[str], prefixes: set[str]) -> bool:
        if word in vocab or word.rstrip("s") in vocab or word + "s" in vocab:
            return True
        return len(word) >= STEM and word[:STEM] in prefixes

    found = sum(1 for w in words if present(w, pool_words, stems))
    own_hit = bool(figures & own_figures) or any(present(w, own_words, own_stems) for w in words)
    if not own_hit:
        return False
    if not words:
        return True
    needed = len(words) if len(words) < 3 else WORD_SHARE * len(words)
    return found >= needed
