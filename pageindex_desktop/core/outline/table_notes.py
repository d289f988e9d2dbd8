"""A table's unit and audit notes ("(in millions, except per share data)", "(unaudited)"): not part of a title.

Financial statements and the tables of reports print the units of their figures and whether they were audited
beside or under the table's title, in the title's face. Joined to the title they hide it from a reader who
looks for "Consolidated Balance Sheets"; on a line of their own they are read as headings of their own. Both
heading finders see them alike, so the rule lives here, apart from either.
"""

from __future__ import annotations

import re

_PREFIX = r"(?:(?:u\.?s\.?\s+)?(?:dollars|amounts|figures|euros|shares|\$|€|£)\s+)?"
_NOTE = rf"{_PREFIX}(?:in\s+(?:thousands|millions|billions)\b|unaudited\b)"
# the note closing a title: "Consolidated Statements of Earnings (in millions, except per share data)"; the
# bracket may be left open when the note wraps onto the next line
_TRAILING = re.compile(rf"\s*[(\[]\s*{_NOTE}[^()\[\]]*[)\]]?\s*$", re.IGNORECASE)
# a line that is only a note: "(unaudited)", "In Billions", "(Dollars in thousands)", "In Millions, Except
# per Share Data 2023 2022"
_ALONE = re.compile(rf"^\s*[(\[]?\s*{_NOTE}", re.IGNORECASE)
ALONE_WORDS = 10


def strip_unit_note(title: str) -> str:
    """`title` without a trailing unit or audit note; the title itself when nothing would be left."""
    if "(" not in title and "[" not in title:
        return title  # the common case, without running the pattern
    stripped = _TRAILING.sub("", title)
    return stripped if stripped.strip() else title


def is_unit_note(text: str) -> bool:
    """True when the line is only a unit or audit note (at most ALONE_WORDS words), not a title."""
    return len(text.split()) <= ALONE_WORDS and _ALONE.match(text) is not None


_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
# the period a statement covers, closing its title in a filing's contents: "... (unaudited) for the three months
# ended March 31, 2022 and 2021", "... at March 31, 2022 and December 31, 2021", "... for the years ended ..."
_PERIOD = re.compile(
    r"\s*(?:[(\[]\s*unaudited\s*[)\]]\s*)?,?\s*\b(?:for\s+the\s+(?:(?:three|six|nine|twelve|[0-9]{1,2})\s+months"
    r"|(?:fiscal\s+)?years?|quarters?|periods?)\s+ended\b|(?:at|as\s+of)\s+" + _MONTH + r"\s+[0-9]{1,2},?\s+[0-9]{4}\b).*$",
    re.IGNORECASE,
)


def strip_period(title: str) -> str:
    """`title` without the period it covers and its audit note ("Consolidated balance sheets (unaudited) at March
    31, 2022 and December 31, 2021" -> "Consolidated balance sheets"): the dates qualify the statement, the body
    titles it without them. The title itself when fewer than two words would be left."""
    stripped = strip_unit_note(_PERIOD.sub("", title))
    return stripped if len(stripped.split()) >= 2 else title
