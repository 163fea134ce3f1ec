#!/usr/bin/env bash
# Fails when a test was skipped for a reason that tests/allowed-skips.txt does not allow.
# A suite that skips because a package went missing (the Jupyter stack, node, the SDK) would
# otherwise pass as green; only host features that really vary may skip, each allowed pattern
# with its reason in that file. Reads the suites' whole output (scripts/run-tests.py keeps it
# as BUILD/test-logs/<pass>/<suite>.log), prints every skip with its verdict and the count of
# each.
#   scripts/check-skips.sh LOG...
set -euo pipefail
cd "$(dirname "$0")/.."
allowed=tests/allowed-skips.txt
(($# > 0)) || { echo "usage: $0 LOG..." >&2; exit 2; }
# A run that left no logs (make test stopped before any suite) must not pass as "no skips".
ls -- "$@" >/dev/null 2>&1 || { echo "check-skips: no such log: $*" >&2; exit 2; }

# The patterns: the first field of each line that is not a comment (fields end at " | ").
mapfile -t patterns < <(grep -v -e '^#' -e '^[[:space:]]*$' "$allowed" | sed 's/ | .*//')
((${#patterns[@]} > 0)) || { echo "check-skips: no pattern in $allowed" >&2; exit 2; }

bad=0 total=0
while IFS= read -r line; do
  total=$((total + 1))
  ok=0
  for p in "${patterns[@]}"; do
    if grep -qE -- "$p" <<<"$line"; then ok=1; break; fi
  done
  if ((ok)); then
    echo "allowed: $line"
  else
    echo "NOT ALLOWED: $line"
    bad=$((bad + 1))
  fi
done < <(grep -h '^SKIP   : ' "$@" | sed 's/^SKIP   : //' | sort | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)/\2 (x\1)/')

echo "check-skips: $total distinct skips, $bad not allowed by $allowed"
((bad == 0))
