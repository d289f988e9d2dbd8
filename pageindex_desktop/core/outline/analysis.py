"""Per-document facts both heading finders need (rows, page furniture, body text size), computed once.

The document's size clusters (size_scale.py) are built here once: the body size is a cluster's key, and the
layout pass keys heading styles by them, so one style is one size however noise or a scaled page set it.

`find_toc_headings` and `find_layout_headings` are called one after the other on the same document; the cache
keeps the last few analyses by object identity so the second call does not walk every page again.
"""

from __future__ import annotations

import re
import weakref
from collections import Counter
from itertools import chain, islice
from dataclasses import dataclass, field

from pageindex_desktop.core.document import ExtractedDocument
from pageindex_desktop.core.outline.numbering import title_key
from pageindex_desktop.core.outline.rows import Row, page_rows
from pageindex_desktop.core.outline.running import Furniture, find_furniture
from pageindex_desktop.core.outline.size_scale import SizeScale, size_scale


@dataclass
class Analysis:
    """Rows of every page with running headers/footers marked, the body size and a title index."""

    rows: list[list[Row]]  # per page (index = page number - 1), lines joined only around bare numbers
    furniture: Furniture
    body_size: float
    sizes: SizeScale = field(default_factory=SizeScale, repr=False)  # the document's size clusters
    _index: dict[str, list[tuple[int, int]]] | None = field(default=None, repr=False)
    # (page, row index) -> full title key of each row in the title index, kept from building it
    _keys: dict[tuple[int, int], str] = field(default_factory=dict, repr=False)
    extra: dict[str, object] = field(default_factory=dict, repr=False)  # other modules' cached results

    def is_running(self, row: Row, index: int) -> bool:
        """True when the row at `index` of its page is a header, footer or page number."""
        return (row.page, index) in self.furniture.running

    def title_index(self) -> dict[str, list[tuple[int, int]]]:
        """Key of the first KEY_CHARS characters of each content row -> [(page, row index)], built on first use."""
        if self._index is None:
            index: dict[str, list[tuple[int, int]]] = {}
            running = self.furniture.running
            body = self.body_size
            for rows in self.rows:
                for i, row in enumerate(rows):
                    # a run-in head ("Section 2.01 Defined Terms." in bold, then its text) is printed as its lead
                    text = row.lead or row.text
                    if len(text) > 160 or (len(text) > 70 and not row.bold and row.size < body + 0.5):
                        continue  # full-width body lines are not where titles are printed
                    if text[0].islower() and text[1:2] not in (".", ")") and not (row.bold or row.lead):
                        continue  # a sentence running on from the line above
                    if (row.page, i) in running:
                        continue
                    full = title_key(text)
                    if full:
                        index.setdefault(full[:KEY_CHARS], []).append((row.page, i))
                        self._keys[(row.page, i)] = full
            self._index = index
        return self._index

    def row_key(self, page: int, index: int) -> str:
        """The full title key of a row the title index lists: a contents entry is matched against every row
        under its key's prefix, and recomputing each row's key per entry made long documents quadratic."""
        self.title_index()
        return self._keys[(page, index)]


KEY_CHARS = 12  # short enough that the first line of a title wrapped in the text is found under it
_CACHE: list[tuple[weakref.ref[ExtractedDocument], Analysis]] = []


def analyse(doc: ExtractedDocument) -> Analysis:
    """The (cached) analysis of `doc`."""
    for ref, analysis in _CACHE:
        if ref() is doc:
            return analysis
    sizes = document_sizes(doc)
    rows = [page_rows(page, merge_all=False) for page in doc.pages]
    furniture = find_furniture(rows, [page.height for page in doc.pages])
    analysis = Analysis(rows=rows, furniture=furniture, body_size=body_size(doc, sizes), sizes=sizes)
    entry = (weakref.ref(doc), analysis)
    _CACHE.append(entry)
    weakref.finalize(doc, _forget, entry)  # the rows of a large document go when the document goes
    del _CACHE[:-3]
    return analysis


def document_sizes(doc: ExtractedDocument) -> SizeScale:
    """The size clusters of every line of `doc`, weighted by its characters."""
    return size_scale((line.size, len(line.text)) for page in doc.pages for line in page.lines)


def body_size(doc: ExtractedDocument, sizes: SizeScale | None = None) -> float:
    """The size of the most common prose text, as its size cluster's key (`sizes`, else built here).

    Headings are judged against the body, so the body must be the running text: in a manual full of code
    listings or a filing full of tables, the most common size overall is the listing's or the table's, and
    prose set larger would read as headings while the real headings were lost. Lines that read as prose
    (`_prose_line`, on an even sample of PROSE_SAMPLE lines) decide; a document with too little of them
    (slides, forms) falls back to every line.
    """
    scale = sizes if sizes is not None else document_sizes(doc)
    counts: Counter[float] = Counter()
    count = 0
    for page in doc.pages:
        count += len(page.lines)
        for line in page.lines:
            counts[scale.key(line.size)] += len(line.text)
    stride = max(1, count // PROSE_SAMPLE)
    # an even sample: the prose test costs far more than the count
    sample = islice(chain.from_iterable(page.lines for page in doc.pages), 0, None, stride)
    prose: Counter[float] = Counter()
    sampled = 0
    for line in sample:
        sampled += len(line.text)
        if _prose_line(line.text):
            prose[scale.key(line.size)] += len(line.text)
    if prose and sum(prose.values()) >= PROSE_SHARE * sampled:
        return prose.most_common(1)[0][0]
    return counts.most_common(1)[0][0] if counts else 10.0


PROSE_SHARE = 0.2  # below this share of the characters, prose is too rare to say what the body is
PROSE_SAMPLE = 500  # lines tested for prose per document, evenly spread
PROSE_CHARS = 25  # five words and their spaces: shorter lines are never counted as prose
_WORD = re.compile(r"\S+")
# a plain word: letters only, perhaps in quotes or brackets, perhaps closed by punctuation
_PLAIN_WORD = re.compile(r"(?<!\S)[(\"'“‘]?[^\W\d_]+[)\"'’”.,;:!?]*(?!\S)")
_CODE_MARKS = re.compile(r"[{}()\[\];=<>_/\\#$|]")


def _prose_line(text: str) -> bool:
    """Five or more words, most of them plain words, and almost none of a listing's punctuation."""
    if len(text) < PROSE_CHARS:
        return False
    words = len(_WORD.findall(text))
    if words < 5 or len(_PLAIN_WORD.findall(text)) < 0.7 * words:
        return False
    return len(_CODE_MARKS.findall(text)) <= 0.03 * len(text)


def _forget(entry: tuple[weakref.ref[ExtractedDocument], Analysis]) -> None:
    """Drop a cached analysis whose document was collected."""
    if entry in _CACHE:
        _CACHE.remove(entry)
