#!/usr/bin/env bash
# Installs the Debian 12 packages lizard-desktop and lizard-local need to build, run and test.
# Idempotent and quick when everything is already there. Uses sudo when not root.
#   scripts/install-deps.sh [--build-only]
set -euo pipefail

# What configuring and compiling need (`--build-only` installs just these, so that CI can start
# compiling while the rest is installed).
BUILD_PKGS=(
  # toolchain
  build-essential cmake ninja-build pkg-config
  # faster builds: mold links, ccache serves a rebuild of the same sources; clang-format (CI)
  mold ccache clang-format
  # desktop app
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev qt6-webengine-dev qtkeychain-qt6-dev libgl-dev
  # the Terminal tab's emulator (libvterm)
  libvterm-dev
  libcurl4-openssl-dev nlohmann-json3-dev
  # server
  libboost1.81-dev libboost-program-options1.81-dev libsqlite3-dev libssl-dev libseccomp-dev
  # the code runner's bundle is made by python3; man pages by scdoc
  python3 scdoc
)
PKGS=(
  "${BUILD_PKGS[@]}"
  # what the Terminal tab's tests run in a sandbox's terminal
  vim htop tmux less fonts-dejavu-core
  # tst_unifieddiff applies the Changes tab's patches with GNU patch
  patch
  # server
  uidmap slirp4netns iproute2 procps util-linux bubblewrap
  e2fsprogs # mkfs.ext4: size-enforced volumes and sandbox disks (lizard-local as root)
  # sandbox templates (base: python3; interpreter: Jupyter stack)
  python3-pip python3-ipykernel python3-jupyter-client python3-numpy python3-pandas
  python3-matplotlib python3-dill python3-nbformat python3-plotly
  # the code runner's Python tests and lint (CTest runner_pytest, runner_pyflakes)
  python3-pytest pyflakes3
  # the desktop template (Xvfb is below): window manager, browser, input, screenshots, the stream
  openbox chromium xdotool scrot x11vnc novnc python3-websockify
  # UI tests and screenshots; tst_desktopcolorscheme runs a private D-Bus with a test portal
  # (dbus-daemon: about 0.2 MB to download, 0.6 MB installed; every desktop has it already)
  xvfb xauth dbus-daemon
  # the TLS tests make their CA and certificates with it (tst_tls; nginx: below)
  openssl
  # SSH hosts: the app runs Debian's ssh client; tst_sshtunnel and tst_sshhostui run an sshd of
  # their own in a network namespace (the service Debian starts on install: below)
  openssh-client openssh-server
  # fuzzers and sanitizer builds (make fuzz, make test-asan): clang, its sanitizer and
  # libFuzzer runtimes, and llvm-symbolizer for readable reports
  clang-14 libclang-rt-14-dev llvm-14
  # `make package` (man pages, CPack, validators) and its install test in a clean Debian root
  file lintian desktop-file-utils appstream mmdebstrap
)
build_only=0
if [[ ${1:-} == --build-only ]]; then
  build_only=1
  PKGS=("${BUILD_PKGS[@]}")
fi

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
nginx_missing=0
sshd_missing=0
[[ " ${missing[*]} " == *" openssh-server "* ]] && sshd_missing=1
if ((!build_only)); then
  # node and npm: the interpreter template and the SDK compatibility suite need them.
  # Keep an existing installation (for example NodeSource's, which bundles npm).
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
  # The TLS tests run nginx as an HTTP/2 terminator in front of a lizard-local (tst_tls). Any
  # Debian nginx flavour has what they need: an existing one is kept (installing nginx-light
  # would replace nginx-full).
  command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || { nginx_missing=1; missing+=(nginx-light); }
fi

if ((${#missing[@]} == 0)); then
  echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
[[ $(id -u) -eq 0 ]] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# The package lists, unless an update in the last half hour fetched them (the build's packages
# and the rest are installed one after the other in CI).
if [[ -z $(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -newermt '-30 minutes' 2>/dev/null | head -1) ]]; then
  $SUDO apt-get update -q
fi
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
# Debian starts the nginx service it installs (a web server on port 80); the tests start their
# own nginx as a child process and need no service: one installed here is stopped and disabled.
if ((nginx_missing)) && [[ -d /run/systemd/system ]]; then
  $SUDO systemctl disable --now nginx.service >/dev/null 2>&1 || true
fi
# The same for the SSH server: installed for the tests, it must not open this computer to logins.
if ((sshd_missing)) && [[ -d /run/systemd/system ]]; then
  $SUDO systemctl disable --now ssh.service ssh.socket >/dev/null 2>&1 || true
fi
