"""The checks every heading a model proposes passes before it may enter the tree, whatever asked for it.

Section expansion and the model-written tree both hand their proposals to `check_headings`; nothing a model
says reaches `assemble` or the store any other way. A heading is kept only when its title is printed on the page
it claims (`verify.is_printed`, the check behind every node's `verified`), that page lies inside the span it was
proposed for and does not go back before the previous heading, it repeats neither the parent nor a sibling, and
its title has a sane length. Each reject is logged with its reason (never the document's text beyond the title).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.outline.tree import Heading
from pageindex_desktop.core.outline.verify import is_printed, normalize

log = logging.getLogger(__name__)

MIN_TITLE_CHARS = 2  # normalised letters and digits a heading needs ("A" alone names nothing)
MAX_TITLE_CHARS = 120  # a sentence, not a heading
MAX_TITLE_WORDS = 16

# Reasons, as logged and counted by the bench.
UNPRINTED = "not printed on the page it claims"
OUT_OF_SPAN = "page outside the section"
DESCENDING = "page before the previous heading"
DUPLICATE = "repeats the parent or a sibling"
BAD_LENGTH = "title too short or too long"


@dataclass
class CheckResult:
    """Headings that passed, in their order, and the rejected ones with why."""

    accepted: list[Heading] = field(default_factory=list)
    rejected: list[tuple[Heading, str]] = field(default_factory=list)


def sane_length(title: str) -> bool:
    """True for a title of heading length: some letters or digits, at most MAX_TITLE_CHARS / MAX_TITLE_WORDS."""
    flat = " ".join(title.split())
    norm = normalize(flat, strip_numbering=False).replace(" ", "")
    return len(norm) >= MIN_TITLE_CHARS and len(flat) <= MAX_TITLE_CHARS and len(flat.split()) <= MAX_TITLE_WORDS


def check_headings(
    proposed: Iterable[Heading],
    pages: Mapping[int, PageData],
    span: tuple[int, int],
    taken: Iterable[str] = (),
    *,
    after: int | None = None,
    what: str = "model",
) -> CheckResult:
    """Keep the proposed headings that pass every check, in order, for a parent spanning `span` (inclusive).

    `taken` holds titles already in the tree at that place (the parent's and its siblings'); accepted headings
    join it, so a proposal cannot repeat itself either. `after` is the page the previous accepted heading of an
    earlier batch started on (pages ascend across batches too). `what` names the caller in the log."""
    result = CheckResult()
    seen = {normalize(t) for t in taken if normalize(t)}
    last = after if after is not None else span[0]
    for heading in proposed:
        title = " ".join(heading.title.split())
        heading = Heading(title, heading.level, heading.page, heading.y)
        reason = _reason(heading, pages, span, last, seen)
        if reason:
            result.rejected.append((heading, reason))
            log.info("%s heading rejected (%s): %r p%d", what, reason, title[:80], heading.page)
            continue
        result.accepted.append(heading)
        seen.add(normalize(title))
        last = heading.page
    return result


def _reason(heading: Heading, pages: Mapping[int, PageData], span: tuple[int, int], last: int,
            seen: set[str]) -> str:
    """Why this heading may not enter the tree ('' when it may)."""
    if not sane_length(heading.title):
        return BAD_LENGTH
    if not span[0] <= heading.page <= span[1]:
        return OUT_OF_SPAN
    if heading.page < last:
        return DESCENDING
    if normalize(heading.title) in seen:
        return DUPLICATE
    page = pages.get(heading.page)
    if page is None or not is_printed(heading.title, page):
        return UNPRINTED
    return ""
