# One context's connected kernel client, kept between requests in serve mode (warm).
import os
from typing import Any, Optional

from .contexts import Context
from .kernelio import wait_ready
from .kernels import alive, how_it_ended, kernel_alive, kernel_pid, moved_here, start_kernel
from .protocol import Out, RunnerError
from .tables import install_table_formatter
from .variables import restore_saved

CONNECT_ERRORS = (RuntimeError, OSError, ValueError, KeyError)


class KernelSlot:
    def __init__(self) -> None:
        self.kc: Optional[Any] = None
        self.pid = 0

    def drop(self) -> None:
        if self.kc is not None:
            try:
                self.kc.stop_channels()
            except Exception:
                pass
        self.kc, self.pid = None, 0

    def get(self, m: Context, out: Out) -> Any:
        """A ready client of m's kernel, starting (and announcing) a fresh kernel when needed."""
        pid = kernel_pid(m)
        if self.kc is not None and self.pid == pid and kernel_alive(pid):
            return self.kc
        self.drop()
        gone, fresh = None, False
        if not kernel_alive(pid, m):
            if not pid and not os.path.exists(m.path("kernel.pid")):
                pass
            elif moved_here(m):
                gone = "it ran in the sandbox this one was forked or restored from"
            elif alive(pid):
                gone = "kernel.pid names another process: the context was copied, forked or restored"
            else:
                gone = how_it_ended(m, pid) if pid else "exit status unknown"
            start_kernel(m)
            fresh = True
        try:
            self.connect(m)
        except CONNECT_ERRORS:
            start_kernel(m)  # a kernel that is there but does not answer: replace it
            gone = gone or "it did not answer"
            try:
                self.connect(m)
            except CONNECT_ERRORS as e:
                raise RunnerError("the python kernel of context %s does not answer: %s" % (m.id, e))
        if gone:
            out({"type": "notice", "message": "the previous kernel of context %s is gone (%s); started a fresh "
                 "kernel: variables and imports of earlier runs are lost" % (m.id, gone)})
        if fresh:
            restore_saved(m, self, out)
        if m.language == "python":
            install_table_formatter(self.kc, self.pid, m.id)
        return self.kc

    def connect(self, m: Context, timeout: float = 30) -> None:
        from jupyter_client import BlockingKernelClient
        kc = BlockingKernelClient()
        kc.load_connection_file(m.path("kernel.json"))
        kc.start_channels(shell=True, iopub=True, stdin=False, hb=False, control=False)
        pid = kernel_pid(m)
        try:
            wait_ready(kc, pid, timeout)
        except Exception:
            kc.stop_channels()
            raise
        self.kc, self.pid = kc, pid
