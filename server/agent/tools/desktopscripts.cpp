#include "agent/tools/desktopscripts.h"

namespace lizard::agent {

namespace {

// `lizard-desktop`: the SDK's `desktop.screenshot()` runs `lizard-desktop screenshot --path`;
// lizard-local's /desktop routes run start, stop and status (server/api/desktoproutes.cpp).
// Ports inside the sandbox: x11vnc 5900 (full control) and 5901 (view-only), both on loopback
// only; websockify with noVNC's page on 6080 and 6081, reached through the port proxy.
const char* const kLizardDesktop = R"SH(
#!/bin/sh
# lizard-desktop: the desktop template's own command (only its /usr/local has it).
#   lizard-desktop screenshot --path     saves a PNG of the display and prints its path
#   lizard-desktop start WIDTH HEIGHT    Xvfb, openbox and both streams (lizard-local runs it
#                                        with LIZARD_DESKTOP_PASSWORD/_VIEW_PASSWORD set)
#   lizard-desktop stop | status         status prints "running|stopped WIDTH HEIGHT"
set -u
display=${DISPLAY:-:1}
num=${display#:}
state=/tmp/.lizard-desktop
# Every process of the desktop, with what its command line must contain: a pid file copied by
# a fork or a snapshot may name a process of the copy that is something else.
procs="xvfb:Xvfb openbox:openbox vnc:x11vnc vncview:x11vnc web:websockify webview:websockify"

alive() { # name pattern
    pid=$(cat "$state/$1.pid" 2>/dev/null) || return 1
    [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$2"
}

all_alive() {
    for p in $procs; do alive "${p%%:*}" "${p#*:}" || return 1; done
}

status() {
    size=$(cat "$state/size" 2>/dev/null || echo "- -")
    if all_alive; then echo "running $size"; else echo "stopped $size"; fi
}

stop() {
    pids=
    for p in $procs; do
        alive "${p%%:*}" "${p#*:}" && pids="$pids $pid"
        rm -f "$state/${p%%:*}.pid"
    done
    [ -n "$pids" ] && kill $pids 2>/dev/null
    for _ in $(seq 50); do
        left=
        for pid in $pids; do [ -d "/proc/$pid" ] && left="$left $pid"; done
        [ -z "$left" ] && break
        sleep 0.1
    done
    [ -n "${left:-}" ] && kill -9 $left 2>/dev/null
    # Xvfb's lock and socket of a display that is no longer there (also those a copy inherits).
    rm -f "/tmp/.X$num-lock" "/tmp/.X11-unix/X$num"
    return 0
}

spawn() { # name command...
    name=$1
    shift
    setsid "$@" >"$state/$name.log" 2>&1 </dev/null 9>&- &
    echo $! >"$state/$name.pid"
}

wait_for() { # what test...
    what=$1
    shift
    for _ in $(seq 100); do
        "$@" && return 0
        sleep 0.1
    done
    echo "lizard-desktop: $what did not start" >&2
    stop
    exit 1
}

listening() { # port: a TCP socket listening on it (state 0A)
    hex=$(printf '%04X' "$1")
    grep -q ":$hex [0-9A-F:]* 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

start() {
    if all_alive; then status; return 0; fi
    stop
    mkdir -p -m 700 "$state"
    echo "$1 $2" >"$state/size"
    (umask 077 && printf '%s\n' "${LIZARD_DESKTOP_PASSWORD:?}" >"$state/full.pass" &&
        printf '%s\n' "${LIZARD_DESKTOP_VIEW_PASSWORD:?}" >"$state/view.pass") || exit 1
    mkdir -p -m 1777 /tmp/.X11-unix
    spawn xvfb Xvfb "$display" -screen 0 "${1}x${2}x24" -nolisten tcp -nolisten local
    wait_for Xvfb test -S "/tmp/.X11-unix/X$num"
    spawn openbox openbox
    # Two servers, so the view-only one refuses input by itself whatever its client sends.
    spawn vnc x11vnc -display "$display" -rfbport 5900 -localhost -forever -shared \
        -passwdfile "$state/full.pass"
    spawn vncview x11vnc -display "$display" -rfbport 5901 -localhost -forever -shared -viewonly \
        -passwdfile "$state/view.pass"
    spawn web websockify --web /usr/share/novnc 6080 127.0.0.1:5900
    spawn webview websockify --web /usr/share/novnc 6081 127.0.0.1:5901
    for port in 5900 5901 6080 6081; do wait_for "the stream on port $port" listening "$port"; done
    status
}

screenshot() {
    id=$(od -An -N9 -tx1 /dev/urandom | tr -d ' \n')
    path=/tmp/lizard-screenshot-$id.png
    scrot --display "$display" --overwrite "$path" >/dev/null || exit 1
    echo "$path"
}

# One start or stop at a time (two POSTs at once must not start two desktops).
locked() {
    exec 9>>/tmp/.lizard-desktop.lock && flock 9 && "$@"
}

case "${1:-} ${2:-}" in
"screenshot --path") screenshot ;;
"status ") status ;;
"stop ") locked stop ;;
start\ *) locked start "${2:?width}" "${3:?height}" ;;
*)
    echo "usage: lizard-desktop screenshot --path | start WIDTH HEIGHT | stop | status" >&2
    exit 2
    ;;
esac
)SH";

// Chromium on the sandbox's desktop, found before /usr/bin/chromium on PATH (the SDK's openUrl
// runs `chromium --new-window URL`). Its own sandbox is off: see server/api/DECISIONS.md.
// --test-type keeps the bar that warns of --no-sandbox off the page, and --start-maximized
// gives the page the whole screen: both would move what an agent clicks by coordinates.
const char* const kChromium = R"SH(
#!/bin/sh
exec /usr/bin/chromium --no-sandbox --test-type --start-maximized --no-first-run \
    --no-default-browser-check --password-store=basic --disable-dev-shm-usage "$@"
)SH";

} // namespace

const std::vector<DesktopTool>& desktopTools()
{
    // +1: the raw strings start with the newline after their opening delimiter.
    static const std::vector<DesktopTool> tools{{"lizard-desktop", kLizardDesktop + 1},
                                                {"chromium", kChromium + 1}};
    return tools;
}

} // namespace lizard::agent
