# The runner's package and bundle.py import from resources/runner, as the build's bundling does.
import os
import sys

RUNNER_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "resources", "runner"))
if RUNNER_DIR not in sys.path:
    sys.path.insert(0, RUNNER_DIR)
