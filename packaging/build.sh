#!/usr/bin/env bash
# Build the one-folder app dist/PageIndexDesktop/ (window app + CLI) with PyInstaller, then check that it starts.
#
#   packaging/build.sh                # use the current Python (PYTHON=..., default: python3); needs pyinstaller
#   packaging/build.sh --clean-venv   # make a fresh venv in build/venv, `pip install .[packaging]`, build from it
#   packaging/build.sh --no-check     # skip the start-up checks after the build
#
# Output: dist/PageIndexDesktop/ (and "dist/PageIndex Desktop.app" on macOS). On Windows run it from Git Bash,
# or run the pyinstaller line below by hand (see packaging/README.md).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
clean_venv=0
check=1
for arg in "$@"; do
  case "$arg" in
    --clean-venv) clean_venv=1 ;;
    --no-check) check=0 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

start=$(date +%s)
if [ "$clean_venv" = 1 ]; then
  rm -rf build/venv
  "$python" -m venv build/venv
  if [ -x build/venv/Scripts/python.exe ]; then python="build/venv/Scripts/python.exe"; else python="build/venv/bin/python"; fi
  "$python" -m pip install -q --upgrade pip
  "$python" -m pip install -q ".[packaging]"
fi
if ! "$python" -m PyInstaller --version >/dev/null 2>&1; then
  echo "build.sh: PyInstaller is not installed for $python; run: $python -m pip install '.[packaging]'" >&2
  exit 1
fi

"$python" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/pageindex-desktop.spec

bundle="dist/PageIndexDesktop"
# Linux desktop integration travels with the bundle: `linux/install-desktop-entry.sh` inside it registers the
# app, its icon and the PDF association for the current user.
if [ "$(uname -s)" = Linux ]; then
  mkdir -p "$bundle/linux"
  cp packaging/linux/io.github.pageindex.PageIndexDesktop.desktop \
     packaging/linux/io.github.pageindex.PageIndexDesktop.metainfo.xml \
     packaging/linux/install-desktop-entry.sh "$bundle/linux/"
  chmod +x "$bundle/linux/install-desktop-entry.sh"
fi
built=$(date +%s)
echo "build.sh: built $bundle in $((built - start)) s, $(du -sh "$bundle" | cut -f1)"

[ "$check" = 1 ] || exit 0
exe=""
case "$(uname -s)" in MINGW*|MSYS*|CYGWIN*) exe=".exe" ;; esac
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
check_home="$(mktemp -d)"
trap 'rm -rf "$check_home"' EXIT
export PAGEINDEX_DESKTOP_HOME="$check_home"

# Every Qt/PySide/MuPDF library in the bundle must find the others (a wrongly pruned Qt library shows up here).
# Other unresolved names are system libraries (xcb, EGL, ...) the target desktop provides: reported, not fatal.
if [ "$(uname -s)" = Linux ] && command -v ldd >/dev/null; then
  unresolved=$(find "$bundle" -name '*.so*' -type f -print0 \
               | xargs -0 -n 50 env LD_LIBRARY_PATH="$bundle/_internal" ldd 2>/dev/null | grep 'not found' | sort -u || true)
  if echo "$unresolved" | grep -q -E 'libQt6|pyside|shiboken|mupdf'; then
    echo "build.sh: bundled libraries that cannot be resolved:" >&2; echo "$unresolved" >&2; exit 1
  fi
  [ -z "$unresolved" ] || { echo "build.sh: system libraries missing on this machine (not bundled):"; echo "$unresolved"; }
fi

limited() {  # limited SECONDS CMD...: run CMD with a time limit where `timeout` exists (not on stock macOS)
  local seconds="$1"; shift
  if command -v timeout >/dev/null; then timeout "$seconds" "$@"; else "$@"; fi
}
limited 60 "$bundle/pageindex-desktop-cli$exe" --help >/dev/null
echo "build.sh: pageindex-desktop-cli --help ok"
# Until the app parses its arguments, --help opens the window instead: the time limit ends it.
if limited 30 "$bundle/pageindex-desktop$exe" --help 2>/dev/null | grep -q -- --smoke-test; then
  limited 180 "$bundle/pageindex-desktop$exe" --smoke-test
  echo "build.sh: pageindex-desktop --smoke-test ok"
else
  echo "build.sh: this app has no --smoke-test flag yet; skipped" >&2
fi
echo "build.sh: done in $(( $(date +%s) - start )) s"
