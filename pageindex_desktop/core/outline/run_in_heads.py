"""Numbered run-in section heads: "Section 2.01 Defined Terms." in bold, the section's text going on in regular
type on the same line, as agreements, indentures, bylaws and codes set their sections.

Such a line is mostly regular type, so it never read as a bold heading; when its bold lead happened to be the
longer part, the whole line (lead and the first words of the text) became the title. A numbered lead names a
section of its own and is a heading; an unnumbered one ("Residual Representations. In image ...", "Proof:",
"AGENCY:") is a paragraph's label and stays text: the authors' outlines on the corpus list one of about 360.
Numbers that also count list items ("1.", "(a)", "B.") do not make a lead a section: a numbered list with bold
leads ("1. Eligibility. An employee ...") is body text.
"""

from __future__ import annotations

import re

from pageindex_desktop.core.outline.numbering import Numbering, leading_number
from pageindex_desktop.core.outline.title_shape import WORD4

# a run-in lead ends in a stop, a colon or a dash before its text goes on
_LEAD_END = re.compile(r"\s*(?:[.:]|\s[—–-]|[—–])\s*$")
_SECTION_KINDS = frozenset({"section", "letter-decimal"})  # "§ 240.10", "A.1": never a list's counter
MAX_LEAD_WORDS = 14


def run_in_section(lead: str) -> tuple[str, Numbering] | None:
    """(title, number) when `lead`, a line's bold opening before regular text, is a numbered section's head:
    "Section 2.01 Defined Terms." -> "Section 2.01 Defined Terms"; else None."""
    end = _LEAD_END.search(lead)
    if end is None:
        return None
    title = lead[: end.start()].strip()
    num = leading_number(title)
    if num is None or not _names_sections(num) or not num.rest or len(title.split()) > MAX_LEAD_WORDS:
        return None
    rest = num.rest.lstrip("“\"'‘[(")
    if not rest[:1].isupper() or not WORD4.search(num.rest) or ". " in num.rest:
        return None  # a title in capitals or title case, one phrase: not "3.1 it follows. Hence"
    return title, num


def _names_sections(num: Numbering) -> bool:
    """A scheme that numbers sections and not list items: a keyword ("Section 2.01", "Article 5"), a section
    sign, a decimal of two parts or more ("2.01", "4.3.1") or a letter with one ("A.1")."""
    if num.kind.startswith("keyword"):
        return num.kind != "keyword:note"
    return num.kind in _SECTION_KINDS or num.kind == "decimal" and num.depth >= 2
