# The protocol's fixed parts: names, limits, the error that becomes a "fatal" event, and the
# writer of event lines (resources/runner/PROTOCOL.md).
import json
import os
import re
import sys
import threading
from typing import Any, Dict, List, Optional

# The runner's own version, in this one place: the app reads it from the embedded artefact (Help >
# About). Raise it with any change of behaviour or protocol, or of the artefact.
VERSION = "1.5.1"
ROOT = os.environ.get("LIZARD_CODE_ROOT") or "/tmp/.lizard-code"
LANGS = {"python": "python3", "javascript": "node", "bash": "bash"}
ALIASES = {"py": "python", "python3": "python", "js": "javascript", "node": "javascript", "sh": "bash"}
BEST = ("image/png", "image/jpeg", "image/svg+xml", "text/html", "text/markdown", "application/json",
        "text/latex", "text/plain")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
REQUEST_NAME = re.compile(r"^req-[A-Za-z0-9_-]{1,96}\.json$")
PART = 24000            # events longer than this are split into "part" lines (as the SDK expects)
OUT_LOCK = threading.Lock()
STOP = threading.Event()  # serve mode: set when stdout is gone or on shutdown

Event = Dict[str, Any]
Args = Dict[str, Any]


class RunnerError(Exception):
    """A request that cannot be carried out; reported as a "fatal" event."""


def event_lines(ev: Event, req: Optional[str] = None) -> List[str]:
    """The JSON lines of one event: itself, or "part" pieces when it is longer than PART."""
    if req is not None:
        ev = dict(ev, req=req)
    s = json.dumps(ev)
    if len(s) <= PART:
        return [s]
    n = (len(s) + PART - 1) // PART
    lines = []
    for i in range(n):
        p = {"type": "part", "data": s[i * PART:(i + 1) * PART], "end": i == n - 1}
        if req is not None:
            p["req"] = req
        lines.append(json.dumps(p))
    return lines


class Out:
    """Writes events as JSON lines; in serve mode every line carries the request id."""

    def __init__(self, req: Optional[str] = None):
        self.req = req

    def __call__(self, ev: Event) -> None:
        data = ("\n".join(event_lines(ev, self.req)) + "\n").encode("ascii")
        with OUT_LOCK:
            try:
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()
            except (OSError, ValueError):
                STOP.set()  # the reader is gone; serve mode winds down


def check_id(cid: Any) -> str:
    if not isinstance(cid, str) or not SAFE_ID.match(cid):
        raise RunnerError("invalid context id %r (letters, digits, '_', '-', '.'; not starting with '.')" % (cid,))
    return cid


def language_of(a: Args) -> str:
    lang = a.get("language") or "python"
    if not isinstance(lang, str):
        raise RunnerError("language must be a string")
    lang = ALIASES.get(lang.lower(), lang.lower())
    if lang not in LANGS:
        raise RunnerError("unsupported language %r; use python, javascript or bash" % lang)
    return lang


def arg_timeout(a: Args) -> float:
    t = a.get("timeout")
    if t is None:
        return 60.0
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not t > 0:
        raise RunnerError("timeout must be a positive number of seconds")
    return float(t)


def timeout_or(a: Args, default: float) -> float:
    """The request's timeout, `default` when it has none (or 0)."""
    return arg_timeout({"timeout": a.get("timeout") or default})
