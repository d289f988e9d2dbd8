"""Where the judged passage is printed on the page: the words of the page that spell it, as rectangles.

The passage comes from the stored page text, where words hyphenated at a line end are re-joined and ligatures
expanded; the page's own words still have "regula-" on one line and "tory" on the next. Both sides are folded the
same way (`text.fold`), hyphenated pieces joined, and the passage's words aligned with the page's in order, so
the highlight covers the passage however its lines were broken.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Sequence

from pageindex_desktop.core.text import fold

Box = tuple[float, float, float, float]
# A word as pymupdf's get_text("words") gives it: x0, y0, x1, y1, text, block, line, word number.
PageWord = tuple[float, float, float, float, str, int, int, int]
MIN_RUN = 2


def _token(text: str) -> str:
    return "".join(ch for ch in fold(text) if ch.isalnum())


def _page_tokens(words: Sequence[PageWord]) -> list[tuple[str, list[int]]]:
    """The page's words as tokens, each with the word indices it came from (a hyphenated word has two)."""
    out: list[tuple[str, list[int]]] = []
    i = 0
    while i < len(words):
        text = words[i][4]
        joined = [i]
        nxt = i + 1
        line_end = nxt >= len(words) or words[nxt][5:7] != words[i][5:7]
        if text.endswith(("-", "\u00ad", "\u2010")) and line_end and nxt < len(words):
            text = text.rstrip("-\u00ad\u2010") + words[nxt][4]
            joined.append(nxt)
            nxt += 1
        token = _token(text)
        if token:
            out.append((token, joined))
        i = nxt
    return out


def locate(passage: str, words: Sequence[PageWord]) -> list[Box]:
    """Rectangles (one per printed line) covering the page words that spell `passage`; [] when not found."""
    wanted = [t for t in (_token(w) for w in passage.split()) if t]
    tokens = _page_tokens(words)
    if not wanted or not tokens:
        return []
    matcher = SequenceMatcher(None, wanted, [t for t, _ in tokens], autojunk=False)
    least = MIN_RUN if len(wanted) >= MIN_RUN else 1
    hit: list[int] = []
    for block in matcher.get_matching_blocks():
        if block.size >= least:
            for k in range(block.b, block.b + block.size):
                hit.extend(tokens[k][1])
    if sum(1 for _ in hit) < min(len(wanted), 3) * 0.5:
        return []
    return _line_boxes([words[i] for i in sorted(set(hit))])


def _line_boxes(hits: list[PageWord]) -> list[Box]:
    """One rectangle per printed line of the hit words."""
    lines: dict[tuple[int, int], list[float]] = {}
    for x0, y0, x1, y1, _text, block, line, _number in hits:
        box = lines.setdefault((block, line), [x0, y0, x1, y1])
        box[0], box[1], box[2], box[3] = min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)
    return [(b[0], b[1], b[2], b[3]) for b in lines.values()]
