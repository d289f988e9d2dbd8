"""Is this file a PDF at all? Read from its first bytes, before anything is copied or parsed.

A library copy is made only of files that can be PDFs: a 2 GB video renamed `.pdf` used to be copied whole into
`files/` before MuPDF said no, and the copy stayed. The check is the one MuPDF's open then starts from (a
`%PDF-` header within the first kilobyte, as the spec allows leading junk), so a file that passes here still
gets MuPDF's own verdict in the extraction child.
"""

from __future__ import annotations

from pathlib import Path

HEADER_WINDOW = 1024


def pdf_problem(path: Path) -> str | None:
    """One sentence saying why `path` cannot be a PDF, or None when it may be one."""
    try:
        with Path(path).open("rb") as handle:
            head = handle.read(HEADER_WINDOW)
    except OSError as exc:
        return f"The file cannot be read: {exc.strerror or exc}."
    if not head:
        return "The file is empty (0 bytes), so it is not a PDF."
    if b"%PDF-" not in head:
        return "The file is not a PDF (it does not start with a PDF header)."
    return None
