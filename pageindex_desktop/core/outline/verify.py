"""Is a heading's title printed on a page? The check every tree node goes through, whatever proposed it."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rapidfuzz import fuzz

from pageindex_desktop.core.document import PageData

# Leading section numbering: "1", "1.2.3", "IV.", "A.1", "III-A", "(a)", "§ 4", "Item 1A", and the words that
# introduce numbers. A lone word made of roman-numeral letters ("civil") only counts when it is a valid numeral.
_ROMAN = r"(?=[mdclxvi])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
_PART = r"(?:\d+[a-z]?|[ivxlcdm]+|[a-z])"
_NUMBERING = re.compile(
    r"^\s*(?:(?:chapter|section|part|article|appendix|annex|annexe|item|kapitel|teil|anhang|chapitre)\s+)?"
    r"(?:§+\s*)?\(?"
    rf"(?:{_PART}(?:[.\-]{_PART})+[.):]?|(?:\d+[a-z]?|{_ROMAN})[.):]?|[a-z][.)])"
    r"(?=\s|$)",
    re.IGNORECASE,
)
_NON_WORD = re.compile(r"[\W_]+")
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u3099\u309a]+")
FUZZY_MIN = 88  # partial_ratio (0-100) a title needs against a page to count as printed there
MIN_FUZZY_LEN = 6  # shorter titles must appear exactly (after normalisation)


@lru_cache(maxsize=1 << 16)
def normalize(text: str, strip_numbering: bool = True) -> str:
    """Lower case, accents and punctuation removed, single spaces, leading section number dropped."""
    if not text.isascii():
        text = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    text = text.casefold()
    if strip_numbering:
        stripped = _NUMBERING.sub("", text, count=1)
        if _NON_WORD.sub("", stripped):  # a title that is only a number keeps it
            text = stripped
    return " ".join(_NON_WORD.sub(" ", text).split())


@lru_cache(maxsize=64)
def _page_forms(text: str) -> tuple[str, str]:
    """A page's normalised text (numbering kept: it may be anywhere) and the same without spaces."""
    norm = normalize(text, strip_numbering=False)
    return norm, norm.replace(" ", "")


def title_score(title: str, page: PageData) -> float:
    """How well `title` matches text printed on `page`, 0-100 (100: found verbatim after normalisation)."""
    wanted = normalize(title)
    if not wanted or not page.text:
        return 0.0
    norm, compact = _page_forms(page.text)
    if f" {wanted} " in f" {norm} ":
        return 100.0
    squeezed = wanted.replace(" ", "")
    if len(squeezed) >= 8 and squeezed in compact:
        return 99.0  # broken word spacing in the text layer ("F inancial De velopments")
    if len(wanted) < MIN_FUZZY_LEN:
        return 0.0
    return float(fuzz.partial_ratio(wanted, norm, score_cutoff=FUZZY_MIN - 10))


def is_printed(title: str, page: PageData) -> bool:
    """True when the title (normalised, fuzzy for longer titles) is printed on the page."""
    return title_score(title, page) >= FUZZY_MIN


def locate(title: str, page: PageData) -> float | None:
    """Top y (points from the top) of the first line where `title` begins on `page`, or None when not found."""
    wanted = normalize(title)
    if not wanted:
        return None
    best: tuple[float, float] | None = None
    for index, line in enumerate(page.lines):
        text = normalize(line.text)
        if not text:
            continue
        # a title wrapped over two lines: compare with this line and the next one joined
        joined = text
        if index + 1 < len(page.lines) and len(text) < len(wanted):
            joined = f"{text} {normalize(page.lines[index + 1].text)}"
        if wanted == text or wanted == joined or (len(text) >= 4 and wanted.startswith(text)) or (
            len(wanted) >= 4 and text.startswith(wanted)
        ):
            return line.y0
        if len(wanted) >= MIN_FUZZY_LEN:
            score = fuzz.ratio(wanted, joined)
            if score >= FUZZY_MIN and (best is None or score > best[0]):
                best = (score, line.y0)
    return best[1] if best else None


def opens_page(page: PageData, y: float | None) -> bool:
    """True when a heading at `y` starts its page: nothing but a running header or a few short lines above it."""
    if y is None:
        return False
    above = [line for line in page.lines if line.y1 <= y + 1.0]
    if not above:
        return True
    chars = sum(len(line.text) for line in above)
    return len(above) <= 3 and chars <= 120 or y <= page.height * 0.12
