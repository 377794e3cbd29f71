"""The listing what-if's per-tool count and the per-length "searches saved" are one quantity.

The Sessions page and ``toolsearch sessions`` show, per called tool, how many searches came before
its call (the listing what-if), and per context length the searches the listing saves. Both count
the ``tool_search`` calls since the session's previous tool call (``called_tools``): summed over the
listed tools of the sessions recorded at one length, the per-tool figures give that length's
"searches saved", on the page, in the CLI text and in its JSON. The sample store has a session
(b2) that searches, calls a grafana tool, searches again and calls slack: only the last search
comes "just before" the slack call.
"""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of, literal_tables, run_cli
from toolsearch.analysis.sessions import (SEARCHES_JUST_BEFORE_COLUMN, called_listed_at, called_tools,
                                          listing_what_if, load_sessions)
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).absolute().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
STORE = ROOT / "sample_sessions" / "state.db"


def _engine():
    inspector = inspector_of([CATALOG])
    return inspector, parse_config({}), load_sessions([STORE]).sessions


def test_what_if_counts_are_the_searches_saved_at_each_recorded_length():
    inspector, config, sessions = _engine()
    what_if = listing_what_if(sessions, inspector, config)
    called = {(c.session, c.tool): c.searches_before for c in called_tools(sessions, inspector, config)[0]}
    assert {(w.session, w.tool): w.searches_before for w in what_if} == called
    lengths = sorted({s.context_length for s in sessions if s.context_length})
    assert lengths == [16_000, 200_000]
    for length in lengths:
        at_length = [s for s in sessions if s.context_length == length]
        (saved,) = called_listed_at(at_length, inspector, config, [length])
        assert sum(w.searches_before for w in what_if if w.listed and w.context_length == length) == saved.searches_saved
    # b2 searched twice before its grafana call and once more before its slack call
    slack = next(w for w in what_if if w.session.endswith("_b2") and w.tool == "mcp__slack__slack_post_message")
    assert (slack.listed, slack.searches_before) == (True, 1)


def test_sessions_page_and_cli_show_the_same_searches_just_before():
    inspector, config, sessions = _engine()
    what_if = listing_what_if(sessions, inspector, config, 32_000)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "team-workspace", "ctx": "32K"})
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    page = literal_tables(at)["sessions_whatif"]
    assert "round trips before" not in page.columns
    assert list(page[SEARCHES_JUST_BEFORE_COLUMN]) == [str(w.searches_before) for w in what_if]
    # the page's per-length table: searches saved at 16,000 tokens = the listed 16,000-token rows' sum
    lengths = literal_tables(at)["sessions_at_lengths"]
    row16 = lengths[lengths["context length"] == "16K"].iloc[0]
    listed16 = page[(page["listed"] == "yes") & (page["context length"] == "16K")]
    assert int(row16["searches saved"]) == sum(int(v) for v in listed16[SEARCHES_JUST_BEFORE_COLUMN]) == 2

    args = ["sessions", str(STORE), "--catalog", str(CATALOG), "--context-length", "32000"]
    data = json.loads(run_cli(*args, "--json").stdout)
    cli = [w["searches_before"] for s in data["per_session"] for w in s["listing_what_if"]]
    assert cli == [w.searches_before for w in what_if]
    text = run_cli(*args).stdout
    assert SEARCHES_JUST_BEFORE_COLUMN in text and "round trips before" not in text
