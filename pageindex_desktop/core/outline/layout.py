"""Headings found from the page layout alone: size and weight against the body text, numbering, isolation.

One linear pass over the rows of every page: running headers and footers, the title block of the first page,
captions, table cells and sentences are ruled out; what is left is a heading when it is set larger than the
body, in bold while the body is not, or opens with a section number and reads like a title. Levels come from
the rank of each heading style (size, weight, numbering kind and depth). A slide deck with a navigation bar takes
its sections from the bar instead (nav_bar.py): its slides print no section as a heading.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import replace

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.analysis import Analysis, analyse
from pageindex_desktop.core.outline.bold_italic import bold_italic_order
from pageindex_desktop.core.outline.capital_styles import capitals_apart
from pageindex_desktop.core.outline.chart_parts import drop_chart_titles
from pageindex_desktop.core.outline.column_heads import drop_column_heads
from pageindex_desktop.core.outline.definition_terms import drop_definition_terms
from pageindex_desktop.core.outline.divider_slides import divider_levels
from pageindex_desktop.core.outline.divisions import division_levels
from pageindex_desktop.core.outline.contents import contents_bands, find_contents
from pageindex_desktop.core.outline.emphasis import Emphasis
from pageindex_desktop.core.outline.heading_colour import larger_than_body
from pageindex_desktop.core.outline.heading_italic import italic_under_upright
from pageindex_desktop.core.outline.heading_underline import underline_under_bold
from pageindex_desktop.core.outline.filing_pages import (
    EXHIBIT_PAGE,
    contents_heading,
    is_exhibit_title,
    with_filing_contents,
)
from pageindex_desktop.core.outline.heading_lines import (CAPTION, MAX_CHARS, continues, names_label, run_in_lead,
                                                          sentence_goes_on)
from pageindex_desktop.core.outline.kickers import drop_kickers
from pageindex_desktop.core.outline.label_cells import label_cells
from pageindex_desktop.core.outline.list_items import drop_list_items
from pageindex_desktop.core.outline.linked_outline import find_linked_outline
from pageindex_desktop.core.outline.listed_children import nest_listed
from pageindex_desktop.core.outline.listing_rows import listing_rows
from pageindex_desktop.core.outline.nav_bar import find_nav_headings, is_slide_deck
from pageindex_desktop.core.outline.numbered_rank import numbered_above
from pageindex_desktop.core.outline.outline_slides import find_outline_slides
from pageindex_desktop.core.outline.numbering import (
    LEADERS,
    PAGE_COLUMN_HEAD,
    STRONG_KINDS,
    Numbering,
    clean_title,
    leading_number,
)
from pageindex_desktop.core.outline.row_index import PagesByTop
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.run_in_heads import run_in_section
from pageindex_desktop.core.outline.running import running_key
from pageindex_desktop.core.outline.signatures import drop_signatures
from pageindex_desktop.core.outline.split_labels import label_over_number, number_above
from pageindex_desktop.core.outline.size_scale import larger_by
from pageindex_desktop.core.outline.statement_pages import after_statements, with_statement_titles
from pageindex_desktop.core.outline.style_order import one_off_levels
from pageindex_desktop.core.outline.table_notes import is_unit_note, strip_unit_note
from pageindex_desktop.core.outline.table_parts import drop_table_parts
from pageindex_desktop.core.outline.side_heads import side_heads
from pageindex_desktop.core.outline.text_columns import column_edges, column_rights
from pageindex_desktop.core.outline.title_block import block_end, block_heading
from pageindex_desktop.core.outline.title_shape import (
    LETTER, MAX_WORDS, WORD4, bare_label_with_stop, code_title, division_with_stop, few_letters, join_title,
    keyword_title, label_only, member_name, open_ended, prose, run_in_head, sentence_case_title, title_like,
    titled_label,
)
from pageindex_desktop.core.outline.layout_evidence import (
    after_front_contents,
    column_extents,
    continued_title,
    drop_continued_titles,
    drop_table_labels,
    drop_table_rows,
    has_figures,
    nest_notes,
    row_column,
    text_column_of,
)
from pageindex_desktop.core.outline.layout_filters import (
    CAPITALS,
    LABEL_WORD,
    Candidate,
    drop_frame_titles,
    drop_labels,
    drop_repeated_runs,
    drop_title_pages,
    in_sequence,
    numbered_system,
)
from pageindex_desktop.core.outline.style_levels import outline_levels, style_levels
from pageindex_desktop.core.outline.tree import Heading

log = logging.getLogger(__name__)

SENTENCE_WORDS = 12  # an unnumbered heading longer than this must read as a title
# A financial statement's note heading ("Note 4 – Debt", "NOTE 12: LEASES"): numbered like a caption, set as a head
_NOTE_HEADING = re.compile(r"^notes?\s+[0-9]{1,2}[A-Z]?\s*[–—:.\-]\s*[A-Z“\"'‘]", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?:[a-z\u00e0-\u00ff]{2}|\))[.;,]$|[,;]$|\w-$|\s\S{1,3}\.$")
_WEAK_KINDS = frozenset({"lower-letter", "paren", "lower-roman"})
_MATH = re.compile(r"[=<>∈∉⊂⊆⊇∀∃⇒⇔→≤≥±×∑∫√∞≠≈∆△]")
_BULLETS = frozenset("•·▪◦‣●○■□–—-*►▶✓✔➢➤")
# Cheap test for "could open with a section number" before the full numbering parse.
_NUMBER_START = re.compile(
    r"^(?:\(?[0-9]{1,3}(?:\.[0-9]{1,3})*[.):]?|\(?[IVXLCDM]{1,6}[.):\-]?|\(?[A-Za-z][.)]|\([ivx]{1,4}\)|[ivx]{1,4}[.)]"
    r"|[A-Z](?:[.\-][0-9A-Z]{1,3})+\.?)(?=\s|$)"
    r"|^§|^(?:chapter|section|part|article|appendix|annex|annexe|schedule|exhibit|item"
    r"|book|lecture|unit|kapitel|teil|abschnitt|anhang|chapitre|partie|cap[íi]tulo|capitolo|parte|titre|title)\s",
    re.IGNORECASE,
)
# An identifier, then a colon or dash, then the title: "V10: ...", "Req 4.2: ...", "SC 7 – ..."
_ID_LABEL = re.compile(
    r"^[^\W\d_]{1,12}\.?\s?[0-9]{1,3}(?:\.[0-9]{1,3})*[a-z]?\s*(?::|\s[–—-])\s+(?P<rest>\S.*)$"
)
LABELLED_WORDS = 10
# schemes whose depth is part of the style ("1.2" and "1.2.3", "A.1" and "A.1.2": one scheme, two levels)
_DEPTH_KINDS = frozenset({"decimal", "letter-decimal"})
_RUN_IN = re.compile(r"^[^.:]{3,60}[.:]\s+(\S.*)$")
_QUALIFIER_LINE = re.compile(r"^\([^()]{2,60}\)$")  # "(In millions, except per share amounts)", "(UNAUDITED)"
_PARAGRAPH_END = re.compile(r"[.!?:”\"')\]]\s*[0-9]{0,3}$")


def find_layout_headings(doc: ExtractedDocument) -> list[Heading]:
    """Headings detected from typography and numbering, in reading order, with levels from style rank."""
    if not doc.pages:
        return []
    analysis = analyse(doc)
    cached = analysis.extra.get("layout")
    if not isinstance(cached, list):
        cached = _find(doc, analysis)
        analysis.extra["layout"] = cached
    return [replace(h) for h in cached]  # copies: callers may change them, the cache stays


def _find(doc: ExtractedDocument, analysis: Analysis) -> list[Heading]:
    """The layout pass itself (see find_layout_headings)."""
    nav = find_nav_headings(doc, analysis) or find_outline_slides(doc, analysis)
    # a contents slide's links: exact, and its subsections too; a sidebar's small linked list only without a bar
    linked = find_linked_outline(doc, analysis, sidebar=nav is None)
    if linked is not None and (nav is None or len(linked) > len(nav)):
        nav = linked
    if nav is not None:
        return nav  # a slide deck's sections are in its navigation bar; its rows set as headings are frame titles
    body = analysis.body_size
    body_bold = _body_is_bold(analysis, body)
    first_text = next((i for i, rows in enumerate(analysis.rows) if rows), None)
    region = find_contents(doc, analysis)
    contents_pages = set(region.pages) if region is not None else set()
    contents_band = contents_bands(region, len(doc.pages))  # contents page -> band of its entries
    # running headers' texts, wherever they sit, except continued titles (a section's name, not a banner)
    banners = {text for text, _band in analysis.furniture.texts if not continued_title(text)}
    candidates: list[Candidate] = []
    contents_cand: Candidate | None = None  # the contents list's own heading (filing_pages.py)
    label_counts: dict[str, int] = {}  # "Definition 4", "Lemma 2": emphasised word + number, counted on all rows
    marks = Emphasis.of(analysis.rows, body, analysis.sizes)  # colour, underline, size step, italic, capitals
    for page_index, rows in enumerate(analysis.rows):
        start = block_end(rows, body) if page_index == first_text else 0
        top_of_contents, end_of_contents = contents_band.get(page_index + 1, (0.0, -1.0))
        page = doc.pages[page_index]
        caption_bottom, caption_style, caption_x0, caption_table = -1.0, (0.0, False), 0.0, False
        left = min((r.x0 for r in rows), default=0.0)
        right = max((r.x1 for r in rows), default=page.width)
        emphasis = body + 1.0
        columns = column_extents(rows, left, right)  # a paper's "REFERENCES" is centred in its column
        edges = column_edges(rows, page.width)  # three columns or more too (text_columns.py)
        rights = column_rights(rows, edges) if edges else None  # how far each column's lines reach
        listed = listing_rows(rows, len(doc.pages))  # a contents page the contents parser did not read
        if region is not None and region.heading is not None and region.heading.page == page_index + 1:
            contents_cand = contents_heading(region.heading, rows)  # judged apart, added back at the end
        heads, head_lines = side_heads(rows)  # headings in a margin column beside their paragraphs
        cells, cell_lines = label_cells(rows)  # "ITEM 5." in a cell beside its wrapped title (label_cells.py)
        if not (cells.keys() | cell_lines) & (heads.keys() | head_lines):
            heads.update(cells)
            head_lines |= cell_lines
        for i in range(start, len(rows)):
            if i in head_lines:
                continue  # a side head's wrapped line, joined to its first
            row = marks.marked(heads.get(i, rows[i]))
            if i > start and len(rows[i - 1].text) <= 8 and any(test(rows[i - 1], row, analysis.is_running(
                    rows[i - 1], i - 1)) for test in (number_above, label_over_number)):
                if candidates and candidates[-1].row is rows[i - 1]:
                    candidates.pop()  # a bare "IV" taken for a heading of its own
                # the title's box and style stand for the heading (its number sits just above)
                row = replace(row, text=f"{rows[i - 1].text} {row.text}", title_x0=row.x0, parts=row.parts + 1)
            text = row.text
            if not row.bold and row.size < emphasis and (candidates and candidates[-1].last_index != i - 1) and (
                (text[0].islower() or len(text) > 60) and not _NUMBER_START.match(text)
            ):
                continue  # a line of running text: neither a heading nor the next line of one
            if analysis.is_running(row, i) or top_of_contents <= row.y0 < end_of_contents or i in listed:
                continue  # furniture, or a contents entry (a heading of another page)
            if CAPTION.match(row.text) and not _is_note_heading(row, body):
                if is_exhibit_title(row, body, lambda: _text_top(rows, analysis)):
                    candidates.append(Candidate(row, text.strip(), (round(row.size), row.bold, EXHIBIT_PAGE),
                                                last_index=i, bottom=row.y1))
                    continue
                caption_bottom, caption_style, caption_x0 = row.y1, (analysis.sizes.key(row.size), row.bold), row.x0
                caption_table = False
                continue
            if (analysis.sizes.key(row.size), row.bold) == caption_style and 0 <= row.y0 - caption_bottom < \
                    row.y1 - row.y0 and row.x0 >= caption_x0 - 2 and not (caption_table and not _table_row(row)):
                # a caption's next line, at its edge or centred under a centred one, or the rows of its table
                # set alike right under it; a line after those rows is no caption's
                caption_bottom, caption_table = row.y1, caption_table or _table_row(row)
                continue
            # the text edges of the row's column, asked once a heading stands before it: its indent, and how far
            # a line fills
            column = row_column(row, edges, rights, columns, left, right) if candidates else (left, right)
            if candidates and (
                continues(candidates[-1], row, i, body, page.width, column[0], rows)
                or names_label(candidates[-1], row, i, body)
            ):
                prev = candidates[-1]
                if run_in_lead(prev, row):
                    continue  # a bold run-in lead and its paragraph under the heading: text, not its title
                if prev.text != prev.row.text or running_key(prev.text) not in banners:
                    if prev.style[2].startswith("keyword"):  # "Chapter 1" over a larger title: ranked by it
                        prev.style = (max(row.size, prev.row.size), *prev.style[1:])
                    prev.text = join_title(prev.text, row.text)
                    prev.last_index = i
                    prev.bottom = row.y1
                    prev.last_row = row
                    continue
                # the company's name over a statement's title, printed as a running header on other pages: a
                # banner, not the title's first line; the title below stands alone
                candidates.pop()
            if row.bold or row.size > body + 1:
                m = LABEL_WORD.match(row.text)
                if m:
                    label_counts[m.group(1).lower()] = label_counts.get(m.group(1).lower(), 0) + 1
            if candidates and sentence_goes_on(candidates[-1], row, i, column[1]):
                candidates.pop()  # the bold line above opened this paragraph's sentence: no heading
                continue
            cand = _judge(row, body, body_bold, left, right)
            if cand is None and i + 1 < len(rows) and open_ended(text):
                cand = _wrapped_start(row, rows[i + 1], i, body, body_bold, left, right, page.width)
            if cand is None:
                cand = _centred(rows, i, *text_column_of(row, columns, left, right), body,
                                lambda j: analysis.is_running(rows[j], j)) if len(text) <= 60 else None
                if cand is None:
                    continue
            cand.last_index = i
            candidates.append(cand)
    if first_text is not None:
        rows = analysis.rows[first_text]
        left = min((r.x0 for r in rows), default=0.0)
        right = max((r.x1 for r in rows), default=doc.pages[first_text].width)
        opening = block_heading(rows, block_end(rows, body), candidates, analysis.sizes,
                                lambda row: _judge(row, body, body_bold, left, right))
        candidates[:0] = opening  # "Executive Summary" at the foot of the title block
    if len(candidates) < max(3, len(doc.pages) // 10):
        # no typographic headings: plain lines set apart between paragraphs ("Method", "Results")
        candidates = _with_isolated_lines(candidates, analysis, contents_pages, first_text, body)
    # a numbered heading wrapped onto three lines can run long ("a. Obligation to Reasonably Disclose ...")
    candidates = [c for c in candidates if len(c.text.split()) <= (2 * MAX_WORDS if c.style[2] != "none" else
                                                                     MAX_WORDS + 6) and not is_unit_note(c.text)]
    # a sentence set larger over its paragraph (a filing's risk factor) reads as one once its lines are joined
    candidates = [c for c in candidates if not _joined_sentence(c, body)]
    # a word of four letters, unless the line is clearly set as a heading ("Tax", "Art" in large type)
    candidates = [c for c in candidates if WORD4.search(c.text) or _short_words_title(c.text)
                  or analysis.sizes.larger_by(c.row.size, body, 2.0)]
    candidates = drop_list_items(drop_repeated_runs(italic_under_upright(analysis.sizes.restyled(candidates))), body)
    candidates = in_sequence(candidates, body)
    candidates = drop_labels(candidates, label_counts)
    deck = is_slide_deck(doc, analysis)
    candidates = drop_frame_titles(candidates, sum(1 for rows in analysis.rows if rows), deck,
                                   [p.height for p in doc.pages])
    candidates = drop_title_pages(candidates, analysis, body)
    candidates = numbered_system(candidates, body, analysis.rows)
    candidates = drop_definition_terms(candidates, analysis.rows, body)
    by_top = PagesByTop(analysis.rows)  # the rows near a candidate, for the table and signature rules
    candidates = drop_table_rows(candidates, by_top, [p.width for p in doc.pages])
    candidates = drop_table_labels(candidates, by_top, body)
    candidates = drop_column_heads(candidates, by_top)
    candidates = drop_signatures(candidates, by_top)
    candidates = drop_continued_titles(candidates)  # before table parts: a title printed twice is a label
    candidates = drop_kickers(candidates)  # "OUR STRATEGY" in small capitals over a display title
    candidates = drop_table_parts(candidates, by_top, [p.width for p in doc.pages], body)
    candidates = drop_chart_titles(candidates, doc.pages, body, analysis.sizes)
    candidates = with_statement_titles(candidates, analysis, [p.width for p in doc.pages],
                                       [p.height for p in doc.pages])
    candidates = after_front_contents(candidates, region.pages if region is not None else [], len(doc.pages))
    candidates = with_filing_contents(candidates, contents_cand)
    capitals_apart(candidates, CAPITALS)
    candidates = bold_italic_order(underline_under_bold(candidates))
    ranks = numbered_above(candidates, style_levels(candidates))
    levels = division_levels(candidates, outline_levels(candidates, ranks))
    levels = one_off_levels(candidates, levels)
    levels = nest_notes(candidates, levels)
    levels = nest_listed(candidates, levels, analysis.rows, contents_pages)
    levels = after_statements(candidates, levels, analysis.rows)
    if deck:
        levels = divider_levels(candidates, levels, analysis)
    return [Heading(title=clean_title(strip_unit_note(c.text)), level=level, page=c.row.page, y=c.row.y0)
            for c, level in zip(candidates, levels)]


def _short_words_title(text: str) -> bool:
    """A title of short words only, two of three letters or more, capitalised ("Oil and Gas", "Ice Age"): no
    word of four letters, yet no label or abbreviation ("N/A", "Q1", "USD") either."""
    words = text.split()
    capitalised = [w for w in words if len(w) >= 3 and w[0].isupper()]
    return all(w.isalpha() for w in words) and words[0][0].isupper() and len(capitalised) >= 2 \
        and not text.isupper()


def _text_top(rows: list[Row], analysis: Analysis) -> float:
    """The top of the page's own text, running headers and footers aside (where an exhibit's title sits)."""
    return min((r.y0 for j, r in enumerate(rows) if not analysis.is_running(r, j)), default=0.0)


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


def _table_row(row: Row) -> bool:
    """A row of a table: it shares its baseline with another cell, or holds one read with it ("Quality Staff
    490  749"). A bold caption over a table set in bold, its rows close under it, had every row and the heading
    right after them read as the caption's lines."""
    return row.crowded or row.parts >= 2 and has_figures(row.text)


def _judge(row: Row, body: float, body_bold: bool, left: float, right: float) -> Candidate | None:
    """A candidate when the row looks like a heading, else None (judged without a table's unit note)."""
    if row.lead and not body_bold and not row.crowded and larger_by(row.size, body, -1.5):
        run_in = _run_in_candidate(row)
        if run_in is not None:
            return run_in
    elif row.bold and not body_bold and not row.crowded and row.text.rstrip().endswith((".", ":")) \
            and not division_with_stop(row.text.strip()):
        # a run-in head whose section opens on a list or a display, so its text starts on the next line (a
        # division's title closed by a stop, "Item 4. Controls.", is judged as the heading it is below)
        run_in = _run_in_candidate(replace(row, lead=row.text.strip()))
        if run_in is not None:
            return run_in
    if row.lead and row.text.startswith(row.lead) and row.text[len(row.lead):].strip()[:1].islower():
        return None  # a paragraph opening on a bold phrase, its sentence going on in regular type on the line
        # ("Mortgage fees and related income decreased due to lower ..."): no heading changes weight mid-sentence
    text = strip_unit_note(row.text.strip())
    n = len(text)
    if n < 2 or n > MAX_CHARS or row.crowded or text[0] in _BULLETS or PAGE_COLUMN_HEAD.match(text):
        return None  # too short or long, a table cell or run-in head, a list item, or an index's "Page" column
    larger = larger_than_body(row.size, body)
    bold = row.bold and not body_bold and larger_by(row.size, body, -1.5)  # as over a 10 pt body, at any scale
    maybe_numbered = _NUMBER_START.match(text) is not None
    # a plan's "Strategy 2.1 Expand the network" set only a little larger than the text, in its weight
    plan_label = not (larger or bold or maybe_numbered) and larger_by(row.size, body, 0.5) and titled_label(text)
    if not (larger or bold or maybe_numbered or plan_label) or not larger_by(row.size, body, -3.0):
        return None
    words = text.split()
    division = maybe_numbered and (larger or bold) and keyword_title(text)
    if len(words) > (2 * MAX_WORDS if division else MAX_WORDS):
        return None  # a filing's item titles run long ("Item 5 - Market for Registrant's Common Equity, ...")
    note = _is_note_heading(row, body)
    # "Item 4. Controls and Procedures."; "Part I." set apart over the part's name
    checked = text[:-1] if division_with_stop(text) or (larger or bold) and bare_label_with_stop(text) else text
    if division and checked.endswith(","):
        checked = checked[:-1]  # "ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY," wraps on to its next line
    if _SENTENCE_END.search(checked) or CAPTION.match(text) and not note or LEADERS.search(text):
        return None
    if checked.endswith(".") and not larger and len(words) >= 3:
        return None  # a sentence, or a run-in head followed by its text
    labelled = _labelled_title(text, row, left, right)
    m = _RUN_IN.match(text)
    if (m and prose(m.group(1)) and not (division and label_only(text, m.group(1))) or run_in_head(text)) and \
            not labelled:
        return None  # "Residual Representations. In image recognition, ..." is a paragraph
    code = (larger or bold) and code_title(text)  # "4.2.2.1 read()": a member's name, few letters, no capitals
    member = larger and member_name(text)  # "flush()" set larger than the text: an API reference's entry
    if few_letters(text) and not code:
        return None
    num = leading_number(text) if maybe_numbered else None
    kind = "keyword:note" if note else "none"
    if num is not None:
        if num.kind.startswith("keyword") and not num.rest:
            kind = num.kind  # a bare "PART II" or "Chapter 3" line
        # a title opening with a bracket counts as one: a filing's "Item 6. [Reserved]" is an item like the rest
        elif not code and (not num.rest or not (num.rest.lstrip("[")[:1].isupper() or num.rest[0] in "“\"'‘")
                           or not WORD4.search(num.rest)):
            num = None
        else:
            kind = _style_kind(num)
    if larger or bold:
        if num is None and not labelled and not member and not title_like(words) and \
                not sentence_case_title(text, words, larger):
            return None
        if text.endswith(":") and not larger:
            return None  # a run-in label ("Proof:", "Note:")
        return Candidate(row, text, (round(row.size), row.bold, kind), bottom=row.y1)
    if plan_label and len(words) <= 12 and not text.endswith((".", ":")):
        return Candidate(row, text, (round(row.size), row.bold, kind), bottom=row.y1)
    if num is None or not _numbered_title(num, words, row, body, left):
        return None
    return Candidate(row, text, (round(row.size), row.bold, kind), bottom=row.y1)


def _labelled_title(text: str, row: Row, left: float, right: float) -> bool:
    """A heading led by an identifier and a colon or dash ("V10: Malicious code", "Req 4.2: Protect stored
    account data"): its title may be in sentence case, with commas, and is no run-in paragraph when the row
    ends well short of the text column's right edge (a run-in head's line runs on to the margin)."""
    m = _ID_LABEL.match(text)
    if m is None:
        return False
    rest = m.group("rest")
    words = rest.split()
    if not rest[0].isupper() or len(words) > LABELLED_WORDS or rest.endswith((".", ";", ",", ":")):
        return False
    if ". " in rest or "; " in rest:
        return False
    return row.x1 <= right - 0.1 * (right - left)


def _joined_sentence(cand: Candidate, body: float) -> bool:
    """An unnumbered heading of more than SENTENCE_WORDS words (its lines joined) that reads as a sentence."""
    words = cand.text.split()
    if cand.style[2] != "none" or len(words) <= SENTENCE_WORDS:
        return False
    return not title_like(words)


def _is_note_heading(row: Row, body: float) -> bool:
    """A "Note 4 – Debt" row set in bold or larger than the body: a numbered note, not a caption or remark."""
    return (row.bold or row.size >= body + 1.0) and _NOTE_HEADING.match(row.text) is not None


def _centred(rows: list[Row], i: int, left: float, right: float, body: float,
             running: Callable[[int], bool]) -> Candidate | None:
    """A short body-size title centred in the text column (`left`, `right`: the page's, or on a page set in two
    columns, the row's column) with white space above and below ("Film", a paper's "REFERENCES").

    A statement page's title sits right under the filer's name, a banner repeated on every statement page
    (`running`), and over its qualifiers ("(In millions, except per share amounts)", "(UNAUDITED)"): the
    space that sets it apart is above the banner and below the qualifiers."""
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
    near = [j for j, r in enumerate(rows) if r.x1 > left and r.x0 < right]  # over and under it in its column
    at = near.index(i)
    over, top = at - 1, row.y0
    while over >= 0 and running(near[over]) and top - rows[near[over]].y1 < height:
        over, top = over - 1, rows[near[over]].y0  # the banner right above
    above = top - rows[near[over]].y1 if over >= 0 else 2 * height
    last = at
    while last + 1 < len(near) and _QUALIFIER_LINE.match(rows[near[last + 1]].text.strip()) \
            and rows[near[last + 1]].y0 - rows[near[last]].y1 < 0.6 * height:
        last += 1
    below = rows[near[last + 1]].y0 - rows[near[last]].y1 if last + 1 < len(near) else height
    if above < 1.2 * height or below < 0.6 * height:
        return None
    words = text.split()
    if len(words) > 8 or _SENTENCE_END.search(text) or _MATH.search(text) or CAPTION.match(text):
        return None
    if text.endswith(":") or len(LETTER.findall(text)) < 0.7 * len(text.replace(" ", "")):
        return None
    if not title_like(words) or leading_number(text) is not None or not WORD4.search(text):
        return None
    return Candidate(row, text, (round(row.size), row.bold, "centred"), bottom=row.y1)


def _with_isolated_lines(
    candidates: list[Candidate], analysis: Analysis, skip_pages: set[int], first_text: int | None, body: float
) -> list[Candidate]:
    """`candidates` plus short body-size lines at the left margin that follow a finished paragraph after extra
    space and read like titles, in reading order."""
    found = list(candidates)
    for page_index, rows in enumerate(analysis.rows):
        if page_index + 1 in skip_pages or len(rows) < 3:
            continue
        start = block_end(rows, body) + 1 if page_index == first_text else 1
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
            if not title_like(words) or not WORD4.search(text) or text[0].islower():
                continue
            found.append(Candidate(row, text, (round(row.size), row.bold, "isolated"), last_index=i, bottom=row.y1))
    found.sort(key=lambda c: (c.row.page, c.last_index))
    return found


def _run_in_candidate(row: Row) -> Candidate | None:
    """The heading a row's bold numbered run-in lead names ("Section 2.01 Defined Terms." before the section's
    text, run_in_heads.py), standing for a bold row of the lead alone, so no line below joins its title."""
    head = run_in_section(row.lead)
    if head is None:
        return None
    title, num = head
    x1 = row.x0 + (row.x1 - row.x0) * min(1.0, len(row.lead) / len(row.text))  # where the lead ends, at its pitch
    return Candidate(replace(row, text=title, bold=True, lead="", x1=x1), title,
                     (round(row.size), True, _style_kind(num)), bottom=row.y1)


def _style_kind(num: Numbering) -> str:
    """The numbering part of a heading's style: the scheme, and its depth where that is part of it."""
    return f"{num.kind}{num.depth}" if num.kind in _DEPTH_KINDS else num.kind


def _numbered_title(num: Numbering, words: list[str], row: Row, body: float, left: float) -> bool:
    """A body-size, non-bold numbered row that reads like a title rather than a list item."""
    if row.text.rstrip().endswith(":") or _MATH.search(row.text):
        return False
    if row.size < body - 0.5 and not num.rest.isupper():
        return False  # smaller than the text: a label or caption unless set in (small) capitals
    if num.kind.startswith("keyword"):
        return len(words) <= 12
    if num.kind not in STRONG_KINDS and num.kind not in _WEAK_KINDS:
        return False
    if open_ended(row.text) and row.x0 <= left + 30:
        # stopping mid-phrase at the margin, where a plain heading cannot go on (see heading_lines.continues): a
        # wrapped list item or table cell ("10.1 Intel Corporation 2006 Equity Incentive Plan, as")
        return False
    if len(words) > (MAX_WORDS if row.x0 > left + 60 else 12):
        return False  # long numbered titles only in an indented heading block, else they are list items
    # set a little larger than the text, a numbered title may be in sentence case ("§ 1.101 New supply terms")
    return title_like(words[1:]) or num.rest.isupper() or larger_by(row.size, body, 0.5) and num.kind in STRONG_KINDS


def _wrapped_start(
    row: Row, nxt: Row, index: int, body: float, body_bold: bool, left: float, right: float, width: float
) -> Candidate | None:
    """The first line of a wrapped heading whose line ends on a comma or joining word ("ITEM 5. MARKET FOR
    REGISTRANT'S COMMON EQUITY," over "RELATED STOCKHOLDER MATTERS ..."): alone it reads as an unfinished
    sentence, so it is judged without its closing comma, and kept only when the next row goes on with it.
    Only a line set apart by size or weight: a plain one ending so is a wrapped list item or table cell."""
    if not (row.bold or row.size >= body + 1.0):
        return None
    probe = _judge(replace(row, text=row.text.rstrip(" ,&-")), body, body_bold, left, right)
    if probe is None:
        return None
    probe.row, probe.text, probe.last_index = row, row.text, index
    return probe if continues(probe, nxt, index + 1, body, width, left) else None


