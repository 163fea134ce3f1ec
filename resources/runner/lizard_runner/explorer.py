# The variable explorer: list_variables, computed by kernelside/listing.py in the live kernel.
import ast
import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from . import kernelside
from .contexts import Context
from .kernelio import execute_silently, shell_reply
from .kernels import live_kernel
from .protocol import VERSION, Args, Event, Out, RunnerError, timeout_or

if TYPE_CHECKING:
    from .slot import KernelSlot

VARIABLE_COLUMNS = ("name", "type", "shape", "size", "preview")
# Per version: a kernel that an older runner set up keeps that runner's function under its name.
LISTING_KEY = "_lizard_listing_" + VERSION.replace(".", "_")
LISTING_CALL = ("if not hasattr(get_ipython(), %r):\n"
                "    exec(%r, globals())\n"
                "    setattr(get_ipython(), %r, globals().pop('_lz_listing'))\n"
                "_lz_r = getattr(get_ipython(), %r)(%r, %d)\n")


def listing_answer(rows: List[Dict[str, Any]], name: Optional[str]) -> Event:
    # Rows as arrays, not objects: 200 variables then fit one event line (under PART), and a
    # line split into parts costs the reader more than the listing itself.
    answer = {"type": "ok", "kernel": True, "columns": list(VARIABLE_COLUMNS),
              "variables": [[row[c] for c in VARIABLE_COLUMNS] for row in rows]}
    if name is not None and rows:
        answer["repr"] = rows[0].get("repr", "")
    return answer


def list_user_variables(m: Optional[Context], a: Args, slot: "KernelSlot", out: Out) -> None:
    """list_variables {context, name?}: the user's variables as rows {name, type, shape, size,
    preview}; with name, that one variable with its full repr (capped). Never starts a kernel."""
    name = a.get("name")
    if name is not None and not (isinstance(name, str) and name.isidentifier()):
        raise RunnerError("name must be a Python identifier")
    if not live_kernel(m):
        out({"type": "ok", "kernel": False, "columns": list(VARIABLE_COLUMNS), "variables": []})
        return
    timeout = timeout_or(a, 10)
    limit = 200000 if name is not None else 80
    # The function is compiled once per kernel and kept on the shell object, out of the user's
    # namespace: compiling it in every request cost more than listing 200 variables.
    code = LISTING_CALL % (LISTING_KEY, kernelside.source("listing"), LISTING_KEY, LISTING_KEY, name, limit)
    kc = slot.get(m, out)
    msg_id = execute_silently(kc, code, "globals().pop('_lz_r')")
    reply = shell_reply(kc, msg_id, timeout, slot.pid)
    if reply is None:
        raise RunnerError("the kernel did not answer within %gs (busy?)" % timeout)
    c = reply.get("content") or {}
    r = (c.get("user_expressions") or {}).get("r") or {}
    if c.get("status") != "ok" or r.get("status") != "ok":
        raise RunnerError("cannot list variables: %s: %s" % (c.get("ename") or r.get("ename") or "error",
                                                              c.get("evalue") or r.get("evalue") or ""))
    out(listing_answer(json.loads(ast.literal_eval(r["data"]["text/plain"])), name))
