#!/usr/bin/env bash
# Runs the whole test suite (CTest). As root it then runs again, with lizard-local (and the
# runtime and isolation suites themselves) running as an ordinary user, lizard-ci, the suites
# whose outcome depends on that user (CTest label server-user: sandbox creation, isolation,
# limits, network, files, restarts), because that is how desktop users run lizard-local, and
# with /dev/net/tun and /dev/fuse as a desktop has them (0666) for that pass. UI,
# notebook and HTTP-only suites behave the same whoever runs the server and run once.
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."
BUILD=$(realpath "$BUILD")

# The SDK compatibility suite needs the pinned official SDK.
if [[ -f tests/compat/package.json && ! -d tests/compat/node_modules/@lizard-build/sdk ]]; then
  (cd tests/compat && npm ci --no-audit --no-fund --loglevel=error)
fi

# Every suite's whole output, per pass, for scripts/check-skips.sh (CTest keeps only the last
# run's, in Testing/Temporary/LastTest.log).
logs=$BUILD/test-logs
rm -rf "$logs"
mkdir -p "$logs"
keep_log() { cp "$BUILD/Testing/Temporary/LastTest.log" "$logs/$1.log" 2>/dev/null || true; }

# Most suites spend their time waiting (for sandboxes, kernels, timeouts, keep-alives), not on
# a core: twice as many at once as there are cores keeps both busy. LIZARD_TEST_JOBS overrides.
jobs=${LIZARD_TEST_JOBS:-$(($(nproc) * 2))}

# CTest starts the longest suites first when it knows their times (its cost data, written after
# each run); a fresh build gets the times of a run on a CI-like machine (tests/test-costs.txt),
# so that a long suite started last does not run alone at the end.
costs=$BUILD/Testing/Temporary/CTestCostData.txt
if [[ ! -s $costs ]]; then
  mkdir -p "$(dirname "$costs")"
  cp tests/test-costs.txt "$costs"
fi

status=0
ctest --test-dir "$BUILD" --output-on-failure -j"$jobs" || status=1
keep_log all

if [[ $(id -u) -eq 0 ]]; then
  id lizard-ci >/dev/null 2>&1 || useradd --create-home --shell /bin/bash lizard-ci
  grep -q '^lizard-ci:' /etc/subuid 2>/dev/null || usermod --add-subuids 300000-365535 --add-subgids 300000-365535 lizard-ci
  # The checkout may sit under a directory the user cannot enter (/root): give it copies.
  bindir=$(mktemp -d /tmp/lizard-ci-bin.XXXXXX)
  # Debian and Ubuntu desktops make /dev/net/tun and /dev/fuse 0666, which gives an ordinary
  # user's sandboxes their network (slirp4netns); many build hosts keep root's 0600. This pass
  # is the desktop's case, so it gets the desktop's modes, and the host's are put back when the
  # script ends however it ends. The 0600 case has suites of its own (LIZARD_TEST_NO_TUN).
  modes=()
  for dev in /dev/net/tun /dev/fuse; do
    if [[ -c $dev ]]; then
      modes+=("$(stat -c %a "$dev") $dev")
      chmod 0666 "$dev"
    fi
  done
  restore() {
    rm -rf "$bindir"
    for m in "${modes[@]}"; do chmod ${m% *} "${m#* }"; done
  }
  trap restore EXIT
  echo "== device modes for the ordinary user's pass, as on a desktop: $(stat -c '%n %a' /dev/net/tun /dev/fuse 2>/dev/null | paste -sd, -)"
  cp "$BUILD"/bin/{lizard-local,lizard-agent,tst_runtime,tst_isolation} "$bindir"/
  chmod 755 "$bindir" "$bindir"/*
  echo "== runtime and isolation suites as the unprivileged user lizard-ci =="
  for t in tst_runtime tst_isolation; do
    install -o lizard-ci -m 644 /dev/null "$bindir/$t.log" # the suite's log, which it may write
    runuser -u lizard-ci -- env -C /tmp QT_QPA_PLATFORM=offscreen "$bindir/$t" -o -,txt \
      -o "$bindir/$t.log,txt" || status=1
    cp "$bindir/$t.log" "$logs/$t-lizard-ci.log" 2>/dev/null || true
  done
  echo "== server-user suites again, lizard-local running as the unprivileged user lizard-ci =="
  LIZARD_TEST_SERVER_USER=lizard-ci LIZARD_LOCAL_BIN="$bindir/lizard-local" \
    ctest --test-dir "$BUILD" --output-on-failure -j"$jobs" -L server-user || status=1
  keep_log server-user-lizard-ci
fi
exit $status
