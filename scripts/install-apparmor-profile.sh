#!/usr/bin/env bash
# For a source build on a host whose AppArmor restricts unprivileged user namespaces (Ubuntu
# 23.10 and later): installs and loads an AppArmor profile that lets this build's lizard-local
# and lizard-agent create them, as the .deb's /etc/apparmor.d/lizard-agent does for /usr/bin.
# lizard-local names this command when it finds the restriction. `--print` writes the profile
# to stdout and installs nothing.
# Usage: sudo scripts/install-apparmor-profile.sh BINDIR [--print]
set -euo pipefail
bindir=$(realpath "${1:?usage: install-apparmor-profile.sh BINDIR [--print]}")
for program in lizard-local lizard-agent; do
  [[ -x $bindir/$program ]] || { echo "install-apparmor-profile: $bindir/$program not found" >&2; exit 1; }
done
profile() {
  echo "# lizard-desktop built from source in $bindir (scripts/install-apparmor-profile.sh):"
  echo "# user namespaces for its lizard-local and lizard-agent, nothing else; both unconfined."
  echo "abi <abi/4.0>,"
  echo "include <tunables/global>"
  for program in lizard-local lizard-agent; do
    echo "profile $program-build $bindir/$program flags=(unconfined) {"
    echo "  userns,"
    echo "}"
  done
}
if [[ ${2:-} == --print ]]; then profile; exit 0; fi
if ((EUID != 0)); then echo "install-apparmor-profile: run it with sudo" >&2; exit 1; fi
target=/etc/apparmor.d/lizard-local-build
profile > "$target"
apparmor_parser --replace "$target"
echo "install-apparmor-profile: $target loaded; restart lizard-local"
