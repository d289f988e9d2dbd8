"""Table rows as PDF text gives them: a label line, then one line per cell, under a header of years.

MuPDF writes a financial table cell by cell ("iPhone (1)", "$", "205,489", "7 % $", "191,973", …) after a header
whose years may share a line ("2022 Change 2021 Change 2020") or stand one per line ("2023", "2022", "Change",
…). Reading the rows back lets a claim's figure be placed in its row (what it is) and its column (which year).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pageindex_desktop.core.assistant.citations.figures import Figure, figures

_YEAR = re.compile(r"(?<!\d)(?:\d{1,2}/\d{1,2}/)?((?:19|20)\d{2})(?!\d)")
_CELL = r"(?:[$€£¥]\s*)?\(?[-–]?\d[\d,.]*\s*%?\)?\s*%?|[$€£¥]|nm|n/a|—|–|-|\*"
_VALUE_LINE = re.compile(rf"^\s*(?:{_CELL})(?:\s+(?:{_CELL}))*\s*$", re.I)
_FOOTNOTE = re.compile(r"(?<=[A-Za-z)])\(\d{1,2}\)|\*+")
SHORT_LABEL = 8  # words of a one-column row's label
HEADER_WORDS = 4  # a line of at most this many words and no figures may sit inside a header (e.g. "Change")


@dataclass
class Row:
    """One table row: its label, its amounts left to right (percentages left out) and the years above them."""

    label: str
    values: list[Figure] = field(default_factory=list)
    years: list[int] = field(default_factory=list)
    periods: list[str] = field(default_factory=list)  # the header's period groups, left to right ("quarter", "six")

    def period_of(self, index: int) -> str | None:
        """The period group ("quarter", "six", "nine", "year") of value `index`, when the header names two or
        more periods that split the row's values evenly ("Second-Quarter … Six Months" over 2023 2022 2023 2022)."""
        if len(self.periods) < 2 or len(self.values) % len(self.periods):
            return None
        return self.periods[index // (len(self.values) // len(self.periods))]

    def year_of(self, index: int) -> int | None:
        """The column year of value `index`, when the header's years fit the row (whole repeats of them)."""
        for header in (self.years, list(dict.fromkeys(self.years))):
            if header and len(self.values) % len(header) == 0:
                return header[index % len(header)]
        return None


_PERIOD = re.compile(
    r"^(?:(?P<quarter>(?:first|second|third|fourth|1st|2nd|3rd|4th)[- ]quarter|q[1-4]|three months|13 weeks|"
    r"12 weeks|quarter)|(?P<six>six months|first half|half[- ]year|26 weeks|24 weeks)|(?P<nine>nine months|"
    r"39 weeks|36 weeks)|(?P<year>full[- ]year|twelve months|year ended|fiscal year|52 weeks|53 weeks))\b", re.I)
PERIOD_WORDS = 6  # a header's period line is short ("Three Months Ended")


def period(text: str) -> str | None:
    """The period a header line or a claim's phrase names: 'quarter', 'six', 'nine' or 'year'."""
    found = _PERIOD.match(text.strip())
    return found.lastgroup if found else None


def _years_only(line: str) -> list[int]:
    found = [int(y) for y in _YEAR.findall(line)]
    if found and not re.search(r"\d", _YEAR.sub(" ", line)):
        return found
    return []


def rows(page_text: str) -> list[Row]:
    """The table rows of a page (see `_is_row`), with the years of the header above them."""
    out: list[Row] = []
    pending: list[int] = []  # header years read since the last row
    header: list[int] = []
    pending_periods: list[str] = []  # header period groups read since the last row
    periods: list[str] = []
    current: Row | None = None
    for raw in page_text.splitlines():
        line = raw.strip()
        if not line:
            continue
        years = _years_only(line)
        if years and (current is None or not current.values):
            pending += years
            continue
        named = period(line) if len(line.split()) <= PERIOD_WORDS else None
        if named and (current is None or not current.values):
            pending_periods.append(named)
            continue
        if _VALUE_LINE.match(line) and current is not None:
            if len(pending) >= 2:
                header, pending = pending, []
                periods, pending_periods = pending_periods, []
            current.values += [f for f in figures(line) if f.kind in {"money", "number"}]
            current.years = header
            current.periods = periods
            continue
        if current is not None and _is_row(current):
            out.append(current)
        if len(line.split()) > HEADER_WORDS * 2:
            pending = []  # prose: the years read so far were not a table's header
        current = Row(_FOOTNOTE.sub("", line).strip())
        cleaned = _FOOTNOTE.sub(" ", line)
        values = [f for f in figures(cleaned) if f.kind in {"money", "number"}]
        cells = re.search(rf"(?:\s|^)(?:{_CELL})(?:\s+(?:{_CELL}))+\s*$", cleaned, re.I)
        if len(values) >= 2 and cells and sum(1 for v in values if v.start >= cells.start()) >= 2:
            # a row printed on one line: its label, then nothing but cells
            current.label = cleaned[: cells.start()].strip() or current.label
            current.values = [v for v in values if v.start >= cells.start()]
            current.years = header
            current.periods = periods
    if current is not None and _is_row(current):
        out.append(current)
    return out


def _is_row(row: Row) -> bool:
    """Two amounts or more; or one under a short label of its own (a one-column table: "Converse stores / 54")."""
    return len(row.values) >= 2 or (len(row.values) == 1 and len(row.label.split()) <= SHORT_LABEL)
