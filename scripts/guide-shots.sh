#!/usr/bin/env bash
# Regenerates the user guide's pictures (docs/guide/*.png): builds the app and the guide's UI
# suite, runs it offscreen with LIZARD_SCREENSHOT_DIR set, and replaces the pictures only when
# every step passed (a failed run leaves docs/guide as it was).
# Usage: scripts/guide-shots.sh [BUILD]
set -euo pipefail
BUILD=${1:-build}
SUITES=(tst_guideshots)
cd "$(dirname "$0")/.."

cmake -S . -B "$BUILD" -G Ninja ${CMAKE_FLAGS:-} >/dev/null
targets=(lizard-desktop lizard-local lizard-agent "${SUITES[@]}")
# The preview plugin exists only where QtWebEngine was found; the preview step needs it.
if cmake --build "$BUILD" --target help | grep -q '^lizard_preview:'; then
  targets+=(lizard_preview)
fi
cmake --build "$BUILD" --target "${targets[@]}"

shots=$(mktemp -d "${TMPDIR:-/tmp}/lizard-guide-shots-XXXXXX")
trap 'rm -rf "$shots"' EXIT
regex="^($(IFS='|'; echo "${SUITES[*]}"))\$"
LIZARD_SCREENSHOT_DIR=$shots QT_QPA_PLATFORM=offscreen QTWEBENGINE_DISABLE_SANDBOX=1 \
  ctest --test-dir "$BUILD" -R "$regex" --output-on-failure

mkdir -p docs/guide
rm -f docs/guide/*.png
cp "$shots"/*.png docs/guide/
echo "guide-shots: $(ls docs/guide/*.png | wc -l) pictures in docs/guide/"
ls -s --block-size=K docs/guide/*.png
