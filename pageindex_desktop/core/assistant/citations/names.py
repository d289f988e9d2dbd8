"""The names a claim makes (companies, places, products, people) and whether a stretch of text prints them.

A name is a run of capitalised words that is not a common word, a month or a unit ("2,300 MW"); a possessive
ends one ("General Mills' Häagen-Dazs Japan" is two). A capital that only opens the sentence is no evidence of a
name, so such a first word counts only if the page prints it. The document's own name (its title, file name and
cover) need not be printed on every page it is cited for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pageindex_desktop.core.text import fold, words

_CAPITALISED = re.compile(
    r"(?<![\w-])(?:[A-Z][\w&'’.-]*[A-Za-z0-9]|[A-Z])(?:\s+(?:of\s+|&\s+|and\s+|de\s+)?[A-Z][\w&'’.-]*[A-Za-z0-9])*"
)
_POSSESSIVE = re.compile(r"(?:'s|’s|s'|s’)$")
COMMON_CAPITALISED = frozenset(
    """the a an in on at for as by to of and or but this that these those it its our we they their he she
    according also however overall both each net total during while although based since after before from
    with under over into company companies corporation corp inc ltd llc plc group board committee management
    report annual quarter fiscal year note notes item part section table figure page exhibit schedule
    statement statements consolidated first second third fourth q1 q2 q3 q4 fy january february march april may
    june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday
    tuesday wednesday thursday friday i ii iii iv v vi no nos besides excluding including other another all
    any most some such these mr mrs ms dr chair chairman ceo cfo president vice chief officer executive
    about approximately around nearly roughly almost only just more less fewer than when where what which
    who how why there here then thus therefore meanwhile despite because""".split()
)


@dataclass(frozen=True)
class Name:
    """A name as the claim writes it; `opening`: its first word only opens the sentence."""

    text: str
    opening: bool = False

    @property
    def folded(self) -> str:
        """The name as the checker compares it."""
        return fold(self.text)


def names(text: str) -> list[Name]:
    """The names in `text`, in order, without repeats."""
    out: list[Name] = []
    for match in _CAPITALISED.finditer(text):
        before = text[: match.start()].rstrip()
        if before[-1:].isdigit() or re.search(r"\d[\d,.]*\s*$", before):
            continue  # "2,300 MW": a unit
        opening = not before or before.endswith((".", ":", "\n", "!", "?", "•", "-"))
        for part in _split_possessive(match.group(0)):
            tokens = [t for t in part.split() if t.casefold().strip(".,") not in COMMON_CAPITALISED and len(t) > 1]
            if not tokens:
                continue
            first_opens = opening and part is not None and match.group(0).startswith(tokens[0])
            name = Name(" ".join(tokens).strip(".,’'"), first_opens)
            if name.text and all(n.text != name.text for n in out):
                out.append(name)
            opening = False
    return out


def _split_possessive(run: str) -> list[str]:
    """'General Mills' Häagen-Dazs Japan' → ['General Mills', 'Häagen-Dazs Japan']."""
    parts: list[str] = []
    current: list[str] = []
    for token in run.split():
        if _POSSESSIVE.search(token):
            current.append(_POSSESSIVE.sub("", token) if not token.endswith(("s'", "s’")) else token[:-1])
            parts.append(" ".join(current))
            current = []
        else:
            current.append(token)
    if current:
        parts.append(" ".join(current))
    return [p for p in parts if p]


def printed(name: Name, folded_text: str) -> bool:
    """Whether `folded_text` prints the name: as written, most of its words, or its initials ('DCG'); a first
    word that only opens the sentence may be missing."""
    if _prints(name.folded, folded_text):
        return True
    if name.opening and " " in name.text:
        return _prints(fold(name.text.split(" ", 1)[1]), folded_text)
    return False


def _prints(folded: str, text: str) -> bool:
    if _contains(text, folded):
        return True
    parts = [w for w in words(folded) if len(w) > 2 and w not in COMMON_CAPITALISED]
    if len(parts) >= 2 and sum(1 for p in parts if re.search(r"(?<!\w)" + re.escape(p[:5]), text)) * 2 > len(parts):
        return True
    squeezed = folded.replace(" ", "")
    if len(squeezed) >= 4 and squeezed != folded and squeezed in text.replace(" ", ""):
        return True  # "General Mills" in "generalmills"
    initials = "".join(w[0] for w in words(folded))
    if len(initials) >= 2 and " " in folded and _contains(text, initials):
        return True
    return " " not in folded and 2 <= len(folded) <= 6 and _spelled_out(folded, text)


def _spelled_out(acronym: str, text: str) -> bool:
    """Whether the text spells an acronym out ('EPS': 'earnings per share', 'FM': 'frequency-modulated')."""
    letters = [w for w in words(text) if len(w) > 1]
    size = len(acronym)
    for start in range(len(letters) - size + 1):
        if "".join(w[0] for w in letters[start : start + size]) == acronym:
            return True
    return False


def _contains(text: str, phrase: str) -> bool:
    return bool(phrase) and re.search(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", text) is not None
