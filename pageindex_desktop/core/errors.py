"""Typed errors the engine raises; the UI and the CLI turn each one into a sentence for the user."""

from __future__ import annotations


class PageIndexError(Exception):
    """Base of every error the engine raises on purpose; its message is meant for the user."""


class PdfError(PageIndexError):
    """The file cannot be read as a PDF (corrupt, truncated, empty, not a PDF, no pages)."""


class PasswordRequired(PdfError):
    """The PDF is encrypted and needs a password (or the given one was wrong)."""


class ImportCancelled(PageIndexError):
    """The user cancelled an import; the library is left as it was."""


class DocumentNotFound(PageIndexError):
    """A document reference (id or title prefix) matches no document, or more than one."""


class DocumentBusy(PageIndexError):
    """Another process holds the document's lock (an import, re-index or summaries run): the action must wait."""


class LibraryTooNew(PageIndexError):
    """The library database was written by a newer version of the app (its schema is ahead of this one's): it is
    left untouched, and the message says to upgrade."""
