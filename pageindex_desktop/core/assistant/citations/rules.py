"""The rule verdict: does the passage that best matches a claim state it, contradict it, or not say it?

A claim is *checked* only when its passage states every figure it makes (same value after units), shares most of
its words, agrees in polarity (negation, up or down), names what it names, and binds its figures and names the
same way. It is *contradicted* when that passage states the same quantity with another value or says the
opposite. Anything else is *unverified*, with the reason. Each reason is one phrase the pane and the CLI show.
"""

from __future__ import annotations

from dataclasses import dataclass

from pageindex_desktop.core.assistant.citations import binding, counts
from pageindex_desktop.core.assistant.citations.figures import Figure, conflicts, figures, same_value, word_numbers
from pageindex_desktop.core.assistant.citations.names import names, printed
from pageindex_desktop.core.assistant.citations.passage import (
    Passage,
    best_clause,
    best_sentence,
    best_window,
    claim_region,
    claim_stems,
    clauses,
    major_clauses,
    text_stems,
)
from pageindex_desktop.core.assistant.citations.polarity import direction, negated_about
from pageindex_desktop.core.text import content_words, double_spaced, fold, sentence_spans, stem

CHECKED, UNVERIFIED, CONTRADICTED = "checked", "unverified", "contradicted"
WORD_SHARE = 0.6
FIGURE_WORD_SHARE = 0.4  # when every figure of the claim is in the passage, fewer of its words need be
SMALL_CLAIM = 3
YEAR_WORD_SHARE = 0.6  # a changed year contradicts only a passage that says the rest of the claim
DISPLACED_MIN = 5  # shorter words ('year', 'rate', 'new') are printed all over a page
DISPLACED_LINES = 4  # lines either side of the passage's sentences that still count as its context


@dataclass(frozen=True)
class RuleVerdict:
    """The verdict, its reason (a phrase; '' when checked), the passage judged, and whether a model judge may
    revise it (`firm`: a figure, a polarity or a name decided it, or the passage holds every word of the claim)."""

    verdict: str
    reason: str
    passage: Passage
    firm: bool


def judge(claim: str, page_text: str, cover: str = "") -> RuleVerdict:
    """Judge `claim` against the best passage of `page_text`; names printed in `cover` (the document's title,
    file name and first pages, folded) need not be printed on the page."""
    if not page_text.strip():
        return RuleVerdict(UNVERIFIED, "the page has no text to check against", Passage(0, 0, ""), True)
    passage = best_window(claim, page_text)
    claimed = figures(claim)
    wanted = claim_stems(claim)
    if not claimed and not wanted:
        return RuleVerdict(UNVERIFIED, "the citation has no claim to check", passage, True)
    printed_figures = figures(passage.text)
    for figure in claimed:
        if _stated(figure, printed_figures, passage.text, page_text):
            continue
        other = _conflicting(figure, printed_figures, claim, passage.text) or _other_year(figure, claim, passage,
                                                                                          page_text)
        if other is not None:
            return RuleVerdict(CONTRADICTED, f"the passage gives {other.text}, not {figure.text}", passage, True)
        return RuleVerdict(UNVERIFIED, f"{figure.text} is not in the passage", passage, True)
    shared = text_stems(passage.text) & wanted
    amounts = [f for f in claimed if f.kind != "year"]
    share = FIGURE_WORD_SHARE if amounts else WORD_SHARE
    needed = len(wanted) if len(wanted) < SMALL_CLAIM and not amounts else share * len(wanted)
    if len(shared) < needed:
        return RuleVerdict(UNVERIFIED, "the claim was not found on the page", passage, False)
    flipped = _polarity(claim, passage.text) or counts.conflict(claim, passage.text)
    if flipped:
        return RuleVerdict(CONTRADICTED, flipped, passage, True)
    missing = _missing_name(claim, passage.text, page_text, cover) or _displaced(claim, passage, page_text, cover)
    if missing:
        return RuleVerdict(UNVERIFIED, missing, passage, True)
    mismatch = binding.check(claim, claimed, page_text, passage.text)
    if mismatch is not None:
        return RuleVerdict(CONTRADICTED if mismatch.contradicted else UNVERIFIED, mismatch.reason, passage, True)
    # Firm only when the passage holds every word of the claim: then nothing is left for a model to doubt.
    return RuleVerdict(CHECKED, "", passage, len(shared) == len(wanted))


def _displaced(claim: str, passage: Passage, page_text: str, cover: str) -> str:
    """A reason when a word the claim turns on is printed on the page but not in the passage that states the rest
    of it: "… due to higher sales of laptops" against "… due to higher sales of Apple Watch and AirPods", with
    laptops in another paragraph. A paraphrase's own words are seldom printed elsewhere on the same page."""
    around = [span for span in sentence_spans(page_text) if span.start < passage.end and span.end > passage.start]
    start = min([passage.start, *(span.start for span in around)])
    end = max([passage.end, *(span.end for span in around)])
    spaced = double_spaced(page_text)  # then a blank line is spacing, not a line of the page
    for _ in range(DISPLACED_LINES):  # and the lines just around them (a heading above, a line running on)
        start, end = _line_above(page_text, start, spaced), _line_below(page_text, end, spaced)
    inside = text_stems(page_text[start:end])  # the passage and the lines around it (a heading, a run-on line)
    outside = text_stems(page_text[:start] + " " + page_text[end:])
    known = text_stems(cover)
    for word in content_words(claim):
        key = stem(word)
        if len(word) >= DISPLACED_MIN and word.isalpha() and key not in inside \
                and key in outside and key not in known:
            return f"“{word}” is printed elsewhere on the page, not in the passage"
    return ""


def _line_above(text: str, start: int, skip_blank: bool) -> int:
    """Where the line above the one at `start` begins (over blank lines too when `skip_blank`)."""
    while start > 0:
        start = text.rfind("\n", 0, start - 1) + 1
        line_end = text.find("\n", start)
        if not skip_blank or text[start : len(text) if line_end < 0 else line_end].strip():
            break
    return start


def _line_below(text: str, end: int, skip_blank: bool) -> int:
    """Where the line below the one ending at `end` ends (over blank lines too when `skip_blank`)."""
    while end < len(text):
        after = text.find("\n", end + 1)
        line = text[end + 1 : len(text) if after < 0 else after]
        end = len(text) if after < 0 else after
        if not skip_blank or line.strip():
            break
    return end


def _missing_name(claim: str, passage: str, page_text: str, cover: str) -> str:
    """A reason when the claim names what the page does not print, or what the passage says of another name."""
    passage_folded, cover_folded, page_folded = fold(passage), fold(cover), fold(page_text)
    mine = names(claim)
    for name in mine:
        if printed(name, passage_folded) or printed(name, cover_folded):
            continue
        if not printed(name, page_folded):
            return f"“{name.text}” is not on the page"
        clause = best_clause(claim, passage)
        foreign = [n for n in names(clause) if len(n.text) > 2 and not printed(n, cover_folded)
                   and not any(n.folded in m.folded or m.folded in n.folded for m in mine)]
        if foreign:
            return f"the passage says this of {foreign[0].text}, not of {name.text}"
    return ""


def _stated(figure: Figure, printed: list[Figure], passage: str, page_text: str) -> bool:
    """A figure is stated when the passage prints it; a year may be printed anywhere on the page (a table's
    column header), and a small count may be written out ('three segments')."""
    if any(same_value(figure, p) for p in printed):
        return True
    if figure.kind == "year":
        return any(same_value(figure, p) for p in figures(page_text))
    if figure.kind == "number" and figure.exponent == 0:
        return figure.value in word_numbers(passage)
    return False


def _conflicting(figure: Figure, printed: list[Figure], claim: str, passage: str) -> Figure | None:
    """A printed figure of the same kind that the claim's words point at instead (the changed number's original)."""
    if figure.kind == "year" or not binding.quantity(figure, fold(claim)):
        return None
    clause = best_clause(claim, passage)
    near = [p for p in figures(clause) if conflicts(figure, p) and binding.quantity(p, fold(clause))]
    if near:
        return near[0]
    shared = text_stems(passage) & claim_stems(claim)
    if len(shared) >= max(2, 0.5 * len(claim_stems(claim))):
        candidates = [p for p in printed if conflicts(figure, p) and binding.quantity(p, fold(passage))]
        if candidates:
            return candidates[0]
    return None


def _other_year(figure: Figure, claim: str, passage: Passage, page_text: str) -> Figure | None:
    """For a year printed nowhere on the page: the one other year the passage, or the sentence just before it,
    gives what the claim describes ("In 1928, a cartoon character was born. ... his debut in May of that year"
    against "his debut in May 1929")."""
    if figure.kind != "year":
        return None
    before = [s for s in sentence_spans(page_text[: passage.start]) if s.end <= passage.start][-1:]
    start = before[0].start if before else passage.start
    years = {p.value: p for p in figures(page_text[start : passage.end]) if p.kind == "year"}
    years.pop(figure.value, None)
    wanted = claim_stems(claim)
    if len(years) == 1 and len(text_stems(passage.text) & wanted) >= YEAR_WORD_SHARE * len(wanted):
        return next(iter(years.values()))
    return None


def _polarity(claim: str, passage: str) -> str:
    """A reason when a clause of the claim and the passage's clauses about it disagree in negation or direction."""
    parts = major_clauses(claim)
    for part in parts if len(parts) > 1 else [claim]:
        wanted = claim_stems(part)
        if len(wanted) < 2:
            continue
        sentence = best_sentence(part, passage)
        anchors = text_stems(sentence) & wanted
        amounts = [f for f in figures(part) if f.kind != "year"]
        printed_there = figures(sentence)
        # a sentence that states the claim's figures is about the same thing even when the claim adds names
        same_figures = bool(amounts) and all(any(same_value(f, p) for p in printed_there) for f in amounts)
        if len(anchors) < max(2, (FIGURE_WORD_SHARE if same_figures else 0.5) * len(wanted)):
            continue
        if negated_about(part, anchors, stem) != negated_about(sentence, anchors, stem):
            return "the passage says the opposite (negation)"
        region = claim_region(part, passage)
        up_down, printed_way = direction(part), direction(region)
        if up_down and printed_way and up_down != printed_way:
            return _turned(printed_way, up_down)
        turned = _clause_direction(part, sentence)
        if turned:
            return turned
    return ""


def _clause_direction(part: str, sentence: str) -> str:
    """A reason when a clause of the claim and the sentence's clause about the same thing point different ways
    ("manufacturing output grew robustly, extending two years of gains" against "manufacturing output was little
    changed, … a downshift following two years of robust gains": the sentence as a whole points every way)."""
    pieces = clauses(sentence)
    for claimed in clauses(part):
        wanted = claim_stems(claimed)
        way = direction(claimed)
        if not way or len(wanted) < 2:
            continue
        overlaps = [len(text_stems(p) & wanted) for p in pieces]
        best = max(overlaps, default=0)
        matching = [p for p, shared in zip(pieces, overlaps) if shared == best]
        if len(matching) > 1:  # a tie goes to the clause with the claim clause's subject (its first two words)
            subject = {stem(w) for w in content_words(claimed)[:2]}
            matching = [p for p in matching if subject <= text_stems(p)]
        if best >= 2 and len(matching) == 1:
            printed_way = direction(matching[0])
            if printed_way and printed_way != way:
                return _turned(printed_way, way)
    return ""


def _turned(printed_way: str, claimed_way: str) -> str:
    said = {"up": "it went up", "down": "it went down", "flat": "it was little changed"}
    if "flat" in (printed_way, claimed_way):
        return f"the passage says {said[printed_way]}, not that {said[claimed_way]}"
    return f"the passage says {said[printed_way]}, not {claimed_way}"
