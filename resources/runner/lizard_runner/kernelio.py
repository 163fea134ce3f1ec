# Talking to a connected Jupyter kernel client: readiness, shell replies, silent requests.
import ast
import json
import queue
import time
from typing import Any, Dict, Optional

from .kernels import kernel_alive

Message = Dict[str, Any]


def wait_ready(kc: Any, pid: int, timeout: float = 30) -> None:
    # Ready = a kernel_info reply on shell AND its status message on iopub: the latter proves the
    # iopub subscription is live (zmq drops what is published before it), so no output is lost.
    # jupyter_client's wait_for_ready proves the same with fixed 0.2 s waits; this takes ~ms.
    end = time.time() + timeout
    while time.time() < end:
        msg_id = kc.kernel_info()
        if shell_reply(kc, msg_id, 2, pid) is None:
            if not kernel_alive(pid):
                raise RuntimeError("the kernel died while starting")
            continue
        until = time.time() + 0.5
        while time.time() < until:
            try:
                msg = kc.get_iopub_msg(timeout=max(0.01, until - time.time()))
            except queue.Empty:
                break
            if msg["parent_header"].get("msg_id") == msg_id:
                return
    raise RuntimeError("the kernel did not answer within %ds" % timeout)


def shell_reply(kc: Any, msg_id: str, timeout: float, pid: int = 0) -> Optional[Message]:
    end = time.time() + timeout
    while time.time() < end:
        try:
            r = kc.get_shell_msg(timeout=max(0.01, min(0.25, end - time.time())))
        except queue.Empty:
            if pid and not kernel_alive(pid):
                return None
            continue
        if r["parent_header"].get("msg_id") == msg_id:
            return r
    return None


def silent(kc: Any, code: str, pid: int) -> None:
    shell_reply(kc, kc.execute(code, silent=True, store_history=False, allow_stdin=False, stop_on_error=False), 10, pid)


def execute_silently(kc: Any, code: str, expression: str) -> str:
    """Sends code plus a user expression "r" without touching the execution count or history."""
    return kc.execute(code, silent=True, store_history=False, allow_stdin=False, stop_on_error=False,
                      user_expressions={"r": expression})


def expression_json(r: Dict[str, Any]) -> Any:
    """The value of a user expression that evaluated to JSON text: its text/plain is the repr of
    that string."""
    return json.loads(ast.literal_eval(r.get("data", {}).get("text/plain", "''")) or "{}")
