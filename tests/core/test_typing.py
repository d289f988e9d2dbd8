"""The whole package is fully typed (style.md: mypy with disallow_untyped_defs is the bar): engine, CLI and window."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_whole_package_passes_mypy() -> None:
    pytest.importorskip("mypy", reason="mypy comes with the test extra")
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
