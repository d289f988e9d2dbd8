"""Reading a model judge's reply: lenient JSON, verdict words in any spelling, and quotes checked against the passage.

A verdict counts only with a quote that really is in the passage, after normalising the PDF text's ligatures,
line-end hyphens, curly quotes and spacing, so a judge that invents its evidence is ignored. Nothing a model
writes makes these functions raise.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pageindex_desktop.core.text import normalise

Verdict = Literal["supported", "contradicted", "not_stated"]


# ---- normalising PDF text, so a faithful quote matches however the page was extracted ----------------------

_ELLIPSIS = re.compile(r"\.\.\.+|\u2026")
_TRIM = "\"' .,;:!?-()[]"


def _flat(text: str) -> str:
    """Case and spacing do not matter for a quote."""
    return " ".join(text.casefold().split())


def _passage_forms(passage: str) -> set[str]:
    """A line-end hyphen is either a broken word ("regula-\\ntory") or a real compound ("long-\\nterm"): accept both."""
    return {_flat(normalise(passage, "")), _flat(normalise(passage, "-"))}


def _quote_pieces(quote: str) -> list[str]:
    """The stretches of a quote the model elided with '...', each trimmed of wrapping quotes and end punctuation."""
    pieces = (_flat(normalise(piece, "")).strip(_TRIM) for piece in _ELLIPSIS.split(quote))
    return [piece for piece in pieces if any(ch.isalnum() for ch in piece)]


def _find_whole(text: str, piece: str, at: int) -> int:
    """Where `piece` occurs from `at` on without cutting a word or number ("4.2%" is not in "14.2%"), or -1."""
    found = text.find(piece, at)
    while found >= 0:
        end = found + len(piece)
        cuts_start = found > 0 and text[found - 1].isalnum() and piece[0].isalnum()
        cuts_end = end < len(text) and text[end].isalnum() and piece[-1].isalnum()
        if not (cuts_start or cuts_end):
            return found
        found = text.find(piece, found + 1)
    return -1


def _in_order(pieces: list[str], text: str) -> bool:
    at = 0
    for piece in pieces:
        found = _find_whole(text, piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def quote_in_passage(quote: str, passage: str) -> bool:
    """Whether the quote's words occur in the passage, in order (a quote elided with '...' counts piece by piece)."""
    pieces = _quote_pieces(quote)
    return bool(pieces) and any(_in_order(pieces, form) for form in _passage_forms(passage))


# ---- reading the reply leniently ---------------------------------------------------------------------------

_FENCE = re.compile(r"```[a-zA-Z]*")
_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_OBJECT = re.compile(r"\{[^{}]*\}")
_LIST_KEYS = ("verdicts", "judgements", "judgments", "results", "claims", "items")
_VERDICTS: dict[str, Verdict] = {
    "supported": "supported", "supports": "supported", "support": "supported",
    "contradicted": "contradicted", "contradicts": "contradicted", "contradiction": "contradicted",
    "notstated": "not_stated", "notmentioned": "not_stated", "notfound": "not_stated",
}


def _load_json(text: str) -> Any:
    """The outermost JSON object or list in the text (whichever opens first), or None."""
    spans = [(text.find(o), text.rfind(c)) for o, c in (("{", "}"), ("[", "]"))]
    for start, end in sorted(s for s in spans if 0 <= s[0] < s[1]):
        try:
            return json.loads(text[start : end + 1])
        except ValueError:
            continue
    return None


def _entries(data: Any) -> list[dict[str, Any]] | None:
    """The verdict objects in a parsed reply: a bare list, {"verdicts": [...]}, one object, or {"1": {...}}."""
    if isinstance(data, list):
        return [d for d in data if isinstance(d, dict)]
    if not isinstance(data, dict):
        return None
    for key in _LIST_KEYS:
        if isinstance(data.get(key), list):
            return [d for d in data[key] if isinstance(d, dict)]
    if "verdict" in data:
        return [data]
    keyed = [{"id": k, **v} for k, v in data.items() if isinstance(v, dict)]
    return keyed or None


def _loose_objects(text: str) -> list[dict[str, Any]]:
    """Verdict objects one by one, for a reply whose JSON is broken or cut off."""
    found: list[dict[str, Any]] = []
    for match in _OBJECT.finditer(text):
        try:
            data = json.loads(match.group(0))
        except ValueError:
            continue
        if isinstance(data, dict) and "verdict" in data:
            found.append(data)
    return found


def parse_verdicts(reply: str) -> list[dict[str, Any]]:
    """The verdict objects in a model reply (fences, prose, thinking and broken JSON tolerated); [] for junk."""
    text = _FENCE.sub("", _THINK.sub("", reply))
    entries = _entries(_load_json(text))
    return entries if entries else _loose_objects(text)


def read_verdict(value: Any) -> Verdict | None:
    """'Supported', 'NOT STATED', 'not-stated' and 'not_stated' are one verdict."""
    return _VERDICTS.get(re.sub(r"[^a-z]", "", str(value).lower())) if value is not None else None


def entry_number(value: Any, position: int) -> int:
    """The 1-based claim number an entry answers ("1", 1, "[1]"), or its place in the list when it gives none."""
    if value is None:
        return position
    digits = re.search(r"\d+", str(value))
    return int(digits.group(0)) if digits else -1
