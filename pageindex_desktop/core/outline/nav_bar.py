"""Sections of a slide deck read from its navigation bar, where the slides print them and nowhere else.

Beamer's navigation themes (a headline or sidebar listing every section, or a headline/footline naming the
current section and subsection) and similar decks never set a section as a heading: each slide has only
its own frame title, which is not a section. The bar is the deck's outline:

- a *bar* lists the same entries (small text in a page margin or side strip) on most slides and draws the
  current one in its own look (colour, or weight): beamer mixes the others toward the background. The look
  that marks one entry per slide, the marked entry moving only forward along the bar, is the highlight, and
  a section starts where the marked entry changes. Entries set close together come out of MuPDF as one
  line: each colour run of it (`Line.runs`) is an entry, and faded neighbours merged into one run still
  count as printed;
- a *slot* is one place in the headline or footline whose short text changes from time to time and never
  comes back once it has changed ("Methods" on slides 4-9, then "Results"): the current section's name.
  "Author | Title | Section" printed as one line is read as three places.

A second bar or slot whose entries live inside one section at a time (the subsections of the current
section, under the sections or indented below them in a sidebar) gives the second level. Only landscape
decks without pages of running prose are read: a report's running header that names its chapter is a
header, and its headings are found by layout. The bar's rows never become headings: when a bar is found,
its sections are the deck's layout headings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import Analysis
from pageindex_desktop.core.outline.layout_filters import is_prose_page
from pageindex_desktop.core.outline.tree import Heading

EDGE = 0.15  # top and bottom share of a slide where a headline or footline sits
SIDE = 0.25  # left and right share of a slide where a sidebar sits
MIN_PAGES = 4
LANDSCAPE_SHARE = 0.8  # share of text pages wider than tall: a deck of slides
PROSE_SHARE = 0.2  # more pages of running prose than this: a document, not a deck
BAR_SHARE = 0.5  # a section entry of a bar is printed on at least this share of the text pages
MARKED_SHARE = 0.5  # share of the bar's slides whose marked entry the highlight must tell
ORDER_SHARE = 0.9  # share of marked slides whose entry must follow the bar's order
SLOT_SHARE = 0.5  # share of text pages a section slot is printed on
SECTION_RUN = 1.5  # slides a section slot's text holds on average: a text changing on every slide is no section
SUBSECTION_RUN = 1.2  # the same for subsections, which are shorter
NEAR = 2.0  # points: rows of one bar line (or sidebar column) share their y (or x) within this
MAX_CHARS = 60  # a navigation entry; three times that for a row printing several ("Author | Title | Section")
SEPARATOR = "|"
SLOT_WORDS = 8  # a section's name is short; a longer text in the footline is a note or a source
_DIGITS = re.compile(r"[0-9]+")
_NOT_A_NAME = re.compile(r"^[^\W\d_]+\s?:|[.;,]$")  # "Source: ...", "Note: ...", a sentence


@dataclass(frozen=True, slots=True)
class _Entry:
    """One navigation text on one slide: where it is, how it looks and its place along its bar."""

    page: int
    text: str
    look: tuple[int, bool]  # colour and weight
    pos: float  # along the bar: x for a headline or footline, y for a sidebar
    x0: float
    x1: float
    part: int = -1  # its place in a row printing several ("Author | Title | Section"), -1 for a whole row


Track = list[_Entry]
Sequence = list[tuple[int, str]]  # (page, current entry) for the slides where it is known, in page order


def is_slide_deck(doc: ExtractedDocument, analysis: Analysis) -> bool:
    """True when the document reads as slides: MIN_PAGES pages of text or more, most of them landscape, few
    of them prose pages (a landscape report is no deck). Kept with the analysis: the bar, the outline slides,
    the linked contents slide and the frame-title filter all ask."""
    cached = analysis.extra.get("deck")
    if isinstance(cached, bool):
        return cached
    analysis.extra["deck"] = deck = _reads_as_slides(doc, analysis)
    return deck


def _reads_as_slides(doc: ExtractedDocument, analysis: Analysis) -> bool:
    """The test behind `is_slide_deck`."""
    text_pages = sum(1 for rows in analysis.rows if rows)
    if text_pages < MIN_PAGES:
        return False
    sized = [(p.width, p.height) for p, rows in zip(doc.pages, analysis.rows) if rows]
    if sum(1 for w, h in sized if w > h) < LANDSCAPE_SHARE * len(sized):
        return False
    return sum(1 for rows in analysis.rows if is_prose_page(rows, analysis.body_size)) <= PROSE_SHARE * text_pages


def find_nav_headings(doc: ExtractedDocument, analysis: Analysis) -> list[Heading] | None:
    """The deck's sections (level 1) and subsections (level 2) from its navigation bar, or None when it has none."""
    if not is_slide_deck(doc, analysis):
        return None
    text_pages = sum(1 for rows in analysis.rows if rows)
    body = analysis.body_size
    tracks = _tracks(doc, body)
    top, top_texts = _best_bar(tracks, text_pages)
    if top is None:
        top, top_texts = _best_slot(tracks, text_pages, None)
    if top is None:
        return None
    sections = _starts(top)
    if len(sections) < 2:
        return None
    spans = _spans(sections, len(doc.pages))
    sub = _sub_bar(tracks, top_texts, spans) or _best_slot(tracks, text_pages, (top_texts, spans))[0]
    headings = [Heading(title, 1, page, 0.0) for page, title in sections]
    if sub is not None:
        headings += [Heading(title, 2, page, 0.1) for page, title in _starts(sub, spans)]
    headings.sort(key=lambda h: (h.page, h.level))
    return headings


def _tracks(doc: ExtractedDocument, body: float) -> dict[tuple[str, int], Track]:
    """Short texts no larger than the body in the page margins, grouped by where they sit: one track per line
    of a headline or footline (same y), per column of a sidebar (same x), and per stack of a headline's lines
    set flush on one edge (beamer's Warsaw lists its sections one under the other, flush right, in the
    headline's left half, and the current section's subsections flush left in its right half). A line printed
    in several colours gives one entry per colour run: MuPDF reads a bar whose entries sit close together as
    one line."""
    found: dict[str, list[tuple[float, _Entry]]] = {}
    for page in doc.pages:
        width, height = page.width, page.height
        for line in page.lines:
            if line.size > body + 0.5 or len(line.text) > 4 * MAX_CHARS:
                continue
            top, bottom = line.y1 <= EDGE * height, line.y0 >= (1 - EDGE) * height
            pieces = line.runs or ((line.text, line.color, line.bold, line.x0, line.x1),)
            for text, color, bold, x0, x1 in pieces:
                if len(text) > MAX_CHARS * (1 + 2 * (SEPARATOR in text)) or not any(ch.isalpha() for ch in text):
                    continue
                # a corner text may open a headline or a sidebar: it joins both, each bar judged on its own
                if top or bottom:
                    found.setdefault("top" if top else "bottom", []).append(
                        (line.y0, _Entry(page.number, text, (color, bold), x0, x0, x1)))
                    if not line.runs:  # a headline's stack, one entry per line: by the edge they align on
                        for edge, coord in (("right", x1), ("left", x0)):
                            found.setdefault(f"{'top' if top else 'bottom'} stack {edge}", []).append(
                                (coord, _Entry(page.number, text, (color, bold), line.y0, x0, x1)))
                if x1 <= SIDE * width or x0 >= (1 - SIDE) * width:
                    found.setdefault("left" if x1 <= SIDE * width else "right", []).append(
                        (x0, _Entry(page.number, text, (color, bold), line.y0, x0, x1)))
    tracks: dict[tuple[str, int], Track] = {}
    for region, items in found.items():
        items.sort(key=lambda item: item[0])
        cluster, last = 0, items[0][0]
        for coord, entry in items:
            if coord - last > NEAR:
                cluster += 1
            last = coord
            tracks.setdefault((region, cluster), []).append(entry)
    return tracks


def _printed(track: Track) -> dict[str, set[int]]:
    """Text -> the pages the track prints it on, by itself or inside a longer entry (the faded entries of a
    bar MuPDF read as one line come as one run: "Our Method Experiments" holds "Experiments")."""
    joined: dict[int, str] = {}
    for page, entries in _by_page(track).items():
        joined[page] = " " + " ".join(e.text for e in sorted(entries, key=lambda e: e.pos)) + " "
    pages: dict[str, set[int]] = {}
    for text in {e.text for e in track}:
        key = f" {text} "
        pages[text] = {page for page, line in joined.items() if key in line}
    return pages


def _pages_of(track: Track) -> dict[str, set[int]]:
    """Text -> the pages it is printed on in the track."""
    pages: dict[str, set[int]] = {}
    for entry in track:
        pages.setdefault(entry.text, set()).add(entry.page)
    return pages


def _best_bar(tracks: dict[tuple[str, int], Track], text_pages: int) -> tuple[Sequence | None, set[str]]:
    """The bar whose highlight tells the current section on the most slides (with the sections of a part
    after it, `_later_part`), and its entries' texts."""
    best: tuple[Sequence | None, set[str]] = (None, set())
    for track in tracks.values():
        recurring = {text for text, pages in _printed(track).items()
                     if len(pages) >= max(3.0, BAR_SHARE * text_pages)}
        if len(recurring) < 2:
            continue
        entries = [e for e in track if e.text in recurring]
        order = _order(entries)
        found = _progression(_by_page(entries), lambda e: (0, order[e.text]))
        if found is None:
            continue
        highlight, seq = found
        later = _later_part(track, max(e.page for e in entries), highlight)
        if best[0] is None or len(seq) + len(later) > len(best[0]):
            best = (seq + later, recurring | {text for _page, text in later})
    return best


def _later_part(track: Track, last: int, highlight: tuple[int, bool]) -> Sequence:
    """Sections of a part after the bar's last slide (beamer's appendix, a later part), whose bar lists only
    that part's sections: the entry of the track in the bar's highlight, when it is the only one so marked on
    the slide, is printed on two slides or more and moves only forward."""
    marked = _by_page([e for e in track if e.page > last and e.look == highlight])
    pages = _printed([e for e in track if e.page > last])
    seq: Sequence = []
    for page, entries in marked.items():
        if len(entries) == 1 and len(pages[entries[0].text]) >= 2:
            if seq and seq[-1][1] != entries[0].text and any(text == entries[0].text for _p, text in seq):
                continue  # an entry already left: a stray mark
            seq.append((page, entries[0].text))
    return seq


def _sub_bar(tracks: dict[tuple[str, int], Track], top_texts: set[str],
             spans: list[tuple[int, int]]) -> Sequence | None:
    """A bar of subsections: entries printed on most slides of one section and on no other section's, whose
    highlight moves forward along the bar within each section."""
    best: Sequence | None = None
    for track in tracks.values():
        kept: list[_Entry] = []
        for text, pages in _printed(track).items():
            if text in top_texts or len(pages) < 2:
                continue
            inside = {_span_index(spans, p) for p in pages}
            if len(inside) != 1 or -1 in inside:
                continue
            first, last = spans[inside.pop()]
            if len(pages) >= BAR_SHARE * (last - first + 1):
                kept.extend(e for e in track if e.text == text)
        order = _order(kept)
        found = _progression(_by_page(kept), lambda e: (_span_index(spans, e.page), order[e.text]))
        if found is not None and (best is None or len(found[1]) > len(best)):
            best = found[1]
    return best


def _order(entries: list[_Entry]) -> dict[str, float]:
    """Each text's mean place along its bar (entries keep their order even when a sidebar shifts them)."""
    total: dict[str, list[float]] = {}
    for entry in entries:
        total.setdefault(entry.text, []).append(entry.pos)
    return {text: sum(values) / len(values) for text, values in total.items()}


def _by_page(entries: list[_Entry]) -> dict[int, list[_Entry]]:
    """Entries per page, in page order."""
    pages: dict[int, list[_Entry]] = {}
    for entry in sorted(entries, key=lambda e: e.page):
        pages.setdefault(entry.page, []).append(entry)
    return pages


def _progression(by_page: dict[int, list[_Entry]],
                 key: Callable[[_Entry], tuple[int, float]]) -> tuple[tuple[int, bool], Sequence] | None:
    """The highlight and the current entry per slide: the look that marks exactly one entry of a slide's bar
    while the others look different, when that marked entry only moves forward along the bar (`key`); None
    when no look does. Once the highlight is known, a slide showing one entry only is marked by it too.
    Slides whose marked entry goes back are left unmarked (a stray colour)."""
    crowded = [page for page, entries in by_page.items() if len(entries) >= 2]
    looks = {e.look for entries in by_page.values() for e in entries}
    if len(looks) < 2 or not crowded:
        return None
    best: tuple[int, tuple[int, bool]] | None = None
    for look in looks:
        marked: list[_Entry] = []
        for page in crowded:
            hits = [e for e in by_page[page] if e.look == look]
            if len(hits) == 1 and len(by_page[page]) > 1:
                marked.append(hits[0])
        if len(marked) < MARKED_SHARE * len(crowded) or len({e.text for e in marked}) < 2:
            continue
        keys = [key(e) for e in marked]
        if _forward(keys) < ORDER_SHARE * len(keys):
            continue
        if best is None or len(marked) > best[0]:
            best = (len(marked), look)
    if best is None:
        return None
    highlight = best[1]
    seq: Sequence = []
    reached: tuple[int, float] | None = None
    for page, entries in by_page.items():
        hits = [e for e in entries if e.look == highlight]
        if len(hits) != 1:
            continue
        k = key(hits[0])
        if reached is not None and k < reached:
            continue
        reached = k
        seq.append((page, hits[0].text))
    return highlight, seq


def _forward(keys: list[tuple[int, float]]) -> int:
    """How many of `keys` never fall below the highest key before them."""
    count = 0
    reached: tuple[int, float] | None = None
    for k in keys:
        if reached is None or k >= reached:
            count += 1
            reached = k
    return count


def _best_slot(tracks: dict[tuple[str, int], Track], text_pages: int,
               outer: tuple[set[str], list[tuple[int, int]]] | None) -> tuple[Sequence | None, set[str]]:
    """The headline or footline place whose text names the current section (`outer` None) or subsection
    (`outer` the sections' texts and page spans): printed on most slides (sections) and changing in runs that
    never come back, within one section for subsections."""
    best: tuple[Sequence | None, set[str]] = (None, set())
    for (region, _cluster), track in tracks.items():
        if region not in ("top", "bottom"):
            continue
        entries = [part for e in track for part in _split(e)]
        fixed = {text for text, pages in _pages_of(entries).items() if len(pages) >= BAR_SHARE * text_pages}
        for lane in _lanes(entries):
            lane = [e for e in lane if e.text not in fixed and (outer is None or e.text not in outer[0])]
            seq = _slot_sequence(lane)
            if seq is None or not _slot_ok(seq, text_pages, outer):
                continue
            if best[0] is None or len(seq) > len(best[0]):
                best = (seq, {text for _page, text in seq})
    return best


def _split(entry: _Entry) -> list[_Entry]:
    """A row printing several places at once ("Author | Title | Section") as one entry per place."""
    if SEPARATOR not in entry.text:
        return [entry]
    return [_Entry(entry.page, text.strip(), entry.look, entry.pos, entry.x0, entry.x1, part)
            for part, text in enumerate(entry.text.split(SEPARATOR)) if any(ch.isalpha() for ch in text)]


def _lanes(entries: Track) -> list[Track]:
    """Entries of one headline or footline line grouped into places: whole rows whose spans overlap, and each
    place of the rows that print several."""
    lanes: list[Track] = []
    right = -1e9
    for entry in sorted((e for e in entries if e.part < 0), key=lambda e: e.x0):
        if not lanes or entry.x0 > right:
            lanes.append([])
            right = entry.x1
        lanes[-1].append(entry)
        right = max(right, entry.x1)
    places: dict[int, Track] = {}
    for entry in entries:
        if entry.part >= 0:
            places.setdefault(entry.part, []).append(entry)
    return lanes + list(places.values())


def _slot_sequence(lane: Track) -> Sequence | None:
    """(page, text) for the pages where the place prints exactly one text, in page order; None unless two or
    more texts read as names. Texts that differ only in their numbers ("Slide 3", "Slide 4", held over a
    frame's overlays) are a counter, and a long text, a labelled note or a sentence is not a section's name."""
    by_page = _by_page(lane)
    seq = [(page, entries[0].text) for page, entries in by_page.items() if len(entries) == 1]
    seq = [(page, text) for page, text in seq if len(text.split()) <= SLOT_WORDS and not _NOT_A_NAME.search(text)]
    return seq if len({_DIGITS.sub("#", text) for _page, text in seq}) >= 2 else None


def _slot_ok(seq: Sequence, text_pages: int, outer: tuple[set[str], list[tuple[int, int]]] | None) -> bool:
    """Runs that hold on more than one slide on average (SECTION_RUN, SUBSECTION_RUN) and never come back
    (within a section, for subsections); for sections, printed on most slides."""
    runs: list[tuple[int, str]] = []  # (section index or 0, text) of each run
    for page, text in seq:
        scope = 0 if outer is None else _span_index(outer[1], page)
        if not runs or runs[-1] != (scope, text):
            runs.append((scope, text))
    if len(set(runs)) < len(runs):
        return False
    if outer is None:
        return len(seq) >= SLOT_SHARE * text_pages and len(seq) >= SECTION_RUN * len(runs)
    return len(seq) >= SUBSECTION_RUN * len(runs) and -1 not in {scope for scope, _text in runs}


def _starts(seq: Sequence, spans: list[tuple[int, int]] | None = None) -> Sequence:
    """(first page, text) of each run of one current entry (runs restart at each section for subsections)."""
    out: Sequence = []
    last: tuple[int, str] | None = None
    for page, text in seq:
        scope = 0 if spans is None else _span_index(spans, page)
        if last != (scope, text):
            out.append((page, text))
            last = (scope, text)
    return out


def _spans(sections: Sequence, page_count: int) -> list[tuple[int, int]]:
    """First and last page of each section: to the page before the next one starts."""
    starts = [page for page, _text in sections]
    return [(start, (starts[i + 1] - 1) if i + 1 < len(starts) else page_count) for i, start in enumerate(starts)]


def _span_index(spans: list[tuple[int, int]], page: int) -> int:
    """Index of the section span holding `page`, -1 before the first section."""
    for i, (first, last) in enumerate(spans):
        if first <= page <= last:
            return i
    return -1
