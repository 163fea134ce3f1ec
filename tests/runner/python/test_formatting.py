# Formatting helpers: events of kernel messages, the explorer's rows, the kernel-side table code.
import math

import pytest

from lizard_runner import kernelside
from lizard_runner.explorer import VARIABLE_COLUMNS, listing_answer
from lizard_runner.kernelside import table
from lizard_runner.query import completion, help_text
from lizard_runner.runs import result_event


def test_result_events_pick_the_best_mime_and_keep_the_bundle():
    ev = result_event("execute_result", {"data": {"text/plain": "1", "text/html": "<b>1</b>"},
                                         "execution_count": 4, "metadata": {"w": 1}})
    assert ev == {"type": "result", "mime": "text/html", "data": "<b>1</b>", "display": False,
                  "bundle": {"text/plain": "1", "text/html": "<b>1</b>"}, "execution_count": 4,
                  "metadata": {"w": 1}}


def test_display_updates_and_json_data():
    ev = result_event("update_display_data", {"data": {"application/json": {"a": 1}},
                                              "transient": {"display_id": "d1"}})
    assert ev["type"] == "update_display" and ev["display"] is True and ev["display_id"] == "d1"
    assert ev["data"] == '{"a": 1}' and "execution_count" not in ev
    assert result_event("display_data", {"data": {}}) is None


def test_explorer_rows_are_arrays_in_column_order():
    rows = [{"name": "x", "type": "int", "shape": "", "size": 28, "preview": "1", "repr": "1"}]
    answer = listing_answer(rows, None)
    assert answer["columns"] == list(VARIABLE_COLUMNS)
    assert answer["variables"] == [["x", "int", "", 28, "1"]] and "repr" not in answer
    assert listing_answer(rows, "x")["repr"] == "1"
    assert "repr" not in listing_answer([], "x")


def test_completion_and_help_answers():
    c = {"matches": ["import", 3], "cursor_start": 0, "cursor_end": 3,
         "metadata": {"_jupyter_types_experimental": [{"text": "import", "type": "keyword"}, "odd"]}}
    assert completion(c, 3) == {"type": "ok", "kernel": True, "matches": ["import"], "cursor_start": 0,
                                "cursor_end": 3, "types": [{"text": "import", "type": "keyword", "signature": "",
                                                            "start": None, "end": None}]}
    h = help_text({"found": True, "data": {"text/plain": "\x1b[31mdoc\x1b[0m"}})
    assert h["text"] == "doc" and h["text_ansi"] == "\x1b[31mdoc\x1b[0m" and h["found"] is True
    assert help_text({"found": False})["found"] is False


@pytest.mark.parametrize("value,cell", [
    (None, None), (True, True), (3, 3), (1.5, 1.5), (math.nan, "NaN"), (math.inf, "inf"), (-math.inf, "-inf"),
    ("s", "s"), ("x" * 1001, "x" * 1000 + "\u2026"), (b"b", "b'b'"),
])
def test_table_cells(value, cell):
    assert table._cell(value) == cell


def test_kernel_side_sources_are_the_module_files():
    with open(table.__file__, encoding="utf-8") as f:
        assert kernelside.source("table") == f.read()
    for name in ("watcher", "variables", "listing"):
        assert kernelside.source(name).strip()


def test_for_variable_is_sent_on_its_own():
    text = kernelside.function_source(kernelside.source("table"), "for_variable")
    assert text.startswith("def for_variable(name):\n") and text.endswith("return _format(obj)\n")
    ns = {}
    exec(text, ns)
    assert callable(ns["for_variable"])


def test_kernel_side_code_for_the_user_namespace_defines_only_functions():
    # It runs in the user's namespace: any other top-level name would show up as a variable.
    import ast
    for name, defined in (("variables", {"_lz_kind", "_lz_variables"}), ("listing", {"_lz_listing"})):
        tree = ast.parse(kernelside.source(name))
        assert all(isinstance(n, ast.FunctionDef) for n in tree.body), name
        assert {n.name for n in tree.body} == defined


def test_table_pages_of_a_frame():
    pandas = pytest.importorskip("pandas")
    df = pandas.DataFrame({"a": [3, 1, 2], "b": ["x", None, "z"]})
    t = table._format(df)
    assert t["shape"] == [3, 2] and t["series"] is False and t["start"] == 0
    assert [c["name"] for c in t["columns"]] == ["a", "b"] and t["columns"][0]["kind"] == "i"
    assert t["index_values"] == [0, 1, 2] and t["data"] == [[3, 1, 2], ["x", None, "z"]]
    page = table.rows(t["handle"], 0, 2, 0, True)
    assert page == {"handle": t["handle"], "start": 0, "rows": 3, "index_values": [1, 2], "data": [[1, 2], [None, "z"]]}
    with pytest.raises(LookupError, match="earlier kernel"):
        table.rows("000000000000-1", 0, 1)
    assert table._format(pandas.Series([1.5], name="s"))["series"] is True
