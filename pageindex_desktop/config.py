"""Per-user paths: where the library, the logs and the shipped resources live.

The folders come from `platformdirs`, the maintained fork of `appdirs` (unmaintained since 2020), at the same
places appdirs gave, so an existing library and its logs are found where they were.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "PageIndexDesktop"
APP_AUTHOR = "PageIndex"
HOME_ENV = "PAGEINDEX_DESKTOP_HOME"


def library_home(override: Path | None = None) -> Path:
    """The library folder: an explicit override, then $PAGEINDEX_DESKTOP_HOME, then the per-user data dir."""
    if override is not None:
        return Path(override)
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))


def log_dir() -> Path:
    """Rotating logs go here (inside the library home when it is overridden, so tests stay contained)."""
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser() / "logs"
    if sys.platform.startswith(("win", "darwin")):
        return Path(platformdirs.user_log_dir(APP_NAME, APP_AUTHOR))
    # appdirs put Unix logs under the cache folder; platformdirs' XDG state folder would strand the old logs
    return Path(platformdirs.user_cache_dir(APP_NAME, APP_AUTHOR)) / "log"


def resources_dir() -> Path:
    """The shipped `resources/` folder, in a source checkout or inside a PyInstaller bundle."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"
