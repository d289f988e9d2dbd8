"""Extraction: page text, labels and lines from real PDFs, and a clear typed error for every kind of bad file."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest import pdf_helper
from pageindex_desktop.core.errors import PasswordRequired, PdfError
from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.ingest.pdf_pages import _text_of
from tests.conftest import corpus_file
from tests.core.pdf_factory import Text, body, heading, make_image_only_pdf, make_pdf


@pytest.fixture
def report(tmp_path: Path) -> Path:
    """Three pages: a title page with roman label, two chapters with bold headings; bookmarks and a title."""
    pages = [
        [heading("Annual Report", 24), Text("Prepared for the board")],
        [heading("1 Introduction"), *body(5)],
        [heading("2 Results"), *body(4), Text("The result is a well-know-"), Text("ledged fact of the year.")],
    ]
    labels = [
        {"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
        {"startpage": 1, "prefix": "", "style": "D", "firstpagenum": 1},
    ]
    toc: list[list[int | str]] = [[1, "1 Introduction", 2], [1, "2 Results", 3]]
    return make_pdf(tmp_path / "report.pdf", pages, toc=toc, labels=labels, title="Annual\n Report  2024")


def test_pages_text_labels_and_sizes(report: Path) -> None:
    doc = extract(report)
    assert doc.page_count == 3 and [p.number for p in doc.pages] == [1, 2, 3]
    assert [p.label for p in doc.pages] == ["i", "1", "2"]
    assert (doc.pages[0].width, doc.pages[0].height) == (595, 842)
    assert doc.pages[1].text.startswith("1 Introduction\n")
    assert "well-knowledged fact" in doc.pages[2].text  # hyphenation across a line break re-joined
    assert doc.metadata_title == "Annual Report 2024"
    assert doc.toc == [(1, "1 Introduction", 2), (1, "2 Results", 3)]
    assert doc.image_only_pages == []


def test_page_labels_written_as_hex_strings_read_as_text(tmp_path: Path) -> None:
    """hyperref writes every beamer slide's label as a prefix in a UTF-16 hex string ("/P<FEFF0031>" for "1",
    an appendix slide's "A-1" in PDFDocEncoding here); pymupdf hands those back undecoded, and the viewer
    showed "<FEFF0031>" as the page's number."""
    doc = pymupdf.open()
    for _ in range(3):
        doc.new_page(width=364, height=273).insert_text((40, 100), "A slide", fontsize=11)
    doc.xref_set_key(doc.pdf_catalog(), "PageLabels",
                     "<</Nums[0<</P<FEFF0031>>>1<</P<FEFF00310030>>>2<</P<412D31>>>]>>")
    path = tmp_path / "deck.pdf"
    doc.save(path)
    assert [p.label for p in extract(path).pages] == ["1", "10", "A-1"]


def test_lines_carry_size_weight_and_position(report: Path) -> None:
    page = extract(report).pages[1]
    first, second = page.lines[0], page.lines[1]
    assert (first.text, first.size, first.bold) == ("1 Introduction", 16.0, True)
    assert (second.size, second.bold) == (10.0, False)
    assert first.y0 < second.y0 and first.x0 == pytest.approx(72, abs=2)
    assert [line.text for line in page.lines] == page.text.replace("\n\n", "\n").split("\n")


def test_mixed_line_takes_the_dominant_span(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Bold", fontsize=9, fontname="hebo")
    page.insert_text((96, 100), "and a much longer regular tail", fontsize=11, fontname="helv")
    doc.save(str(tmp_path / "mixed.pdf"))
    line = extract(tmp_path / "mixed.pdf").pages[0].lines[0]
    assert line.text == "Bold and a much longer regular tail"
    assert (line.size, line.bold) == (11.0, False)


def test_rotated_page_lines_are_in_shown_orientation(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    page.insert_text((100, 400), "Landscape table title", fontsize=12, rotate=90)  # reads upright once turned
    page.set_rotation(90)
    doc.save(str(tmp_path / "rotated.pdf"))
    shown = extract(tmp_path / "rotated.pdf").pages[0]
    line = shown.lines[0]
    assert (shown.width, shown.height) == (800, 600)
    assert 0 <= line.x0 < line.x1 <= 800 and 0 <= line.y0 < line.y1 <= 600
    assert line.x1 - line.x0 > line.y1 - line.y0  # horizontal as the reader sees it


def test_unmapped_glyphs_are_dropped_from_text() -> None:
    doc = extract(corpus_file("pdfjs__TAMReview.pdf"))  # fonts without a Unicode map: MuPDF yields U+FFFD
    assert "The degree to which an individual believes" in doc.pages[5].text
    assert not any("\ufffd" in p.text or any("\ufffd" in ln.text for ln in p.lines) for p in doc.pages)


def test_fragmented_words_read_as_sentences() -> None:
    text = extract(corpus_file("four-lectures.pdf")).pages[3].text  # Type3 fonts: MuPDF gives a line per word
    assert "a function on trees it will" in text
    assert "function top illustrates this" in text  # hyphen re-joined across MuPDF's blocks


def test_block_joining_rules() -> None:
    block = lambda i, text: (0, 0, 1, 1, text, i, 0)  # noqa: E731 - MuPDF's block tuple
    words = block(0, "one\ntwo\nsix\nten\n")
    lines = block(1, "A long first line of a paragraph\nand its second line\n")
    split = [block(2, "a paragraph cut at a hyph-\n"), block(3, "enated word\n")]
    assert _text_of([words, lines, *split]) == (
        "one two six ten\n\nA long first line of a paragraph\nand its second line\n\n"
        "a paragraph cut at a hyphenated word"
    )
    assert _text_of([block(0, "\x01\ufffd\ufffd\n")]) == ""


def test_blocks_set_line_by_line_join_as_one_paragraph() -> None:
    first = (72, 100, 400, 110, "The first line of a paragraph set\n", 0, 0)
    second = (72, 116, 400, 126, "as one block per line by the typesetter.\n", 1, 0)
    after_a_gap = (72, 150, 400, 160, "A new paragraph after a gap.\n", 2, 0)
    other_column = (420, 162, 560, 172, "Beside, in another column.\n", 3, 0)
    assert _text_of([first, second, after_a_gap, other_column]) == (
        "The first line of a paragraph set\nas one block per line by the typesetter.\n\n"
        "A new paragraph after a gap.\n\nBeside, in another column."
    )


def test_progress_reaches_the_end(report: Path) -> None:
    seen: list[tuple[int, int]] = []
    extract(report, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (3, 3)


def test_two_workers_give_the_same_result(tmp_path: Path) -> None:
    pages = [[heading(f"Chapter {i}"), *body(8)] for i in range(1, 41)]
    path = make_pdf(tmp_path / "long.pdf", pages)
    seen: list[tuple[int, int]] = []
    split = extract(path, workers=2, progress=lambda d, t: seen.append((d, t)))
    assert split == extract(path, workers=1)
    assert seen[-1] == (40, 40)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_warm_helper_reads_part_of_a_long_document(tmp_path: Path) -> None:
    pages = [[heading(f"Chapter {i}"), *body(12)] for i in range(1, 121)]
    path = make_pdf(tmp_path / "long.pdf", pages)
    alone = extract(path, workers=1)
    assert pdf_helper.warm_up(1) == 1
    before = pdf_helper.pages_served()
    assert extract(path, workers=2) == alone
    assert pdf_helper.pages_served() > before
    assert extract(path, workers=2, password="unused") == alone  # a new key: the helper reopens the file


def test_automatic_mode_matches_one_process(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "auto.pdf", [[heading(f"Part {i}"), *body(12)] for i in range(1, 81)])
    assert extract(path) == extract(path, workers=1)  # whether or not a core was idle for a helper
    probe = pdf_helper.IdleProbe()
    deadline = time.monotonic() + 10
    while not probe.ready() and time.monotonic() < deadline:  # until its sampling window has passed
        time.sleep(0.005)
    assert probe.ready() and 0.0 <= probe.idle_cores() <= (os.cpu_count() or 1) + 0.01


def test_an_interrupted_split_leaves_the_helpers_clean(tmp_path: Path) -> None:
    first = make_pdf(tmp_path / "first.pdf", [[heading(f"First {i}"), *body(12)] for i in range(1, 121)])
    second = make_pdf(tmp_path / "second.pdf", [[heading(f"Second {i}"), *body(12)] for i in range(1, 121)])
    assert pdf_helper.warm_up(1) == 1

    def cancel(done: int, total: int) -> None:
        if done >= 20:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        extract(first, workers=2, progress=cancel)  # the helper is still reading a chunk of `first`
    served = pdf_helper.pages_served()
    assert served > 0
    assert pdf_helper.warm_up(1) == 1
    assert extract(second, workers=2) == extract(second, workers=1)
    assert pdf_helper.pages_served() > served


def test_image_only_pages_are_flagged(tmp_path: Path) -> None:
    doc = extract(make_image_only_pdf(tmp_path / "scan.pdf", 2))
    assert doc.image_only_pages == [1, 2]
    assert all(p.lines == [] and p.text == "" for p in doc.pages)


def test_zero_byte_file(tmp_path: Path) -> None:
    (tmp_path / "empty.pdf").write_bytes(b"")
    with pytest.raises(PdfError, match="empty"):
        extract(tmp_path / "empty.pdf")


def test_not_a_pdf(tmp_path: Path) -> None:
    (tmp_path / "notes.pdf").write_text("just some text, not a PDF\n" * 20)
    with pytest.raises(PdfError, match="not a PDF"):
        extract(tmp_path / "notes.pdf")


def test_garbage_after_a_pdf_header(tmp_path: Path) -> None:
    (tmp_path / "junk.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(4000) + b"\n%%EOF\n")
    with pytest.raises(PdfError, match="damaged"):
        extract(tmp_path / "junk.pdf")


@pytest.mark.parametrize("keep", [0.2, 0.5, 0.9])
def test_truncated_file(tmp_path: Path, keep: float) -> None:
    # long enough that MuPDF's repair finds the page tree and would otherwise return pages with lost text
    data = make_pdf(tmp_path / "long.pdf", [[heading(f"Part {i}"), *body(20)] for i in range(30)]).read_bytes()
    (tmp_path / "cut.pdf").write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(PdfError, match="truncated") as caught:
        extract(tmp_path / "cut.pdf")
    assert not isinstance(caught.value, PasswordRequired)


def test_small_truncated_file(tmp_path: Path, report: Path) -> None:
    data = report.read_bytes()
    (tmp_path / "cut.pdf").write_bytes(data[: len(data) // 2])
    with pytest.raises(PdfError, match="truncated"):
        extract(tmp_path / "cut.pdf")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PdfError, match="cannot be read"):
        extract(tmp_path / "nowhere.pdf")


def test_encrypted_needs_a_password(tmp_path: Path, report: Path) -> None:
    locked = tmp_path / "locked.pdf"
    with pymupdf.open(str(report)) as doc:
        doc.save(str(locked), encryption=getattr(pymupdf, "PDF_ENCRYPT_AES_256"), user_pw="s3cret", owner_pw="owner")
    with pytest.raises(PasswordRequired, match="needs a password"):
        extract(locked)
    with pytest.raises(PasswordRequired, match="password is wrong"):
        extract(locked, password="guess")
    assert extract(locked, password="s3cret").pages[1].lines[0].text == "1 Introduction"
    assert extract(locked, password="s3cret", workers=2).page_count == 3


def test_corpus_encrypted_file() -> None:
    path = corpus_file("pdfplumber__password-example.pdf")
    with pytest.raises(PasswordRequired):
        extract(path)
    assert extract(path, password="test").page_count == 4


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("pdfplumber__empty.pdf", "empty"),
        ("pdfjs__Pages-tree-refs.pdf", "page tree"),
        ("py-pdf__unreadablemetadata.pdf", "no readable pages"),
    ],
)
def test_corpus_broken_files(name: str, words: str) -> None:
    with pytest.raises(PdfError, match=words) as caught:
        extract(corpus_file(name))
    message = str(caught.value)
    assert message.endswith(".") and message.count(". ") == 0  # one sentence


def test_corpus_scanned_file_has_no_text_layer() -> None:
    doc = extract(corpus_file("docling__nemotron_multipage.pdf"))
    assert doc.page_count == 4 and doc.image_only_pages == [1, 2, 3, 4]


def test_corpus_outline_entry_without_page() -> None:
    doc = extract(corpus_file("pdfplumber__chelsea_pdta.pdf"))
    assert len(doc.toc) == 44
    assert sum(1 for _, _, page in doc.toc if page == 0) == 2  # no action at all: in the document, no page named
    assert all(page == 0 or 1 <= page <= doc.page_count for _, _, page in doc.toc)
