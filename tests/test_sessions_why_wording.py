"""The reason a recorded search came back empty reads as a sentence: "1 tool contains the gate term",
"2 tools contain it" (``why_empty``), in ``toolsearch sessions`` as on the Sessions page."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import inspector_of, run_cli
from toolsearch.analysis.sessions import why_empty
from toolsearch.engine.config import ToolSearchConfig

ROOT = Path(__file__).absolute().parent.parent
STORE = ROOT / "sample_sessions" / "state.db"
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
UNREAL = ROOT / "sample_catalogs" / "unreal-editor.yaml"


def test_one_tool_with_the_gate_term_is_singular_in_the_sessions_command():
    # with the Unreal editor's servers, one tool holds "engine" (stem "engin"), the gate term of a
    # recorded search that still admits nothing: the coverage floor excludes it
    data = json.loads(run_cli("sessions", str(STORE), "--catalog", str(TEAM), str(UNREAL), "--json").stdout)
    why = {f["query"]: f["why"] for f in data["aggregates"]["top_failed"]}
    assert why["page the on-call engineer"] == (
        "1 tool contains the gate term 'engineer → engin', but none covers 3 of the 5 answerable terms")
    text = run_cli("sessions", str(STORE), "--catalog", str(TEAM), str(UNREAL)).stdout
    assert "1 tool contains the gate term 'engineer → engin'" in text
    assert "1 tool contain " not in text


def test_several_tools_with_the_gate_term_are_plural(tmp_path):
    # "engine" is in two tools, the rarest query term: the gate term; neither of them covers the
    # floor of the four answerable terms, and the tools that do lack the gate term
    tools = [("restart_engine", "Restart the engine."), ("stop_engine", "Stop the engine."),
             ("list_pods", "List pods of a namespace in a cluster."),
             ("watch_pods", "Watch pods of a namespace in a cluster."),
             ("drain_cluster", "Drain the pods of a namespace in a cluster.")]
    catalog = {"servers": [{"name": "ops", "tools": [
        {"name": name, "description": text, "inputSchema": {"type": "object"}} for name, text in tools]}]}
    path = tmp_path / "ops.json"
    path.write_text(json.dumps(catalog), encoding="utf-8")
    index = inspector_of([path]).bridge(ToolSearchConfig()).index
    why, gate, _ = why_empty(index, "engine pods namespace cluster", 5)
    assert gate == "engin"
    assert why.startswith("2 tools contain the gate term 'engine → engin', but none covers"), why


def test_the_listing_what_if_header_says_whose_settings_it_uses():
    # the threshold_pct and listing_max_tokens are the current ones (a session records neither), only
    # the context length is the session's: the header said "at the session's settings"
    text = run_cli("sessions", str(STORE), "--catalog", str(TEAM)).stdout
    assert ("listing what-if (was the called tool named in the listing at the session's context length, with the "
            "current threshold_pct and listing_max_tokens?):") in text.splitlines(), text
    assert "at the session's settings" not in text
