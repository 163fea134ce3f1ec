#!/usr/bin/env bash
# CI checks of the newcomer's path, after `make test` has installed and built everything:
#  1. every script the Makefile or .ci/run calls, and every scripts/*.sh, is executable in git;
#  2. scripts/install-deps.sh, run again, installs nothing: sudo, apt-get and apt are
#     replaced on PATH by commands that fail loudly;
#  3. as the ordinary user lizard-ci, without sudo, `make build` (the dependency check, the
#     configure, the build) runs on a copy of this tree and of BUILD and has nothing to build.
#     The copy is owned by lizard-ci and mounted, in a private mount namespace, over the
#     original paths: CMake's build directory records absolute paths, so only the same paths
#     give a no-op build. The copy costs seconds (cp -a), not a second build.
# Needs root (useradd, mount namespace). Usage: scripts/ci-checks.sh [BUILD]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd -P)
BUILD=$(realpath "${1:-build}")
t0=$SECONDS
step() { printf '== ci-checks [%3ds] %s\n' $((SECONDS - t0)) "$*"; }
fail() { echo "ci-checks: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "needs root (it runs a step as lizard-ci)"

step "scripts are executable in git"
called=$( (grep -ohE '(scripts|\.ci)/[A-Za-z0-9_./-]+' Makefile .ci/run; git ls-files 'scripts/*.sh'; echo .ci/run) | sort -u)
bad=0
for f in $called; do
  mode=$(git ls-files -s -- "$f" | cut -d' ' -f1)
  [[ -n $mode ]] || { echo "not in git: $f" >&2; bad=1; continue; }
  [[ $mode == 100755 ]] || { echo "not executable in git (mode $mode): $f" >&2; bad=1; }
done
((bad == 0)) || fail "fix with: git update-index --chmod=+x FILE"
echo "$(wc -w <<<"$called") scripts, all mode 100755"

# Commands that must never run now: they fail loudly and leave a mark.
fake=$(mktemp -d /tmp/lizard-ci-fake.XXXXXX)
copy=""
cleanup() { rm -rf "$fake"; [[ -z $copy ]] || rm -rf --one-file-system "$copy"; }
trap cleanup EXIT
for cmd in sudo apt-get apt; do
  printf '#!/bin/sh\necho "ci-checks: %s was called: $*" >&2\ntouch %s/called\nexit 97\n' "$cmd" "$fake" >"$fake/$cmd"
done
chmod 755 "$fake" "$fake"/*

step "install-deps, second run: installs nothing, calls neither sudo nor apt-get"
out=$(PATH="$fake:$PATH" scripts/install-deps.sh 2>&1) || { echo "$out"; fail "install-deps failed on its second run"; }
echo "$out"
[[ ! -e $fake/called ]] || fail "install-deps called sudo or apt-get on its second run"
grep -q "all packages present" <<<"$out" || fail "install-deps did not find every package present"

step "make build as lizard-ci, without sudo, on a copy of the built tree"
id lizard-ci >/dev/null 2>&1 || useradd --create-home --shell /bin/bash lizard-ci
copy=$(mktemp -d /tmp/lizard-ci-tree.XXXXXX)
chmod 755 "$copy"
mkdir "$copy/src"
# Everything but other build directories (a fuzzing build, say): they are not BUILD's business.
for entry in "$repo"/* "$repo"/.[!.]*; do
  [[ -e $entry ]] || continue
  if [[ -f $entry/CMakeCache.txt && $(realpath "$entry") != "$BUILD" ]]; then continue; fi
  cp -a "$entry" "$copy/src/"
done
case $BUILD/ in
  "$repo"/*) ;; # inside the checkout: copied with it
  *) cp -a "$BUILD" "$copy/build" ;;
esac
chown -R lizard-ci:lizard-ci "$copy"
step "copied $(du -sh "$copy" | cut -f1)"
unshare --mount --propagation private env REPO="$repo" BUILD="$BUILD" COPY="$copy" FAKE="$fake" bash -euo pipefail -c '
  # The paths must be reachable by lizard-ci: a directory on the way that it may not enter
  # (a checkout under /root) is covered, in this namespace only, by an empty one it may.
  reach() {
    local target=$1 dir=""
    IFS=/ read -ra parts <<<"${target#/}"
    for p in "${parts[@]}"; do
      dir=$dir/$p
      if [[ -d $dir ]] && ! runuser -u lizard-ci -- test -x "$dir"; then
        mount -t tmpfs -o mode=755 tmpfs "$dir"
      fi
      mkdir -p "$dir"
    done
  }
  reach "$REPO"
  mount --bind "$COPY/src" "$REPO"
  if [[ -d $COPY/build ]]; then reach "$BUILD"; mount --bind "$COPY/build" "$BUILD"; fi
  runuser -u lizard-ci -- env -i HOME=/home/lizard-ci LANG=C.UTF-8 PATH="$FAKE:/usr/local/bin:/usr/bin:/bin" \
    make -C "$REPO" --no-print-directory build BUILD="$BUILD" 2>&1 | tee "$COPY/make.log"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || exit 1
'
[[ ! -e $fake/called ]] || fail "make build as lizard-ci called sudo or apt-get"
grep -q "ninja: no work to do" "$copy/make.log" || fail "make build as lizard-ci rebuilt something: the copy is not a no-op"
step "passed"
