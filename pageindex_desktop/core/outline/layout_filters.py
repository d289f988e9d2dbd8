"""Second pass over layout heading candidates: counts, repeats, labels, slides and covers.

The first pass (layout.py) judges rows one by one; these passes look at all candidates together: a number
must continue a count, a label repeated through the book is an environment, a title printed at the same
spot on most pages is a slide frame. The levels that follow the rank of each heading style are
style_levels.py's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pageindex_desktop.core.outline.analysis import Analysis
from pageindex_desktop.core.outline.numbering import Numbering, leading_number, ordinal, sequence_kind, title_key
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.title_shape import prose, running_text, titled_label

_NUMBERS = re.compile(r"\([^)]*\)|[0-9]+(?:\.[0-9]+)*|\b[a-z]\)")
_SECTION_WORDS = frozenset(
    "chapter section part article appendix annex annexe schedule exhibit item book lecture unit kapitel teil "
    "abschnitt anhang chapitre partie capítulo capitulo capitolo parte titre title lesson module step".split()
)
LABEL_WORD = re.compile(r"^([^\W\d_]{3,})\s+[0-9]+(?:\.[0-9]+)*\b")
_STRONG_COUNTERS = frozenset({"decimal1", "roman", "upper-letter", "letter-decimal", "section"})
NOTE_KIND = "keyword:note"  # "Note 4 – Debt": numbered notes to financial statements, never a division
# a statement page's title under its entity line (statement_pages.py): level with the top headings, ranked by
# no face, since statements are set in the table's small type
STATEMENT_PAGE = "statement-page"
CAPITALS = "caps"  # the capitals headings of a face that sets its sub-sections in mixed case (capital_styles.py)
UNNUMBERED = frozenset({"none", "centred", "isolated", STATEMENT_PAGE, CAPITALS})  # kinds without a section number
# kinds ranked with a filing's parts: an exhibit's title page and the filing's contents (filing_pages.py)
EXHIBIT_PAGE = "keyword:exhibit-page"
CONTENTS_PAGE = "keyword:contents-page"
BESIDE_PARTS = frozenset({EXHIBIT_PAGE, CONTENTS_PAGE})


@dataclass
class Candidate:
    """A row that passed the heading tests, with the style that decides its level."""

    row: Row
    text: str
    style: tuple[float, bool, str]
    last_index: int = -1  # index of its last row on the page (multi-line headings grow it)
    bottom: float = 0.0  # y1 of its last row
    last_row: Row | None = None  # its last row once it has grown ("Annexe A" over a title in another style)


def counter_numbered(cand: Candidate) -> bool:
    """True when `cand` stands on a counter's number ("2.", "(b)", "3.1"), not a keyword's ("Item 7"), in regular
    weight: a line a numbered list can open with (`list_items`, `heading_lines.sentence_goes_on`)."""
    kind = cand.style[2]
    return not cand.row.bold and kind not in UNNUMBERED and not kind.startswith("keyword")


def in_sequence(candidates: list[Candidate], body: float) -> list[Candidate]:
    """Numbered candidates must continue a count ("C." after "A." or "B."; "(2)" after "(1)").

    Initials ("J. David Smith"), stray list items and sub-figure labels break the count: a body-size one is
    dropped, an emphasised one stays as an unnumbered heading.
    """
    seen: dict[str, set[int]] = {}
    kept: list[Candidate] = []
    for cand in candidates:
        kind = cand.style[2]
        if kind in UNNUMBERED or kind.startswith("keyword") or kind.startswith("decimal") and kind != "decimal1":
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


# the words a manual's or a web page's boxed notes open with ("Note", "Warning:"): repeated, they label boxes
ADMONITIONS = frozenset({"note", "tip", "hint", "important", "warning", "caution", "danger", "attention", "notice",
                         "remark"})


def drop_labels(candidates: list[Candidate], label_counts: dict[str, int]) -> list[Candidate]:
    """Labels that repeat ("Definition 4", "Beispiel 12", "Solution to exercise 3") are environments, not sections.

    A text that differs only by its numbers and stays the same at least 4 times is dropped, unless it opens with
    a sectioning word (Chapter, Article, Part...); an unnumbered text repeated 8 times or more is dropped too,
    unless each repeat sits under its own higher heading (`_under_distinct_parents`), and a numbered one is kept
    when each repeat is titled under its own division's number (`_numbered_under_distinct_parents`); a bare
    admonition word
    ("Note", "Warning:", ADMONITIONS) twice or more is a boxed note's label (a printed web page's or a manual's).
    A label word counted 4 times or more drops its rows, except rows where an outline number ("1.1.1", "2.3")
    is followed by a title: a plan's "Strategy 1.1.1 Improve the Trail Network" is a division, not a label.
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
    repeated = {key for key, count in counts.items() if count >= 8 and key.startswith("=")}
    per_parent = _under_distinct_parents(candidates, keys, repeated) if repeated else set()
    per_parent |= _numbered_under_distinct_parents(candidates, keys, counts)
    kept = []
    for cand, key in zip(candidates, keys):
        if key and counts[key] >= (8 if key.startswith("=") else 4) and key not in per_parent:
            continue
        if key.startswith("=") and key[1:].rstrip(" :") in ADMONITIONS and counts[key] >= 2:
            continue
        m = LABEL_WORD.match(cand.text) if cand.style[2] != NOTE_KIND else None
        if m and m.group(1).lower() not in _SECTION_WORDS and label_counts.get(m.group(1).lower(), 0) >= 4 \
                and not titled_label(cand.text):
            continue
        kept.append(cand)
    return kept


def _numbered_under_distinct_parents(candidates: list[Candidate], keys: list[str], counts: dict[str, int]
                                     ) -> set[str]:
    """Keys of numbered titles repeated four times or more that are a plan's or a manual's sub-sections under
    every division, not a label: each is a label word, an outline number and a title ("Strategy 1.1:
    Objectives", "Strategy 2.1: Objectives", ...), and no two repeats share the number but its last part, the
    division they sit in ("3.1" of "Action 3.1.1: Objectives"). "Definition 4" has no title, "Solution to exercise 3" no outline number."""
    divisions: dict[str, list[str]] = {}
    for cand, key in zip(candidates, keys):
        if key and not key.startswith("=") and counts[key] >= 4:
            number = _OUTLINE_NUMBER.search(cand.text) if titled_label(cand.text) else None
            divisions.setdefault(key, []).append(number.group(0).rsplit(".", 1)[0] if number else "")
    return {key for key, parts in divisions.items() if "" not in parts and len(set(parts)) == len(parts)}


_OUTLINE_NUMBER = re.compile(r"\b[0-9]{1,3}(?:\.[0-9]{1,3})+")


def _under_distinct_parents(candidates: list[Candidate], keys: list[str], repeated: set[str]) -> set[str]:
    """Keys of `repeated` unnumbered texts found under different headings of a higher style: "Overview",
    "Risk Factors" or "Summary" under every chapter are that chapter's sections, not a label: each repeat under
    its own parent (a fifth may share one), and another repeated text under at least half of the same parents.

    A heading's parent is the last candidate before it set larger, or at its size in bold when it is not."""
    parents: dict[str, list[int]] = {}
    for i, (cand, key) in enumerate(zip(candidates, keys)):
        if key not in repeated:
            continue
        size, bold = cand.row.size, cand.row.bold
        parent = next((j for j in range(i - 1, -1, -1) if candidates[j].row.size > size + 0.5
                       or (abs(candidates[j].row.size - size) <= 0.5 and candidates[j].row.bold and not bold)), -1)
        parents.setdefault(key, []).append(parent)
    spread = {key: set(found) for key, found in parents.items()
              if -1 not in found and len(set(found)) >= PARENT_SHARE * len(found)}
    # a template repeats two or more sub-headings under the same parents; one repeated text alone ("Total"
    # under each note) is as likely a table's row label
    return {key for key, found in spread.items()
            if any(other != key and len(found & more) >= 0.5 * len(found) for other, more in spread.items())}


PARENT_SHARE = 0.8
EDGE_SLACK = 2.0  # points by which a line starts left of a head to set it inset (`_inset`)
PARAGRAPH_GAP = 0.3  # line heights: a wider gap between two lines ends a paragraph


def drop_repeated_runs(candidates: list[Candidate]) -> list[Candidate]:
    """Three or more headings in a row that repeat earlier titles in another style, in the order those titles
    first came (endnotes grouped by chapter, per-chapter figure lists), are a back-matter index of the sections,
    not new sections. A repeat in a style one of its namesakes had ("(1) Initial Costs" under each obligation)
    is a real section, and so is one under another section number than the first's ("5.1 Targets" after
    "4.2.2 Targets"), and a run that names them out of their first order: a report that names the sub-sections
    of each chapter alike, at whichever level ("Treatment Works", "Data Sources", "Funding" under one chapter,
    met before at other levels and in another order)."""
    first_at: dict[str, int] = {}  # title key -> index of its first heading
    looks: dict[str, set[tuple[str, tuple[float, bool]]]] = {}  # title key -> (words, style) it has come in
    numbers: dict[str, str | None] = {}  # title key -> its first heading's section number
    origin: list[int | None] = []  # per candidate: first_at of the title it repeats in a new look, else None
    for index, cand in enumerate(candidates):
        key = title_key(cand.text)
        num = leading_number(cand.text)
        words = num.rest if num is not None and num.rest else cand.text
        token = num.token if num is not None and num.rest else None
        look = (words, cand.style[:2])
        if key not in first_at:
            first_at[key], looks[key], numbers[key] = index, {look}, token
            origin.append(None)
            continue
        renumbered = token is not None and numbers[key] is not None and token != numbers[key]
        origin.append(None if look in looks[key] or renumbered else first_at[key])
        looks[key].add(look)
    drop: set[int] = set()
    i = 0
    while i < len(candidates):
        j, last = i, -1
        while j < len(candidates):
            at = origin[j]
            if at is None or at <= last:
                break
            j, last = j + 1, at
        if j - i >= 3:
            drop.update(range(i, j))
        i = max(j, i + 1)
    return [c for k, c in enumerate(candidates) if k not in drop]


def drop_frame_titles(candidates: list[Candidate], text_pages: int, deck: bool,
                      heights: list[float]) -> list[Candidate]:
    """A style printed at the same spot on most pages is a slide's frame title or a running head, not a section.

    A running head prints one text at the spot on two neighbouring pages (`_on_adjacent_pages`), in any
    document, with no heading of the page between it and the page's edge (`_under_page_headings`): a reference
    manual's "Summary" right under each function's own name ("Function open_file") stands at one spot on page
    after page too, and is a section of each. Otherwise the spot's texts are frame titles only in a slide deck
    (`deck`: landscape pages, few of them prose, `nav_bar.is_slide_deck`): in a document of pages, titles that
    each stand once at one spot are chapters that each open a page, or that manual's page per function, however
    short some of those pages are."""
    if text_pages < 6:
        return candidates
    spots: dict[tuple[tuple[float, bool, str], int, int], list[Candidate]] = {}
    for cand in candidates:
        if cand.style[2] not in UNNUMBERED:
            continue  # numbered in sequence: chapters that each open a page
        spots.setdefault((cand.style, int(cand.row.x0 // 8), int(cand.row.y0 // 8)), []).append(cand)
    crowded: set[tuple[tuple[float, bool, str], int, int]] = set()
    for key, found in spots.items():
        pages = {c.row.page for c in found}
        if len(pages) >= max(5, 0.4 * text_pages) and (
                deck or _on_adjacent_pages(found) and not _under_page_headings(found, candidates, heights)):
            crowded.add(key)
    return [c for c in candidates if (c.style, int(c.row.x0 // 8), int(c.row.y0 // 8)) not in crowded]


def _under_page_headings(found: list[Candidate], candidates: list[Candidate], heights: list[float]) -> bool:
    """True when, on most of their pages, the texts at one spot have another heading of the page between them and
    the page's nearer edge (above one in the page's top half, below one in its bottom half): a running head
    or foot is the page's first or last, a sub-heading under each page's own title is not."""
    by_page: dict[int, list[Candidate]] = {}
    for cand in candidates:
        by_page.setdefault(cand.row.page, []).append(cand)
    inside = 0
    for cand in found:
        key = title_key(cand.text)
        others = [c for c in by_page.get(cand.row.page, []) if title_key(c.text) != key]
        if cand.row.y0 < heights[cand.row.page - 1] / 2:
            inside += any(c.row.y1 <= cand.row.y0 for c in others)
        else:
            inside += any(c.row.y0 >= cand.row.y1 for c in others)
    return inside * 2 > len(found)


def _on_adjacent_pages(found: list[Candidate]) -> bool:
    """True when one text is printed at the spot on two neighbouring pages: a head that runs over the pages
    of a section, where a page's own title or sub-heading ("Summary" under each function) appears once."""
    seen: dict[str, int] = {}
    for cand in sorted(found, key=lambda c: c.row.page):
        key = title_key(cand.text)
        if key in seen and cand.row.page - seen[key] <= 1:
            return True
        seen[key] = cand.row.page
    return False


PROSE_PAGE_ROWS = 15  # body-size rows of 50 characters or more that make a page one of running text


def is_prose_page(rows: list[Row], body: float) -> bool:
    """A page holding PROSE_PAGE_ROWS or more full body-size rows: running text, not a slide or a form."""
    return len(rows) >= PROSE_PAGE_ROWS and sum(
        1 for r in rows if len(r.text) >= 50 and abs(r.size - body) < 0.6) >= PROSE_PAGE_ROWS


def drop_title_pages(candidates: list[Candidate], analysis: Analysis, body: float) -> list[Candidate]:
    """Pages with no running text and four or more "headings" are title or cover pages: none of it is a section.

    Except a page of figures (`_statement_page`): a financial statement, whose title ("Condensed Consolidated
    Statement of Cash Flows") is its highest heading and a section; the bold labels inside its table
    ("Operating Activities", "Total assets") are not, so only the highest is kept."""
    per_page: dict[int, list[Candidate]] = {}
    for cand in candidates:
        per_page.setdefault(cand.row.page, []).append(cand)
    covers = set()
    statements: dict[int, Candidate] = {}
    for page, on_page in per_page.items():
        rows = analysis.rows[page - 1]
        if len(on_page) >= 4 and not running_text(rows, body):
            covers.add(page)
            if _statement_page(rows):
                statements[page] = min(on_page, key=lambda c: c.row.y0)
    return [c for c in candidates if c.row.page not in covers or statements.get(c.row.page) is c]


STATEMENT_FIGURES = 12  # rows that are only figures: a page of them is a statement or a table, never a cover
_FIGURES = re.compile(r"^[$€£(]?\s*[0-9][0-9,.]*\s*[)%]?(?:\s+[$€£(]?\s*[0-9][0-9,.]*\s*[)%]?)*\s*\$?$|^[—–-]$")


def _statement_page(rows: list[Row]) -> bool:
    """True when STATEMENT_FIGURES or more rows of the page hold nothing but figures ("4,715", "(1,268)",
    "12.5 %", "—"): a financial statement, whose bold row labels ("Operating Activities", "Total assets") and
    title block would otherwise make it read as a cover with four or more headings and no running text."""
    figures = 0
    for row in rows:
        if _FIGURES.match(row.text):
            figures += 1
            if figures >= STATEMENT_FIGURES:
                return True
    return False


def _readings(num: Numbering) -> list[tuple[str, int]]:
    """(counter, position) readings of a number: "I."/"i."/"V."/"x." may be roman numerals or letters."""
    value = ordinal(num)
    readings = [(sequence_kind(num), value)] if value is not None else []
    token = num.token
    if num.kind in ("roman", "lower-roman") and len(token) == 1:
        readings.append(("upper-letter" if token.isupper() else "lower-letter", ord(token.lower()) - 96))
    return readings


def numbered_system(candidates: list[Candidate], body: float, rows: list[list[Row]]) -> list[Candidate]:
    """In a document that numbers its headings, body-size unnumbered "headings" are labels: drop them, unless
    a paragraph of prose opens right under one (`_over_prose`): a guide numbering its chapters and sections
    ("2.1 Time limits") heads the parts of a section in bold at body size, unnumbered ("Joint tenants"), where
    a table's or chart's heads ("PASCAL VOC", "MS COCO") stand over cells and figures.

    Numbered by an outline scheme ("1.2", "A.", "(iv)"), that is: keyword divisions ("Item 7.", "Chapter 3")
    number only the top of a document, and a 10-K sets its items' unnumbered sub-heads bold at body size. A title
    in capitals centred on its own (`layout._centred`) in the face of numbered headings in capitals is one of
    them left unnumbered: a paper's "REFERENCES" after "VI. DISCUSSION", both in its section face."""
    schemes = [c for c in candidates if c.style[2] not in UNNUMBERED and not c.style[2].startswith("keyword")]
    if len(schemes) < 5 or len(schemes) < 0.6 * len(candidates):
        return candidates
    capitals = {c.style[:2] for c in schemes if c.text.isupper()}  # faces of numbered headings in capitals
    kept = []
    for cand in candidates:
        if cand.style[2] == "centred" and cand.text.isupper() and cand.style[:2] in capitals:
            cand.style = (*cand.style[:2], "none")  # ranked with the numbered style of its face (style_levels)
        elif cand.style[2] in UNNUMBERED and cand.style[0] < body + max(1.0, 0.12 * body) \
                and not _over_prose(cand.row, rows[cand.row.page - 1], body):
            continue
        kept.append(cand)
    return kept


def _inset(head: Row, page_rows: list[Row], at: int, body: float) -> bool:
    """True when `head` stands right of the edge its column's text keeps: the leftmost edge two or more of the
    page's other plain body-size lines in its column start at (the paragraph right under it, from row `at`, its
    plain lines each set close under the one above, not counted; a list's lines stand right of that edge)
    lies more than EDGE_SLACK left of it: a boxed aside's padding. A section's head stands at that edge."""
    own = at + 1
    while own < len(page_rows) and not page_rows[own].bold and \
            page_rows[own].y0 - page_rows[own - 1].y1 < PARAGRAPH_GAP * (page_rows[own - 1].y1 - page_rows[own - 1].y0):
        own += 1
    edges = [r.x0 for r in page_rows[:at - 1] + page_rows[own:]
             if not r.bold and abs(r.size - body) <= 0.5 and r.x0 < head.x1 and r.x1 > head.x0]
    if not edges:
        return False
    shared = [x for x in edges if sum(1 for other in edges if abs(other - x) <= EDGE_SLACK) >= 2]
    return bool(shared) and head.x0 > min(shared) + EDGE_SLACK


def _over_prose(head: Row, page_rows: list[Row], body: float) -> bool:
    """True when the row right under `head` in its page's reading order opens a paragraph of prose at its left
    edge or a first-line indent from it: plain body-size text reading as a sentence (`title_shape.prose`),
    within two lines' height; and `head` is not inset from the text around it (`_inset`): a boxed aside's title
    ("Key facts" over its sentence, inset by the box's padding) is no part of the outline."""
    for i, row in enumerate(page_rows):
        if (row.x0, row.y0) == (head.x0, head.y0):
            if i + 1 == len(page_rows):
                return False
            below = page_rows[i + 1]
            return (not below.bold and abs(below.size - body) <= 0.5 and -2.0 <= below.x0 - head.x0 <= 2.5 * body
                    and 0 <= below.y0 - head.y1 <= 2 * (head.y1 - head.y0) and prose(below.text)
                    and not _inset(head, page_rows, i + 1, body))
    return False
