# complete and inspect: the live kernel's complete_reply / inspect_reply.
from typing import TYPE_CHECKING, Any, Dict, Optional

from .contexts import Context
from .kernelio import shell_reply
from .kernels import live_kernel
from .protocol import ANSI, Args, Event, Out, RunnerError, timeout_or

if TYPE_CHECKING:
    from .slot import KernelSlot


def empty_answer(complete: bool, pos: int) -> Event:
    if complete:
        return {"type": "ok", "matches": [], "cursor_start": pos, "cursor_end": pos, "types": []}
    return {"type": "ok", "found": False, "text": "", "text_ansi": ""}


def completion(c: Dict[str, Any], pos: int) -> Event:
    types = (c.get("metadata") or {}).get("_jupyter_types_experimental") or []
    return {"type": "ok", "kernel": True, "matches": [x for x in c.get("matches") or [] if isinstance(x, str)],
            "cursor_start": c.get("cursor_start", pos), "cursor_end": c.get("cursor_end", pos),
            "types": [{"text": t.get("text", ""), "type": t.get("type") or "", "signature": t.get("signature") or "",
                       "start": t.get("start"), "end": t.get("end")} for t in types if isinstance(t, dict)]}


def help_text(c: Dict[str, Any]) -> Event:
    text = (c.get("data") or {}).get("text/plain", "") if c.get("found") else ""
    return {"type": "ok", "kernel": True, "found": bool(text), "text": ANSI.sub("", text), "text_ansi": text}


def kernel_query(m: Optional[Context], a: Args, slot: "KernelSlot", out: Out) -> None:
    """complete / inspect: the kernel's answer for `code` at `cursor_pos` (code points). Without a
    live kernel (nothing ran yet, or not Python) the answer is empty: a Tab never starts a kernel."""
    code, pos = a.get("code"), a.get("cursor_pos")
    if not isinstance(code, str):
        raise RunnerError("code must be a string")
    if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos <= len(code):
        raise RunnerError("cursor_pos must be an index into code")
    timeout = timeout_or(a, 10)
    complete = a["action"] == "complete"
    if not live_kernel(m):
        out(dict(empty_answer(complete, pos), kernel=False))
        return
    kc = slot.get(m, out)
    msg_id = kc.complete(code, pos) if complete else kc.inspect(code, pos, detail_level=0)
    reply = shell_reply(kc, msg_id, timeout, slot.pid)
    if reply is None:
        raise RunnerError("the kernel did not answer within %gs (busy?)" % timeout)
    c = reply.get("content") or {}
    if c.get("status") != "ok":
        out(dict(empty_answer(complete, pos), kernel=True))
    elif complete:
        out(completion(c, pos))
    else:
        out(help_text(c))
