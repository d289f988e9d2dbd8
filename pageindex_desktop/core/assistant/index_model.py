"""The index model's follow-up jobs (summaries, the finer tree) start the same way: find the index model in the
settings, take the document's lock so it cannot be removed, re-indexed or changed by another job meanwhile, and
run with one client whose connections close at the end. That start lives here once."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pageindex_desktop.core.assistant.llm import LLMClient
from pageindex_desktop.core.assistant.settings import ModelSettings, index_endpoint, load_settings
from pageindex_desktop.core.errors import DocumentBusy
from pageindex_desktop.core.library.import_lock import import_lock
from pageindex_desktop.core.library.store import Library

T = TypeVar("T")

BUSY = "This document is being imported, re-indexed or summarized by another process; {what} when that has finished."


def with_index_model(library: Library, doc_id: str, settings: ModelSettings | None, what: str,
                     work: Callable[[LLMClient], T]) -> T | None:
    """`work(client)` with the index model while holding the document's lock; None when no index model is set
    up. Another process holding the lock raises DocumentBusy, whose sentence ends with `what` to do later."""
    endpoint = index_endpoint(settings or load_settings(library.home), library.home)
    if endpoint is None:
        return None
    with import_lock(library.home, doc_id) as held:
        if not held:
            raise DocumentBusy(BUSY.format(what=what))
        with LLMClient(endpoint) as client:
            return work(client)
