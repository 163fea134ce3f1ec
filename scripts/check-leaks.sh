#!/usr/bin/env bash
# What a test run must not leave behind: a sandbox's PID 1 (lizard-agent) or a lizard-local
# still running, an SSH fixture's sshd or the app's ssh to it, a fixture's network namespace
# (lzt-…), a temporary directory of the test fixtures (tests/support/localserver.cpp
# makes lizard-test-XXXXXX; some suites make lizard-unit-, lizard-nouserns- and
# lizard-escape-secret- ones) in the temporary directory, a mount below one of those (a
# sandbox's disk image, a pool of them, a volume) or a loop device whose backing file is there
# (also once the file is deleted).
#
#   scripts/check-leaks.sh before FILE   # records what is there already (before the suites)
#   scripts/check-leaks.sh after FILE    # prints what is new since, and fails if anything is
#
# Comparing with what was there before keeps a developer's own lizard-local and sandboxes out
# of the verdict; in CI the list before is empty. .ci/run calls both around `make test`.
# LIZARD_LEAK_ONLY=REGEX limits both lists to lines matching it, a process's line then naming
# its cgroups too: scripts/soak.sh checks only its own server's processes and directory, as
# other people's servers may start and stop on the same host during a long run.
set -euo pipefail
mode=${1:-}
file=${2:-}
if [[ ($mode != before && $mode != after) || -z $file ]]; then
  echo "usage: $0 before|after FILE" >&2
  exit 2
fi
tmp=${TMPDIR:-/tmp}

everything() {
  # Processes by their exact name (a sandbox's PID 1 keeps lizard-agent's), with their command.
  local name pid cmd
  for name in lizard-agent lizard-local; do
    for pid in $(pgrep -x "$name" || true); do
      cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
      [[ -z $cmd ]] && continue # it ended meanwhile
      if [[ -n ${LIZARD_LEAK_ONLY:-} ]]; then
        echo "process $pid $cmd(cgroup $(tr '\n' ' ' <"/proc/$pid/cgroup" 2>/dev/null || true))"
      else
        echo "process $pid $cmd"
      fi
    done
  done
  # The SSH fixtures' sshd and the app's ssh connections (tests/support/sshhost.cpp,
  # app/ssh/sshtunnel.cpp), by the fixture or control directory their command names.
  for name in sshd ssh; do
    for pid in $(pgrep -x "$name" || true); do
      cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
      [[ $cmd == *"$tmp"/lizard-test-ssh-* || $cmd == *"$tmp"/lizard-ssh-* ]] && echo "process $pid $cmd"
    done
  done
  # Network namespaces of the test fixtures (lzt-…: the SSH host, the network suites).
  if command -v ip >/dev/null; then
    ip netns list 2>/dev/null | awk '$1 ~ /^lzt-/ {print "network namespace " $1}'
  fi
  local dir
  for dir in "$tmp"/lizard-test-* "$tmp"/lizard-unit-* "$tmp"/lizard-nouserns-* "$tmp"/lizard-escape-secret-* \
    "$tmp"/lizard-ssh-*; do
    [[ -e $dir ]] && echo "directory $dir"
  done
  # Mount points (field 5 of mountinfo, with its octal escapes) and loop devices' backing files.
  local fixtures="^$(realpath -m "$tmp")/lizard-(test|unit|nouserns|escape-secret)-"
  awk '{print $5}' /proc/self/mountinfo | grep -E -- "$fixtures" | sed 's/^/mount /' || true
  local loop backing
  for loop in /sys/block/loop*; do
    backing=$(cat "$loop/loop/backing_file" 2>/dev/null) || continue
    grep -qE -- "$fixtures" <<<"$backing" && echo "loop device /dev/${loop##*/} on $backing"
  done
  return 0
}

current() {
  if [[ -n ${LIZARD_LEAK_ONLY:-} ]]; then
    everything | grep -E -- "$LIZARD_LEAK_ONLY" || true
  else
    everything
  fi
}

if [[ $mode == before ]]; then
  current >"$file"
  exit 0
fi

# A process that lives on for a moment after its suite (a server finishing its SIGTERM) is
# not a leak: look again for up to 10 s before calling what is still there leaked.
for _ in $(seq 20); do
  leaked=$(current | grep -vxF -f "$file" || true)
  [[ -z $leaked ]] && break
  sleep 0.5
done
if [[ -n $leaked ]]; then
  echo "== leak check: the test suites left these behind:"
  echo "$leaked"
  exit 1
fi
echo "== leak check: no lizard-agent, lizard-local, SSH fixture, test namespace, directory, mount or loop device outlived the suites"
