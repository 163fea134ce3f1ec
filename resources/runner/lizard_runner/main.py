# The entry point: one base64 JSON argument, one action (or serve mode), exit code 0 or 3.
import base64
import json
import os
import sys
from typing import List

from .actions import handle
from .protocol import Args, Out, RunnerError
from .serve import serve
from .slot import KernelSlot


def decode_args(argv: List[str]) -> Args:
    """The request in argv[1] (base64 of a JSON object); IndexError or ValueError otherwise."""
    a = json.loads(base64.b64decode(argv[1], validate=True).decode("utf-8"))
    if not isinstance(a, dict):
        raise ValueError("not an object")
    return a


def main(argv: List[str]) -> int:
    out = Out()
    try:
        a = decode_args(argv)
    except (IndexError, ValueError) as e:
        out({"type": "fatal", "message": "the runner takes one argument, base64 of a JSON object (%s)" % e})
        return 3
    slot = KernelSlot()
    try:
        if a.get("action") == "serve":
            serve(a)
            return 0
        handle(a, slot, out)
    except RunnerError as e:
        out({"type": "fatal", "message": str(e)})
        return 3
    except Exception as e:  # a bug or an unexpected environment: still one clear event
        out({"type": "fatal", "message": "runner failure: %s: %s" % (type(e).__name__, e)})
        return 3
    finally:
        slot.drop()
    return 0


def run() -> None:
    code = main(sys.argv)
    sys.stdout.flush()
    os._exit(code)  # do not wait for zmq sockets and helper threads to wind down


if __name__ == "__main__":
    run()
