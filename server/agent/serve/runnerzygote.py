# The warm python3 of lizard-agent's runner zygote (runnerzygote.h), run as
# `python3 -c <this> ` with a SOCK_SEQPACKET socket at fd 3. The official SDK starts its code
# runner with an exec per runCode, and a fresh python3 spends most of that run importing
# jupyter_client and waiting for the kernel to be "ready". Here the imports are done once; for
# each request the agent sends (the exec's argv, env, cwd, and its stdout, stderr and go pipes as
# fds) this process hands the request to a child that runs the SDK's runner source exactly as
# `python3 -c` would (sys.argv, a fresh __main__, the same exit codes) and answers the child's
# pid. The child is a grandchild (its parent exits at once), so the agent, PID 1, reaps it like
# any exec; it starts only once the agent has its exit slot (one byte on the go pipe).
#
# The child is forked ahead of its request (a "spare"): a freshly forked python3 pays a
# copy-on-write fault for every page it writes, and a run writes reference counts all over the
# imported modules, which cost more than the run itself (about 60 of 90 ms here). The spare takes
# its own copies of the resident pages before the request comes, while the previous run works;
# when there is none (it could not be forked), the child is forked at the request as before; a
# spare that does not take the request in time makes the zygote answer an error, and the agent
# starts the command itself (never two children with one request).
# A spare also opens a kernel client on the connection file of the context the last run used
# (the default Python context at first), so that the runner's BlockingKernelClient() for that
# file, if it is unchanged, is that client, connected and subscribed, instead of a new one that
# would spend most of a warm run connecting. While it waits, the spare also makes that client's
# handshake (below): when the kernel process that answered it is still the context's kernel at
# the run, the run's wait_for_ready has nothing left to prove and returns at once (7-10 ms of a
# warm run here). Anything else gets new clients, as always.
#
# The agent sends the official SDK's runners verified byte for byte (`sdk`), and lizard-local's
# own runner, which it vouches for; only the SDK's runner gets a prepared client, since only its
# way of opening clients is known here.
#
# One thing differs inside the child: jupyter_client's wait_for_ready, which sleeps in steps of
# 0.2 s, is replaced by a handshake that proves the same (a kernel_info reply on shell and its
# status message on iopub, so no output published after it is lost) in milliseconds.
import ast
import base64
import builtins
import gc
import json
import os
import select
import socket
import sys
import time
import types

# What the SDK's runner imports, and what jupyter_client imports only once a client is used (its
# event loop helper, the interface lookup, pyzmq's interop shim).
for _name in ("base64", "re", "shutil", "signal", "subprocess", "threading", "time", "resource",
              "queue", "jupyter_client", "jupyter_client.blocking", "ipykernel", "zmq",
              "nest_asyncio", "netifaces", "zmq.utils.interop"):
    try:
        __import__(_name)
    except ImportError:
        pass


def heartbeat_started(kc, limit=2.0):
    """Waits (at most `limit` seconds) until the client's heartbeat thread, if it was started,
    runs its loop. jupyter_client's HBChannel.stop() is lost when it comes before the thread
    has set its running flag: the thread then beats with its exit event set, opening a socket
    per turn and never waiting, until the process has no file descriptor left (and the stop
    waits for that). The stock wait_for_ready takes long enough for the thread to start; the
    fast handshake and a spare's prepared client do not, so both wait for it here."""
    hb = getattr(kc, "_hb_channel", None)
    end = time.monotonic() + limit
    while (hb is not None and hb.is_alive() and not getattr(hb, "_running", True)
           and time.monotonic() < end):
        time.sleep(0.0005)


def fast_wait_for_ready(self, timeout=None):
    """BlockingKernelClient.wait_for_ready with the same guarantee (the kernel answers on shell,
    and iopub carries the status of that answer) and without its fixed 0.2 s sleeps."""
    import queue
    limit = timeout if timeout is not None else 60
    end = time.monotonic() + limit
    while time.monotonic() < end:
        msg_id = self.kernel_info()
        reply = None
        while reply is None and time.monotonic() < end:
            try:
                r = self.get_shell_msg(timeout=min(1.0, max(0.01, end - time.monotonic())))
            except queue.Empty:
                break
            if r["parent_header"].get("msg_id") == msg_id:
                reply = r
        if reply is None:
            continue
        until = time.monotonic() + 0.5
        while time.monotonic() < until:
            try:
                msg = self.get_iopub_msg(timeout=max(0.01, until - time.monotonic()))
            except queue.Empty:
                break
            if msg["parent_header"].get("msg_id") == msg_id:
                handle = getattr(self, "_handle_kernel_info_reply", None)
                if handle is not None:
                    handle(reply)
                heartbeat_started(self)
                return
    raise RuntimeError("Kernel didn't respond in %d seconds" % limit)


RUNNER_ROOT = "/tmp/.lizard-code"  # the SDK runner's ROOT, where each context keeps its kernel
PYTHON_NAMES = ("python", "py", "python3")


def python_context(argv):
    """The context whose kernel a runner request runs Python in (as the runner chooses it), or
    None when it is not a Python run."""
    try:
        a = json.loads(base64.b64decode(argv[3]))
        if a.get("action") != "run":
            return None
        context = a.get("context")
        if context:
            return context if isinstance(context, str) and "/" not in context else None
        language = (a.get("language") or "python").lower()
        return "default-python" if language in PYTHON_NAMES else None
    except (ValueError, TypeError, AttributeError, IndexError):
        return None


# Made by a spare, for its one request: (client, connection file, its bytes, and the kernel
# process that answered the client's handshake, or None when none has answered yet).
PREPARED = None
# Seconds a spare waits for the kernel's answer to its handshake (the kernel may be busy with a
# long run): without an answer by then, the run makes the handshake itself.
HANDSHAKE_AHEAD_LIMIT = 2.0


def kernel_process(context):
    """The kernel process that `context`'s kernel.pid names, as (the file's bytes, the process's
    start time): the same pair later means the same process, not a restarted kernel or a reused
    pid. None when either cannot be read."""
    try:
        with open(os.path.join(RUNNER_ROOT, context, "kernel.pid"), "rb") as f:
            pid_text = f.read()
        with open("/proc/%d/stat" % int(pid_text.strip())) as f:
            start_time = f.read().rsplit(")", 1)[1].split()[19]  # field 22
        return (pid_text, start_time)
    except (OSError, ValueError, IndexError):
        return None


def handshake_ahead(kc, link):
    """fast_wait_for_ready's proof (a kernel_info reply on shell and its status on iopub), made
    while the spare waits for its request rather than during the run. True once made; False
    when a request came first or the kernel did not answer within HANDSHAKE_AHEAD_LIMIT (the
    run then makes the proof itself, as before)."""
    import queue
    import zmq
    poller = zmq.Poller()
    poller.register(kc.shell_channel.socket, zmq.POLLIN)
    poller.register(kc.iopub_channel.socket, zmq.POLLIN)
    poller.register(link.fileno(), zmq.POLLIN)
    msg_id = kc.kernel_info()
    reply = None
    status = False
    end = time.monotonic() + HANDSHAKE_AHEAD_LIMIT
    while reply is None or not status:
        left = end - time.monotonic()
        if left <= 0:
            return False
        events = dict(poller.poll(left * 1000))
        if link.fileno() in events:
            return False
        for get, is_shell in ((kc.get_shell_msg, True), (kc.get_iopub_msg, False)):
            while True:
                try:
                    msg = get(timeout=0)
                except queue.Empty:
                    break
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                if is_shell:
                    reply = msg
                else:
                    status = True
    handle = getattr(kc, "_handle_kernel_info_reply", None)
    if handle is not None:
        handle(reply)
    return True


def prepare_client(context, link):
    """Opens a kernel client on `context`'s connection file, as the runner would open one, and
    makes its handshake ahead when the kernel answers in time."""
    global PREPARED
    path = os.path.join(RUNNER_ROOT, context, "kernel.json")
    try:
        with open(path, "rb") as f:
            text = f.read()
        kernel = kernel_process(context)
        from jupyter_client import BlockingKernelClient
        kc = BlockingKernelClient()
        kc.load_connection_file(path)
        kc.start_channels()
        heartbeat_started(kc)
    except Exception:
        return
    try:
        answered = kernel is not None and handshake_ahead(kc, link)
    except Exception:
        answered = False
    PREPARED = (kc, path, text, kernel if answered else None)


def offer_prepared(argv, sdk):
    """Makes the runner's first BlockingKernelClient() the prepared client when the request runs
    in the same context and, at that moment (after the runner has started a kernel that was not
    running), the connection file is unchanged: the same kernel, the same client settings. Its
    handshake (wait_for_ready) happens in the run unless the spare made it ahead with the very
    kernel process that kernel.pid names now. Otherwise the prepared client is closed
    and the runner's clients are new, as always (as for every runner but the SDK's, whose way of
    opening clients is the only one known here)."""
    if PREPARED is None:
        return
    kc, path, text, kernel = PREPARED
    context = python_context(argv) if sdk else None
    if context is None or os.path.join(RUNNER_ROOT, context, "kernel.json") != path:
        kc.stop_channels()
        return
    import jupyter_client
    new_client = jupyter_client.BlockingKernelClient

    def unchanged():
        try:
            with open(path, "rb") as f:
                return f.read() == text
        except OSError:
            return False

    def first_client(*args, **kwargs):
        jupyter_client.BlockingKernelClient = new_client
        if args or kwargs or not unchanged():
            kc.stop_channels()
            return new_client(*args, **kwargs)
        real_load = kc.load_connection_file
        real_start = kc.start_channels

        def load_connection_file(fname=None):
            if fname != path:
                raise RuntimeError("a prepared kernel client was offered for another file")
            kc.load_connection_file = real_load

        def start_channels(*args, **kwargs):
            kc.start_channels = real_start
            if args or kwargs:
                raise RuntimeError("a prepared kernel client was offered other channels")
        kc.load_connection_file = load_connection_file
        kc.start_channels = start_channels
        if kernel is not None and kernel_process(context) == kernel:
            # The kernel process that answered the handshake ahead is the one the runner has
            # just checked alive, and the connection file is unchanged: the proof holds.
            real_wait = kc.wait_for_ready

            def wait_for_ready(*args, **kwargs):
                kc.wait_for_ready = real_wait
            kc.wait_for_ready = wait_for_ready
        return kc
    jupyter_client.BlockingKernelClient = first_client


def exit_code(e):
    """What `python3 -c` exits with for SystemExit e."""
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except Exception:
        pass
    return 1


# Compiled runner sources, by their text (the agent sends only verified ones: a handful).
COMPILED = {}


def compiled(source):
    code = COMPILED.get(source)
    if code is None:
        if len(COMPILED) >= 8:
            COMPILED.clear()
        code = COMPILED[source] = compile(source, "<string>", "exec")
    return code


# lizard-local's runner travels as one file that compiles its modules when they are imported
# (resources/runner/bundle.py): each module's source is a string literal `_SOURCES[name] = ...`
# and its code is compile(source, <path>, "exec", dont_inherit=True). Those code objects, made
# once here, are what compile() gives a child for exactly those arguments; any other call
# compiles as always.
MODULES = {}  # (source, path) -> code
SHIPPED = set()  # the runner sources whose modules are in MODULES


def remember_modules(source):
    """Compiles the modules bundled in `source` (if it is a bundle) for the children to come."""
    if source in SHIPPED:
        return
    if len(SHIPPED) >= 4:
        SHIPPED.clear()
        MODULES.clear()
    SHIPPED.add(source)
    sources, packages = {}, ()
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target = node.targets[0]
        if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                and target.value.id == "_SOURCES" and isinstance(target.slice, ast.Constant)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            sources[target.slice.value] = node.value.value
        elif isinstance(target, ast.Name) and target.id == "_PACKAGES":
            packages = ast.literal_eval(node.value)
    for name, text in sources.items():
        path = name.replace(".", "/") + ("/__init__.py" if name in packages else ".py")
        MODULES[(text, path)] = compile(text, path, "exec", dont_inherit=True)


REAL_COMPILE = builtins.compile


def compile_remembered(source, filename, mode, flags=0, dont_inherit=False, optimize=-1,
                       **kwargs):
    if (mode == "exec" and flags == 0 and dont_inherit is True and optimize == -1
            and not kwargs and type(source) is str and type(filename) is str):
        code = MODULES.get((source, filename))
        if code is not None:
            return code
    return REAL_COMPILE(source, filename, mode, flags, dont_inherit, optimize, **kwargs)


def run_child(req, code_object, out_fd, err_fd, go_fd, spare_fd=-1):
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    for fd in (null, out_fd, err_fd, 3, spare_fd):
        if fd >= 0:
            os.close(fd)
    if os.read(go_fd, 1) != b"g":  # the agent gave up on this exec
        os._exit(0)
    os.close(go_fd)
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    if req.get("noFileGrowth"):
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    try:
        from jupyter_client import BlockingKernelClient
        BlockingKernelClient.wait_for_ready = fast_wait_for_ready
    except ImportError:
        pass
    offer_prepared(req["argv"], req.get("sdk"))
    if MODULES:
        builtins.compile = compile_remembered
    sys.argv = ["-c"] + req["argv"][3:]
    main = types.ModuleType("__main__")
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    code = 0
    try:
        if code_object is None:
            code_object = compile(req["argv"][2], "<string>", "exec")
        exec(code_object, main.__dict__)
    except SystemExit as e:
        code = exit_code(e)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    try:
        import threading
        threading._shutdown()  # as at interpreter exit: wait for the threads it did not join
    except Exception:
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            code = 120
    os._exit(code)


MADV_POPULATE_WRITE = 23  # Linux 5.14
OWN_CHUNK_PAGES = 256


def own_pages(interrupted):
    """Copies the resident pages this forked process still shares with the zygote, a few hundred
    at a time (madvise), instead of one fault per page during the run; stops as soon as
    interrupted() says a request came. Pages the zygote never touched stay untouched. Without
    the call (older kernels) nothing changes."""
    try:
        import ctypes
        madvise = ctypes.CDLL(None, use_errno=True).madvise
        madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        page = os.sysconf("SC_PAGE_SIZE")
        regions = []
        with open("/proc/self/maps") as maps:
            for line in maps:
                fields = line.split()
                if fields[1] == "rw-p" and not (len(fields) > 5 and fields[5] == "[stack]"):
                    start, end = (int(x, 16) for x in fields[0].split("-"))
                    regions.append((start, end))
        with open("/proc/self/pagemap", "rb", buffering=0) as pagemap:
            for start, end in regions:
                pagemap.seek(start // page * 8)
                entries = memoryview(pagemap.read((end - start) // page * 8)).cast("Q")
                first = None
                for i in range(len(entries) + 1):
                    present = i < len(entries) and entries[i] >> 63
                    if present and first is None:
                        first = i
                    if first is not None and (not present or i - first == OWN_CHUNK_PAGES):
                        if interrupted() or madvise(start + first * page, (i - first) * page,
                                                    MADV_POPULATE_WRITE) != 0:
                            return
                        first = i if present else None
    except (OSError, AttributeError, ValueError):
        pass


def spare_main(link, context):
    """A spare child: owns its pages, opens a kernel client on `context`, then waits for one
    request (its fds come with it) and runs it; ends when the zygote does. A request that comes
    early cuts the preparations short: it is served at once, as prepared as the spare got."""
    def request_waiting():
        return bool(select.select([link], [], [], 0)[0])
    # Pages first: the client's making writes to many of them, and one madvise copies a page
    # for less than its fault would cost.
    own_pages(request_waiting)
    if context and not request_waiting():
        prepare_client(context, link)
    try:
        link.send(b"prepared")  # for a zygote that waits for it (Spare.wait_prepared)
        msg, fds, _, _ = socket.recv_fds(link, 1 << 20, 3)
        req = json.loads(msg) if msg else None
    except (OSError, ValueError):
        os._exit(0)
    if not isinstance(req, dict) or len(fds) != 3:
        os._exit(0)
    try:
        link.send(b"taken")
    except OSError:
        os._exit(0)
    try:
        code_object = compiled(req["argv"][2])
    except SyntaxError:
        code_object = None
    run_child(req, code_object, *fds, spare_fd=link.detach())


def fork_grandchild(body):
    """Forks a child whose parent exits at once (PID 1 adopts it) and runs body() in it; the
    child's pid, or None."""
    r, w = os.pipe()
    middle = os.fork()
    if middle == 0:
        try:
            os.close(r)
            child = os.fork()
            if child == 0:
                os.close(w)
                try:
                    body()
                finally:
                    os._exit(127)
            os.write(w, str(child).encode())
        finally:
            os._exit(0)
    os.close(w)
    data = os.read(r, 32)
    os.close(r)
    os.waitpid(middle, 0)
    return int(data) if data.isdigit() else None


class Spare:
    # Seconds a spare may take to take a request (it may be opening its client on a loaded
    # host); within the agent's own wait for the zygote's answer (runnerzygote.cpp).
    SERVE_WAIT = 4.0
    # Seconds a warm copy's preparation waits for its first spare to be prepared.
    PREPARE_WAIT = 3.0

    def __init__(self):
        self.pid = None
        self.link = None

    def make(self, context):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)

        def body():
            ours.close()
            spare_main(theirs, context)
        try:
            self.pid = fork_grandchild(body)
        except OSError:  # no process to spare (the pids limit): forked at the request instead
            self.pid = None
        theirs.close()
        self.link = ours if self.pid else None
        if not self.pid:
            ours.close()

    def retire(self):
        """Ends the spare, which took nothing: it leaves when its link closes."""
        if self.link is not None:
            self.link.close()
        self.pid = self.link = None

    def ready(self):
        return self.link is not None

    def wait_prepared(self, limit):
        """Waits (at most `limit` seconds) until the spare owns its pages and has its client. A
        warm copy is ready for its claim only then: a run that comes meanwhile cuts the
        preparations short and pays for the rest itself (about twice the time here)."""
        if self.link is not None and select.select([self.link], [], [], limit)[0]:
            try:
                self.link.recv(16)  # "prepared"; a spare that ended is retired when handed
            except OSError:
                pass

    def hand(self, msg, fds):
        """Gives the request to the spare: its pid once it took it. Raises OSError when it did
        not: the zygote then answers an error, so that no child of its own runs the request
        beside the spare. The agent runs it itself and never says go, so a spare that took it
        after all reads the end of the go pipe and leaves without running it."""
        pid, link = self.pid, self.link
        self.pid = self.link = None
        try:
            socket.send_fds(link, [msg], fds)
            taken = False
            end = time.monotonic() + self.SERVE_WAIT
            while select.select([link], [], [], max(0.0, end - time.monotonic()))[0]:
                reply = link.recv(16)
                if reply != b"prepared":  # that one may still be unread
                    taken = reply == b"taken"
                    break
        finally:
            link.close()
        if not taken:
            raise OSError("the runner's prepared child did not take the request")
        return pid


def serve(sock):
    gc.freeze()  # what the imports made is never collected: runs need not walk it
    sock.send(b'{"ready":true}')
    spare = Spare()
    context = "default-python"
    spare.make(context)
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 20, 3)
        except OSError:
            return
        if not msg:
            return  # the agent is gone
        answer = {"error": "bad request"}
        req = None
        try:
            req = json.loads(msg)
            if not fds and isinstance(req, dict) and isinstance(req.get("compile"), str):
                answer = {"ok": True}
                try:  # the shipped runner, ahead of its first run
                    compiled(req["compile"])
                    remember_modules(req["compile"])
                except (SyntaxError, ValueError) as e:
                    answer = {"ok": False, "error": str(e)}
                spare.retire()
                spare.make(context)  # one that has them
                spare.wait_prepared(Spare.PREPARE_WAIT)  # a warm copy's: claimed prepared
                sock.send(json.dumps(answer).encode())
                continue
            if len(fds) != 3:
                raise ValueError("three fds expected")
            try:
                code_object = compiled(req["argv"][2])  # the next spares inherit it
            except SyntaxError:
                code_object = None  # the child reports it as python3 -c would
            if req.get("sdk"):
                context = python_context(req["argv"]) or context
            if spare.ready():
                pid = spare.hand(msg, fds)
            else:
                pid = fork_grandchild(lambda: run_child(req, code_object, *fds))
            answer = {"pid": pid} if pid else {"error": "fork failed"}
        except (OSError, ValueError, KeyError, TypeError) as e:
            answer = {"error": str(e)}
        finally:
            for fd in fds:
                os.close(fd)
        sock.send(json.dumps(answer).encode())
        if isinstance(req, dict) and not req.get("sdk") and isinstance(req.get("argv"), list):
            try:  # lizard-local's runner: its next runs need not compile its modules
                remember_modules(req["argv"][2])
            except (SyntaxError, ValueError, IndexError, TypeError):
                pass
        spare.make(context)


if __name__ == "__main__":
    serve(socket.socket(fileno=3))
