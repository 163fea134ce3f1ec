#!/usr/bin/env bash
# Renders the app icon (resources/icons/lizard.svg) at the hicolor theme's usual sizes into
# resources/icons/hicolor/NxN/lizard-desktop.png. Run it after changing the SVG and commit the
# PNGs: the build and the package use them as they are (no SVG renderer needed to build).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v rsvg-convert >/dev/null || { echo "make-icons: needs rsvg-convert (apt-get install librsvg2-bin)" >&2; exit 1; }
for s in 16 22 24 32 48 64 128 256 512; do
  mkdir -p "resources/icons/hicolor/${s}x${s}"
  rsvg-convert -w "$s" -h "$s" resources/icons/lizard.svg -o "resources/icons/hicolor/${s}x${s}/lizard-desktop.png"
done
