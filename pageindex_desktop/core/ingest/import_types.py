"""The events and results of an import (re-exported by core/ingest/indexer.py, where callers import them from)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

STAGES = ("queued", "extracting", "building", "saving", "done", "failed")
CANCELLED = "Import cancelled. Re-index to try again."


@dataclass(frozen=True)
class ImportProgress:
    """One progress event: stage (see STAGES), pages done of total, and a short message for a status bar."""

    doc_id: str
    stage: str
    done: int
    total: int
    message: str


@dataclass(frozen=True)
class ImportResult:
    """How one import ended; `error` is a sentence for the user when status is 'failed'.

    `warning` is set on success when something needs saying anyway (pages without a text layer, a re-index that
    did not finish and kept the previous index).
    """

    doc_id: str
    title: str
    page_count: int
    outline_source: str
    status: str
    error: str
    already_present: bool
    warning: str = ""

    def to_dict(self) -> dict[str, object]:
        """The JSON shape of `pageindex-desktop-cli import` (design §9), plus error/warning when set."""
        data: dict[str, object] = {
            "doc_id": self.doc_id,
            "title": self.title,
            "page_count": self.page_count,
            "outline_source": self.outline_source,
            "status": self.status,
        }
        if self.error:
            data["error"] = self.error
        if self.warning:
            data["warning"] = self.warning
        return data


ProgressCallback = Callable[[ImportProgress], None]


class CancelFlag(Protocol):
    """Anything with `is_set()`: a threading.Event, or several combined."""

    def is_set(self) -> bool:
        """True once the work should stop."""
        ...


class AnyOf:
    """A cancel flag that is set when any of its flags is (the caller's cancel, or a batch being torn down)."""

    def __init__(self, *flags: CancelFlag | None) -> None:
        self.flags = [f for f in flags if f is not None]

    def is_set(self) -> bool:
        """True when any flag is set."""
        return any(f.is_set() for f in self.flags)
