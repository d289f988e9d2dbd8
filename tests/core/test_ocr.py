"""OCR of pages without a text layer: a scanned PDF built here (text pages rendered to images) comes out
searchable with a tree from its printed headings, pages marked as OCR for the tools, only the scanned pages of a
mixed document read, and the PDF the viewer opens carries the recognised words as invisible text over the printed
ones (the imported file and the library's copy of it unchanged); without Tesseract the document imports and its
row says what to install."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from pageindex_desktop.core.ingest import ocr
from pageindex_desktop.core.assistant.chat_session import ChatSession
from pageindex_desktop.core.assistant.events import Finished
from pageindex_desktop.core.ingest.indexer import import_pdf, reindex
from pageindex_desktop.core.ingest.ocr_layer import add_words
from pageindex_desktop.core.outline.tree import walk
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.assistant.tools import ToolBox
from tests.integration.fake_openai import FakeOpenAI, text, tool

CHAPTERS = ("Harbour Finances", "Dredging Works", "Mooring Rules")
needs_tesseract = pytest.mark.skipif(ocr.find_engine() is None,
                                     reason="tesseract is not installed (Debian: apt-get install tesseract-ocr)")


def text_page(doc: pymupdf.Document, heading: str, body: str) -> None:
    """A page with a large heading and a few lines of body text, as a text layer."""
    page = doc.new_page(width=420, height=320)
    page.insert_text((36, 60), heading, fontsize=20)
    for line in range(4):
        page.insert_text((36, 100 + 18 * line), body, fontsize=11)


def report_source() -> pymupdf.Document:
    """The report as text pages: a title page, then one page per chapter (what `scanned_report` scans)."""
    source = pymupdf.open()
    text_page(source, "Harbour Board Report", "A summary of the year for the members of the board.")
    for number, title in enumerate(CHAPTERS, start=1):
        text_page(source, f"{number}. {title}", f"The board reviewed the {title.lower()} in the spring meeting.")
    return source


def scanned_report(path: Path, first_page_text: bool) -> Path:
    """Chapters rendered to 150 dpi greyscale images, one image-only page each; page 1 keeps its text layer
    when `first_page_text` (a mixed document)."""
    source = report_source()
    out = pymupdf.open()
    for index, page in enumerate(source):
        if index == 0 and first_page_text:
            out.insert_pdf(source, from_page=0, to_page=0)
            continue
        image = page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY)
        scan = out.new_page(width=page.rect.width, height=page.rect.height)
        scan.insert_image(scan.rect, stream=image.tobytes("png"))
    out.save(path)
    return path


@needs_tesseract
def test_a_mixed_document_gets_ocr_on_its_scanned_pages_only(home: Path, tmp_path: Path) -> None:
    pdf = scanned_report(tmp_path / "board-report.pdf", first_page_text=True)
    with Library(home) as library:
        result = import_pdf(library, pdf)
        assert result.status == "ready", result.error
        assert "3 of 4 pages had no text layer and were read by OCR" in result.warning
        assert library.ocr_pages(result.doc_id) == {2, 3, 4}  # page 1 keeps its own text layer
        assert library.get(result.doc_id).note == ""  # type: ignore[union-attr]
        hits = library.search("dredging works")
        assert hits and hits[0].page == 3
        titles = [n.title for n in walk(library.tree(result.doc_id))]
        for number, chapter in enumerate(CHAPTERS, start=1):  # the printed headings, read from the images
            assert f"{number}. {chapter}" in titles, titles
        box = ToolBox(library, [result.doc_id])
        envelope = json.loads(box.call("get_page_content", json.dumps({"doc": result.doc_id, "pages": "1,3"})))
        read = envelope["result"]
        sources = {p["page"]: p.get("text_source") for p in read["pages"]}
        assert sources == {1: None, 3: "ocr"}
        assert "Dredging Works" in next(p["text"] for p in read["pages"] if p["page"] == 3)
        assert any("OCR" in step for step in envelope["next_steps"]), envelope


@needs_tesseract
def test_the_assistant_cites_a_scanned_page_and_the_citation_is_checked(home: Path, tmp_path: Path) -> None:
    pdf = scanned_report(tmp_path / "board-report.pdf", first_page_text=False)
    with Library(home) as library, FakeOpenAI() as fake:
        result = import_pdf(library, pdf)
        assert result.status == "ready" and library.ocr_pages(result.doc_id) == {1, 2, 3, 4}
        claim = "The board reviewed the mooring rules in the spring meeting"
        fake.script(tool("get_page_content", {"doc": result.doc_id, "pages": "4"}),
                    text(f"{claim} [{result.title}, p. 4]."))
        client = LLMClient(Endpoint(fake.url, "k", "fake-chat", 5), RetryPolicy(attempts=1))
        session = ChatSession(library, [result.doc_id], client, judge=False, persist=False)
        done = list(session.ask("What did the board review in spring?"))[-1]
        assert isinstance(done, Finished)
        cite = done.citations[0]
        assert cite.page == 4 and cite.verified, done.citation_records()
        assert "mooring rules" in cite.passage.lower()


def overlap(a: pymupdf.Rect, b: pymupdf.Rect) -> float:
    """Intersection over union of two boxes."""
    inter = abs(pymupdf.Rect(a) & b)
    return inter / (abs(a) + abs(b) - inter) if inter else 0.0


def word_boxes(page: pymupdf.Page) -> dict[str, list[pymupdf.Rect]]:
    """Each word of the page's text (punctuation stripped) and where it is printed."""
    boxes: dict[str, list[pymupdf.Rect]] = {}
    for x0, y0, x1, y1, word, *_ in page.get_text("words"):
        boxes.setdefault(word.strip(".,"), []).append(pymupdf.Rect(x0, y0, x1, y1))
    return boxes


@needs_tesseract
def test_the_viewers_pdf_has_the_ocr_words_over_the_printed_ones_and_the_original_is_unchanged(
        home: Path, tmp_path: Path) -> None:
    pdf = scanned_report(tmp_path / "board-report.pdf", first_page_text=True)
    imported = pdf.read_bytes()
    with Library(home) as library:
        result = import_pdf(library, pdf)
        assert result.status == "ready", result.error
        shown, copy = library.pdf_path(result.doc_id), library.source_pdf(result.doc_id)
        assert shown != copy and shown.name.endswith(".ocr.pdf")
        assert copy.read_bytes() == imported and pdf.read_bytes() == imported  # only the viewer's copy has text
        assert not list((home / "files").glob("*.part")) and shown.stat().st_mode & 0o077 == 0  # whole, private
        source, scan, layered = report_source(), pymupdf.open(copy), pymupdf.open(shown)
        assert layered.page_count == scan.page_count == 4
        assert layered[0].get_text() == scan[0].get_text()  # the text page as it was
        for index in (1, 2, 3):
            assert scan[index].get_text().strip() == ""
            printed, read = word_boxes(source[index]), word_boxes(layered[index])
            words = [w for w in printed if len(w) > 3]
            assert sum(w in read for w in words) >= 0.9 * len(words), (words, sorted(read))
            for word in words:  # each recognised word lies over the same word printed on the page
                if word in read:
                    assert max(overlap(p, r) for p in printed[word] for r in read[word]) > 0.5, word
            image_xref = scan[index].get_images()[0][0]
            assert layered[index].get_images()[0][0] == image_xref  # the scan itself untouched
            assert layered.xref_stream_raw(image_xref) == scan.xref_stream_raw(image_xref)
        assert layered[2].search_for("dredging works")  # what the viewer's find and citation highlight use
        assert library.sweep_files() == []  # the copy with text is the document's, not litter
        again = reindex(library, result.doc_id)  # reads the copy as imported, so the pages are still OCR pages
        assert again.status == "ready" and library.ocr_pages(result.doc_id) == {2, 3, 4}
        assert copy.read_bytes() == imported and pymupdf.open(shown)[2].search_for("dredging works")
        library.remove(result.doc_id)
        assert list((home / "files").iterdir()) == []


@needs_tesseract
def test_the_copy_with_ocr_text_of_an_encrypted_scan_stays_encrypted(home: Path, tmp_path: Path) -> None:
    plain = scanned_report(tmp_path / "plain.pdf", first_page_text=False)
    locked = tmp_path / "locked.pdf"
    pymupdf.open(plain).save(locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="tide", owner_pw="harbour")
    with Library(home) as library:
        result = import_pdf(library, locked, password="tide")
        assert result.status == "ready", result.error
        shown = pymupdf.open(library.pdf_path(result.doc_id))
        assert library.pdf_path(result.doc_id).name.endswith(".ocr.pdf")
        assert shown.needs_pass and shown.authenticate("tide")  # the viewer still asks for the password
        assert shown[3].search_for("mooring rules")


def test_words_on_a_rotated_page_are_written_where_extraction_reads_them() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=320, height=420)
    page.set_rotation(90)  # shown 420 wide, 320 high
    words = [(60.0, 300.0, 80.0, 390.0, "Harbour"), (100.0, 40.0, 112.0, 150.0, "Ünïcode"),
             (130.0, 200.0, 142.0, 260.0, "Привет")]  # unrotated boxes of text running down the page
    assert add_words(page, words) == 3
    saved = pymupdf.open("pdf", doc.tobytes())
    read = saved[0].get_text("words")
    assert [w[4] for w in read] == ["Harbour", "Ünïcode", "Привет"]
    for want, got in zip(words, read):
        assert overlap(pymupdf.Rect(want[:4]), pymupdf.Rect(got[:4])) > 0.9, (want, got)
    pixmap = saved[0].get_pixmap()
    assert set(pixmap.samples) == {255}  # invisible: nothing is drawn


def test_without_tesseract_a_scan_imports_and_its_row_says_what_to_install(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "no-programs"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no tesseract to be found
    monkeypatch.delenv("TESSDATA_PREFIX", raising=False)
    assert ocr.find_engine() is None
    pdf = scanned_report(tmp_path / "scan.pdf", first_page_text=False)
    with Library(home) as library:
        result = import_pdf(library, pdf)
        assert result.status == "ready" and result.page_count == 4
        note = library.get(result.doc_id).note  # type: ignore[union-attr]
        assert note.startswith("No page has a text layer; install Tesseract OCR") and ocr.install_hint() in note
        assert "install Tesseract OCR" in result.warning
        assert library.ocr_pages(result.doc_id) == set()
        assert library.pdf_path(result.doc_id) == library.source_pdf(result.doc_id)  # no copy with text
        assert library.pdf_path(result.doc_id).read_bytes() == pdf.read_bytes()


def test_a_tesseract_that_lists_no_languages_counts_as_missing(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "tesseract"
    fake.write_text("#!/bin/sh\necho 'Error opening data file' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert ocr.find_engine() is None
    assert ocr.plan("").missing


def test_languages_come_from_the_setting_else_the_locale_and_only_installed_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engine = ocr.OcrEngine("tesseract", "/data", ("deu", "eng", "fra"))
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert ocr.locale_languages()[:2] == ["deu", "eng"]
    assert ocr.choose_languages("", engine) == "deu+eng"
    assert ocr.choose_languages("fra+eng", engine) == "fra+eng"
    assert ocr.choose_languages("fra, spa", engine) == "fra"  # Spanish data is not installed
    assert ocr.choose_languages("spa", engine) == "deu"  # nothing asked for is installed: the first that is


@needs_tesseract
def test_blank_pages_are_not_sent_to_tesseract(tmp_path: Path) -> None:
    """A page that paints nothing (an empty verso) has nothing to recognise: only the scanned page is read."""
    from pageindex_desktop.core.ingest.ocr_read import recognise
    from pageindex_desktop.core.ingest.pdf import extract

    path = scanned_report(tmp_path / "report.pdf", first_page_text=True)
    doc = pymupdf.open(path)
    doc.new_page(width=420, height=320)  # blank
    doc.delete_pages(from_page=2, to_page=3)  # the text page, one scan, the blank page
    doc.save(tmp_path / "with-blank.pdf")
    extracted = extract(tmp_path / "with-blank.pdf")
    assert [p.has_text for p in extracted.pages] == [True, False, False]
    plan = ocr.plan("eng")
    totals: list[int] = []
    pages, problem = recognise(tmp_path / "with-blank.pdf", None, extracted.pages,
                               {"languages": plan.languages, "tessdata": plan.tessdata},
                               progress=lambda done, total: totals.append(total))
    assert problem == ""
    assert totals == [1]
    assert [p.ocr for p in pages] == [False, True, False]
    assert "Harbour" in pages[1].text
