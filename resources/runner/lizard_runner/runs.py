# Running a Python cell in the context's kernel: iopub messages turned into events, timeouts,
# a kernel that dies, per-run environment variables.
import json
import os
import queue
import signal
import time
from typing import TYPE_CHECKING, Any, Dict, Optional

from .contexts import Context
from .kernelio import Message, shell_reply, silent
from .kernels import how_it_ended, kernel_alive, oom_kills
from .protocol import ANSI, BEST, Event, Out

if TYPE_CHECKING:
    from .slot import KernelSlot

# Per-run variables: set before the cell, restored after it, leaving no names behind but _lz_saved
# (between the two) in the user's namespace.
SET_ENVS = ("_lz_saved = (lambda os, new: ({k: os.environ.get(k) for k in new}, os.environ.update(new))[0])"
            "(__import__('os'), __import__('json').loads(%r))")
RESTORE_ENVS = ("(lambda os, saved: [os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)"
                " for k, v in saved.items()])(__import__('os'), _lz_saved)\ndel _lz_saved")


def bundle_of(c: Dict[str, Any]) -> Dict[str, str]:
    data = c.get("data") or {}
    return {k: (v if isinstance(v, str) else json.dumps(v)) for k, v in data.items()}


def result_event(t: str, c: Dict[str, Any]) -> Optional[Event]:
    bundle = bundle_of(c)
    if not bundle:
        return None
    mime = next((k for k in BEST if k in bundle), next(iter(bundle)))
    ev = {"type": "result" if t != "update_display_data" else "update_display", "mime": mime,
          "data": bundle[mime], "bundle": bundle, "display": t != "execute_result"}
    if t == "execute_result":
        ev["execution_count"] = c.get("execution_count")
    if c.get("metadata"):
        ev["metadata"] = c["metadata"]
    display_id = (c.get("transient") or {}).get("display_id")
    if display_id:
        ev["display_id"] = display_id
    return ev


def translate(msg: Message, out: Out) -> bool:
    """Turns one iopub message of our execution into events; True when the kernel went idle."""
    t, c = msg["msg_type"], msg["content"]
    if t == "stream":
        out({"type": "stderr" if c.get("name") == "stderr" else "stdout", "data": c.get("text", "")})
    elif t in ("execute_result", "display_data", "update_display_data"):
        ev = result_event(t, c)
        if ev:
            out(ev)
    elif t == "clear_output":
        out({"type": "clear_output", "wait": bool(c.get("wait"))})
    elif t == "error":
        tb = "\n".join(c.get("traceback", []))
        out({"type": "error", "name": c.get("ename", "Error"), "message": c.get("evalue", ""),
             "traceback": ANSI.sub("", tb), "traceback_ansi": tb})
    elif t == "status" and c.get("execution_state") == "idle":
        return True
    return False


def run_python(m: Context, code: str, envs: Dict[str, str], timeout: float, slot: "KernelSlot", out: Out) -> None:
    kc = slot.get(m, out)
    pid = slot.pid
    if envs:
        silent(kc, SET_ENVS % json.dumps(envs), pid)
    # stop_on_error=False: our requests are already one at a time; with True, ipykernel would abort
    # a request that arrives just after a failed cell.
    oom_before = oom_kills()
    msg_id = kc.execute(code, store_history=True, allow_stdin=False, stop_on_error=False)
    end = time.time() + timeout
    state = "running"
    while state == "running":
        left = end - time.time()
        if left <= 0:
            state = "timeout"
            break
        try:
            msg = kc.get_iopub_msg(timeout=min(left, 0.25))
        except queue.Empty:
            if not kernel_alive(pid):
                state = "died"
            continue
        if msg["parent_header"].get("msg_id") == msg_id and translate(msg, out):
            state = "idle"
    if state == "died":
        slot.drop()
        out({"type": "error", "name": "KernelDied", "traceback": "",
             "message": "the kernel died (%s); the next run starts a fresh kernel" % how_it_ended(m, pid, oom_before)})
        out({"type": "done", "execution_count": 0})
        return
    if state == "timeout":
        # Interrupt, then let the cell unwind so the kernel is free (and keeps its state).
        idle = interrupt_and_drain(kc, msg_id, pid, out)
        out({"type": "error", "name": "TimeoutError", "traceback": "",
             "message": "execution timed out after %gs; the kernel was interrupted%s" %
                        (timeout, " and keeps its state" if idle else " but is still busy")})
        if not idle:
            out({"type": "done", "execution_count": 0})
            return
    reply = (shell_reply(kc, msg_id, 10, pid) or {}).get("content") or {}
    if reply.get("status") == "aborted":  # another client's failed cell made the kernel skip ours
        out({"type": "error", "name": "ExecutionAborted", "traceback": "",
             "message": "the kernel skipped this cell because a cell before it failed"})
    count = reply.get("execution_count") or 0
    if envs:
        silent(kc, RESTORE_ENVS, pid)
    out({"type": "done", "execution_count": count})


def interrupt_and_drain(kc: Any, msg_id: str, pid: int, out: Out) -> bool:
    try:
        os.kill(pid, signal.SIGINT)
    except OSError:
        return False
    end = time.time() + 5
    while time.time() < end:
        try:
            msg = kc.get_iopub_msg(timeout=0.25)
        except queue.Empty:
            if not kernel_alive(pid):
                return False
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "error" and msg["content"].get("ename") == "KeyboardInterrupt":
            continue  # reported as TimeoutError instead
        if translate(msg, out):
            return True
    return False
