#!/usr/bin/env bash
# `make fuzz SECONDS=N`: builds the libFuzzer harnesses of fuzz/ with clang 14 in their own
# build dir, replays each seed corpus and every committed regression input (CTest), then
# runs each harness for N seconds. Any crash, leak, timeout or sanitizer report fails it;
# the input that caused it is kept as BUILD/artifacts/<harness>-crash-… (copy it to
# fuzz/regressions/<harness>/ once the bug is fixed).
#   scripts/fuzz.sh [SECONDS] [BUILD_DIR]     FUZZ_JOBS=n harnesses at once (default 2)
#   FUZZ_SEED=n: the same sequence of inputs every run (CI: a run that passed here passes
#   there); without it each run explores anew.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-25}
BUILD=${2:-build-fuzz}
jobs=${FUZZ_JOBS:-2}

cmake -S fuzz -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
cmake --build "$BUILD"
ctest --test-dir "$BUILD" --output-on-failure

harnesses=(http_request json_body file_paths access_rules sse_parser runner_events dns_message)
mkdir -p "$BUILD/artifacts" "$BUILD/logs"
run() {
  local name=$1 corpus="$BUILD/corpus/$1"
  local inputs=("$corpus" "fuzz/corpus/$name")
  [[ -d fuzz/regressions/$name ]] && inputs+=("fuzz/regressions/$name")
  local dict=()
  [[ -f fuzz/dicts/$name.dict ]] && dict=(-dict="fuzz/dicts/$name.dict")
  [[ -n ${FUZZ_SEED:-} ]] && dict+=(-seed="$FUZZ_SEED")
  mkdir -p "$corpus"
  # The first corpus dir (in the build dir) takes what the run finds; fuzz/ stays as it is.
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: a runaway allocation fails.
  if "$BUILD/fuzz_$name" "${inputs[@]}" "${dict[@]}" -max_total_time="$secs" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$BUILD/artifacts/$name-" \
      >"$BUILD/logs/$name.log" 2>&1; then
    echo "fuzz: $name: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$BUILD/logs/$name.log" | grep -o '[0-9]*$') runs in ${secs} s, no crash"
  else
    echo "fuzz: $name FAILED (log: $BUILD/logs/$name.log)"
    grep -E -A30 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|FUZZ_CHECK|Test unit written' \
      "$BUILD/logs/$name.log" | head -60
    return 1
  fi
}

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Reports with function names and lines (llvm-14).
[[ -x /usr/bin/llvm-symbolizer-14 ]] && export ASAN_SYMBOLIZER_PATH=/usr/bin/llvm-symbolizer-14
status=0
pids=()
for name in "${harnesses[@]}"; do
  run "$name" &
  pids+=($!)
  if ((${#pids[@]} >= jobs)); then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
((status == 0)) && echo "fuzz: ${#harnesses[@]} passed, 0 failed" || echo "fuzz: some harness failed"
exit $status
