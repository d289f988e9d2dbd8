"""Titles of a financial statement's pages: the centred stack a filing or release prints over each table.

A statement page opens with a stack of short centred lines, set at or below the body's size and often in plain
capitals:

    PFIZER INC. AND SUBSIDIARY COMPANIES        <- the entity, the same over every statement
    CONSOLIDATED STATEMENTS OF INCOME           <- the title
    (UNAUDITED)                                 <- qualifiers: audit status, units, the period
    (millions, except per share data)

Nothing in the title's face sets it apart from the table under it, so the heading tests miss it, or find it a
size smaller than the prose headings and hang it under the last of them (a release's statements under its
"Guidance and Outlook"). The stack gives it away: the entity line opens such a stack on two or more pages, and
the title is what follows it up to the first qualifier. The statements, schedules and reconciliations are what
an analyst opens a release or a filing at, so each title is a heading of its own kind (`STATEMENT_PAGE`), level
with the document's top headings (`style_levels.style_levels`) and, in a filing, under the item it stands in.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from pageindex_desktop.core.outline.analysis import Analysis
from pageindex_desktop.core.outline.filing_pages import FILING_ITEMS
from pageindex_desktop.core.outline.layout_evidence import has_figures
from pageindex_desktop.core.outline.layout_filters import STATEMENT_PAGE, Candidate
from pageindex_desktop.core.outline.numbering import title_key
from pageindex_desktop.core.outline.rows import Row
from pageindex_desktop.core.outline.size_scale import larger_by

ITEM_KIND = "keyword:item"  # "Item 8. Financial Statements": a filing's items (numbering.py's keyword kind)
CENTRED = 0.03  # share of the page's width a stacked line's middle may sit off the page's middle
SHORT = 0.7  # most share of the page's width a stacked line spans
TOP_SHARE = 0.3  # the stack opens in this top share of the page
PITCH = 2.0  # most line pitch inside a stack, in the line's size
MIN_PAGES = 2  # pages an entity line must open a stack on, and a table on
TABLE_ROWS = 8  # rows ending in figures that make a page a table
MAX_TITLE_ROWS = 3
BANNER_PAGES = 3  # stacks a line under the entity must appear in to be part of its banner
# a title opening more separate runs of pages, or one run of more pages, is a running header, not a statement
MAX_RUNS = 2
MAX_RUN_PAGES = 3
_CONTINUED = re.compile(r"\s*[(\[]?\b(?:continued|cont'd|concluded)\b[)\]]?", re.IGNORECASE)
_TRAILING_NOTE = re.compile(r"\s*[-–—]?\s*\([^)]*\)\s*$")  # "... 2022 - (UNAUDITED)"
MIN_LETTERS = 6
_ENTITY_DASH = re.compile(r".+?\s[-–—]\s+(\S.*)$")
# a line that qualifies the table rather than names it: audit status, units, the period it covers
_QUALIFIER = re.compile(
    r"^\(|\bunaudited\b|\b(?:in\s+)?(?:millions|thousands|billions)\b|\b(?:19|20)\d\d\b"
    r"|\b(?:ended|ending|as\s+of|months|weeks)\b",
    re.IGNORECASE,
)


def with_statement_titles(candidates: list[Candidate], analysis: Analysis, widths: Sequence[float],
                          heights: Sequence[float]) -> list[Candidate]:
    """`candidates` with the title of each statement page added in page order (see the module's docstring);
    candidates found inside a statement's stack (its entity line, a title read on its own) give way to it.

    In a filing (`FILING_ITEMS` item headings) the statements stand inside an item, where `division_levels`,
    `nest_notes` and `financial_statements` place them by the items' own evidence: there a title is ranked
    by its face like any heading, not set level with the top. A statement before the filing's first item heading
    stands in no item (a bank's 10-Q prints neither "Part I" nor "Item 1" over its statements) and is set level
    with the top as outside filings."""
    items = [c for c in candidates if c.style[2] == ITEM_KIND]
    first_item = min((c.row.page, c.row.y0) for c in items) if len(items) >= FILING_ITEMS else None
    stacks = [_stack(rows, widths[p], heights[p], analysis) for p, rows in enumerate(analysis.rows)]
    entities = [title_key(stack[0].text) if stack else "" for stack in stacks]
    opens = Counter(entity for entity in entities if entity)
    # an entity line opens statements: tables of figures on two or more of its pages (a journal's two-line
    # running header over a paper's title on its first page opens none)
    tables = Counter(entity for entity, rows in zip(entities, analysis.rows) if entity and _is_table(rows))
    # a second line printed in the stacks of three or more pages belongs to the entity's banner ("SCHEDULE I
    # CONDENSED FINANCIAL INFORMATION OF PARENT" over each of its statements), not to any one title; a
    # "(continued)" line goes on with one title over the pages after its first
    repeats = Counter(key for stack in stacks for key in {title_key(row.text) for row in stack[1:]})
    banners = {key for key, count in repeats.items() if count >= BANNER_PAGES and not _CONTINUED.search(key)}
    titles: list[tuple[Candidate, str]] = []
    for stack, entity in zip(stacks, entities):
        if not entity or opens[entity] < MIN_PAGES or tables[entity] < MIN_PAGES:
            continue
        # inside a filing's items the title ranks by its face; before the first item (a 10-Q that prints its
        # statements before any item heading) nothing ranks it but its kind
        inside = first_item is not None and (stack[0].page, stack[0].y0) > first_item
        found = _title(stack, analysis.body_size, "none" if inside else STATEMENT_PAGE, banners)
        if found is not None:
            titles.append(found)
    if not titles:
        return candidates
    # every stack read as a statement's, a continued one's too: (top of its entity line, bottom of its title)
    spans = {cand.row.page: (stacks[cand.row.page - 1][0].y0, cand.bottom) for cand, _ in titles}
    kept = [c for c in candidates
            if not (c.row.page in spans and spans[c.row.page][0] - 1 <= c.row.y0 <= spans[c.row.page][1] + 1)]
    return _merged(kept, _first_of_runs(titles))


def _merged(candidates: list[Candidate], titles: list[Candidate]) -> list[Candidate]:
    """`candidates` (in reading order) with each title (in page order) placed before the first candidate after
    it on its page or on a later page. Sorting all by height on the page would interleave a two-column page's
    columns ("Item 4" at the foot of the left column after the right column's "Item 1A")."""
    out: list[Candidate] = []
    pending = list(titles)
    for cand in candidates:
        while pending and (pending[0].row.page, pending[0].row.y0) < (cand.row.page, cand.row.y0):
            out.append(pending.pop(0))
        out.append(cand)
    return out + pending


def _stack(rows: list[Row], width: float, height: float, analysis: Analysis) -> list[Row]:
    """The centred lines that open the page, top down (empty when the page opens otherwise)."""
    ordered = sorted(range(len(rows)), key=lambda j: rows[j].y0)
    stack: list[Row] = []
    for j in ordered:
        row = rows[j]
        centred = abs((row.x0 + row.x1) / 2 - width / 2) <= CENTRED * width and not row.crowded \
            and row.x1 - row.x0 <= SHORT * width  # a justified line of prose is centred too
        if not stack:
            if row.y0 > TOP_SHARE * height:
                return []
            if not centred:
                if analysis.is_running(row, j) or row.x1 - row.x0 < 0.25 * width and len(row.text) <= 12:
                    continue  # a running header, a page number or a short marker above the stack
                return []
            stack.append(row)
            continue
        if not centred or row.y0 - stack[-1].y0 > PITCH * max(row.size, stack[-1].size):
            break
        stack.append(row)
    return stack if len(stack) >= 2 else []


def _title(stack: list[Row], body: float, kind: str, banners: set[str]) -> tuple[Candidate, str] | None:
    """The title the entity line opens (the stacked lines after it and its banner lines, up to the first
    qualifier) and the text of that qualifier ("" when none follows)."""
    rows: list[Row] = []
    qualifier = ""
    texts: list[str] = []
    lines = stack[1:]
    while len(lines) > 1 and title_key(lines[0].text) in banners and not _QUALIFIER.search(lines[1].text):
        lines = lines[1:]
    for row in lines:
        # "Consolidated statements of income (unaudited)": a title with its qualifier on its line
        bare = _TRAILING_NOTE.sub("", row.text.strip())
        noted = bare != row.text.strip() and _QUALIFIER.search(row.text[len(bare):]) is not None
        if _QUALIFIER.search(bare) or not bare:
            qualifier = bare
            break
        if len(rows) == MAX_TITLE_ROWS:
            break
        rows.append(row)
        texts.append(bare if noted else row.text.strip())
        if noted:
            break
    named = _ENTITY_DASH.match(stack[0].text.strip()) if not rows else None
    if named:  # "PFIZER INC. - REVENUES": the entity and the title on one line, the qualifiers under it
        rows, texts = [stack[0]], [named.group(1)]
    if not rows or _QUALIFIER.search(stack[0].text) or larger_by(rows[0].size, body, 2.0):
        return None  # no title, a date under a heading, or a display heading the heading tests judge
    text = " ".join(texts)
    if sum(ch.isalpha() for ch in text) < MIN_LETTERS or text[0].islower() or text.endswith((".", ",", ":")):
        return None
    style = (round(rows[0].size), rows[0].bold, kind)
    return Candidate(rows[0], text, style, bottom=rows[-1].y1, last_row=rows[-1]), qualifier


def _first_of_runs(titles: list[tuple[Candidate, str]]) -> list[Candidate]:
    """The first page of each run of consecutive pages under one title (a statement continued over pages,
    "(continued)" or not), none of a title that opens more than `MAX_RUNS` runs or runs over more than
    `MAX_RUN_PAGES` pages (a two-line running header).
    A title that opens two runs names each by its qualifier too: "International Revenues — Six Months 2023"."""
    runs: dict[str, list[tuple[Candidate, str]]] = defaultdict(list)
    last_page: dict[str, int] = {}
    longest: Counter[str] = Counter()
    length = 0
    for cand, qualifier in titles:
        key = title_key(_CONTINUED.sub("", cand.text))
        if last_page.get(key, -2) != cand.row.page - 1:
            runs[key].append((cand, qualifier))
            length = 0
        length += 1
        longest[key] = max(longest[key], length)
        last_page[key] = cand.row.page
    out: list[Candidate] = []
    for key, group in runs.items():
        if len(group) > MAX_RUNS or longest[key] > MAX_RUN_PAGES:
            continue
        qualifiers = {q for _, q in group}
        for cand, qualifier in group:
            if len(group) > 1 and qualifier and len(qualifiers) == len(group):
                cand.text = f"{cand.text} — {qualifier}"
            out.append(cand)
    return sorted(out, key=lambda c: (c.row.page, c.row.y0))


def after_statements(candidates: list[Candidate], levels: list[int], rows_by_page: list[list[Row]]) -> list[int]:
    """`levels` with the headings that follow a statement on later pages out from under it.

    A statement's page holds its table and notes, nothing else: a heading on a later page deeper than the
    statement ("Non-GAAP Measures" in a release's prose face, "Notes to Consolidated Financial Statements")
    starts a section beside it, not inside it. Such headings, up to the next one at the statement's level or
    above, are raised by as much as the shallowest of them so far stands below it, so each keeps its own
    headings under it. On a statement page of text, not a table, headings as deep as one printed on the page
    continue it ("Note 2" after the "Note 1" under a notes page's title) and stay; on a table's page such a
    heading is the table's caption ("Gross Margin Growth Reconciliation"), which nothing after the page goes on."""
    out = list(levels)
    statement: tuple[int, int] | None = None  # (level, page) of the statement in force
    inner = 0  # shallowest level among the headings on a text statement's own page (0: none)
    shallowest = 0  # shallowest level among the headings raised since the statement (0: none yet)
    for i, cand in enumerate(candidates):
        if cand.style[2] == STATEMENT_PAGE:
            statement = (out[i], cand.row.page)
            inner = shallowest = 0
            continue
        if statement is None or out[i] <= statement[0]:
            statement = None
            continue
        if not shallowest and cand.row.page == statement[1]:
            if not _is_table(rows_by_page[cand.row.page - 1]):
                inner = min(inner or out[i], out[i])
            continue  # a part of the statement, on its page
        if not shallowest and inner and out[i] >= inner:
            continue  # as deep as a heading of the statement's text: it goes on with it
        shallowest = out[i] if not shallowest else min(shallowest, out[i])
        out[i] = statement[0] + out[i] - shallowest
    return out


def _is_table(rows: list[Row]) -> bool:
    """A page of figures: `TABLE_ROWS` or more rows ending in them."""
    return sum(1 for row in rows if has_figures(row.text)) >= TABLE_ROWS
