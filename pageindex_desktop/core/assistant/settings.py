"""Model settings: provider presets, base URL, chat and index models, and where the API key lives.

The settings file (JSON, in the library home) never holds a secret: the key comes from the OS keychain
(keyring, service 'PageIndex Desktop') or from `OPENAI_API_KEY`. `OPENAI_BASE_URL` and `PAGEINDEX_CHAT_MODEL`
override the file, so scripts and the CLI can point anywhere without touching the user's settings.
The fields are declared once, in `ModelSettings`; the file says its `version`, which `load_settings` reads and
brings up to date through `MIGRATIONS` (one step per version).
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, replace
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any, Callable

from pageindex_desktop.config import library_home
from pageindex_desktop.core.assistant.limits import Limits
from pageindex_desktop.core.assistant.llm import Endpoint
from pageindex_desktop.core.library.privacy import write_private_atomic

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"
SETTINGS_VERSION = 1
KEYRING_SERVICE = "PageIndex Desktop"


@dataclass(frozen=True)
class Preset:
    """A provider the settings dialog offers, with its default URL and whether it needs a key."""

    name: str
    base_url: str
    needs_key: bool
    chat_model: str = ""
    index_model: str = ""


PRESETS: dict[str, Preset] = {
    "openai": Preset("OpenAI", "https://api.openai.com/v1", True, "gpt-4o-mini", "gpt-4o-mini"),
    "azure": Preset("Azure OpenAI", "https://YOUR-RESOURCE.openai.azure.com/openai/v1", True),
    "ollama": Preset("Ollama", "http://localhost:11434/v1", False),
    "lmstudio": Preset("LM Studio", "http://localhost:1234/v1", False),
    "custom": Preset("Custom (OpenAI-compatible)", "", False),
}


@dataclass(frozen=True)
class ModelSettings:
    """What the user chose in Model settings (no secret in here)."""

    provider: str = "openai"
    base_url: str = ""
    chat_model: str = ""
    index_model: str = ""
    timeout: float = 60.0
    judge_citations: bool = True  # after each answer, the chat model judges its citations (rules decide alone if off)
    max_turns: int = Limits.max_turns
    turn_seconds: float = Limits.turn_seconds
    question_seconds: float = Limits.question_seconds
    answer_tokens: int = Limits.answer_tokens
    question_tokens: int = Limits.question_tokens
    # Tesseract languages for pages without a text layer, joined by '+' ("deu+eng"); '' = from the OS locale
    # (core/ingest/ocr.py). Not a model setting, but kept in the one settings file the dialog writes.
    ocr_languages: str = ""

    def limits(self) -> Limits:
        """The bounds on one question, as chosen (core/assistant/limits.py)."""
        return Limits(self.max_turns, self.turn_seconds, self.question_seconds, self.answer_tokens,
                      self.question_tokens)

    def effective_base_url(self) -> str:
        """The URL in use: $OPENAI_BASE_URL, else the chosen URL, else the preset's."""
        env = os.environ.get("OPENAI_BASE_URL", "").strip()
        if env:
            return env
        if self.base_url:
            return self.base_url
        preset = PRESETS.get(self.provider)
        return preset.base_url if preset else ""

    def effective_chat_model(self) -> str:
        """The chat model in use: $PAGEINDEX_CHAT_MODEL, else the chosen one, else the preset's default."""
        env = os.environ.get("PAGEINDEX_CHAT_MODEL", "").strip()
        if env:
            return env
        preset = PRESETS.get(self.provider)
        return self.chat_model or (preset.chat_model if preset else "")

    def effective_index_model(self) -> str:
        """The model for summaries: the chosen index model, else the chat model."""
        preset = PRESETS.get(self.provider)
        return self.index_model or (preset.index_model if preset else "") or self.effective_chat_model()


def settings_path(home: Path | None = None) -> Path:
    """Where the settings file lives: the library home (so $PAGEINDEX_DESKTOP_HOME keeps tests contained)."""
    return library_home(home) / SETTINGS_FILE


def load_settings(home: Path | None = None) -> ModelSettings:
    """Read the settings file, brought up to SETTINGS_VERSION by `MIGRATIONS`; a missing or unreadable file gives
    the defaults, and a file a newer version wrote gives the fields this version knows."""
    data = _read_file(settings_path(home))
    model = data.get("model", {})
    defaults = ModelSettings()
    fields = {k: model[k] for k in (f.name for f in dataclass_fields(ModelSettings))
              if isinstance(model, dict) and k in model and _same_kind(model[k], getattr(defaults, k))}
    try:
        return replace(ModelSettings(), **fields)
    except TypeError:
        return ModelSettings()


def _unversioned(data: dict[str, Any]) -> dict[str, Any]:
    """0 → 1: a file without a version (written by hand) may hold the model settings at the top level."""
    if "model" in data:
        return data
    names = {f.name for f in dataclass_fields(ModelSettings)}
    return {"model": {k: v for k, v in data.items() if k in names}}


# Step N takes a file at version N to N + 1. Append-only, like the library's schema migrations; bump
# SETTINGS_VERSION with each new step.
MIGRATIONS: tuple[Callable[[dict[str, Any]], dict[str, Any]], ...] = (_unversioned,)
assert len(MIGRATIONS) == SETTINGS_VERSION


def file_version(data: dict[str, Any]) -> int:
    """The version a settings file says it has (0 when it says none or nonsense)."""
    version = data.get("version", 0)
    return version if isinstance(version, int) and not isinstance(version, bool) and version > 0 else 0


def _read_file(path: Path) -> dict[str, Any]:
    """The file's content at SETTINGS_VERSION (or at its own, newer one); {} when missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        log.warning("settings file %s is unreadable; using defaults", path)
        return {}
    if not isinstance(data, dict):
        log.warning("settings file %s holds no settings; using defaults", path)
        return {}
    version = file_version(data)
    if version > SETTINGS_VERSION:
        log.warning("settings file %s was written by a newer version (%d); reading what this one knows", path,
                    version)
    for step in MIGRATIONS[version:]:
        data = step(data)
    return data


def _same_kind(value: object, default: object) -> bool:
    """A stored value of the field's kind (a hand-edited file may hold "60" or null where a number belongs)."""
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, (int, float)):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
    return isinstance(value, type(default))


def save_settings(settings: ModelSettings, home: Path | None = None) -> Path:
    """Write the settings atomically (temp file + rename); the API key is never part of it. A file a newer
    version wrote keeps its version and the fields this one does not know, so that version still reads it."""
    path = settings_path(home)
    data: dict[str, Any] = {"version": SETTINGS_VERSION, "model": asdict(settings)}
    newer = _read_file(path)
    if file_version(newer) > SETTINGS_VERSION and isinstance(newer.get("model"), dict):
        data = {**newer, "model": {**newer["model"], **asdict(settings)}}
    write_private_atomic(path, json.dumps(data, indent=2))
    return path


def _keyring_user(base_url: str) -> str:
    return base_url.rstrip("/") or "default"


def get_api_key(settings: ModelSettings) -> str:
    """The API key: the keychain entry for this URL, else $OPENAI_API_KEY, else empty."""
    try:
        import keyring

        stored = keyring.get_password(KEYRING_SERVICE, _keyring_user(settings.effective_base_url()))
    except Exception:  # noqa: BLE001 - no usable keychain on this machine
        log.info("no keychain available; falling back to OPENAI_API_KEY")
        stored = None
    return stored or os.environ.get("OPENAI_API_KEY", "")


def set_api_key(settings: ModelSettings, key: str) -> bool:
    """Store (or with an empty key, delete) the key in the OS keychain; False when there is no keychain."""
    try:
        import keyring

        user = _keyring_user(settings.effective_base_url())
        if key:
            keyring.set_password(KEYRING_SERVICE, user, key)
        else:
            try:
                keyring.delete_password(KEYRING_SERVICE, user)
            except keyring.errors.PasswordDeleteError:
                pass
        return True
    except Exception:  # noqa: BLE001 - report "no keychain" to the caller instead of crashing
        log.warning("could not write the API key to the keychain")
        return False


def chat_endpoint(settings: ModelSettings | None = None, home: Path | None = None) -> Endpoint | None:
    """The endpoint for answering questions, or None when no model is configured."""
    settings = settings or load_settings(home)
    return _endpoint(settings, settings.effective_chat_model())


def index_endpoint(settings: ModelSettings | None = None, home: Path | None = None) -> Endpoint | None:
    """The endpoint for summaries during import, or None when no model is configured."""
    settings = settings or load_settings(home)
    return _endpoint(settings, settings.effective_index_model())


def _endpoint(settings: ModelSettings, model: str) -> Endpoint | None:
    url = settings.effective_base_url()
    key = get_api_key(settings)
    if not url or not model:
        return None
    preset = PRESETS.get(settings.provider)
    if preset is not None and preset.needs_key and not key and not os.environ.get("OPENAI_BASE_URL"):
        return None
    return Endpoint(base_url=url, api_key=key, model=model, timeout=settings.timeout)
