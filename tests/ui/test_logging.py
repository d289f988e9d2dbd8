"""The window's logging: one rotating file shared with the CLI, and API keys masked in the file and in Show Log."""

from __future__ import annotations

import logging
from pathlib import Path

from pageindex_desktop.app import setup_logging
from pageindex_desktop.ui.log_view import ring_buffer


def test_keys_are_masked_in_the_log_file_and_the_show_log_buffer(home: Path) -> None:
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        path = setup_logging()
        assert path == home / "logs" / "pageindex-desktop.log"
        logging.getLogger("pageindex_desktop.test").warning("endpoint said: bad key sk-abcdefghijklmnopqrstuv")
        for handler in root.handlers:
            handler.flush()
        assert "[redacted]" in ring_buffer().lines[-1] and "sk-abcdefghij" not in ring_buffer().lines[-1]
        written = path.read_text(encoding="utf-8")
        assert "[redacted]" in written and "sk-abcdefghij" not in written
    finally:
        for handler in [h for h in root.handlers if h not in before and h is not ring_buffer()]:  # it is a singleton
            root.removeHandler(handler)
            handler.close()
