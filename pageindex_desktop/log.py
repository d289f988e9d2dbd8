"""Logging set-up: one rotating file in the per-user log dir for the app and the CLI.

Never log document text or keys: modules log ids, counts and timings. As a safety net a filter masks anything
shaped like an API key or a bearer token before a record is written.
"""

from __future__ import annotations

import io
import logging
import logging.handlers
import os
import re
from pathlib import Path

from pageindex_desktop.config import log_dir
from pageindex_desktop.core.library.privacy import PRIVATE_FILE, private_dir, private_file

LOG_NAME = "pageindex-desktop.log"
MAX_BYTES = 1_000_000
BACKUPS = 5
FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"
_SECRET = re.compile(r"\b(sk-[A-Za-z0-9_\-]{12,}|Bearer\s+[A-Za-z0-9_\-.=]{12,})")


class RedactSecrets(logging.Filter):
    """Replace API-key-shaped strings in a record's final message with '[redacted]'."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place; always keep it."""
        message = record.getMessage()
        cleaned = _SECRET.sub("[redacted]", message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log whose files only their owner can read (logs name documents and questions' timings)."""

    def _open(self) -> io.TextIOWrapper:
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PRIVATE_FILE)
        private_file(Path(self.baseFilename))  # a log made by an older version keeps its mode through O_CREAT
        return io.TextIOWrapper(io.FileIO(fd, "a"), encoding=self.encoding, errors=self.errors)


def setup_logging(level: int = logging.INFO, folder: Path | None = None) -> Path:
    """Send the root logger to a rotating file (idempotent); returns the log file's path."""
    folder = Path(folder) if folder is not None else log_dir()
    path = folder / LOG_NAME
    root = logging.getLogger()
    for existing in root.handlers:
        if getattr(existing, "_pageindex_log", None) == str(path):
            return path
    try:
        private_dir(folder)
        handler: logging.Handler = PrivateRotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
        )
    except OSError:
        handler = logging.NullHandler()  # a read-only home must not stop the app from working
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(RedactSecrets())
    handler._pageindex_log = str(path)  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    return path
