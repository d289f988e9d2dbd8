"""Documents other than PDFs in the window: dropped, imported, opened in the viewer with their own tree, and
cited by the assistant with the passage marked on the page."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pageindex_desktop.core.outline.tree import walk
from pageindex_desktop.ui.main_window import MainWindow
from tests.core.ebook_factory import CHAPTERS, write_epub
from tests.core.test_markdown import NOTES
from tests.integration.fake_openai import FakeOpenAI, text, tool
from tests.ui.test_assistant_pane import TIMEOUT, anchors, click_anchor, type_question, use_fake
from tests.ui.test_window import drop, wait_open


def outline_titles(window: MainWindow) -> list[str]:
    """The top-level rows of the outline as the reader sees them."""
    model = window.outline.model
    return [model.index(row, 0).data() for row in range(model.rowCount())]


def test_dropped_epub_opens_with_its_chapters_as_outline(window: MainWindow, tmp_path: Path,
                                                         qtbot) -> None:  # type: ignore[no-untyped-def]
    book = write_epub(tmp_path / "almanac.epub")
    assert drop(window, [book])
    doc_id = wait_open(qtbot, window)
    record = window.library.get(doc_id)
    assert record is not None and record.status == "ready" and record.title == "The Lighthouse Almanac"
    assert window.viewer.view.page_count() == record.page_count > 1
    assert outline_titles(window) == [name for name, _ in CHAPTERS]
    rows = window.library_panel.model.rows()
    assert [(r.doc_id, r.status) for r in rows] == [(doc_id, "ready")]


@pytest.mark.parametrize("kind", ["md", "epub"])
def test_a_citation_to_a_markdown_file_or_an_epub_opens_its_page_with_the_passage_marked(
        window: MainWindow, tmp_path: Path, fake: FakeOpenAI, kind: str, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: window.assistant.scope_bar.label.text() == "No document open", timeout=TIMEOUT)
    if kind == "md":
        path = tmp_path / "minutes.md"
        path.write_text(NOTES, encoding="utf-8")
        section, sentence = "Dredging contract", "The dredging contract was renewed with Tidewater Works for two years"
    else:
        path = write_epub(tmp_path / "almanac.epub")
        section, sentence = CHAPTERS[2][0], "Cormorants returned in spring and nested on the old pilings"
    assert drop(window, [path])
    doc_id = wait_open(qtbot, window)
    title = window.library.get(doc_id).title  # type: ignore[union-attr]
    node = next(n for n in walk(window.library.tree(doc_id)) if n.title == section)
    page = node.start_page
    assert sentence in window.library.pages(doc_id, [page])[0].text.replace("\n", " ")
    use_fake(window.home, fake)
    pane = window.assistant
    with qtbot.waitSignal(pane.modelChanged, timeout=TIMEOUT):
        pane.refresh_model()
    qtbot.waitUntil(lambda: title in pane.scope_bar.label.text(), timeout=TIMEOUT)
    fake.script(tool("get_page_content", {"doc": doc_id, "pages": str(page)}),
                text(f"{sentence} [{title}, p. {page}]."))
    type_question(qtbot, pane, "What does it say?")
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    link = next(a for a in anchors(pane) if a.href == "cite:0:0")
    assert "Checked" in link.tooltip, pane.browser.toPlainText()
    # laid out to the app's pages, the document is found by its headings: the link names the section
    assert link.text.replace("\xa0", " ") == f"{title} › {section}, p. {page}"
    view = window.viewer.view
    view.go_to_page(page + 1 if page < view.page_count() else 1)
    with qtbot.waitSignal(view.passageShown, timeout=TIMEOUT) as shown:  # on its first words: a long title wraps
        click_anchor(qtbot, pane, dataclasses.replace(link, text=link.text[:4]))
    assert shown.args[0] == page and shown.args[1] >= 1
    assert view.current_page() == page and window.current_doc == doc_id


def test_a_citation_naming_a_markdown_section_shows_it_and_opens_its_page(
        window: MainWindow, tmp_path: Path, fake: FakeOpenAI, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: window.assistant.scope_bar.label.text() == "No document open", timeout=TIMEOUT)
    path = tmp_path / "minutes.md"
    path.write_text(NOTES, encoding="utf-8")
    assert drop(window, [path])
    doc_id = wait_open(qtbot, window)
    title = window.library.get(doc_id).title  # type: ignore[union-attr]
    tree = window.library.tree(doc_id)
    other = next(n for n in walk(tree) if n.title == "Any other business")
    moorings = next(n for n in walk(tree) if n.title == "Moorings")
    page = other.start_page
    assert moorings.start_page < page  # the page opens in Moorings: the heading is not the page's first
    use_fake(window.home, fake)
    pane = window.assistant
    with qtbot.waitSignal(pane.modelChanged, timeout=TIMEOUT):
        pane.refresh_model()
    qtbot.waitUntil(lambda: title in pane.scope_bar.label.text(), timeout=TIMEOUT)
    fake.script(tool("get_page_content", {"doc": doc_id, "pages": f"{moorings.start_page}-{page}"}),
                text(f"The pelican census is due in spring [{title}, § Any other business]. "
                     f"The north quay has eleven swing moorings [{title}, p. {moorings.start_page}]."))
    type_question(qtbot, pane, "When is the census?")
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=TIMEOUT)
    links = {a.href: a for a in anchors(pane)}
    census, quay = links["cite:0:0"], links["cite:0:1"]
    assert census.text.replace("\xa0", " ") == f"{title} › Any other business, p. {page}"
    assert quay.text.replace("\xa0", " ") == f"{title} › Moorings, p. {moorings.start_page}"
    assert "Checked" in census.tooltip and "Section: " in census.tooltip and "Any other business" in census.tooltip
    view = window.viewer.view
    view.go_to_page(1)
    with qtbot.waitSignal(view.passageShown, timeout=TIMEOUT) as shown:
        click_anchor(qtbot, pane, dataclasses.replace(census, text=census.text[:4]))
    assert shown.args[0] == page and shown.args[1] >= 1
    assert view.current_page() == page and window.current_doc == doc_id
