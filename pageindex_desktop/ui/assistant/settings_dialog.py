"""Model settings: provider preset, base URL, API key (OS keychain only), chat and index models, Test connection.

Everything that can wait on the network or the keychain (model list, Test connection, reading and saving the
key) runs on a background task; the dialog stays responsive and shows each result as a sentence.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pageindex_desktop.config import library_home
from pageindex_desktop.core.ingest import ocr
from pageindex_desktop.core.assistant.endpoint_modes import ConnectionReport, connection_report
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.assistant.settings import PRESETS, ModelSettings, get_api_key, load_settings, save_settings, set_api_key
from pageindex_desktop.ui.assistant import tasks
from pageindex_desktop.ui.qt import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
)

log = logging.getLogger(__name__)

DIALOG_TIMEOUT_S = 10.0
NO_KEYCHAIN = ("No keychain is available on this system, so a key cannot be saved here. Set the OPENAI_API_KEY "
               "environment variable before starting the app instead (local servers such as Ollama and LM Studio "
               "need no key).")


@dataclass(frozen=True)
class KeyState:
    """What the dialog knows about keys: is there a keychain, a stored key for this URL, a key in the environment."""

    keychain: bool
    stored: bool
    env: bool


def keychain_available() -> bool:
    """True when keyring has a real backend (not the 'fail' one used when the system has no keychain)."""
    try:
        import keyring
        from keyring.backends import fail

        backend = keyring.get_keyring()
        return not isinstance(backend, fail.Keyring) and float(getattr(backend, "priority", 1)) > 0
    except Exception:  # noqa: BLE001 - a broken keyring install means no keychain
        return False


def probe_keys(settings: ModelSettings) -> KeyState:
    """Runs on a task: keychain presence and whether a key is stored for the settings' URL."""
    available = keychain_available()
    env = bool(os.environ.get("OPENAI_API_KEY"))
    stored = False
    if available:
        key = get_api_key(settings)
        stored = bool(key) and key != os.environ.get("OPENAI_API_KEY", "")
    return KeyState(available, stored, env)


def with_client(make: Callable[[], Endpoint], call: Callable[[LLMClient], Any]) -> Any:
    """Run one call on a fresh client (one attempt, no retries) and close its connections afterwards."""
    client = LLMClient(make(), RetryPolicy(attempts=1))
    try:
        return call(client)
    finally:
        client.client.close()


class SettingsDialog(QDialog):
    """Edits the model settings of one library home; `accepted` means they were saved."""

    def __init__(self, home: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle("Model Settings")
        self.home = library_home(home)
        self.original = load_settings(self.home)
        self.keys = KeyState(False, False, bool(os.environ.get("OPENAI_API_KEY")))
        self.forget_key = False
        self.models: list[str] = []
        self._build()
        self._load(self.original)
        self._probe()  # the model list is fetched once it is known whether there is a key

    # ---- layout ----------------------------------------------------------------------------------------

    def _build(self) -> None:
        self.provider = QComboBox(self)
        self.provider.setObjectName("providerBox")
        for key, preset in PRESETS.items():
            self.provider.addItem(preset.name, key)
        self.provider.currentIndexChanged.connect(self._provider_changed)
        self.url = QLineEdit(self)
        self.url.setObjectName("baseUrlEdit")
        self.url.setPlaceholderText("https://…/v1")
        self.url.editingFinished.connect(lambda: self.refresh_models(quiet=True))
        self.url_note = QLabel(self)
        self.url_note.setWordWrap(True)
        self.key = QLineEdit(self)
        self.key.setObjectName("apiKeyEdit")
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.show_key = QCheckBox("Show", self)
        self.show_key.toggled.connect(lambda on: self.key.setEchoMode(
            QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password))
        self.forget_button = QPushButton("Forget stored key", self)
        self.forget_button.setObjectName("forgetKeyButton")
        self.forget_button.clicked.connect(self._forget)
        self.forget_button.hide()
        key_row = QHBoxLayout()
        key_row.addWidget(self.key, 1)
        key_row.addWidget(self.show_key)
        key_row.addWidget(self.forget_button)
        self.key_note = QLabel(self)
        self.key_note.setObjectName("keyNote")
        self.key_note.setWordWrap(True)
        self.key_note.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.key_note.setMinimumWidth(440)  # word-wrapped labels in a form are sized for their minimum width
        self.chat_model = self._model_box("chatModelBox")
        self.index_model = self._model_box("indexModelBox")
        self.refresh_button = QPushButton("Refresh list", self)
        self.refresh_button.setToolTip("Ask the endpoint which models it offers")
        self.refresh_button.clicked.connect(lambda: self.refresh_models(quiet=False))
        chat_row = QHBoxLayout()
        chat_row.addWidget(self.chat_model, 1)
        chat_row.addWidget(self.refresh_button)
        self.test_button = QPushButton("Test connection", self)
        self.test_button.setObjectName("testConnectionButton")
        self.test_button.clicked.connect(self.test_connection)
        self.connection_result = QLabel("", self)
        self.connection_result.setObjectName("connectionResult")
        self.connection_result.setWordWrap(True)
        self.connection_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form = self.form = QFormLayout()
        form.addRow("Provider:", self.provider)
        form.addRow("Base URL:", self.url)
        form.addRow("", self.url_note)
        form.addRow("API key:", key_row)
        form.addRow("", self.key_note)
        form.addRow("Chat model:", chat_row)
        form.addRow("Index model:", self.index_model)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.connection_result, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(test_row)
        layout.addWidget(self._limits_box())
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(580)
        self.resize(600, 10)

    def _limits_box(self) -> QGroupBox:
        """Citation checking and the bounds on one question (a slow local model may need more time)."""
        box = QGroupBox("Checks and limits", self)
        box.setObjectName("limitsBox")
        self.judge_box = QCheckBox("Check citations with the chat model too (after each answer)", box)
        self.judge_box.setObjectName("judgeCitationsBox")
        self.judge_box.setToolTip("The app checks every citation by rules. With this on, the chat model also judges "
                                  "the citations the rules were unsure of; its verdict counts only with a quote "
                                  "from the cited passage.")
        self.turn_seconds = self._number_box("turnSecondsBox", 5, 3600, " s")
        self.question_seconds = self._number_box("questionSecondsBox", 10, 7200, " s")
        self.max_turns = self._number_box("maxTurnsBox", 1, 50, "")
        self.answer_tokens = self._number_box("answerTokensBox", 64, 32_000, " tokens")
        self.question_tokens = self._number_box("questionTokensBox", 1_000, 2_000_000, " tokens")
        self.ocr_languages = QLineEdit(box)
        self.ocr_languages.setObjectName("ocrLanguagesEdit")
        self.ocr_languages.setPlaceholderText("+".join(ocr.locale_languages()) + " (from the system language)")
        self.ocr_languages.setToolTip("Languages Tesseract reads scanned pages in, as its language names, several "
                                      "joined by '+' (deu+eng). Each needs its data installed (Debian: "
                                      "tesseract-ocr-deu). Empty: the system language, and English.")
        form = QFormLayout(box)
        form.addRow(self.judge_box)
        form.addRow("Time per step:", self.turn_seconds)
        form.addRow("Time per question:", self.question_seconds)
        form.addRow("Steps per question:", self.max_turns)
        form.addRow("Answer length:", self.answer_tokens)
        form.addRow("Tokens per question:", self.question_tokens)
        form.addRow("OCR languages:", self.ocr_languages)
        return box

    def _number_box(self, name: str, low: int, high: int, suffix: str) -> QSpinBox:
        spin = QSpinBox(self)
        spin.setObjectName(name)
        spin.setRange(low, high)
        spin.setSuffix(suffix)
        spin.setGroupSeparatorShown(True)
        return spin

    def _model_box(self, name: str) -> QComboBox:
        box = QComboBox(self)
        box.setObjectName(name)
        box.setEditable(True)
        box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        box.setMinimumContentsLength(18)
        return box

    def _load(self, settings: ModelSettings) -> None:
        self.provider.blockSignals(True)
        self.provider.setCurrentIndex(max(0, self.provider.findData(settings.provider)))
        self.provider.blockSignals(False)
        preset = PRESETS.get(settings.provider)
        self.url.setText(settings.base_url or (preset.base_url if preset else ""))
        self.chat_model.setEditText(settings.chat_model or (preset.chat_model if preset else ""))
        self.index_model.setEditText(settings.index_model or (preset.index_model if preset else ""))
        self.judge_box.setChecked(settings.judge_citations)
        self.turn_seconds.setValue(round(settings.turn_seconds))
        self.question_seconds.setValue(round(settings.question_seconds))
        self.max_turns.setValue(settings.max_turns)
        self.answer_tokens.setValue(settings.answer_tokens)
        self.question_tokens.setValue(settings.question_tokens)
        self.ocr_languages.setText(settings.ocr_languages)
        self._show_notes()

    # ---- state -----------------------------------------------------------------------------------------

    def current(self) -> ModelSettings:
        """The settings as the dialog shows them now (not saved)."""
        return ModelSettings(
            provider=str(self.provider.currentData()),
            base_url=self.url.text().strip(),
            chat_model=self.chat_model.currentText().strip(),
            index_model=self.index_model.currentText().strip(),
            timeout=self.original.timeout,
            judge_citations=self.judge_box.isChecked(),
            max_turns=self.max_turns.value(),
            turn_seconds=float(self.turn_seconds.value()),
            question_seconds=float(self.question_seconds.value()),
            answer_tokens=self.answer_tokens.value(),
            question_tokens=self.question_tokens.value(),
            ocr_languages="+".join(self.ocr_languages.text().replace(",", " ").replace("+", " ").split()),
        )

    def _provider_changed(self) -> None:
        preset = PRESETS[str(self.provider.currentData())]
        known_urls = {p.base_url for p in PRESETS.values()}
        if not self.url.text().strip() or self.url.text().strip() in known_urls:
            self.url.setText(preset.base_url)
        defaults = {p.chat_model for p in PRESETS.values()} | {""}
        if self.chat_model.currentText().strip() in defaults:
            self.chat_model.setEditText(preset.chat_model)
        if self.index_model.currentText().strip() in defaults:
            self.index_model.setEditText(preset.index_model)
        self._probe()

    def _show_notes(self) -> None:
        notes = []
        if os.environ.get("OPENAI_BASE_URL"):
            notes.append(f"OPENAI_BASE_URL is set ({os.environ['OPENAI_BASE_URL']}) and overrides this URL.")
        if os.environ.get("PAGEINDEX_CHAT_MODEL"):
            notes.append(f"PAGEINDEX_CHAT_MODEL is set ({os.environ['PAGEINDEX_CHAT_MODEL']}) and overrides the "
                         "chat model.")
        self.url_note.setText(" ".join(notes))
        self.form.setRowVisible(self.url_note, bool(notes))
        preset = PRESETS.get(str(self.provider.currentData()))
        needs = preset is not None and preset.needs_key
        if not self.keys.keychain:
            self.key.setEnabled(False)
            self.key.setPlaceholderText("no keychain on this system")
            text = NO_KEYCHAIN + (" OPENAI_API_KEY is set and will be used." if self.keys.env else "")
        else:
            self.key.setEnabled(True)
            if self.keys.stored and not self.forget_key:
                self.key.setPlaceholderText("a key is stored in the keychain (leave empty to keep it)")
                text = "The key is kept in the system keychain, never in a settings file."
            else:
                self.key.setPlaceholderText("sk-…" if needs else "not needed for most local servers")
                text = "A key typed here is saved to the system keychain, never to a settings file."
                if self.keys.env:
                    text += " Without one, OPENAI_API_KEY from the environment is used."
        self.forget_button.setVisible(self.keys.keychain and self.keys.stored and not self.forget_key)
        self.key_note.setText(text)
        self._fit_height()

    def _say(self, text: str) -> None:
        """Show a result sentence under the buttons."""
        self.connection_result.setText(text)
        self._fit_height()

    def _fit_height(self) -> None:
        """Grow to fit wrapped notes (a word-wrapped label's height depends on the width it gets)."""
        layout = self.layout()
        if layout is not None:
            layout.activate()
            needed = layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth() else -1
            self.resize(self.width(), max(self.height(), needed, self.sizeHint().height()))

    def _forget(self) -> None:
        self.forget_key = True
        self.key.clear()
        self._show_notes()

    def _probe(self) -> None:
        settings = self.current()
        tasks.run_task(lambda: probe_keys(settings), self._probed, lambda _t: self._show_notes(), self, "keyProbe")

    def _probed(self, state: KeyState) -> None:
        self.keys = state
        self._show_notes()
        self.refresh_models(quiet=True)

    def _worth_asking(self) -> bool:
        """Fetch the model list unprompted only where it can work: a real URL, and a key where one is needed."""
        url = self.current().effective_base_url()
        preset = PRESETS.get(str(self.provider.currentData()))
        if not url or "YOUR-RESOURCE" in url:
            return False
        has_key = bool(self.key.text().strip()) or self.keys.stored or self.keys.env
        return preset is None or not preset.needs_key or has_key

    def _endpoint_maker(self) -> Callable[[], Endpoint]:
        """A function (run on a task: the keychain may be slow) giving the endpoint the dialog shows now."""
        settings = self.current()
        typed = self.key.text().strip()
        forget = self.forget_key

        def make() -> Endpoint:
            key = typed or ("" if forget else get_api_key(settings))
            return Endpoint(settings.effective_base_url(), key, settings.effective_chat_model(), DIALOG_TIMEOUT_S)

        return make

    # ---- model list and Test connection ----------------------------------------------------------------

    def refresh_models(self, quiet: bool = False) -> None:
        """Fill the model boxes from the endpoint's list (on a task); `quiet` hides failures."""
        if not self.current().effective_base_url() or (quiet and not self._worth_asking()):
            return
        make = self._endpoint_maker()
        self.refresh_button.setEnabled(False)

        def listed(models: Any) -> None:
            self.refresh_button.setEnabled(True)
            self._fill_models(list(models))
            if not quiet:
                self._say(f"The endpoint offers {len(models)} model{'s' if len(models) != 1 else ''}.")

        def failed(text: str) -> None:
            self.refresh_button.setEnabled(True)
            if not quiet:
                self._say(text)

        tasks.run_task(lambda: with_client(make, LLMClient.list_models), listed, failed, self, "modelList")

    def _fill_models(self, models: list[str]) -> None:
        self.models = models
        for box in (self.chat_model, self.index_model):
            text = box.currentText()
            box.clear()
            box.addItems(models)
            box.setEditText(text or (models[0] if models else ""))

    def test_connection(self) -> None:
        """Reach the endpoint with what the dialog shows (on a task) and say what happened."""
        settings = self.current()
        url, model = settings.effective_base_url(), settings.effective_chat_model()
        if not url:
            self._say("Enter the endpoint's base URL first.")
            return
        make = self._endpoint_maker()
        self.test_button.setEnabled(False)
        self._say("Testing…")
        home = self.home
        tasks.run_task(lambda: with_client(make, lambda client: connection_report(client, home)),
                       lambda report: self._tested(url, model, report), self._test_failed, self, "testConnection")

    def _tested(self, url: str, model: str, report: ConnectionReport) -> None:
        self.test_button.setEnabled(True)
        host = url.split("://", 1)[-1].split("/", 1)[0]
        models = report.models
        if models:
            self._fill_models(models)
        count = f"{len(models)} model{'s' if len(models) != 1 else ''}"
        if models and model and model not in models:
            self._say(f"Connected to {host} ({count}), but it does not list the chat model "
                      f"{model}; pick one from the list.")
            return
        reached = f"Connected to {host}: it offers {count}." if models else \
            f"Connected to {host}: the model {model} answered."
        if report.tools is not None:
            self._say(f"{reached} {model} {report.tools.sentence()}.")
        else:
            self._say(f"{reached} How it takes tools is not known yet: {report.tools_unknown}")

    def _test_failed(self, text: str) -> None:
        self.test_button.setEnabled(True)
        self._say(text)

    # ---- save ------------------------------------------------------------------------------------------

    def save(self) -> None:
        """Write the settings file and (on a task) put the key in the keychain; closes when done."""
        settings = self.current()
        key = self.key.text().strip()
        forget = self.forget_key
        home = self.home
        self.buttons.setEnabled(False)

        def write() -> bool:
            save_settings(settings, home)
            if key or forget:
                return set_api_key(settings, key)
            return True

        def written(stored: Any) -> None:
            self.buttons.setEnabled(True)
            if not stored:
                self._say(NO_KEYCHAIN)
                return
            log.info("model settings saved (provider %s)", settings.provider)
            self.accept()

        def failed(text: str) -> None:
            self.buttons.setEnabled(True)
            self._say(f"The settings could not be saved: {text}")

        tasks.run_task(write, written, failed, self, "saveSettings")

    def done(self, result: int) -> None:
        tasks.detach(self)
        super().done(result)
