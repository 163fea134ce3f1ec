# The warm python3 of lizard-agent's runner zygote (runnerzygote.h), run as
# `python3 -c <this> ` with a SOCK_SEQPACKET socket at fd 3. The official SDK starts its code
# runner with an exec per runCode, and a fresh python3 spends most of that run importing
# jupyter_client and waiting for the kernel to be "ready". Here the imports are done once; for
# each request the agent sends (the exec's argv, env, cwd, and its stdout, stderr and go pipes as
# fds) this process forks a child that runs the SDK's runner source exactly as `python3 -c` would
# (sys.argv, a fresh __main__, the same exit codes) and answers the child's pid. The child is a
# grandchild (its parent exits at once), so the agent, PID 1, reaps it like any exec; it starts
# only once the agent has its exit slot (one byte on the go pipe).
#
# One thing differs inside the child: jupyter_client's wait_for_ready, which sleeps in steps of
# 0.2 s, is replaced by a handshake that proves the same (a kernel_info reply on shell and its
# status message on iopub, so no output published after it is lost) in milliseconds.
import json
import os
import socket
import sys
import types

for _name in ("base64", "re", "shutil", "signal", "subprocess", "threading", "time", "resource",
              "queue", "jupyter_client", "jupyter_client.blocking", "ipykernel", "zmq"):
    try:
        __import__(_name)
    except ImportError:
        pass


def fast_wait_for_ready(self, timeout=None):
    """BlockingKernelClient.wait_for_ready with the same guarantee (the kernel answers on shell,
    and iopub carries the status of that answer) and without its fixed 0.2 s sleeps."""
    import queue
    import time
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
                return
    raise RuntimeError("Kernel didn't respond in %d seconds" % limit)


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


def run_child(req, code_object, out_fd, err_fd, go_fd):
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    for fd in (null, out_fd, err_fd, 3):
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


def serve(sock):
    sock.send(b'{"ready":true}')
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 20, 3)
        except OSError:
            return
        if not msg:
            return  # the agent is gone
        answer = {"error": "bad request"}
        try:
            req = json.loads(msg)
            if len(fds) != 3:
                raise ValueError("three fds expected")
            try:
                code_object = compiled(req["argv"][2])
            except SyntaxError:
                code_object = None  # the child reports it as python3 -c would
            r, w = os.pipe()
            middle = os.fork()
            if middle == 0:
                try:
                    os.close(r)
                    child = os.fork()
                    if child == 0:
                        os.close(w)
                        try:
                            run_child(req, code_object, *fds)
                        finally:
                            os._exit(127)
                    os.write(w, str(child).encode())
                finally:
                    os._exit(0)
            os.close(w)
            data = os.read(r, 32)
            os.close(r)
            os.waitpid(middle, 0)
            answer = {"pid": int(data)} if data.isdigit() else {"error": "fork failed"}
        except (OSError, ValueError, KeyError, TypeError) as e:
            answer = {"error": str(e)}
        finally:
            for fd in fds:
                os.close(fd)
        sock.send(json.dumps(answer).encode())


if __name__ == "__main__":
    serve(socket.socket(fileno=3))
