"""Frozen entry point of the `pageindex-desktop` window executable (PyInstaller runs this file as __main__)."""

from __future__ import annotations

import multiprocessing
import sys

if __name__ == "__main__":
    # Extraction runs in 'spawn' child processes; in a frozen app each child re-runs this executable and
    # freeze_support() turns it into the worker instead of opening a second window.
    multiprocessing.freeze_support()
    from pageindex_desktop.app import main

    sys.exit(main())
