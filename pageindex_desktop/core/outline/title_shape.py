"""What a heading's text alone says: whether its words read as a title, a sentence or a run-in head.

Pure string tests the layout pass (layout.py) asks of a row once its size and weight made it a candidate: a
title's words are capitalised but for small words, a sentence-case title is short and ends no sentence, a run-in
head is a short title closed by a full stop or a spaced dash with its paragraph going on after it, a line that
stops on a comma or a joining word goes on on the next line, and a line mostly of figures is a table's. Kept apart
from layout.py so the rules about rows and pages there do not hide the rules about words.
"""

from __future__ import annotations

import re

from pageindex_desktop.core.outline.numbering import leading_number
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.size_scale import same_as_body

MAX_WORDS = 16
_ABBREVIATION = re.compile(r"\b(?:[A-Z]\.){2,}")  # "U.S.", "U.K.", "N.A.": initials, not a full stop
LETTER = re.compile(r"[^\W\d_]")
WORD4 = re.compile(r"[^\W\d_]{4,}")
# a title closed by a full stop or a spaced dash, then the start of a sentence: "Liquidity — We expect ..."
_RUN_IN_HEAD = re.compile(r"^(?P<head>[^\W\d_][^.:;!?—–]{1,58}?)(?:\.|\s[—–-])\s+(?P<rest>[A-Z“\"'‘].*)$")
_SMALL_WORDS = frozenset(
    "a an and as at but by for from in into of on or the to vs via with de des du la le les et en und der die "
    "das von zu im".split()
)
# longer prepositions no title ends on ("… Disclosures About" over "Market Risk.", "… Pursuant" over "to ...")
_OPEN_PREPOSITIONS = frozenset("about among against between concerning pursuant regarding through toward towards "
                               "upon".split())
_DIGIT = re.compile(r"[0-9]")
_HYPHENATED = re.compile(r"[^\W\d_]{2}-$")  # a line ending inside a word broken by a hyphen ("Match-")


def keyword_title(text: str) -> bool:
    """A keyword-numbered title ("Item 5 - Market for ...", "ARTICLE IV. REMEDIES"): the number and words."""
    num = leading_number(text)
    return num is not None and num.kind.startswith("keyword") and bool(num.rest) and num.rest[:1].isupper()


def bare_label_with_stop(text: str) -> bool:
    """A keyword and its number alone closed by one full stop ("Part I.", "Chapter 3."), as KOMA-Script sets a
    part's label over its name; set in the text's type it is a sentence's end ("... seen in / Lecture 1.")."""
    if not text.endswith(".") or text.endswith(".."):
        return False
    num = leading_number(text)
    return num is not None and not num.rest and num.kind.startswith("keyword")


def division_with_stop(text: str) -> bool:
    """A keyword-numbered title closed by one full stop ("Item 1A. Risk Factors."), as some filings print them,
    or a regulation's section, whose title is a phrase in sentence case closed by one ("§ 240.17a-3 Records to
    be made by certain exchange members.")."""
    if not text.endswith(".") or text.endswith(".."):
        return False
    num = leading_number(text)
    if num is None or not num.rest:
        return False
    if num.kind == "section":
        return num.rest[:1].isupper() and ". " not in num.rest
    return num.kind.startswith("keyword") and title_like(num.rest.split())


def prose(text: str) -> bool:
    """Four or more words, most longer ones in lower case: sentence text, not a title."""
    words = text.split()
    longer = [w for w in words if len(w) > 3 and w[0].isalpha()]
    return len(words) >= 4 and bool(longer) and sum(w[0].islower() for w in longer) >= 0.5 * len(longer)


def run_in_head(text: str) -> bool:
    """A bold run-in head and the first words of its paragraph on one line ("Revenue Recognition. We
    recognise", "Liquidity — We expect cash"): the head, without a number or numbering keyword, reads as a
    title and what follows the full stop or dash opens a sentence (its later words in lower case). The line is bold as a whole only
    when the paragraph's words on it are few, so the prose test of layout._RUN_IN does not see it; filings' notes
    print these under their headings, and their bookmarks leave them out."""
    m = _RUN_IN_HEAD.match(text)
    if m is None or any(ch.isdigit() for ch in m.group("head")) or leading_number(text) is not None:
        return False  # "Note 4 – Debt", "Part II – Other information" are numbered titles
    rest = m.group("rest").split()
    if len(rest) < 2 or not title_like(m.group("head").split()):
        return False
    later = [w for w in rest[1:] if len(w) > 2 and w[0].isalpha()]
    return bool(later) and sum(w[0].islower() for w in later) > 0.5 * len(later)


def sentence_case_title(text: str, words: list[str], larger: bool) -> bool:
    """A heading in sentence case ("Pistes cyclables et sentiers utilitaires"): capital first letter, short, no
    sentence punctuation inside; bold body-size lines must be shorter than larger ones."""
    if not text[0].isupper() or len(words) > (MAX_WORDS if larger else 10):
        return False
    text = _ABBREVIATION.sub("", text)  # "U.S. broker-dealer regulatory capital": no sentence ends there
    return not any(mark in text for mark in (". ", "; ", ", ")) or larger and len(words) <= 8


def title_like(words: list[str]) -> bool:
    """Most significant words capitalised, or all caps: a title rather than a sentence fragment."""
    significant = [w for w in words if w.lower() not in _SMALL_WORDS and w[:1].isalpha()]
    if not significant:
        return bool(words)
    if not significant[0][0].isupper() and not words[0][:1].isdigit():
        return False
    caps = sum(1 for w in significant if w[0].isupper())
    return caps >= 0.6 * len(significant) or len(significant) <= 3


def open_ended(text: str) -> bool:
    """True when a heading's line stops mid-title: on a comma or a joining word ("… COMMON EQUITY,", "… PURSUANT
    TO", "… and"), inside a hyphenated word ("Coercive Signature Match-") or inside a bracket it opened ("[Docket
    No. FAA–2020–0746; Product"), so the line below in the same style is the rest of the title, whatever it opens
    with."""
    if text.endswith((",", "&", " -", " –", " —")) or _HYPHENATED.search(text):
        return True
    if text.count("[") > text.count("]") or text.count("(") > text.count(")"):
        return True  # a bracket left open, closed on the next line ("Identifier 2019–CE–012–AD]")
    last = text.rsplit(" ", 1)[-1]
    # one letter is a label's ("Part A", "Appendix A"), not the article
    return (2 <= len(last) <= 4 and last.lower() in _SMALL_WORDS or last.lower() in _OPEN_PREPOSITIONS) and " " in text


def join_title(first: str, rest: str) -> str:
    """A heading's title from its wrapped lines: a word hyphenated across the break is one word again
    ("Match-" + "ing"), as the page text re-joins it; other lines join with a space."""
    rest = rest.strip()
    if _HYPHENATED.search(first) and rest[:1].islower():
        return first[:-1] + rest
    return f"{first} {rest}"


def figure_heavy(text: str) -> bool:
    """Mostly figures: a table's row or column heads or a statement's period line under a title ("2023 2022",
    "YEARS ENDED DECEMBER 31, 2020, 2019, AND 2018"), not the title's next line. A line citing rules
    ("Amendments to Rule 17a-3(a)(25), Rule 17a-4(e)(5)") has few letters but opens with a word, and most of
    its words hold no figure."""
    if len(LETTER.findall(text)) >= 0.6 * len(text.replace(" ", "")):
        return False
    words = text.split()
    plain = sum(1 for w in words if not _DIGIT.search(w))
    return not (words and WORD4.match(words[0]) and 2 * plain > len(words))


NARROW_PROSE_ROWS = 8  # lines of prose in narrow columns that make a page's running text (a cover has none)


def running_text(rows: list[Row], body: float) -> bool:
    """True when the page carries running text: a body-size line of 50 characters or more, or, set in narrow
    columns (a tax form's three, whose lines hold about 40; two columns of 12 pt type, about 30), eight
    body-size lines that read as prose (`prose`: four words or more, most in lower case). A cover's or title
    page's lines are short titles, names and dates."""
    plain = [r for r in rows if same_as_body(r.size, body) and not r.bold]  # at any scale (size_scale)
    return any(len(r.text) >= 50 for r in plain) or sum(
        prose(r.text) for r in plain) >= NARROW_PROSE_ROWS


# a label's qualifier on its own line: a standard's "(normative)", "(informative)" under "Annex A"
_QUALIFIER = re.compile(r"^\(\s*[^\W\d_][^()]{1,28}\)$")


def qualifier(text: str) -> str | None:
    """`text` when it is a label's parenthesised qualifier of one to three words ("(normative)"), "" for no
    text at all, else None: what may stand between a bare "Annex A" and its title."""
    text = text.strip()
    if not text:
        return ""
    return text if _QUALIFIER.match(text) and len(text.split()) <= 3 else None


# a program's name as a reference manual titles its members: "read()", "mylib::Buffer", "~Buffer()",
# "operator==()", "size() const", "Buffer< T >", "parse_file(const char *path)"
_CODE_NAME = re.compile(
    r"^(?:[A-Za-z_][\w]*(?:<[^<>]*>)?(?:::|\.))*(?:operator\S+|~?[A-Za-z_]\w*)\s*(?:<[^<>]*>)?\s*"
    r"(?:\([^()]*\))?(?:\s*const)?$"
)


_IDENTIFIER = re.compile(r"^[A-Za-z_][\w.:~]*$")
MEMBER_CHARS = 60  # an API entry's name and its parameters


def code_title(text: str) -> bool:
    """True when a heading numbered two levels deep or more titles a program's member or class by its name:
    no title case, few letters, yet a section (a reference manual's "4.2.2.1 read()" under each class, and
    "4.2 mylib::Buffer Class Reference" or "3.1 mylib Namespace Reference", a name over title-case words)."""
    num = leading_number(text)
    if num is None or num.kind != "decimal" or num.depth < 2 or not num.rest:
        return False
    rest = num.rest.strip()
    if _CODE_NAME.match(rest) is not None and any(mark in rest for mark in ("(", "::", "_", "<")):
        return True
    words = rest.split()
    return len(words) >= 2 and _IDENTIFIER.match(words[0]) is not None and not words[0][0].isupper() \
        and title_like(words[1:]) and all(w[:1].isupper() for w in words[1:])


def member_name(text: str) -> bool:
    """True when an unnumbered title is a program member's name alone ("flush()", "Client.connect(host)",
    "mylib::Buffer", "read_config"): an API reference's entry, which no title case marks. The caller asks for
    type larger than the text's, since a code listing's lines are names too."""
    text = text.strip()
    return leading_number(text) is None and len(text) <= MEMBER_CHARS and _CODE_NAME.match(text) is not None \
        and any(mark in text for mark in ("(", "::", "_", "<"))


def few_letters(text: str) -> bool:
    """True when under two letters, or letters make less than half the characters: a figure row or code, not
    a title. An outline number two levels deep is left out of the count, so "4.1 Version 1.0" and "2.3
    Python 3.12" are titles (the whole line counted, their figures outweighed their words); a single number
    stays in ("12 and 24 Weeks Ended June 17, 2023" is a table's period head)."""
    num = leading_number(text)
    rest = num.rest if num is not None and num.rest and num.kind == "decimal" and num.depth >= 2 else text
    letters = len(LETTER.findall(rest))
    return len(LETTER.findall(text)) < 2 or letters < 0.5 * len(rest)


# a full stop after a word of three letters or more, then a capitalised word: one sentence ends and another
# begins on the line ("Scope of work. The review covers"); abbreviations that stand inside titles are spared
_SENTENCE_BREAK = re.compile(r"\b([A-Za-z][a-z]{2,})\. +[A-Z][a-z]")
_ABBREVIATIONS = {"inc", "ltd", "corp", "llc", "plc", "etc", "nos", "vol", "art", "sec", "fig", "ref", "dept"}

def sentence_break(text: str) -> bool:
    """True when a sentence ends inside `text` and the next begins (see _SENTENCE_BREAK)."""
    return any(m.group(1).lower() not in _ABBREVIATIONS for m in _SENTENCE_BREAK.finditer(text))


def bare_label(text: str) -> bool:
    """A keyword and its number with nothing after them but a stop ("Chapter 2:", "Item 7."): a title's start."""
    num = leading_number(text)
    return num is not None and num.kind.startswith("keyword") and not num.rest.strip(" .:")


def label_only(text: str, after: str) -> bool:
    """True when what stands before the run-in stop is only the keyword number ("Chapter 4: Primary channel
    operation demand", "Section 2. Scope of the rules"): a numbered title in sentence case, not a run-in head
    and its paragraph."""
    num = leading_number(text)
    return num is not None and num.kind.startswith("keyword") and num.rest.strip() == after.strip()


# "Strategy 1.1.1 Improve the Trail Network", "Action 2.3: Expand Cycling Lanes": a plan's own numbered
# divisions, a label word with an outline number and a title; "Satz 1.1 (Heine-Borel)", "Definition 2.3" are not
_TITLED_LABEL = re.compile(
    r"^[^\W\d_]{3,}\s+[0-9]{1,3}(?:(?:\.[0-9]{1,3})+\.?\s*[–—:\-]?|\s*(?::|\s[–—-]))\s*[A-ZÀ-Þ][^\W\d_]{2,}"
)


def titled_label(text: str) -> bool:
    """True when `text` opens with a label word, an outline number and a title ("Strategy 1.1 Improve ...")."""
    return _TITLED_LABEL.match(text) is not None

