"""Parts that used to take the whole window work on what they are handed: the file-open filter with no window at
all, and the status bar's model line from the two signals the window connects to it."""

from __future__ import annotations

from pathlib import Path

from pageindex_desktop.ui.assistant.model_status import ModelStatus
from pageindex_desktop.ui.file_open import accept_file_open_events
from pageindex_desktop.ui.qt import QApplication, QEvent, QObject


def test_the_file_open_filter_says_the_handed_over_file_and_takes_the_event(  # type: ignore[no-untyped-def]
        tmp_path: Path, qtbot) -> None:
    from PySide6.QtGui import QFileOpenEvent

    owner = QObject()  # no window: the filter only reads the application's events
    handler = accept_file_open_events(owner)
    try:
        given = tmp_path / "report.pdf"
        with qtbot.waitSignal(handler.filesOpened, timeout=5000) as said:
            assert QApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(given)))  # taken
        assert said.args == [[given]]
        assert handler.eventFilter(owner, QEvent(QEvent.Type.User)) is False  # other events pass on
    finally:
        QApplication.instance().removeEventFilter(handler)


def test_the_model_line_remembers_the_model_and_adds_up_tokens(qtbot) -> None:  # type: ignore[no-untyped-def]
    status = ModelStatus()
    qtbot.addWidget(status)
    assert status.text() == "" and status.objectName() == "modelStatus"
    status.show_model("")
    assert status.text() == "No model"
    status.show_model("qwen at localhost:11434")
    status.add_tokens(1200, 34)
    status.add_tokens(10, 0)
    assert status.text() == "Model: qwen at localhost:11434 · 1,244 tokens used"
    status.show_model("gpt at api.openai.com")  # a new model keeps the window's count
    assert status.text() == "Model: gpt at api.openai.com · 1,244 tokens used"
