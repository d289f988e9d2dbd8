"""Which document a reference means: one rule for the CLI's DOC, the assistant's tools and its citations.

A reference is a doc id, an id prefix, a title, a file name (with or without `.pdf`) or a title as a model cites
it. Steps, first decisive one wins:

1. nothing written: the one document in scope, else ambiguous;
2. the exact doc id (it beats a title that happens to read the same);
3. an exact title or file name (case, spacing, underscores, quotes and a `.pdf` ignored);
4. a prefix of a title or file name, or of an id from `MIN_ID_PREFIX` characters;
5. a close spelling (rapidfuzz WRatio >= `MATCH`, `AMBIGUOUS_MARGIN` ahead of the next).

Steps 3-5 that fit several documents say so (ambiguous), never pick one. In steps 4 and 5 every number the
reference carries (a year, edition, volume) must be in the document's title or file name: "Annual Report 2022"
is another document than the 2023 report, not a typo of it. The title is the one the library shows, so a
renamed document is found by its new name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from rapidfuzz import fuzz, process

from pageindex_desktop.core.text import fold

if TYPE_CHECKING:
    from pageindex_desktop.core.library.store import DocumentRecord

MATCH = 90
AMBIGUOUS_MARGIN = 3
MIN_ID_PREFIX = 4
CLOSE_NAME = 40  # WRatio from which a title is offered as "did you mean" when nothing matched
GARBLED_TITLE = 70  # from which a reference is a mangled title of the one document in scope (lenient mode)
GARBLED_ID = 80
UNKNOWN = "unknown document"
NO_NAME = "ambiguous document: no document is named and several are in scope"
SEVERAL = "ambiguous document: the name fits more than one document in scope"
ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6", "seventh": "7",
            "eighth": "8", "ninth": "9", "tenth": "10"}
_ROMAN = re.compile(r"^(?=[mdclxvi])m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_PDF = re.compile(r"\.pdf$", re.I)


@dataclass(frozen=True)
class Resolution:
    """The document a reference names, or why none: `reason` is UNKNOWN or starts with 'ambiguous document'."""

    document: DocumentRecord | None
    reason: str = ""
    candidates: tuple[DocumentRecord, ...] = ()  # the documents an ambiguous reference fits

    @property
    def ambiguous(self) -> bool:
        """Whether the reference fits several documents (as opposed to none)."""
        return self.reason.startswith("ambiguous")


def resolve(ref: str, docs: list[DocumentRecord], *, lenient: bool = False) -> Resolution:
    """The document among `docs` (the scope) that `ref` names. `lenient` is the tools' rule for one document in
    scope: a reference that is a mangled form of its name or id (small models garble both) means it."""
    if lenient and len(docs) == 1 and (not ref.strip() or _garbled(ref, docs[0])):
        return Resolution(docs[0])
    if not ref.strip():
        if len(docs) == 1:
            return Resolution(docs[0])
        return Resolution(None, NO_NAME if docs else UNKNOWN, tuple(docs))
    needle, key = _plain(ref), ref.strip().casefold()
    tests: tuple[Callable[[DocumentRecord], bool], ...] = (
        lambda d: d.doc_id.casefold() == key,
        lambda d: needle in _names(d),
        lambda d: ((len(key) >= MIN_ID_PREFIX and d.doc_id.casefold().startswith(key))
                   or (any(n.startswith(needle) for n in _names(d)) and _numbers_agree(ref, d))),
    )
    for test in tests:
        found = [d for d in docs if test(d)]
        if len(found) == 1:
            return Resolution(found[0])
        if found:
            return Resolution(None, SEVERAL, tuple(found))
    scored = sorted(((max(fuzz.WRatio(needle, n) for n in _names(d)), d) for d in docs if _names(d)),
                    key=lambda item: -item[0])
    scored = [(score, d) for score, d in scored if score >= MATCH and _numbers_agree(ref, d)]
    if not scored:
        return Resolution(None, UNKNOWN)
    if len(scored) > 1 and scored[0][0] - scored[1][0] < AMBIGUOUS_MARGIN:
        close = tuple(d for score, d in scored if scored[0][0] - score < AMBIGUOUS_MARGIN)
        return Resolution(None, SEVERAL, close)
    return Resolution(scored[0][1])


def close_names(ref: str, docs: list[DocumentRecord], limit: int = 3) -> list[DocumentRecord]:
    """Documents whose title is nearest `ref` (for "did you mean" when nothing matched), best first."""
    titles = {d.doc_id: d.title or d.file_name for d in docs}
    best = process.extract(ref, titles, scorer=fuzz.WRatio, limit=limit)
    by_id = {d.doc_id: d for d in docs}
    return [by_id[key] for _, score, key in best if score >= CLOSE_NAME]


def label(doc: DocumentRecord, among: tuple[DocumentRecord, ...] | list[DocumentRecord] = ()) -> str:
    """'Title (doc id …)', with the file name when another of `among` has the same title."""
    shared = sum(1 for d in among if d.title == doc.title) > 1
    return (doc.title or doc.file_name) + (f" [{doc.file_name}]" if shared else "") + f" (doc id {doc.doc_id})"


def number_tokens(text: str) -> set[str]:
    """The numbers a title carries: years, editions ('2nd', 'second'), volume and version numbers."""
    folded = fold(text)
    found = {n.lstrip("0") or "0" for n in re.findall(r"\d+(?:\.\d+)*", folded)}
    found |= {ORDINALS[w] for w in re.findall(r"[a-z]+", folded) if w in ORDINALS}
    found |= {"roman:" + w for w in re.findall(r"\b[ivxl]{1,6}\b", folded) if _ROMAN.match(w) and w != "i"}
    return found


def _names(doc: DocumentRecord) -> list[str]:
    """The document's title and file name as compared."""
    names = {_plain(doc.title or ""), _plain(doc.file_name or "")}
    return sorted(n for n in names if n)


def _plain(text: str) -> str:
    return re.sub(r"[\s_]+", " ", fold(_PDF.sub("", text.strip()))).strip(" .\"'*")


def _numbers_agree(written: str, doc: DocumentRecord) -> bool:
    """Every number the written reference carries is in the document's title or file name."""
    own = set().union(*(number_tokens(n) for n in (doc.title, doc.file_name) if n))
    return number_tokens(written) <= own


def _garbled(ref: str, doc: DocumentRecord) -> bool:
    """Whether `ref` is a mangled form of this document's title, file name or id (not another document's name)."""
    names = [n for n in (doc.title, _PDF.sub("", doc.file_name)) if n]
    return (any(fuzz.WRatio(ref, n, processor=str.casefold) >= GARBLED_TITLE for n in names)
            or fuzz.ratio(ref.strip(), doc.doc_id) >= GARBLED_ID)
