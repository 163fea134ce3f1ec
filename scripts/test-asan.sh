#!/usr/bin/env bash
# `make test-asan`: lizard-local, lizard-agent and the server suites (tests/server, and
# tests/security when it has suites) built with AddressSanitizer + UndefinedBehaviorSanitizer
# (clang 14) in their own build dir, then those suites run against that build. Any sanitizer
# report fails the run: ASan and UBSan stop the process (halt_on_error), which fails its suite.
#   scripts/test-asan.sh [BUILD_DIR]   (default build-asan)
# ASAN_SUITES=<regex> (grep -E, on the suite names) builds and runs only the suites it matches;
# `make test-asan-quick` uses it for the API and security suites.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-asan}

SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# Configured every time, so the list of suites below is current.
# -O1: ASan's advice (quick enough to run, still readable stacks); builds faster than -O2.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DCMAKE_CXX_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN" >/dev/null
BUILD=$(realpath "$BUILD")

suite_dirs=()
suites=()
for d in tests/server tests/security; do
  [[ -f "$BUILD/$d/CTestTestfile.cmake" ]] || continue
  names=$(ctest --test-dir "$BUILD/$d" -N | awk '/Test +#/ {print $3}')
  [[ -z ${ASAN_SUITES:-} ]] || names=$(grep -E -- "$ASAN_SUITES" <<<"$names" || true)
  [[ -n $names ]] || continue
  suite_dirs+=("$BUILD/$d")
  suites+=($names)
done
((${#suites[@]} > 0)) || { echo "test-asan: no server suites found${ASAN_SUITES:+ matching $ASAN_SUITES}" >&2; exit 1; }
# A suite's executable is its folder's bundle (tests/CMakeLists.txt): build those.
mapfile -t targets < <(python3 scripts/suite-targets.py "$BUILD" "${suites[@]}")
echo "test-asan: building lizard-local lizard-agent ${targets[*]} for ${suites[*]}"
cmake --build "$BUILD" --target lizard-local lizard-agent "${targets[@]}"

# Every report also goes to a file: lizard-local and lizard-agent are started by the suites,
# which do not look at how they exited, so a report of theirs would otherwise pass unseen.
# (The agent inside a sandbox cannot reach this folder; its reports go to its stderr.)
logs="$BUILD/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
chmod 1777 "$logs"
# halt_on_error: the first report ends the process with a failure.
# LeakSanitizer stays on (the default) for every program, lizard-agent included. It runs at a
# normal exit only, and its check stops the process's threads with ptrace from a helper and
# reads /proc/self/task: that would fail in a sandbox (PID 1 is not dumpable, its /proc is the
# sandbox's). No namespaced agent process exits normally, though: the children that unshare
# end with _exit(), and PID 1 with _exit() or SIGKILL. Only the launcher (`lizard-agent
# init|template|remove|copy`) returns from main(), and it stays in the host's namespaces, where
# the check works. If that changes, LeakSanitizer's "fatal error" lands in the logs below.
# quarantine_size_mb: ASan keeps freed memory resident (256 MiB by default) before reusing it,
# to catch a use after free; the suites that prove lizard-local's buffers are bounded measure
# its RSS (tst_sec_api_conn: under 32 MiB while 1 GiB streams to a stalled reader) and would
# count that quarantine as growth (+212 MiB). 16 MiB of recent frees are still checked.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:strict_string_checks=1:check_initialization_order=1:quarantine_size_mb=16:log_path=$logs/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$logs/ubsan"
[[ -x /usr/bin/llvm-symbolizer-14 ]] && export ASAN_SYMBOLIZER_PATH=/usr/bin/llvm-symbolizer-14

status=0
filter=()
[[ -z ${ASAN_SUITES:-} ]] || filter=(-R "$ASAN_SUITES")
for d in "${suite_dirs[@]}"; do
  ctest --test-dir "$d" --output-on-failure -j2 "${filter[@]}" || status=1
done
if compgen -G "$logs/*" >/dev/null; then
  echo "test-asan: sanitizer reports:"
  for f in "$logs"/*; do echo "== $f"; head -80 "$f"; done
  status=1
fi
((status == 0)) && echo "test-asan: no sanitizer report"
exit $status
