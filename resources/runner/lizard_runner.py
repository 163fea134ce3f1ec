# lizard-desktop code runner: runs notebook / runCode cells inside a Lizard sandbox.
# It travels as `python3 -c <this source> <base64 JSON args>` through the exec API, so it is one
# self-contained file using only the standard library (plus jupyter_client for Python contexts).
# Protocol and on-disk layout: resources/runner/PROTOCOL.md (compatible with the official SDK).
import base64, json, os, queue, re, select, shutil, signal, struct, subprocess, sys, threading, time

# The runner's own version, in this one place: the app reads it from the embedded source (Help >
# About). Raise it with any change of behaviour or protocol.
VERSION = "1.5.0"
ROOT = os.environ.get("LIZARD_CODE_ROOT") or "/tmp/.lizard-code"
LANGS = {"python": "python3", "javascript": "node", "bash": "bash"}
ALIASES = {"py": "python", "python3": "python", "js": "javascript", "node": "javascript", "sh": "bash"}
BEST = ("image/png", "image/jpeg", "image/svg+xml", "text/html", "text/markdown", "application/json",
        "text/latex", "text/plain")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
REQUEST_NAME = re.compile(r"^req-[A-Za-z0-9_-]{1,96}\.json$")
PART = 24000            # events longer than this are split into "part" lines (as the SDK expects)
OUT_LOCK = threading.Lock()
STOP = threading.Event()  # serve mode: set when stdout is gone or on shutdown


class RunnerError(Exception):
    """A request that cannot be carried out; reported as a "fatal" event."""


# ---------------------------------------------------------------- output

class Out:
    """Writes events as JSON lines; in serve mode every line carries the request id."""

    def __init__(self, req=None):
        self.req = req

    def __call__(self, ev):
        if self.req is not None:
            ev = dict(ev, req=self.req)
        s = json.dumps(ev)
        lines = [s]
        if len(s) > PART:
            n = (len(s) + PART - 1) // PART
            lines = []
            for i in range(n):
                p = {"type": "part", "data": s[i * PART:(i + 1) * PART], "end": i == n - 1}
                if self.req is not None:
                    p["req"] = self.req
                lines.append(json.dumps(p))
        data = ("\n".join(lines) + "\n").encode("ascii")
        with OUT_LOCK:
            try:
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()
            except (OSError, ValueError):
                STOP.set()  # the reader is gone; serve mode winds down


# ---------------------------------------------------------------- contexts on disk

def ctx_dir(cid):
    return os.path.join(ROOT, cid)


def check_id(cid):
    if not isinstance(cid, str) or not SAFE_ID.match(cid):
        raise RunnerError("invalid context id %r (letters, digits, '_', '-', '.'; not starting with '.')" % (cid,))
    return cid


def language_of(a):
    lang = a.get("language") or "python"
    if not isinstance(lang, str):
        raise RunnerError("language must be a string")
    lang = ALIASES.get(lang.lower(), lang.lower())
    if lang not in LANGS:
        raise RunnerError("unsupported language %r; use python, javascript or bash" % lang)
    return lang


def write_atomic(path, text):
    tmp = os.path.join(os.path.dirname(path), ".%s.tmp-%d-%d" % (os.path.basename(path), os.getpid(),
                                                                   threading.get_ident()))
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def load_meta(cid):
    try:
        with open(os.path.join(ctx_dir(cid), "meta.json")) as f:
            m = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(m, dict) or m.get("language") not in LANGS or not isinstance(m.get("cwd"), str):
        return None
    m["id"] = cid
    return m


def save_meta(m):
    os.makedirs(ctx_dir(m["id"]), exist_ok=True)
    write_atomic(os.path.join(ctx_dir(m["id"]), "meta.json"), json.dumps(m))


def new_meta(cid, lang, cwd):
    cwd = cwd or "/home/user"
    if not isinstance(cwd, str) or not cwd.startswith("/"):
        raise RunnerError("cwd must be an absolute path")
    m = {"id": cid, "language": lang, "cwd": cwd}
    save_meta(m)
    return m


def public(m):
    return {"id": m["id"], "language": m["language"], "cwd": m["cwd"]}


def list_contexts():
    out = []
    for name in sorted(os.listdir(ROOT)):
        if SAFE_ID.match(name) and not name.startswith("default-"):
            m = load_meta(name)
            if m:
                out.append(public(m))
    return out


def has_kernel():
    try:
        import jupyter_client, ipykernel  # noqa: F401
        return True
    except ImportError:
        return False


# ---------------------------------------------------------------- kernel processes

# The kernel runs in its own session (as with the SDK's runner: kernel.pid is its pid and its
# process group). A small watcher, its parent, records how it ended in kernel.exit, because the
# runner that started it is usually gone by then and only a parent can learn an exit status.
WATCHER = r'''
import json, os, signal, sys
d, conn = sys.argv[1], sys.argv[2]
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    try:
        os.close(r)
        os.setsid()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", "-f", conn])
    finally:
        os.write(w, b"x")
        os._exit(127)
os.close(w)
failed = os.read(r, 1)
signal.signal(signal.SIGINT, signal.SIG_IGN)
if not failed:
    tmp = os.path.join(d, ".kernel.pid.tmp")
    with open(tmp, "w") as f:
        f.write(str(pid))
    os.replace(tmp, os.path.join(d, "kernel.pid"))
while True:
    try:
        st = os.waitpid(pid, 0)[1]
        break
    except InterruptedError:
        pass
rec = {"pid": pid, "signal": os.WTERMSIG(st) if os.WIFSIGNALED(st) else None,
       "code": os.WEXITSTATUS(st) if os.WIFEXITED(st) else None}
try:
    tmp = os.path.join(d, ".kernel.exit.tmp")
    with open(tmp, "w") as f:
        json.dump(rec, f)
    os.replace(tmp, os.path.join(d, "kernel.exit"))
except OSError:
    pass
'''


def alive(pid):
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


def kernel_alive(pid, m=None):
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
    return os.path.join(ctx_dir(m["id"]), "kernel.json").encode() in argv


def kernel_pid(m):
    try:
        with open(os.path.join(ctx_dir(m["id"]), "kernel.pid")) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return 0


def oom_kills():
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


def how_it_ended(m, pid, oom_before=None):
    """Text for how kernel `pid` ended: from the watcher's record, else a zombie's /proc entry.
    `oom_before`: oom_kills() when the run began, to tell the OOM killer from a kill -9."""
    rec = None
    for _ in range(20):  # the watcher writes its record a moment after the kernel is gone
        try:
            with open(os.path.join(ctx_dir(m["id"]), "kernel.exit")) as f:
                rec = json.load(f)
            if rec.get("pid") == pid:
                break
            rec = None
        except (OSError, ValueError):
            pass
        time.sleep(0.025)
    if rec is None:
        try:
            with open("/proc/%d/stat" % pid) as f:
                st = int(f.read().rsplit(") ", 1)[-1].split()[49])
            rec = {"signal": st & 0x7F or None, "code": None if st & 0x7F else st >> 8}
        except (OSError, ValueError, IndexError):
            return "exit status unknown"
    sig = rec.get("signal")
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
    return "exit code %s" % rec.get("code")


def stop_kernel(m):
    pid = kernel_pid(m)
    if pid and kernel_alive(pid, m):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    for name in ("kernel.pid", "kernel.json", "kernel.exit"):
        try:
            os.remove(os.path.join(ctx_dir(m["id"]), name))
        except OSError:
            pass


def spawn_detached(argv, cwd, log_path, env):
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


def start_kernel(m):
    d = ctx_dir(m["id"])
    conn = os.path.join(d, "kernel.json")
    stop_kernel(m)
    install_hook()
    try:
        os.makedirs(m["cwd"], exist_ok=True)
    except OSError as e:
        raise RunnerError("cannot create the working directory %s: %s" % (m["cwd"], e.strerror))
    watcher = spawn_detached([sys.executable, "-S", "-c", WATCHER, d, conn], m["cwd"],
                             os.path.join(d, "kernel.log"), dict(os.environ, PYTHONUNBUFFERED="1"))
    end = time.time() + 30
    while time.time() < end:
        if kernel_pid(m) and os.path.exists(conn):
            try:
                with open(conn) as f:
                    json.load(f)
                write_atomic(os.path.join(d, "kernel.ns"), json.dumps({"pidns": pid_ns()}))
                return
            except (OSError, ValueError):
                pass
        if not alive(watcher):
            break
        time.sleep(0.02)
    stop_kernel(m)
    with open(os.path.join(d, "kernel.log"), "rb") as f:
        tail = f.read()[-2000:].decode("utf-8", "replace")
    raise RunnerError("python kernel failed to start: " + (tail.strip() or "no output"))


def signal_run(m, sig):
    """Signals what runs in a context: the kernel (python) or the current process (others)."""
    pid = kernel_pid(m)
    if m["language"] == "python" and pid and kernel_alive(pid, m):
        os.kill(pid, sig)
        return True
    try:
        with open(os.path.join(ctx_dir(m["id"]), "run.pid")) as f:
            pid = int(f.read().strip())
        os.killpg(pid, sig)
        return True
    except (OSError, ValueError):
        return False


def pid_ns():
    """This sandbox's pid namespace (differs in a fork or a restored snapshot), or None."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return None


def moved_here(m):
    """True when the context's kernel was started in another sandbox (we were forked/restored)."""
    try:
        with open(os.path.join(ctx_dir(m["id"]), "kernel.ns")) as f:
            ns = json.load(f).get("pidns")
    except (OSError, ValueError, AttributeError):
        return False
    return ns is not None and pid_ns() is not None and ns != pid_ns()


# ---------------------------------------------------------------- pre-snapshot hook

def own_source():
    """This program's source: the file it runs from, or its `python3 -c <source>` argument."""
    try:
        with open(os.path.abspath(__file__)) as f:
            return f.read()
    except (NameError, OSError):
        pass
    try:
        with open("/proc/self/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
        return argv[argv.index(b"-c") + 1].decode("utf-8")
    except (OSError, ValueError, IndexError):
        return None


def install_hook():
    """<root>/.runner.py and the executable <root>/.hooks/pre-snapshot that runs save_all: the
    server runs it before a snapshot or fork, so notebook variables survive it (see PROTOCOL.md)."""
    src = own_source()
    if not src:
        return
    try:
        runner = os.path.join(ROOT, ".runner.py")
        try:
            with open(runner) as f:
                same = f.read() == src
        except OSError:
            same = False
        if not same:
            write_atomic(runner, src)
        hooks = os.path.join(ROOT, ".hooks")
        os.makedirs(hooks, exist_ok=True)
        arg = base64.b64encode(json.dumps({"action": "save_all"}).encode()).decode()
        env = "" if ROOT == "/tmp/.lizard-code" else "LIZARD_CODE_ROOT='%s' " % ROOT.replace("'", "'\\''")
        script = "#!/bin/sh\n# lizard-desktop: saves notebook variables before a snapshot or fork\n" \
                 "%sexec '%s' %s %s\n" % (env, sys.executable or "python3", runner, arg)
        hook = os.path.join(hooks, "pre-snapshot")
        try:
            with open(hook) as f:
                same = f.read() == script
        except OSError:
            same = False
        if not same:
            write_atomic(hook, script)
        os.chmod(hook, 0o755)
    except OSError:
        pass  # a read-only or full /tmp: the hook is a convenience, runs go on


# ---------------------------------------------------------------- kernel clients

class KernelSlot:
    """One context's connected kernel client. Serve mode keeps it between runs (warm)."""

    def __init__(self):
        self.kc = None
        self.pid = 0

    def drop(self):
        if self.kc is not None:
            try:
                self.kc.stop_channels()
            except Exception:
                pass
        self.kc, self.pid = None, 0

    def get(self, m, out):
        pid = kernel_pid(m)
        if self.kc is not None and self.pid == pid and kernel_alive(pid):
            return self.kc
        self.drop()
        gone, fresh = None, False
        if not kernel_alive(pid, m):
            if not pid and not os.path.exists(os.path.join(ctx_dir(m["id"]), "kernel.pid")):
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
        except (RuntimeError, OSError, ValueError, KeyError):
            start_kernel(m)  # a kernel that is there but does not answer: replace it
            gone = gone or "it did not answer"
            try:
                self.connect(m)
            except (RuntimeError, OSError, ValueError, KeyError) as e:
                raise RunnerError("the python kernel of context %s does not answer: %s" % (m["id"], e))
        if gone:
            out({"type": "notice", "message": "the previous kernel of context %s is gone (%s); started a fresh "
                 "kernel: variables and imports of earlier runs are lost" % (m["id"], gone)})
        if fresh:
            restore_saved(m, self, out)
        if m["language"] == "python":
            install_table_formatter(self.kc, self.pid, m["id"])
        return self.kc

    def connect(self, m, timeout=30):
        from jupyter_client import BlockingKernelClient
        kc = BlockingKernelClient()
        kc.load_connection_file(os.path.join(ctx_dir(m["id"]), "kernel.json"))
        kc.start_channels(shell=True, iopub=True, stdin=False, hb=False, control=False)
        pid = kernel_pid(m)
        try:
            wait_ready(kc, pid, timeout)
        except Exception:
            kc.stop_channels()
            raise
        self.kc, self.pid = kc, pid


def wait_ready(kc, pid, timeout=30):
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


def shell_reply(kc, msg_id, timeout, pid=0):
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


def silent(kc, code, pid):
    shell_reply(kc, kc.execute(code, silent=True, store_history=False, allow_stdin=False, stop_on_error=False), 10, pid)


# Per-run variables: set before the cell, restored after it, leaving no names behind but _lz_saved
# (between the two) in the user's namespace.
SET_ENVS = ("_lz_saved = (lambda os, new: ({k: os.environ.get(k) for k in new}, os.environ.update(new))[0])"
            "(__import__('os'), __import__('json').loads(%r))")
RESTORE_ENVS = ("(lambda os, saved: [os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)"
                " for k, v in saved.items()])(__import__('os'), _lz_saved)\ndel _lz_saved")


# ---------------------------------------------------------------- python in a kernel

def bundle_of(c):
    data = c.get("data") or {}
    return {k: (v if isinstance(v, str) else json.dumps(v)) for k, v in data.items()}


def result_event(t, c):
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


def translate(msg, out):
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


def run_python(m, code, envs, timeout, slot, out):
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


def interrupt_and_drain(kc, msg_id, pid, out):
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


# ---------------------------------------------------------------- saving and loading variables

# Runs in the kernel: pickles the user's variables with dill (all together, so shared references
# stay shared), skipping IPython's own names and what cannot be pickled, or loads such a file.
VARIABLES = r'''
def _lz_kind(v):
    import io, socket, types
    if isinstance(v, types.ModuleType):
        return "a module: import it again"
    if isinstance(v, io.IOBase):
        return "an open file: open it again"
    if isinstance(v, socket.socket):
        return "a socket: connect again"
    if isinstance(v, (types.GeneratorType, types.AsyncGeneratorType, types.CoroutineType)):
        return "a generator: its progress cannot be saved"
    return None


def _lz_variables(action, path, names, strict):
    import dill, json, os
    ip = get_ipython()
    ns, hidden = ip.user_ns, set(ip.user_ns_hidden)
    if action == "load":
        with open(path, "rb") as f:
            data = dill.load(f)
        if not isinstance(data, dict) or data.get("format") != "lizard-variables/1":
            raise ValueError("%s is not a file of saved variables" % path)
        ns.update(data["variables"])
        return json.dumps({"loaded": sorted(data["variables"])})
    chosen = names if names is not None else [k for k in ns if not k.startswith("_") and k not in hidden]
    keep, skipped = {}, []
    for k in chosen:
        if k not in ns:
            skipped.append({"name": k, "reason": "not defined"})
            continue
        why = _lz_kind(ns[k]) if strict else None
        if why:
            skipped.append({"name": k, "reason": why})
            continue
        try:
            dill.dumps(ns[k])
            keep[k] = ns[k]
        except Exception as e:
            skipped.append({"name": k, "reason": "%s: %s" % (type(e).__name__, e)})
    tmp = path + ".tmp-lizard"
    with open(tmp, "wb") as f:
        dill.dump({"format": "lizard-variables/1", "variables": keep}, f)
    os.replace(tmp, path)
    return json.dumps({"saved": sorted(keep), "skipped": skipped})
'''


def variables(m, a, slot, out):
    """save_variables / load_variables {context, path, names?}: answers ok, or fatal."""
    if m["language"] != "python" or not has_kernel():
        raise RunnerError("variables can be saved and loaded only in python contexts with a kernel")
    path, names = a.get("path"), a.get("names")
    if not isinstance(path, str) or not path.startswith("/"):
        raise RunnerError("path must be an absolute path")
    if names is not None and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        raise RunnerError("names must be a list of variable names")
    action = "load" if a["action"] == "load_variables" else "save"
    kc = slot.get(m, out)
    out(dict(kernel_variables(kc, slot.pid, action, path, names), type="ok"))


def kernel_variables(kc, pid, action, path, names, timeout=300, strict=False):
    """Runs the save or load in the kernel; its answer ({saved, skipped} or {loaded}). strict
    (save_all) also skips modules, open files, sockets and generators, which dill could save but
    which would not mean the same in another sandbox."""
    code = VARIABLES + "try:\n    _lz_r = _lz_variables(%r, %r, %r, %r)\nfinally:\n    del _lz_variables, _lz_kind\n" % (
        action, path, names, strict)
    msg_id = kc.execute(code, silent=True, store_history=False, allow_stdin=False,
                        stop_on_error=False, user_expressions={"r": "globals().pop('_lz_r')"})
    reply = (shell_reply(kc, msg_id, timeout, pid) or {}).get("content") or {}
    if reply.get("status") != "ok":
        raise RunnerError("cannot %s variables: %s: %s" % (action, reply.get("ename", "no answer from the kernel"),
                                                           reply.get("evalue", "")))
    import ast
    r = (reply.get("user_expressions") or {}).get("r") or {}
    return json.loads(ast.literal_eval(r.get("data", {}).get("text/plain", "''")) or "{}")


def save_all(out):
    """Every live Python kernel saves its variables to <ctx>/variables.dill (+ variables.json), so
    that a fork or restored snapshot of this sandbox brings them back (see restore_saved)."""
    done = []
    for name in sorted(os.listdir(ROOT)) if has_kernel() else []:
        m = load_meta(name) if SAFE_ID.match(name) else None
        if not m or m["language"] != "python" or not kernel_alive(kernel_pid(m), m):
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


def restore_saved(m, slot, out):
    """A fresh kernel in a context whose variables were saved in another sandbox (a fork, a
    restored snapshot) or another context (a copied directory) loads them, once, and says so.
    A kernel that dies and restarts where the save was made does not: that would silently bring
    back an old state."""
    d = ctx_dir(m["id"])
    path = os.path.join(d, "variables.dill")
    if not os.path.exists(path):
        return
    try:
        with open(os.path.join(d, "variables.json")) as f:
            info = json.load(f)
        if not isinstance(info, dict):
            info = {}
    except (OSError, ValueError):
        info = {}
    if info.get("context") == m["id"] and info.get("pidns") == pid_ns():
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
        os.replace(path, os.path.join(d, "variables.loaded.dill"))
    except OSError:
        pass
    out({"type": "notice", "message": msg, "loaded": loaded, "skipped": skipped})


# ---------------------------------------------------------------- other languages: a process per run

def run_process(m, code, envs, timeout, out):
    interp = LANGS[m["language"]]
    if shutil.which(interp) is None:
        out({"type": "error", "name": "LanguageUnavailable", "traceback": "",
             "message": "%s is not installed in this sandbox" % interp})
        out({"type": "done", "execution_count": 0})
        return
    d = ctx_dir(m["id"])
    src = os.path.join(d, "cell" + {"node": ".js", "bash": ".sh"}.get(interp, ".py"))
    with open(src, "w") as f:
        f.write(code)
    try:
        os.makedirs(m["cwd"], exist_ok=True)
    except OSError as e:
        raise RunnerError("cannot create the working directory %s: %s" % (m["cwd"], e.strerror))
    p = subprocess.Popen([interp, src], cwd=m["cwd"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=dict(os.environ, **envs), start_new_session=True)
    pidfile = os.path.join(d, "run.pid")
    write_atomic(pidfile, str(p.pid))
    err_tail = []

    def pump(stream, kind):
        import codecs
        dec = codecs.getincrementaldecoder("utf-8")("replace")
        while True:
            chunk = os.read(stream.fileno(), 65536)
            text = dec.decode(chunk, final=not chunk)
            if text:
                if kind == "stderr":
                    err_tail.append(text)
                    del err_tail[:-50]
                out({"type": kind, "data": text})
            if not chunk:
                return

    pumps = [threading.Thread(target=pump, args=(p.stdout, "stdout"), daemon=True),
             threading.Thread(target=pump, args=(p.stderr, "stderr"), daemon=True)]
    for t in pumps:
        t.start()
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        p.wait()
        rc = None
    for t in pumps:
        t.join(5)
    try:
        os.remove(pidfile)
    except OSError:
        pass
    m["count"] = int(m.get("count") or 0) + 1
    save_meta(m)
    if rc is None:
        out({"type": "error", "name": "TimeoutError", "message": "execution timed out after %gs" % timeout,
             "traceback": ""})
    elif rc < 0:
        out({"type": "error", "name": "Interrupted" if rc == -signal.SIGINT else "Killed", "traceback": "".join(err_tail),
             "message": "stopped by %s" % signal.Signals(-rc).name})
    elif rc != 0:
        out({"type": "error", "name": "ExitError", "message": "exited with code %d" % rc,
             "traceback": "".join(err_tail)})
    out({"type": "done", "execution_count": m["count"]})


# ---------------------------------------------------------------- completion and help

def kernel_query(m, a, slot, out):
    """complete / inspect: the kernel's answer for `code` at `cursor_pos` (code points). Without a
    live kernel (nothing ran yet, or not Python) the answer is empty: a Tab never starts a kernel."""
    code, pos = a.get("code"), a.get("cursor_pos")
    if not isinstance(code, str):
        raise RunnerError("code must be a string")
    if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos <= len(code):
        raise RunnerError("cursor_pos must be an index into code")
    timeout = arg_timeout(dict(timeout=a.get("timeout") or 10))
    complete = a["action"] == "complete"
    empty = {"type": "ok", "matches": [], "cursor_start": pos, "cursor_end": pos, "types": []} if complete \
        else {"type": "ok", "found": False, "text": "", "text_ansi": ""}
    if m is None or m["language"] != "python" or not has_kernel() or not kernel_alive(kernel_pid(m), m):
        out(dict(empty, kernel=False))
        return
    kc = slot.get(m, out)
    msg_id = kc.complete(code, pos) if complete else kc.inspect(code, pos, detail_level=0)
    reply = shell_reply(kc, msg_id, timeout, slot.pid)
    if reply is None:
        raise RunnerError("the kernel did not answer within %gs (busy?)" % timeout)
    c = reply.get("content") or {}
    if c.get("status") != "ok":
        out(dict(empty, kernel=True))
    elif complete:
        types = (c.get("metadata") or {}).get("_jupyter_types_experimental") or []
        out({"type": "ok", "kernel": True, "matches": [x for x in c.get("matches") or [] if isinstance(x, str)],
             "cursor_start": c.get("cursor_start", pos), "cursor_end": c.get("cursor_end", pos),
             "types": [{"text": t.get("text", ""), "type": t.get("type") or "", "signature": t.get("signature") or "",
                        "start": t.get("start"), "end": t.get("end")} for t in types if isinstance(t, dict)]})
    else:
        text = (c.get("data") or {}).get("text/plain", "") if c.get("found") else ""
        out({"type": "ok", "kernel": True, "found": bool(text), "text": ANSI.sub("", text), "text_ansi": text})


# ---------------------------------------------------------------- the variable explorer

# Runs in the kernel (silently: no execution count, no history, no outputs): the user's variables
# with their type, shape or length, size and a short preview. User-defined functions and classes
# are listed, imported ones (like modules) are not. Every variable's description runs under a
# 50 ms interval timer (main thread only), so a repr that hangs or raises costs one row its
# preview, never the listing; reprlib keeps big containers cheap to preview.
LISTING = r"""
def _lz_listing(want, limit):
    import itertools, json, reprlib, signal, sys, threading, time, types
    ip = get_ipython()
    ns, hidden = ip.user_ns, set(ip.user_ns_hidden)

    class Slow(BaseException):  # not caught by the "except Exception" around one row
        pass

    armed = [False]  # only while a row is described: a late signal must not hit anything else

    def on_alarm(*_):
        if armed[0]:
            armed[0] = False
            raise Slow()

    def size(v):
        mod = type(v).__module__ or ""
        if mod.startswith("pandas") and hasattr(v, "memory_usage"):
            u = v.memory_usage(deep=False)
            return int(u.sum()) if hasattr(u, "sum") else int(u)
        n = getattr(v, "nbytes", None)
        return int(n) if isinstance(n, int) else sys.getsizeof(v)

    def shape(v):
        s = getattr(v, "shape", None)
        if isinstance(s, tuple) and not isinstance(v, type):
            return " \u00d7 ".join(str(x) for x in s) or "scalar"
        if isinstance(v, (str, bytes, bytearray, list, tuple, dict, set, frozenset, range)) or (
                hasattr(type(v), "__len__") and not isinstance(v, type)):
            return "len %d" % len(v)
        return ""

    short = reprlib.Repr()
    short.maxstring, short.maxother, short.maxlevel = 120, 120, 2

    def head(v):
        # The first items only: reprlib would sort a whole dict or set first.
        if isinstance(v, dict):
            items = ["%s: %s" % (short.repr(k), short.repr(x)) for k, x in itertools.islice(v.items(), 8)]
        else:
            items = [short.repr(x) for x in itertools.islice(v, 8)]
        body = ", ".join(items) + (", \u2026" if len(v) > 8 else "")
        if isinstance(v, list):
            return "[%s]" % body
        if isinstance(v, tuple):
            return "(%s%s)" % (body, "," if len(v) == 1 else "")
        if isinstance(v, (dict, set)) and v:
            return "{%s}" % body
        return "%s({%s})" % (type(v).__name__, body) if v else "%s()" % type(v).__name__

    def preview(v):
        if type(v) in (list, tuple, dict, set, frozenset):
            r = head(v)
        elif isinstance(v, (str, bytes)):
            r = short.repr(v)
        elif type(v).__module__ == "numpy" and getattr(v, "size", 0) > 8 and hasattr(v, "flat"):
            # numpy's repr formats up to 1000 items to align them: the first few say enough.
            f = (lambda x: ("%.6g" % x) + ("" if set(".en") & set("%.6g" % x) else ".")) \
                if v.dtype.kind == "f" else short.repr
            r = "array([%s, \u2026], dtype=%s)" % (", ".join(f(x) for x in v.flat[:6].tolist()), v.dtype)
        elif (type(v).__module__ or "").startswith("pandas") and hasattr(v, "columns"):
            # A table's repr spans lines that make no sense joined: its columns say more.
            r = "columns: " + ", ".join(str(c) for c in itertools.islice(v.columns, 12))
        else:
            r = repr(v)
        r = " ".join(r[:4 * limit].split())
        return r if len(r) <= limit else r[:limit - 1] + "\u2026"

    def listed(k, v):
        if k.startswith("_") or k in hidden or isinstance(v, types.ModuleType):
            return False
        if isinstance(v, (type, types.FunctionType, types.BuiltinFunctionType)):
            return getattr(v, "__module__", None) == "__main__"
        return True

    def describe(k, v):
        row = {"name": k, "type": type(v).__name__, "shape": "", "size": -1, "preview": ""}
        mod = type(v).__module__
        if mod not in (None, "builtins", "__main__"):
            row["type"] = mod.split(".")[0] + "." + type(v).__qualname__
        try:
            armed[0] = True
            if timed:
                signal.setitimer(signal.ITIMER_REAL, 2.0 if want is not None else 0.05)
            try:
                row["size"], row["shape"] = size(v), shape(v)
            except Exception:
                pass  # the preview below says what is wrong with the object, if anything
            if want is not None:
                r = repr(v)
                row["repr"] = r if len(r) <= limit else r[:limit] + "\n\u2026 (%d more characters)" % (len(r) - limit)
            else:
                row["preview"] = preview(v)
        except Exception as e:
            row["preview"] = row["repr"] = "(repr failed: %s: %s)" % (type(e).__name__, e)
        finally:
            armed[0] = False
            if timed:
                signal.setitimer(signal.ITIMER_REAL, 0)
        return row

    timed = threading.current_thread() is threading.main_thread()
    if timed:
        old = signal.signal(signal.SIGALRM, on_alarm)
        left = signal.setitimer(signal.ITIMER_REAL, 0)
    rows, start = [], time.time()
    try:
        for k in ([want] if want is not None else sorted(ns)):
            if k not in ns or not listed(k, ns[k]):
                continue
            v = ns[k]
            if want is None and time.time() - start > 3.0:
                rows.append({"name": k, "type": type(v).__name__, "shape": "", "size": -1,
                             "preview": "(not read: the listing took too long)"})
                continue
            try:
                row = describe(k, v)
            except Slow:  # raised wherever the row was: in its repr, or in an except or finally
                row = {"name": k, "type": type(v).__name__, "shape": "", "size": -1,
                       "preview": "(repr took too long)", "repr": "(repr took too long)"}
            if want is None:
                row.pop("repr", None)
            rows.append(row)
    finally:
        if timed:
            signal.signal(signal.SIGALRM, old)
            if left[0] > 0:
                signal.setitimer(signal.ITIMER_REAL, *left)
    return json.dumps(rows)
"""

VARIABLE_COLUMNS = ("name", "type", "shape", "size", "preview")
LISTING_KEY = "_lizard_listing_" + VERSION.replace(".", "_")
LISTING_CALL = ("if not hasattr(get_ipython(), %r):\n"
                "    exec(%r, globals())\n"
                "    setattr(get_ipython(), %r, globals().pop('_lz_listing'))\n"
                "_lz_r = getattr(get_ipython(), %r)(%r, %d)\n")



def list_user_variables(m, a, slot, out):
    """list_variables {context, name?}: the user's variables as rows {name, type, shape, size,
    preview}; with name, that one variable with its full repr (capped). Never starts a kernel."""
    name = a.get("name")
    if name is not None and not (isinstance(name, str) and name.isidentifier()):
        raise RunnerError("name must be a Python identifier")
    if m is None or m["language"] != "python" or not has_kernel() or not kernel_alive(kernel_pid(m), m):
        out({"type": "ok", "kernel": False, "columns": list(VARIABLE_COLUMNS), "variables": []})
        return
    timeout = arg_timeout(dict(timeout=a.get("timeout") or 10))
    limit = 200000 if name is not None else 80
    # The function is compiled once per kernel and kept on the shell object, out of the user's
    # namespace: compiling it in every request cost more than listing 200 variables.
    code = LISTING_CALL % (LISTING_KEY, LISTING, LISTING_KEY, LISTING_KEY, name, limit)
    kc = slot.get(m, out)
    msg_id = kc.execute(code, silent=True, store_history=False, allow_stdin=False, stop_on_error=False,
                        user_expressions={"r": "globals().pop('_lz_r')"})
    reply = shell_reply(kc, msg_id, timeout, slot.pid)
    if reply is None:
        raise RunnerError("the kernel did not answer within %gs (busy?)" % timeout)
    c = reply.get("content") or {}
    r = (c.get("user_expressions") or {}).get("r") or {}
    if c.get("status") != "ok" or r.get("status") != "ok":
        raise RunnerError("cannot list variables: %s: %s" % (c.get("ename") or r.get("ename") or "error",
                                                              c.get("evalue") or r.get("evalue") or ""))
    import ast
    rows = json.loads(ast.literal_eval(r["data"]["text/plain"]))
    # Rows as arrays, not objects: 200 variables then fit one event line (under PART), and a
    # line split into parts costs the reader more than the listing itself.
    answer = {"type": "ok", "kernel": True, "columns": list(VARIABLE_COLUMNS),
              "variables": [[row[c] for c in VARIABLE_COLUMNS] for row in rows]}
    if name is not None and rows:
        answer["repr"] = rows[0].get("repr", "")
    out(answer)


# ---------------------------------------------------------------- tables (DataFrames as data)

# Runs in the kernel as the module `_lizard_table`: an IPython formatter that adds TABLE_MIME (a
# compact columnar JSON of a DataFrame/Series: shape, columns with dtypes, the first rows, a
# handle) to every display of a pandas DataFrame or Series, and `rows()`, which the `table_rows`
# action calls to page through a displayed frame, sorted in pandas on the kernel side.
# Handles keep frames reachable without pinning them: a weak reference for each, and strong
# references only for the KEEP most recent displays (so `df.sort_values(...)` as a cell's last
# expression still pages while it is recent). A frame the user keeps in a variable pages for as
# long as it lives. Handles name the kernel process (TOKEN), so a restarted kernel never answers
# for a frame of its predecessor.
TABLE_MIME = "application/vnd.lizard.table+json"
TABLE_KERNEL = r'''
import collections, itertools, math, os, weakref
MIME = "application/vnd.lizard.table+json"
FIRST, KEEP, MAX_ROWS, MAX_TEXT, MAX_CELLS = 200, 16, 5000, 1000, 20000
TOKEN = os.urandom(6).hex()
CONTEXT = None
_ids = itertools.count(1)
_weak = weakref.WeakValueDictionary()
_strong = collections.OrderedDict()
_orders = collections.OrderedDict()  # (handle, column, ascending) -> row positions, last 4 sorts


def _cell(v):
    if v is None or isinstance(v, (bool, int, str)):
        return v if not isinstance(v, str) or len(v) <= MAX_TEXT else v[:MAX_TEXT] + "\u2026"
    if isinstance(v, float):
        return v if math.isfinite(v) else ("NaN" if v != v else ("inf" if v > 0 else "-inf"))
    try:
        import numpy
        if isinstance(v, numpy.generic):
            return _cell(v.item())
    except ImportError:
        pass
    s = str(v)
    return s if len(s) <= MAX_TEXT else s[:MAX_TEXT] + "\u2026"


def _frame(obj):
    import pandas
    if isinstance(obj, pandas.Series):
        return obj.to_frame(name=obj.name if obj.name is not None else 0)
    return obj


def _kind(dtype):
    return getattr(dtype, "kind", "O")


def _page(df, positions):
    part = df.iloc[positions]
    return ([_cell(v) for v in part.index.tolist()],
            [[_cell(v) for v in part.iloc[:, i].tolist()] for i in range(part.shape[1])])


def _format(obj):
    df = _frame(obj)
    handle = "%s-%d" % (TOKEN, next(_ids))
    _weak[handle] = obj
    _strong[handle] = obj
    while len(_strong) > KEEP:
        _strong.popitem(last=False)
    # A wide frame sends fewer first rows: the output stays small, the app asks for the rest.
    index, data = _page(df, slice(0, max(1, min(FIRST, MAX_CELLS // max(1, df.shape[1])))))
    idx = df.index
    return {"version": 1, "handle": handle, "context": CONTEXT, "series": df is not obj,
            "shape": [int(df.shape[0]), int(df.shape[1])],
            "columns": [{"name": _cell(c) if not isinstance(c, tuple) else " / ".join(map(str, c)),
                         "dtype": str(t), "kind": _kind(t)} for c, t in zip(df.columns, df.dtypes)],
            "index": {"name": " / ".join(str(n) for n in idx.names if n is not None),
                      "dtype": str(idx.dtype), "kind": _kind(idx.dtype)},
            "start": 0, "index_values": index, "data": data}


def rows(handle, start, count, column=None, ascending=True):
    obj = _strong.get(handle)
    if obj is None:
        obj = _weak.get(handle)
    if obj is None:
        if not handle.startswith(TOKEN + "-"):
            raise LookupError("this table was shown by an earlier kernel, which is gone")
        raise LookupError("this table is no longer in the kernel's memory (only the %d most recent "
                          "displays and frames still in variables are kept)" % KEEP)
    df = _frame(obj)
    total = int(df.shape[0])
    start, count = max(0, int(start)), max(0, min(int(count), MAX_ROWS, MAX_CELLS // max(1, df.shape[1]) or 1))
    if column is None:
        positions = slice(start, min(total, start + count))
    else:
        key = (handle, int(column), bool(ascending))
        order = _orders.get(key)
        if order is None:
            import numpy
            s = df.index.to_series() if column < 0 else df.iloc[:, int(column)]
            s = s.reset_index(drop=True)
            try:
                order = s.sort_values(ascending=bool(ascending), kind="mergesort", na_position="last").index.to_numpy()
            except TypeError:  # mixed types in an object column: sort by their text
                order = s.astype(str).sort_values(ascending=bool(ascending), kind="mergesort").index.to_numpy()
            _orders[key] = order
            while len(_orders) > 4:
                _orders.popitem(last=False)
        _orders.move_to_end(key)
        positions = order[start:start + count]
    index, data = _page(df, positions)
    return {"handle": handle, "start": start, "rows": total, "index_values": index, "data": data}


def install(context):
    global CONTEXT
    CONTEXT = context
    from IPython import get_ipython
    from IPython.core.formatters import BaseFormatter
    from traitlets import ObjectName, Unicode
    ip = get_ipython()
    if ip is None or MIME in ip.display_formatter.formatters:
        return

    class TableFormatter(BaseFormatter):
        format_type = Unicode(MIME)
        print_method = ObjectName("_repr_lizard_table_")
        _return_type = (dict,)

    f = TableFormatter(parent=ip.display_formatter)
    def safe(obj):
        try:
            return _format(obj)
        except Exception:  # an odd frame: it still shows as HTML, with no error for the user
            return None

    f.for_type_by_name("pandas.core.frame", "DataFrame", safe)
    f.for_type_by_name("pandas.core.series", "Series", safe)
    ip.display_formatter.formatters[MIME] = f
'''

TABLE_INSTALL = ("(lambda sys, types, src, ctx: (sys.modules.get('_lizard_table') or (lambda m: (exec(src, m.__dict__), "
                 "sys.modules.__setitem__('_lizard_table', m), m)[2])(types.ModuleType('_lizard_table'))).install(ctx))"
                 "(__import__('sys'), __import__('types'), %r, %r)")


def install_table_formatter(kc, pid, context):
    """Installs the table formatter in a kernel (once per kernel process; silent: the execution
    count does not move). A kernel without IPython's formatters or pandas just shows HTML."""
    try:
        silent(kc, TABLE_INSTALL % (TABLE_KERNEL, context), pid)
    except Exception:
        pass


def table_rows(m, a, slot, out):
    """table_rows {context, handle, start, count, column?, ascending?}: rows [start, start+count)
    of a displayed frame, sorted by column (-1: the index) when given. Never starts a kernel."""
    handle, start, count = a.get("handle"), a.get("start", 0), a.get("count", 100)
    column, ascending = a.get("column"), a.get("ascending", True)
    if not isinstance(handle, str) or not re.match(r"^[0-9a-f]{12}-[0-9]{1,12}$", handle):
        raise RunnerError("handle must be a table handle from a %s output" % TABLE_MIME)
    for name, v, low in (("start", start, 0), ("count", count, 1)):
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            raise RunnerError("%s must be an integer >= %d" % (name, low))
    if column is not None and (isinstance(column, bool) or not isinstance(column, int) or column < -1):
        raise RunnerError("column must be a column number (-1: the index)")
    if m["language"] != "python" or not has_kernel() or not kernel_alive(kernel_pid(m), m):
        raise RunnerError("the kernel that showed this table is gone")
    expr = "__import__('_lizard_table').rows(%r, %d, %d, %r, %r)" % (handle, start, count, column, bool(ascending))
    page, err = table_call(m, a, slot, out, "", expr, 30)
    if err is not None:
        if err.get("ename") == "ModuleNotFoundError":
            raise RunnerError("the kernel that showed this table is gone (it was restarted)")
        raise RunnerError("%s" % (err.get("evalue") or err.get("ename") or "no answer from the kernel"))
    out(dict(page, type="ok"))


# Defined in the kernel's `_lizard_table` module by each table_for_variable request (a kernel that
# an older runner set up has the module without it). It registers a variable's frame as a display
# does, so table_rows pages through it with the handle it returns.
TABLE_FOR_VARIABLE = r'''
def for_variable(name):
    from IPython import get_ipython
    ns = get_ipython().user_ns
    if name not in ns:
        raise NameError("%s is not defined" % name)
    obj = ns[name]
    import pandas
    if not isinstance(obj, (pandas.DataFrame, pandas.Series)):
        raise TypeError("%s is of type %s, not a pandas DataFrame or Series" % (name, type(obj).__name__))
    return _format(obj)
'''


def table_call(m, a, slot, out, code, expr, default_timeout):
    """Runs code then evaluates expr (JSON text of a dict) silently in the context's kernel:
    (the dict, None), or (None, the error's {ename, evalue})."""
    kc = slot.get(m, out)
    msg_id = kc.execute(code, silent=True, store_history=False, allow_stdin=False, stop_on_error=False,
                        user_expressions={"r": "__import__('json').dumps(%s)" % expr})
    reply = (shell_reply(kc, msg_id, arg_timeout(dict(timeout=a.get("timeout") or default_timeout)), slot.pid)
             or {}).get("content")
    if not reply:
        raise RunnerError("the kernel did not answer (busy?)")
    r = (reply.get("user_expressions") or {}).get("r") or {}
    if reply.get("status") != "ok" or r.get("status") != "ok":
        return None, r if r.get("status") else reply
    import ast
    return json.loads(ast.literal_eval(r.get("data", {}).get("text/plain", "''")) or "{}"), None


def table_for_variable(m, a, slot, out):
    """table_for_variable {context, name}: the variable's DataFrame/Series as a table output (the
    table MIME's fields, with a handle for table_rows). Never starts a kernel."""
    name = a.get("name")
    if not (isinstance(name, str) and name.isidentifier()):
        raise RunnerError("name must be a Python identifier")
    if m is None or m["language"] != "python" or not has_kernel() or not kernel_alive(kernel_pid(m), m):
        raise RunnerError("the kernel is not running: run a cell to start it")
    code = "exec(%r, __import__('_lizard_table').__dict__)" % TABLE_FOR_VARIABLE
    table, err = table_call(m, a, slot, out, code, "__import__('_lizard_table').for_variable(%r)" % name, 30)
    if err is not None:
        if err.get("ename") == "ModuleNotFoundError":
            raise RunnerError("this kernel cannot show tables (no IPython display formatters or pandas)")
        raise RunnerError("%s" % (err.get("evalue") or err.get("ename") or "no answer from the kernel"))
    out(dict(table, type="ok"))


# ---------------------------------------------------------------- actions

def arg_code(a):
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


def arg_envs(a):
    envs = a.get("envs") or {}
    if not isinstance(envs, dict) or not all(isinstance(k, str) and isinstance(v, str) and k and "=" not in k
                                             and "\0" not in k + v for k, v in envs.items()):
        raise RunnerError("envs must map variable names to strings")
    return envs


def arg_timeout(a):
    t = a.get("timeout")
    if t is None:
        return 60.0
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not t > 0:
        raise RunnerError("timeout must be a positive number of seconds")
    return float(t)


def target_context(a):
    """The context id an action works on (None for list / shutdown)."""
    act = a.get("action")
    if act in ("run", "complete", "inspect", "list_variables", "table_for_variable") and not a.get("context"):
        return "default-" + language_of(a)
    if act == "create":
        if a.get("id") is None:
            a["id"] = "ctx-" + os.urandom(8).hex()
        return check_id(a["id"])
    if act == "table_rows":
        return check_id(a.get("context"))
    if act in ("run", "delete", "restart", "interrupt", "save_variables", "load_variables", "complete", "inspect",
               "list_variables", "table_for_variable"):
        return check_id(a.get("context"))
    return None


def existing(cid):
    m = load_meta(cid)
    if m is None:
        raise RunnerError("context %r not found" % cid)
    return m


def handle(a, slot, out):
    """Carries out one action; ends with exactly one done/context/contexts/ok event (or raises)."""
    act = a.get("action")
    os.makedirs(ROOT, exist_ok=True)
    if act == "list":
        out({"type": "contexts", "data": list_contexts()})
        return
    if act == "save_all":
        save_all(out)
        return
    cid = target_context(a)
    if act == "create":
        lang = language_of(a)
        m = new_meta(cid, lang, a.get("cwd"))
        if lang == "python" and has_kernel():
            slot.get(m, out)
        out(dict(public(m), type="context"))
    elif act == "delete":
        m = existing(cid)
        slot.drop()
        stop_kernel(m)
        signal_run(m, signal.SIGKILL)
        shutil.rmtree(ctx_dir(cid), ignore_errors=True)
        out({"type": "ok"})
    elif act == "restart":
        m = existing(cid)
        slot.drop()
        if m["language"] == "python" and has_kernel():
            start_kernel(m)
            slot.get(m, out)
        m["count"] = 0
        save_meta(m)
        out({"type": "ok"})
    elif act == "interrupt":
        out({"type": "ok", "interrupted": signal_run(existing(cid), signal.SIGINT)})
    elif act in ("save_variables", "load_variables"):
        variables(existing(cid), a, slot, out)
    elif act in ("complete", "inspect"):
        kernel_query(load_meta(cid) if not a.get("context") else existing(cid), a, slot, out)
    elif act == "table_rows":
        table_rows(existing(cid), a, slot, out)
    elif act == "table_for_variable":
        table_for_variable(load_meta(cid) if not a.get("context") else existing(cid), a, slot, out)
    elif act == "list_variables":
        list_user_variables(load_meta(cid) if not a.get("context") else existing(cid), a, slot, out)
    elif act == "run":
        code, envs, timeout = arg_code(a), arg_envs(a), arg_timeout(a)
        m = load_meta(cid) if not a.get("context") else existing(cid)
        if m is None:
            m = new_meta(cid, language_of(a), a.get("cwd"))
        if m["language"] == "python" and has_kernel():
            run_python(m, code, envs, timeout, slot, out)
        else:
            run_process(m, code, envs, timeout, out)
    else:
        raise RunnerError("unknown action %r" % (act,))


# ---------------------------------------------------------------- serve: the warm, persistent path

class Inbox:
    """The request folder: inotify (through libc with ctypes) when it works, else polling."""
    IN_CLOSE_WRITE, IN_MOVED_TO, IN_Q_OVERFLOW = 0x8, 0x80, 0x4000

    def __init__(self, path, watch="inotify"):
        self.path = path
        os.makedirs(path, mode=0o700, exist_ok=True)
        for name in os.listdir(path):  # leftovers were meant for a runner that is gone
            if REQUEST_NAME.match(name):
                os.remove(os.path.join(path, name))
        self.fd = -1
        self.buf = b""
        try:
            if watch == "poll":
                raise OSError("polling asked for")
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
            if fd >= 0 and libc.inotify_add_watch(fd, path.encode(), self.IN_CLOSE_WRITE | self.IN_MOVED_TO) >= 0:
                self.fd = fd
            elif fd >= 0:
                os.close(fd)
        except (OSError, AttributeError):
            self.fd = -1
        self.mode = "inotify" if self.fd >= 0 else "poll"

    def wait(self, timeout):
        """Names of complete request files, in arrival order (waits up to timeout seconds)."""
        p = select.poll()
        p.register(1, 0)  # only errors: POLLERR/POLLHUP once the reader of stdout is gone
        if self.fd >= 0:
            p.register(self.fd, select.POLLIN)
        for fd, ev in p.poll(int((timeout if self.fd >= 0 else min(timeout, 0.01)) * 1000)):
            if fd == 1 and ev & (select.POLLERR | select.POLLHUP | select.POLLNVAL):
                STOP.set()
        if self.fd < 0:
            return self.scan(0)
        names, overflow = [], False
        try:
            self.buf += os.read(self.fd, 65536)
        except BlockingIOError:
            pass
        while len(self.buf) >= 16:
            _, mask, _, n = struct.unpack_from("iIII", self.buf)
            if len(self.buf) < 16 + n:
                break
            name = self.buf[16:16 + n].split(b"\0", 1)[0].decode("utf-8", "replace")
            self.buf = self.buf[16 + n:]
            overflow = overflow or bool(mask & self.IN_Q_OVERFLOW)
            if REQUEST_NAME.match(name):
                names.append(name)
        return names + (self.scan(0) if overflow else [])

    def scan(self, min_age):
        now, found = time.time(), []
        for e in os.scandir(self.path):
            try:
                if REQUEST_NAME.match(e.name) and now - e.stat().st_mtime >= min_age:
                    found.append((e.stat().st_mtime_ns, e.name))
            except OSError:
                pass
        return [n for _, n in sorted(found)]

    def take(self, name, patient):
        """The request in `name` (removed), None if gone or (patient) not yet complete JSON."""
        path = os.path.join(self.path, name)
        try:
            with open(path, "rb") as f:
                raw = f.read()
            a = json.loads(raw.decode("utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            try:
                if patient and time.time() - os.path.getmtime(path) < 2:
                    return None
            except OSError:
                return None
            a = {"error": "unreadable request %s: %s" % (name, e)}
        try:
            os.remove(path)
        except FileNotFoundError:
            return None  # another reader took it first
        if not isinstance(a, dict):
            a = {"error": "request %s is not a JSON object" % name}
        return a


class Worker(threading.Thread):
    """Carries out one context's requests one at a time, keeping its kernel client warm."""

    def __init__(self):
        super().__init__(daemon=True)
        self.q = queue.Queue()
        self.slot = KernelSlot()

    def run(self):
        while True:
            a = self.q.get()
            if a is None:
                break
            serve_one(a, self.slot)
            self.q.task_done()
        self.slot.drop()


def serve_one(a, slot):
    out = Out(a["req"])
    try:
        handle(a, slot, out)
    except RunnerError as e:
        out({"type": "fatal", "message": str(e)})
    except Exception as e:  # a bug or an unexpected environment: report it, keep serving
        out({"type": "fatal", "message": "%s: %s" % (type(e).__name__, e)})


def serve(a):
    inbox_name, lifetime, watch = a.get("inbox"), a.get("lifetime"), a.get("watch") or "inotify"
    if inbox_name is not None:
        check_id(inbox_name)
    if watch not in ("inotify", "poll"):
        raise RunnerError("watch must be inotify or poll")
    if lifetime is not None and (isinstance(lifetime, bool) or not isinstance(lifetime, (int, float)) or lifetime <= 0):
        raise RunnerError("lifetime must be a positive number of seconds")
    os.makedirs(ROOT, exist_ok=True)
    inbox = Inbox(os.path.join(ROOT, ".requests", inbox_name) if inbox_name else os.path.join(ROOT, ".requests"),
                  watch)
    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, lambda *_: STOP.set())
    workers = {}
    Out()({"type": "ready", "pid": os.getpid(), "inbox": inbox.path, "watch": inbox.mode})
    expire_at = time.time() + lifetime if lifetime else None
    draining, quiet_since, last_scan = False, 0.0, time.time()
    while not STOP.is_set():
        if expire_at and not draining and time.time() >= expire_at:
            # Before the exec's own timeout cuts it off: the app opens a new serve on "expiring";
            # this one still takes what arrives meanwhile, and leaves once all is answered.
            draining, quiet_since = True, time.time()
            Out()({"type": "expiring"})
        names = inbox.wait(0.1 if draining else 0.5)
        rescanned = []
        if time.time() - last_scan > 1:  # a safety net for missed events
            rescanned = inbox.scan(1)
            last_scan = time.time()
        for name in names + rescanned:
            # Only an inotify event says the writer is done; anything else may still be written.
            r = inbox.take(name, patient=inbox.mode == "poll" or name in rescanned)
            if r is not None:
                dispatch(r, name, workers)
        names += rescanned
        if draining:
            if names or any(w.q.unfinished_tasks for w in workers.values()):
                quiet_since = time.time()
            elif time.time() - quiet_since >= 1:
                break
    for w in workers.values():
        w.q.put(None)
    for w in workers.values():
        w.join(2)
    if inbox_name:
        shutil.rmtree(inbox.path, ignore_errors=True)
    Out()({"type": "bye"})


def dispatch(r, name, workers):
    req = r.get("req")
    if not isinstance(req, str) or not req or len(req) > 128:
        req = name[len("req-"):-len(".json")]
    r["req"] = req
    out = Out(req)
    if "error" in r and "action" not in r:
        out({"type": "fatal", "message": r["error"]})
        return
    act = r.get("action")
    if act == "shutdown":
        out({"type": "ok"})
        STOP.set()
        return
    try:
        cid = target_context(r)
    except RunnerError as e:
        out({"type": "fatal", "message": str(e)})
        return
    if act == "save_all":  # may wait for busy kernels: on its own thread
        threading.Thread(target=serve_one, args=(r, KernelSlot()), daemon=True).start()
        return
    if cid is None or act == "interrupt":  # list, interrupt: at once, never queued behind a run
        serve_one(r, KernelSlot())
        return
    if cid not in workers:
        workers[cid] = Worker()
        workers[cid].start()
    workers[cid].q.put(r)


# ---------------------------------------------------------------- entry point

def main():
    out = Out()
    try:
        a = json.loads(base64.b64decode(sys.argv[1], validate=True).decode("utf-8"))
        if not isinstance(a, dict):
            raise ValueError("not an object")
    except (IndexError, ValueError) as e:
        out({"type": "fatal", "message": "the runner takes one argument, base64 of a JSON object (%s)" % e})
        return 3
    slot = KernelSlot()
    try:
        if a.get("action") == "serve":
            serve(a)
            return 0
        handle(a, slot, out)
    except RunnerError as e:
        out({"type": "fatal", "message": str(e)})
        return 3
    except Exception as e:  # a bug or an unexpected environment: still one clear event
        out({"type": "fatal", "message": "runner failure: %s: %s" % (type(e).__name__, e)})
        return 3
    finally:
        slot.drop()
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)  # do not wait for zmq sockets and helper threads to wind down
