"""The words analysts ask with and the words filings print: one group of interchangeable terms per concept.

An analyst asks for Nike's "headcount", "sales" or "buybacks"; the 10-K prints "employees", "revenues" and
"repurchases". Search treats the terms of a group as one concept, so a question finds the page in the filer's own
words. The groups are the general vocabulary of financial reporting (US GAAP and IFRS terms, SEC form items),
not tuned to any document. Words are matched as prefixes where that is safe, so plurals come for free.
"""

from __future__ import annotations

import re

_GROUPS = [
    ["revenue", "revenues", "net revenue", "net revenues", "sales", "net sales", "turnover"],
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
    # fiscal periods: ranked where printed, never required (PERIODS); each also takes its span's forms (_SPANS)
    ["q1", "first quarter", "1q"],
    ["q2", "second quarter", "2q"],
    ["q3", "third quarter", "3q"],
    ["q4", "fourth quarter", "4q"],
    ["quarter"],  # "in the quarter"
    ["h1", "first half", "1h"],
    ["9m", "first nine months", "nine months"],
]
# How a statement heads a period's column: by its length, never its name ("Three Months Ended March 31",
# "12 Weeks Ended 6/17/2023", "Six Months Ended"). A quarter is 3 months, or 12-14 weeks (16-17 for the last of
# a 52-53-week year that counts 12-12-12-16, as many retailers and food companies do); a half 6 months, 24-28
# weeks; nine months 36-40 weeks. A question's "Q2" then finds the statement that prints only its dates.
_QUARTER_SPANS = ["three months ended", "3 months ended", "quarter ended", "quarters ended", "12 weeks", "13 weeks",
                  "14 weeks", "16 weeks", "17 weeks"]
_SPANS = {
    **{head: _QUARTER_SPANS for head in ("q1", "q2", "q3", "q4", "quarter")},
    "h1": ["six months ended", "6 months ended", "24 weeks", "26 weeks", "28 weeks"],
    "9m": ["nine months ended", "9 months ended", "36 weeks", "39 weeks", "40 weeks"],
}
# A period a question names, which the answering statement may print only as its dates: the group heads
PERIODS = frozenset(_SPANS)
_INDEX = {term: group for group in _GROUPS for term in group}

# Words a question asks for the whole company with, not a segment's figure ("total headcount", "firm-wide
# revenue"): a filing prints a segment's table with the same row labels as the company's, and only the page's
# heading tells them apart. The words are dropped (the page that answers need not print them) and such a
# question prefers pages headed as the whole company's (WHOLE_HEAD).
WHOLE_WORDS = frozenset({"total", "overall", "firmwide", "firm-wide", "companywide", "company-wide", "group-wide",
                         "enterprise-wide", "consolidated", "entire", "whole"})
# A heading of the whole company's figures: "Consolidated Statements of Income", "Consolidated financial
# highlights", "Firmwide …", "Total Company". Not "Notes to Consolidated Financial Statements", which heads every
# note of a 10-K whatever the note is about.
WHOLE_HEAD = re.compile(r"(?<!notes to )(?<!notes to condensed )\bconsolidated\b|\b(?:firm|company|enterprise|group)"
                        r"[\s-]?wide\b|\btotal company\b")
# The figures a company's financial statements print. A question asking one of them about the company itself
# ("What were PepsiCo's net revenues?") asks for the consolidated figure, not a segment's; a question about its
# employees or its auditor does not, and the consolidated statements are no better pages for it.
STATEMENT_ITEMS = frozenset(term for group in _GROUPS
                            if group[0] in {"revenue", "eps", "profit", "r&d", "debt", "capex", "cash"}
                            for term in group)
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
    if not group:
        return [word]
    spans = _SPANS.get(group[0], [])
    return [word, *(t for t in group if t != word), *(t for t in spans if t != word)]


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
