"""A chart's title and legend are no sections (issue 11, remaining class 1).

Reports and filings draw bar and line charts whose text is all the extraction keeps: a short title in about
the body's size ("Cash from Operating Activities $B", "COMPARISON OF 5-YEAR CUMULATIVE TOTAL RETURN"), bare
values and axis ticks, and a legend row of coloured squares ("■ IOTG ■ Mobileye"). The title stands alone on
its line, often centred, so it passes every heading test. What gives it away is the text under it: before
any prose, bare figures that share their baseline with no word (a value over a bar, a tick of the value
axis), then an axis row of three or more evenly spaced ticks (years, dates, amounts). A table's title differs:
its figures sit on rows led by a label, and its year row comes first, over the figures. The drawing itself
is not extracted, so the text alone decides.
"""

from __future__ import annotations

import re

from pageindex_desktop.core.document import Line, PageData
from pageindex_desktop.core.outline.layout_evidence import AMOUNT, DATE
from pageindex_desktop.core.outline.layout_filters import UNNUMBERED, Candidate
from pageindex_desktop.core.outline.row_index import ByTop, PagesByTop
from pageindex_desktop.core.outline.size_scale import SizeScale, larger_by

# a value or tick: "2016", "$35.4", "(12)", "16%", "9/29/17", "Q1 2020", "FY21"
_TICK = re.compile(rf"^(?:{AMOUNT}|{DATE}|Q[1-4]\s?'?[0-9]{{2,4}}|FY\s?'?[0-9]{{2,4}})$")
_WORD = re.compile(r"[^\W\d_]{2,}")
# a legend's swatch: the filled and open squares, circles, diamonds and triangles charts key their series by
SWATCHES = frozenset("■□▪▫●○◆◇▲△▼▽◼◻")
TITLE_LARGER = 1.5  # a chart's title is set in about the body's size; a line this larger (over a 10 pt body,
# size_scale.larger_by) over a chart is a heading
CHART_DEPTH = 40.0  # how far under the title (in body sizes) the axis row may lie
AXIS_TICKS = 3  # ticks in an axis row, evenly spaced
VALUES = 2  # bare figures between the title and the axis row
EVEN = 0.25  # share of the mean gap by which the gaps between an axis row's ticks may differ
SAME_LINE = 0.5  # lines whose middles lie within this share of a line's height are on one line
PROSE_WORDS = 5  # a line of this many words ends the chart: it is the text under it


def is_legend(text: str) -> bool:
    """A row opening with a legend swatch ("■ IOTG ■ Mobileye", "● Revenue"): a chart's key, not a title."""
    return text.lstrip()[:1] in SWATCHES


def drop_chart_titles(candidates: list[Candidate], pages: list[PageData], body: float,
                      sizes: SizeScale) -> list[Candidate]:
    """`candidates` without the chart titles and legend rows described in the module docstring (`sizes`: the
    document's size clusters, which tell whether a line under the title is set in the title's size)."""
    index = PagesByTop([page.lines for page in pages])
    return [c for c in candidates
            if not is_legend(c.text) and not _chart_title(c, index.page(c.row.page), body, sizes)]


def _chart_title(cand: Candidate, lines: ByTop[Line], body: float, sizes: SizeScale) -> bool:
    """`cand` is an unnumbered body-size line with a chart's values and axis row under it."""
    if cand.style[2] not in UNNUMBERED or larger_by(cand.row.size, body, TITLE_LARGER):
        return False
    top = cand.bottom - 1
    depth = cand.bottom + CHART_DEPTH * body
    below = [ln for ln in lines.starting(top, depth) if top < ln.y0 <= depth]
    values = 0
    style = (sizes.key(cand.row.size), cand.row.bold)
    for baseline in _baselines(below):
        ticks = [ln for ln in baseline if _TICK.match(ln.text.strip())]
        if len(ticks) == len(baseline):
            if _axis(ticks):
                if not values:
                    return False  # a row of years over the figures: a table's header row
                if values >= VALUES:
                    return True
            values += len(ticks)
            continue
        if not values:
            if any((sizes.key(ln.size), ln.bold) != style for ln in baseline):
                return False  # a line set otherwise before any figure: the title heads more than a chart
            continue  # the title's own next line or subtitle ("Among Apple Inc., the S&P 500 Index ...")
        if any(len(ln.text.split()) >= PROSE_WORDS for ln in baseline):
            return False  # prose: the text under a heading, not a chart
        if ticks and any(_WORD.search(ln.text) for ln in baseline):
            return False  # a label with figures on its row: a table, not a chart
    return False


def _baselines(lines: list[Line]) -> list[list[Line]]:
    """`lines` grouped by the line they are printed on, top to bottom: a table's label and its figures may sit
    a point or two apart, so lines whose middles lie within half a line's height of the first one's join it."""
    groups: list[list[Line]] = []
    middle, height = -1e9, 0.0
    for ln in sorted(lines, key=lambda ln: (ln.y0 + ln.y1) / 2):
        centre = (ln.y0 + ln.y1) / 2
        if groups and centre - middle <= SAME_LINE * min(height, ln.y1 - ln.y0):
            groups[-1].append(ln)  # the smaller height: a tall vertical axis label joins no row
        else:
            groups.append([ln])
            middle, height = centre, ln.y1 - ln.y0
    return groups


def _axis(ticks: list[Line]) -> bool:
    """AXIS_TICKS or more ticks in a row at even steps ("2016 2017 2018"; two charts side by side each count)."""
    centres = sorted((ln.x0 + ln.x1) / 2 for ln in ticks)
    gaps = [b - a for a, b in zip(centres, centres[1:])]
    run = 1
    for a, b in zip(gaps, gaps[1:]):
        run = run + 1 if abs(a - b) <= EVEN * (a + b) / 2 else 1
        if run + 1 >= AXIS_TICKS:
            return True
    return False
