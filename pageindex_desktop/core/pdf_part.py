"""Helper process for `pdf.extract(..., workers=N)`: extract one page range and write it, pickled, to stdout.

Usage: `python -m pageindex_desktop.core.pdf_part PATH START STOP` with the password (possibly empty) on stdin.
Exit status 0 on success; anything else tells the parent to read the range itself.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

from pageindex_desktop.core.pdf import extract_part


def main(argv: list[str]) -> int:
    """Run one range and write the pickled list of PageData to stdout."""
    path, start, stop = Path(argv[0]), int(argv[1]), int(argv[2])
    password = sys.stdin.read() or None
    pages = extract_part(path, password, start, stop)
    sys.stdout.buffer.write(pickle.dumps(pages, protocol=pickle.HIGHEST_PROTOCOL))
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
