"""Which finished import may replace the document being read: nothing steals the page.

An analyst reading a 10-K who drops a folder of filings, or answers a password prompt for one of them, must
still be on their page afterwards (a folder import used to switch the viewer to its first file, and PageDown
went there). An import opens its document only when the user asked to open that file: a single dropped or
chosen file, `pageindex-desktop FILE`, a file handed over by the system, the bundled sample. Anything else
(a folder, several files, a CLI import seen by the window, a re-index, a password retry) shows its progress
on its library row and opens nothing, except into an empty window, where the first document ready is shown,
since there is no page to steal (decided when it is ready, not when it was queued).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pageindex_desktop.core.library.file_names import is_file


@dataclass(frozen=True)
class OpenPlan:
    """How one import job may open its document once it is ready."""

    open_when_done: bool  # the user asked for this file: open it
    open_if_empty: bool  # open it only if the window still shows no document then


def asked_to_open(given: Sequence[Path]) -> bool:
    """True when the user named exactly one file (not a folder): they asked to read it."""
    return len(given) == 1 and is_file(given[0])


def plan(given: Sequence[Path], files: Sequence[Path], explicit: bool | None) -> list[OpenPlan]:
    """One plan per file to import. `explicit` True opens the first file, False opens nothing, None decides by
    what was given (`asked_to_open`); every other file may still open into a window that shows nothing."""
    first = asked_to_open(given) if explicit is None else explicit
    return [OpenPlan(open_when_done=first and index == 0, open_if_empty=explicit is not False)
            for index in range(len(files))]
