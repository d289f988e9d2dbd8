"""Embedded bookmarks as headings: junk outlines rejected, targets repaired, titles looked for on their pages.

Bookmarks are the authors' own tree, so a usable outline is kept whole: entries whose title is not printed near
their target stay in the tree (unverified) rather than being dropped, so do entries whose link names no page, and
only an outline that is junk as a whole (too short, generic "Page N" or file-name titles, one title repeated
throughout, no usable targets) is ignored. A short outline (two entries: a report's "Summary" and "Annex") is the
authors' tree too when both titles are printed where they point; a lone entry is the document's title. A child whose link points outside its sound parent is placed inside
it, so one broken entry never moves a chapter.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass, field

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.tree import Heading
from pageindex_desktop.core.outline.verify import is_printed, locate, normalize, opens_page

log = logging.getLogger(__name__)

MIN_ENTRIES = 3
SHORT_ENTRIES = 2  # fewer than MIN_ENTRIES, this many are kept when every title is printed where it points
_GENERIC = re.compile(
    r"^\s*(?:(?:page|p|pg|seite|pagina|página|bookmark|untitled|slide|folie|sheet|blatt)\.?\s*"
    r"(?:\d+|[ivxlcdm]+)?(?:\s*(?:of|/|von|de)\s*\d+)?"
    r"|[\w\-. ()]+\.(?:html?|pdf|docx?|xlsx?|pptx?|txt|rtf|indd|tex|odt))\s*$",
    re.IGNORECASE,
)
_BARE_NUMBER = re.compile(r"^\s*(\d+)\s*$")


@dataclass
class BookmarkCheck:
    """What validation learned about a document's outline: the headings, how many were found, or why it is junk."""

    headings: list[Heading] = field(default_factory=list)
    found: list[bool] = field(default_factory=list)  # title printed on the target page or a neighbour
    junk: str = ""  # non-empty: the reason the outline is ignored

    @property
    def found_share(self) -> float:
        """Share of entries whose title was found printed near their target."""
        return sum(self.found) / len(self.found) if self.found else 0.0


def _junk_reason(entries: list[tuple[int, str, int]], page_count: int) -> str:
    """Why an outline is junk as a whole, or '' when it is worth validating."""
    if len(entries) < SHORT_ENTRIES:
        return f"fewer than {SHORT_ENTRIES} entries"
    generic = sum(1 for _, title, _ in entries if _GENERIC.match(title)) + _page_numbers(entries)
    if generic * 2 > len(entries):
        return "mostly generic titles (Page N, numbers, file names)"
    paths = Counter(_paths(entries))
    if len(paths) * 2 <= len(entries) and paths.most_common(1)[0][1] * 2 > len(entries):
        return "mostly duplicate titles"
    targets = [page for _, _, page in entries if 1 <= page <= page_count]
    if len(targets) * 2 < len(entries):
        return "most entries have no page in the document"
    if page_count >= 10 and len(set(targets)) == 1:
        return "every entry points to the same page"
    return ""


def _page_numbers(entries: list[tuple[int, str, int]]) -> int:
    """How many entries are bare numbers that count pages: a scan's "1", "2", "3" on pages 1, 2, 3 (or each a
    fixed offset from its page, after a cover). Numbers that do not keep step with the pages are chapter numbers
    (a novel's "1", "2", "3" on pages 5, 19, 32, as an e-book's contents often gives them) and count as titles."""
    offsets = Counter(int(match.group(1)) - page for _, title, page in entries
                      if page >= 1 and (match := _BARE_NUMBER.match(title)))
    if not offsets:
        return 0
    numbers = sum(offsets.values())
    return numbers if offsets.most_common(1)[0][1] * 2 > numbers else 0


def _paths(entries: list[tuple[int, str, int]]) -> list[tuple[str, ...]]:
    """Each entry's title with its ancestors' titles: "Returns" under every function of a reference manual is
    not a duplicate, "Section" ten times over at one level is. An outline is junk when its paths are mostly
    repeats and one alone makes up more than half of it (one title stamped on every bookmark), not when many
    recur: a reference whose flat outline reads "split", "Summary", "Parameters", "Returns", "join",
    "Summary", ... is a valid tree with a repeated pattern."""
    stack: list[tuple[int, str]] = []
    paths = []
    for level, title, _ in entries:
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, normalize(title, strip_numbering=False)))
        paths.append(tuple(t for _, t in stack))
    return paths


def _fill_targets(entries: list[tuple[int, str, int]], page_count: int) -> list[tuple[int, str, int]]:
    """Entries without a page in range take their first child's; childless ones sit where they stand in the
    outline, unless their target leads out of the document.

    A parent without a target still groups its children, so it starts where they do. A childless entry whose
    target is in the document but names no page (0: no action, a name no destination carries) or a page past
    the end is a broken link to a section the authors listed: it keeps its place at the previous entry's page
    (the next entry's when it comes first), so its siblings and parent keep theirs. One that leads out of the
    document (-1: a web address, another file) is no section of it and is dropped.
    """
    filled: list[tuple[int, str, int]] = []
    for index, (level, title, page) in enumerate(entries):
        if not 1 <= page <= page_count:
            inward = page != -1
            page = -1
            for later in range(index + 1, len(entries)):  # by index: no copy of the rest per entry
                later_level, _, later_page = entries[later]
                if later_level <= level:
                    break
                if 1 <= later_page <= page_count:
                    page = later_page
                    break
            if page < 1 and inward:
                page = filled[-1][2] if filled else next(
                    (entries[j][2] for j in range(index + 1, len(entries)) if 1 <= entries[j][2] <= page_count), -1)
        if page >= 1:
            filled.append((level, title, page))
    return filled


def _usable_entries(toc: list[tuple[int, str, int]], page_count: int) -> tuple[list[tuple[int, str, int]], str]:
    """The outline's entries with repaired targets, or [] and the reason the outline is junk."""
    entries = [(max(1, level), title, page) for level, title, page in toc if title.strip()]
    reason = _junk_reason(entries, page_count)
    if reason:
        return [], reason
    entries = _fill_targets(entries, page_count)
    if len(entries) < SHORT_ENTRIES:
        return [], f"fewer than {SHORT_ENTRIES} entries with a page"
    return entries, ""


def outline_targets(toc: list[tuple[int, str, int]], page_count: int) -> list[int] | None:
    """The pages a usable outline points to (before validation moves any), or None when it is junk.

    Extraction uses it to know, before reading pages, which ones bookmark validation will look at.
    """
    entries, reason = _usable_entries(toc, page_count)
    return None if reason else [page for _, _, page in entries]


def check_bookmarks(doc: ExtractedDocument) -> BookmarkCheck:
    """Validate the embedded outline: junk test, target repair, and each title looked for on its page ±1."""
    entries, reason = _usable_entries(doc.toc, doc.page_count)
    if reason:
        return BookmarkCheck(junk=reason)
    check = BookmarkCheck()
    for level, title, page in entries:
        here = doc.pages[page - 1]
        y = locate(title, here)
        found = y is not None or is_printed(title, here)
        if not found and page < doc.page_count:
            after = doc.pages[page]
            y_after = locate(title, after)
            if y_after is not None and opens_page(after, y_after):
                page, y, found = page + 1, y_after, True  # the link lands just before a page break
            else:
                found = is_printed(title, after)
        if not found and page > 1:
            found = is_printed(title, doc.pages[page - 2])
        check.headings.append(Heading(title=title, level=level, page=page, y=y))
        check.found.append(found)
    if len(check.headings) < MIN_ENTRIES and not all(check.found):
        return BookmarkCheck(junk=f"fewer than {MIN_ENTRIES} entries, not all printed where they point")
    _keep_children_inside(check)
    return check


def _keep_children_inside(check: BookmarkCheck) -> None:
    """A child whose target lies outside its parent's pages (before the parent, or past the next entry at the
    parent's level) is a broken link. When the parent's title is printed where it points, the parent is sound: the
    child moves to its previous sibling's page (or the parent's) instead of stretching the parent over pages that
    are not its own (a chapter on page 30 pulled back to page 1, a package of 50 pages spread over 2,000).

    A parent whose title is not printed there (set in an image, worded otherwise in the outline) may instead be
    the entry that points late, with its first children rightly before it: then only a child outside the parent's
    slot in the outline (before the furthest page any earlier entry points to, or past the next entry at the
    parent's level) is broken, and only when the parent itself sits in that slot (a parent linked back to page 1
    after entries up to page 107 is the broken one, and its children keep their pages). One child linked to page
    1 does not pull such a chapter there."""
    headings = check.headings
    ancestors: list[int] = []  # indices of the entries open above the current one, levels rising
    ends: dict[int, int | None] = {}
    reached: list[int] = []  # per entry, the furthest page any earlier entry points to (after its repair)
    furthest = 1
    for index, heading in enumerate(headings):
        reached.append(furthest)
        while ancestors and headings[ancestors[-1]].level >= heading.level:
            ancestors.pop()
        if ancestors:
            _place_inside(check, index, ancestors[-1], ends, reached)
        ancestors.append(index)
        furthest = max(furthest, headings[index].page)


def _place_inside(check: BookmarkCheck, index: int, parent: int, ends: dict[int, int | None],
                  reached: list[int]) -> None:
    """Move entry `index` inside `parent` when it is a broken child (see `_keep_children_inside`)."""
    headings = check.headings
    heading = headings[index]
    start = headings[parent].page
    if parent not in ends:
        ends[parent] = _parent_end(headings, parent)
    end = ends[parent]
    if start <= heading.page and (end is None or heading.page <= end):
        return
    if not check.found[parent]:
        before = reached[parent]
        if start < before or before <= heading.page and (end is None or heading.page <= end):
            return
    previous = headings[index - 1].page
    page = previous if start <= previous and (end is None or previous <= end) else start
    log.info("bookmark %r points to page %d, outside its parent %r (page %d): placed on page %d",
             heading.title, heading.page, headings[parent].title, start, page)
    headings[index] = Heading(title=heading.title, level=heading.level, page=page, y=None)
    check.found[index] = False


def _parent_end(headings: list[Heading], parent: int) -> int | None:
    """The page of the next entry at `parent`'s level or above, which ends it, unless that entry points back
    before the parent (then it is the stray one, and the following one decides); None when nothing follows.
    Computed once per parent and walked by index, so an outline of thousands of entries stays linear per level."""
    level, start = headings[parent].level, headings[parent].page
    for later in range(parent + 1, len(headings)):
        if headings[later].level <= level and headings[later].page >= start:
            return headings[later].page
    return None


def bookmark_headings(doc: ExtractedDocument) -> list[Heading] | None:
    """The outline's headings when it is usable, else None (the reason is logged)."""
    check = check_bookmarks(doc)
    if check.junk:
        log.info("bookmarks ignored: %s", check.junk)
        return None
    log.info("bookmarks: %d entries, %.0f%% found on their pages", len(check.headings), 100 * check.found_share)
    return check.headings
