"""Model settings dialog: presets, model list and Test connection against the fake server (on tasks), the key
in the keychain only (or a clear note when there is none), nothing secret in the file or the log."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Iterator

import keyring
import pytest
from memory_keyring import MemoryKeyring
from keyring.backends import fail

from pageindex_desktop.core.assistant.settings import KEYRING_SERVICE, ModelSettings, load_settings, save_settings, settings_path
from pageindex_desktop.ui.assistant import tasks
from pageindex_desktop.ui.assistant.settings_dialog import SettingsDialog
from pageindex_desktop.ui.qt import Qt
from pageindex_desktop.core.assistant.endpoint_modes import ToolSupport, remembered
from pageindex_desktop.core.assistant.llm import Endpoint
from tests.integration.fake_openai import FakeOpenAI, error, free_port, text, tool

TIMEOUT = 15_000
SECRET = "sk-test-very-secret-123"




@pytest.fixture(autouse=True)
def _tasks_finish() -> Iterator[None]:
    yield
    assert tasks.wait_all()


@pytest.fixture
def no_keychain() -> Iterator[None]:
    """keyring's own 'fail' backend, as on a system without a keychain (the shared MemoryKeyring would otherwise
    be found by keyring's backend discovery, since it subclasses KeyringBackend)."""
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


def open_dialog(home: Path, qtbot) -> SettingsDialog:  # type: ignore[no-untyped-def]
    dialog = SettingsDialog(home)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: not tasks.running(), timeout=TIMEOUT)
    return dialog


def test_model_list_and_test_connection_against_the_server(home: Path, fake: FakeOpenAI, qtbot) -> None:  # type: ignore[no-untyped-def]
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat"), home)
    dialog = open_dialog(home, qtbot)
    box = dialog.chat_model
    qtbot.waitUntil(lambda: box.count() == 2, timeout=TIMEOUT)  # filled from GET /models when the dialog opened
    assert [box.itemText(i) for i in range(2)] == ["fake-chat", "fake-index"] and box.currentText() == "fake-chat"
    fake.script(tool("get_current_page", {}))  # the probe of how the chat model takes tools
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    assert not dialog.test_button.isEnabled()  # the call runs on a task; the dialog stays live
    qtbot.waitUntil(lambda: dialog.test_button.isEnabled(), timeout=TIMEOUT)
    assert dialog.connection_result.text() == (f"Connected to {fake.url.split('//')[1].split('/')[0]}: it offers 2 models. "
                                    "fake-chat calls tools through the API.")
    assert "tools" in fake.chat_requests()[-1] and remembered(home, Endpoint(fake.url, "", "fake-chat")) == \
        ToolSupport("native", "native")
    box.setEditText("no-such-model")
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.test_button.isEnabled(), timeout=TIMEOUT)
    assert "does not list the chat model no-such-model" in dialog.connection_result.text()


def test_test_connection_failures_are_sentences(home: Path, fake: FakeOpenAI, qtbot) -> None:  # type: ignore[no-untyped-def]
    fake.has_model_list = False  # the test falls back to a one-token completion, which is refused
    fake.script(error(401, "Incorrect API key provided"))
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat"), home)
    dialog = open_dialog(home, qtbot)
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.test_button.isEnabled(), timeout=TIMEOUT)
    assert dialog.connection_result.text() == f"The endpoint {fake.url} refused the API key (401); check the key in Model settings."
    fake.script(text("pong"), error(400, "This model does not support tools"))
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.test_button.isEnabled(), timeout=TIMEOUT)
    assert dialog.connection_result.text() == ("Connected to " + fake.url.split("//")[1].split("/")[0] + ": the model fake-chat "
                                    "answered. fake-chat refuses the tools field, so the assistant describes its "
                                    "tools in the prompt.")
    assert remembered(home, Endpoint(fake.url, "", "fake-chat")) == ToolSupport("prompt", "refused")
    fake.script(text("pong"), error(500, "overloaded"))
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.test_button.isEnabled(), timeout=TIMEOUT)
    assert "How it takes tools is not known yet: The model server had an internal error" in dialog.connection_result.text()
    dialog.url.setText(f"http://127.0.0.1:{free_port()}/v1")
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.test_button.isEnabled(), timeout=TIMEOUT)
    assert dialog.connection_result.text().startswith("Could not reach the model at") and "running?" in dialog.connection_result.text()


def test_presets_fill_the_url_and_no_keychain_is_explained(home: Path, no_keychain: None, qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = open_dialog(home, qtbot)
    assert dialog.provider.currentText() == "OpenAI" and dialog.url.text() == "https://api.openai.com/v1"
    assert not dialog._worth_asking()  # no key anywhere: the dialog does not call OpenAI by itself
    assert not dialog.key.isEnabled() and "OPENAI_API_KEY" in dialog.key_note.text()  
    names = [dialog.provider.itemText(i) for i in range(dialog.provider.count())]
    assert names == ["OpenAI", "Azure OpenAI", "Ollama", "LM Studio", "Custom (OpenAI-compatible)"]
    dialog.provider.setCurrentIndex(names.index("Ollama"))
    assert dialog.url.text() == "http://localhost:11434/v1" and dialog.chat_model.currentText() == ""
    dialog.provider.setCurrentIndex(names.index("LM Studio"))
    assert dialog.url.text() == "http://localhost:1234/v1"
    dialog.url.setText("http://127.0.0.1:9/v1")
    dialog.provider.setCurrentIndex(names.index("Custom (OpenAI-compatible)"))
    assert dialog.url.text() == "http://127.0.0.1:9/v1"  # a URL the user typed is kept
    dialog.chat_model.setEditText("qwen2.5:7b")
    qtbot.waitUntil(lambda: not tasks.running(), timeout=TIMEOUT)
    with qtbot.waitSignal(dialog.accepted, timeout=TIMEOUT):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    assert load_settings(home) == ModelSettings(provider="custom", base_url="http://127.0.0.1:9/v1",
                                                chat_model="qwen2.5:7b")


def test_the_key_goes_to_the_keychain_never_the_file_or_log(home: Path, fake: FakeOpenAI, memory_keyring: MemoryKeyring,  # type: ignore[no-untyped-def]
                                                             qtbot, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="pageindex_desktop")
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat"), home)
    dialog = open_dialog(home, qtbot)
    assert dialog.key.isEnabled() and "keychain" in dialog.key_note.text()
    qtbot.keyClicks(dialog.key, SECRET)
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.test_button.isEnabled(), timeout=TIMEOUT)
    assert dialog.connection_result.text().startswith("Connected")
    with qtbot.waitSignal(dialog.accepted, timeout=TIMEOUT):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    assert memory_keyring.store == {(KEYRING_SERVICE, fake.url): SECRET}
    assert SECRET not in settings_path(home).read_text() and json.loads(settings_path(home).read_text())["model"]
    assert SECRET not in caplog.text
    again = open_dialog(home, qtbot)
    assert again.key.text() == "" and "stored in the keychain" in again.key.placeholderText()
    assert again.forget_button.isVisibleTo(again)
    qtbot.mouseClick(again.forget_button, Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(again.accepted, timeout=TIMEOUT):
        again.buttons.button(again.buttons.StandardButton.Save).click()
    assert memory_keyring.store == {}


def test_checks_and_limits_are_edited_and_saved(home: Path, fake: FakeOpenAI, qtbot) -> None:  # type: ignore[no-untyped-def]
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat"), home)
    dialog = open_dialog(home, qtbot)
    assert dialog.judge_box.isChecked()  # on by default
    assert dialog.turn_seconds.value() == 180 and dialog.max_turns.value() == 12
    qtbot.mouseClick(dialog.judge_box, Qt.MouseButton.LeftButton)
    for spin, value in ((dialog.turn_seconds, "600"), (dialog.max_turns, "20")):
        spin.selectAll()
        qtbot.keyClicks(spin, value)
    with qtbot.waitSignal(dialog.accepted, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Save), Qt.MouseButton.LeftButton)
    saved = load_settings(home)
    assert saved.judge_citations is False and saved.turn_seconds == 600 and saved.max_turns == 20
    assert saved.limits().turn_seconds == 600 and "600" in saved.limits().turn_message()


def test_ocr_languages_are_typed_saved_and_kept_by_a_later_save(home: Path, fake: FakeOpenAI, qtbot) -> None:  # type: ignore[no-untyped-def]
    save_settings(ModelSettings(provider="custom", base_url=fake.url, chat_model="fake-chat"), home)
    dialog = open_dialog(home, qtbot)
    box = dialog.findChild(type(dialog.ocr_languages), "ocrLanguagesEdit")
    assert box is dialog.ocr_languages and box.text() == "" and "eng" in box.placeholderText()
    qtbot.keyClicks(box, "deu, eng")
    with qtbot.waitSignal(dialog.accepted, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Save), Qt.MouseButton.LeftButton)
    assert load_settings(home).ocr_languages == "deu+eng"
    again = open_dialog(home, qtbot)
    assert again.ocr_languages.text() == "deu+eng"
    with qtbot.waitSignal(again.accepted, timeout=TIMEOUT):  # saved again untouched: the languages stay
        qtbot.mouseClick(again.buttons.button(again.buttons.StandardButton.Save), Qt.MouseButton.LeftButton)
    assert load_settings(home).ocr_languages == "deu+eng"
