#!/usr/bin/env python3
"""Prints the build target of each named test suite, once each: a suite runs from its folder's
bundle (tests/CMakeLists.txt), so its target is not its name.

    scripts/suite-targets.py BUILD SUITE...
"""
import json
import os
import subprocess
import sys

from ctest_commands import with_commands

build, names = sys.argv[1], set(sys.argv[2:])
listing = json.loads(subprocess.check_output(["ctest", "--test-dir", build, "--show-only=json-v1"]))
seen = []
for test in with_commands(build, listing["tests"]):
    if test["name"] in names:
        target = os.path.basename(test["command"][0])
        if target not in seen:
            seen.append(target)
missing = names - {t["name"] for t in listing["tests"]}
if missing:
    sys.exit("suite-targets: no such suite: " + " ".join(sorted(missing)))
print("\n".join(seen))
