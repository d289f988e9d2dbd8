"""Logging set-up: one rotating file in the per-user log dir for the app and the CLI.

Never log document text or keys: modules log ids, counts and timings. As a safety net a filter masks anything
shaped like an API key or a bearer token before a record is written.
"""

from __future__ import annotations

import logging
import logging.handlers
import re
from pathlib import Path

from pageindex_desktop.config import log_dir

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


def setup_logging(level: int = logging.INFO, folder: Path | None = None) -> Path:
    """Send the root logger to a rotating file (idempotent); returns the log file's path."""
    folder = Path(folder) if folder is not None else log_dir()
    path = folder / LOG_NAME
    root = logging.getLogger()
    for existing in root.handlers:
        if getattr(existing, "_pageindex_log", None) == str(path):
            return path
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.handlers.RotatingFileHandler(
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
