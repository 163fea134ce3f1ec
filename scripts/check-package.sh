#!/usr/bin/env bash
# Validates the packages that scripts/package.sh makes:
#  - lintian: no errors; each warning must be listed, with its reason, in packaging/lintian-kept.txt;
#  - desktop-file-validate on the desktop entry, appstreamcli on the AppStream metainfo (as installed);
#  - the programs in the .deb are stripped and their debug info is in the dbgsym package.
# Usage: scripts/check-package.sh DEB DDEB
set -euo pipefail
deb=$(realpath "$1") ddeb=$(realpath "$2")
cd "$(dirname "$0")/.."
kept=packaging/lintian-kept.txt
status=0

echo "== lintian"
# lintian warns about being run as root; it only reads the packages.
report=$(lintian --allow-root --tag-display-limit 0 "$deb" "$ddeb" 2>&1) || true
echo "${report:-(nothing to report)}"
while read -r level pkg tag _; do
  case $level in
    E:) echo "check-package: lintian error: $pkg $tag" >&2; status=1 ;;
    W:) grep -qE "^${pkg%:} $tag( |$)" "$kept" || { echo "check-package: lintian warning not in $kept: ${pkg%:} $tag" >&2; status=1; } ;;
  esac
done <<<"$report"

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
dpkg-deb -x "$deb" "$tree"
echo "== desktop-file-validate"
for f in "$tree"/usr/share/applications/*.desktop; do
  desktop-file-validate "$f" && echo "$(basename "$f"): valid" || status=1
done
echo "== appstreamcli validate"
for f in "$tree"/usr/share/metainfo/*.metainfo.xml; do
  # --no-net: the screenshots are published with the release; their URLs are not fetched here.
  appstreamcli validate --no-net "$f" || status=1
done
echo "== stripped programs, debug info by build id"
dbg=$(dpkg-deb -c "$ddeb")
for f in "$tree"/usr/bin/* "$tree"/usr/lib/lizard-desktop/*.so; do
  info=$(file -b "$f")
  [[ $info == *", stripped"* ]] || { echo "check-package: not stripped: $f" >&2; status=1; }
  id=$(readelf -n "$f" | sed -n 's/.*Build ID: //p')
  grep -q "/${id:0:2}/${id:2}.debug" <<<"$dbg" || { echo "check-package: no debug info for ${f#"$tree"} ($id)" >&2; status=1; }
done
((status == 0)) && echo "check-package: all checks passed"
exit $status
