"""Which row goes on with the heading above it: a wrapped title's next line, the title under a bare label
("CHAPTER 5" over the chapter's name), or, under a numbered heading, a bold run-in lead that is the paragraph's
and not the title's.

The layout pass (layout.py) asks these for every row after a candidate heading; they look at the two rows alone
(style, gap, text shape), never at the rest of the page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pageindex_desktop.core.outline.layout_filters import EXHIBIT_PAGE, Candidate, counter_numbered
from pageindex_desktop.core.outline.numbering import leading_number
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.title_shape import bare_label, figure_heavy, open_ended, qualifier, sentence_break

MAX_CHARS = 140  # a heading's line, or a row the layout pass judges at all
DISPLAY_STEP = 2.0  # points over the body from which a heading is display type, its lines broken by hand
FULL_LINE_WORDS = 8  # words on a line that fills its column: a paragraph's, not a title's wrapped tail
FIT_SLACK = 2  # characters of room a line may be left with and still have wrapped (word spacing, kerning)
PARAGRAPH_INDENT = 2.5  # ems a paragraph's first line (a list item set as one) may be indented by
TAIL_WORDS = 6  # most words of the line that finishes a body-size title its line left open (`continues`)
COLUMN_GAP = 6.0  # points clear of a heading's lines that set a line read between them in another column
COLUMN_EDGE = 12.0  # points within which the lines of that other column start (a list's hanging indent too)
_LEAD_STOPS = (".", ":", "—", "–")  # how a bold run-in lead closes before its paragraph goes on in regular type
# the opening of a figure, table or listing caption ("Figure 3-4", "Listing 12"): never a heading
CAPTION = re.compile(
    r"^(?:fig(?:ure)?|table|tab|abb(?:ildung)?|tabelle|chart|graph|exhibit|source|sources|note|notes|photo|"
    r"plate|map|listing|algorithm|eq(?:uation)?|box|panel)s?\.?\s*(?:[0-9]|[IVX]+\b)",  # not "Exhibit Index"
    re.IGNORECASE,
)


def names_label(prev: Candidate, row: Row, index: int, body: float) -> bool:
    """True when `row` is the title under a bare "Chapter 3" / "PART II" line (LaTeX chapter openings; set bold,
    larger, or in the label's own face: `_in_label_face`), or the qualifier between a label and its title (a
    standard's "Annex A" / "(normative)" / title, one heading)."""
    if prev.row.page != row.page or prev.last_index != index - 1 or not prev.style[2].startswith("keyword"):
        return False
    if prev.style[2] == EXHIBIT_PAGE:
        return False  # the exhibit's bare number is its title (see continues)
    num = leading_number(prev.text)
    height = row.y1 - row.y0
    if num is not None and not num.rest and qualifier(row.text):
        return -0.3 * height <= row.y0 - prev.bottom <= 2 * height  # "Annex A" over "(normative)", then its title
    if num is None or qualifier(num.rest) is None or len(row.text) > MAX_CHARS or not (
            row.bold or row.size >= body + 1.0 or _in_label_face(prev.row, row)):
        return False
    if leading_number(row.text) is not None:
        return False  # "PART I" then "Item 1. Business": two headings
    # tight display leading lets the two line boxes overlap, as a wrapped title's do (see continues)
    return -0.4 * height < row.y0 - prev.bottom <= 4 * height and row.text[:1].isupper()


def _in_label_face(label: Row, row: Row) -> bool:
    """True when `row` is set like the `label` over it, both in capitals and centred on one axis: a paper's
    "APPENDIX A" over "AUTOMATICALLY GENERATED TEXTS" in its section face, regular at the body's size (a line
    of text under a regular label is neither in capitals nor centred under it)."""
    height = row.y1 - row.y0
    return (abs(label.size - row.size) <= 0.3 and label.bold == row.bold and label.text.isupper()
            and row.text.isupper() and abs((label.x0 + label.x1) / 2 - (row.x0 + row.x1) / 2) <= height)


def _beside(other: Row, prev: Candidate, row: Row) -> bool:
    """`other` stands clear of the heading's lines, left or right of them: another column's line."""
    tail = prev.last_row or prev.row
    span_left = min(prev.row.x0, row.x0)
    span_right = max(prev.row.x1, tail.x1, row.x1)
    return other.x0 >= span_right + COLUMN_GAP or other.x1 <= span_left - COLUMN_GAP


def _title_part(text: str) -> str:
    """A heading's title without its leading label and number: the case it is set in ("Item 5. MARKET FOR ..."
    is a title in capitals after a label in title case, and its next line in capitals goes on with it)."""
    num = leading_number(text)
    return num.rest if num is not None and num.rest else text


def continues(prev: Candidate, row: Row, index: int, body: float, width: float, left: float,
              page_rows: Sequence[Row] = ()) -> bool:
    """True when `row` is the next line of the heading `prev` (same page and style, directly below it). The rows
    of its page (`page_rows`) read between the two may only be another column's body text, beside the heading
    and starting at one edge: a page read by height, its columns not found, puts the other column's lines between a wrapped
    title's lines (a syntax diagram's keywords, each with its small note beside it, are no wrapped title)."""
    if prev.row.page != row.page or row.crowded or prev.style[2] == EXHIBIT_PAGE:
        return False  # an exhibit's title is its bare number; the line under it is that exhibit's own text
    if prev.last_index != index - 1:
        between = page_rows[prev.last_index + 1:index] if prev.last_index < index - 1 else ()
        if not between or max(r.x0 for r in between) - min(r.x0 for r in between) > COLUMN_EDGE or not all(
                _beside(other, prev, row) and not other.bold and abs(other.size - body) <= 0.5 for other in between):
            return False
    tail = prev.last_row or prev.row  # a title under a bare label goes on in its own style, not the label's
    if abs(tail.size - row.size) > 0.3 or tail.bold != row.bold or tail.italic != row.italic or (
            prev.text.endswith((".", ":", "?")) and not bare_label(prev.text)):
        return False  # a stop ends a title, except after a bare "Chapter 2:" whose title wrapped to the next line
    if len(prev.text) + len(row.text) > 2 * MAX_CHARS or CAPTION.match(row.text):
        return False
    unfinished = open_ended(prev.text)
    if figure_heavy(row.text) and (not unfinished or prev.text.endswith(",")):
        return False  # figures and table rows under a title ("YEAR ENDED MAY 31," over "2023 2022 2021")
    if _title_part(prev.text).isupper() != row.text.isupper() and any(ch.isalpha() for ch in row.text):
        return False  # "OTHER INFORMATION" over "Income Taxes": two headings, not one
    emphasised = prev.row.bold or prev.row.size >= body + 1.0
    if not emphasised and not (abs(row.x0 - prev.row.title_x0) < 2 and row.x0 > left + 30) and not (
            unfinished and len(row.text.split()) <= TAIL_WORDS and row.x1 < tail.x1):
        # a body-size heading goes on only in its own indented block, or with the few words that finish a title
        # its line left open ("Item 3. Quantitative and Qualitative Disclosures About" over "Market Risk."); else
        # the next line is text
        return False
    num = leading_number(row.text)
    if num is not None and num.rest and not unfinished:
        return False  # a new numbered heading, unless the line above left its title unfinished ("PURSUANT TO")
    gap = row.y0 - prev.bottom
    height = row.y1 - row.y0
    if not -0.4 * height < gap <= (0.8 if emphasised else 0.3) * height:
        return False
    # last: `_fills_column` reads the page's rows, and only a row close under the heading needs it
    return unfinished or not _ended_short(tail, row, body, _fills_column(row, page_rows, body))


def _fills_column(row: Row, page_rows: Sequence[Row], body: float) -> bool:
    """`row` runs to the right edge of the lines set from its left edge on its page (within a body size): a
    full line of a paragraph, set in the heading's face, not the few words a title wraps onto."""
    right = max((r.x1 for r in page_rows if abs(r.x0 - row.x0) <= 2), default=row.x1)
    return row.x1 >= right - body and len(row.text.split()) >= FULL_LINE_WORDS


def _ended_short(tail: Row, row: Row, body: float, full: bool = False) -> bool:
    """True when `row` opens a paragraph in bold (a run-in lead going on in regular type, or a bold sentence)
    under `tail`, a sub-heading's line set near the body's size, and `tail` ends so far short of `row`, both set
    from one left edge, that `row`'s first word would have fitted on it: the heading's line was complete, and
    the paragraph's lead is no part of its title (a bold run-in "Federal Power Permit. Yield source ..." under
    "Primary channel"). With `full` (`_fills_column`), a row opening in a capital and filling its column is
    such a paragraph too: a 10-K's risk headline in bold italic under its category head set in the same face.
    Any other row may be a title's line broken by hand, or a table's caption that the joined title keeps out
    of the tree; display headings set larger are often broken by hand too."""
    if tail.size > body + DISPLAY_STEP or abs(tail.x0 - row.x0) > 2 or not row.text:
        return False
    if not (row.lead and row.lead.endswith(_LEAD_STOPS) or row.text.endswith(".")
            or full and row.text[:1].isupper()):
        return False
    first = row.text.split()[0]
    per_char = (row.x1 - row.x0) / len(row.text)
    return tail.x1 + per_char * (len(first) + 1) < row.x1 - FIT_SLACK * per_char


def sentence_goes_on(prev: Candidate, row: Row, index: int, column_right: float) -> bool:
    """True when the line `prev` is a paragraph's opening words rather than a heading: the line filled its
    column and the sentence goes on, in lower case, on the line right under it. Two kinds of line open so:
    - a bold phrase ("Cash and due from banks and deposits with banks" in a 10-Q's MD&A) going on in regular type
      from the same left edge ("increased primarily as a result of ...");
    - a numbered step in the body's face, read as a title for its product and menu names ("2. Figure 4-68 shows
      the Visual Explain of the same SQL statement, but with RCAC"), going on in its face from the number or hung
      under the step's text ("enabled. It is clear ...").
    A heading's next line opens a paragraph, with a capital; a lower-case line indented under a bold heading is a
    list's entry ("name (str) - the file to read" under "Parameters"); a title that wrapped is joined before
    this is asked (`continues`). The phrase is in sentence case: a line in title case or capitals is a title,
    whatever the line under it."""
    tail = prev.last_row or prev.row
    if prev.last_index != index - 1 or not row.text[:1].islower() or row.page != tail.page:
        return False
    if all(word[:1].isupper() for word in tail.text.split() if len(word) >= 4):
        return False  # a line in title case or capitals is a title ("Proposed Maintenance Actions"), whatever follows
    if abs(tail.size - row.size) > 0.3:
        return False
    per_char = (tail.x1 - tail.x0) / max(len(tail.text), 1)
    if tail.bold and not row.bold:
        aligned = abs(tail.x0 - row.x0) <= 2
    elif not (tail.bold or row.bold) and counter_numbered(prev):
        hang = per_char * (len(tail.text.split()[0]) + 2)  # the step's text after its number
        aligned = tail.x0 - PARAGRAPH_INDENT * tail.size <= row.x0 <= tail.x0 + hang  # or its paragraph's edge
    else:
        return False
    height = row.y1 - row.y0
    if not aligned or not -0.4 * height < row.y0 - tail.y1 <= 0.5 * height:
        return False
    first = row.text.split()[0]
    return tail.x1 + per_char * (len(first) + 1) > column_right - FIT_SLACK * per_char  # the word did not fit


def run_in_lead(prev: Candidate, row: Row) -> bool:
    """True when `row`, set like the heading `prev` right under it, is a paragraph's bold run-in lead rather
    than the title's next line: a sentence ends inside it and the next begins (`title_shape.sentence_break`: "Scope of
    work. The review covers"), under a numbered heading whose line is complete. A title's wrapped line holds no
    sentence break; an unnumbered bold line over it may be the paragraph's own first line."""
    num = leading_number(prev.text)
    if num is None or not num.rest or open_ended(prev.text):
        return False
    return sentence_break(row.text)
