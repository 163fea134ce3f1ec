#!/usr/bin/env bash
# `make package`: the release packages from an already-built BUILD directory, in BUILD/packages:
#   lizard-desktop_<version>_<arch>.deb          stripped programs, man pages, desktop files, …
#   lizard-desktop-dbgsym_<version>_<arch>.ddeb  their debug info, by build id
# CPack (packaging/CMakeLists.txt) stages the installation, splits off the debug info, strips
# and computes the dependencies. dpkg-deb then repacks both to correct what CPack 3.25 gets
# wrong for Debian: it adds an ldconfig call to postinst and postrm whenever a shared object
# sits under /usr/lib and the package brings no scripts of its own (ours is the preview plugin,
# loaded by path: ldconfig has nothing to do),
# and it writes the dbgsym package's md5sums with absolute build paths and no documentation.
# Last, scripts/check-package.sh validates them (lintian, desktop entry, AppStream).
# Usage: scripts/package.sh [BUILD]
set -euo pipefail
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/.."
out=$BUILD/packages
rm -rf "$out"
mkdir -p "$out"

# gzip here because dpkg-deb compresses again below, with xz.
if ! (cd "$BUILD" && cpack -G DEB -B "$out" -D CPACK_DEBIAN_COMPRESSION_TYPE=gzip) >"$out/cpack.log" 2>&1; then
  cat "$out/cpack.log" >&2
  exit 1
fi
shopt -s nullglob
debs=("$out"/*.deb) ddebs=("$out"/*.ddeb)
if ((${#debs[@]} != 1 || ${#ddebs[@]} != 1)); then
  echo "package: expected one .deb and one .ddeb from cpack; see $out/cpack.log" >&2
  exit 1
fi
deb=${debs[0]} ddeb=${ddebs[0]}

tree=$out/tree
# xz level 1 for the debug symbols: 29 MB in 8 s instead of 24 MB in 45 s at level 6.
repack() { dpkg-deb --root-owner-group -Zxz -z"$2" --threads-max=2 --build "$tree" "$1" >/dev/null; }

rm -rf "$tree" && dpkg-deb -R "$deb" "$tree"
for script in postinst postrm; do
  f=$tree/DEBIAN/$script
  [[ -e $f ]] || continue
  # Only CPack's own ldconfig script goes; ours (packaging/debian: the AppArmor profiles) stay,
  # and must not have CPack's ldconfig call mixed in.
  if [[ $(grep -vE '^(#!/bin/sh|set -e|if \[ "\$1" = "(configure|remove)" \]; then|\s*ldconfig|fi|)$' "$f") ]]; then
    if grep -qE '^\s*ldconfig' "$f"; then
      echo "package: CPack added ldconfig to our $script" >&2
      exit 1
    fi
    continue
  fi
  rm "$f"
done
repack "$deb" 9

rm -rf "$tree" && dpkg-deb -R "$ddeb" "$tree"
mkdir -p "$tree/usr/share/doc"
ln -s lizard-desktop "$tree/usr/share/doc/lizard-desktop-dbgsym" # as debhelper's dbgsym packages
(cd "$tree" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
repack "$ddeb" 1
rm -rf "$tree" "$out/_CPack_Packages"

for f in "$deb" "$ddeb"; do
  printf '%s  %s\n' "$(du -h "$f" | cut -f1)" "$f"
done
scripts/check-package.sh "$deb" "$ddeb"
