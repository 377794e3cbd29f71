"""Per model, the context lengths its sessions recorded: a config shared by models from 32K to 1M is
argued per model, and the per-model figures (searches, empty rates, round trips) did not say at
which length each model ran. ``toolsearch sessions`` prints them as the last column of its per-model
table, ``--json`` gives them as ``context_lengths``, and the Sessions page shows the same text
(:func:`~toolsearch.analysis.sessions.context_lengths_cell`)."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import literal_tables, run_cli

ROOT = Path(__file__).absolute().parent.parent
STORE = ROOT / "sample_sessions" / "state.db"
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
# the sample store: gpt-5-mini ran at 16K, sonnet at 200K, haiku recorded no context length
EXPECTED = {"anthropic/claude-haiku-4.5": "unknown", "anthropic/claude-sonnet-4.5": "200K",
            "openai/gpt-5-mini": "16K"}


def test_the_command_prints_each_models_context_lengths():
    done = run_cli("sessions", str(STORE), "--catalog", str(CATALOG))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("per model:\n")[1].split("\n\n")[0].splitlines()
    assert lines[0].split("  ")[-1].strip() == "context lengths", lines[0]
    assert {line.split()[0]: line.split()[-1] for line in lines[2:]} == EXPECTED
    data = json.loads(run_cli("sessions", str(STORE), "--catalog", str(CATALOG), "--json").stdout)
    per_model = data["aggregates"]["per_model"]
    assert {m: f["context_lengths"] for m, f in per_model.items()} == {
        "anthropic/claude-haiku-4.5": [None], "anthropic/claude-sonnet-4.5": [200_000], "openai/gpt-5-mini": [16_000]}
    assert data["aggregates"]["overall"]["context_lengths"] == [16_000, 200_000, None]


def test_the_sessions_page_shows_the_same_text():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    table = literal_tables(at)["sessions_models_events"]
    assert dict(zip(table["model"], table["context lengths"])) == EXPECTED
    assert ("Context lengths the sessions recorded, failed tool calls and context compactions per model:"
            in [c.value for c in at.caption])
