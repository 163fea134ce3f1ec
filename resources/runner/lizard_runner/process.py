# bash and javascript (and Python without the Jupyter stack): a fresh process per run.
import codecs
import os
import shutil
import signal
import subprocess
import threading
from typing import Dict, List

from .contexts import Context, write_atomic
from .protocol import LANGS, Out, RunnerError

SUFFIX = {"node": ".js", "bash": ".sh"}


def run_process(m: Context, code: str, envs: Dict[str, str], timeout: float, out: Out) -> None:
    interp = LANGS[m.language]
    if shutil.which(interp) is None:
        out({"type": "error", "name": "LanguageUnavailable", "traceback": "",
             "message": "%s is not installed in this sandbox" % interp})
        out({"type": "done", "execution_count": 0})
        return
    src = m.path("cell" + SUFFIX.get(interp, ".py"))
    with open(src, "w") as f:
        f.write(code)
    try:
        os.makedirs(m.cwd, exist_ok=True)
    except OSError as e:
        raise RunnerError("cannot create the working directory %s: %s" % (m.cwd, e.strerror))
    p = subprocess.Popen([interp, src], cwd=m.cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=dict(os.environ, **envs), start_new_session=True)
    pidfile = m.path("run.pid")
    write_atomic(pidfile, str(p.pid))
    err_tail: List[str] = []

    def pump(stream, kind):
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
    m.extra["count"] = int(m.extra.get("count") or 0) + 1
    m.save()
    if rc is None:
        out({"type": "error", "name": "TimeoutError", "message": "execution timed out after %gs" % timeout,
             "traceback": ""})
    elif rc < 0:
        out({"type": "error", "name": "Interrupted" if rc == -signal.SIGINT else "Killed", "traceback": "".join(err_tail),
             "message": "stopped by %s" % signal.Signals(-rc).name})
    elif rc != 0:
        out({"type": "error", "name": "ExitError", "message": "exited with code %d" % rc,
             "traceback": "".join(err_tail)})
    out({"type": "done", "execution_count": m.extra["count"]})
