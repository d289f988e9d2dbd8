"""Shared fixtures: a throwaway library home, and the path of the shared corpus."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Iterator

import keyring
import pytest
from memory_keyring import MemoryKeyring

from pageindex_desktop.core.assistant.llm import LLMClient
from pageindex_desktop.core.library.store import Library

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    """Every test gets an empty in-memory keychain and no model variables from the developer's shell, so no test
    can reach a real endpoint with a real key (imports call the index model when one is configured)."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PAGEINDEX_CHAT_MODEL"):
        monkeypatch.delenv(name, raising=False)
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def close_model_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[LLMClient]]:
    """Every model client a test makes is closed when the test ends. Tests build clients against the scripted
    server and drop them; their pooled keep-alive sockets were then closed by the garbage collector whenever it
    ran, and with warnings as errors that ResourceWarning failed whichever later test (or the session's end) it
    landed in, more often under load."""
    made: list[LLMClient] = []
    setup = LLMClient.__post_init__

    def recorded(client: LLMClient) -> None:
        setup(client)
        made.append(client)

    monkeypatch.setattr(LLMClient, "__post_init__", recorded)
    yield made
    for client in made:
        client.close()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh library folder, also exported as PAGEINDEX_DESKTOP_HOME for code that reads the environment."""
    folder = tmp_path / "library"
    monkeypatch.setenv("PAGEINDEX_DESKTOP_HOME", str(folder))
    return folder


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Library]:
    """An empty library in a temp folder, closed after the test."""
    lib = Library(tmp_path / "home")
    yield lib
    lib.close()


def corpus_file(name: str) -> Path:
    """A file of ../shared/corpus; the test is skipped when the corpus is not beside the checkout."""
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus file {name} not available")
    return path


def corpus_note(corpus: Path, skip_reasons: Iterable[str]) -> str | None:
    """The one line a run without the corpus ends with: how many real-PDF tests were skipped and why (else each
    skip shows only as a reason among many in the summary)."""
    if corpus.is_dir():
        return None
    count = sum(1 for reason in skip_reasons if "corpus" in reason.lower())
    if not count:
        return None
    return (f"{count} real-PDF test{'s were' if count != 1 else ' was'} skipped: the shared corpus of filings is "
            f"not beside this checkout ({corpus}); put it there to run them.")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print `corpus_note` once, at the end of the run."""
    reasons = [str(report.longrepr[2]) for report in terminalreporter.stats.get("skipped", [])
               if isinstance(report.longrepr, tuple) and len(report.longrepr) == 3]
    note = corpus_note(CORPUS, reasons)
    if note:
        terminalreporter.write_line(note)
