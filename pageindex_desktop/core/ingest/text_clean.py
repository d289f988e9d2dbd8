"""A text line as the app keeps it: readable Unicode, no control characters, single spaces."""

from __future__ import annotations

from pageindex_desktop.core.library.file_names import readable

# Control characters and U+FFFD (what MuPDF gives for glyphs of fonts without a Unicode map) carry nothing a
# reader or the model can use: they become spaces.
_CONTROL_TO_SPACE = {c: " " for c in [*range(0, 32), 127, 0xFFFD]}


def clean_text(text: str) -> str:
    """Control characters and unmapped glyphs to spaces, whitespace runs to one space, stripped."""
    if not text.isprintable() or "\ufffd" in text:  # surrogates are not printable: made U+FFFD, then spaces
        text = readable(text).translate(_CONTROL_TO_SPACE)
    return " ".join(text.split())
