# lizard-desktop code runner: runs notebook / runCode cells inside a Lizard sandbox.
# It travels as `python3 -c <artefact> <base64 JSON args>` through the exec API; the artefact is
# this package bundled into one file by resources/runner/bundle.py, so every module uses only the
# standard library (plus jupyter_client for Python contexts), imported lazily where it may be
# missing. Protocol and on-disk layout: resources/runner/PROTOCOL.md (compatible with the SDK).
