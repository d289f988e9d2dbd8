"""`python -m pageindex_desktop`: the window (guarded, so spawned child processes do not start a second one)."""

import sys

from pageindex_desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
