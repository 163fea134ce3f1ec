#!/usr/bin/env bash
# `make test`: builds the project and runs the whole test suite, the suites starting as soon as
# they are built (scripts/run-tests.py says how, and how the ordinary user's pass runs as root).
# Every suite's whole output is kept in BUILD/test-logs/<pass>/.
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."

# The SDK compatibility suite needs the pinned official SDK.
if [[ -f tests/compat/package.json && ! -d tests/compat/node_modules/@lizard-build/sdk ]]; then
  (cd tests/compat && npm ci --no-audit --no-fund --loglevel=error)
fi

exec python3 scripts/run-tests.py "$BUILD"
