"""Packaging files: the Linux desktop entry and metainfo validate, the icons have the promised sizes, the
PyInstaller spec ships resources and tokenizer data, and the desktop-entry installer works in a scratch prefix.

desktop-file-validate and appstreamcli run when installed (Debian: desktop-file-utils, appstream); the same
files are always parsed and checked for the keys that "Open with PageIndex Desktop" depends on.
"""

from __future__ import annotations

import ast
import configparser
import importlib.metadata
import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

import pageindex_desktop
from pageindex_desktop import config
from pageindex_desktop.core import formats

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGING = ROOT / "packaging"
LINUX = PACKAGING / "linux"
ICONS = ROOT / "resources" / "icons"
APP_ID = "io.github.pageindex.PageIndexDesktop"
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
SPEC = PACKAGING / "pageindex-desktop.spec"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def spec_literals() -> dict[str, object]:
    """The plain literal assignments of the spec (DATAS, HIDDEN_IMPORTS, ...), read without running PyInstaller."""
    values: dict[str, object] = {}
    for node in ast.parse(SPEC.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                values[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return values


def desktop_entry(path: Path = DESKTOP) -> configparser.SectionProxy:
    """The [Desktop Entry] group of a .desktop file, keys kept case-sensitive."""
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def png_header(path: Path) -> tuple[int, int, int]:
    """Width, height and colour type from a PNG's IHDR chunk."""
    data = path.read_bytes()[:26]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path.name} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height, data[25]


def load_render_icons() -> ModuleType:
    """packaging/render_icons.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("render_icons", PACKAGING / "render_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- .desktop ---------------------------------------------------------------------------------------------


def test_desktop_entry_opens_pdfs_with_the_app() -> None:
    entry = desktop_entry()
    literals = spec_literals()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "PageIndex Desktop"
    assert entry["Icon"] == APP_ID
    assert entry["Terminal"] == "false"
    program, *args = entry["Exec"].split()
    assert program == literals["GUI_NAME"] == "pageindex-desktop"
    assert args == ["%F"], "files from 'Open with' must reach the app as arguments"
    assert entry["MimeType"].endswith(";") and "application/pdf" in entry["MimeType"].split(";")
    declared = [m for fmt in formats.FORMATS for m in fmt.mime_types]  # every format the import takes
    assert entry["MimeType"].split(";")[:-1] == declared
    assert entry["Categories"].endswith(";") and "Office" in entry["Categories"].split(";")
    assert entry["StartupWMClass"] == literals["GUI_NAME"]


def test_desktop_file_validate() -> None:
    tool = shutil.which("desktop-file-validate")
    if tool is None:
        pytest.skip("desktop-file-validate not installed (Debian: desktop-file-utils)")
    result = subprocess.run([tool, str(DESKTOP)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "", result.stdout  # no warnings or hints either


# --- AppStream metainfo -----------------------------------------------------------------------------------


def test_metainfo_matches_desktop_entry_and_version() -> None:
    root = ET.parse(METAINFO).getroot()
    literals = spec_literals()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID == literals["APP_ID"]
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.findtext("project_license") == "AGPL-3.0-or-later"
    assert root.findtext("name") == desktop_entry()["Name"]
    assert (root.findtext("summary") or "").strip()
    assert len(root.findall("description/p")) >= 1
    launchable = root.find("launchable")
    assert launchable is not None and launchable.get("type") == "desktop-id" and launchable.text == DESKTOP.name
    assert [m.text for m in root.findall("provides/mediatype")] == desktop_entry()["MimeType"].split(";")[:-1]
    assert {b.text for b in root.findall("provides/binary")} == {literals["GUI_NAME"], literals["CLI_NAME"]}
    releases = root.findall("releases/release")
    assert releases and releases[0].get("version") == pageindex_desktop.__version__, "add a <release> per version"
    assert root.find("content_rating") is not None


def test_appstreamcli_validate() -> None:
    tool = shutil.which("appstreamcli")
    if tool is None:
        pytest.skip("appstreamcli not installed (Debian: appstream)")
    result = subprocess.run([tool, "validate", "--no-net", str(METAINFO)], capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    problems = [line for line in output.splitlines() if line.startswith(("E:", "W:"))]
    assert problems == [], output


# --- icons ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_icon_png_has_its_size(size: int) -> None:
    path = ICONS / f"pageindex-desktop-{size}.png"
    assert path.is_file(), f"run packaging/render_icons.py ({path.name} missing)"
    width, height, colour_type = png_header(path)
    assert (width, height) == (size, size)
    assert colour_type == 6, "icons need an alpha channel (RGBA)"


def test_icon_svg_is_square_and_self_contained() -> None:
    root = ET.parse(ICONS / "pageindex-desktop.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert width == height
    tags = {element.tag.split("}")[-1] for element in root.iter()}
    # No raster, filter or text: those render differently (or not at all) in QtSvg and icon themes.
    assert not tags & {"image", "filter", "text", "foreignObject", "script"}


def test_ico_and_icns_hold_every_size() -> None:
    ico = (ICONS / "pageindex-desktop.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1) and count == 7
    sizes = []
    for i in range(count):
        width, _, _, _, _, _, length, offset = struct.unpack("<BBBBHHII", ico[6 + 16 * i: 22 + 16 * i])
        blob = ico[offset: offset + length]
        assert blob[:8] == b"\x89PNG\r\n\x1a\n"
        sizes.append(width or 256)
        assert struct.unpack(">II", blob[16:24]) == (width or 256, width or 256)
    assert sizes == [16, 24, 32, 48, 64, 128, 256]

    icns = (ICONS / "pageindex-desktop.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    types, pos = [], 8
    while pos < len(icns):
        ostype, length = icns[pos: pos + 4], struct.unpack(">I", icns[pos + 4: pos + 8])[0]
        assert icns[pos + 8: pos + 16] == b"\x89PNG\r\n\x1a\n"
        types.append(ostype)
        pos += length
    assert pos == len(icns)
    assert {b"ic07", b"ic08", b"ic09", b"ic10", b"icp4", b"icp5"} <= set(types)


def test_render_icons_reproduces_the_committed_pngs(tmp_path: Path, qapp: object) -> None:
    # qapp: pytest-qt's QApplication, so render_icons does not make a bare QGuiApplication that later widget
    # tests would inherit.
    render_icons = load_render_icons()
    if not render_icons.qt_available():
        pytest.skip("PySide6 QtSvg not importable")
    written = render_icons.render_all(ICONS / "pageindex-desktop.svg", tmp_path, "qt")
    assert {p.name for p in written} >= {f"pageindex-desktop-{s}.png" for s in SIZES}
    from PySide6.QtGui import QImage

    for size in (16, 64, 256):
        fresh = QImage(str(tmp_path / f"pageindex-desktop-{size}.png"))
        committed = QImage(str(ICONS / f"pageindex-desktop-{size}.png"))
        assert (fresh.width(), fresh.height()) == (size, size)
        step = max(1, size // 64)
        diffs = [
            abs(fresh.pixelColor(x, y).alpha() - committed.pixelColor(x, y).alpha())
            + abs(fresh.pixelColor(x, y).lightness() - committed.pixelColor(x, y).lightness())
            for x in range(0, size, step)
            for y in range(0, size, step)
        ]
        # A stale PNG (SVG edited, icons not re-rendered) differs by far more than renderer rounding.
        assert sum(diffs) / len(diffs) < 2.0, f"{size}px icon is stale: run packaging/render_icons.py"


# --- PyInstaller spec -------------------------------------------------------------------------------------


def test_spec_ships_resources_where_config_looks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    datas = spec_literals()["DATAS"]
    assert isinstance(datas, list)
    for source, _ in datas:
        assert (ROOT / source).exists(), source
    # Where every shipped resource ends up inside the bundle.
    shipped: set[str] = set()
    for source, dest in datas:
        src = ROOT / source
        files = [p for p in src.rglob("*") if p.is_file()] if src.is_dir() else [src]
        base = src if src.is_dir() else src.parent
        shipped |= {(Path(dest) / p.relative_to(base)).as_posix() for p in files}
    for needed in ("resources/tokenizer/cl100k_base.tiktoken",
                   "resources/sample/regulation-best-interest-interpretive-release.pdf",
                   "resources/icons/pageindex-desktop.svg",
                   "resources/icons/pageindex-desktop-256.png",
                   "LICENSE"):
        assert needed in shipped, needed
    # The frozen app looks in sys._MEIPASS/resources: that is where the spec puts them.
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert config.resources_dir() == tmp_path / "resources"


def test_spec_hidden_imports_and_metadata_exist() -> None:
    literals = spec_literals()
    for name in literals["HIDDEN_IMPORTS"]:  # type: ignore[union-attr]
        assert importlib.util.find_spec(name) is not None, f"hidden import {name} does not exist"
    for dist in literals["METADATA"]:  # type: ignore[union-attr]
        importlib.metadata.distribution(dist)
    assert "tiktoken_ext.openai_public" in literals["HIDDEN_IMPORTS"]  # type: ignore[operator]
    assert any(str(n).startswith("keyring.backends.") for n in literals["HIDDEN_IMPORTS"])  # type: ignore[union-attr]


def test_spec_excludes_nothing_the_app_imports() -> None:
    excludes = set(spec_literals()["EXCLUDES"])  # type: ignore[arg-type]
    imported: set[str] = set()
    for path in (ROOT / "pageindex_desktop").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module)
                imported |= {f"{node.module}.{alias.name}" for alias in node.names}
    clash = {name for name in imported if any(name == ex or name.startswith(ex + ".") for ex in excludes)}
    assert clash == set(), f"the bundle excludes modules the app imports: {sorted(clash)}"


def test_spec_entry_points_match_pyproject() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    literals = spec_literals()
    assert project["gui-scripts"][literals["GUI_NAME"]] == "pageindex_desktop.app:main"
    assert project["scripts"][literals["CLI_NAME"]] == "pageindex_desktop.cli:main"
    assert "from pageindex_desktop.app import main" in (PACKAGING / "launch_gui.py").read_text(encoding="utf-8")
    assert "from pageindex_desktop.cli import main" in (PACKAGING / "launch_cli.py").read_text(encoding="utf-8")
    for launcher in ("launch_gui.py", "launch_cli.py"):
        assert "multiprocessing.freeze_support()" in (PACKAGING / launcher).read_text(encoding="utf-8")


# --- Linux desktop integration ----------------------------------------------------------------------------


def test_install_desktop_entry_installs_and_uninstalls(tmp_path: Path) -> None:
    bundle = tmp_path / "PageIndexDesktop"
    bundle.mkdir()
    (bundle / "pageindex-desktop").write_text("#!/bin/sh\nexit 0\n")
    (bundle / "pageindex-desktop").chmod(0o755)
    prefix = tmp_path / "root" / "usr" / "share"
    script = LINUX / "install-desktop-entry.sh"
    env = {**os.environ, "HOME": str(tmp_path)}
    result = subprocess.run(["bash", str(script), "--prefix", str(prefix), "--bundle", str(bundle)],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr

    installed = prefix / "applications" / DESKTOP.name
    entry = desktop_entry(installed)
    assert entry["Exec"] == f"{bundle}/pageindex-desktop %F"
    assert (prefix / "metainfo" / METAINFO.name).read_bytes() == METAINFO.read_bytes()
    assert (prefix / "icons/hicolor/scalable/apps" / f"{APP_ID}.svg").is_file()
    for size in SIZES:
        icon = prefix / f"icons/hicolor/{size}x{size}/apps/{APP_ID}.png"
        assert png_header(icon)[:2] == (size, size)
    if shutil.which("appstreamcli"):  # metainfo, desktop file and icons checked together, as a distro would
        tree = subprocess.run(["appstreamcli", "validate-tree", "--no-net", str(tmp_path / "root")],
                              capture_output=True, text=True, timeout=120)
        assert tree.returncode == 0, tree.stdout + tree.stderr
    if shutil.which("update-desktop-database"):
        cache = (prefix / "applications" / "mimeinfo.cache").read_text(encoding="utf-8")
        for mime in ("application/pdf", "application/epub+zip", "text/markdown"):
            assert f"{mime}={DESKTOP.name};" in cache

    result = subprocess.run(["bash", str(script), "--prefix", str(prefix), "--uninstall"],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not installed.exists()
    assert not any(prefix.rglob(f"{APP_ID}*")), "uninstall left files behind"
