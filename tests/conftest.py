"""Shared fixtures: a throwaway library home, and the path of the shared corpus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh library folder, also exported as PAGEINDEX_DESKTOP_HOME for code that reads the environment."""
    folder = tmp_path / "library"
    monkeypatch.setenv("PAGEINDEX_DESKTOP_HOME", str(folder))
    return folder


def corpus_file(name: str) -> Path:
    """A file of ../shared/corpus; the test is skipped when the corpus is not beside the checkout."""
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus file {name} not available")
    return path
