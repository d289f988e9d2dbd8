"""Which way a clause points: negated or not, and whether it says a quantity went up, down or stayed flat.

A claim that says "did not" where the page says "did", or "decreased" where the page says "increased", uses
the page's own words: only polarity tells them apart. Phrases that look negative but assert nothing negative
("not only", "no later than", "not limited to", "whether or not") are set aside first.
"""

from __future__ import annotations

import re
from typing import Callable

from pageindex_desktop.core.text import fold

_NOT_NEGATIONS = re.compile(
    r"\b(?:not only|no later than|not later than|no less than|not less than|no more than|not more than|"
    r"no fewer than|whether or not|not limited to|not necessarily|if not|no\.\s?\d|nothing but|"
    r"no matter|none other than|no longer than|not just)\b"
)
_NEGATION = re.compile(
    r"\b(?:not|no|never|none|neither|nor|nothing|nobody|without|cannot|unable|fail(?:s|ed)?\s+to|lack(?:s|ed)?|"
    r"absent|unchanged|ceased|denied|refused|declined\s+to|"
    r"nicht|kein|keine|keinen|keiner|keinem|keines|nie|niemals|ohne|pas|jamais|aucun|aucune|sans|nunca|sin|"
    r"ningún|ninguna)\b|n't\b"
)
UP = frozenset(
    """increase increased increases increasing rise rises rose risen rising grew grow grows growing grown growth
    higher up gain gained gains improve improved improves improvement expand expanded expansion raised
    raise raises larger greater exceeded accelerated strengthened""".split()
)
DOWN = frozenset(
    """decrease decreased decreases decreasing decline declined declines declining fall falls fell fallen
    falling drop dropped drops dropping lower down reduce reduced reduces reduction reductions shrank shrink
    contracted contraction smaller fewer weakened slowed decelerated deteriorated""".split()
)


SCOPE = 5  # words after a negation that it is taken to govern


def negated(text: str) -> bool:
    """Whether the text negates what it says (an odd number of negations)."""
    folded = _NOT_NEGATIONS.sub(" ", fold(text))
    return len(_NEGATION.findall(folded)) % 2 == 1


def negated_about(text: str, anchors: set[str], stem: Callable[[str], str]) -> bool:
    """Whether the text negates what it says about the anchors: an odd number of negations that have an anchor
    word within the next few words ("we are not providing guidance … as we do not believe our views …" negates
    the guidance, not the views)."""
    folded = _NOT_NEGATIONS.sub(" ", fold(text))
    count = 0
    for match in _NEGATION.finditer(folded):
        rest = re.split(r"[,;:.!?]", folded[match.end() :], maxsplit=1)[0]  # a negation governs its own clause
        following = re.findall(r"[^\W\d_]+", rest)[:SCOPE]
        if any(stem(w) in anchors for w in following):
            count += 1
    return count % 2 == 1


_FLAT = re.compile(r"\b(?:little changed|(?:essentially |largely |virtually )?(?:unchanged|flat)|held steady|"
                   r"remained (?:steady|stable)|stabili[sz]ed)\b")


def direction(text: str) -> str:
    """'up', 'down', 'flat' ("little changed", "held steady"), or '' when the text names none or several."""
    folded = fold(text)
    tokens = set(re.findall(r"[a-z]+", folded))
    ways = [way for way, found in (("up", bool(tokens & UP)), ("down", bool(tokens & DOWN)),
                                   ("flat", bool(_FLAT.search(folded)))) if found]
    return ways[0] if len(ways) == 1 else ""
