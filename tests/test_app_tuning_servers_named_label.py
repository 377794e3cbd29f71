"""The Tuning page's servers-named metric is the fewest servers named at any listed length: its label
says where, as ``recommend`` does (``6 of 9 servers named at 2K``), and reads "at every length" only
when every length names as many (a minimum labelled "at every length" read as if no length named more)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"


def _metrics(query: dict[str, str]) -> dict[str, str]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return {m.label: m.value for m in at.metric}


def test_the_label_names_the_length_that_names_the_fewest():
    done = run_cli("recommend", TEAM, "--context-lengths", "2k,200k", "--goal", "names")
    data = json.loads(run_cli("recommend", TEAM, "--context-lengths", "2k,200k", "--goal", "names", "--json").stdout)
    assert [(c["servers_named"], c["servers_total"]) for c in data["contexts"]] == [(6, 9), (9, 9)]
    assert "best reachable setting (6 of 9 servers named at 2K, " in done.stdout  # recommend's words
    metrics = _metrics({"lengths": "2k, 200k", "goal": "names"})
    assert metrics["Servers named at 2K"] == "6 of 9"
    assert "Servers named at every length" not in metrics


def test_every_length_when_every_length_names_as_many():
    metrics = _metrics({"lengths": "32k, 200k", "goal": "names"})
    assert metrics["Servers named at every length"] == "9 of 9"
