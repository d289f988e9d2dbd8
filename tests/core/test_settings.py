"""Model settings: presets, env overrides, and the API key kept out of the settings file."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from memory_keyring import MemoryKeyring

from pageindex_desktop.core.assistant import settings as s


def test_round_trip_and_the_key_goes_to_the_keychain_not_the_file(home: Path, memory_keyring: MemoryKeyring) -> None:
    chosen = s.ModelSettings(provider="ollama", chat_model="qwen2.5:7b", index_model="llama3.2:3b")
    assert s.set_api_key(chosen, "sk-very-secret") is True
    path = s.save_settings(chosen)
    assert path.parent == home and s.load_settings() == chosen
    assert "sk-very-secret" not in path.read_text()
    assert memory_keyring.store == {(s.KEYRING_SERVICE, "http://localhost:11434/v1"): "sk-very-secret"}
    endpoint = s.chat_endpoint()
    assert endpoint is not None and endpoint.base_url == "http://localhost:11434/v1" and endpoint.model == "qwen2.5:7b"
    assert endpoint.api_key == "sk-very-secret" and "sk-very-secret" not in repr(endpoint)
    assert s.index_endpoint().model == "llama3.2:3b"  # type: ignore[union-attr]
    s.set_api_key(chosen, "")
    assert memory_keyring.store == {}


def test_env_overrides_and_openai_needs_a_key(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert s.chat_endpoint() is None  # OpenAI preset, no key anywhere (and no keychain on this machine)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    endpoint = s.chat_endpoint()
    assert endpoint is not None and endpoint.base_url == "https://api.openai.com/v1" and endpoint.api_key == "sk-env"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("PAGEINDEX_CHAT_MODEL", "local-model")
    endpoint = s.chat_endpoint()
    assert endpoint is not None and (endpoint.base_url, endpoint.model) == ("http://127.0.0.1:9/v1", "local-model")


def test_presets_cover_the_local_servers_and_a_broken_file_gives_defaults(home: Path) -> None:
    assert s.PRESETS["ollama"].base_url == "http://localhost:11434/v1"
    assert s.PRESETS["lmstudio"].base_url == "http://localhost:1234/v1"
    assert {"openai", "azure", "custom"} <= set(s.PRESETS)
    home.mkdir(parents=True, exist_ok=True)
    s.settings_path().write_text("{not json")
    assert s.load_settings() == s.ModelSettings()


def test_the_file_version_is_read_and_old_files_migrate(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    path = s.settings_path()
    wanted = s.ModelSettings(provider="ollama", chat_model="qwen2.5:7b")
    path.write_text('{"provider": "ollama", "chat_model": "qwen2.5:7b", "timeout": "soon"}')  # version 0, by hand
    assert s.load_settings() == wanted
    path.write_text('{"model": {"provider": "ollama", "chat_model": "qwen2.5:7b"}}')  # no version, nested
    assert s.load_settings() == wanted
    path.write_text('{"version": 1, "provider": "ollama", "chat_model": "qwen2.5:7b"}')  # v1 nests its fields
    assert s.load_settings() == s.ModelSettings()
    s.save_settings(s.load_settings())
    assert json.loads(path.read_text())["version"] == s.SETTINGS_VERSION == len(s.MIGRATIONS)


def test_a_file_from_a_newer_version_is_read_and_kept_for_it(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    path = s.settings_path()
    future = {"version": s.SETTINGS_VERSION + 1, "model": {"provider": "ollama", "chat_model": "a", "hue": 3},
              "window": {"x": 1}}
    path.write_text(json.dumps(future))
    loaded = s.load_settings()
    assert (loaded.provider, loaded.chat_model) == ("ollama", "a")
    s.save_settings(replace(loaded, chat_model="b"))
    saved = json.loads(path.read_text())
    assert saved["version"] == s.SETTINGS_VERSION + 1 and saved["window"] == {"x": 1}
    assert saved["model"]["hue"] == 3 and saved["model"]["chat_model"] == "b"
