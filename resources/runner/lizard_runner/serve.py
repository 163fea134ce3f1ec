# Serve mode, the warm path: requests arrive as files in an inbox folder and are answered on
# stdout, each context's requests in order on a thread that keeps its kernel client.
import json
import os
import queue
import select
import shutil
import signal
import struct
import threading
import time
from typing import Dict, List, Optional

from .actions import handle, target_context
from .protocol import REQUEST_NAME, ROOT, STOP, Args, Out, RunnerError, check_id
from .slot import KernelSlot


class Inbox:
    """The request folder: inotify (through libc with ctypes) when it works, else polling."""
    IN_CLOSE_WRITE, IN_MOVED_TO, IN_Q_OVERFLOW = 0x8, 0x80, 0x4000

    def __init__(self, path: str, watch: str = "inotify"):
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

    def wait(self, timeout: float) -> List[str]:
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

    def scan(self, min_age: float) -> List[str]:
        now, found = time.time(), []
        for e in os.scandir(self.path):
            try:
                if REQUEST_NAME.match(e.name) and now - e.stat().st_mtime >= min_age:
                    found.append((e.stat().st_mtime_ns, e.name))
            except OSError:
                pass
        return [n for _, n in sorted(found)]

    def take(self, name: str, patient: bool) -> Optional[Args]:
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

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.q: "queue.Queue[Optional[Args]]" = queue.Queue()
        self.slot = KernelSlot()

    def run(self) -> None:
        while True:
            a = self.q.get()
            if a is None:
                break
            serve_one(a, self.slot)
            self.q.task_done()
        self.slot.drop()


def serve_one(a: Args, slot: KernelSlot) -> None:
    out = Out(a["req"])
    try:
        handle(a, slot, out)
    except RunnerError as e:
        out({"type": "fatal", "message": str(e)})
    except Exception as e:  # a bug or an unexpected environment: report it, keep serving
        out({"type": "fatal", "message": "%s: %s" % (type(e).__name__, e)})


def check_serve_args(a: Args) -> None:
    inbox_name, lifetime, watch = a.get("inbox"), a.get("lifetime"), a.get("watch") or "inotify"
    if inbox_name is not None:
        check_id(inbox_name)
    if watch not in ("inotify", "poll"):
        raise RunnerError("watch must be inotify or poll")
    if lifetime is not None and (isinstance(lifetime, bool) or not isinstance(lifetime, (int, float)) or lifetime <= 0):
        raise RunnerError("lifetime must be a positive number of seconds")


def serve(a: Args) -> None:
    check_serve_args(a)
    inbox_name, lifetime, watch = a.get("inbox"), a.get("lifetime"), a.get("watch") or "inotify"
    os.makedirs(ROOT, exist_ok=True)
    inbox = Inbox(os.path.join(ROOT, ".requests", inbox_name) if inbox_name else os.path.join(ROOT, ".requests"),
                  watch)
    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, lambda *_: STOP.set())
    workers: Dict[str, Worker] = {}
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
        rescanned: List[str] = []
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


def request_id(r: Args, name: str) -> str:
    """The request's `req`, else the part of its file name after `req-`."""
    req = r.get("req")
    if not isinstance(req, str) or not req or len(req) > 128:
        req = name[len("req-"):-len(".json")]
    return req


def dispatch(r: Args, name: str, workers: Dict[str, Worker]) -> None:
    req = r["req"] = request_id(r, name)
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
