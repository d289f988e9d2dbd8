"""Counts of things: "two contract manufacturers" in a claim against "15 contract manufacturers" on the page.

A count written as a word is no figure the figure check can miss or match, so a claim that changes "15" to
"a single" or "two" passed as long as its other words were printed. Here each count is read with the thing it
counts (the noun right after it); when the passage counts the same thing with other numbers only, the claim is
contradicted. "One of the factories" or "single-source" count nothing and are left alone.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from pageindex_desktop.core.assistant.citations.figures import WORD_NUMBERS
from pageindex_desktop.core.text import STOPWORDS, fold, stem

_COUNT_WORDS = {**{w: v for w, v in WORD_NUMBERS.items() if w not in ("half", "hundred")}, "single": 1}
_COUNT = re.compile(r"(?<![\w.,$€£%-])(\d{1,3}(?:,\d{3})*|" + "|".join(_COUNT_WORDS) + r")\s+((?:[a-z][\w-]*\s+){0,2}?)"
                    r"([a-z][a-z-]{3,})\b(?!\s+of\b)")
_NOT_A_COUNT_BEFORE = re.compile(r"(?:\b(?:no|item|note|part|section|rule|page|p|form|chapter|step|phase|tier|"
                                 r"level|of)\.?|[$€£(#§])\s*$")


def counts(text: str, words_only: bool = False) -> list[tuple[Decimal, str]]:
    """(value, stem of the counted noun) for every count in the text: digits or number words (only words with
    `words_only`), then up to two modifiers, then the noun ('15 contract manufacturers' → (15, 'contr'))."""
    folded = fold(text)
    found = []
    for match in _COUNT.finditer(folded):
        if words_only and match.group(1)[0].isdigit():
            continue
        if _NOT_A_COUNT_BEFORE.search(folded[max(0, match.start() - 10): match.start()]):
            continue
        number, noun = match.group(1), match.group(3)
        if noun in STOPWORDS or any(w in STOPWORDS for w in match.group(2).split()):
            continue  # "one of the factories" counts nothing
        value = _value(number)
        if value is not None:
            found.append((value, stem(noun)))
    return found


def _value(number: str) -> Decimal | None:
    if number in _COUNT_WORDS:
        return Decimal(_COUNT_WORDS[number])
    try:
        return Decimal(number.replace(",", ""))
    except InvalidOperation:
        return None


def conflict(claim: str, passage: str) -> str:
    """A reason when the passage counts what the claim counts, with other numbers only; else ''."""
    printed = counts(passage)
    for value, noun in counts(claim, words_only=True):  # a claim's digits are the figure check's
        same_thing = [v for v, n in printed if n == noun]
        if same_thing and value not in same_thing:
            return f"the passage counts {_number(same_thing[0])} of them, not {_number(value)}"
    return ""


def _number(value: Decimal) -> str:
    return f"{value:,f}".rstrip("0").rstrip(".") if "." in f"{value}" else f"{int(value):,}"
