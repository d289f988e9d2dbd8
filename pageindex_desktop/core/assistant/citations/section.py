"""Which section of the document's tree a cited passage falls in, and which section a written heading names.

A page number alone means little in a document the app laid out to pages (Markdown, an e-book): the reader knows
its headings. So every resolved citation carries its section: the deepest node of the stored tree whose page span
holds the cited page and, on that page, whose heading is printed before the passage. Sections are read in
reading order, so a page shared by two sections gives the passage to the one whose heading precedes it. A
heading the tree names but that is not found in the page text (a bookmark pointing at a page) is taken to open
the page. Trees of page groups ("Pages 1-10", outline source "pages") name no section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pageindex_desktop.core.outline.tree import Node
from pageindex_desktop.core.text import fold

_NUMBERING = re.compile(r"^(?:(?:chapter|section|part|appendix|item)\s+)?\(?(?:[0-9ivxlc]+|[a-z])(?:[.\-][0-9a-z]+)*"
                        r"[.):]?\s+", re.I)
_QUOTE_CHARS = "'\"‘’“”`´"
_QUOTES = "[" + re.escape(_QUOTE_CHARS) + "]"
_DASH_CHARS = "-‐‑‒–—"
_DASHES = "[" + re.escape(_DASH_CHARS) + "]"
_PATH_MARK = re.compile(r"\s*[›»>]\s*")


@dataclass(frozen=True)
class Section:
    """A node of the tree as a citation names it: its id and title, the titles of its ancestors, its pages."""

    node_id: str
    title: str
    path: tuple[str, ...]  # titles from the top section down to this one (this one's included)
    start_page: int
    end_page: int

    def to_dict(self) -> dict[str, object]:
        """The JSON shape of a citation's `section` in `ask --json` and the stored records."""
        return {"node_id": self.node_id, "title": self.title, "path": list(self.path),
                "start_page": self.start_page, "end_page": self.end_page}


@dataclass(frozen=True)
class _Placed:
    node: Node
    path: tuple[str, ...]
    order: int  # pre-order index: reading order of the headings
    after: int  # pre-order index of the first node after this one's subtree

    def section(self) -> Section:
        n = self.node
        return Section(n.node_id, n.title, self.path, n.start_page, n.end_page)


def _placed(roots: list[Node]) -> list[_Placed]:
    out: list[_Placed] = []

    def visit(nodes: list[Node], path: tuple[str, ...]) -> None:
        for node in nodes:
            index = len(out)
            out.append(_Placed(node, path + (node.title,), index, 0))
            visit(node.children, path + (node.title,))
            out[index] = _Placed(node, path + (node.title,), index, len(out))

    visit(roots, ())
    return out


def _pattern(title: str) -> str:
    """The title as a pattern: its words with any whitespace between them (a heading may wrap) and any kind of
    quote mark or dash where it has one (bookmarks are typed, headings typeset)."""
    def word(w: str) -> str:
        return "".join(_QUOTES if c in _QUOTE_CHARS else _DASHES if c in _DASH_CHARS else re.escape(c) for c in w)
    return r"\s+".join(word(w) for w in title.split())


def heading_offset(title: str, page_text: str) -> int | None:
    """Where a heading is printed in the page text: on a line of its own (any case), else, in its own case, at the
    start of a line (a run-in heading), ending a line, or anywhere (run into the line before); then the title
    without its numbering, on a line of its own or ending one ("14: Eldred II" printed as "CHAPTER FOURTEEN:
    Eldred II"). None when it is not printed (a bookmark named for the file's author, not the reader). The case
    counts past the first pass so that "Results" is not found in "the results show"."""
    if not title.split():
        return None
    bare = _NUMBERING.sub("", title.strip(), count=1)
    whole, plain = _pattern(title), _pattern(bare) if bare != title.strip() else ""
    passes = [(rf"(?m)^[ \t]*({whole})[ \t]*$", re.I), (rf"(?m)^[ \t]*({whole})", 0), (rf"(?m)({whole})[ \t]*$", 0),
              (f"({whole})", 0)]
    if plain:
        passes += [(rf"(?m)^[ \t]*({plain})[ \t]*$", re.I), (rf"(?m)({plain})[ \t]*$", 0)]
    for pattern, flags in passes:
        match = re.search(pattern, page_text, flags)
        if match:
            return match.start(1)
    return None


def _start_on(placed: _Placed, page: int, page_text: str) -> int:
    """Where the section starts on `page`: before everything when it started on an earlier page."""
    if placed.node.start_page < page:
        return -1
    found = heading_offset(placed.node.title, page_text)
    return 0 if found is None else found


def section_at(roots: list[Node], page: int, page_text: str, offset: int | None) -> Section | None:
    """The deepest section holding `page` whose heading comes before `offset` of its text (None: the top of the
    page, for a citation whose passage is unknown). A section the tree ends on the page before, because the next
    one starts on this page, still holds the text above that next heading (bookmarks end a section where the
    next begins, though its last lines run on to the top of the next page)."""
    point = 0 if offset is None else offset
    placed = _placed(roots)
    opens_here = any(p.node.start_page == page for p in placed)
    best: tuple[int, int, int, _Placed] | None = None
    for item in placed:
        node = item.node
        runs_on = opens_here and node.end_page == page - 1
        if not (node.start_page <= page <= node.end_page or runs_on):
            continue
        start = _start_on(item, page, page_text)
        if start > point:
            continue
        key = (node.start_page, start if node.start_page == page else 0, item.order)
        if best is None or key >= best[:3]:
            best = (*key, item)
    return best[3].section() if best else None


def passage_offset(passage: str, page_text: str) -> int | None:
    """Where a judged passage starts in its page (it is an exact stretch; whitespace may differ in old records)."""
    if not passage.strip():
        return None
    found = page_text.find(passage)
    if found >= 0:
        return found
    words = passage.split()
    match = re.search(r"\s+".join(re.escape(w) for w in words[:12]), page_text)
    return match.start() if match else None


def stretch(roots: list[Node], node_id: str, page: int, page_text: str) -> tuple[int, int]:
    """The part of the page text that belongs to a section (its subsections included): from its heading when it
    starts on this page, up to the heading of the next section that is not inside it when that starts here."""
    placed = _placed(roots)
    own = next(p for p in placed if p.node.node_id == node_id)
    start = max(_start_on(own, page, page_text), 0)
    end = len(page_text)
    for later in placed[own.after :]:
        if later.node.start_page > page:
            break
        if later.node.start_page == page:
            found = heading_offset(later.node.title, page_text[start + 1 :])
            if found is not None:
                end = start + 1 + found
            break
    return start, end


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", fold(text)).split())


def _unnumbered(text: str) -> str:
    return _key(_NUMBERING.sub("", text.strip(), count=1))


def _names(written: str, title: str) -> bool:
    """Whether a written heading names this title: the same words, or the same once numbering is dropped from
    either ("2.1 Installation" for "Installation"), or the title's number alone ("§ 12" for "12. Definitions")."""
    mine, theirs = _key(written), _key(title)
    if not mine or not theirs:
        return False
    if mine == theirs:
        return True
    my_number, their_number = (_NUMBERING.match(t.strip() + " ") for t in (written, title))
    same_number = my_number is None or their_number is None or _key(my_number.group(0)) == _key(their_number.group(0))
    if same_number and _unnumbered(written) == _unnumbered(title) != "":  # "B. Overview" is not "A. Overview"
        return True
    return their_number is not None and _key(their_number.group(0)) == mine


def find_sections(roots: list[Node], written: str) -> list[Section]:
    """The sections a written heading names, in reading order. "Setup › Installation" names an Installation
    under Setup; a heading alone may name several (an "Installation" in two chapters)."""
    parts = [p for p in _PATH_MARK.split(written.strip().strip("§").strip()) if p.strip()]
    if not parts:
        return []
    *above, last = parts
    out = []
    for placed in _placed(roots):
        if not _names(last, placed.node.title):
            continue
        ancestors = placed.path[:-1]
        if all(any(_names(a, t) for t in ancestors) for a in above):
            out.append(placed.section())
    return out


def inside(roots: list[Node], node_id: str, outer: list[Section]) -> bool:
    """Whether the node is one of the `outer` sections or under one of them (its subtree in reading order)."""
    placed = _placed(roots)
    own = next((p for p in placed if p.node.node_id == node_id), None)
    wanted = {s.node_id for s in outer}
    return own is not None and any(p.order <= own.order < p.after for p in placed if p.node.node_id in wanted)
