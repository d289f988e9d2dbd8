"""People's names set bold are no sections: a signature block's or a directory's name over its office.

Filings and reports sign off with a name in bold over the signer's office ("John J. Donahoe II" over "President
and Chief Executive Officer"), often under a "/s/ JOHN J. DONAHOE II" line, and list their directors and
officers the same way, or as "Timothy S. Cahill (age 57), Executive Vice President". Set bold and title-cased,
such names pass every typographic heading test; what tells them apart is the office printed under them.
"""

from __future__ import annotations

import re

from pageindex_desktop.core.outline.layout_filters import Candidate
from pageindex_desktop.core.outline.row_index import ByTop, PagesByTop
from pageindex_desktop.core.outline.rows import Row

# words that name an office; a role line under a name holds one of them
_OFFICE = re.compile(
    r"\b(?:president|officer|director|chairman|chairwoman|chair|secretary|treasurer|controller|comptroller|counsel"
    r"|partner|principal|founder|ceo|cfo|coo|manager|dean|professor|fellow|trustee|governor|commissioner)s?\b",
    re.IGNORECASE,
)
# one word of a person's name: "John", "O’Neill", "McDonald", "Mónica", "J.", "Jr.", "II"
_NAME_WORD = re.compile(
    r"^(?:[^\W\d_a-z][^\W\d_A-Z]*(?:['’\-]?[^\W\d_a-z][^\W\d_A-Z]+)?,?|[^\W\d_a-z]\.|Jr\.|Sr\.|II|III|IV)$"
)
# "Timothy S. Cahill (age 57), Executive Vice President": an officer list's entry
_AGE = re.compile(r"^(?P<name>[^(]{3,60}?),?\s+\(age\s+[0-9]{2}\)")
ROLE_WORDS = 12
NAME_WORDS = 5


def is_name(text: str) -> bool:
    """Two to five words, each a capitalised name, an initial or a suffix, with no office in them: "John J.
    Donahoe II", "Alan Graf, Jr." ("Executive Officers" names an office: a heading, not a person)."""
    words = text.split()
    if not 2 <= len(words) <= NAME_WORDS or _OFFICE.search(text):
        return False
    if not all(_NAME_WORD.match(word) for word in words):
        return False
    return sum(1 for word in words if len(word.rstrip(",")) > 2) >= 2  # a given name and a surname at least


def _role(row: Row) -> bool:
    """A short line naming an office ("President and Chief Executive Officer"), set like a title, not a sentence
    nor a paragraph's first line: a heading's first line of prose may name an office too ("Service policy
    support partner to review by public ..." under "Capital Energy"), but in lower case."""
    words = row.text.split()
    if len(words) > ROLE_WORDS or row.text.endswith(".") or _OFFICE.search(row.text) is None:
        return False
    long_words = [word.lstrip("(") for word in words if len(word.strip("(),")) >= 4]
    return 2 * sum(1 for word in long_words if word[:1].isupper()) >= len(long_words)


def drop_signatures(candidates: list[Candidate], index: PagesByTop[Row]) -> list[Candidate]:
    """Candidates that are a person's name: a name whose next line below, in its own column, names an office,
    or under a "/s/" signature line, and an officer list's "Name (age 57), ..." entry."""
    kept = []
    for cand in candidates:
        m = _AGE.match(cand.text)
        if m is not None and is_name(m.group("name")):
            continue
        if is_name(cand.text) and _signed(cand, index.page(cand.row.page)):
            continue
        kept.append(cand)
    return kept


def _signed(cand: Candidate, rows: ByTop[Row]) -> bool:
    """True when the line just below the name, overlapping it across, names an office, or the line just above
    it is a "/s/" signature (two signers side by side each have their own office under their name)."""
    row = cand.row
    height = row.y1 - row.y0
    if height <= 0:
        return False
    below: Row | None = None
    above: Row | None = None
    low = min(cand.bottom - 0.3 * height, row.y0 - 1.5 * height - rows.tallest)  # an upper line's top
    for other in rows.starting(low, max(cand.bottom + 1.5 * height, row.y0 + 0.3 * height)):
        if other is row or other.x1 <= row.x0 or other.x0 >= row.x1:
            continue  # not in the name's column
        if cand.bottom - 0.3 * height <= other.y0 <= cand.bottom + 1.5 * height and (
                below is None or other.y0 < below.y0):
            below = other
        if row.y0 - 1.5 * height <= other.y1 <= row.y0 + 0.3 * height and (above is None or other.y1 > above.y1):
            above = other
    if above is not None and above.text.lower().startswith("/s/"):
        return True
    return below is not None and _role(below)
