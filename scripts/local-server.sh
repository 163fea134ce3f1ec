#!/usr/bin/env bash
# Sourced by bench.sh and soak.sh: a lizard-local of their own on a free loopback port.
#   local_server_start NAME BIN DATA LOG [ARGS...]
#                                          starts it (ARGS: more options), waits for its URL and key file (60 s: the
#                                          first start builds the sandbox templates); sets
#                                          server (pid), url and key; exits 1 with its output
#                                          if it does not come up.
#   local_server_stop                      deletes its sandboxes (they outlive a stopped
#                                          server by design), then SIGTERM, SIGKILL after 15 s.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  echo "local-server.sh is sourced by bench.sh and soak.sh, not run" >&2
  exit 2
fi

server="" url="" key=""

local_server_start() {
  local name=$1 bin=$2 data=$3 log=$4 keyfile=""
  shift 4
  "$bin/lizard-local" --port 0 --data-dir "$data" "$@" >"$log" 2>&1 &
  server=$!
  for _ in $(seq 600); do
    url=$(grep -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$log" | head -n1 | sed 's/^listening on //') || true
    keyfile=$(grep -oE 'key file: [^[:space:]]+' "$log" | head -n1 | sed 's/^key file: //') || true
    [[ -n $url && -n $keyfile && -s $keyfile ]] && break
    if ! kill -0 "$server" 2>/dev/null; then
      echo "$name: lizard-local exited; its output:" >&2
      cat "$log" >&2
      exit 1
    fi
    sleep 0.1
  done
  if [[ -z $url || -z $keyfile || ! -s $keyfile ]]; then
    echo "$name: lizard-local did not report its URL and key file within 60 s; its output:" >&2
    cat "$log" >&2
    exit 1
  fi
  key=$(<"$keyfile")
}

local_server_delete_sandboxes() {
  local ids id
  ids=$(curl -fsS -H "X-API-Key: $key" "$url/api/sandboxes" 2>/dev/null |
    python3 -c 'import json,sys; print("\n".join(s["sandboxId"] for s in json.load(sys.stdin)))' 2>/dev/null) || return 0
  for id in $ids; do
    curl -fsS -o /dev/null -X DELETE -H "X-API-Key: $key" "$url/api/sandboxes/$id" || true
  done
}

local_server_stop() {
  [[ -n $server ]] || return 0
  if [[ -n $url && -n $key ]]; then local_server_delete_sandboxes; fi
  if kill -0 "$server" 2>/dev/null; then
    kill -TERM "$server"
    for _ in $(seq 150); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server" 2>/dev/null || true
  fi
  wait "$server" 2>/dev/null || true
}
