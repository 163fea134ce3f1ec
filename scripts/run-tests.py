#!/usr/bin/env python3
"""Builds the test suites and runs them at the same time: `make test` (scripts/run-tests.sh).

A suite starts as soon as its executable is built, not once every target is: most of a suite's
time is spent waiting (for sandboxes, kernels, timeouts), while the build keeps both cores busy,
so the two overlap instead of adding up. The suites are built longest first (their seconds in the
last run, else tests/test-costs.txt), in groups that ninja builds in parallel; the rest of the
project (the app, the benchmarks) is built last, beside the suites still running. The compiler
runs at the lowest priority (nice 19): a suite gets a core the moment it needs one, as on a
machine where it shares the cores only with other suites, and the compiler takes every moment
they spend waiting. Half as many suites run at once during the build as after it.

As root, the suites whose outcome depends on who runs lizard-local (label server-user) also run
with lizard-local as the ordinary user lizard-ci, and tst_runtime and tst_isolation run as
lizard-ci themselves; both passes share the same pool of jobs. For that pass /dev/net/tun and
/dev/fuse get the modes Debian and Ubuntu desktops give them (0666), for the whole run (root
ignores the modes), and the host's modes are put back at the end however it ends.

Each suite's whole output goes to BUILD/test-logs/<pass>/<suite>.log (scripts/check-skips.sh
reads them); a failed suite's output is printed when it ends, as ctest --output-on-failure does,
and its failures (FAIL! and where) again in the summary at the end.
The suites' properties (command, environment, working directory, timeout, labels) are CTest's
(ctest --show-only=json-v1), so `ctest` in the build directory runs the same suites.

It configures BUILD first (CMake with Ninja, and CMAKE_FLAGS from the environment), so a fresh
clone needs nothing before it.

    scripts/run-tests.py BUILD [--jobs N] [-R REGEX]
"""

import argparse
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from ctest_commands import with_commands

CI_USER = "lizard-ci"
USER_SUITES = ("tst_runtime", "tst_isolation")  # run as lizard-ci themselves
DEVICES = ("/dev/net/tun", "/dev/fuse")
MEMORY_LOCK = "host-memory"  # the suites that measure what the host has left


def log(msg):
    print(msg, flush=True)


class Suite:
    def __init__(self, name, spec, pass_name, cost, build):
        self.name = name
        self.pass_name = pass_name
        self.command = list(spec["command"])
        props = {p["name"]: p["value"] for p in spec.get("properties", [])}
        self.env = dict(e.split("=", 1) for e in props.get("ENVIRONMENT", []))
        self.cwd = props.get("WORKING_DIRECTORY")
        self.timeout = float(props.get("TIMEOUT", 1500))
        self.labels = props.get("LABELS", [])
        self.locks = set(props.get("RESOURCE_LOCK", []))
        # A suite of the build is its executable's target; any other command (pytest, pyflakes)
        # needs only the files it names as required, which ninja builds by their paths.
        self.required = props.get("REQUIRED_FILES", [])
        inside = self.command[0].startswith(os.path.join(build, "bin") + os.sep)
        self.target = os.path.basename(self.command[0]) if inside else None
        self.cost = cost
        self.status = None  # "passed", "failed", "timeout", "not built"
        self.seconds = 0.0

    @property
    def key(self):
        return self.name if self.pass_name == "root" else f"{self.name}@{self.pass_name}"


def read_costs(build, source_dir):
    costs = {}
    for path in (os.path.join(source_dir, "tests", "test-costs.txt"),
                 os.path.join(build, "Testing", "Temporary", "CTestCostData.txt")):
        try:
            with open(path) as f:
                for line in f:
                    parts = line.split()
                    if len(parts) == 3 and parts[0] != "---":
                        costs[parts[0]] = float(parts[2])
        except OSError:
            pass
    return costs


def write_costs(build, suites, old):
    """CTest's cost file (name, runs, average seconds): the next run starts the long ones first."""
    costs = dict(old)
    for s in suites:
        if s.status in ("passed", "failed"):
            costs[s.key] = round(s.seconds, 1)
    path = os.path.join(build, "Testing", "Temporary", "CTestCostData.txt")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for name in sorted(costs):
            f.write(f"{name} 1 {costs[name]}\n")


class Runner:
    def __init__(self, build, jobs, jobs_building):
        self.build = build
        self.jobs = jobs
        self.jobs_building = jobs_building
        self.lock = threading.Condition()
        self.ready = []  # built, waiting for a job slot
        self.running = {}  # Suite -> Popen
        self.done = []
        self.building_finished = False
        self.total = 0

    def add_ready(self, suites):
        with self.lock:
            self.ready.extend(suites)
            self.ready.sort(key=lambda s: -s.cost)
            self.lock.notify_all()

    def finish_building(self):
        with self.lock:
            self.building_finished = True
            self.lock.notify_all()

    def run(self):
        """Starts ready suites, longest first, while fewer than the allowed number run."""
        threads = []
        with self.lock:
            while True:
                # A suite waits for a free job, and for a lock another one holds.
                while len(self.running) >= self.limit() or (self.startable() is None and not (
                        self.building_finished and not self.ready)):
                    self.lock.wait()
                if not self.ready:
                    break  # the build is over and every built suite has started
                suite = self.startable()  # not None: the wait above ends only then
                self.ready.remove(suite)
                self.running[suite] = None
                t = threading.Thread(target=self.execute, args=(suite,))
                t.start()
                threads.append(t)
        for t in threads:
            t.join()

    def startable(self):
        """The longest ready suite that shares no resource lock (CTest's RESOURCE_LOCK) with a
        running one, across both passes. The compiler is the other big user of the host's
        memory: a suite that measures it waits for the build to end."""
        held = set().union(*(s.locks for s in self.running))
        if not self.building_finished:
            held.add(MEMORY_LOCK)
        return next((s for s in self.ready if not s.locks & held), None)

    def limit(self):
        # While the build runs, fewer suites at once: with the compiler niced they get the cores
        # first, but the UI suites' focus and timing checks, tuned beside three other suites,
        # missed beside three others and a compiler (tst_variableexplorer, 4 at once).
        return self.jobs if self.building_finished else self.jobs_building

    def execute(self, suite):
        logdir = os.path.join(self.build, "test-logs", suite.pass_name)
        os.makedirs(logdir, exist_ok=True)
        logpath = os.path.join(logdir, suite.name + ".log")
        env = dict(os.environ)
        env.update(suite.env)
        start = time.monotonic()
        with open(logpath, "wb") as out:
            out.write(f"== {suite.name} ({suite.pass_name}): {' '.join(suite.command)}\n".encode())
            out.flush()
            proc = subprocess.Popen(suite.command, cwd=suite.cwd, env=env, stdout=out,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    start_new_session=True)
            try:
                code = proc.wait(timeout=suite.timeout)
                suite.status = "passed" if code == 0 else "failed"
                detail = "" if code == 0 else f" (exit {code})"
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                suite.status = "timeout"
                detail = f" (timeout {suite.timeout:.0f} s)"
        suite.seconds = time.monotonic() - start
        with self.lock:
            del self.running[suite]
            self.done.append(suite)
            n = len(self.done)
            verdict = "Passed" if suite.status == "passed" else "***Failed"
            log(f"[{n}/{self.total}] {suite.key:<40} {verdict}{detail} {suite.seconds:7.1f} s")
            if suite.status != "passed":
                with open(logpath, "rb") as f:
                    sys.stdout.write(f.read().decode(errors="replace"))
                sys.stdout.flush()
            self.lock.notify_all()


def failure_lines(build, suite, most=12):
    """The lines of a failed suite's log that say what failed (Qt Test's FAIL! and the Loc: after
    it, a crash's signal), for the summary at the end: CI shows the start and the end of a long
    run's output, and a failed suite's whole log may fall in the part left out."""
    path = os.path.join(build, "test-logs", suite.pass_name, suite.name + ".log")
    try:
        with open(path, "rb") as f:
            lines = f.read().decode(errors="replace").splitlines()
    except OSError:
        return []
    out = []
    for i, line in enumerate(lines):
        if line.startswith(("FAIL!", "QFATAL", "Received signal")):
            out.append(line[:300])
            if i + 1 < len(lines) and lines[i + 1].lstrip().startswith("Loc:"):
                out.append(lines[i + 1].strip()[:300])
    return out[:most]


def run_niced(cmd):
    """Runs cmd at the lowest priority, so that it yields the cores to the suites (see the top
    of this file); returns its exit code. `nice` alone is not enough where the kernel groups
    processes by session (CONFIG_SCHED_AUTOGROUP, on by default in Debian's and Ubuntu's
    kernels): each suite runs in a session of its own, and the scheduler shares the cores
    between sessions first, whatever their processes' nice values. So the build gets a session
    of its own too, with that session's group at the lowest priority as well."""
    proc = subprocess.Popen(["nice", "-n", "19", *cmd], start_new_session=True)
    try:
        with open(f"/proc/{proc.pid}/autogroup", "w") as group:
            group.write("19")
    except OSError:
        pass  # no autogroups here: nice alone does it
    try:
        return proc.wait()
    finally:
        if proc.poll() is None:  # interrupted: the build's whole session goes too
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()


def build_targets(build, targets, keep_going=False):
    cmd = ["cmake", "--build", build, "--target", *targets, "--", f"-j{os.cpu_count() + 1}"]
    if keep_going:
        cmd.append("-k0")
    return run_niced(cmd) == 0


def prepare_ci_user(build):
    """The lizard-ci user, its subordinate ids, and copies of the binaries it may run."""
    try:
        pwd.getpwnam(CI_USER)
    except KeyError:
        subprocess.check_call(["useradd", "--create-home", "--shell", "/bin/bash", CI_USER])
    with open("/etc/subuid") as f:
        if not any(line.startswith(CI_USER + ":") for line in f):
            subprocess.check_call(["usermod", "--add-subuids", "300000-365535",
                                   "--add-subgids", "300000-365535", CI_USER])
    # The checkout may sit under a directory the user cannot enter (/root): give it copies.
    bindir = tempfile.mkdtemp(prefix="lizard-ci-bin.", dir="/tmp")
    os.chmod(bindir, 0o755)
    return bindir


def copy_for_user(build, bindir, names):
    for name in names:
        dst = os.path.join(bindir, name)
        shutil.copy2(os.path.join(build, "bin", name), dst)
        os.chmod(dst, 0o755)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--jobs", type=int,
                        default=int(os.environ.get("LIZARD_TEST_JOBS", 2 * os.cpu_count())))
    parser.add_argument("-R", dest="regex", default=None, help="only suites matching")
    args = parser.parse_args()
    build = os.path.realpath(args.build)
    source_dir = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))

    shutil.rmtree(os.path.join(build, "test-logs"), ignore_errors=True)
    # Configured here, not only by `make test`: a fresh clone's `-R` run starts from nothing.
    subprocess.check_call(["cmake", "-S", source_dir, "-B", build, "-G", "Ninja",
                           *shlex.split(os.environ.get("CMAKE_FLAGS", ""))],
                          stdout=subprocess.DEVNULL)
    listing = json.loads(subprocess.check_output(
        ["ctest", "--test-dir", build, "--show-only=json-v1"]))
    costs = read_costs(build, source_dir)
    specs = [t for t in with_commands(build, listing["tests"])
             if not args.regex or re.search(args.regex, t["name"])]
    root = os.geteuid() == 0

    suites = [Suite(t["name"], t, "root", costs.get(t["name"], 30.0), build) for t in specs]
    user_suites = []
    bindir = None
    modes = []
    if root:
        bindir = prepare_ci_user(build)
        for t in specs:
            s = Suite(t["name"], t, CI_USER, costs.get(t["name"] + "@" + CI_USER,
                                                         costs.get(t["name"], 30.0)), build)
            if "server-user" in s.labels:
                s.env.update(LIZARD_TEST_SERVER_USER=CI_USER,
                             LIZARD_LOCAL_BIN=os.path.join(bindir, "lizard-local"))
                user_suites.append(s)
            elif s.name in USER_SUITES:
                # The suite itself runs as the user, from its copy, with its log where it may write.
                copy = os.path.join(bindir, s.target)
                s.command = ["runuser", "-u", CI_USER, "--", "env", "-C", "/tmp",
                             "QT_QPA_PLATFORM=offscreen", copy, *s.command[1:]]
                s.cwd = "/tmp"
                user_suites.append(s)
        for dev in DEVICES:
            if os.path.exists(dev):
                modes.append((dev, os.stat(dev).st_mode & 0o7777))
                os.chmod(dev, 0o666)
        log("== device modes for the ordinary user's suites, as on a desktop: "
            + ", ".join(f"{d} 666" for d, _ in modes))

    runner = Runner(build, args.jobs, max(1, args.jobs // 2))
    runner.total = len(suites) + len(user_suites)
    worker = threading.Thread(target=runner.run)
    worker.start()
    status = 0
    try:
        # lizard-local and lizard-agent first: every suite of the server needs them, and the
        # ordinary user's pass needs its copies.
        if not build_targets(build, ["lizard-local", "lizard-agent"]):
            raise SystemExit("run-tests: lizard-local or lizard-agent did not build")
        if root:
            copy_for_user(build, bindir, ["lizard-local", "lizard-agent"])
        pending = sorted(suites + user_suites, key=lambda s: -s.cost)
        for s in [s for s in pending if s.target is None]:
            needed = [os.path.relpath(f, build) for f in s.required]
            if needed and not build_targets(build, needed):
                s.status = "not built"
                status = 1
                log(f"run-tests: {', '.join(needed)} did not build; {s.key} not run")
            else:
                runner.add_ready([s])
        pending = [s for s in pending if s.target is not None]
        by_target = {}
        for s in pending:
            by_target.setdefault(s.target, []).append(s)
        order = []
        for s in pending:
            if s.target not in order:
                order.append(s.target)
        group = 4
        for i in range(0, len(order), group):
            targets = order[i:i + group]
            ok = build_targets(build, targets, keep_going=True)
            built = []
            for target in targets:
                # After a failed group, each target is asked again: no work for the ones built.
                target_ok = ok or build_targets(build, [target])
                for s in by_target[target]:
                    if not target_ok:
                        s.status = "not built"
                        status = 1
                        log(f"run-tests: {target} did not build; {s.key} not run")
                        continue
                    if s.name in USER_SUITES and s.pass_name == CI_USER:
                        copy_for_user(build, bindir, [s.target])
                    built.append(s)
            runner.add_ready(built)
        # Everything else (the app, the benchmarks, the package's files) while suites still run;
        # a run of some suites (-R) builds only what they need.
        if not args.regex and run_niced(
                ["cmake", "--build", build, "--", f"-j{os.cpu_count() + 1}"]) != 0:
            log("run-tests: the rest of the build failed")
            status = 1
    finally:
        runner.finish_building()
        worker.join()
        for dev, mode in modes:
            os.chmod(dev, mode)
        if bindir:
            shutil.rmtree(bindir, ignore_errors=True)

    everything = suites + user_suites
    write_costs(build, everything, costs)
    failed = [s for s in everything if s.status != "passed"]
    log(f"== {len(everything) - len(failed)} of {len(everything)} suites passed"
        + (f" ({len(user_suites)} of them as {CI_USER})" if user_suites else ""))
    for s in failed:
        log(f"   {s.key}: {s.status}")
        for line in failure_lines(build, s):
            log(f"      {line}")
    return 1 if failed or status else 0


if __name__ == "__main__":
    sys.exit(main())
