"""Outline entries whose target is a named destination or an action resolve to their page (issue 11).

Each PDF is built with pymupdf and its outline items rewritten at the object level, one item per way a PDF can
say where an entry goes: a destination array, a name looked up in the catalog's /Names /Dests tree (flat, in
kids, as a << /D [...] >> value), a name in the PDF 1.1 /Dests dictionary, a /GoTo action carrying either, a
named action, a script whose /Next action is the jump. The same name-tree destinations are also tried in a file
whose catalog has a /Dests dictionary as well: MuPDF's own page column gives 0 for those, which dropped the entry
before.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.tree import walk
from tests.core.pdf_factory import body, heading, make_pdf

PAGES = 12
# title -> (key of the outline item, its value); {pN} is the xref of page N (1-based)
FORMS: dict[str, tuple[str, str]] = {
    "Name tree string": ("Dest", "(sec2)"),
    "Dests dictionary name": ("Dest", "/sec3"),
    "GoTo name tree string": ("A", "<< /S /GoTo /D (sec4) >>"),
    "GoTo Dests dictionary name": ("A", "<< /S /GoTo /D /sec5 >>"),
    "GoTo array": ("A", "<< /S /GoTo /D [{p6} 0 R /XYZ 0 700 0] >>"),
    "Destination array": ("Dest", "[{p7} 0 R /Fit]"),
    "Name tree dictionary value": ("Dest", "(sec8)"),
    "Name tree second kid": ("Dest", "(zsec9)"),
    "GoTo Dests dictionary string": ("A", "<< /S /GoTo /D (sec10) >>"),
    "Script then GoTo": ("A", "<< /S /JavaScript /JS (1;) /Next << /S /GoTo /D [{p11} 0 R /Fit] >> >>"),
    "Last page action": ("A", "<< /S /Named /N /LastPage >>"),
}
EXPECTED = {title: page for page, title in enumerate(FORMS, start=2)}
EXPECTED["Last page action"] = PAGES


# name -> (page, written as a << /D [...] >> dictionary rather than a bare array)
DESTINATIONS = {"sec10": (10, False), "sec2": (2, False), "sec3": (3, False), "sec4": (4, False),
                "sec5": (5, True), "sec8": (8, True), "zsec9": (9, False)}  # in name-tree (byte) order
DICTIONARY_NAMES = {"sec3", "sec5", "sec10"}  # the ones a /Dests dictionary carries when the file has one


def _retarget(path: Path, targets: dict[str, tuple[str, str]]) -> pymupdf.Document:
    """The PDF with each titled outline item's target rewritten ({pN}: page N's xref); the caller saves it."""
    doc = pymupdf.open(path)
    pages = {f"p{n + 1}": doc.page_xref(n) for n in range(doc.page_count)}
    for _level, title, _page, link in doc.get_toc(simple=False):
        if title in targets:
            key, value = targets[title]
            doc.xref_set_key(link["xref"], "Dest", "null")
            doc.xref_set_key(link["xref"], "A", "null")
            if key:
                doc.xref_set_key(link["xref"], key, value.format(**pages))
    return doc


def _destination(doc: pymupdf.Document, name: str) -> str:
    """`name`'s destination as a PDF object: its page's xref, fit to the window."""
    page, as_dictionary = DESTINATIONS[name]
    array = f"[{doc.page_xref(page - 1)} 0 R /Fit]"
    return f"<< /D {array} >>" if as_dictionary else array


def _write_destinations(doc: pymupdf.Document, with_dests_dictionary: bool) -> None:
    """A /Names /Dests tree split over two kids (as long documents write it), plus a PDF 1.1 /Dests dictionary
    holding some of the names when asked (MuPDF then looks string names up in the dictionary only)."""
    catalog = doc.pdf_catalog()
    in_tree = [n for n in DESTINATIONS if not (with_dests_dictionary and n in DICTIONARY_NAMES)]
    kids = []
    for half in (in_tree[: len(in_tree) // 2], in_tree[len(in_tree) // 2:]):
        xref = doc.get_new_xref()
        names = " ".join(f"({n}) {_destination(doc, n)}" for n in half)
        doc.update_object(xref, f"<< /Limits [({half[0]}) ({half[-1]})] /Names [{names}] >>")
        kids.append(f"{xref} 0 R")
    doc.xref_set_key(catalog, "Names", f"<< /Dests << /Kids [{' '.join(kids)}] >> >>")
    if with_dests_dictionary:
        entries = " ".join(f"/{n} {_destination(doc, n)}" for n in sorted(DICTIONARY_NAMES))
        doc.xref_set_key(catalog, "Dests", f"<< {entries} >>")


def _named_pdf(tmp_path: Path, with_dests_dictionary: bool) -> Path:
    """A 12-page document, "Chapter N" printed on page N, one outline entry per target form."""
    content = [[heading(f"Chapter {n}"), *body(8)] for n in range(1, PAGES + 1)]
    toc: list[list[int | str]] = [[1, "Opening", 1], *([1, title, 1] for title in FORMS)]
    doc = _retarget(make_pdf(tmp_path / "named.pdf", content, toc=toc), FORMS)
    _write_destinations(doc, with_dests_dictionary)
    out = tmp_path / "retargeted.pdf"
    doc.save(out)
    doc.close()
    return out


@pytest.mark.parametrize("with_dests_dictionary", [False, True])
def test_every_target_form_resolves_to_its_page(tmp_path: Path, with_dests_dictionary: bool) -> None:
    doc = extract(_named_pdf(tmp_path, with_dests_dictionary))
    assert {title: page for _level, title, page in doc.toc if title != "Opening"} == EXPECTED


@pytest.mark.parametrize("with_dests_dictionary", [False, True])
def test_the_bookmark_tree_keeps_every_resolved_entry(tmp_path: Path, with_dests_dictionary: bool) -> None:
    doc = extract(_named_pdf(tmp_path, with_dests_dictionary), use_bookmarks=True)
    outline = build_outline(doc)
    assert outline.source == "bookmarks"
    assert {node.title: node.start_page for node in walk(outline.nodes) if node.title in FORMS} == EXPECTED


OUTWARD_AND_EMPTY: dict[str, tuple[str, str]] = {
    "Web page": ("A", "<< /S /URI /URI (https://example.org/notes) >>"),
    "Other file": ("A", "<< /S /GoToR /F (other.pdf) /D [0 /Fit] >>"),
    "Program": ("A", "<< /S /Launch /F (viewer.exe) >>"),
    "Unknown name": ("Dest", "(nosuch)"),
    "Script": ("A", "<< /S /JavaScript /JS (this.pageNum = 3;) >>"),
    "Script then web page": ("A", "<< /S /JavaScript /JS (1;) /Next << /S /URI /URI (https://example.org) >> >>"),
    "Next page action": ("A", "<< /S /Named /N /NextPage >>"),
    "No target": ("", ""),
}


def test_targets_outside_the_document_are_told_from_ones_without_a_page(tmp_path: Path) -> None:
    content = [[heading(f"Chapter {n}"), *body(8)] for n in range(1, 6)]
    toc: list[list[int | str]] = [[1, "Chapter 1", 1], [2, "Chapter 2", 2],
                                  *([2, title, 2] for title in OUTWARD_AND_EMPTY), [1, "Chapter 5", 5]]
    doc = _retarget(make_pdf(tmp_path / "links.pdf", content, toc=toc), OUTWARD_AND_EMPTY)
    doc.save(tmp_path / "retargeted.pdf")
    doc.close()
    pages = {title: page for _level, title, page in extract(tmp_path / "retargeted.pdf").toc}
    assert [pages[t] for t in OUTWARD_AND_EMPTY] == [-1, -1, -1, 0, 0, -1, 0, 0]
    assert (pages["Chapter 1"], pages["Chapter 2"], pages["Chapter 5"]) == (1, 2, 5)


def test_a_jump_listed_after_other_actions_is_followed(tmp_path: Path) -> None:
    content = [[heading(f"Chapter {n}"), *body(8)] for n in range(1, 6)]
    toc: list[list[int | str]] = [[1, "Chapter 1", 1], [1, "Chapter 2", 1], [1, "Chapter 3", 3]]
    doc = _retarget(make_pdf(tmp_path / "chain.pdf", content, toc=toc), {})
    script, jump = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(script, "<< /S /JavaScript /JS (1;) >>")
    doc.update_object(jump, f"<< /S /GoTo /D [{doc.page_xref(1)} 0 R /Fit] >>")
    item = doc.get_toc(simple=False)[1][3]["xref"]
    doc.xref_set_key(item, "Dest", "null")
    # a layer switch, then an array of further actions: a script and the jump, both as indirect objects
    doc.xref_set_key(item, "A", f"<< /S /SetOCGState /State [] /Next [{script} 0 R {jump} 0 R] >>")
    doc.save(tmp_path / "chained.pdf")
    doc.close()
    assert [page for _level, _title, page in extract(tmp_path / "chained.pdf").toc] == [1, 2, 3]
