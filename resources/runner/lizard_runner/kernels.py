# Kernel processes: starting one (detached, under its watcher), telling whether a pid is still
# this context's kernel, how a kernel ended, and signalling what runs in a context.
import json
import os
import signal
import sys
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from . import kernelside
from .contexts import Context, has_kernel, write_atomic
from .hook import install_hook
from .protocol import RunnerError


@dataclass
class KernelExit:
    """How a kernel ended: the watcher's kernel.exit, or a zombie's /proc entry."""
    signal: Optional[int]
    code: Optional[int]


def alive(pid: int) -> bool:
    if not pid or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(") ", 1)[-1][:1] not in ("Z", "X")
    except OSError:
        return False


def kernel_alive(pid: int, m: Optional[Context] = None) -> bool:
    """alive() and still a Jupyter kernel, of context m when given. A dead kernel's pid may have
    been reused; after a fork or a restored snapshot, kernel.pid names a pid of another sandbox's
    pid namespace, which here may be any process, even another context's kernel."""
    if not alive(pid):
        return False
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        return False
    if not any(b"ipykernel" in a for a in argv):
        return False
    if m is None:
        return True
    return m.path("kernel.json").encode() in argv


def kernel_pid(m: Context) -> int:
    try:
        with open(m.path("kernel.pid")) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return 0


def live_kernel(m: Optional[Context]) -> bool:
    """A Python context whose kernel runs now (requests that never start a kernel ask this)."""
    return m is not None and m.language == "python" and has_kernel() and kernel_alive(kernel_pid(m), m)


def oom_kills() -> Optional[int]:
    """The system's count of out-of-memory kills (/proc/vmstat; a sandbox sees no cgroup of its
    own). None where it cannot be read."""
    try:
        with open("/proc/vmstat") as f:
            for line in f:
                if line.startswith("oom_kill "):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def exit_record(m: Context, pid: int) -> Optional[KernelExit]:
    rec: Optional[Dict[str, Any]] = None
    for _ in range(20):  # the watcher writes its record a moment after the kernel is gone
        try:
            with open(m.path("kernel.exit")) as f:
                rec = json.load(f)
            if rec.get("pid") == pid:
                break
            rec = None
        except (OSError, ValueError):
            pass
        time.sleep(0.025)
    if rec is not None:
        return KernelExit(rec.get("signal"), rec.get("code"))
    try:
        with open("/proc/%d/stat" % pid) as f:
            st = int(f.read().rsplit(") ", 1)[-1].split()[49])
        return KernelExit(st & 0x7F or None, None if st & 0x7F else st >> 8)
    except (OSError, ValueError, IndexError):
        return None


def how_it_ended(m: Context, pid: int, oom_before: Optional[int] = None) -> str:
    """Text for how kernel `pid` ended. `oom_before`: oom_kills() when the run began, to tell the
    OOM killer from a kill -9."""
    rec = exit_record(m, pid)
    if rec is None:
        return "exit status unknown"
    sig = rec.signal
    if sig:
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "signal %d" % sig
        if sig == signal.SIGKILL:
            now = oom_kills()
            if oom_before is not None and now is not None:
                if now > oom_before:
                    return "out of memory: the OOM killer ended it (SIGKILL) when the sandbox's memory was full"
                return "killed by SIGKILL (signal 9), not by the OOM killer"
            return "killed by SIGKILL (signal 9), often out of memory"
        return "killed by %s (signal %d)" % (name, sig)
    return "exit code %s" % rec.code


def stop_kernel(m: Context) -> None:
    pid = kernel_pid(m)
    if pid and kernel_alive(pid, m):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    for name in ("kernel.pid", "kernel.json", "kernel.exit"):
        try:
            os.remove(m.path(name))
        except OSError:
            pass


def spawn_detached(argv: List[str], cwd: str, log_path: str, env: Dict[str, str]) -> int:
    """Starts argv in a session of its own as a grandchild, so that it is no descendant of this
    runner: when the exec that runs a serving runner is cancelled (the app closed a notebook, or
    lost its connection), the agent kills that exec's process tree, and the kernel must outlive
    it like the kernels of one-shot runs do. Returns the grandchild's pid (0 if it failed)."""
    r, w = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(r)
            os.setsid()
            grandchild = os.fork()
            if grandchild == 0:
                os.chdir(cwd)
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                out = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
                os.dup2(out, 1)
                os.dup2(out, 2)
                for fd in os.listdir("/proc/self/fd"):  # not the exec's pipes, nor anything else
                    if int(fd) > 2:
                        try:
                            os.close(int(fd))
                        except OSError:
                            pass
                os.execve(argv[0], argv, env)
            os.write(w, str(grandchild).encode())
            os._exit(0)
        except BaseException:
            os._exit(127)
    os.close(w)
    data = b""
    while True:
        chunk = os.read(r, 32)
        if not chunk:
            break
        data += chunk
    os.close(r)
    os.waitpid(child, 0)
    return int(data) if data.isdigit() else 0


def start_kernel(m: Context) -> None:
    d = m.dir
    conn = m.path("kernel.json")
    stop_kernel(m)
    install_hook()
    try:
        os.makedirs(m.cwd, exist_ok=True)
    except OSError as e:
        raise RunnerError("cannot create the working directory %s: %s" % (m.cwd, e.strerror))
    watcher = spawn_detached([sys.executable, "-S", "-c", kernelside.source("watcher"), d, conn], m.cwd,
                             m.path("kernel.log"), dict(os.environ, PYTHONUNBUFFERED="1"))
    end = time.time() + 30
    while time.time() < end:
        if kernel_pid(m) and os.path.exists(conn):
            try:
                with open(conn) as f:
                    json.load(f)
                write_atomic(m.path("kernel.ns"), json.dumps({"pidns": pid_ns()}))
                return
            except (OSError, ValueError):
                pass
        if not alive(watcher):
            break
        time.sleep(0.02)
    stop_kernel(m)
    with open(m.path("kernel.log"), "rb") as f:
        tail = f.read()[-2000:].decode("utf-8", "replace")
    raise RunnerError("python kernel failed to start: " + (tail.strip() or "no output"))


def signal_run(m: Context, sig: int) -> bool:
    """Signals what runs in a context: the kernel (python) or the current process (others)."""
    pid = kernel_pid(m)
    if m.language == "python" and pid and kernel_alive(pid, m):
        os.kill(pid, sig)
        return True
    try:
        with open(m.path("run.pid")) as f:
            pid = int(f.read().strip())
        os.killpg(pid, sig)
        return True
    except (OSError, ValueError):
        return False


def pid_ns() -> Optional[int]:
    """This sandbox's pid namespace (differs in a fork or a restored snapshot), or None."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return None


def moved_here(m: Context) -> bool:
    """True when the context's kernel was started in another sandbox (we were forked/restored)."""
    try:
        with open(m.path("kernel.ns")) as f:
            ns = json.load(f).get("pidns")
    except (OSError, ValueError, AttributeError):
        return False
    return ns is not None and pid_ns() is not None and ns != pid_ns()
