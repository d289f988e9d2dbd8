"""How often a PDF bookmark's title is found printed on the page it points at, in the corpus PDFs.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -s -m bench tests/bench/bench_heading_find.py`

A citation's section (core/assistant/citations/section.py) is decided inside a page by where each heading that
starts on it is printed; a heading that is not found is taken to open the page. This counts, over every
bookmark of the corpus PDFs (read one at a time, on this thread only), how often the title is found and how:
on a line of its own, at a line start or end, anywhere, or only once its numbering is dropped. The rest are bookmarks
named for the file's author ("Rev Disagg Table") or pointing at a page the heading is not printed on.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.assistant.citations.section import _pattern, heading_offset
from tests.conftest import CORPUS

FOUND_AT_LEAST = 0.75  # share of bookmark titles found on their page (80.4% measured when this was written)


def _how(title: str, text: str) -> str:
    if heading_offset(title, text) is None:
        return "not found"
    body = _pattern(title)
    for name, pattern, flags in (("own line", rf"(?m)^[ \t]*({body})[ \t]*$", re.I),
                                 ("line start", rf"(?m)^[ \t]*({body})", 0), ("line end", rf"(?m)({body})[ \t]*$", 0),
                                 ("anywhere", body, 0)):
        if re.search(pattern, text, flags):
            return name
    return "numbering dropped"


@pytest.mark.bench
def test_bookmark_titles_are_found_on_their_pages() -> None:
    tally: Counter[str] = Counter()
    for path in sorted(Path(CORPUS).glob("*.pdf")):
        try:
            doc = pymupdf.open(path)
        except (pymupdf.FileDataError, pymupdf.EmptyFileError, RuntimeError):
            continue
        with doc:
            if doc.needs_pass:
                continue
            mine: Counter[str] = Counter()
            for _, title, page in doc.get_toc():
                if 1 <= page <= doc.page_count and title.strip():
                    mine[_how(title, doc[page - 1].get_text())] += 1
        if mine:
            print(f"{path.name}: {dict(mine)}")
            tally += mine
    total = sum(tally.values())
    assert total, "no corpus PDF with bookmarks"
    found = total - tally["not found"]
    print(f"{total} bookmarks: {found} found ({found / total:.1%}); " +
          ", ".join(f"{k} {v}" for k, v in tally.most_common()))
    assert found / total >= FOUND_AT_LEAST
