"""Registered tool counts include the resource and prompt tools the harness adds for a server that
announces those capabilities (docs/reference.md §24); a server's own tools/list does not. A
config with the time server (2 tools of its own, resources and prompts announced) read "time: ok,
2 tools" while connecting and then "6 tools" in plan's table and on every page, with no word on
the difference. plan, the Overview and the Live servers page now say how many were added, and
for which server."""

from __future__ import annotations

from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

from conftest import inspector_of, run_cli
from toolsearch.analysis import quantities as Q
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent

CATALOG = {"name": "Helpers", "servers": [
    {"name": "time", "capabilities": {"tools": {}, "resources": {}, "prompts": {}},
     "tools": [{"name": "get_current_time", "description": "Get the current time.",
                "inputSchema": {"type": "object", "properties": {}}},
               {"name": "convert_time", "description": "Convert a time between time zones.",
                "inputSchema": {"type": "object", "properties": {}}}]},
    {"name": "memory", "capabilities": {"tools": {}, "resources": {}},
     "tools": [{"name": "read_graph", "description": "Read the whole graph.",
                "inputSchema": {"type": "object", "properties": {}}}]},
    {"name": "plain", "capabilities": {"tools": {}},
     "tools": [{"name": "echo", "description": "Echo a text.", "inputSchema": {"type": "object", "properties": {}}}]},
]}

WORDS = ("6 of the 10 registered tools are resource and prompt tools the harness adds for servers that announce "
         "those capabilities (2 for memory, 4 for time; docs/reference.md §24): a server's own tools/list does not count them")


def _catalog(tmp_path: Path) -> Path:
    path = tmp_path / "helpers.yaml"
    path.write_text(yaml.safe_dump(CATALOG, sort_keys=False), encoding="utf-8")
    return path


def test_the_library_counts_the_added_tools_per_server(tmp_path) -> None:
    registration = Inspector.from_files([_catalog(tmp_path)]).full_registration
    assert Q.helper_tools(registration) == {"memory": 2, "time": 4}
    assert Q.helper_tools_words(registration) == WORDS
    plain = inspector_of([ROOT / "sample_catalogs" / "github-full.yaml"]).full_registration
    assert (Q.helper_tools(plain), Q.helper_tools_words(plain)) == ({}, None)


def test_plan_says_how_many_registered_tools_the_harness_added(tmp_path) -> None:
    done = run_cli("plan", _catalog(tmp_path), "--context-length", "32k")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "catalog: Helpers (10 tools)"
    assert f"note: {WORDS}" in lines
    plain = run_cli("plan", ROOT / "sample_catalogs" / "github-full.yaml")
    assert not [line for line in plain.stdout.splitlines() if "registered tools are resource" in line]


def test_the_overview_says_it_under_the_tools_figure() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    tools = next(m for m in at.metric if m.label == "Tools")
    assert tools.value == "183"
    expected = ("2 of the 183 registered tools are resource and prompt tools the harness adds for servers that "
                "announce those capabilities (2 for notion; docs/reference.md §24): a server's own tools/list does "
                "not count them.")
    assert expected in [c.value.replace("\\", "") for c in at.caption]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["catalog"] = "github-full"
    at.run()
    assert not at.exception, at.exception
    assert not [c.value for c in at.caption if "registered tools are resource" in c.value]
