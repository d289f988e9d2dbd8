"""Which document and which page a citation means.

A title must name one document in scope unambiguously. Small typos are tolerated, but a title whose year, number
or edition differs names another document ("Annual Report 2022" is not the 2023 report), so it stays unknown
rather than being re-resolved to the one in scope. A page may be written as the file's page number or as the
label printed on it ("xiii", "A-3", "11" printed on the file's page 17): both readings are tried.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

from pageindex_desktop.core.citations.text import fold
from pageindex_desktop.core.store import DocumentRecord

MATCH = 88
AMBIGUOUS_MARGIN = 3
ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6", "seventh": "7",
            "eighth": "8", "ninth": "9", "tenth": "10"}
_ROMAN = re.compile(r"^(?=[mdclxvi])m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")


@dataclass(frozen=True)
class DocumentMatch:
    """The document a written title names, or why none: 'unknown document' or 'ambiguous document'."""

    document: DocumentRecord | None
    reason: str = ""


def _names(doc: DocumentRecord) -> list[str]:
    names = [doc.title or "", re.sub(r"\.pdf$", "", doc.file_name or "", flags=re.I)]
    return [n for n in names if n.strip()]


def _plain(text: str) -> str:
    return re.sub(r"[\s_]+", " ", fold(text)).strip(" .\"'*")


def number_tokens(text: str) -> set[str]:
    """The numbers a title carries: years, editions ('2nd', 'second'), volume and version numbers."""
    folded = fold(text)
    found = {n.lstrip("0") or "0" for n in re.findall(r"\d+(?:\.\d+)*", folded)}
    found |= {ORDINALS[w] for w in re.findall(r"[a-z]+", folded) if w in ORDINALS}
    found |= {"roman:" + w for w in re.findall(r"\b[ivxl]{1,6}\b", folded) if _ROMAN.match(w) and w != "i"}
    return found


def resolve_document(written: str, docs: list[DocumentRecord]) -> DocumentMatch:
    """The document in scope `written` names ('' means the only document in scope)."""
    if not written.strip():
        if len(docs) == 1:
            return DocumentMatch(docs[0])
        return DocumentMatch(None, "ambiguous document: the citation names no document and several are in scope")
    needle = _plain(written)
    exact = [d for d in docs if needle in {_plain(n) for n in _names(d)} or needle == d.doc_id.casefold()]
    if len(exact) == 1:
        return DocumentMatch(exact[0])
    scored = sorted(((max(fuzz.WRatio(needle, _plain(n)) for n in _names(d)), d) for d in (exact or docs)),
                    key=lambda item: -item[0])
    scored = [(score, d) for score, d in scored if score >= MATCH and _numbers_agree(written, d)]
    if not scored:
        return DocumentMatch(None, "unknown document")
    if len(scored) > 1 and scored[0][0] - scored[1][0] < AMBIGUOUS_MARGIN:
        return DocumentMatch(None, "ambiguous document: the title fits more than one document in scope")
    return DocumentMatch(scored[0][1])


def _numbers_agree(written: str, doc: DocumentRecord) -> bool:
    """Every number the written title carries is in the document's title or file name."""
    own = set().union(*(number_tokens(n) for n in _names(doc)))
    return number_tokens(written) <= own


@dataclass(frozen=True)
class PageReading:
    """One way to read a written page: the file's page it means and how it was read."""

    page: int
    printed: bool  # read as the label printed on the page

    def describe(self, token: str) -> str:
        """For the tooltip: which numbering the citation used."""
        return f"printed page {token} (page {self.page} of the file)" if self.printed else ""


def page_readings(token: str, labels: list[str], page_count: int) -> list[PageReading]:
    """Every page `token` may mean: the file's page number, then pages whose printed label is the token."""
    out: list[PageReading] = []
    if token.isdigit() and 1 <= int(token) <= page_count:
        out.append(PageReading(int(token), False))
    wanted = token.casefold().strip()
    for index, label in enumerate(labels):
        page = index + 1
        if label and label.casefold().strip() == wanted and all(r.page != page for r in out):
            out.append(PageReading(page, True))
    return out
