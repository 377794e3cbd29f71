"""A message about a value of the wrong kind names that kind in the words of the YAML or JSON
file it came from (``got a mapping``, ``got a whole number``, ``got true/false``), never in
Python's (``got dict``, ``got int``, ``got NoneType``), which a user of the file does not know:
one function, :func:`toolsearch.engine.invisible.yaml_kind`, gives the words for every reader."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
import yaml

from conftest import run_cli
from toolsearch.engine.invisible import yaml_kind

ROOT = Path(__file__).resolve().parent.parent
CATALOG = str(ROOT / "sample_catalogs" / "five-servers.yaml")


@pytest.mark.parametrize(("value", "words"), [
    ({"a": 1}, "a mapping"),
    ({}, "a mapping"),
    ([1, 2], "a list"),
    ((1, 2), "a list"),
    ("text", "a string"),
    ("", "a string"),
    (5, "a whole number"),
    (0, "a whole number"),
    (2.5, "a number"),
    (float("inf"), "a number"),
    (float("nan"), "a number"),
    (True, "true/false"),   # a bool is an int to Python: named as what YAML wrote
    (False, "true/false"),
    (None, "null"),
    (datetime.date(2024, 1, 1), "a date"),
    (datetime.datetime(2024, 1, 1, 12, 0), "a date"),
    (datetime.time(12, 0), "a time"),
    (b"\x00\x01", "binary data"),
    (bytearray(b"x"), "binary data"),
    ({1, 2}, "a set"),
    (object(), "a value of another kind"),
])
def test_each_kind_in_the_file_words(value, words) -> None:
    assert yaml_kind(value) == words


def test_what_yaml_reads_is_named_so() -> None:
    data = yaml.safe_load("m: {a: 1}\nl: [1]\ns: x\ni: 7\nf: 1.5\nb: yes\nn:\nd: 2024-01-01\n"
                          "t: 2024-01-01 10:00:00\nbin: !!binary AAE=\nset: !!set {a}\n")
    assert {key: yaml_kind(value) for key, value in data.items()} == {
        "m": "a mapping", "l": "a list", "s": "a string", "i": "a whole number", "f": "a number",
        "b": "true/false", "n": "null", "d": "a date", "t": "a date", "bin": "binary data", "set": "a set"}


def test_no_message_names_a_python_type_for_a_value() -> None:
    """No ``got {type(x).__name__}`` is left in the package (an exception's class name is not a value)."""
    found = [f"{path.relative_to(ROOT)}:{number}" for path in sorted((ROOT / "toolsearch").rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"got\b.*type\([^)]*\)\.__name__", line)]
    assert found == []


# One message per reader, through the command line: each names the kind the file wrote.

def test_catalog_file(tmp_path) -> None:
    catalog = tmp_path / "cat.yaml"
    catalog.write_text("servers:\n  - name: a\n    tools:\n      - {name: t, description: 5}\n", encoding="utf-8")
    result = run_cli("plan", catalog)
    assert result.returncode == 0, result.stderr
    assert result.stderr == (f"toolsearch: catalog warning: {catalog}: servers[0].tools[0].description: "
                             "expected a string, got a whole number; treated as missing\n")


def test_catalog_function_array_of_scalars(tmp_path) -> None:
    catalog = tmp_path / "functions.json"
    catalog.write_text('["a", "b"]', encoding="utf-8")
    result = run_cli("plan", catalog)
    assert result.returncode == 2
    assert result.stderr == (f"toolsearch: error: {catalog}: [0]: expected a function array (a list of tool "
                             "objects), got a list whose first item is a string\n")


def test_harness_config(tmp_path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    defer: {a: 1}\n", encoding="utf-8")
    result = run_cli("plan", CATALOG, "--config", config)
    assert result.returncode == 0, result.stderr
    assert result.stderr == (f"toolsearch: warning: {config}: line 3: tools.tool_search.defer: expected a YAML list "
                             "of tool names (e.g. defer: [todo_list]), got a mapping {'a': 1}; using the curated "
                             "default set\n")


def test_harness_config_top_level(tmp_path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("- tools\n", encoding="utf-8")
    result = run_cli("plan", CATALOG, "--config", config)
    assert result.returncode == 2
    assert "top level: expected a mapping (a harness config.yaml), got a list\n" in result.stderr


def test_scope_file(tmp_path) -> None:
    scopes = tmp_path / "scopes.yaml"
    scopes.write_text("scopes: true\n", encoding="utf-8")
    result = run_cli("plan", CATALOG, "--scope-file", scopes)
    assert result.returncode == 2
    assert result.stderr == (f"toolsearch: error: {scopes}: scopes: expected a mapping of scope names (or a list "
                             "of scopes), got true/false\n")


def test_mcp_client_config(tmp_path) -> None:
    """The entry is refused before anything starts."""
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": {"x": "npx"}}', encoding="utf-8")
    result = run_cli("plan", config)
    assert result.returncode == 2
    assert f"{config}: mcpServers.x: expected a mapping with 'command' or 'url', got a string\n" in result.stderr


def test_query_file(tmp_path) -> None:
    queries = tmp_path / "q.yaml"
    queries.write_text("name: [1]\ntasks:\n  - {id: a, queries: [x], expected: [y]}\n", encoding="utf-8")
    result = run_cli("eval", CATALOG, queries)
    assert result.returncode == 2
    assert result.stderr == (f"toolsearch: error: {queries}: line 1: expected 'name' to be a string or a whole "
                             "number, got a list\n")


def test_query_file_task_id(tmp_path) -> None:
    queries = tmp_path / "q.yaml"
    queries.write_text("tasks:\n  - {id: 1.5, queries: [x], expected: [y]}\n", encoding="utf-8")
    result = run_cli("eval", CATALOG, queries)
    assert result.returncode == 2
    assert result.stderr == (f"toolsearch: error: {queries}: tasks[0]: expected a non-empty 'id' (a string or a "
                             "whole number), got a number\n")


def test_strategies_events_file(tmp_path) -> None:
    events = tmp_path / "events.yaml"
    events.write_text("2024-01-01\n", encoding="utf-8")
    result = run_cli("strategies", CATALOG, "--events", events)
    assert result.returncode == 2
    assert result.stderr == (f"toolsearch: error: {events}: top level: expected a list of events such as "
                             "'- {call: NAME}' or '- compaction', got a date\n")


def test_wording_profile(tmp_path) -> None:
    data = yaml.safe_load((ROOT / "toolsearch" / "engine" / "profiles" / "default.yaml").read_text(encoding="utf-8"))
    data["listing"]["header"] = 2.5
    profile = tmp_path / "profile.yaml"
    profile.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = run_cli("plan", CATALOG, "--profile", profile)
    assert result.returncode == 2
    assert result.stderr == f"toolsearch: error: {profile}: listing.header: expected a string, got a number\n"
