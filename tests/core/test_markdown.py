"""Markdown documents: laid out to a PDF beside the source, the tree exactly their headings, searchable."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.ingest.indexer import import_pdf
from pageindex_desktop.core.ingest.markdown_doc import lay_out, to_html
from pageindex_desktop.core.outline.tree import Node, walk
from pageindex_desktop.core.library.store import Library
from tests.core.test_bad_input import assert_clean_failure

FILLER = "The committee reviewed the harbour accounts line by line and agreed the figures. " * 30

NOTES = f"""# Harbour Board Minutes

Opening remarks by the chair.

## Finances

{FILLER}

| Item | Amount |
|------|--------|
| Dredging | 4,200 |
| Lighthouse lamps | 310 |

### Dredging contract

The dredging contract was renewed with Tidewater Works for two years.

{FILLER}

## Moorings

```
# not a heading: a comment inside a code block
moorings = 42
```

- north quay: eleven swing moorings
- south quay: nine pile moorings

{FILLER}

Any other business
------------------

The pelican census is due in spring.

# Appendix

#### Soundings

Depths at low water, in metres.
"""


def shape(nodes: list[Node]) -> list[tuple[int, str]]:
    """(level, title) of every node in reading order."""
    return [(n.level, n.title) for n in walk(nodes)]


def test_markdown_imports_with_its_headings_as_the_exact_tree(home: Path, tmp_path: Path) -> None:
    source = tmp_path / "minutes.md"
    source.write_text(NOTES, encoding="utf-8")
    with Library(home) as library:
        result = import_pdf(library, source)
        assert result.status == "ready", result.error
        assert result.outline_source == "markdown" and result.title == "Harbour Board Minutes"
        tree = library.tree(result.doc_id)
        # every heading, nothing else (the code block's '#' line is code); a skipped level nests one deeper
        assert shape(tree) == [(1, "Harbour Board Minutes"), (2, "Finances"), (3, "Dredging contract"),
                               (2, "Moorings"), (2, "Any other business"), (1, "Appendix"), (2, "Soundings")]
        assert result.page_count > 2
        sha = library.get(result.doc_id).sha256  # type: ignore[union-attr]
        assert sorted(p.name for p in (home / "files").iterdir()) == [f"{sha}.md", f"{sha}.pdf"]
        pages = {p.page: p.text for p in library.pages(result.doc_id)}
        for node in walk(tree):  # each heading is printed on its node's first page
            assert node.title in pages[node.start_page], node.title
            assert node.verified
        contract = next(n for n in walk(tree) if n.title == "Dredging contract")
        hits = library.search("Tidewater dredging renewed")
        assert hits and contract.start_page <= hits[0].page <= contract.end_page
        assert library.search("lighthouse lamps")  # table cells are text
        assert library.search("pile moorings")  # list items too
        shown = pymupdf.open(library.pdf_path(result.doc_id))
        assert shown.page_count == result.page_count


def test_markdown_without_headings_is_page_groups(home: Path, tmp_path: Path) -> None:
    source = tmp_path / "plain.md"
    source.write_text("Just a paragraph of notes, no headings at all.\n" * 5, encoding="utf-8")
    with Library(home) as library:
        result = import_pdf(library, source)
        assert result.status == "ready" and result.outline_source == "pages"


def test_empty_or_binary_markdown_fails_in_one_sentence(home: Path, tmp_path: Path) -> None:
    blank = tmp_path / "blank.md"
    blank.write_text("\n\n   \n", encoding="utf-8")
    binary = tmp_path / "binary.md"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00" * 20)
    with Library(home) as library:
        assert_clean_failure(home, import_pdf(library, blank), "no text")
        assert_clean_failure(home, import_pdf(library, binary), "not UTF-8")
    assert not [p for p in (home / "files").iterdir() if p.suffix in (".pdf", ".part")]


def test_html_is_escaped_and_images_become_their_alt_text() -> None:
    html, headings = to_html("# A <b>bold</b> & `code` title\n\n<script>x</script>\n\n![harbour map](map.png)\n")
    assert headings == [(1, "A <b>bold</b> & code title")]
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "[image: harbour map]" in html
    laid = lay_out("# Only\n\ntext")
    assert laid.headings[0][:3] == (1, "Only", 1) and laid.title == "Only"
