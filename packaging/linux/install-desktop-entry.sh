#!/usr/bin/env bash
# Register PageIndex Desktop with the Linux desktop for the current user: menu entry, icon, AppStream metainfo
# and "Open with PageIndex Desktop" for PDFs. Nothing outside $XDG_DATA_HOME (default ~/.local/share) changes.
#
#   install-desktop-entry.sh                    # Exec= points at the bundle this script sits in, else at the
#                                               # repository's dist/PageIndexDesktop, else at `pageindex-desktop`
#                                               # on PATH (a pip install)
#   install-desktop-entry.sh --bundle DIR       # Exec= DIR/pageindex-desktop
#   install-desktop-entry.sh --default-for-pdf  # also make it the default PDF application (xdg-mime)
#   install-desktop-entry.sh --uninstall        # remove what an install added
#   install-desktop-entry.sh --prefix DIR       # install under DIR instead of $XDG_DATA_HOME (packagers, tests)
set -euo pipefail

APP_ID="io.github.pageindex.PageIndexDesktop"
ICON_STEM="pageindex-desktop"
SIZES="16 24 32 48 64 128 256 512"

here="$(cd "$(dirname "$0")" && pwd)"
prefix="${XDG_DATA_HOME:-$HOME/.local/share}"
bundle=""
uninstall=0
make_default=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bundle) bundle="$(cd "$2" && pwd)"; shift 2 ;;
    --prefix) prefix="$2"; shift 2 ;;
    --uninstall) uninstall=1; shift ;;
    --default-for-pdf) make_default=1; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "install-desktop-entry.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

# Where the .desktop/metainfo and the icons are: inside a built bundle (linux/ and _internal/resources/icons) or
# beside this script in the repository (packaging/linux and resources/icons).
if [ -d "$here/../_internal/resources/icons" ]; then
  icons="$here/../_internal/resources/icons"
  [ -n "$bundle" ] || bundle="$(cd "$here/.." && pwd)"
elif [ -d "$here/../../resources/icons" ]; then
  icons="$here/../../resources/icons"
  if [ -z "$bundle" ] && [ -x "$here/../../dist/PageIndexDesktop/pageindex-desktop" ]; then
    bundle="$(cd "$here/../../dist/PageIndexDesktop" && pwd)"
  fi
else
  echo "install-desktop-entry.sh: cannot find the icons next to $here" >&2
  exit 1
fi

apps="$prefix/applications"
metainfo="$prefix/metainfo"
hicolor="$prefix/icons/hicolor"

refresh() {
  if command -v update-desktop-database >/dev/null; then update-desktop-database -q "$apps" || true; fi
  # -t: a per-user hicolor folder has no index.theme of its own.
  if command -v gtk-update-icon-cache >/dev/null; then gtk-update-icon-cache -q -t -f "$hicolor" || true; fi
}

if [ "$uninstall" = 1 ]; then
  rm -f "$apps/$APP_ID.desktop" "$metainfo/$APP_ID.metainfo.xml" "$hicolor/scalable/apps/$APP_ID.svg"
  for size in $SIZES; do rm -f "$hicolor/${size}x${size}/apps/$APP_ID.png"; done
  refresh
  echo "Removed PageIndex Desktop's desktop entry from $prefix"
  exit 0
fi

if [ -n "$bundle" ]; then
  [ -x "$bundle/pageindex-desktop" ] || { echo "install-desktop-entry.sh: no pageindex-desktop in $bundle" >&2; exit 1; }
  exec_cmd="$bundle/pageindex-desktop"
elif command -v pageindex-desktop >/dev/null; then
  exec_cmd="pageindex-desktop"
else
  echo "install-desktop-entry.sh: no bundle found and pageindex-desktop is not on PATH; pass --bundle DIR" >&2
  exit 1
fi
case "$exec_cmd" in
  *[[:space:]\"\'\`\$\\]*) echo "install-desktop-entry.sh: move the bundle to a path without spaces or quotes" >&2; exit 1 ;;
esac

mkdir -p "$apps" "$metainfo" "$hicolor/scalable/apps"
sed -e "s|^Exec=pageindex-desktop |Exec=$exec_cmd |" \
  "$here/$APP_ID.desktop" > "$apps/$APP_ID.desktop"
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$apps/$APP_ID.desktop"; fi
cp "$here/$APP_ID.metainfo.xml" "$metainfo/$APP_ID.metainfo.xml"
cp "$icons/$ICON_STEM.svg" "$hicolor/scalable/apps/$APP_ID.svg"
for size in $SIZES; do
  mkdir -p "$hicolor/${size}x${size}/apps"
  cp "$icons/$ICON_STEM-$size.png" "$hicolor/${size}x${size}/apps/$APP_ID.png"
done
refresh
if [ "$make_default" = 1 ]; then
  if command -v xdg-mime >/dev/null; then
    xdg-mime default "$APP_ID.desktop" application/pdf
  else
    echo "install-desktop-entry.sh: xdg-mime not found; PageIndex Desktop is offered under 'Open with' only" >&2
  fi
fi
echo "Installed PageIndex Desktop's desktop entry in $prefix (Exec=$exec_cmd)"
