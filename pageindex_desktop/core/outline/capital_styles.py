"""Capitals over mixed case at one size: the rank of two unnumbered heading styles that differ in case.

`style_levels.style_levels` ranks styles of one size bold first. A document that sets its sections in plain
capitals and their sub-sections in bold upper and lower case at the same size ("CAPITAL RISK MANAGEMENT" over
"Capital actions", a bank's 10-Q; a government report's "BACKGROUND" over "Program History") then comes out
upside down: every section hangs under the last bold sub-section before it. Capitals above mixed case is the
older convention of house style guides, and the order of the headings confirms it: the capitals style comes
first and its headings open groups of the mixed-case ones. The look alone is not enough, since a paper's
"ABSTRACT" in capitals may precede sections set in bold title case; so the reorder needs that evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

Style = tuple[float, bool, str]

_ASIDE = re.compile(r"\([^)]*\)")
MIN_LETTERS = 6  # fewer letters say nothing of case: "NSFR", "LCR", "Q&A"
CASE_SHARE = 0.8  # share of a style's telling headings that must be in one case
MIN_PARENTS = 3  # capitals headings that must each open a group of mixed-case headings (two: a report's
# "EXECUTIVE SUMMARY" and "REFERENCES" around sections in its bold face)


class _Titled(Protocol):
    text: str


T = TypeVar("T", bound=_Titled)


def letter_case(text: str) -> str | None:
    """"upper" for a title in capitals, "mixed" for one with lower-case letters, None when too short to tell.
    A parenthesis is no part of the title's case: "RECENT NOTABLE DEVELOPMENTS (Since May 2, 2023)"."""
    letters = [ch for ch in _ASIDE.sub("", text) if ch.isalpha()]
    if len(letters) < MIN_LETTERS:
        return None
    return "mixed" if any(ch.islower() for ch in letters) else "upper"


def capitals_above(ranked: list[Style], candidates: Sequence[T], style_of: Callable[[T], Style],
                   unnumbered: frozenset[str], titled: frozenset[str]) -> list[Style]:
    """`ranked` (styles, top first) with each `unnumbered` capitals style moved just above the mixed-case
    styles of its size that rank above it (those of a `titled` kind: unnumbered, or a note's "Note 4 - Debt"
    its face shares), when the headings show the capitals are the outer level: the first of the two styles'
    headings is in capitals, and three or more capitals headings are each followed by mixed-case ones before
    the next capitals heading."""
    case = _style_cases(candidates, style_of)
    out = list(ranked)
    for caps in [s for s in ranked if case.get(s) == "upper" and s[2] in unnumbered]:
        above = [s for s in out[:out.index(caps)]
                 if s[0] == caps[0] and case.get(s) == "mixed" and s[2] in titled]
        if above and all(_opens_groups(candidates, style_of, caps, mixed) for mixed in above):
            out.remove(caps)
            out.insert(out.index(above[0]), caps)
    return out


def _style_cases(candidates: Sequence[T], style_of: Callable[[T], Style]) -> dict[Style, str]:
    """Style -> "upper" or "mixed" when nearly all its headings that tell are in that case."""
    counts: dict[Style, dict[str, int]] = {}
    for cand in candidates:
        found = letter_case(cand.text)
        if found is not None:
            tally = counts.setdefault(style_of(cand), {"upper": 0, "mixed": 0})
            tally[found] += 1
    out: dict[Style, str] = {}
    for style, tally in counts.items():
        total = tally["upper"] + tally["mixed"]
        for name, count in tally.items():
            if count >= 2 and count >= CASE_SHARE * total:
                out[style] = name
    return out


def _opens_groups(candidates: Sequence[T], style_of: Callable[[T], Style], caps: Style,
                  mixed: Style) -> bool:
    """`_leads` over the headings of the two styles, in order."""
    return _leads([style_of(c) for c in candidates if style_of(c) in (caps, mixed)], caps, mixed)


def _leads(sequence: Sequence[object], outer: object, inner: object) -> bool:
    """True when `sequence` (the headings' styles or cases, in order) opens with `outer` and at least
    `MIN_PARENTS` of its `outer` items are each followed right away by an `inner` one."""
    if not sequence or sequence[0] != outer:
        return False
    return sum(here == outer and after == inner for here, after in zip(sequence, sequence[1:])) >= MIN_PARENTS


class _Styled(Protocol):
    text: str
    style: Style


def capitals_apart(candidates: Sequence[_Styled], kind: str) -> None:
    """Give the capitals headings of an unnumbered style that mixes cases a style of their own (`kind`), in
    place, when the order of its headings shows capitals are its outer level: a release sets "DISCUSSION OF
    FIRST QUARTER SEGMENT RESULTS" and its "Entertainment", "Sports" in one bold face, and as one style they
    were one flat level. The evidence is `capitals_above`'s: the first heading that tells is in capitals, and
    three or more capitals headings are each followed by a mixed-case one. Headings too short to tell keep the
    style's own rank."""
    members: dict[Style, list[_Styled]] = {}
    for cand in candidates:
        if cand.style[2] == "none":
            members.setdefault(cand.style, []).append(cand)
    for style, group in members.items():
        told = [(cand, letter_case(cand.text)) for cand in group]
        if not _leads([case for _cand, case in told if case is not None], "upper", "mixed"):
            continue
        for cand, case in told:
            if case == "upper":
                cand.style = (style[0], style[1], kind)
