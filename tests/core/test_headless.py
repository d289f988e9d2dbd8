"""The engine must never import Qt: it runs in child processes, the CLI and headless tests."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "pageindex_desktop" / "core"
QT_IMPORT = re.compile(r"^\s*(from|import)\s+(PySide6|PyQt5|PyQt6|shiboken6|qtpy)\b", re.MULTILINE)


def test_no_core_module_imports_qt_in_its_source() -> None:
    offenders = [str(p) for p in CORE.rglob("*.py") if QT_IMPORT.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_importing_every_core_module_loads_no_qt() -> None:
    modules = sorted(
        "pageindex_desktop." + ".".join(p.relative_to(CORE.parent).with_suffix("").parts)
        for p in CORE.rglob("*.py")
        if p.name != "__init__.py"
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print([m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
