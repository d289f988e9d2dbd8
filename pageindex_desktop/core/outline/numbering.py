"""Section numbering, page numbers and title keys: the text patterns both heading finders share.

All patterns are compiled once; every function here is a single regex match or a short loop, because they run
on every line of every page during an import.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_ROMAN_RE = r"(?=[IVXLCDM])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    "seventeen|eighteen|nineteen|twenty"
)
_KEYWORDS = (
    "chapter|section|part|article|appendix|annex|annexe|schedule|exhibit|item|book|lecture|unit|"
    "kapitel|teil|abschnitt|anhang|chapitre|partie|annexe|capítulo|capitolo|parte|titre|title"
)
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}

# "Chapter 3", "PART II", "Item 1A.", "Appendix B:", "Article 12", "CHAPTER ONE:", "Section 2.01", "Item 1.01"
KEYWORD_NUMBER = re.compile(
    rf"^(?P<kw>{_KEYWORDS})\s+(?P<num>[0-9]+(?:\.[0-9]+){{0,3}}[A-Z]?|{_ROMAN_RE}|[A-Z]|{_NUMBER_WORDS})\b\s*[:.\-–—]?\s*",
    re.IGNORECASE,
)
# a financial statement note's label before its title: a filing's contents lists "Note 1 - General and Summary ...",
# its page prints "1. GENERAL AND SUMMARY ..." or "NOTE 1: GENERAL ..."; the titles are compared without it
_NOTE_LEAD = re.compile(r"^\s*notes?\s+[0-9]{1,2}[A-Z]?\s*[–—:.\-]\s*(?=\S)", re.IGNORECASE)
# "1", "1.2", "1.2.3.", "2)", "A.1", "III-A", "IV.", "B.", "(a)", "(1)", "(iv)", "a.", "ii.", "§ 4"
_DECIMAL = re.compile(r"^(?P<num>[0-9]{1,3}(?:\.[0-9]{1,3}){0,4})(?P<end>\.|\)|:)?(?=\s|$)")
_LETTER_DECIMAL = re.compile(
    r"^(?P<num>[A-Z](?:[.\-][0-9]{1,3}){1,3}|(?:[IVX]{1,4}|[A-Z])-[A-Z])(?P<end>\.|\))?(?=\s|$)"
)
_ROMAN = re.compile(rf"^(?P<num>{_ROMAN_RE})(?P<end>\.|\)|:)?(?=\s|$)")
_LOWER_ROMAN = re.compile(rf"^\(?(?P<num>{_ROMAN_RE.lower()})(?P<end>\.|\))(?=\s|$)")
_LETTER = re.compile(r"^(?P<num>[A-Za-z])(?P<end>\.|\))(?=\s|$)")
_PAREN = re.compile(r"^\((?P<num>[0-9]{1,3}|[a-z]|[ivx]{1,4})\)(?=\s|$)")
# "§ 4", "§ 3.102", and the CFR's "§ 240.15l-1", "§ 240.10b5-1", "§ 1.6012-2": a part, then a section that may
# carry letters and a hyphenated tail
_SECTION_SIGN = re.compile(r"^§+\s*(?P<num>[0-9]+(?:\.[0-9]+(?:[a-zA-Z]{1,2}[0-9]*)?(?:-[0-9]+[a-z]?)?)*)")

PAGE_NUMBER = re.compile(rf"^(?:[0-9]{{1,4}}|{_ROMAN_RE}|{_ROMAN_RE.lower()})$")
TRAILING_PAGE = re.compile(
    rf"(?:\s*(?:\.\s?|…|·|_|-\s?){{2,}}\s*|\s+)(?P<page>[0-9]{{1,4}}|{_ROMAN_RE.lower()}|{_ROMAN_RE})\s*$"
)
LEADERS = re.compile(r"(?:\.\s?){4,}|…{2,}")  # dot leaders anywhere in a line: a contents row's, no heading's or prose's
LEADER_TAIL = re.compile(r"(?:\s*(?:\.\s?|…|·|_){2,})\s*$")
_DIVISION_END = re.compile(r"(?i)\b(?:part|chapter|book|volume|vol\.|section|appendix|annex|schedule|exhibit|title|"
                           r"article|unit|module|lesson|teil|kapitel|anhang|partie|chapitre|annexe)\s*$")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)
_SPACES = re.compile(r"\s+")
_NOTE_SIGNS = ("*", "†", "‡")
# numbering kinds that mark sections on their own (not list items: "a)", "(ii)")
STRONG_KINDS = frozenset({"decimal", "roman", "letter-decimal", "upper-letter", "section"})
# the head of a contents list's or an index's page-number column
PAGE_COLUMN_HEAD = re.compile(r"^(?:pages?|page\s+no\.?|pg\.?)$", re.IGNORECASE)
# the same head closing a row ("PART I ... Page"), or the whole row
TRAILING_COLUMN_HEAD = re.compile(r"(?:^|\s)(?:pages?|page\s+no\.?|seite|p\.|pg\.?)$", re.IGNORECASE)
# footnote markers a title carries in its own font: "(3)" or "(3)(5)" glued to a word, a closing note sign
_GLUED_MARKER = re.compile(r"(?<=[^\W\d_])(?:\([0-9]{1,2}\))+(?=\s|$|[,;:])")
_CLOSING_SIGN = re.compile(r"(?<=[^\W\d_.)])[*†‡]{1,3}$|(?<=\.)[*†‡]{1,3}$")


# chapter-page numbers ("3-12", "A-4"): manuals that restart their page count in every chapter (chapter_pages.py)
CHAPTER_PAGE_NUMBER = r"(?:[0-9]{1,2}|[A-Z]{1,2})[-–][0-9]{1,3}"
CHAPTER_PAGE = re.compile(rf"^{CHAPTER_PAGE_NUMBER}$")
# a contents row ending in one, after dot leaders or white space
_CHAPTER_TRAILING = re.compile(rf"(?:\s*(?:\.\s?|…|·|_){{2,}}\s*|\s+)(?P<page>{CHAPTER_PAGE_NUMBER})\s*$")


def split_chapter_page(text: str) -> tuple[str, str] | None:
    """(title, chapter-page number) of a contents row ending in one ("Network Settings .... 2-2"), else None.
    The title is empty when the row holds only leaders and the number (a wrapped entry's last line)."""
    m = _CHAPTER_TRAILING.search(text)
    if m is None or m.start() == 0 and not text.lstrip().startswith((".", "…", "·", "_")):
        return None
    return text[: m.start()].rstrip(" .…·_-\t"), normal_chapter_page(m.group("page"))


def lone_page_number(text: str) -> str | None:
    """The page number of a contents line that holds nothing else but leaders ("...... 12", "...... 4-1") or
    is a chapter-page number alone ("4-1"): a wrapped entry's last line. A bare "12" is a folio's shape and is
    read apart (parse_page_number)."""
    if CHAPTER_PAGE.match(text):
        return normal_chapter_page(text)
    chapter = split_chapter_page(text)
    if chapter is not None:
        return None if chapter[0] else chapter[1]
    title, printed, _dots = split_trailing_page(text)
    return printed if printed is not None and not title else None


def normal_chapter_page(number: str) -> str:
    """One spelling per number: en dash as hyphen, letters in upper case."""
    return number.replace("–", "-").upper()


def without_column_head(text: str) -> str:
    """A contents row's title without the "Page" head of the number column printed at its right ("PART I ...
    Page"): the row was joined from separate parts, and the last one heads the column, not the title."""
    return TRAILING_COLUMN_HEAD.sub("", text)


@dataclass(frozen=True)
class Numbering:
    """A leading section number: its kind (decimal, roman, letter, keyword, paren...), depth and raw token."""

    kind: str
    depth: int
    token: str
    rest: str  # the text after the number


def roman_to_int(text: str) -> int:
    """Value of a roman numeral (case-insensitive); 0 when the text is not one."""
    total = 0
    prev = 0
    for ch in reversed(text.upper()):
        value = _ROMAN_VALUES.get(ch, 0)
        if not value:
            return 0
        total = total - value if value < prev else total + value
        prev = max(prev, value)
    return total


def parse_page_number(text: str) -> tuple[int, bool] | None:
    """A printed page number as (value, is_roman), or None when `text` is not one."""
    text = text.strip()
    if not text or not PAGE_NUMBER.match(text):
        return None
    if text.isdigit():
        return int(text), False
    value = roman_to_int(text)
    return (value, True) if value else None


def decimal_parts(token: str) -> list[str]:
    """A decimal section number's parts, trailing zeros dropped: a specification numbers its top sections "1.0",
    "2.0" over "1.1", "2.1" ("3.0 REQUIREMENTS" over "3.1 Performance"), so "3.0" is section 3, one level up."""
    parts = token.rstrip(".").split(".")
    while len(parts) > 1 and parts[-1] == "0" and parts[0].strip("0"):
        parts.pop()
    return parts


def leading_number(text: str) -> Numbering | None:
    """The section number a heading starts with, or None."""
    text = text.lstrip()
    if not text:
        return None
    first = text[0]
    if first.isdigit():
        m = _DECIMAL.match(text)
        if m:
            num = m.group("num")
            if len(num) == 4 and "." not in num and not m.group("end"):
                return None  # a year ("2023 Annual Report") is not a section number
            return Numbering("decimal", len(decimal_parts(num)), num, text[m.end():].lstrip(" .:-–—\t"))
        return None
    if first == "(":
        m = _PAREN.match(text)
        if m:
            return Numbering("paren", 1, m.group("num"), text[m.end():].lstrip())
        return None
    if first == "§":
        m = _SECTION_SIGN.match(text)
        if m:
            return Numbering("section", m.group("num").count(".") + 1, m.group("num"), text[m.end():].lstrip())
        return None
    m = KEYWORD_NUMBER.match(text)
    if m:
        return Numbering("keyword:" + m.group("kw").lower(), 1, m.group("num"), text[m.end():].lstrip())
    if first.isupper():
        m = _LETTER_DECIMAL.match(text)
        if m:
            num = m.group("num")
            return Numbering("letter-decimal", num.count(".") + num.count("-") + 1, num, text[m.end():].lstrip())
        m = _ROMAN.match(text)
        token = m.group("num") if m else ""
        if m and (len(token) > 1 or (token in "IVX" and (m.group("end") or token == "I"))):
            return Numbering("roman", 1, token, text[m.end():].lstrip())
    m = _LOWER_ROMAN.match(text)
    if m and (len(m.group("num")) > 1 or m.group("num") in "ivx"):  # "c." is a letter, not a hundred
        return Numbering("lower-roman", 1, m.group("num"), text[m.end():].lstrip())
    m = _LETTER.match(text)
    if m:
        kind = "upper-letter" if first.isupper() else "lower-letter"
        return Numbering(kind, 1, m.group("num"), text[m.end():].lstrip())
    return None


def ordinal(num: Numbering) -> int | None:
    """Position of a section number among its siblings (1 for "1.", "A.", "(a)", "i.", "3.1" -> 1)."""
    token = num.token
    if num.kind == "decimal":
        return int(decimal_parts(token)[-1])
    if num.kind in ("roman", "lower-roman"):
        return roman_to_int(token) or None
    if num.kind in ("upper-letter", "lower-letter"):
        return ord(token.lower()) - 96
    if num.kind == "paren":
        if token.isdigit():
            return int(token)
        if len(token) > 1:
            return roman_to_int(token) or None
        return ord(token) - 96
    last = re.split(r"[.\-]", token)[-1]
    if last.isdigit():
        return int(last)
    if len(last) == 1 and last.isalpha():
        return ord(last.lower()) - 96
    return None


def sequence_kind(num: Numbering) -> str:
    """The counter a section number belongs to: its kind, decimal depth, and digit/letter for "(1)"/"(a)"."""
    if num.kind == "decimal":
        return f"decimal{num.depth}"
    if num.kind == "paren":
        return "paren-" + ("digit" if num.token.isdigit() else "roman" if len(num.token) > 1 else "letter")
    return num.kind


def clean_title(text: str) -> str:
    """A heading as shown to the user: soft hyphens, doubled spaces and footnote markers removed.

    A marker set in the title's own font, so extraction could not tell it by size (`pdf_pages._is_marker`),
    is told by its place: "(3)" glued to a word ("Timothy Cook(3)(5)", "GUIDANCE(4)"), or a note sign closing
    the title ("TOTAL RETURN*", "Apple Inc.*"). It points to a note and is no part of the title."""
    text = _SPACES.sub(" ", text.replace("\u00ad", "")).strip()
    if "(" in text or text.endswith(_NOTE_SIGNS):
        text = _GLUED_MARKER.sub("", _CLOSING_SIGN.sub("", text)).strip()
    return text


def title_key(text: str) -> str:
    """Lower-case words of a title without its leading number or punctuation: the key titles are compared by."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).replace("\u00ad", "")
    first = text.lstrip()[:1]
    if first and (first.isdigit() or first.isupper() or first in "(§" or text.lstrip()[1:2] in (".", ")")):
        num = leading_number(text)
        if num is not None and num.rest:
            text = num.rest
        else:
            text = _NOTE_LEAD.sub("", text, count=1)
    return _NON_WORD.sub(" ", text.lower()).strip()


def split_trailing_page(text: str) -> tuple[str, str | None, bool]:
    """Split a contents row into (title, printed page or None, had dot leaders). "PART I", "Chapter V" and
    "Appendix C" end in the division's own number, not a page: without leaders they are titles whole. A row of
    leaders and a number alone gives an empty title."""
    m = TRAILING_PAGE.search(text)
    if m and m.start() == 0 and LEADER_TAIL.search(text[: m.start("page")]):
        return "", m.group("page"), True  # only the leaders and the number: a wrapped entry's last line
    if m and m.start() > 0:
        head = text[: m.start()]
        leaders = bool(LEADER_TAIL.search(text[: m.start("page")]))
        if not leaders and _DIVISION_END.search(head) and not m.group("page").isdigit():
            return text, None, False
        return head.rstrip(" .…·_-\t"), m.group("page"), leaders
    m = LEADER_TAIL.search(text)
    if m:
        return text[: m.start()].rstrip(), None, True
    return text, None, False
