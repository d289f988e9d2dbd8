"""Test libraries built straight through `Library.save_index` (no PDF parsing needed)."""

from __future__ import annotations

from pageindex_desktop.core.document import PageData
from pageindex_desktop.core.outline.tree import Node, Outline
from pageindex_desktop.core.library.store import Library, sha256_of


def add_document(library: Library, title: str, pages: list[str], nodes: list[Node], source: str = "layout") -> str:
    """Add a document with these page texts and this tree; returns its doc id."""
    raw = library.home / f"{title}.src"
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.write_bytes(("%PDF-fake " + title).encode())
    doc = library.add_file(raw, sha256_of(raw), title)
    data = [PageData(i + 1, str(i + 1), text, 612, 792) for i, text in enumerate(pages)]
    library.save_index(doc.doc_id, title=title, pages=data, outline=Outline(source, nodes))
    return doc.doc_id


def annual_report(library: Library) -> str:
    """A 30-page 'Annual Report 2023' whose page 12 states net income and page 20 risk factors."""
    pages = [f"Page {n} of the annual report. General discussion of operations and outlook." for n in range(1, 31)]
    pages[11] = (
        "Financial results\nNet income rose to $1,234 million in 2023, up 12.5% from 2022.\n"
        "Operating expenses were $610 million."
    )
    pages[19] = "Risk factors\nThe main risks are interest rates, credit losses and cyber attacks."
    nodes = [
        Node("0001", "Letter to shareholders", 1, 1, 10, True),
        Node("0002", "Financial results", 1, 11, 18, True, "", [
            Node("0003", "Income statement", 2, 11, 14, True),
            Node("0004", "Balance sheet", 2, 15, 18, True),
        ]),
        Node("0005", "Risk factors", 1, 19, 30, True),
    ]
    return add_document(library, "Annual Report 2023", pages, nodes)
