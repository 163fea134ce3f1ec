# The table of actions against PROTOCOL.md, and how requests name their context.
import os
import re

import pytest

from lizard_runner.actions import ACTIONS, arg_envs, handle, target_context
from lizard_runner.contexts import Context, load_context
from lizard_runner.protocol import RunnerError
from lizard_runner.serve import request_id

from conftest import RUNNER_DIR


def protocol_actions():
    with open(os.path.join(RUNNER_DIR, "PROTOCOL.md"), encoding="utf-8") as f:
        text = f.read()
    table = text.split("## Actions", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))


def test_every_action_of_the_protocol_has_a_handler():
    documented = protocol_actions()
    assert "run" in documented and "serve" in documented
    # serve is the process's mode, handled by main before the table.
    assert set(ACTIONS) == documented - {"serve"}


def test_serve_mode_knows_shutdown():
    with open(os.path.join(RUNNER_DIR, "PROTOCOL.md"), encoding="utf-8") as f:
        assert '{"action":"shutdown"}' in f.read()
    assert "shutdown" not in ACTIONS  # answered by serve's dispatch, never by handle()


@pytest.mark.parametrize("action", ["run", "complete", "inspect", "list_variables", "table_for_variable"])
def test_actions_with_a_default_context(action):
    assert target_context({"action": action}) == "default-python"
    assert target_context({"action": action, "language": "sh"}) == "default-bash"
    assert target_context({"action": action, "context": "ctx-1"}) == "ctx-1"
    with pytest.raises(RunnerError):
        target_context({"action": action, "context": "../x"})


@pytest.mark.parametrize("action", ["delete", "restart", "interrupt", "save_variables", "load_variables",
                                    "table_rows"])
def test_actions_that_need_a_context(action):
    assert target_context({"action": action, "context": "c1"}) == "c1"
    with pytest.raises(RunnerError, match="invalid context id"):
        target_context({"action": action})


def test_create_makes_up_an_id():
    a = {"action": "create"}
    cid = target_context(a)
    assert re.match(r"^ctx-[0-9a-f]{16}$", cid) and a["id"] == cid
    assert target_context({"action": "create", "id": "mine"}) == "mine"
    with pytest.raises(RunnerError):
        target_context({"action": "create", "id": ".dot"})


@pytest.mark.parametrize("action", ["list", "save_all", "shutdown", "nonsense", None, ["run"], {"a": 1}])
def test_actions_without_a_context(action):
    assert target_context({"action": action}) is None


def test_unknown_actions_are_refused():
    with pytest.raises(RunnerError, match="unknown action 'nonsense'"):
        handle({"action": "nonsense"}, None, None)


def test_envs():
    assert arg_envs({"envs": {"A": "1"}}) == {"A": "1"}
    assert arg_envs({}) == {}
    for bad in ({"A=B": "1"}, {"": "1"}, {"A": 1}, {"A": "x\0y"}, ["A"]):
        with pytest.raises(RunnerError):
            arg_envs({"envs": bad})


def test_request_ids_default_to_the_file_name():
    assert request_id({"req": "mine"}, "req-file.json") == "mine"
    for bad in (None, "", 7, "x" * 129):
        assert request_id({"req": bad}, "req-file.json") == "file"


def test_contexts_keep_what_else_meta_json_holds(tmp_path, monkeypatch):
    import lizard_runner.contexts as contexts
    monkeypatch.setattr(contexts, "ROOT", str(tmp_path))
    m = Context("c1", "bash", "/home/user", {"count": 2, "sdk": True})
    m.save()
    back = load_context("c1")
    assert back == m
    assert back.public() == {"id": "c1", "language": "bash", "cwd": "/home/user"}
    (tmp_path / "c2").mkdir()
    (tmp_path / "c2" / "meta.json").write_text('{"language": "cobol", "cwd": "/"}')
    assert load_context("c2") is None
