"""Frozen entry point of the `pageindex-desktop-cli` executable (PyInstaller runs this file as __main__)."""

from __future__ import annotations

import multiprocessing
import sys

if __name__ == "__main__":
    # Imports spawn extraction workers; freeze_support() makes a re-run of this executable become that worker.
    multiprocessing.freeze_support()
    from pageindex_desktop.cli import main

    sys.exit(main())
