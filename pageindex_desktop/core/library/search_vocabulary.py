"""The words analysts ask with and the words filings print: one group of interchangeable terms per concept.

An analyst asks for Nike's "headcount", "sales" or "buybacks"; the 10-K prints "employees", "revenues" and
"repurchases". Search treats the terms of a group as one concept, so a question finds the page in the filer's own
words. The groups are the general vocabulary of financial reporting (US GAAP and IFRS terms, SEC form items),
not tuned to any document. Words are matched as prefixes where that is safe, so plurals come for free.
"""

from __future__ import annotations

import re

_GROUPS = [
    ["revenue", "revenues", "sales", "net sales", "turnover"],
    ["headcount", "employees", "workforce", "staff", "personnel"],
    ["headquarters", "headquartered", "head office", "principal executive offices", "corporate offices",
     "corporate headquarters", "global headquarters"],
    ["buyback", "buybacks", "buy back", "repurchase", "repurchases", "repurchased"],
    ["eps", "earnings per share"],
    ["profit", "net income", "net earnings", "earnings"],
    ["r&d", "research and development"],
    ["debt", "borrowings", "notes payable"],
    ["plants", "manufacturing facilities", "factories", "production facilities"],
    ["lawsuits", "litigation", "legal proceedings"],
    ["auditor", "independent registered public accounting firm", "statutory auditor"],
    ["guidance", "outlook", "expect", "expects", "forecast", "plan", "plans"],  # "plans to buy back" → "expects to"
    ["dividend", "dividends", "distributions"],
    ["capex", "capital expenditures", "capital spending", "purchases of property"],
    ["cash", "cash and cash equivalents"],
    ["shareholders", "stockholders", "shareowners"],
    ["u s", "united states"],  # "US" / "U.S." as a question types it; the index holds "U.S." as "u s"
    ["u k", "united kingdom"],
    ["q1", "first quarter", "1q"],  # quarters: ranked where printed, never required (PERIODS)
    ["q2", "second quarter", "2q"],
    ["q3", "third quarter", "3q"],
    ["q4", "fourth quarter", "4q"],
]
# A period a question names that the answering statement prints as its dates ("Three Months Ended March 31",
# "12 Weeks Ended 6/17/2023"), not in words: the first form of each such group
PERIODS = frozenset({"q1", "q2", "q3", "q4"})
_INDEX = {term: group for group in _GROUPS for term in group}
_FISCAL = re.compile(r"^fy'?(\d{2}|\d{4})$")
_POSSESSIVE = re.compile(r"['’]s?$")


_COUNTRIES = {"us": "u s", "u.s": "u s", "u.s.": "u s", "usa": "u s", "uk": "u k", "u.k": "u k", "u.k.": "u k"}


def country(token: str) -> str | None:
    """The indexed form of a country abbreviation typed in capitals ("US", "U.S." → "u s"); None for other words
    (a lower-case "us" is the pronoun)."""
    if not token.replace(".", "").isupper():
        return None
    return _COUNTRIES.get(token.casefold())


def base_word(word: str) -> str:
    """A query word as the page prints it: "nike's" → "nike", "mills'" → "mills", "fy23" → "2023"."""
    word = _POSSESSIVE.sub("", word)
    fiscal = _FISCAL.match(word)
    if fiscal:
        year = fiscal.group(1)
        return year if len(year) == 4 else "20" + year
    return word


def alternatives(word: str) -> list[str]:
    """The terms that mean the same as `word` in a filing (itself first)."""
    group = _INDEX.get(word)
    return [word, *(t for t in group if t != word)] if group else [word]


def concepts(words: list[str]) -> list[list[str]]:
    """The question's words as concepts, in order: consecutive words that form one known term ("net income",
    "head office") are one concept; each concept lists its alternatives."""
    out: list[list[str]] = []
    index = 0
    while index < len(words):
        for size in (3, 2, 1):
            term = " ".join(words[index:index + size])
            if size == 1 or (index + size <= len(words) and term in _INDEX):
                out.append(alternatives(term))
                index += size
                break
    return out
