# The one-shot actions of PROTOCOL.md, as a table: which context each works on and who handles it.
import os
import shutil
import signal
from dataclasses import dataclass
from typing import Callable, Dict, Optional

from . import kernelside
from .contexts import (Context, ctx_dir, existing, has_kernel, list_contexts, load_context,
                       new_context)
from .explorer import list_user_variables
from .kernelio import shell_reply
from .kernels import signal_run, start_kernel, stop_kernel
from .process import run_process
from .protocol import ROOT, Args, Out, RunnerError, arg_timeout, check_id, language_of
from .query import kernel_query
from .runs import run_python
from .saveall import save_all
from .slot import KernelSlot
from .tables import table_for_variable, table_rows
from .variables import save_or_load

# How an action names its context: not at all, `context` (required), `context` or else the
# language's default context, or `id` (made up when missing) for a new one.
NONE, REQUIRED, DEFAULT, NEW = "none", "required", "default", "new"

Handler = Callable[[Args, Optional[str], KernelSlot, Out], None]


@dataclass(frozen=True)
class Action:
    handler: Handler
    context: str = NONE


def arg_code(a: Args) -> str:
    code = a.get("code")
    if code is None and a.get("codeFile") is not None:
        path = a["codeFile"]
        # Only the SDK's convention (ROOT/in-<id>): the runner deletes the file after reading it.
        if not isinstance(path, str) or os.path.dirname(path) != ROOT or not os.path.basename(path).startswith("in-"):
            raise RunnerError("codeFile must be %s/in-<id>" % ROOT)
        try:
            with open(path) as f:
                code = f.read()
            os.remove(path)
        except OSError as e:
            raise RunnerError("cannot read codeFile %s: %s" % (path, e.strerror))
    if not isinstance(code, str):
        raise RunnerError("code must be a string")
    return code


def arg_envs(a: Args) -> Dict[str, str]:
    envs = a.get("envs") or {}
    if not isinstance(envs, dict) or not all(isinstance(k, str) and isinstance(v, str) and k and "=" not in k
                                             and "\0" not in k + v for k, v in envs.items()):
        raise RunnerError("envs must map variable names to strings")
    return envs


def target_context(a: Args) -> Optional[str]:
    """The context id an action works on (None for list, save_all, shutdown and unknown ones)."""
    act = a.get("action")
    spec = ACTIONS.get(act) if isinstance(act, str) else None
    kind = spec.context if spec is not None else NONE
    if kind == DEFAULT and not a.get("context"):
        return "default-" + language_of(a)
    if kind == NEW:
        if a.get("id") is None:
            a["id"] = "ctx-" + os.urandom(8).hex()
        return check_id(a["id"])
    if kind in (REQUIRED, DEFAULT):
        return check_id(a.get("context"))
    return None


def named_or_default(a: Args, cid: str) -> Optional[Context]:
    """A named context must exist; a language's default one may not exist yet."""
    return load_context(cid) if not a.get("context") else existing(cid)


def do_list(a: Args, cid: Optional[str], slot: KernelSlot, out: Out) -> None:
    out({"type": "contexts", "data": list_contexts()})


def do_save_all(a: Args, cid: Optional[str], slot: KernelSlot, out: Out) -> None:
    save_all(out)


def do_create(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    lang = language_of(a)
    m = new_context(cid, lang, a.get("cwd"))
    if lang == "python" and has_kernel():
        slot.get(m, out)
    out(dict(m.public(), type="context"))


def do_delete(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    m = existing(cid)
    slot.drop()
    stop_kernel(m)
    signal_run(m, signal.SIGKILL)
    shutil.rmtree(ctx_dir(cid), ignore_errors=True)
    out({"type": "ok"})


def do_restart(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    m = existing(cid)
    slot.drop()
    if m.language == "python" and has_kernel():
        start_kernel(m)
        slot.get(m, out)
    m.extra["count"] = 0
    m.save()
    out({"type": "ok"})


def do_interrupt(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    out({"type": "ok", "interrupted": signal_run(existing(cid), signal.SIGINT)})


def do_variables(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    save_or_load(existing(cid), a, slot, out)


def do_query(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    kernel_query(named_or_default(a, cid), a, slot, out)


def do_table_rows(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    table_rows(existing(cid), a, slot, out)


def do_table_for_variable(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    table_for_variable(named_or_default(a, cid), a, slot, out)


def do_list_variables(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    list_user_variables(named_or_default(a, cid), a, slot, out)


def do_run(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    code, envs, timeout = arg_code(a), arg_envs(a), arg_timeout(a)
    m = named_or_default(a, cid)
    if m is None:
        m = new_context(cid, language_of(a), a.get("cwd"))
    if m.language == "python" and has_kernel():
        run_python(m, code, envs, timeout, slot, out)
    else:
        run_process(m, code, envs, timeout, out)


# The file lizard-local's agent writes a claimed warm copy's envs to (see do_prestart).
CLAIM_ENVS = "claim-envs.json"
PRESTART_TIMEOUT = 120


def do_prestart(a: Args, cid: str, slot: KernelSlot, out: Out) -> None:
    """A warm copy of the interpreter template, before its claim: the default Python context's
    kernel, started and warmed by kernelside/warmup.py. Always a fresh kernel, and no table
    formatter: the SDK's runner, which may be the first to use it, gets what a cold one starts."""
    if cid != "default-python":
        raise RunnerError("prestart is for the default Python context")
    if not has_kernel():
        raise RunnerError("this sandbox has no Jupyter kernel (ipykernel and jupyter_client)")
    m = load_context(cid) or new_context(cid, "python", None)
    start_kernel(m)
    slot.connect(m)
    code = kernelside.source("warmup") + "\nwarm(%r)\ndel warm\n" % m.path(CLAIM_ENVS)
    msg_id = slot.kc.execute(code, silent=True, store_history=False, allow_stdin=False)
    reply = shell_reply(slot.kc, msg_id, PRESTART_TIMEOUT, slot.pid)
    content = (reply or {}).get("content", {})
    if content.get("status") != "ok":
        stop_kernel(m)
        raise RunnerError("the kernel's warm-up failed: %s" % (
            "%s: %s" % (content.get("ename"), content.get("evalue")) if reply else "no answer"))
    out({"type": "ok", "kernelPid": slot.pid})


# `serve` (main) and `shutdown` (serve mode only) are not here: they are about the process itself.
ACTIONS: Dict[str, Action] = {
    "run": Action(do_run, DEFAULT),
    "create": Action(do_create, NEW),
    "list": Action(do_list),
    "restart": Action(do_restart, REQUIRED),
    "delete": Action(do_delete, REQUIRED),
    "interrupt": Action(do_interrupt, REQUIRED),
    "save_variables": Action(do_variables, REQUIRED),
    "load_variables": Action(do_variables, REQUIRED),
    "complete": Action(do_query, DEFAULT),
    "inspect": Action(do_query, DEFAULT),
    "list_variables": Action(do_list_variables, DEFAULT),
    "table_rows": Action(do_table_rows, REQUIRED),
    "table_for_variable": Action(do_table_for_variable, DEFAULT),
    "save_all": Action(do_save_all),
    "prestart": Action(do_prestart, DEFAULT),
}


def handle(a: Args, slot: KernelSlot, out: Out) -> None:
    """Carries out one action; ends with exactly one done/context/contexts/ok event (or raises)."""
    act = a.get("action")
    os.makedirs(ROOT, exist_ok=True)
    spec = ACTIONS.get(act) if isinstance(act, str) else None
    if spec is None:
        raise RunnerError("unknown action %r" % (act,))
    spec.handler(a, target_context(a), slot, out)
