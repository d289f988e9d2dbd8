"""The document formats the library takes, told apart by file name and checked from their first bytes.

A PDF is read as it is. The other formats MuPDF opens (EPUB, XPS, FB2, MOBI, CBZ, plain text) and Markdown are
laid out to pages once, in the extraction child, into a PDF kept beside the source copy (`files/<sha>.pdf`
beside `files/<sha>.epub`), so the viewer, search, citations and highlights read every document the same way.
No pymupdf here: the import's first step and the window use this module too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HEAD_BYTES = 4096
ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class Format:
    """One kind of document: its library suffix, the name a sentence uses, MuPDF's filetype and MIME types."""

    suffix: str  # the source copy's suffix in files/, without the dot
    label: str  # "an EPUB e-book": what the file is said to be (or not to be)
    filetype: str  # what pymupdf.open(filetype=...) takes; '' for Markdown (laid out by markdown_doc)
    mime_types: tuple[str, ...]
    names: tuple[str, ...]  # file name suffixes (lower case, without the dot)

    @property
    def is_pdf(self) -> bool:
        """Whether the file is read as it is (no layout step)."""
        return self.suffix == "pdf"


PDF = Format("pdf", "a PDF", "pdf", ("application/pdf",), ("pdf",))
EPUB = Format("epub", "an EPUB e-book", "epub", ("application/epub+zip",), ("epub",))
XPS = Format("xps", "an XPS document", "xps", ("application/oxps", "application/vnd.ms-xpsdocument"),
             ("xps", "oxps"))
FB2 = Format("fb2", "a FictionBook (FB2) e-book", "fb2", ("application/x-fictionbook+xml",), ("fb2",))
MOBI = Format("mobi", "a MOBI e-book", "mobi", ("application/x-mobipocket-ebook",), ("mobi",))
CBZ = Format("cbz", "a CBZ comic book", "cbz", ("application/vnd.comicbook+zip", "application/x-cbz"), ("cbz",))
TXT = Format("txt", "a plain text file", "txt", ("text/plain",), ("txt", "text"))
MARKDOWN = Format("md", "a Markdown file", "", ("text/markdown",), ("md", "markdown"))

FORMATS: tuple[Format, ...] = (PDF, EPUB, XPS, FB2, MOBI, CBZ, TXT, MARKDOWN)
_BY_NAME = {name: fmt for fmt in FORMATS for name in fmt.names}
_BY_SUFFIX = {fmt.suffix: fmt for fmt in FORMATS}


def format_of(file_name: str | Path) -> Format:
    """The format a file name says; any other name is taken for a PDF (a PDF saved without its suffix)."""
    return _BY_NAME.get(Path(file_name).suffix.lower().lstrip("."), PDF)


def by_suffix(suffix: str) -> Format | None:
    """The format whose library copy ends in `.suffix`, or None."""
    return _BY_SUFFIX.get(suffix)


def importable(path: Path) -> bool:
    """Whether a folder import picks this file up (its name is one of the formats')."""
    return path.suffix.lower().lstrip(".") in _BY_NAME


def dialog_filter() -> str:
    """The file dialog's filter: every format first, then each one, then all files."""
    every = " ".join(f"*.{n}" for f in FORMATS for n in f.names)
    each = ";;".join(f"{_title(f)} ({' '.join('*.' + n for n in f.names)})" for f in FORMATS)
    return f"Documents ({every});;{each};;All files (*)"


def _title(fmt: Format) -> str:
    """'EPUB e-book' from 'an EPUB e-book', capitalised for a filter name."""
    words = fmt.label.split(" ", 1)[1]
    return words[0].upper() + words[1:]


def problem(path: Path, fmt: Format | None = None) -> str | None:
    """One sentence saying why `path` cannot be a file of its format (by its name unless given), or None.

    Read from the first bytes only, before anything is copied: the check MuPDF then starts from (a PDF header,
    a zip archive, an XML document, a MOBI header, text that is UTF-8). MuPDF still gives its own verdict later.
    """
    fmt = fmt or format_of(path)
    try:
        with Path(path).open("rb") as handle:
            head = handle.read(HEAD_BYTES if not fmt.is_pdf else 1024)
    except OSError as exc:
        return f"The file cannot be read: {exc.strerror or exc}."
    if not head:
        return f"The file is empty (0 bytes), so it is not {fmt.label}."
    if fmt.is_pdf:
        return None if b"%PDF-" in head else "The file is not a PDF (it does not start with a PDF header)."
    if fmt in (EPUB, XPS, CBZ):
        return None if head.startswith(ZIP_MAGIC) else f"The file is not {fmt.label} (it is not a zip archive)."
    if fmt is MOBI:
        return None if head[60:68] in (b"BOOKMOBI", b"TEXtREAd") else (
            f"The file is not {fmt.label} (it has no MOBI header).")
    text = _text_head(head)
    if text is None:
        return f"The file is not {fmt.label} (it is not UTF-8 text)."
    if fmt is FB2 and not text.lstrip("\ufeff \t\r\n").startswith("<"):
        return f"The file is not {fmt.label} (it is not an XML document)."
    return None


def _text_head(head: bytes) -> str | None:
    """The first bytes as text, or None when they hold a NUL byte or are not UTF-8 (a character cut at the end
    of the window is allowed)."""
    if b"\x00" in head:
        return None
    for cut in range(4):
        try:
            return head[: len(head) - cut].decode("utf-8")
        except UnicodeDecodeError:
            continue
    return None
