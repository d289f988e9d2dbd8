"""The rule verdict: does the passage that best matches a claim state it, contradict it, or not say it?

A claim is *checked* only when its passage states every figure it makes (same value after units), shares most of
its words, agrees in polarity (negation, up or down), names what it names, and binds its figures and names the
same way. It is *contradicted* when that passage states the same quantity with another value or says the
opposite. Anything else is *unverified*, with the reason. Each reason is one phrase the pane and the CLI show.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pageindex_desktop.core.citations.figures import Figure, conflicts, figures, same_value, word_numbers
from pageindex_desktop.core.citations.passage import Passage, best_clause, best_window, claim_stems, clauses, text_stems
from pageindex_desktop.core.citations.polarity import direction, negated
from pageindex_desktop.core.citations.text import fold, words

CHECKED, UNVERIFIED, CONTRADICTED = "checked", "unverified", "contradicted"
WORD_SHARE = 0.6
SMALL_CLAIM = 3

_CAPITALISED = re.compile(r"\b(?:[A-Z][\w&'’.-]*[A-Za-z0-9]|[A-Z])(?:\s+(?:of\s+|&\s+|and\s+)?[A-Z][\w&'’.-]*[A-Za-z0-9])*")
COMMON_CAPITALISED = frozenset(
    """the a an in on at for as by to of and or but this that these those it its our we they their he she
    according also however overall both each net total during while although based since after before from
    with under over under into company companies corporation group board committee management report annual
    quarter fiscal year note item part section table figure page exhibit schedule statement statements
    consolidated first second third fourth first-quarter q1 q2 q3 q4 january february march april may june
    july august september october november december monday tuesday wednesday thursday friday i ii iii iv v""".split()
)


@dataclass(frozen=True)
class RuleVerdict:
    """The verdict, its reason (a phrase; '' when checked), the passage judged, and whether a model judge may
    revise it (`firm`: figures or polarity decided it, or the evidence is strong)."""

    verdict: str
    reason: str
    passage: Passage
    firm: bool


def judge(claim: str, page_text: str, exempt: frozenset[str] = frozenset()) -> RuleVerdict:
    """Judge `claim` against the best passage of `page_text`; `exempt` words (the document's own name) need
    not be printed on the page."""
    if not page_text.strip():
        return RuleVerdict(UNVERIFIED, "the page has no text to check against", Passage(0, 0, ""), True)
    passage = best_window(claim, page_text)
    claimed = figures(claim)
    wanted = claim_stems(claim)
    if not claimed and not wanted:
        return RuleVerdict(UNVERIFIED, "the citation has no claim to check", passage, True)
    printed = figures(passage.text)
    page_folded = fold(page_text)
    for figure in claimed:
        if _stated(figure, printed, passage.text, page_text):
            continue
        other = _conflicting(figure, printed, claim, passage.text)
        if other is not None:
            return RuleVerdict(CONTRADICTED, f"the passage gives {other.text}, not {figure.text}", passage, True)
        return RuleVerdict(UNVERIFIED, f"{figure.text} is not in the passage", passage, True)
    shared = text_stems(passage.text) & wanted
    needed = len(wanted) if len(wanted) < SMALL_CLAIM else WORD_SHARE * len(wanted)
    if len(shared) < needed:
        return RuleVerdict(UNVERIFIED, "the claim was not found on the page", passage, False)
    clause = best_clause(claim, passage.text)
    if negated(claim) != negated(clause) and _polarity_counts(claim, clause):
        return RuleVerdict(CONTRADICTED, "the passage says the opposite (negation)", passage, True)
    up_down, printed_way = direction(claim), direction(clause)
    if up_down and printed_way and up_down != printed_way:
        return RuleVerdict(CONTRADICTED, f"the passage says it went {printed_way}, not {up_down}", passage, True)
    names = _names(claim, exempt)
    for name in names:
        if not _printed(name, page_folded):
            return RuleVerdict(UNVERIFIED, f"“{name}” is not on the page", passage, True)
    swapped = _swapped(claimed, names, passage.text)
    if swapped:
        return RuleVerdict(UNVERIFIED if "name" in swapped else CONTRADICTED, swapped, passage, True)
    firm = bool(claimed) or len(shared) >= 0.8 * len(wanted)
    return RuleVerdict(CHECKED, "", passage, firm)


def _stated(figure: Figure, printed: list[Figure], passage: str, page_text: str) -> bool:
    """A figure is stated when the passage prints it; a year may be printed anywhere on the page (a table's
    column header), and a small count may be written out ('three segments')."""
    if any(same_value(figure, p) for p in printed):
        return True
    if figure.kind == "year":
        return any(same_value(figure, p) for p in figures(page_text))
    if figure.kind == "number" and figure.exponent == 0:
        return figure.value in word_numbers(passage)
    return False


def _conflicting(figure: Figure, printed: list[Figure], claim: str, passage: str) -> Figure | None:
    """A printed figure of the same kind that the claim's words point at instead (the changed number's original)."""
    if figure.kind == "year":
        return None
    clause = best_clause(claim, passage)
    near = [p for p in figures(clause) if conflicts(figure, p)]
    if near:
        return near[0]
    shared = text_stems(passage) & claim_stems(claim)
    if len(shared) >= max(2, 0.5 * len(claim_stems(claim))):
        candidates = [p for p in printed if conflicts(figure, p)]
        if candidates:
            return candidates[0]
    return None


def _polarity_counts(claim: str, clause: str) -> bool:
    """A polarity difference counts when the clause is really about the claim (most of its words are shared)."""
    wanted = claim_stems(claim)
    return bool(wanted) and len(text_stems(clause) & wanted) >= max(2, 0.5 * len(wanted))


def _names(claim: str, exempt: frozenset[str]) -> list[str]:
    """The claim's names: runs of capitalised words past the first word, less common words and exempt ones."""
    out: list[str] = []
    for match in _CAPITALISED.finditer(claim):
        tokens = [t for t in re.split(r"\s+", match.group(0).strip(".’'")) if t]
        if match.start() == 0 or claim[: match.start()].rstrip().endswith((".", ":", "\n")):
            tokens = tokens[1:] if tokens and tokens[0].lower() in COMMON_CAPITALISED or len(tokens) == 1 else tokens
        kept = [t for t in tokens if t.lower().strip(".,’'s") not in COMMON_CAPITALISED]
        kept = [t for t in kept if fold(t).strip(".,") not in exempt and len(t) > 1]
        if kept:
            name = " ".join(kept).removesuffix("'s").removesuffix("’s").strip(".,")
            if name and name not in out:
                out.append(name)
    return out


def _printed(name: str, page_folded: str) -> bool:
    """Whether a name is printed on the page: as written, word by word, or as its initials ('DCG')."""
    folded = fold(name)
    if re.search(r"(?<!\w)" + re.escape(folded) + r"(?!\w)", page_folded):
        return True
    parts = [w for w in words(name) if len(w) > 2]
    if parts and all(re.search(r"(?<!\w)" + re.escape(p[:5]), page_folded) for p in parts):
        return True
    initials = "".join(w[0] for w in words(name))
    return len(initials) >= 2 and re.search(r"\b" + re.escape(initials) + r"\b", page_folded) is not None


def _swapped(claimed: list[Figure], names: list[str], passage: str) -> str:
    """A reason when the passage binds the claim's figure to another name, or its name to another figure (the
    claim was assembled from the page's words); '' otherwise."""
    pieces = [(fold(c), _clause_names(c)) for c in clauses(passage)]
    mine = {fold(n) for n in names}
    for name in mine:
        holding = [i for i, (c, _) in enumerate(pieces) if _contains(c, name)]
        if not holding:
            continue
        for figure in claimed:
            if figure.kind == "year":
                continue
            with_figure = [i for i, (c, _) in enumerate(pieces) if any(same_value(figure, p) for p in figures(c))]
            if not with_figure or set(with_figure) & set(holding):
                continue
            own = [p for i in holding for p in figures(pieces[i][0]) if p.kind == figure.kind
                   and not same_value(figure, p)]
            foreign = [n for i in with_figure for n in pieces[i][1] if not _overlaps(n, mine)]
            if own and foreign:
                return f"the passage gives {own[0].text} for {name}, and {figure.text} for {foreign[0]}"
        for other in mine:
            if other == name or other in name or name in other:
                continue
            with_other = [i for i, (c, _) in enumerate(pieces) if _contains(c, other)]
            if not with_other or set(with_other) & set(holding):
                continue
            strange = [n for i in holding for n in pieces[i][1] if not _overlaps(n, mine)]
            strange_other = [n for i in with_other for n in pieces[i][1] if not _overlaps(n, mine)]
            if strange and strange_other:
                return f"the passage ties “{name}” to {strange[0]}, not to “{other}” (name)"
    return ""


def _contains(text: str, name: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text) is not None


def _overlaps(name: str, names: set[str]) -> bool:
    return any(name in n or n in name for n in names)


def _clause_names(clause: str) -> list[str]:
    """The folded names a printed clause contains (capitalised runs less common words)."""
    return [fold(n) for n in _names(clause, frozenset())]
