# Saving and loading a context's variables (dill, in the kernel), and loading them into a fresh
# kernel after a fork or a restored snapshot (PROTOCOL.md, "Variables across a fork").
import json
import os
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from . import kernelside
from .contexts import Context, has_kernel
from .kernelio import execute_silently, expression_json, shell_reply
from .kernels import pid_ns
from .protocol import Args, Out, RunnerError

if TYPE_CHECKING:
    from .slot import KernelSlot

CALL = "try:\n    _lz_r = _lz_variables(%r, %r, %r, %r)\nfinally:\n    del _lz_variables, _lz_kind\n"


def check_request(m: Context, a: Args) -> None:
    if m.language != "python" or not has_kernel():
        raise RunnerError("variables can be saved and loaded only in python contexts with a kernel")
    path, names = a.get("path"), a.get("names")
    if not isinstance(path, str) or not path.startswith("/"):
        raise RunnerError("path must be an absolute path")
    if names is not None and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        raise RunnerError("names must be a list of variable names")


def save_or_load(m: Context, a: Args, slot: "KernelSlot", out: Out) -> None:
    """save_variables / load_variables {context, path, names?}: answers ok, or fatal."""
    check_request(m, a)
    action = "load" if a["action"] == "load_variables" else "save"
    kc = slot.get(m, out)
    out(dict(kernel_variables(kc, slot.pid, action, a["path"], a.get("names")), type="ok"))


def kernel_variables(kc: Any, pid: int, action: str, path: str, names: Optional[List[str]],
                     timeout: float = 300, strict: bool = False) -> Dict[str, Any]:
    """Runs the save or load in the kernel; its answer ({saved, skipped} or {loaded}). strict
    (save_all) also skips modules, open files, sockets and generators, which dill could save but
    which would not mean the same in another sandbox."""
    code = kernelside.source("variables") + CALL % (action, path, names, strict)
    msg_id = execute_silently(kc, code, "globals().pop('_lz_r')")
    reply = (shell_reply(kc, msg_id, timeout, pid) or {}).get("content") or {}
    if reply.get("status") != "ok":
        raise RunnerError("cannot %s variables: %s: %s" % (action, reply.get("ename", "no answer from the kernel"),
                                                           reply.get("evalue", "")))
    return expression_json((reply.get("user_expressions") or {}).get("r") or {})


def saved_info(m: Context) -> Dict[str, Any]:
    try:
        with open(m.path("variables.json")) as f:
            info = json.load(f)
        return info if isinstance(info, dict) else {}
    except (OSError, ValueError):
        return {}


def restore_saved(m: Context, slot: "KernelSlot", out: Out) -> None:
    """A fresh kernel in a context whose variables were saved in another sandbox (a fork, a
    restored snapshot) or another context (a copied directory) loads them, once, and says so.
    A kernel that dies and restarts where the save was made does not: that would silently bring
    back an old state."""
    path = m.path("variables.dill")
    if not os.path.exists(path):
        return
    info = saved_info(m)
    if info.get("context") == m.id and info.get("pidns") == pid_ns():
        return
    try:
        loaded = kernel_variables(slot.kc, slot.pid, "load", path, None).get("loaded", [])
        msg = "variables saved before the fork or snapshot came along: %s" % (", ".join(loaded) or "none")
    except RunnerError as e:
        loaded, msg = [], "variables saved before the fork or snapshot could not be loaded (%s)" % e
    skipped = [s for s in info.get("skipped", []) if isinstance(s, dict)]
    if skipped:
        msg += "; not saved: " + "; ".join("%s (%s)" % (s.get("name"), s.get("reason")) for s in skipped)
    try:
        os.replace(path, m.path("variables.loaded.dill"))
    except OSError:
        pass
    out({"type": "notice", "message": msg, "loaded": loaded, "skipped": skipped})
