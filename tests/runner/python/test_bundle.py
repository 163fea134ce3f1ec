# The bundled artefact: deterministic, small enough for one argv string, and it runs.
import base64
import json
import os
import re
import subprocess
import sys

import pytest

import bundle
from lizard_runner.protocol import VERSION

# PROTOCOL.md: Linux caps one argv string at 128 KiB; we keep a margin.
LIMIT = 100 * 1024
VERSION_LINE = re.compile(r'^VERSION = "([^"]+)"$', re.M)


@pytest.fixture(scope="module")
def artefact():
    return bundle.build()


def test_the_same_package_gives_the_same_bytes(artefact, tmp_path):
    assert bundle.build() == artefact
    out = tmp_path / "a.py"
    assert bundle.main(["bundle.py", str(out)]) == 0
    first = out.read_bytes()
    assert bundle.main(["bundle.py", str(out)]) == 0
    assert out.read_bytes() == first == artefact.encode("ascii")


def test_it_fits_one_argument(artefact):
    assert len(artefact.encode()) < LIMIT


def test_its_version_line_is_the_package_version(artefact):
    assert VERSION_LINE.search(artefact).group(1) == VERSION
    assert re.match(r"^\d+\.\d+\.\d+$", VERSION)
    assert artefact.isascii()


def test_it_holds_every_module(artefact):
    names = {name for name, _, _ in bundle.modules(bundle.HERE)}
    assert {"lizard_runner", "lizard_runner.main", "lizard_runner.kernelside",
            "lizard_runner.kernelside.table"} <= names
    for name in names:
        assert "_SOURCES[%r] = " % name in artefact


@pytest.mark.parametrize("src", ["plain\n", "with ''' quotes\n", "ends with \\", "cr\r\n", "tab\t\\n\n"])
def test_literals_read_back_exactly(src):
    import ast
    assert ast.literal_eval(bundle.literal(src)) == src


def test_the_build_tree_artefact_is_current(artefact):
    path = os.environ.get("LIZARD_RUNNER_ARTEFACT")
    if not path or not os.path.exists(path):
        pytest.skip("no built artefact given (LIZARD_RUNNER_ARTEFACT)")
    with open(path, encoding="ascii") as f:
        assert f.read() == artefact


def run_dash_c(artefact, root, *args):
    env = dict(os.environ, LIZARD_CODE_ROOT=str(root))
    return subprocess.run([sys.executable, "-c", artefact] + list(args), cwd=str(root), env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)


def b64(obj):
    return base64.b64encode(json.dumps(obj).encode()).decode()


def events(p):
    return [json.loads(line) for line in p.stdout.decode().splitlines()]


def test_it_runs_with_dash_c_and_answers_list(artefact, tmp_path):
    # A lizard_runner folder in the working directory must not shadow the bundled package.
    (tmp_path / "lizard_runner").mkdir()
    (tmp_path / "lizard_runner" / "__init__.py").write_text("raise SystemExit(9)\n")
    p = run_dash_c(artefact, tmp_path, b64({"action": "list"}))
    assert p.returncode == 0, p.stderr
    assert events(p) == [{"type": "contexts", "data": []}]


def test_a_bad_request_is_one_fatal_with_exit_code_3(artefact, tmp_path):
    p = run_dash_c(artefact, tmp_path)
    assert p.returncode == 3
    assert events(p) == [{"type": "fatal", "message": "the runner takes one argument, base64 of a JSON object "
                                                      "(list index out of range)"}]
    p = run_dash_c(artefact, tmp_path, b64({"action": "fly"}))
    assert p.returncode == 3 and events(p) == [{"type": "fatal", "message": "unknown action 'fly'"}]


def test_a_bash_cell_runs(artefact, tmp_path):
    if not os.path.exists("/bin/bash"):
        pytest.skip("no bash")
    p = run_dash_c(artefact, tmp_path, b64({"action": "run", "language": "bash", "code": "echo hi",
                                            "cwd": str(tmp_path / "work")}))
    assert p.returncode == 0, p.stderr
    assert events(p) == [{"type": "stdout", "data": "hi\n"}, {"type": "done", "execution_count": 1}]
    with open(tmp_path / "default-bash" / "meta.json") as f:
        assert json.load(f) == {"id": "default-bash", "language": "bash", "cwd": str(tmp_path / "work"), "count": 1}
