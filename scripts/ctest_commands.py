"""The command line of every CTest test of a build directory, read from its CTestTestfile.cmake
files. `ctest --show-only=json-v1` leaves a test's command out while its executable is not built
yet, which is the case for most suites when `make test` starts on a fresh build."""

import os
import re

_ADD_TEST = re.compile(r'^add_test\(\[=\[(.+?)\]=\] (.*)\)\s*$')
_ARG = re.compile(r'"((?:[^"\\]|\\.)*)"')


def test_commands(build):
    commands = {}
    for root, _dirs, files in os.walk(build):
        if "CTestTestfile.cmake" not in files:
            continue
        with open(os.path.join(root, "CTestTestfile.cmake")) as f:
            for line in f:
                m = _ADD_TEST.match(line)
                if m:
                    commands[m.group(1)] = [re.sub(r'\\(.)', r'\1', a)
                                            for a in _ARG.findall(m.group(2))]
    return commands


def with_commands(build, tests):
    """json-v1's tests, each with its "command" (filled in where ctest left it out)."""
    known = None
    for t in tests:
        if "command" not in t:
            known = known if known is not None else test_commands(build)
            if t["name"] in known:
                t["command"] = known[t["name"]]
    return tests
