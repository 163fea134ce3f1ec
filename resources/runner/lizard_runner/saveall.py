# save_all: every live Python kernel saves its variables to <ctx>/variables.dill (+ .json), so
# that a fork or restored snapshot of this sandbox brings them back (variables.restore_saved).
import json
import os
import time

from .contexts import ctx_dir, has_kernel, load_context, write_atomic
from .kernels import kernel_alive, kernel_pid, pid_ns
from .protocol import ROOT, SAFE_ID, Out, RunnerError
from .slot import KernelSlot
from .variables import kernel_variables


def save_all(out: Out) -> None:
    done = []
    for name in sorted(os.listdir(ROOT)) if has_kernel() else []:
        m = load_context(name) if SAFE_ID.match(name) else None
        if not m or m.language != "python" or not kernel_alive(kernel_pid(m), m):
            continue
        d, slot = ctx_dir(name), KernelSlot()
        try:
            slot.connect(m, timeout=10)
            r = kernel_variables(slot.kc, slot.pid, "save", os.path.join(d, "variables.dill"), None, timeout=60,
                                 strict=True)
            write_atomic(os.path.join(d, "variables.json"),
                         json.dumps(dict(r, context=name, pidns=pid_ns(), savedAt=time.time())))
            done.append({"id": name, "saved": r.get("saved", []), "skipped": r.get("skipped", [])})
        except (RunnerError, RuntimeError, OSError, ValueError, KeyError) as e:
            done.append({"id": name, "error": str(e) or type(e).__name__})
        finally:
            slot.drop()
    out({"type": "ok", "contexts": done})
