#!/usr/bin/env bash
# The soak (make soak MINUTES=N): starts lizard-local from BUILD/bin on a free loopback port
# with its own temporary data directory, runs the SDK driver (tests/compat/soak/soak.mjs) for
# MINUTES, then stops the server and checks that nothing of it is left on the host: no
# sandbox process, mount, loop device or cgroup of its data directory, and (scripts/check-leaks.sh)
# no lizard-agent, lizard-local or test directory of this run. Exits 1 on any violation.
# Usage: scripts/soak.sh [BUILD] [MINUTES] [SEED]
set -euo pipefail
BUILD=${1:-build}
MINUTES=${2:-10}
SEED=${3:-1}
cd "$(dirname "$0")/.."
BIN=$(realpath "$BUILD")/bin

for exe in lizard-local lizard-agent; do
  if [[ ! -x $BIN/$exe ]]; then
    echo "soak: $BIN/$exe is missing; build first (make soak builds it)" >&2
    exit 1
  fi
done
command -v node >/dev/null || { echo "soak: node is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
# The pinned official SDK, as the compatibility suite installs it (scripts/run-tests.sh):
# npm ci from package-lock.json, only when it is not there yet (npm's cache serves it offline).
if [[ ! -d tests/compat/node_modules/@lizard-build/sdk ]]; then
  (cd tests/compat && npm ci --no-audit --no-fund --loglevel=error)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lizard-test-soak-XXXXXX") # lizard-test-*: check-leaks.sh watches it
data=$tmp/data
mkdir -p "$data"
instance=$(node -e 'let h=1469598103934665603n;for(const c of Buffer.from(process.argv[1])){h^=BigInt(c);h=(h*1099511628211n)&0xffffffffffffffffn}console.log("d"+h.toString(16).padStart(16,"0"))' "$data")
# check-leaks.sh, limited to what this run can have made (other people's servers may come and
# go on the same host meanwhile): our data directory, our cgroup instance, our directory.
export LIZARD_LEAK_ONLY="$tmp|/lizard-local/$instance/"
scripts/check-leaks.sh before "$tmp.leaks"

# shellcheck source=scripts/local-server.sh
. "$(dirname "$0")/local-server.sh"
log=$tmp/server.log

# What the stopped server left of its sandboxes on the host, one line each.
host_leftovers() {
  grep -F " $data/" /proc/mounts | awk '{print "mount " $2}' || true
  local f
  for f in /sys/block/loop*/loop/backing_file; do
    [[ -r $f ]] && grep -qF "$data/" "$f" && echo "loop ${f#/sys/block/} $(cat "$f")"
  done
  find /sys/fs/cgroup -maxdepth 4 -type d -path "*/lizard-local/$instance" 2>/dev/null | sed 's/^/cgroup /'
  local pid
  for pid in $(pgrep -x lizard-agent || true); do
    grep -qF "/lizard-local/$instance/" "/proc/$pid/cgroup" 2>/dev/null && echo "process $pid (lizard-agent in $instance)"
  done
  return 0
}

# A sandbox the server failed to end is ended here, so that a failed soak leaves the host as
# it found it: thaw its cgroup (a frozen task cannot die), kill what is in it, remove it.
reap_leftovers() {
  local dir pid
  for dir in $(find /sys/fs/cgroup -mindepth 2 -maxdepth 5 -type d -path "*/lizard-local/$instance/*" 2>/dev/null); do
    [[ -f $dir/freezer.state ]] && echo THAWED >"$dir/freezer.state" 2>/dev/null
    [[ -f $dir/cgroup.freeze ]] && echo 0 >"$dir/cgroup.freeze" 2>/dev/null
    for pid in $(cat "$dir/cgroup.procs" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
  done
  sleep 1
  find /sys/fs/cgroup -maxdepth 5 -depth -type d -path "*/lizard-local/$instance*" -exec rmdir {} + 2>/dev/null || true
  grep -F " $data/" /proc/mounts | awk '{print $2}' | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
}

cleanup() {
  local_server_stop
  reap_leftovers
  rm -rf "$tmp" "$tmp.leaks"
}
trap cleanup EXIT

# No warm pools: the invariants take every sandbox the API does not list for a leak, and the
# pools' copies are such sandboxes (tst_pools checks what becomes of them).
local_server_start soak "$BIN" "$data" "$log" --pool-max 0
echo "== soak: lizard-local $url (pid $server), data $data, $MINUTES min, seed $SEED"

status=0
# The driver bounds every call itself; this is the backstop for a driver that hangs.
LIZARD_API_URL=$url LIZARD_API_KEY=$key NODE_NO_WARNINGS=1 SOAK_MINUTES=$MINUTES SOAK_SEED=$SEED \
  SOAK_DATA_DIR=$data SOAK_SERVER_PID=$server \
  timeout --signal=KILL $((MINUTES * 60 + 900)) node tests/compat/soak/soak.mjs || status=1

if ! kill -0 "$server" 2>/dev/null; then
  echo "soak: lizard-local died during the run; the end of its log:"
  tail -n 40 "$log"
  status=1
fi
local_server_stop
left=""
for _ in $(seq 20); do
  left=$(host_leftovers)
  [[ -z $left ]] && break
  sleep 0.5
done
if [[ -n $left ]]; then
  echo "== soak: the stopped server left these behind:"
  echo "$left"
  status=1
else
  echo "== soak: after the server stopped: no mount, loop device, cgroup or sandbox process of $data"
fi
if [[ $status -ne 0 ]]; then
  kept=${TMPDIR:-/tmp}/lizard-soak-server-$(date +%Y%m%dT%H%M%S).log
  cp "$log" "$kept"
  echo "== soak: the server log is kept in $kept; its end:"
  tail -n 20 "$log"
fi
reap_leftovers
rm -rf "$tmp"
scripts/check-leaks.sh after "$tmp.leaks" || status=1
rm -f "$tmp.leaks"
trap - EXIT
[[ $status -eq 0 ]] && echo "== soak: PASS" || echo "== soak: FAIL"
exit $status
