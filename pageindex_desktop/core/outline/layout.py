"""Headings found from the page layout alone: size and weight against the body text, numbering, isolation.

One linear pass over the rows of every page: running headers and footers, the title block of the first page,
captions, table cells and sentences are ruled out; what is left is a heading when it is set larger than the
body, in bold while the body is not, or opens with a section number and reads like a title. Levels come from
the rank of each heading style (size, weight, numbering kind and depth).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import Analysis, analyse
from pageindex_desktop.core.outline.contents import find_contents
from pageindex_desktop.core.outline.numbering import (
    Numbering,
    clean_title,
    leading_number,
    ordinal,
    sequence_kind,
    title_key,
)
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.tree import Heading

log = logging.getLogger(__name__)

MAX_WORDS = 16
MAX_CHARS = 140
_CAPTION = re.compile(
    r"^(?:fig(?:ure)?|table|tab|abb(?:ildung)?|tabelle|chart|graph|exhibit|source|sources|note|notes|photo|"
    r"plate|map|listing|algorithm|eq(?:uation)?|box|panel)s?\.?\s*[0-9IVX]",
    re.IGNORECASE,
)
_LEADERS = re.compile(r"(?:\.\s?){4,}|…{2,}")
_SENTENCE_END = re.compile(r"(?:[a-z\u00e0-\u00ff]{2}|\))[.;,]$|[,;]$|\w-$|\s\S{1,3}\.$")
_STRONG_KINDS = frozenset({"decimal", "roman", "letter-decimal", "upper-letter", "section"})
_WEAK_KINDS = frozenset({"lower-letter", "paren", "lower-roman"})
_NUMBERS = re.compile(r"\([^)]*\)|[0-9]+(?:\.[0-9]+)*|\b[a-z]\)")
_SECTION_WORDS = frozenset(
    "chapter section part article appendix annex annexe schedule exhibit item book lecture unit kapitel teil "
    "abschnitt anhang chapitre partie capítulo capitulo capitolo parte titre title lesson module step".split()
)
_MATH = re.compile(r"[=<>∈∉⊂⊆⊇∀∃⇒⇔→≤≥±×∑∫√∞≠≈∆△]")
_LETTER = re.compile(r"[^\W\d_]")
# Cheap test for "could open with a section number" before the full numbering parse.
_NUMBER_START = re.compile(
    r"^(?:\(?[0-9]{1,3}(?:\.[0-9]{1,3})*[.):]?|\(?[IVXLCDM]{1,6}[.):\-]?|\(?[A-Za-z][.)]|\([ivx]{1,4}\)|[ivx]{1,4}[.)]"
    r"|[A-Z](?:[.\-][0-9A-Z]{1,3})+\.?)(?=\s|$)"
    r"|^§|^(?:chapter|section|part|article|appendix|annex|annexe|schedule|exhibit|item"
    r"|book|lecture|unit|kapitel|teil|abschnitt|anhang|chapitre|partie|cap[íi]tulo|capitolo|parte|titre|title)\s",
    re.IGNORECASE,
)
_LABEL_WORD = re.compile(r"^([^\W\d_]{3,})\s+[0-9]+(?:\.[0-9]+)*\b")
_RUN_IN = re.compile(r"^[^.:]{3,60}[.:]\s+(\S.*)$")
_WORD4 = re.compile(r"[^\W\d_]{4,}")
_STRONG_COUNTERS = frozenset({"decimal1", "roman", "upper-letter", "letter-decimal", "section"})
_UNNUMBERED = frozenset({"none", "centred", "isolated"})
_PARAGRAPH_END = re.compile(r"[.!?:”\"')\]]\s*[0-9]{0,3}$")
_SMALL_WORDS = frozenset(
    "a an and as at but by for from in into of on or the to vs via with de des du la le les et en und der die "
    "das von zu im".split()
)


@dataclass
class _Candidate:
    """A row that passed the heading tests, with the style that decides its level."""

    row: Row
    text: str
    style: tuple[float, bool, str]
    last_index: int = -1  # index of its last row on the page (multi-line headings grow it)
    bottom: float = 0.0  # y1 of its last row


def find_layout_headings(doc: ExtractedDocument) -> list[Heading]:
    """Headings detected from typography and numbering, in reading order, with levels from style rank."""
    if not doc.pages:
        return []
    analysis = analyse(doc)
    cached = analysis.extra.get("layout")
    if not isinstance(cached, list):
        cached = _find(doc, analysis)
        analysis.extra["layout"] = cached
    return [Heading(h.title, h.level, h.page, h.y) for h in cached]


def _find(doc: ExtractedDocument, analysis: Analysis) -> list[Heading]:
    """The layout pass itself (see find_layout_headings)."""
    body = analysis.body_size
    body_bold = _body_is_bold(analysis, body)
    first_text = next((i for i, rows in enumerate(analysis.rows) if rows), None)
    region = find_contents(doc, analysis)
    contents_pages = set(region.pages) if region is not None else set()
    contents_end: dict[int, float] = {}  # contents page -> bottom of its last entry (text below is the body)
    if region is not None:
        for page_number in region.pages:
            contents_end[page_number] = max((r.y1 for r in region.rows if r.page == page_number), default=1e9)
        if region.heading is not None:
            contents_end[region.heading.page] = max(contents_end.get(region.heading.page, 0), region.heading.y1)
    candidates: list[_Candidate] = []
    label_counts: dict[str, int] = {}  # "Definition 4", "Lemma 2": emphasised word + number, counted on all rows
    for page_index, rows in enumerate(analysis.rows):
        start = _title_block_end(rows, body) if page_index == first_text else 0
        end_of_contents = contents_end.get(page_index + 1, -1.0)
        page = doc.pages[page_index]
        caption_bottom, caption_style = -1.0, (0.0, False)
        left = min((r.x0 for r in rows), default=0.0)
        right = max((r.x1 for r in rows), default=page.width)
        emphasis = body + 1.0
        for i in range(start, len(rows)):
            row = rows[i]
            text = row.text
            if not row.bold and row.size < emphasis and (candidates and candidates[-1].last_index != i - 1) and (
                (text[0].islower() or len(text) > 60) and not _NUMBER_START.match(text)
            ):
                continue  # a line of running text: neither a heading nor the next line of one
            if analysis.is_running(row, i) or row.y0 < end_of_contents:
                continue  # furniture, or a contents entry (a heading of another page)
            if _CAPTION.match(row.text):
                caption_bottom, caption_style = row.y1, (row.size, row.bold)
                continue
            if (row.size, row.bold) == caption_style and 0 <= row.y0 - caption_bottom < row.y1 - row.y0:
                caption_bottom = row.y1  # second line of a figure or table caption
                continue
            if candidates and _continues(candidates[-1], row, i, body, page.width, left):
                prev = candidates[-1]
                prev.text = f"{prev.text} {row.text.strip()}"
                prev.last_index = i
                prev.bottom = row.y1
                continue
            if row.bold or row.size > body + 1:
                m = _LABEL_WORD.match(row.text)
                if m:
                    label_counts[m.group(1).lower()] = label_counts.get(m.group(1).lower(), 0) + 1
            cand = _judge(row, body, body_bold, left)
            if cand is None:
                cand = _centred(rows, i, left, right, body) if len(text) <= 60 else None
                if cand is None:
                    continue
            cand.last_index = i
            candidates.append(cand)
    if len(candidates) < max(3, len(doc.pages) // 10):
        # no typographic headings: plain lines set apart between paragraphs ("Method", "Results")
        candidates = _with_isolated_lines(candidates, analysis, contents_pages, first_text, body)
    candidates = [c for c in candidates if len(c.text.split()) <= MAX_WORDS + 6]
    candidates = [c for c in candidates if _WORD4.search(c.text)]
    candidates = _drop_repeated_runs(candidates)
    candidates = _in_sequence(candidates, body)
    candidates = _drop_labels(candidates, label_counts)
    candidates = _drop_frame_titles(candidates, sum(1 for rows in analysis.rows if rows))
    candidates = _drop_title_pages(candidates, analysis, body)
    candidates = _numbered_system(candidates, body)
    levels = _style_levels(candidates)
    return [Heading(title=clean_title(c.text), level=levels[c.style], page=c.row.page, y=c.row.y0) for c in candidates]


def _body_is_bold(analysis: Analysis, body: float) -> bool:
    """True when most body-size text is bold (then bold says nothing)."""
    bold = plain = 0
    for rows in analysis.rows[:50]:
        for row in rows:
            if abs(row.size - body) < 0.6:
                if row.bold:
                    bold += len(row.text)
                else:
                    plain += len(row.text)
    return bold > plain


def _title_block_end(rows: list[Row], body: float) -> int:
    """Index of the first body-text row of the first page: rows above it (title, authors) are not sections."""
    for i, row in enumerate(rows):
        if abs(row.size - body) < 0.6 and not row.bold and len(row.text) >= 60:
            return i
        num = leading_number(row.text)
        if num is not None and num.kind in _STRONG_KINDS and num.rest and i > 0 and ordinal(num) == 1 and (
            row.bold or row.size > body + 1 or num.rest.isupper()
        ):
            return i  # "1 Introduction" right under the title block
    return len(rows)


def _judge(row: Row, body: float, body_bold: bool, left: float) -> _Candidate | None:
    """A candidate when the row looks like a heading, else None."""
    text = row.text.strip()
    n = len(text)
    if n < 2 or n > MAX_CHARS or row.crowded:
        return None
    larger = row.size >= body + max(1.0, 0.12 * body)
    bold = row.bold and not body_bold and row.size >= body - 1.5
    maybe_numbered = _NUMBER_START.match(text) is not None
    if not (larger or bold or maybe_numbered):
        return None
    if row.size < body - 3:
        return None
    words = text.split()
    if len(words) > MAX_WORDS:
        return None
    if _SENTENCE_END.search(text) or _CAPTION.match(text) or _LEADERS.search(text):
        return None
    if text.endswith(".") and not larger and len(words) >= 3:
        return None  # a sentence, or a run-in head followed by its text
    m = _RUN_IN.match(text)
    if m and _prose(m.group(1)):
        return None  # "Residual Representations. In image recognition, ..." is a paragraph
    letters = len(_LETTER.findall(text))
    if letters < 2 or letters < 0.5 * n:
        return None
    num = leading_number(text) if maybe_numbered else None
    kind = "none"
    if num is not None:
        if not num.rest or not (num.rest[0].isupper() or num.rest[0] in "“\"'‘") or not _WORD4.search(num.rest):
            num = None
        else:
            kind = num.kind if num.kind != "decimal" else f"decimal{num.depth}"
    if larger or bold:
        if num is None and not _title_like(words):
            return None
        if text.endswith(":") and not larger:
            return None  # a run-in label ("Proof:", "Note:")
        return _Candidate(row, text, (round(row.size), row.bold, kind), bottom=row.y1)
    if num is None or not _numbered_title(num, words, row, body, left):
        return None
    return _Candidate(row, text, (round(row.size), row.bold, kind), bottom=row.y1)


def _centred(rows: list[Row], i: int, left: float, right: float, body: float) -> _Candidate | None:
    """A short body-size title centred in the text column with white space above and below ("Film")."""
    row = rows[i]
    text = row.text.strip()
    width = right - left
    if len(text) > 60 or abs(row.size - body) > 1.5 or width <= 0 or row.crowded:
        return None
    if abs((row.x0 + row.x1) / 2 - (left + right) / 2) > 0.03 * width or row.x1 - row.x0 > 0.6 * width:
        return None
    if row.x0 - left < 0.1 * width:
        return None
    height = row.y1 - row.y0
    above = row.y0 - rows[i - 1].y1 if i > 0 else 2 * height
    below = rows[i + 1].y0 - row.y1 if i + 1 < len(rows) else height
    if above < 1.2 * height or below < 0.6 * height:
        return None
    words = text.split()
    if len(words) > 8 or _SENTENCE_END.search(text) or _MATH.search(text) or _CAPTION.match(text):
        return None
    if text.endswith(":") or len(_LETTER.findall(text)) < 0.7 * len(text.replace(" ", "")):
        return None
    if not _title_like(words) or leading_number(text) is not None or not _WORD4.search(text):
        return None
    return _Candidate(row, text, (round(row.size), row.bold, "centred"), bottom=row.y1)


def _prose(text: str) -> bool:
    """Four or more words, most longer ones in lower case: sentence text, not a title."""
    words = text.split()
    longer = [w for w in words if len(w) > 3 and w[0].isalpha()]
    return len(words) >= 4 and bool(longer) and sum(w[0].islower() for w in longer) >= 0.5 * len(longer)


def _with_isolated_lines(
    candidates: list[_Candidate], analysis: Analysis, skip_pages: set[int], first_text: int | None, body: float
) -> list[_Candidate]:
    """`candidates` plus short body-size lines at the left margin that follow a finished paragraph after extra
    space and read like titles, in reading order."""
    found = list(candidates)
    for page_index, rows in enumerate(analysis.rows):
        if page_index + 1 in skip_pages or len(rows) < 3:
            continue
        start = _title_block_end(rows, body) + 1 if page_index == first_text else 1
        left = min(r.x0 for r in rows)
        width = max(r.x1 for r in rows) - left
        for i in range(start, len(rows) - 1):
            row, prev, nxt = rows[i], rows[i - 1], rows[i + 1]
            text = row.text.strip()
            if len(text) > 60 or abs(row.size - body) > 0.6 or row.crowded or analysis.is_running(row, i):
                continue
            if row.x0 - left > 0.03 * width or row.x1 - row.x0 > 0.6 * width or width <= 0:
                continue
            height = row.y1 - row.y0
            if row.y0 - prev.y1 < 0.8 * height or not _PARAGRAPH_END.search(prev.text) or nxt.y0 - row.y1 > height:
                continue
            words = text.split()
            if len(words) > 8 or _SENTENCE_END.search(text) or text.endswith((".", ":")) or _MATH.search(text):
                continue
            if not _title_like(words) or not _WORD4.search(text) or text[0].islower():
                continue
            found.append(_Candidate(row, text, (round(row.size), row.bold, "isolated"), last_index=i, bottom=row.y1))
    found.sort(key=lambda c: (c.row.page, c.last_index))
    return found


def _numbered_title(num: Numbering, words: list[str], row: Row, body: float, left: float) -> bool:
    """A body-size, non-bold numbered row that reads like a title rather than a list item."""
    if row.text.rstrip().endswith(":") or _MATH.search(row.text):
        return False
    if row.size < body - 0.5 and not num.rest.isupper():
        return False  # smaller than the text: a label or caption unless set in (small) capitals
    if num.kind.startswith("keyword"):
        return len(words) <= 12
    if num.kind not in _STRONG_KINDS and num.kind not in _WEAK_KINDS:
        return False
    if len(words) > (MAX_WORDS if row.x0 > left + 60 else 12):
        return False  # long numbered titles only in an indented heading block, else they are list items
    return _title_like(words[1:]) or num.rest.isupper()


def _title_like(words: list[str]) -> bool:
    """Most significant words capitalised, or all caps: a title rather than a sentence fragment."""
    significant = [w for w in words if w.lower() not in _SMALL_WORDS and w[:1].isalpha()]
    if not significant:
        return bool(words)
    if not significant[0][0].isupper() and not words[0][:1].isdigit():
        return False
    caps = sum(1 for w in significant if w[0].isupper())
    return caps >= 0.6 * len(significant) or len(significant) <= 3


def _continues(prev: _Candidate, row: Row, index: int, body: float, width: float, left: float) -> bool:
    """True when `row` is the next line of the heading `prev` (same page and style, directly below it)."""
    if prev.row.page != row.page or prev.last_index != index - 1 or row.crowded:
        return False
    if abs(prev.row.size - row.size) > 0.3 or prev.row.bold != row.bold or prev.text.endswith((".", ":", "?")):
        return False
    if len(prev.text) + len(row.text) > MAX_CHARS or _CAPTION.match(row.text):
        return False
    if len(_LETTER.findall(row.text)) < 0.6 * len(row.text.replace(" ", "")):
        return False  # figures and table rows under a title
    if prev.text.isupper() != row.text.isupper() and any(ch.isalpha() for ch in row.text):
        return False  # "OTHER INFORMATION" over "Income Taxes": two headings, not one
    emphasised = prev.row.bold or prev.row.size >= body + 1.0
    if not emphasised and not (abs(row.x0 - prev.row.title_x0) < 2 and row.x0 > left + 30):
        return False  # a body-size heading goes on only in its own indented block; else the next line is text
    num = leading_number(row.text)
    if num is not None and num.rest:
        return False
    gap = row.y0 - prev.bottom
    height = row.y1 - row.y0
    return -0.4 * height < gap <= (0.8 if emphasised else 0.3) * height


def _in_sequence(candidates: list[_Candidate], body: float) -> list[_Candidate]:
    """Numbered candidates must continue a count ("C." after "A." or "B."; "(2)" after "(1)").

    Initials ("J. David Smith"), stray list items and sub-figure labels break the count: a body-size one is
    dropped, an emphasised one stays as an unnumbered heading.
    """
    seen: dict[str, set[int]] = {}
    kept: list[_Candidate] = []
    for cand in candidates:
        kind = cand.style[2]
        if kind in _UNNUMBERED or kind.startswith("keyword") or kind.startswith("decimal") and kind != "decimal1":
            kept.append(cand)
            continue
        num = leading_number(cand.text)
        readings = _readings(num) if num is not None else []
        fits = [(counter, value) for counter, value in readings
                if value <= (2 if counter in _STRONG_COUNTERS else 1) or value - 1 in seen.get(counter, ())
                or value - 2 in seen.get(counter, ())]
        if fits:
            counter, value = fits[0]
            seen.setdefault(counter, set()).add(value)
            kept.append(cand)
        elif cand.row.bold or cand.row.size >= body + 1.0:
            cand.style = (cand.style[0], cand.style[1], "none")
            kept.append(cand)
    return kept


def _drop_labels(candidates: list[_Candidate], label_counts: dict[str, int]) -> list[_Candidate]:
    """Labels that repeat ("Definition 4", "Beispiel 12", "Solution to exercise 3") are environments, not sections.

    A text that differs only by its numbers and stays the same at least 4 times is dropped, unless it opens with
    a sectioning word (Chapter, Article, Part...); an unnumbered text repeated 8 times or more is dropped too.
    """
    counts: dict[str, int] = {}
    keys: list[str] = []
    for cand in candidates:
        text = cand.text.lower()
        key = _NUMBERS.sub("#", text)
        if key == text:
            key = "=" + text
        elif key.split(" ", 1)[0] in _SECTION_WORDS or key.startswith("#"):
            key = ""
        keys.append(key)
        if key:
            counts[key] = counts.get(key, 0) + 1
    kept = []
    for cand, key in zip(candidates, keys):
        if key and counts[key] >= (8 if key.startswith("=") else 4):
            continue
        m = _LABEL_WORD.match(cand.text)
        if m and m.group(1).lower() not in _SECTION_WORDS and label_counts.get(m.group(1).lower(), 0) >= 4:
            continue
        kept.append(cand)
    return kept


def _drop_repeated_runs(candidates: list[_Candidate]) -> list[_Candidate]:
    """Three or more headings in a row that repeat earlier titles in another style (endnotes grouped by
    chapter, per-chapter figure lists) are a back-matter index of the sections, not new sections. Repeats in
    the same style ("(1) Initial Costs" under each obligation) are real sections."""
    seen: dict[str, tuple[str, tuple[float, bool]]] = {}
    repeats: list[bool] = []
    for cand in candidates:
        key = title_key(cand.text)
        num = leading_number(cand.text)
        words = num.rest if num is not None and num.rest else cand.text
        first = seen.setdefault(key, (words, cand.style[:2]))
        repeats.append(first[0] != words or first[1] != cand.style[:2])
    drop: set[int] = set()
    i = 0
    while i < len(candidates):
        j = i
        while j < len(candidates) and repeats[j]:
            j += 1
        if j - i >= 3:
            drop.update(range(i, j))
        i = j + 1 if j == i else j
    return [c for k, c in enumerate(candidates) if k not in drop]


def _drop_frame_titles(candidates: list[_Candidate], text_pages: int) -> list[_Candidate]:
    """A style printed at the same spot on most pages is a slide's frame title or a running head, not a section."""
    if text_pages < 6:
        return candidates
    spots: dict[tuple[tuple[float, bool, str], int, int], set[int]] = {}
    for cand in candidates:
        if cand.style[2] not in _UNNUMBERED:
            continue  # numbered in sequence: chapters that each open a page
        spots.setdefault((cand.style, int(cand.row.x0 // 8), int(cand.row.y0 // 8)), set()).add(cand.row.page)
    crowded = {key for key, pages in spots.items() if len(pages) >= max(5, 0.4 * text_pages)}
    return [c for c in candidates if (c.style, int(c.row.x0 // 8), int(c.row.y0 // 8)) not in crowded]


def _drop_title_pages(candidates: list[_Candidate], analysis: Analysis, body: float) -> list[_Candidate]:
    """Pages with no running text and four or more "headings" are title or cover pages: none of it is a section."""
    per_page: dict[int, int] = {}
    for cand in candidates:
        per_page[cand.row.page] = per_page.get(cand.row.page, 0) + 1
    covers = set()
    for page, count in per_page.items():
        if count >= 4 and not any(
            abs(r.size - body) < 0.6 and len(r.text) >= 50 and not r.bold for r in analysis.rows[page - 1]
        ):
            covers.add(page)
    return [c for c in candidates if c.row.page not in covers]


def _readings(num: Numbering) -> list[tuple[str, int]]:
    """(counter, position) readings of a number: "I."/"i."/"V."/"x." may be roman numerals or letters."""
    value = ordinal(num)
    readings = [(sequence_kind(num), value)] if value is not None else []
    token = num.token
    if num.kind in ("roman", "lower-roman") and len(token) == 1:
        readings.append(("upper-letter" if token.isupper() else "lower-letter", ord(token.lower()) - 96))
    return readings


def _numbered_system(candidates: list[_Candidate], body: float) -> list[_Candidate]:
    """In a document that numbers its headings, body-size unnumbered "headings" are labels: drop them."""
    numbered = sum(1 for c in candidates if c.style[2] not in _UNNUMBERED)
    if numbered < 5 or numbered < 0.6 * len(candidates):
        return candidates
    return [c for c in candidates if c.style[2] not in _UNNUMBERED or c.style[0] >= body + max(1.0, 0.12 * body)]


def _style_levels(candidates: list[_Candidate]) -> dict[tuple[float, bool, str], int]:
    """Level of each heading style: larger first, bold before regular, then numbering depth and first use.

    An unnumbered style ranks with the first numbered style of the same size and weight ("References" after
    "7 Conclusion" is a sibling, not a child).
    """
    first_seen: dict[tuple[float, bool, str], int] = {}
    first_kind: dict[tuple[float, bool], str] = {}
    for i, cand in enumerate(candidates):
        first_seen.setdefault(cand.style, i)
        if cand.style[2] not in _UNNUMBERED:
            first_kind.setdefault(cand.style[:2], cand.style[2])

    def key(style: tuple[float, bool, str]) -> tuple[float, bool, str]:
        kind = style[2] if style[2] != "none" else first_kind.get(style[:2], "none")
        return (style[0], style[1], kind)

    keys = {style: key(style) for style in first_seen}
    seen_key: dict[tuple[float, bool, str], int] = {}
    for style, k in keys.items():
        seen_key[k] = min(seen_key.get(k, first_seen[style]), first_seen[style])

    def order(k: tuple[float, bool, str]) -> tuple[float, int, int, int]:
        size, bold, kind = k
        depth = int(kind[7:]) if kind.startswith("decimal") else 0
        return (-size, 0 if bold else 1, depth, seen_key[k])

    ranked = sorted(seen_key, key=order)
    rank = {k: min(i + 1, 6) for i, k in enumerate(ranked)}
    return {style: rank[k] for style, k in keys.items()}
