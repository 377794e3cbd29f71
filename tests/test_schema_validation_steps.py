"""A tool's schema is catalog (server) text: combinators over ``$ref`` multiply the work of one
validation. ``anyOf`` of ten ``$ref`` nine levels deep is a 2.5 KB schema that jsonschema takes
10**9 keyword evaluations to check a wrong value against: ``toolsearch call`` (and the Search page's
tool_call check, and a live result's output schema) hung for ever. Past
SCHEMA_VALIDATION_MAX_STEPS the call is not validated and goes through (fail open, as for a
pattern past its timeout); ordinary schemas validate as before."""

from __future__ import annotations

import json
import subprocess

from conftest import toolsearch_command, write_json
from toolsearch.engine.bridge import SCHEMA_VALIDATION_MAX_STEPS, Bridge


def _catalog(levels: int = 9, fan: int = 10) -> dict:
    defs = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}] * fan} for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    return {"name": "b", "servers": [{"name": "s", "tools": [
        {"name": "bomb", "description": "Many branches.",
         "inputSchema": {"type": "object", "properties": {"p": {"$ref": "#/$defs/d0"}}, "$defs": defs}},
        {"name": "small", "description": "A few branches.",
         "inputSchema": {"type": "object", "properties": {"p": {"$ref": "#/$defs/d0"}},
                         "$defs": {"d0": {"anyOf": [{"$ref": "#/$defs/d1"}] * 3}, "d1": {"type": "string"}}}}]}]}


def test_a_schema_whose_branches_multiply_does_not_hang_tool_call(tmp_path):
    catalog = write_json(tmp_path / "b.json", _catalog())
    done = subprocess.run([*toolsearch_command(), "call", str(catalog), "mcp__s__bomb", "-a", '{"p": 5}'],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["dispatch"] == {"name": "mcp__s__bomb", "server": "s", "tool": "bomb",
                                                   "arguments": {"p": 5}}


def test_the_check_says_why_it_did_not_validate_and_small_schemas_still_do(tmp_path):
    from toolsearch.engine.catalog import load_source
    from toolsearch.engine.registration import register_catalog

    catalog = load_source(write_json(tmp_path / "b.json", _catalog()))
    bridge = Bridge(list(register_catalog(catalog).tools))
    check = bridge.check_call({"name": "mcp__s__bomb", "arguments": {"p": 5}})
    assert (check.error, check.validated) == (None, False)
    assert check.skipped == f"the validation took over {SCHEMA_VALIDATION_MAX_STEPS:,} steps"
    refused = bridge.check_call({"name": "mcp__s__small", "arguments": {"p": 5}})
    assert refused.validated and refused.error["constraint"] == "anyOf"
    fine = bridge.check_call({"name": "mcp__s__bomb", "arguments": {"p": "x"}})  # the first branch matches
    assert fine.validated and fine.error is None


def test_the_command_line_says_a_call_was_not_validated(tmp_path):
    """``toolsearch call`` dispatched a call it could not validate without a word (the Search page says
    why); it now says so on stderr, for a validation past its steps and for a pattern past its timeout."""
    from conftest import run_cli

    catalog = write_json(tmp_path / "b.json", _catalog())
    done = run_cli("call", catalog, "mcp__s__bomb", "-a", '{"p": 5}')
    assert done.returncode == 0, done.stderr
    assert done.stderr == (f"toolsearch: note: the call was not validated (the validation took over "
                           f"{SCHEMA_VALIDATION_MAX_STEPS:,} steps); the bridge fails open, so it would be "
                           "dispatched as shown\n")
    slow = write_json(tmp_path / "slow.json", {"servers": [{"name": "s", "tools": [
        {"name": "t", "description": "A slow pattern.",
         "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "pattern": "^(a|aa)+$"}}}}]}]})
    done = run_cli("call", slow, "mcp__s__t", "-a", json.dumps({"x": "a" * 40 + "!"}))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ("toolsearch: note: the call was not validated (the pattern took over 1 s); the bridge "
                           "fails open, so it would be dispatched as shown\n")
    done = run_cli("call", catalog, "mcp__s__small", "-a", '{"p": "x"}')  # validated: no note
    assert done.returncode == 0 and done.stderr == "", done.stderr
