#!/usr/bin/env bash
# Regenerates the user guide's pictures (docs/guide/*.png): builds the app and the UI suites
# that take them, runs each offscreen with LIZARD_SCREENSHOT_DIR set, and replaces the pictures
# only when every step passed, no two suites saved the same name and every picture that
# docs/guide.md shows was taken (otherwise docs/guide is left as it was).
# Usage: scripts/guide-shots.sh [BUILD]
set -euo pipefail
BUILD=${1:-build}
SUITES=(tst_guideshots tst_firstrun tst_notebookinteractive tst_variableexplorer tst_dataviewer tst_notebooksandbox
        tst_notebooknavui tst_logsview tst_processespanel tst_changespanel tst_templatesview tst_resourcespanel tst_schedulespanel tst_sandboxbulk tst_activitypanel tst_screenpanel tst_terminalpanel tst_hostproblemui)
cd "$(dirname "$0")/.."

cmake -S . -B "$BUILD" -G Ninja ${CMAKE_FLAGS:-} >/dev/null
# A suite's executable is its folder's bundle (tests/CMakeLists.txt): build those.
mapfile -t suite_targets < <(python3 scripts/suite-targets.py "$BUILD" "${SUITES[@]}")
targets=(lizard-desktop lizard-local lizard-agent "${suite_targets[@]}")
# The preview plugin exists only where QtWebEngine was found; the preview step needs it.
if cmake --build "$BUILD" --target help | grep -q '^lizard_preview:'; then
  targets+=(lizard_preview)
fi
cmake --build "$BUILD" --target "${targets[@]}"

shots=$(mktemp -d "${TMPDIR:-/tmp}/lizard-guide-shots-XXXXXX")
trap 'rm -rf "$shots"' EXIT
# Each suite into its own folder, so that a name two suites use cannot pass unnoticed.
for suite in "${SUITES[@]}"; do
  mkdir -p "$shots/$suite"
  LIZARD_SCREENSHOT_DIR=$shots/$suite QT_QPA_PLATFORM=offscreen QTWEBENGINE_DISABLE_SANDBOX=1 \
    ctest --test-dir "$BUILD" -R "^$suite\$" --output-on-failure
done
twice=$(cd "$shots" && ls -- */*.png | xargs -n1 basename | sort | uniq -d)
if [ -n "$twice" ]; then
  echo "guide-shots: more than one suite saved: $twice" >&2
  exit 1
fi
missing=
for used in $(grep -o 'guide/[A-Za-z0-9_-]*\.png' docs/guide.md | sort -u); do
  ls "$shots"/*/"${used#guide/}" >/dev/null 2>&1 || missing+=" ${used#guide/}"
done
if [ -n "$missing" ]; then
  echo "guide-shots: docs/guide.md shows pictures no suite took:$missing" >&2
  exit 1
fi

mkdir -p docs/guide
rm -f docs/guide/*.png
cp "$shots"/*/*.png docs/guide/
echo "guide-shots: $(ls docs/guide/*.png | wc -l) pictures in docs/guide/"
ls -s --block-size=K docs/guide/*.png
