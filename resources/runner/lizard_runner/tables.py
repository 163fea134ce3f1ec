# Tables: DataFrames as data (PROTOCOL.md, "Tables"). The kernel side is kernelside/table.py,
# installed in each kernel as the module `_lizard_table`.
import re
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

from . import kernelside
from .contexts import Context
from .kernelio import execute_silently, expression_json, shell_reply, silent
from .kernels import live_kernel
from .protocol import Args, Out, RunnerError, timeout_or

if TYPE_CHECKING:
    from .slot import KernelSlot

TABLE_MIME = "application/vnd.lizard.table+json"
HANDLE = re.compile(r"^[0-9a-f]{12}-[0-9]{1,12}$")
# Creates the module once per kernel process, whoever asks first, then (re)installs the formatter.
INSTALL = ("(lambda sys, types, src, ctx: (sys.modules.get('_lizard_table') or (lambda m: (exec(src, m.__dict__), "
           "sys.modules.__setitem__('_lizard_table', m), m)[2])(types.ModuleType('_lizard_table'))).install(ctx))"
           "(__import__('sys'), __import__('types'), %r, %r)")


def install_table_formatter(kc: Any, pid: int, context: str) -> None:
    """Installs the table formatter in a kernel (once per kernel process; silent: the execution
    count does not move). A kernel without IPython's formatters or pandas just shows HTML."""
    try:
        silent(kc, INSTALL % (kernelside.source("table"), context), pid)
    except Exception:
        pass


def check_page_request(a: Args) -> None:
    handle, start, count, column = a.get("handle"), a.get("start", 0), a.get("count", 100), a.get("column")
    if not isinstance(handle, str) or not HANDLE.match(handle):
        raise RunnerError("handle must be a table handle from a %s output" % TABLE_MIME)
    for name, v, low in (("start", start, 0), ("count", count, 1)):
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            raise RunnerError("%s must be an integer >= %d" % (name, low))
    if column is not None and (isinstance(column, bool) or not isinstance(column, int) or column < -1):
        raise RunnerError("column must be a column number (-1: the index)")


def table_rows(m: Context, a: Args, slot: "KernelSlot", out: Out) -> None:
    """table_rows {context, handle, start, count, column?, ascending?}: rows [start, start+count)
    of a displayed frame, sorted by column (-1: the index) when given. Never starts a kernel."""
    check_page_request(a)
    if not live_kernel(m):
        raise RunnerError("the kernel that showed this table is gone")
    expr = "__import__('_lizard_table').rows(%r, %d, %d, %r, %r)" % (
        a["handle"], a.get("start", 0), a.get("count", 100), a.get("column"), bool(a.get("ascending", True)))
    page, err = table_call(m, a, slot, out, "", expr, 30)
    if err is not None:
        if err.get("ename") == "ModuleNotFoundError":
            raise RunnerError("the kernel that showed this table is gone (it was restarted)")
        raise RunnerError("%s" % (err.get("evalue") or err.get("ename") or "no answer from the kernel"))
    out(dict(page, type="ok"))


def table_call(m: Context, a: Args, slot: "KernelSlot", out: Out, code: str, expr: str,
               default_timeout: float) -> Tuple[Optional[Dict[str, Any]], Optional[Dict[str, Any]]]:
    """Runs code then evaluates expr (JSON text of a dict) silently in the context's kernel:
    (the dict, None), or (None, the error's {ename, evalue})."""
    kc = slot.get(m, out)
    msg_id = execute_silently(kc, code, "__import__('json').dumps(%s)" % expr)
    reply = (shell_reply(kc, msg_id, timeout_or(a, default_timeout), slot.pid) or {}).get("content")
    if not reply:
        raise RunnerError("the kernel did not answer (busy?)")
    r = (reply.get("user_expressions") or {}).get("r") or {}
    if reply.get("status") != "ok" or r.get("status") != "ok":
        return None, r if r.get("status") else reply
    return expression_json(r), None


def table_for_variable(m: Optional[Context], a: Args, slot: "KernelSlot", out: Out) -> None:
    """table_for_variable {context, name}: the variable's DataFrame/Series as a table output (the
    table MIME's fields, with a handle for table_rows). Never starts a kernel."""
    name = a.get("name")
    if not (isinstance(name, str) and name.isidentifier()):
        raise RunnerError("name must be a Python identifier")
    if m is None or not live_kernel(m):
        raise RunnerError("the kernel is not running: run a cell to start it")
    define = "\n" + kernelside.function_source(kernelside.source("table"), "for_variable")
    code = "exec(%r, __import__('_lizard_table').__dict__)" % define
    table, err = table_call(m, a, slot, out, code, "__import__('_lizard_table').for_variable(%r)" % name, 30)
    if err is not None:
        if err.get("ename") == "ModuleNotFoundError":
            raise RunnerError("this kernel cannot show tables (no IPython display formatters or pandas)")
        raise RunnerError("%s" % (err.get("evalue") or err.get("ename") or "no answer from the kernel"))
    out(dict(table, type="ok"))
