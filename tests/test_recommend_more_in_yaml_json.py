"""The "more than the goal asks" and "lists more than the current settings" lines of ``recommend``
are in the ``--yaml`` block's comments too, and in ``--json`` (``more_than_goal``,
``higher_than_current``) from the same functions; ``--json`` carries the gate command the text's
gate line and the block's ``# gate:`` comment give (``gate``; ``null`` without a gate line)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
BEYOND = (TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", "names,32k=listed")


def _config(tmp_path: Path) -> Path:
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    threshold_pct: 1\n    listing_max_tokens: 500\n", encoding="utf-8")
    return config


def test_more_than_the_goal_asks_in_yaml_and_json() -> None:
    text = run_cli("recommend", *BEYOND).stdout.splitlines()
    line = next(x for x in text if x.startswith("more than the goal asks at 32K"))
    assert f"# {line}" in run_cli("recommend", *BEYOND, "--yaml").stdout.splitlines()
    data = json.loads(run_cli("recommend", *BEYOND, "--json").stdout)
    assert data["more_than_goal"] == [{"context_length": 32_000, "goal": "listed", "listing_form": "mixed",
                                       "servers_named": 9, "servers_total": 10, "listing_tokens": 1_491,
                                       "goal_budget": 177}]


def test_lists_more_than_current_in_yaml_and_json(tmp_path: Path) -> None:
    args = ("recommend", TEAM, "--config", _config(tmp_path), "--context-lengths", "32k,200k", "--goal", "names")
    line = next(x for x in run_cli(*args).stdout.splitlines() if x.startswith("lists more than"))
    assert f"# {line}" in run_cli(*args, "--yaml").stdout.splitlines()
    data = json.loads(run_cli(*args, "--json").stdout)
    assert data["higher_than_current"] == [
        {"context_length": 32_000, "change": "better: 2 → 9 of 9 servers named"},
        {"context_length": 200_000, "change": "better: 4 → 9 of 9 servers named"}]
    assert data["lower_than_current"] == [] and data["more_than_goal"] == []


def test_json_carries_the_gate_command() -> None:
    args = ("recommend", TEAM, "--context-lengths", "32k,200k", "--goal", "names")
    gate = next(x for x in run_cli(*args).stdout.splitlines() if x.startswith("gate: "))
    data = json.loads(run_cli(*args, "--json").stdout)
    assert data["gate"] is not None and gate == f"gate: {data['gate']}"
    assert f"# gate: {data['gate']}" in run_cli(*args, "--yaml").stdout.splitlines()
    missed = json.loads(run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k", "--goal", "names",
                                "--json").stdout)
    assert missed["reached"] is False and missed["gate"] is None
