"""Before Qt starts: is there a desktop to draw on, and can Qt's X11 plugin load? If not, say so in a sentence.

Qt answers both problems by aborting (SIGABRT and a core dump after "could not load the Qt platform plugin
xcb"), which tells a new user nothing. `problem()` looks first, without importing Qt: on Linux with
QT_QPA_PLATFORM unset, no DISPLAY and no WAYLAND_DISPLAY means no desktop session; when Qt would use xcb, the
system libraries its plugin links against (read from PySide6 6.x's libqxcb.so and libQt6XcbQpa.so) are looked
up with `ctypes.util.find_library`, and the missing ones are named with the Debian/Ubuntu packages that hold
them. Everything is a parameter so tests can ask about another platform or a machine without the libraries.
"""

from __future__ import annotations

import ctypes.util
import os
import sys
from collections.abc import Callable, Mapping

NO_DISPLAY = ("No display: PageIndex Desktop needs a desktop session "
              "(or set QT_QPA_PLATFORM=offscreen for a test run).")

# library name as find_library takes it -> the Debian/Ubuntu package that ships it; the first four are the ones
# a minimal desktop install usually lacks, so they lead the apt line
XCB_LIBRARIES: dict[str, str] = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
    "xkbcommon-x11": "libxkbcommon-x11-0",
    "xcb-image": "libxcb-image0",
    "xcb-render-util": "libxcb-render-util0",
    "xcb-shape": "libxcb-shape0",
    "xcb-xkb": "libxcb-xkb1",
    "xcb-randr": "libxcb-randr0",
    "xcb-util": "libxcb-util1",
    "xcb-sync": "libxcb-sync1",
    "xcb-xfixes": "libxcb-xfixes0",
    "xcb-shm": "libxcb-shm0",
    "xcb-render": "libxcb-render0",
    "xcb": "libxcb1",
    "X11-xcb": "libx11-xcb1",
    "X11": "libx11-6",
    "xkbcommon": "libxkbcommon0",
    "GL": "libgl1",
    "EGL": "libegl1",
    "fontconfig": "libfontconfig1",
    "glib-2.0": "libglib2.0-0",
}

Finder = Callable[[str], "str | None"]


def _find(name: str) -> str | None:
    return ctypes.util.find_library(name)  # looked up at call time, so a test can replace it


def uses_xcb(env: Mapping[str, str]) -> bool:
    """Whether Qt will pick its X11 plugin: asked for by name, or the default on an X11 session."""
    platform = env.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.split(":")[0] == "xcb"
    return bool(env.get("DISPLAY")) and not env.get("WAYLAND_DISPLAY")


def missing_packages(find: Finder = _find) -> list[str]:
    """The packages of the xcb plugin's libraries that the system does not have (none: an empty list)."""
    packages: list[str] = []
    for library, package in XCB_LIBRARIES.items():
        if find(library) is None and package not in packages:
            packages.append(package)
    return packages


def missing_libraries_sentence(packages: list[str]) -> str:
    """What to tell a user whose system lacks the libraries Qt's X11 plugin needs."""
    return ("Qt cannot open a window: system libraries for X11 are missing. Install them with: "
            f"sudo apt-get install {' '.join(packages)} (Debian/Ubuntu; other systems have packages of the same "
            "libraries).")


def problem(env: Mapping[str, str] | None = None, platform: str | None = None, find: Finder = _find) -> str | None:
    """The sentence to print instead of starting Qt, or None when Qt can start (or we cannot tell)."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return None
    if not env.get("QT_QPA_PLATFORM") and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return NO_DISPLAY
    if uses_xcb(env):
        packages = missing_packages(find)
        if packages:
            return missing_libraries_sentence(packages)
    return None
