"""Documents other than PDFs in the window: dropped, imported, opened in the viewer with their own tree."""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.ui.main_window import MainWindow
from tests.core.ebook_factory import CHAPTERS, write_epub
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
