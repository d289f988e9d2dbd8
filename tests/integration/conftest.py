"""Fixtures for tests that talk to a model: the fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

from typing import Iterator

import pytest

from fake_openai import FakeOpenAI


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A running fake model server, stopped after the test."""
    with FakeOpenAI() as server:
        yield server
