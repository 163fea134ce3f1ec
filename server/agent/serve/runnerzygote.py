# The warm python3 of lizard-agent's runner zygote (runnerzygote.h), run as
# `python3 -c <this> ` with a SOCK_SEQPACKET socket at fd 3. The official SDK starts its code
# runner with an exec per runCode, and a fresh python3 spends most of that run importing
# jupyter_client and waiting for the kernel to be "ready". Here the imports are done once; for
# each request the agent sends (the exec's argv, env, cwd, and its stdout, stderr, go and exit
# pipes as fds) this process hands the request to a child that runs the SDK's runner source
# exactly as `python3 -c` would (sys.argv, a fresh __main__, the same exit codes) and answers the
# child's pid. The child is a grandchild (its parent exits at once), so the agent, PID 1, reaps
# it like any exec; it starts only once the agent has its exit slot (one byte on the go pipe).
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
# would spend most of a warm run connecting. Anything else gets new clients, as always.
#
# After the first SDK run the zygote also forks a resident runner (resident_main), which runs the
# SDK's Python runs in itself, one at a time, with a kernel client kept open between them: no
# process and no client per run. A run it cannot serve that way, or that comes while it is busy,
# goes to a spare as above.
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
import io
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


PREPARED = None  # (client, connection file, its bytes): made by a spare, for its one request
# Seconds the resident runner waits for a kernel's answer to the handshake of a client it opens
# (the kernel may be busy with a long run): without one by then, it declines the run.
HANDSHAKE_LIMIT = 2.0


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


def unread_messages(kc):
    """What the client has received and not read yet, shell first, as (message, on iopub)."""
    import queue
    for get, on_iopub in ((kc.get_shell_msg, False), (kc.get_iopub_msg, True)):
        while True:
            try:
                msg = get(timeout=0)
            except queue.Empty:
                break
            yield msg, on_iopub


def handshake(kc, link):
    """fast_wait_for_ready's proof (a kernel_info reply on shell and its status on iopub) for a
    client the resident runner opens: True once made; False when a message came on `link`
    first or the kernel did not answer within HANDSHAKE_LIMIT."""
    import zmq
    poller = zmq.Poller()
    poller.register(kc.shell_channel.socket, zmq.POLLIN)
    poller.register(kc.iopub_channel.socket, zmq.POLLIN)
    poller.register(link.fileno(), zmq.POLLIN)
    msg_id = kc.kernel_info()
    reply = None
    status = False
    end = time.monotonic() + HANDSHAKE_LIMIT
    while reply is None or not status:
        left = end - time.monotonic()
        if left <= 0:
            return False
        events = dict(poller.poll(left * 1000))
        if link.fileno() in events:
            return False
        for msg, on_iopub in unread_messages(kc):
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if on_iopub:
                status = True
            else:
                reply = msg
    handle = getattr(kc, "_handle_kernel_info_reply", None)
    if handle is not None:
        handle(reply)
    return True


def open_client(path):
    """A kernel client on the connection file `path`, opened as the runner opens one, and the
    file's bytes; raises when it cannot be opened."""
    with open(path, "rb") as f:
        text = f.read()
    from jupyter_client import BlockingKernelClient
    kc = BlockingKernelClient()
    kc.load_connection_file(path)
    kc.start_channels()
    heartbeat_started(kc)
    return kc, text


def file_unchanged(path, text):
    """Whether the file `path` still holds `text`, byte for byte."""
    try:
        with open(path, "rb") as f:
            return f.read() == text
    except OSError:
        return False


def prepare_client(context):
    """Opens a kernel client on `context`'s connection file, as the runner would open one."""
    global PREPARED
    path = os.path.join(RUNNER_ROOT, context, "kernel.json")
    try:
        kc, text = open_client(path)
    except Exception:
        return
    PREPARED = (kc, path, text)


def offer_prepared(argv, sdk):
    """Makes the runner's first BlockingKernelClient() the prepared client when the request runs
    in the same context and, at that moment (after the runner has started a kernel that was not
    running), the connection file is unchanged: the same kernel, the same client settings; its
    handshake (wait_for_ready) still happens in the run. Otherwise the prepared client is closed
    and the runner's clients are new, as always (as for every runner but the SDK's, whose way of
    opening clients is the only one known here)."""
    if PREPARED is None:
        return
    kc, path, text = PREPARED
    context = python_context(argv) if sdk else None
    if context is None or os.path.join(RUNNER_ROOT, context, "kernel.json") != path:
        kc.stop_channels()
        return
    import jupyter_client
    new_client = jupyter_client.BlockingKernelClient

    def first_client(*args, **kwargs):
        jupyter_client.BlockingKernelClient = new_client
        if args or kwargs or not file_unchanged(path, text):
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


def run_source(req, code_object):
    """Runs the request's runner source as `python3 -c` would: its argv, a fresh __main__; the
    exit code python3 would give (and the traceback on stderr of what the source did not
    catch)."""
    sys.argv = ["-c"] + req["argv"][3:]
    main = types.ModuleType("__main__")
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    try:
        if code_object is None:
            code_object = compile(req["argv"][2], "<string>", "exec")
        exec(code_object, main.__dict__)
    except SystemExit as e:
        return exit_code(e)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        return 1
    return 0


def run_child(req, code_object, out_fd, err_fd, go_fd, spare_fd=-1):
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    close_zygote_sockets()
    for fd in (null, out_fd, err_fd, spare_fd):
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
    code = run_source(req, code_object)
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
        prepare_client(context)
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


# The zygote's own ends of its sockets (to the agent, to each spare and to the resident): a
# process forked from it closes them first, since their peers take a closed socket as the
# zygote's word (a spare leaves when its link closes, the resident when the zygote is gone).
ZYGOTE_SOCKETS = set()


def close_zygote_sockets():
    for s in ZYGOTE_SOCKETS:
        s.close()


def fork_linked(body):
    """Forks a grandchild (fork_grandchild) that runs body(link), `link` being its end of a new
    socket pair, holding none of the zygote's sockets; (its pid, the zygote's end), or (None,
    None) when no process could be forked (the pids limit)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)

    def child():
        close_zygote_sockets()
        ours.close()
        body(theirs)
    try:
        pid = fork_grandchild(child)
    except OSError:
        pid = None
    theirs.close()
    if not pid:
        ours.close()
        return None, None
    ZYGOTE_SOCKETS.add(ours)
    return pid, ours


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
        # Without a process to spare (the pids limit), the child is forked at the request.
        self.pid, self.link = fork_linked(lambda link: spare_main(link, context))

    def retire(self):
        """Ends the spare, which took nothing: it leaves when its link closes."""
        if self.link is not None:
            ZYGOTE_SOCKETS.discard(self.link)
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
        ZYGOTE_SOCKETS.discard(link)
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


class HeldClient:
    """The resident runner's kernel client, kept between runs, and what it was opened on."""

    def __init__(self, kc, path, text, kernel):
        self.kc = kc
        self.path = path  # the connection file, and its bytes then
        self.text = text
        self.kernel = kernel  # kernel_process() then
        self.state = "idle"  # the shell's last execution state seen on iopub (the handshake's)
        self.errored = False  # an error was published since the kernel was last seen settled

    def current(self, context):
        """Whether the client is on `context`'s kernel as it is now: the same connection file,
        the same kernel process."""
        return (self.path == os.path.join(RUNNER_ROOT, context, "kernel.json")
                and file_unchanged(self.path, self.text) and kernel_process(context) == self.kernel)


def connect_client(context, link):
    """A HeldClient on `context`'s kernel, with its handshake made (cut short by a message on
    `link`); None when the context has no running kernel or it did not answer."""
    kernel = kernel_process(context)
    if kernel is None:
        return None
    path = os.path.join(RUNNER_ROOT, context, "kernel.json")
    try:
        kc, text = open_client(path)
    except Exception:
        return None
    try:
        if handshake(kc, link):
            return HeldClient(kc, path, text, kernel)
    except Exception:
        pass
    kc.stop_channels()
    return None


# Requests whose status messages say nothing of the shell's state (ipykernel answers them on
# its control channel, beside a run).
CONTROL_REQUESTS = ("interrupt_request", "shutdown_request", "debug_request", "usage_request")


def note_state(held, msg):
    """Keeps the shell's last execution state that an iopub message shows, and whether an error
    was published."""
    if msg.get("msg_type") == "error":
        held.errored = True
    elif msg.get("msg_type") == "status" and \
            msg.get("parent_header", {}).get("msg_type") not in CONTROL_REQUESTS:
        held.state = msg.get("content", {}).get("execution_state")


def settled(held):
    """Whether the kernel takes code now. After an error (a run that timed out and was
    interrupted, say) ipykernel aborts the execute requests that reach it before it has
    finished handling the error, and that end is not shown on iopub: a run that sent its code a
    few milliseconds after the interrupt lost it, even after the kernel said idle (on a busy
    host). So unless the kernel was last seen idle with no error since, an empty silent execute
    goes first, again while it comes back aborted, for at most HANDSHAKE_LIMIT; its answer proves
    what the runner's handshake proves. False when the kernel did not answer in time (busy with
    a long run): the run then makes its own handshake, as the runner always does."""
    if held.state == "idle" and not held.errored:
        return True
    end = time.monotonic() + HANDSHAKE_LIMIT
    while time.monotonic() < end:
        msg_id = held.kc.execute("", silent=True, store_history=False)
        status = None
        while status is None and time.monotonic() < end:
            for msg, on_iopub in unread_messages(held.kc):
                if on_iopub:
                    note_state(held, msg)
                elif msg["parent_header"].get("msg_id") == msg_id:
                    status = msg.get("content", {}).get("status")
            if status is None:
                select.select([], [], [], 0.001)
        if status == "ok":
            held.state, held.errored = "idle", False
            return True
    return False


def lend_client(held, ready):
    """Makes the runner's first BlockingKernelClient() the resident's client `held` for this run:
    loading its (unchanged) connection file and starting its channels have been done, and
    stopping it keeps it for the next run.
    Its wait_for_ready returns at once when the kernel is settled (settled()). Any other call
    makes a new client, as always."""
    import jupyter_client
    kc = held.kc
    new_client = jupyter_client.BlockingKernelClient
    real_get_iopub = kc.get_iopub_msg

    def get_iopub_msg(*args, **kwargs):
        msg = real_get_iopub(*args, **kwargs)
        note_state(held, msg)
        return msg

    def first_client(*args, **kwargs):
        jupyter_client.BlockingKernelClient = new_client
        if args or kwargs:
            return new_client(*args, **kwargs)

        def load_connection_file(fname=None):
            if fname != held.path:
                raise RuntimeError("the resident's kernel client was offered for another file")
        kc.load_connection_file = load_connection_file
        kc.start_channels = lambda *a, **k: None
        kc.stop_channels = lambda *a, **k: None
        kc.get_iopub_msg = get_iopub_msg
        if ready:
            kc.wait_for_ready = lambda *a, **k: None
        return kc
    jupyter_client.BlockingKernelClient = first_client
    return new_client


def unlend_client(held, new_client):
    import jupyter_client
    jupyter_client.BlockingKernelClient = new_client
    for name in ("load_connection_file", "start_channels", "stop_channels", "get_iopub_msg",
                 "wait_for_ready"):
        held.kc.__dict__.pop(name, None)


def drain(held):
    """Drops what the client received since its last run (other clients' runs publish on iopub
    too): a runner's fresh client would not have it. What it shows of the kernel's state is
    kept."""
    for msg, on_iopub in unread_messages(held.kc):
        if on_iopub:
            note_state(held, msg)


def run_in_place(req, held, out_fd, err_fd):
    """Runs the request's runner source in this process, as run_child runs it in a child: its
    argv, env, cwd, a fresh __main__, stdout and stderr on the exec's pipes; the exit code
    python3 -c would give."""
    saved_fds = (os.dup(1), os.dup(2))
    saved = (sys.stdout, sys.stderr, sys.argv, sys.modules.get("__main__"), dict(os.environ))
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    os.close(out_fd)
    os.close(err_fd)
    # As python3 makes its own for pipes: stdout block-buffered, stderr line-buffered.
    sys.stdout = io.TextIOWrapper(io.open(1, "wb", closefd=False), encoding=saved[0].encoding,
                                  errors=saved[0].errors, newline="\n")
    sys.stderr = io.TextIOWrapper(io.open(2, "wb", closefd=False), encoding=saved[1].encoding,
                                  errors=saved[1].errors, newline="\n", line_buffering=True)
    code = 0
    new_client = None
    try:
        os.chdir(req["cwd"])
        os.environ.clear()
        os.environ.update(req["env"])
        drain(held)
        new_client = lend_client(held, settled(held))
        code = run_source(req, compiled(req["argv"][2]))
    except BaseException:  # the cwd is gone, say: as python3 would report it
        sys.excepthook(*sys.exc_info())
        code = 1
    finally:
        if new_client is not None:
            unlend_client(held, new_client)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                code = 120
        sys.stdout, sys.stderr, sys.argv = saved[0], saved[1], saved[2]
        if saved[3] is not None:
            sys.modules["__main__"] = saved[3]
        os.environ.clear()
        os.environ.update(saved[4])
        os.chdir("/")
        os.dup2(saved_fds[0], 1)  # the exec's pipes close here: its output has ended
        os.dup2(saved_fds[1], 2)
        os.close(saved_fds[0])
        os.close(saved_fds[1])
    return code


def resident_main(link):
    """The resident runner: serves the SDK runner's Python runs one at a time in this process,
    with a kernel client kept open between them, so that a warm run pays neither a process nor
    a client. A run it cannot serve as the SDK's runner would (another context's kernel it could
    not reach, a kernel that is not running) it declines, and the zygote hands it to a child."""
    os.setsid()
    try:
        from jupyter_client import BlockingKernelClient
        BlockingKernelClient.wait_for_ready = fast_wait_for_ready
    except ImportError:
        os._exit(0)
    held = connect_client("default-python", link)
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(link, 1 << 20, 4)
        except OSError:
            os._exit(0)
        if not msg:
            os._exit(0)  # the zygote is gone
        req = None
        try:
            req = json.loads(msg)
        except ValueError:
            pass
        context = python_context(req["argv"]) if isinstance(req, dict) and len(fds) == 4 else None
        if context and not (held and held.current(context)):
            if held:
                held.kc.stop_channels()
            held = connect_client(context, link)
        if not context or not held or req.get("noFileGrowth"):
            for fd in fds:
                os.close(fd)
            link.send(b"declined")
            continue
        link.send(b"taken")
        out_fd, err_fd, go_fd, exit_fd = fds
        os.close(go_fd)
        code = run_in_place(req, held, out_fd, err_fd)
        try:
            os.write(exit_fd, bytes([code & 0xFF]))
        except OSError:
            pass
        os.close(exit_fd)
        link.send(b"done")


class Resident:
    """The zygote's side of the resident runner (resident_main): made after the first SDK run,
    offered each SDK run while it is idle; a new one is made when it ends (a run it served was
    killed, say)."""
    # Seconds the resident may take to take or decline a request (it may connect a client).
    SERVE_WAIT = 4.0

    def __init__(self):
        self.pid = None
        self.link = None
        self.busy = False

    def make(self):
        self.pid, self.link = fork_linked(resident_main)
        self.busy = False

    def alive(self):
        return self.link is not None

    def retire(self):
        if self.link is not None:
            ZYGOTE_SOCKETS.discard(self.link)
            self.link.close()
        self.pid = self.link = None
        self.busy = False

    def on_message(self):
        """Reads what the resident said between requests ("done"), or that it ended."""
        try:
            reply = self.link.recv(16)
        except OSError:
            reply = b""
        if reply == b"done":
            self.busy = False
        elif not reply:
            self.retire()

    def offer(self, msg, fds):
        """The resident's pid when it took the request (all four fds); None when it declined,
        is busy or is gone."""
        if self.link is None or self.busy:
            return None
        try:
            socket.send_fds(self.link, [msg], fds)
            end = time.monotonic() + self.SERVE_WAIT
            while select.select([self.link], [], [], max(0.0, end - time.monotonic()))[0]:
                reply = self.link.recv(16)
                if reply == b"taken":
                    self.busy = True
                    return self.pid
                if reply == b"declined":
                    return None
                if reply != b"done":
                    break
        except OSError:
            pass
        self.retire()  # out of step or gone: a new one is made after this request
        return None


def serve(sock):
    gc.freeze()  # what the imports made is never collected: runs need not walk it
    ZYGOTE_SOCKETS.add(sock)
    sock.send(b'{"ready":true}')
    spare = Spare()
    resident = Resident()
    context = "default-python"
    spare.make(context)
    while True:
        try:
            waiting = [sock] + ([resident.link] if resident.alive() else [])
            if resident.link in select.select(waiting, [], [])[0]:
                resident.on_message()
                continue
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 20, 4)
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
            if len(fds) != 4:
                raise ValueError("four fds expected")
            try:
                code_object = compiled(req["argv"][2])  # the next spares inherit it
            except SyntaxError:
                code_object = None  # the child reports it as python3 -c would
            run_context = python_context(req["argv"]) if req.get("sdk") else None
            if run_context:
                context = run_context
            pid = resident.offer(msg, fds) if run_context and code_object else None
            if pid:
                answer = {"pid": pid, "resident": True}
            else:
                if spare.ready():
                    pid = spare.hand(msg, fds[:3])
                else:
                    pid = fork_grandchild(lambda: run_child(req, code_object, *fds[:3]))
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
        if not spare.ready():
            spare.make(context)
        if isinstance(req, dict) and req.get("sdk") and not resident.alive():
            resident.make()


if __name__ == "__main__":
    serve(socket.socket(fileno=3))
