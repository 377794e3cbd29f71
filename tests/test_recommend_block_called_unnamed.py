"""The exported ``tools.tool_search`` block carries the evidence against it: with recorded
sessions, the called tools its listing leaves unnamed, in the words ``recommend`` prints above
its table (one function for both), so the file a config review reads does not hide that every
tool the sessions used now needs a search; when they are all named, it says the sessions were
weighed. The Tuning page's block is the same text."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
ASK = ("recommend", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k,200k,1m", "--goal", "listed",
       "--sessions", "sample_sessions/state.db")
CALLED = ("mcp__github__create_issue, mcp__github__get_job_logs, mcp__grafana__get_current_oncall_users, "
          "mcp__grafana__get_dashboard_panel_queries, mcp__grafana__search_dashboards, mcp__linear__list_my_issues, "
          "mcp__slack__slack_post_message")
LINE = f"called in the sessions but not named at 32K, 200K, 1M: 7 of 7 tools ({CALLED}); the model has to search for them"


def test_yaml_block_names_the_called_tools_it_leaves_unnamed_as_the_text_does():
    text = run_cli(*ASK, cwd=ROOT)
    block = run_cli(*ASK, "--yaml", cwd=ROOT)
    assert text.returncode == block.returncode == 0, text.stderr + block.stderr
    assert [line for line in text.stdout.splitlines() if line.startswith("called in the sessions")] == [LINE]
    assert [line for line in block.stdout.splitlines() if line.startswith("# called in the sessions")] == [f"# {LINE}"]
    # a comment, above the settings: the block still loads as the two keys
    assert block.stdout.index(f"# {LINE}") < block.stdout.index("tools:\n")


def test_block_says_the_sessions_were_weighed_when_every_called_tool_is_named():
    block = run_cli(*ASK, "--keep-called", "--yaml", cwd=ROOT)
    assert block.returncode == 0, block.stderr
    assert "# called in the sessions but not named" not in block.stdout
    assert "# sessions: 7 sessions read; every deferred tool they called (7) is named at 32K, 200K, 1M" in (
        block.stdout.splitlines())
    # without sessions, no such line
    plain = run_cli(*ASK[:-2], "--yaml", cwd=ROOT)
    assert plain.returncode == 0 and "# sessions:" not in plain.stdout


def test_block_says_when_the_sessions_called_nothing_this_catalog_defers():
    block = run_cli("recommend", "sample_catalogs/japanese.yaml", "--context-lengths", "32k", "--goal", "names",
                    "--sessions", "sample_sessions/state.db", "--yaml", cwd=ROOT)
    assert block.returncode == 0, block.stderr
    assert ("# sessions: 7 sessions read; the sessions called no tool this catalog defers, so there is nothing for "
            "the listing to name") in block.stdout.splitlines(), block.stdout


def test_tuning_page_block_says_the_same():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k,200k,1m", "goal": "listed"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.multiselect(key="tuning_session_samples").set_value(["state.db"]).run()
    assert not at.exception, at.exception
    block = next(c.value for c in at.code if c.value.startswith("# toolsearch"))
    assert f"# {LINE}" in block.splitlines()
