# Run by lizard-desktop on an SSH host (app/ssh/sshtunnel.cpp), as `sh -s` with this text on its
# standard input: finds the lizard-local that runs for this user there, or starts it (its systemd
# user unit when installed, else the binary in the background, in a session of its own so that it
# outlives the SSH connection as it outlives the app on a desktop), then prints its server.json
# and its API key between marker lines. The key goes only to standard output, which is the SSH
# channel: it is never written anywhere else and never on a command line.
# Exit status: 0 found or started; 3 no lizard-local on this host; 4 it did not start.
set -u
data="${XDG_DATA_HOME:-$HOME/.local/share}/lizard-local"
log="${XDG_CACHE_HOME:-$HOME/.cache}/lizard-desktop/lizard-local.log"

running() {
    [ -r "$data/server.json" ] || return 1
    pid=$(sed -n 's/.*"pid": *\([0-9][0-9]*\).*/\1/p' "$data/server.json")
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ -r "$data/api-key" ]
}

report() {
    echo "LIZARD-HOW $1"
    echo "LIZARD-SERVER-JSON"
    cat "$data/server.json"
    echo "LIZARD-API-KEY"
    cat "$data/api-key"
    echo
    echo "LIZARD-END"
}

if running; then
    report running
    exit 0
fi

how=""
if command -v systemctl >/dev/null 2>&1 &&
    systemctl --user cat lizard-local.service >/dev/null 2>&1; then
    systemctl --user start lizard-local.service && how="unit"
fi
if [ -z "$how" ]; then
    bin=$(command -v lizard-local 2>/dev/null || true)
    for candidate in "$HOME/.local/bin/lizard-local" /usr/bin/lizard-local; do
        if [ -z "$bin" ] && [ -x "$candidate" ]; then
            bin="$candidate"
        fi
    done
    if [ -z "$bin" ]; then
        echo "lizard-local is not installed on this host (not on PATH, in ~/.local/bin or" \
            "/usr/bin): install the lizard-desktop package there" >&2
        exit 3
    fi
    mkdir -p "$data" "$(dirname "$log")"
    chmod 700 "$data"
    # A free port rather than 7411: on a shared server another user's lizard-local may hold that
    # one. server.json says which, for the app and for the SDK on the host.
    if command -v setsid >/dev/null 2>&1; then
        setsid "$bin" --port 0 --data-dir "$data" </dev/null >"$log" 2>&1 &
    else
        nohup "$bin" --port 0 --data-dir "$data" </dev/null >"$log" 2>&1 &
    fi
    how="started"
fi

# 90 s, as the app waits for a local start.
i=0
while [ "$i" -lt 900 ]; do
    if running; then
        report "$how"
        exit 0
    fi
    sleep 0.1
    i=$((i + 1))
done
echo "lizard-local did not start on this host; the end of $log:" >&2
tail -n 8 "$log" >&2 2>/dev/null
exit 4
