#!/usr/bin/env bash
# Prints the benchmark figures: starts lizard-local from BUILD/bin on a temporary data directory
# and a free loopback port, runs lizard-bench (and lizard-bench-console when it was built), then
# stops the server and removes the directory. A MISS is a figure, not a failure; the script
# fails only when the server cannot start or a figure cannot be measured at all.
# Usage: scripts/bench.sh [BUILD] [extra lizard-bench options, e.g. --sse-mb 50]
# LIZARD_BENCH_QUICK=1 (CI: `LIZARD_BENCH_QUICK=1 make bench`) prints every figure from fewer
# runs, bytes and sandboxes (about three minutes alone): it keeps the command working, the
# figures are rough. LIZARD_BENCH_SKIP="lizard-bench …" leaves out the programs it names (CI: a
# suite already runs that one end to end).
set -euo pipefail
BUILD=${1:-build}
shift || true
coderun_args=()
if [[ ${LIZARD_BENCH_QUICK:-0} == 1 ]]; then
  coderun_args=(--complete-runs 10 --variables-runs 10 --create-runs 5 --chart-runs 2)
  set -- --create-runs 5 --exec-runs 20 --seconds 1 --connections 2 --sse-mb 20 --lifecycle-runs 1 --proxy-mb 20 --restart-runs 3 --changes-files 20000 --metrics-sandboxes 10 --metrics-seconds 5 "$@"
fi
BIN=$(realpath "$BUILD")/bin

for exe in lizard-local lizard-agent lizard-bench; do
  if [[ ! -x $BIN/$exe ]]; then
    echo "bench: $BIN/$exe is missing; build first (make build)" >&2
    exit 1
  fi
done

# shellcheck source=scripts/local-server.sh
. "$(dirname "$0")/local-server.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lizard-bench-XXXXXX")
mkdir -p "$tmp/data"
cleanup() {
  local_server_stop # leaves no sandbox behind, whatever the benchmarks did
  rm -rf "$tmp"
}
trap cleanup EXIT
log=$tmp/server.log
local_server_start bench "$BIN" "$tmp/data" "$log"

status=0
# timed COMMAND...: runs one benchmark program and prints how long it took (CI's budget), unless
# LIZARD_BENCH_SKIP (space-separated program names) names it.
timed() {
  # BENCH_NAME names a program run through a wrapper (xvfb-run).
  local start=$SECONDS rc=0 name=${BENCH_NAME:-$(basename "$1")}
  if [[ " ${LIZARD_BENCH_SKIP:-} " == *" $name "* ]]; then
    echo "bench: $name skipped (LIZARD_BENCH_SKIP)"
    return 0
  fi
  "$@" || rc=$?
  echo "bench: $name took $((SECONDS - start)) s"
  return "$rc"
}
# The restart figure restarts a lizard-local of its own (--local-bin), not this one.
timed "$BIN/lizard-bench" --url "$url" --key "$key" --local-bin "$BIN/lizard-local" --data-dir "$tmp/data" "$@" || status=$?
if [[ -x $BIN/lizard-bench-console ]]; then
  # The console figure renders a widget; without a display it renders offscreen.
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
  timed "$BIN/lizard-bench-console" --url "$url" --key "$key" || status=$?
else
  echo "console figure: $BIN/lizard-bench-console not built (desktop build)"
fi
# runCode: warm 1+1 through the app's client beside the official SDK's runCode; then Tab
# completion in the same warm kernel (median and p90 of 50, 10 when quick) beside that 1+1.
if [[ -x $BIN/lizard-bench-coderun ]]; then
  timed "$BIN/lizard-bench-coderun" --url "$url" --key "$key" "${coderun_args[@]}" || status=$?
else
  echo "runCode figure: $BIN/lizard-bench-coderun not built (desktop build)"
fi
# Notebook: a cell printing 100k lines, the longest event-loop stall.
if [[ -x $BIN/lizard-bench-notebook ]]; then
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
  timed "$BIN/lizard-bench-notebook" --url "$url" --key "$key" || status=$?
else
  echo "notebook figure: $BIN/lizard-bench-notebook not built (desktop build)"
fi
# The notebook under load: autosave's UI-thread stall on a 50 MB notebook (beside the old
# synchronous write) and the app's memory after a cell printed 1 GB (100 MB when quick).
if [[ -x $BIN/lizard-bench-appload ]]; then
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
  timed "$BIN/lizard-bench-appload" || status=$?
else
  echo "notebook load figures: $BIN/lizard-bench-appload not built (desktop build)"
fi
# Data viewer: the longest event-loop stall scrolling a 1,000,000-row DataFrame top to bottom.
if [[ -x $BIN/lizard-bench-dataview ]]; then
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
  dataview_args=()
  if [[ ${LIZARD_BENCH_QUICK:-0} == 1 ]]; then dataview_args=(--steps 40); fi
  timed "$BIN/lizard-bench-dataview" --url "$url" --key "$key" "${dataview_args[@]}" || status=$?
else
  echo "data viewer figure: $BIN/lizard-bench-dataview not built (desktop build)"
fi
# Files panel: a 10,000-entry folder in the tree.
if [[ -x $BIN/lizard-bench-files ]]; then
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
  timed "$BIN/lizard-bench-files" --url "$url" --key "$key" || status=$?
else
  echo "files figure: $BIN/lizard-bench-files not built (desktop build)"
fi
# Activity tab: following an agent that runs 50 execs a second for 10 s (stall, exec -> row lag).
if [[ -x $BIN/lizard-bench-activity ]]; then
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
  activity_args=()
  if [[ ${LIZARD_BENCH_QUICK:-0} == 1 ]]; then activity_args=(--seconds 2); fi
  timed "$BIN/lizard-bench-activity" --url "$url" --key "$key" "${activity_args[@]}" || status=$?
else
  echo "activity figure: $BIN/lizard-bench-activity not built (desktop build)"
fi
# Resources tab: the main window charting one of 20 sandboxes at work, their bars in the table
# (the longest stall beside the UI thread's own longest burst).
if [[ -x $BIN/lizard-bench-resources ]]; then
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
  resources_args=()
  if [[ ${LIZARD_BENCH_QUICK:-0} == 1 ]]; then resources_args=(--sandboxes 5 --seconds 3); fi
  timed "$BIN/lizard-bench-resources" --url "$url" --key "$key" "${resources_args[@]}" || status=$?
else
  echo "resources figure: $BIN/lizard-bench-resources not built (desktop build)"
fi
# Ports: startup and memory with and without an in-app preview (QtWebEngine).
if [[ -x $BIN/lizard-bench-preview ]]; then
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
  if ((EUID == 0)); then export QTWEBENGINE_DISABLE_SANDBOX=1; fi # Chromium refuses its sandbox as root
  timed "$BIN/lizard-bench-preview" --url "$url" --key "$key" || status=$?
else
  echo "preview figure: $BIN/lizard-bench-preview not built (desktop build)"
fi
# The real app: exec to its first painted window and its idle memory, beside a bare Qt window;
# under an Xvfb of its own when there is no display and xvfb-run is installed.
if [[ -x $BIN/lizard-bench-appstart ]]; then
  appstart_args=()
  if [[ ${LIZARD_BENCH_QUICK:-0} == 1 ]]; then appstart_args=(--runs 3 --idle-s 2); fi
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]] && command -v xvfb-run >/dev/null; then
    BENCH_NAME=lizard-bench-appstart timed env -u QT_QPA_PLATFORM xvfb-run -a \
      -s "-screen 0 1600x1000x24" "$BIN/lizard-bench-appstart" --url "$url" --key "$key" \
      "${appstart_args[@]}" || status=$?
  else
    if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
    timed "$BIN/lizard-bench-appstart" --url "$url" --key "$key" "${appstart_args[@]}" || status=$?
  fi
else
  echo "app start figure: $BIN/lizard-bench-appstart not built (desktop build)"
fi
# SSH hosts: the API round trip and runCode 1+1 through the app's SSH tunnel to a lizard-local on an
# SSH host (sshd in a network namespace: root only), beside this server directly.
if [[ -x $BIN/lizard-bench-ssh ]]; then
  ssh_args=()
  if [[ ${LIZARD_BENCH_QUICK:-0} == 1 ]]; then ssh_args=(--runs 10); fi
  timed "$BIN/lizard-bench-ssh" --url "$url" --key "$key" "${ssh_args[@]}" || status=$?
else
  echo "SSH tunnel figures: $BIN/lizard-bench-ssh not built (desktop build with tests)"
fi
# Desktops: the Screen tab's web viewer (QtWebEngine on the noVNC page) beside a native RFB
# widget: start -> first frame, xdotool -> visible, CPU while static, the desktop's memory.
if [[ -x $BIN/lizard-bench-desktop ]]; then
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
  timed "$BIN/lizard-bench-desktop" --url "$url" --key "$key" || status=$?
else
  echo "desktop figures: $BIN/lizard-bench-desktop not built (desktop build with tests)"
fi
# Terminal: the widget alone on 100 MB (MB/s and stall beside libvterm's own parsing, memory
# per view), then the Terminal tab's path end to end (keystroke echo beside a host pty, cat
# throughput and stall, memory per attached terminal).
if [[ -x $BIN/bench_terminalview && -x $BIN/lizard-bench-terminal ]]; then
  if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]]; then export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}; fi
  terminal_view_args=()
  terminal_args=()
  if [[ ${LIZARD_BENCH_QUICK:-0} == 1 ]]; then terminal_view_args=(--megabytes 20); terminal_args=(--quick); fi
  timed "$BIN/bench_terminalview" "${terminal_view_args[@]}" || status=$?
  timed "$BIN/lizard-bench-terminal" --url "$url" --key "$key" "${terminal_args[@]}" || status=$?
else
  echo "terminal figures: bench_terminalview or lizard-bench-terminal not built (desktop build)"
fi
if ((status != 0)); then
  echo "bench: a figure could not be measured (status $status); lizard-local log tail:" >&2
  tail -n 40 "$log" >&2
fi
exit "$status"
