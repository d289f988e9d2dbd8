"""Figures a claim states and a passage prints, as values that can be compared across units.

"$4.42 billion" and "$4,420 million" are the same amount; "12.5 percent" is "12.5%"; "525 basis points" is
5.25 percentage points; "fiscal 2023" and "FY23" are the year 2023. A table cell printed without its scale
("4,420" under "in millions") may take any scale, and a claim may round what the page prints ("$4.4 billion").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from pageindex_desktop.core.text import fold

SCALES = {
    "thousand": 3, "thousands": 3, "k": 3, "million": 6, "millions": 6, "mn": 6, "mm": 6, "m": 6, "mil": 6,
    "billion": 9, "billions": 9, "bn": 9, "b": 9, "trillion": 12, "trillions": 12, "tn": 12, "t": 12,
}
CURRENCIES = {"$": "usd", "us$": "usd", "usd": "usd", "€": "eur", "eur": "eur", "£": "gbp", "gbp": "gbp",
              "¥": "jpy", "jpy": "jpy", "cny": "cny", "rmb": "cny", "chf": "chf", "cad": "cad", "c$": "cad",
              "a$": "aud", "aud": "aud", "dollars": "usd", "euros": "eur", "euro": "eur", "pounds": "gbp",
              "yuan": "cny", "yen": "jpy", "cents": "usd"}
SI = {"k": 3, "m": 6, "g": 9, "t": 12}
WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "dozen": 12, "half": 0.5,
}

_FIGURE = re.compile(
    r"(?P<cur>us\$|c\$|a\$|[$€£¥]|\b(?:usd|eur|gbp|jpy|cny|rmb|chf|cad|aud)\b)?\s?"
    r"(?P<paren>\()?"
    r"(?<![\w.,])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?![\d,]\d)"
    r"(?P<close>\))?"
    r"(?:\s?(?P<pct>%|percent\b|per\s?cent\b|percentage\s+points?\b|pp\b|basis\s+points?\b|bps?\b))?"
    r"(?:\s?(?P<scale>thousands?|millions?|billions?|trillions?|mn|mm|bn|tn|k|m|b|t|mil)\b)?"
    r"(?:\s?(?P<si>[kmgt])(?P<si_unit>wh|w)\b)?"
    r"(?:\s(?P<curword>dollars|euros?|pounds|yuan|yen|cents)\b)?",
)
_FISCAL = re.compile(r"\b(?:fy|fiscal(?:\s+year)?|cy|calendar\s+year)\s?'?(?P<year>\d{4}|\d{2})\b")
_WORD_NUMBER = re.compile(r"\b(" + "|".join(WORD_NUMBERS) + r")\b")
_AND_A_HALF = re.compile(r"\b(" + "|".join(WORD_NUMBERS) + r") and a half\b")


@dataclass(frozen=True)
class Figure:
    """One figure: its value in base units (`exponent` applied), what kind it is and where it was written."""

    value: Decimal  # as printed, before the scale
    exponent: int  # 6 for "million"; 0 when none is printed
    kind: str  # "money", "percent", "year" or "number"
    currency: str  # "usd", … or "" when none is printed
    start: int
    end: int
    text: str
    scaled: bool  # whether a scale word was printed (an unscaled table cell may take any scale)

    @property
    def amount(self) -> Decimal:
        """The value in base units."""
        return self.value.scaleb(self.exponent)

    @property
    def decimals(self) -> int:
        """Digits after the point as written: how precisely the figure was stated."""
        exponent = self.value.as_tuple().exponent
        return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def figures(text: str) -> list[Figure]:
    """Every figure in `text` (offsets into the folded text, which keeps the length of plain ASCII text)."""
    folded = fold(text)
    found: list[Figure] = []
    taken: list[tuple[int, int]] = []
    for match in _FISCAL.finditer(folded):
        year = match.group("year")
        value = int(year) if len(year) == 4 else 2000 + int(year)
        found.append(Figure(Decimal(value), 0, "year", "", match.start(), match.end(), match.group(0), False))
        taken.append((match.start(), match.end()))
    for match in _FIGURE.finditer(folded):
        start, end = match.start("num"), match.end()
        if any(a <= start < b for a, b in taken):
            continue
        if _inside_code(folded, match):
            continue
        figure = _figure(match, folded)
        if figure is not None:
            found.append(figure)
    found.sort(key=lambda f: f.start)
    return found


def _inside_code(folded: str, match: re.Match[str]) -> bool:
    """Digits inside a code or a name ('Form X-17A-5', 'W2AG', 'COVID-19'), not a figure of their own."""
    start, end = match.start("num"), match.end("num")
    before = folded[max(0, start - 2) : start]
    if re.search(r"[a-z][-/]?\Z", before):
        return True
    after = folded[end : end + 1]
    return bool(after.isalpha()) and not any(match.group(g) for g in ("pct", "scale", "si"))


def _figure(match: re.Match[str], folded: str) -> Figure | None:
    raw = match.group("num").replace(",", "")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        return None
    pct = (match.group("pct") or "").replace(" ", "")
    scale = match.group("scale") or ""
    currency = CURRENCIES.get(match.group("cur") or "", "") or CURRENCIES.get(match.group("curword") or "", "")
    start = match.start("cur") if match.group("cur") else match.start("num")
    end = match.end()
    exponent = 0
    if pct:
        kind = "percent"
        if pct.startswith("basis") or pct.startswith("bp"):
            exponent = -2  # 25 basis points = 0.25 percentage points
        scale = ""
    elif scale and (currency or scale not in {"m", "b", "t", "k"} or _amount_context(folded, start)):
        exponent = SCALES[scale]
        kind = "money" if currency else "number"
    else:
        if scale:  # "5 m" of distance or a stray letter: not a scale
            end = match.end("close") if match.group("close") else match.end("num")
            scale = ""
        kind = "money" if currency else "number"
    if match.group("curword") == "cents":  # "82 cents" is $0.82
        kind, currency, exponent = "money", "usd", exponent - 2
    if match.group("si"):  # "2,300 MW" is 2.3 GW
        kind, exponent, scale = "unit:" + match.group("si_unit"), exponent + SI[match.group("si")], "si"
    if (kind == "number" and exponent == 0 and value == value.to_integral() and 1900 <= value <= 2099
            and "," not in match.group("num") and "." not in match.group("num")):
        kind = "year"
    text = folded[start:end]
    return Figure(value, exponent, kind, currency, start, end, text, bool(scale) or exponent != 0)


def _amount_context(folded: str, at: int) -> bool:
    """Whether a one-letter scale ('5m', '3.2b') follows an amount rather than a unit of length or a variable."""
    before = folded[max(0, at - 20) : at]
    return bool(re.search(r"(revenue|sales|income|cost|profit|loss|debt|cash|assets|\$|€|£)", before))


def word_numbers(text: str) -> list[Decimal]:
    """Numbers written as words ('three segments', 'two and a half meters'), which a claim's digits may match."""
    folded = fold(text)
    found = [Decimal(str(WORD_NUMBERS[w])) for w in _WORD_NUMBER.findall(folded)]
    found += [Decimal(str(WORD_NUMBERS[w])) + Decimal("0.5") for w in _AND_A_HALF.findall(folded)]
    return found


def same_value(claim: Figure, printed: Figure) -> bool:
    """Whether a printed figure states the claim's figure: the same kind, the same amount after units (an unscaled
    printed figure may take any scale), and the claim may round the printed value to its own precision."""
    if not _kinds_compatible(claim, printed):
        return False
    if claim.currency and printed.currency and claim.currency != printed.currency:
        return False
    if claim.kind == "year" or printed.kind == "year":
        return claim.value == printed.value
    if claim.kind == "percent":
        return _rounds_to(printed.amount, claim.amount, claim.decimals - claim.exponent)
    exponents = [printed.exponent] if printed.scaled else [0, 3, 6, 9, 12]
    for exponent in exponents:
        amount = printed.value.scaleb(exponent)
        if _rounds_to(amount, claim.amount, claim.decimals - claim.exponent):
            return True
    return False


def _kinds_compatible(claim: Figure, printed: Figure) -> bool:
    if claim.kind == printed.kind:
        return True
    if claim.kind == "year" or printed.kind == "year":
        return False
    # A table cell prints "12.5" under a "%" header and "4,420" under "$ in millions"; a claim may drop the "$".
    return printed.kind == "number" or (claim.kind == "number" and printed.kind == "money")


def _rounds_to(amount: Decimal, target: Decimal, decimals: int) -> bool:
    """Whether `amount` rounded half-up to `decimals` places (negative: to tens, hundreds…) equals `target`."""
    if amount == target:
        return True
    quantum = Decimal(1).scaleb(-decimals)
    try:
        return amount.quantize(quantum, rounding=ROUND_HALF_UP) == target.quantize(quantum)
    except InvalidOperation:
        return False


def conflicts(claim: Figure, printed: Figure) -> bool:
    """Whether a printed figure states the same kind of quantity with another value (a changed number)."""
    if claim.kind != printed.kind or same_value(claim, printed):
        return False
    if claim.kind == "money":
        return not claim.currency or not printed.currency or claim.currency == printed.currency
    return claim.kind in {"percent", "number", "year"}
