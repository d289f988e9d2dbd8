#!/usr/bin/env python3
"""Render the app icon SVG into the PNG sizes desktops want, plus a Windows .ico and a macOS .icns.

Run it after editing resources/icons/pageindex-desktop.svg and commit the results:

    python packaging/render_icons.py            # QtSvg (PySide6-Essentials ships it), else rsvg-convert/inkscape
    python packaging/render_icons.py --backend rsvg

The .ico and .icns are written by hand (both are a small header around PNG images), so no Pillow or
iconutil is needed and the files come out the same on every platform.
"""

from __future__ import annotations

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICON_DIR = ROOT / "resources" / "icons"
SVG = ICON_DIR / "pageindex-desktop.svg"
STEM = "pageindex-desktop"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# OSType of each PNG element of an .icns, with its pixel size (the @2x types reuse larger renders).
ICNS_TYPES = (
    (b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256), (b"ic09", 512),
    (b"ic10", 1024), (b"ic11", 32), (b"ic12", 64), (b"ic13", 256), (b"ic14", 512),
)
BACKENDS = ("auto", "qt", "rsvg", "inkscape")


def qt_available() -> bool:
    """Whether PySide6's QtSvg module can be imported here."""
    try:
        from PySide6 import QtSvg  # noqa: F401
    except ImportError:
        return False
    return True


def render_qt(svg: Path, size: int) -> bytes:
    """Render `svg` to a `size`×`size` PNG with QtSvg (needs a Gui application; made offscreen if absent)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QRectF, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    if QCoreApplication.instance() is None:
        render_qt.app = QGuiApplication([sys.argv[0]])  # type: ignore[attr-defined]  # keep it alive
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"QtSvg cannot read {svg}")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError("Qt could not encode a PNG")
    buffer.close()
    return bytes(data.data())


def render_command(svg: Path, size: int, tool: str) -> bytes:
    """Render `svg` with rsvg-convert or inkscape (Debian packages librsvg2-bin / inkscape)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "icon.png"
        if tool == "rsvg":
            cmd = ["rsvg-convert", "-w", str(size), "-h", str(size), "-o", str(out), str(svg)]
        else:
            cmd = ["inkscape", "--export-type=png", f"--export-filename={out}",
                   f"--export-width={size}", f"--export-height={size}", str(svg)]
        subprocess.run(cmd, check=True, capture_output=True)
        return out.read_bytes()


def pick_backend(wanted: str) -> str:
    """Resolve 'auto' to the first renderer present: QtSvg, then rsvg-convert, then inkscape."""
    if wanted != "auto":
        return wanted
    if qt_available():
        return "qt"
    if shutil.which("rsvg-convert"):
        return "rsvg"
    if shutil.which("inkscape"):
        return "inkscape"
    raise SystemExit("no SVG renderer: install PySide6-Essentials, librsvg2-bin or inkscape")


def render(svg: Path, size: int, backend: str) -> bytes:
    """One PNG of the icon at `size` pixels with the chosen backend."""
    return render_qt(svg, size) if backend == "qt" else render_command(svg, size, backend)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (used to check every render)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def build_ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding the given PNG images (PNG entries are valid since Windows Vista)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
        blobs += blob
    return header + entries + blobs


def build_icns(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns holding PNG elements for every standard size and its @2x variant."""
    body = b""
    for ostype, size in ICNS_TYPES:
        blob = pngs[size]
        body += ostype + struct.pack(">I", len(blob) + 8) + blob
    return b"icns" + struct.pack(">I", len(body) + 8) + body


def render_all(svg: Path, out: Path, backend: str = "auto") -> list[Path]:
    """Write the PNG sizes, the .ico and the .icns for `svg` into `out`; returns the files written."""
    chosen = pick_backend(backend)
    out.mkdir(parents=True, exist_ok=True)
    needed = sorted(set(PNG_SIZES) | set(ICO_SIZES) | {size for _, size in ICNS_TYPES})
    pngs: dict[int, bytes] = {}
    for size in needed:
        data = render(svg, size, chosen)
        if png_size(data) != (size, size):
            raise RuntimeError(f"{chosen} rendered {png_size(data)} for {size}px")
        pngs[size] = data
    written = []
    for size in PNG_SIZES:
        path = out / f"{STEM}-{size}.png"
        path.write_bytes(pngs[size])
        written.append(path)
    for name, data in ((f"{STEM}.ico", build_ico({s: pngs[s] for s in ICO_SIZES})),
                       (f"{STEM}.icns", build_icns(pngs))):
        (out / name).write_bytes(data)
        written.append(out / name)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: render resources/icons/pageindex-desktop.svg (or --svg) into resources/icons (or --out)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg", type=Path, default=SVG)
    parser.add_argument("--out", type=Path, default=ICON_DIR)
    parser.add_argument("--backend", choices=BACKENDS, default="auto")
    args = parser.parse_args(argv)
    for path in render_all(args.svg, args.out, args.backend):
        print(f"{path}  {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
