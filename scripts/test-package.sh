#!/usr/bin/env bash
# Installs a lizard-desktop .deb into a clean Debian 12 root and checks that it works there:
#  - `dpkg -i` then `apt-get -f install` bring in every dependency from Debian's archive;
#  - `lizard-local --version` and `lizard-desktop --version` run;
#  - lizard-local, started by an ordinary user with the systemd user unit's command line, writes
#    server.json where the app looks for it, serves /api/projects with its key and stops
#    cleanly on SIGTERM (no sandboxes: they need nothing the chroot lacks, but are not tested).
# The root is made by mmdebstrap (minbase) from deb.debian.org: bookworm, -updates, -security.
# The root keeps the package lists mmdebstrap fetched, as an installed system does.
# Downloaded packages are kept in CACHE (default ~/.cache/lizard-desktop/test-package) and
# copied into the next root, so a second run downloads only what changed; an empty cache works.
# Needs root (mmdebstrap's root mode, chroot, mount namespaces).
# Usage: scripts/test-package.sh DEB [CACHE]
set -euo pipefail
deb=$(realpath "$1")
cache=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/lizard-desktop/test-package}
if [[ $(id -u) -ne 0 ]]; then
  echo "test-package: needs root (mmdebstrap, chroot)" >&2
  exit 1
fi
for tool in mmdebstrap unshare chroot; do
  command -v $tool >/dev/null || { echo "test-package: $tool is missing (scripts/install-deps.sh)" >&2; exit 1; }
done
mkdir -p "$cache"
root=$(mktemp -d /tmp/lizard-pkgroot.XXXXXX)
trap 'rm -rf --one-file-system "$root"' EXIT
t0=$SECONDS
step() { printf '== test-package [%3ds] %s\n' $((SECONDS - t0)) "$*"; }

step "clean Debian 12 root (mmdebstrap, cache: $cache)"
mmdebstrap --quiet --variant=minbase --skip=essential/unlink,cleanup/apt --dpkgopt=force-unsafe-io \
  --setup-hook='mkdir -p "$1"/var/cache/apt/archives' \
  --setup-hook="find '$cache' -maxdepth 1 -name '*.deb' -exec cp -t \"\$1\"/var/cache/apt/archives {} +" \
  bookworm "$root" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main"
save_cache() { cp -n "$root"/var/cache/apt/archives/*.deb "$cache"/ 2>/dev/null || true; }
save_cache
cp "$deb" "$root/tmp/"
name=$(basename "$deb")

# Everything that mounts runs in a private mount namespace: its mounts vanish with it.
step "dpkg -i $name; apt-get -f install; the Recommends"
unshare --mount --propagation private env ROOT="$root" DEB="$name" bash -euo pipefail -c '
  mount -t proc proc "$ROOT/proc"
  mount --rbind /dev "$ROOT/dev"
  mount -t tmpfs tmpfs "$ROOT/run"
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
  inroot() { chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }
  # A root thrown away after the test: dpkg need not sync every file it unpacks, nor man-db
  # index 500 packages'"'"' pages (the pages are still installed and checked below). Together
  # these were most of the install'"'"'s time.
  echo force-unsafe-io >"$ROOT/etc/dpkg/dpkg.cfg.d/lizard-test-unsafe-io"
  echo "man-db man-db/auto-update boolean false" | inroot debconf-set-selections
  # Nor need Python'"'"'s packages be byte-compiled as they are configured (py3compile: 40 s of
  # the 100 this step took): Python compiles what it imports when it first does. The real
  # py3compile is kept beside, diverted, so the packages install it as usual.
  inroot dpkg-divert --quiet --local --rename --divert /usr/bin/py3compile.real --add /usr/bin/py3compile
  printf "#!/bin/sh\n# test-package: nothing byte-compiled in this throwaway root\nexit 0\n" >"$ROOT/usr/bin/py3compile"
  chmod 755 "$ROOT/usr/bin/py3compile"
  # dpkg -i stops at the missing dependencies, as on any clean system; apt-get -f install
  # must then fetch them all and finish the configuration.
  if ! inroot dpkg -i "/tmp/$DEB" >"$ROOT/tmp/dpkg-i.log" 2>&1; then
    # Only missing dependencies may stop it: the package must be unpacked.
    inroot dpkg-query -W -f="\${Status}" lizard-desktop 2>/dev/null | grep -q unpacked || { cat "$ROOT/tmp/dpkg-i.log"; exit 1; }
    echo "dpkg -i: $(grep -c "depends on" "$ROOT/tmp/dpkg-i.log") dependencies missing, as expected on a clean system"
  fi
  inroot apt-get -q -y -o Dpkg::Use-Pty=0 -f install >"$ROOT/tmp/apt.log" 2>&1 || { tail -n 40 "$ROOT/tmp/apt.log"; exit 1; }
  grep -E "^[0-9]+ upgraded" "$ROOT/tmp/apt.log"
  # apt-get -f may also "fix" by removing the package: it must be installed now.
  state=$(inroot dpkg-query -W -f="\${Package} \${Version}: \${Status}" lizard-desktop 2>&1) || true
  echo "$state"
  [[ $state == *"install ok installed" ]] || { grep -E "REMOVED|lizard|unmet|Depends" "$ROOT/tmp/apt.log" | head -n 20; exit 1; }
  # `apt install ./lizard-desktop_*.deb` also installs the Recommends (the interpreter
  # template'"'"'s Jupyter and data stack, Node.js); dpkg -i + apt-get -f does not. Install them as
  # apt would: each must exist in Debian 12, and lizard-local must then find the template usable.
  recommends=$(inroot dpkg-query -W -f="\${Recommends}" lizard-desktop | sed "s/([^)]*)//g; s/,/ /g")
  inroot apt-get -q -y -o Dpkg::Use-Pty=0 install $recommends >"$ROOT/tmp/apt-rec.log" 2>&1 || { tail -n 40 "$ROOT/tmp/apt-rec.log"; exit 1; }
  echo "Recommends: $(grep -E "^[0-9]+ upgraded" "$ROOT/tmp/apt-rec.log")"
'
save_cache # what apt-get downloaded, for the next run

step "programs, files"
unshare --mount --propagation private env ROOT="$root" bash -euo pipefail -c '
  mount -t proc proc "$ROOT/proc"
  mount --rbind /dev "$ROOT/dev"
  inroot() { chroot "$ROOT" env -i PATH=/usr/bin:/bin "$@"; }
  inroot lizard-local --version
  inroot lizard-desktop --version
  inroot lizard-local --help | head -n 1
  inroot lizard-desktop --help | head -n 1
  for f in /usr/bin/lizard-agent /usr/lib/lizard-desktop/lizard_preview.so \
           /usr/share/man/man1/lizard-desktop.1.gz /usr/share/man/man1/lizard-local.1.gz \
           /usr/lib/systemd/user/lizard-local.service /usr/share/applications/build.lizard.LizardDesktop.desktop \
           /usr/share/metainfo/build.lizard.LizardDesktop.metainfo.xml /usr/share/icons/hicolor/scalable/apps/lizard-desktop.svg \
           /usr/share/icons/hicolor/48x48/apps/lizard-desktop.png /usr/share/doc/lizard-desktop/copyright; do
    [[ -e $ROOT$f ]] || { echo "missing in the package: $f" >&2; exit 1; }
  done
  # Every library the app, the server and the preview plugin link is there after the install.
  if inroot ldd /usr/bin/lizard-desktop /usr/bin/lizard-local /usr/bin/lizard-agent \
        /usr/lib/lizard-desktop/lizard_preview.so | grep "not found"; then exit 1; fi
  echo "all libraries found"
  # The AppArmor profiles: shipped as a conffile; the postinst, run above without AppArmor in
  # this root, loaded nothing and failed nothing.
  # (grep without -q: it reads the whole list, so dpkg gets no SIGPIPE to fail the pipe with)
  inroot dpkg -L lizard-desktop | grep -x /etc/apparmor.d/lizard-agent >/dev/null ||
    { echo "dpkg -L does not list /etc/apparmor.d/lizard-agent" >&2; exit 1; }
  grep -qx /etc/apparmor.d/lizard-agent "$ROOT/var/lib/dpkg/info/lizard-desktop.conffiles" ||
    { echo "/etc/apparmor.d/lizard-agent is not a conffile" >&2; exit 1; }
  echo "AppArmor profile installed as a conffile: /etc/apparmor.d/lizard-agent"
'

step "lizard-local as an ordinary user, as the systemd user unit starts it"
# The unit's ExecStart, word for word: the test runs what the unit runs.
exec_start=$(sed -n 's/^ExecStart=//p' "$root/usr/lib/systemd/user/lizard-local.service")
[[ -n $exec_start ]] || { echo "test-package: the unit has no ExecStart" >&2; exit 1; }
chroot "$root" useradd --create-home --shell /bin/bash newcomer
# A network namespace of its own: port 7411 (the unit's default) is free whatever the host runs.
unshare --mount --net --propagation private env ROOT="$root" EXEC_START="$exec_start" bash -euo pipefail -c '
  ip link set lo up
  mount -t proc proc "$ROOT/proc"
  mount --rbind /dev "$ROOT/dev"
  mount -t tmpfs tmpfs "$ROOT/run"
  chroot --userspec=newcomer:newcomer "$ROOT" env -i HOME=/home/newcomer PATH=/usr/bin:/bin \
    $EXEC_START >"$ROOT/tmp/lizard-local.log" 2>&1 &
  pid=$!
  info=$ROOT/home/newcomer/.local/share/lizard-local/server.json # where lizard-desktop looks
  for _ in $(seq 600); do
    [[ -s $info ]] && break
    kill -0 $pid 2>/dev/null || { echo "lizard-local exited:"; cat "$ROOT/tmp/lizard-local.log"; exit 1; }
    sleep 0.1
  done
  [[ -s $info ]] || { echo "no server.json after 60 s:"; cat "$ROOT/tmp/lizard-local.log"; exit 1; }
  cat "$ROOT/tmp/lizard-local.log"
  grep -q "interpreter template yes" "$ROOT/tmp/lizard-local.log" || { echo "the interpreter template is not usable"; exit 1; }
  chroot --userspec=newcomer:newcomer "$ROOT" env -i HOME=/home/newcomer /usr/bin/python3 -c "
import json, urllib.request, urllib.error
info = json.load(open(\"/home/newcomer/.local/share/lizard-local/server.json\"))
key = open(info[\"keyFile\"]).read().strip()
try:
    urllib.request.urlopen(info[\"url\"] + \"/api/projects\")
    raise SystemExit(\"/api/projects answered without a key\")
except urllib.error.HTTPError as e:
    assert e.code == 401, e.code
with urllib.request.urlopen(urllib.request.Request(info[\"url\"] + \"/api/projects\", headers={\"X-API-Key\": key})) as r:
    body = json.load(r)
names = [p.get(\"name\") for p in (body if isinstance(body, list) else body.get(\"projects\", body.get(\"items\", [])))]
assert \"default\" in names, body
print(\"GET\", info[\"url\"] + \"/api/projects\", \"->\", r.status, names, \"(401 without the key)\")
"
  kill -TERM $pid
  rc=0; wait $pid || rc=$?
  [[ $rc -eq 0 ]] || { echo "lizard-local exited with $rc on SIGTERM:"; tail -n 20 "$ROOT/tmp/lizard-local.log"; exit 1; }
  [[ ! -e $info ]] || { echo "server.json left behind after a clean stop"; exit 1; }
  echo "lizard-local stopped cleanly (status 0, server.json removed)"
'
step "passed"
