"""The folders draw the architecture (ARCHITECTURE.md, "Rooms"): the engine never imports the window, and its
rooms depend on each other in one direction only:

    shared modules (core/*.py)  <-  outline  <-  library  <-  ingest, assistant

`ingest` and `assistant` both build on the library and never on each other. An import in a function body or
under TYPE_CHECKING counts like any other: a back edge is a back edge wherever it is written.
"""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "pageindex_desktop"
CORE = PACKAGE / "core"
IMPORT = re.compile(r"^\s*(?:from|import)\s+pageindex_desktop\.(\w+)(?:\.(\w+))?", re.MULTILINE)

ROOMS = ("outline", "library", "ingest", "assistant")
MAY_IMPORT = {
    "outline": set(),
    "library": {"outline"},
    "ingest": {"outline", "library"},
    "assistant": {"outline", "library"},
}


def room_of(path: Path) -> str:
    """'outline', 'library', 'ingest', 'assistant', or '' for the shared modules at core/'s top."""
    parts = path.relative_to(CORE).parts
    return parts[0] if len(parts) > 1 else ""


def imports(path: Path) -> list[tuple[str, str]]:
    """(top package, first name under it) of every `pageindex_desktop` import in the file."""
    return [(m.group(1), m.group(2) or "") for m in IMPORT.finditer(path.read_text(encoding="utf-8"))]


def test_every_core_module_lives_in_a_room_or_is_shared() -> None:
    rooms = {p.name for p in CORE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert rooms == set(ROOMS)


def test_the_engine_never_imports_the_window() -> None:
    offenders = [f"{p.relative_to(PACKAGE)} imports ui" for p in CORE.rglob("*.py")
                 if any(top == "ui" for top, _ in imports(p))]
    assert offenders == []


def test_rooms_depend_on_each_other_in_one_direction() -> None:
    offenders = []
    for path in CORE.rglob("*.py"):
        room = room_of(path)
        for top, name in imports(path):
            if top != "core" or name not in ROOMS or name == room:
                continue
            if room == "" or name not in MAY_IMPORT[room]:
                offenders.append(f"{path.relative_to(PACKAGE)} ({room or 'shared'}) imports core.{name}")
    assert offenders == []
