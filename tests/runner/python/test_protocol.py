# The protocol's pure parts: event lines and their "part" pieces, arguments, ids and names.
import base64
import json

import pytest

from lizard_runner import protocol
from lizard_runner.main import decode_args
from lizard_runner.protocol import PART, RunnerError, event_lines


def test_a_short_event_is_one_line():
    assert event_lines({"type": "done", "execution_count": 3}) == ['{"type": "done", "execution_count": 3}']


def test_serve_mode_adds_the_request_id():
    assert json.loads(event_lines({"type": "ok"}, "r1")[0]) == {"type": "ok", "req": "r1"}


@pytest.mark.parametrize("req", [None, "abc"])
def test_a_long_event_is_split_into_parts_that_join_back(req):
    ev = {"type": "stdout", "data": "x" * (3 * PART)}
    lines = event_lines(ev, req)
    parts = [json.loads(line) for line in lines]
    assert len(parts) == 4
    assert all(p["type"] == "part" for p in parts)
    assert [p["end"] for p in parts] == [False, False, False, True]
    assert all(len(p["data"]) <= PART for p in parts)
    assert all(p.get("req") == req for p in parts)
    joined = json.loads("".join(p["data"] for p in parts))
    assert joined == (ev if req is None else dict(ev, req=req))


def test_an_event_of_exactly_part_characters_is_not_split():
    base = len(json.dumps({"type": "stdout", "data": ""}))
    ev = {"type": "stdout", "data": "y" * (PART - base)}
    assert len(json.dumps(ev)) == PART
    assert event_lines(ev) == [json.dumps(ev)]


def test_lines_are_ascii_json():
    line = event_lines({"type": "stdout", "data": "\u00e9\u2026"})[0]
    assert line.isascii() and json.loads(line)["data"] == "\u00e9\u2026"


def b64(obj):
    return base64.b64encode(json.dumps(obj).encode()).decode()


def test_arguments_are_base64_json_objects():
    assert decode_args(["runner", b64({"action": "list"})]) == {"action": "list"}


@pytest.mark.parametrize("argv,error", [
    (["runner"], IndexError),
    (["runner", "not base64!"], ValueError),
    (["runner", base64.b64encode(b"{nope").decode()], ValueError),
    (["runner", b64([1, 2])], ValueError),
    (["runner", base64.b64encode(b"\xff\xfe").decode()], ValueError),
])
def test_bad_arguments_are_refused(argv, error):
    with pytest.raises(error):
        decode_args(argv)


@pytest.mark.parametrize("cid", ["default-python", "ctx-0123456789abcdef", "a", "A.b_c-d", "x" * 128])
def test_valid_context_ids(cid):
    assert protocol.check_id(cid) == cid


@pytest.mark.parametrize("cid", ["", ".hidden", "-x", "a/b", "../up", "x" * 129, None, 5, "a b", "\u00e9"])
def test_invalid_context_ids(cid):
    with pytest.raises(RunnerError, match="invalid context id"):
        protocol.check_id(cid)


@pytest.mark.parametrize("name,ok", [
    ("req-1.json", True), ("req-a_B-9.json", True), ("req-" + "x" * 96 + ".json", True),
    ("req-" + "x" * 97 + ".json", False), ("req-.json", False), ("req-a.b.json", False),
    ("req-a.json.tmp", False), (".req-a.json", False), ("other.json", False),
])
def test_request_file_names(name, ok):
    assert bool(protocol.REQUEST_NAME.match(name)) is ok


@pytest.mark.parametrize("given,lang", [
    (None, "python"), ("py", "python"), ("Python3", "python"), ("js", "javascript"), ("node", "javascript"),
    ("sh", "bash"), ("BASH", "bash"),
])
def test_languages_and_aliases(given, lang):
    assert protocol.language_of({"language": given}) == lang


@pytest.mark.parametrize("given", ["ruby", 3])
def test_unknown_languages(given):
    with pytest.raises(RunnerError):
        protocol.language_of({"language": given})


def test_timeouts():
    assert protocol.arg_timeout({}) == 60.0
    assert protocol.arg_timeout({"timeout": 2}) == 2.0
    assert protocol.timeout_or({"timeout": 0}, 10) == 10.0
    for bad in (True, -1, 0, "5"):
        with pytest.raises(RunnerError):
            protocol.arg_timeout({"timeout": bad})
