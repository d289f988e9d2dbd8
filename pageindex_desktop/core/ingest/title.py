"""A document's display title: the metadata title when it is a real one, else a clear cover-page title, else the
file name."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

from pageindex_desktop.core.document import ExtractedDocument, Line

MAX_TITLE = 200
# Producer prefixes that turn a file name into a "title" ("Microsoft Word - report.docx").
_PRODUCER_PREFIX = re.compile(
    r"^(microsoft (word|powerpoint|excel)|word|powerpoint|untitled|adobe (indesign|illustrator))\b\s*[-–:]?",
    re.IGNORECASE,
)
_FILE_EXT = re.compile(
    r"\.(pdf|docx?|pptx?|xlsx?|odt|odp|ods|rtf|txt|tex|dvi|ps|eps|indd|qxd|html?|xml|wpd|pages|key|md)\s*$",
    re.IGNORECASE,
)
_PATHISH = re.compile(r"^[a-z]:\\|^/|\\|/.+/", re.IGNORECASE)
_PLACEHOLDERS = {"untitled", "title", "document", "doc", "none", "null", "unknown", "pdf", "slide 1", "presentation"}
_LETTERS = re.compile(r"[^\W\d_]")
# Big first-page text that names a part of the document or a stamp, not the document.
_NOT_A_TITLE = re.compile(
    r"^(arxiv:|(table of )?contents$|abstract$|introduction$|preface$|foreword$|index$|summary$|draft$|confidential$)",
    re.IGNORECASE,
)
_TOKENISH = re.compile(r"^[\w.\-]+$")  # one run without spaces: "htmldoc797", "report_v2-final"


def _normal(text: str) -> str:
    return re.sub(r"[\W_]+", " ", text).strip().casefold()


def metadata_title_ok(title: str, file_name: str) -> bool:
    """True when the PDF's metadata title reads like a title rather than a file name, a producer stamp or junk."""
    text = title.strip()
    if not (3 <= len(text) <= MAX_TITLE):
        return False
    if _PRODUCER_PREFIX.match(text) or _FILE_EXT.search(text) or _PATHISH.search(text):
        return False
    if text.casefold() in _PLACEHOLDERS:
        return False
    if len(_LETTERS.findall(text)) < max(3, len(text) // 3):
        return False
    if " " not in text and _TOKENISH.match(text) and ("_" in text or any(ch.isdigit() for ch in text)):
        return False
    stem = Path(file_name).stem
    return _normal(text) != _normal(stem)


def cover_title(doc: ExtractedDocument) -> str:
    """The biggest text on page 1 when it clearly stands out (1.3x the body size), is short and sits high up."""
    if not doc.pages:
        return ""
    page = doc.pages[0]
    # horizontal text only: a rotated margin stamp (arXiv's identifier) is big but is no title
    lines = [ln for ln in page.lines if _LETTERS.search(ln.text) and (ln.x1 - ln.x0) >= (ln.y1 - ln.y0)]
    if not lines:
        return ""
    body = statistics.median(ln.size for ln in lines)
    top = max(ln.size for ln in lines)
    if top < body * 1.3 or top < 12:
        return ""
    biggest = [ln for ln in lines if abs(ln.size - top) < 0.6]
    if biggest[0].y0 > page.height * 0.6:
        return ""
    title_lines = _consecutive(biggest)
    if len(title_lines) > 3:
        return ""
    text = " ".join(ln.text for ln in title_lines).strip()
    if not (3 <= len(text) <= 150) or len(_LETTERS.findall(text)) < 3 or _NOT_A_TITLE.match(text):
        return ""
    return text


def _consecutive(lines: list[Line]) -> list[Line]:
    """The first run of title-size lines that stack directly under each other (a title wrapped over lines)."""
    run = [lines[0]]
    for line in lines[1:]:
        gap = line.y0 - run[-1].y1
        if 0 <= gap <= run[-1].size * 1.2 or abs(line.y0 - run[-1].y0) < 1:
            run.append(line)
        else:
            break
    return run


def choose_title(doc: ExtractedDocument, file_name: str) -> str:
    """The title shown in the library: metadata title, else cover-page title, else the file name without .pdf."""
    meta = doc.metadata_title.strip()
    if metadata_title_ok(meta, file_name):
        return meta
    cover = cover_title(doc)
    if cover:
        return with_cover_period(cover, doc)
    return Path(file_name).stem or file_name


_YEAR = re.compile(r"(?<!\d)(?:19[89]\d|20\d\d)(?!\d)")
NEAR_TITLE = 4.0  # title heights: how far from the title a period line may sit
_PERIOD_WORD = re.compile(r"\b(?:first|second|third|fourth|q[1-4]|quarter|half|fiscal|fy|annual|year|interim|"
                          r"semi-annual|semiannual|report|results)\b", re.IGNORECASE)
PERIOD_WORDS = 5  # only a cover line this short names the period ("2023", "Second Quarter 2024"): years in
# longer lines are a paper's abstract, a footnote's conference or a filing's notes, not the document's period


def with_cover_period(title: str, doc: ExtractedDocument) -> str:
    """A cover title without a year gets the one period its cover prints next to it, so two years' reports are
    told apart ("Annual Report" over "2023" → "Annual Report 2023"; over "Second Quarter 2024" → "Annual Report,
    Second Quarter 2024"). Only a line that is a year or names a period, within a few title heights of the title,
    counts: a paper's footnote URL, copyright line or conference date is elsewhere and says something else, and a
    cover with several such years (a 10-K's notes due 2024, 2025 …) says nothing certain."""
    if _YEAR.search(title) or not doc.pages:
        return title
    lines = [ln for ln in doc.pages[0].lines if (ln.x1 - ln.x0) >= (ln.y1 - ln.y0)]
    if not lines:
        return title
    top = max(ln.size for ln in lines)
    heading = [ln for ln in lines if abs(ln.size - top) < 0.6]
    near = [ln.text.strip() for ln in lines
            if min(abs(ln.y0 - h.y1) for h in heading) <= NEAR_TITLE * top and len(ln.text.split()) <= PERIOD_WORDS
            and (_YEAR.fullmatch(ln.text.strip()) or (_YEAR.search(ln.text) and _PERIOD_WORD.search(ln.text)))]
    years = {y for text in near for y in _YEAR.findall(text)}
    if len(years) != 1:
        return title
    line, year = min(near, key=len), years.pop()
    return f"{title} {year}" if line == year else f"{title}, {line}"[:MAX_TITLE]
