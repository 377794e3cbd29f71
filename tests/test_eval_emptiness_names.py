"""The figures about empty results have one name each on every surface: nonsense tasks empty,
nonsense queries empty, empty-or-not accuracy (toolsearch.analysis.evaluation.EMPTINESS_FIGURES),
defined in a line under eval's table; eval --json keeps its older keys beside the new ones, with
the same values."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
QUERIES = ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml"


def test_eval_names_and_defines_the_emptiness_figures():
    out = run_cli("eval", CATALOG, QUERIES, "--variant", "no-gate").stdout
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("variant "))
    assert "nonsense tasks empty" in header and "empty-or-not accuracy" in header
    assert "abstention accuracy" not in out and " abstention " not in header
    row = next(line for line in lines if line.startswith("no-gate "))
    assert row.split()[5:9] == ["0.000", "1.000", "0.000", "0.833"]  # values unchanged, names changed
    assert ("nonsense tasks empty: nonsense tasks (expected: []) whose every query returned nothing; nonsense "
            "queries empty: queries of nonsense tasks that returned nothing, each query alone; empty-or-not accuracy: "
            "all tasks empty exactly when they should be (nonsense tasks empty, the others with a match)") in out
    data = json.loads(run_cli("eval", CATALOG, QUERIES, "--variant", "no-gate", "--json").stdout)
    metrics = data["variants"][0]["metrics"]
    assert (metrics["nonsense_tasks_empty"], metrics["empty_or_not_accuracy"]) == (0.0, 0.833333)
    assert (metrics["abstention_rate"], metrics["abstention_accuracy"]) == (0.0, 0.833333)  # older keys kept
