"""Grouping positions by nearness instead of by a fixed grid, so a scaled copy of a page groups as the page does.

A grid key (`round(y)`, `y // 6`) splits two values a hair apart when a cell boundary falls between them, and
where the boundaries fall moves when the page is printed "to fit" (every coordinate times 0.97: Letter on A4):
a row's two lines that share a baseline sort apart, a running header printed on a few pages 1 pt lower falls
into another band. Sorted values grouped from each group's first value decide instead: the same values group
the same way at any scale when the reach scales with them. Groups grow from their first value, never link to
link, so a run of values each a little below the next never chains into one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def near_runs(items: Sequence[T], value: Callable[[T], float], reach: float) -> list[list[T]]:
    """`items` sorted by `value`, cut into groups: each opens at its smallest value and takes every next item
    whose value is within `reach` of that first one."""
    groups: list[list[T]] = []
    start = 0.0
    for item in sorted(items, key=value):
        v = value(item)
        if groups and v - start <= reach:
            groups[-1].append(item)
        else:
            groups.append([item])
            start = v
    return groups
