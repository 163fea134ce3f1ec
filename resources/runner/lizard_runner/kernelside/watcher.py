# Runs as `python3 -S -c <this source> <context dir> <connection file>`, never imported by the
# runner: the kernel's parent. The kernel runs in its own session (kernel.pid is its pid and its
# process group, as with the SDK's runner); this watcher records how it ended in kernel.exit,
# because the runner that started it is usually gone by then and only a parent can learn an exit
# status.
import json
import os
import signal
import sys


def main():
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


if __name__ == "__main__":
    main()
