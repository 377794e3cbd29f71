"""The sessions' "called tools listed by name" table (``toolsearch sessions`` and the Sessions page's
Listing what-if) named a listing by its form alone, ``mixed``, which can name 9 of 10 servers or 1
of 10: every other surface (``sweep``, the Tuning page, ``recommend``, the report) gives a mixed
listing its counts. The rows now carry them, from the same ladder as ``sweep``."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import literal_tables, run_cli

ROOT = Path(__file__).absolute().parent.parent
CATALOG = "sample_catalogs/team-workspace.yaml"
STORE = "sample_sessions/state.db"


def test_the_cli_table_and_json_count_a_mixed_listing(tmp_path):
    done = run_cli("sessions", STORE, "--catalog", CATALOG, "--context-lengths", "16k,32k", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    table = done.stdout.split("called tools already listed by name", 1)[1].splitlines()[1:5]
    assert [line.split() for line in table[2:]] == [["16K", "800", "mixed", "6/9", "2/7", "2"],
                                                    ["32K", "1,600", "names", "7/7", "9"]]
    # the same counts as sweep at 16K and threshold_pct 5
    swept = json.loads(run_cli("sweep", CATALOG, "--context-lengths", "16k", "--threshold-pcts", "5", "--json",
                               cwd=tmp_path).stdout)[0]
    assert (swept["budget"], swept["counts"]["servers_named"], swept["counts"]["servers_total"]) == (800, 6, 9)
    data = json.loads(run_cli("sessions", STORE, "--catalog", CATALOG, "--context-lengths", "16k", "--json",
                              cwd=tmp_path).stdout)
    assert data["called_listed"] == [{
        "context_length": 16_000, "budget": 800, "listing_form": "mixed", "called_listed": 2, "called_total": 7,
        "searches_saved": 2, "servers_named": 6, "servers_total": 9,
        "outcome": "mixed · 6 of 9 servers named (86 tools)"}]


def test_the_sessions_page_counts_a_mixed_listing():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    table = literal_tables(at)["sessions_at_lengths"]
    assert list(table["listing"])[:2] == ["mixed 6/9", "names"], table
