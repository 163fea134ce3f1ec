#!/usr/bin/env bash
# Runs the whole test suite (CTest). As root it runs it twice for the server-side suites:
# once with lizard-local as root, once with lizard-local as an ordinary user (lizard-ci),
# as a desktop user would run it.
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."

# The SDK compatibility suite needs the pinned official SDK.
if [[ -f tests/compat/package.json && ! -d tests/compat/node_modules/@lizard-build/sdk ]]; then
  (cd tests/compat && npm ci --no-audit --no-fund --loglevel=error)
fi

status=0
ctest --test-dir "$BUILD" --output-on-failure -j2 || status=1

if [[ $(id -u) -eq 0 ]]; then
  id lizard-ci >/dev/null 2>&1 || useradd --create-home --shell /bin/bash lizard-ci
  grep -q '^lizard-ci:' /etc/subuid 2>/dev/null || usermod --add-subuids 300000-365535 --add-subgids 300000-365535 lizard-ci
  # The unprivileged server must be able to run the binaries.
  chmod o+rx "$(realpath "$BUILD")" "$(realpath "$BUILD")/bin" 2>/dev/null || true
  echo "== server suites again, lizard-local running as the unprivileged user lizard-ci =="
  LIZARD_TEST_SERVER_USER=lizard-ci ctest --test-dir "$BUILD" --output-on-failure -L server || status=1
fi
exit $status
