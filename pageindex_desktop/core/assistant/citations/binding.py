"""Whether the passage ties the claim's figures and names together the way the claim does.

A claim built from the page's own words can still be wrong: it gives one region's revenue to another, last
year's column to this year, the superseded guidance for the current one, or one group's rate to another group.
Each check here looks for positive evidence of such a mix-up in the passage (never the mere absence of a link),
so a correct paraphrase is not flagged: it returns a `Mismatch` with its reason, or None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pageindex_desktop.core.assistant.citations import tables
from pageindex_desktop.core.assistant.citations.figures import Figure, figures, same_value
from pageindex_desktop.core.assistant.citations.names import Name, names, printed
from pageindex_desktop.core.assistant.citations.passage import clauses, line_width, major_clauses, text_stems, units
from pageindex_desktop.core.text import fold, sentence_spans

_EARLIER = re.compile(
    r"\b(?:previously|prior|formerly|compared|versus|vs|from|last year|a year ago|year-ago|year ago|earlier|"
    r"originally|before)\b"
)
_IDENTIFIER = re.compile(r"(?:\bno|\bsection|\brule|\bitem|\bnote|\brelease|§|\bpart|\barticle|\bform|\(|"
                         r"\bjan|\bfeb|\bmar|\bapr|\bmay|\bjun|\bjul|\baug|\bsep|\boct|\bnov|\bdec|"
                         r"\b(?:january|february|march|april|june|july|august|september|october|november|december))"
                         r"\.?\s*$")
_YEAR = re.compile(r"(?<!\d)(?:\d{1,2}/\d{1,2}/)?((?:19|20)\d{2})(?!\d)")
MOVED_WORDS = 3  # claim words another sentence adds before it takes the claim's predicate
_WHEN = frozenset({"year", "end", "ended", "quart", "month", "week", "fisca", "perio", "day", "date", "time"})
PROSE_WORDS = 6  # a unit of fewer words is a table's line, not a sentence
_TOTAL = re.compile(r"\s*(?:total|sum|all|gesamt|insgesamt)\b", re.I)


@dataclass(frozen=True)
class Mismatch:
    """What the passage binds differently; `contradicted`: it gives the claim's subject another value."""

    reason: str
    contradicted: bool


def quantity(figure: Figure, text: str) -> bool:
    """Whether a figure is a quantity (not an identifier such as 'No. 2', 'Section 202' or the day in 'Oct. 28')."""
    if figure.kind in {"money", "percent"} or figure.kind.startswith("unit:"):
        return True
    if figure.kind != "number":
        return False
    return not _IDENTIFIER.search(fold(text)[max(0, figure.start - 12) : figure.start])


def check(claim: str, claimed: list[Figure], page_text: str, passage: str) -> Mismatch | None:
    """The first mix-up found, or None."""
    amounts = [f for f in claimed if quantity(f, fold(claim))]
    years = {int(f.value) for f in claimed if f.kind == "year"}
    pieces = [(c, fold(c)) for c in clauses(passage)]
    return (_swapped_names(claim, amounts, pieces) or _earlier(claim, amounts, years, pieces)
            or _column(claim, amounts, years, page_text) or _period_column(claim, amounts, page_text)
            or _row_label(claim, amounts, page_text)
            or _context(claim, amounts, passage, line_width(page_text)) or _other_count(claim, amounts, passage))


def _holding(figure: Figure, pieces: list[tuple[str, str]]) -> list[int]:
    return [i for i, (c, _) in enumerate(pieces) if any(same_value(figure, p) for p in figures(c))]


def _others(figure: Figure, clause: str) -> list[Figure]:
    return [p for p in figures(clause) if p.kind == figure.kind and not same_value(figure, p) and quantity(p, fold(clause))]


def _swapped_names(claim: str, amounts: list[Figure], pieces: list[tuple[str, str]]) -> Mismatch | None:
    """The passage gives the claim's name another figure and the claim's figure to another name (a passage
    that pairs them 'respectively' binds by order, not by clause, and is left alone)."""
    if any("respectively" in folded for _, folded in pieces):
        return None
    mine = names(claim)
    clause_names = [names(c) for c, _ in pieces]
    for name in mine:
        holding = [i for i, (_, f) in enumerate(pieces) if printed(name, f)]
        if not holding:
            continue
        for figure in amounts:
            with_figure = _holding(figure, pieces)
            if not with_figure or set(with_figure) & set(holding):
                continue
            own = [p for i in holding for p in _others(figure, pieces[i][0])]
            foreign = [n for i in with_figure for n in clause_names[i] if not _known(n, mine)]
            if own and foreign:
                return Mismatch(f"the passage gives {own[0].text} for {name.text}, and {figure.text} for "
                                f"{foreign[0].text}", True)
        for other in mine:
            if other.folded in name.folded or name.folded in other.folded:
                continue
            with_other = [i for i, (_, f) in enumerate(pieces) if printed(other, f)]
            if not with_other or set(with_other) & set(holding):
                continue
            strange = [n for i in holding for n in clause_names[i] if not _known(n, mine)]
            strange_other = [n for i in with_other for n in clause_names[i] if not _known(n, mine)]
            if strange and strange_other:
                return Mismatch(f"the passage ties {name.text} to {strange[0].text}, not to {other.text}", False)
    return None


def _known(name: Name, mine: list[Name]) -> bool:
    return any(name.folded in n.folded or n.folded in name.folded for n in mine)


def _earlier(claim: str, amounts: list[Figure], years: set[int], pieces: list[tuple[str, str]]) -> Mismatch | None:
    """The claim's figure is the earlier one the passage compares with ('19.5 percent compared to 18.3 percent in
    fiscal 2022', '$7.47 (previously $7.27)'), and the claim does not say it is earlier."""
    for figure in amounts:
        if _EARLIER.search(_claim_clause(claim, figure)):
            continue  # the claim itself says the figure is the earlier one
        holding = _holding(figure, pieces)
        if not holding or not all(_earlier_clause(pieces[i][1], years) for i in holding):
            continue
        current = [p for i, (c, f) in enumerate(pieces) if i not in holding and not _earlier_clause(f, years)
                   for p in _others(figure, c) if not any(same_value(a, p) for a in amounts)]
        if current:
            return Mismatch(f"the passage gives {current[0].text}; {figure.text} is the figure it compares with", True)
    return None


def _earlier_clause(folded: str, years: set[int]) -> bool:
    if _EARLIER.search(folded):
        return True
    printed_years = {int(y) for y in _YEAR.findall(folded)}
    return bool(years and printed_years and not printed_years & years)


def _claim_clause(claim: str, figure: Figure) -> str:
    """The claim's clause that states the figure (folded), or the whole claim."""
    return next((fold(c) for c in clauses(claim) if any(same_value(figure, p) for p in figures(c))), fold(claim))


def _column(claim: str, amounts: list[Figure], years: set[int], page_text: str) -> Mismatch | None:
    """In a table row under a header of years, the claim's figure stands in another year's column."""
    if not years:
        return None
    dated = [f for f in amounts if not _EARLIER.search(_claim_clause(claim, f))]
    for row in tables.rows(page_text):
        for figure in dated:
            at = [k for k, value in enumerate(row.values) if same_value(figure, value)]
            if len(at) != 1:
                continue
            year = row.year_of(at[0])
            if year is None or year in years:
                continue
            wanted = [k for k in range(len(row.values)) if row.year_of(k) in years]
            if wanted:
                return Mismatch(f"in the table, {figure.text} is the {year} figure for {row.label}; the "
                                f"{row.year_of(wanted[0])} figure is {row.values[wanted[0]].text}", True)
    return None


_CLAIM_PERIOD = re.compile(
    r"\b(?:(?:first|second|third|fourth)[- ]quarter|q[1-4]|the quarter|three months|six months|first half|"
    r"nine months|full[- ]year|twelve months)\b", re.I)
_PERIOD_NAMES = {"quarter": "quarter", "six": "six-month", "nine": "nine-month", "year": "full-year"}


def _period_column(claim: str, amounts: list[Figure], page_text: str) -> Mismatch | None:
    """In a table whose header groups columns by period ("Second-Quarter … Six Months"), the claim's figure
    stands under another period than the one the claim names; the claim's period holds another figure."""
    said = {found for m in _CLAIM_PERIOD.finditer(claim) if (found := tables.period(m.group(0).removeprefix("the ")))}
    if len(said) != 1:
        return None
    wanted = said.pop()
    for row in tables.rows(page_text):
        for figure in amounts:
            at = [k for k, value in enumerate(row.values) if same_value(figure, value)]
            if len(at) != 1 or row.period_of(at[0]) in (None, wanted):
                continue
            block = len(row.values) // len(row.periods)
            same_place = [k for k in range(len(row.values)) if row.period_of(k) == wanted
                          and k % block == at[0] % block]
            if same_place:
                printed_period = row.period_of(at[0]) or ""
                return Mismatch(f"in the table, {figure.text} is the {_PERIOD_NAMES[printed_period]} figure for "
                                f"{row.label}; the {_PERIOD_NAMES[wanted]} figure is "
                                f"{row.values[same_place[0]].text}", True)
    return None


def _row_label(claim: str, amounts: list[Figure], page_text: str) -> Mismatch | None:
    """In a table, the claim's figure sits in a row whose label the claim does not name, while the row it
    names holds another figure ('US and Utilities 2,882 / South America 2,515')."""
    table = tables.rows(page_text)
    claim_pieces = major_clauses(claim)  # a list's "and" does not cut "US and Utilities"
    for figure in amounts:
        holding = [r for r in table if any(same_value(figure, v) for v in r.values)]
        if len(holding) != 1 or _TOTAL.match(holding[0].label):
            continue  # (a total is what an aggregate claim states in its own words: "operates 663 stores")
        # the claim's words around this figure ("including 560 NIKE Brand in-line stores") name its row
        wanted = _words_around(figure, claim_pieces, claim)
        own = _overlap((holding[0].label, fold(holding[0].label)), wanted)
        own_words = text_stems(holding[0].label)
        for row in table:
            if row is holding[0] or not row.values:
                continue
            theirs = _overlap((row.label, fold(row.label)), wanted)
            # another row the claim names better: by words of its own ("in-line" against "factory"), and the
            # figure's row has a word the claim does not use
            named = (wanted & text_stems(row.label)) - own_words
            if (theirs >= 2 or own == 0) and theirs > own and named and own_words - wanted:
                return Mismatch(f"in the table, {figure.text} is the figure for {holding[0].label}; "
                                f"{row.label} shows {row.values[0].text}", True)
    return None


def _context(claim: str, amounts: list[Figure], passage: str, width: int) -> Mismatch | None:
    """Within one sentence that lists parallel figures, or across the passage's sentences, the claim's words sit
    with another figure of the same kind, not with the claim's ('0.084 for AES People, 0.046 for operational
    contractors' against 'the rate was 0.046 for AES People'; '546 (14%) reported non-brokerage business. 74%
    report retail customer activity' against '14% reported retail customer activity'); table rows are their own
    sentences, so a row's label binds its figures."""
    claim_pieces = clauses(claim)
    sentences = units(passage, width)
    prose = [passage[s.start : s.end] for s in sentences if len(passage[s.start : s.end].split()) >= PROSE_WORDS]
    groups = [prose] if len(prose) >= 2 else []  # the passage's sentences side by side (not a table's lines)
    groups += [clauses(passage[s.start : s.end]) for s in sentences]  # each sentence's clauses
    whole_sentences = major_clauses(claim)
    for number, group in enumerate(groups):
        pieces = [(c, fold(c)) for c in group]
        for figure in amounts:
            wanted = _words_around(figure, claim_pieces, claim)
            if number == 0 and prose is group:
                moved = _moved_predicate(figure, _words_around(figure, whole_sentences, claim), pieces)
                if moved is not None:
                    return Mismatch(f"the passage gives {moved.text} for what the claim describes; "
                                    f"{figure.text} is about something else", True)
            holding = _holding(figure, pieces)
            if not holding:
                continue
            own = max(_overlap(pieces[i], wanted) for i in holding)
            for i, (clause, folded) in enumerate(pieces):
                others = [p for p in _others(figure, clause) if not any(same_value(c, p) for c in amounts)]
                if i in holding or not others:
                    continue
                theirs = _overlap((clause, folded), wanted)
                if theirs >= own + 2 and theirs >= 2 * max(own, 1):
                    return Mismatch(f"the passage gives {others[0].text} for what the claim describes; "
                                    f"{figure.text} is about something else", True)
    return None


def _moved_predicate(figure: Figure, wanted: set[str], sentences: list[tuple[str, str]]) -> Figure | None:
    """Another sentence of the passage says what the claim says of `figure`, of its own figure: it holds at least
    MOVED_WORDS of the claim's words that the figure's own sentence lacks, and more of them in all ("546
    broker-dealers (14%) reported non-brokerage business. 74% … report retail customer activity" against "546
    broker-dealers, or 14%, reported retail customer activity")."""
    holding = _holding(figure, sentences)
    if len(holding) != 1:
        return None
    own_stems = text_stems(sentences[holding[0]][0])
    own = _overlap(sentences[holding[0]], wanted)
    for i, (sentence, folded) in enumerate(sentences):
        others = _others(figure, sentence)
        if i == holding[0] or not others:
            continue
        moved = {w for w in (wanted - own_stems) & text_stems(sentence) if w not in _WHEN}
        if len(moved) >= MOVED_WORDS and _overlap((sentence, folded), wanted) > own:
            return others[0]
    return None


_THINGS = re.compile(r"\s+(?!(?:weeks?|months?|days?|years?|quarters?|hours?|percent)\b)[a-z]")


def _counts_things(figure: Figure, text: str) -> bool:
    """Whether a figure is a count of things: a whole number followed by a word ("363 dually registered firms"),
    not a period ("12 weeks") or a date."""
    if figure.kind != "number" or figure.exponent != 0:
        return False
    after = re.sub(r"^\s*\([^)]*\)", "", text[figure.end :])  # "(14%)" between a count and its noun
    return bool(_THINGS.match(after))


def _other_count(claim: str, amounts: list[Figure], passage: str) -> Mismatch | None:
    """The claim gives a count of things a figure ("the 363 dually registered firms held over 140 million
    accounts") while the passage's sentence with that figure gives it to another count, and the claim's count
    stands in a sentence without the figure ("3,764 broker-dealers with over 140 million accounts. … 363 were
    dually registered")."""
    sentences = [passage[s.start : s.end] for s in sentence_spans(passage)]
    for piece in clauses(claim):
        held = [f for f in amounts if any(same_value(f, p) for p in figures(piece))]
        counts = [f for f in held if _counts_things(f, claim)]
        for count in counts:
            for figure in held:
                if figure is count or same_value(figure, count):
                    continue
                with_figure = [s for s in sentences if any(same_value(figure, p) for p in figures(s))]
                with_count = [s for s in sentences if any(same_value(count, p) for p in figures(s))]
                if len(with_figure) != 1 or not with_count or with_figure[0] in with_count:
                    continue
                before = [p for p in figures(with_figure[0]) if _counts_things(p, with_figure[0])
                          and quantity(p, fold(with_figure[0])) and not any(same_value(p, a) for a in amounts)
                          and p.start < next(q.start for q in figures(with_figure[0]) if same_value(figure, q))]
                if before:
                    return Mismatch(f"the passage gives {figure.text} for {before[-1].text}, not for {count.text}",
                                    True)
    return None


def _words_around(figure: Figure, claim_pieces: list[str], claim: str) -> set[str]:
    """The stems and names of the claim's clauses that hold `figure` (the whole claim when none does): what the
    claim says the figure is."""
    near = " ".join(c for c in claim_pieces if any(same_value(figure, p) for p in figures(c))) or claim
    return text_stems(near) | {n.folded for n in names(near)}


def _overlap(piece: tuple[str, str], wanted: set[str]) -> int:
    clause, folded = piece
    stems = text_stems(clause)
    return len(stems & wanted) + sum(1 for w in wanted if " " in w and w in folded)
