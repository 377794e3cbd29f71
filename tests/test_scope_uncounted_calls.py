"""Called tools a session scope leaves out are said to be outside the scope, not "not deferred by
this catalog": one function (:func:`toolsearch.analysis.sessions.uncounted_calls`) decides the
reason for ``recommend``/``report`` ``--sessions`` (and ``--keep-called``), the Tuning page and the
Sessions page. The shipped sessions (state.db) call github, grafana, linear and slack tools; the
scope ``support`` reaches slack, linear and notion."""

from __future__ import annotations

import html
import json
from pathlib import Path

from conftest import run_cli

from toolsearch.analysis.recommend import keep_called
from toolsearch.analysis.sessions import called_tools, load_sessions, uncounted_calls
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.scopes import parse_scope_arg

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
FIVE = ROOT / "sample_catalogs" / "five-servers.yaml"
STATE = ROOT / "sample_sessions" / "state.db"
SUPPORT = "support=slack,linear,notion"
LENGTHS = ("--context-lengths", "32k,200k", "--goal", "listed")
OUTSIDE = ["mcp__github__create_issue", "mcp__github__get_job_logs", "mcp__grafana__get_current_oncall_users",
           "mcp__grafana__get_dashboard_panel_queries", "mcp__grafana__search_dashboards"]
SCOPE_SENTENCE = "the sessions called 5 tools the session scope 'support' does not reach: " + ", ".join(OUTSIDE)
KEEP_SENTENCE = ("5 called tools are outside the session scope 'support', so they keep no server named: "
                 "servers github (2 tools), grafana (3 tools): " + ", ".join(OUTSIDE))


def _uncounted(catalog: Path, scope: str | None):
    inspector = Inspector.from_files([catalog]).scoped(parse_scope_arg(scope) if scope else None)
    config = ToolSearchConfig()
    return uncounted_calls(called_tools(load_sessions([STATE]).sessions, inspector, config)[1], inspector, config)


def test_the_reason_is_the_scope_only_where_the_whole_catalog_defers_the_tool() -> None:
    whole = _uncounted(TEAM, None)
    assert not whole and whole.sentences() == []  # the whole catalog defers every tool called
    scoped = _uncounted(TEAM, SUPPORT)
    assert (scoped.outside_scope, scoped.not_deferred, scoped.scope) == (tuple(OUTSIDE), (), "support")
    assert scoped.sentences() == [SCOPE_SENTENCE]
    # five-servers lacks some of the tools called: those stay "not deferred by this catalog"
    mixed = _uncounted(FIVE, "s=slack")
    assert mixed.outside_scope == ("mcp__github__create_issue",)
    assert mixed.not_deferred == ("mcp__github__get_job_logs", "mcp__grafana__get_current_oncall_users",
                                  "mcp__grafana__get_dashboard_panel_queries", "mcp__grafana__search_dashboards",
                                  "mcp__linear__list_my_issues")
    assert mixed.sentences(also=True) == [
        "the sessions also called 1 tool the session scope 's' does not reach: mcp__github__create_issue",
        "the sessions also called 5 tools this catalog does not defer: mcp__github__get_job_logs, "
        "mcp__grafana__get_current_oncall_users, mcp__grafana__get_dashboard_panel_queries, "
        "mcp__grafana__search_dashboards, mcp__linear__list_my_issues"]
    kept = keep_called([], mixed, ["github", "grafana", "sentry", "slack", "splunk"])
    assert kept.not_keepable_words() == (
        "1 called tool is outside the session scope 's', so it keeps no server named: server github (1 tool): "
        "mcp__github__create_issue. 5 called tools are not deferred tools of this catalog (another catalog's, "
        "renamed since, or visible), so they keep no server named: servers github (1 tool), grafana (3 tools), "
        "linear (1 tool, not a server of this catalog): mcp__github__get_job_logs, "
        "mcp__grafana__get_current_oncall_users, mcp__grafana__get_dashboard_panel_queries, "
        "mcp__grafana__search_dashboards, mcp__linear__list_my_issues")


def test_recommend_keep_called_in_a_scope_names_the_scope() -> None:
    result = run_cli("recommend", TEAM, *LENGTHS, "--sessions", STATE, "--keep-called", "--scope", SUPPORT, "--json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("toolsearch: warning: ")
                and "catalog drift" not in line]
    # one warning names the tools the counts leave out, each once, with its reason and server
    assert warnings == [f"toolsearch: warning: --keep-called: {KEEP_SENTENCE}"]
    assert all("\n".join(warnings).count(name) == 1 for name in OUTSIDE)
    # without --keep-called the counts' own warning says them
    plain = run_cli("recommend", TEAM, *LENGTHS, "--sessions", STATE, "--scope", SUPPORT, "--json")
    assert [line for line in plain.stderr.splitlines() if line.startswith("toolsearch: warning: ")
            and "catalog drift" not in line] == [f"toolsearch: warning: {SCOPE_SENTENCE}"]
    assert "of this catalog" not in result.stderr
    data = json.loads(result.stdout)
    assert data["keep_called"]["not_keepable"] == data["keep_called"]["outside_scope"] == OUTSIDE
    assert data["keep_called"]["not_keepable_servers"] == [{"name": "github", "tools": 2, "in_catalog": True},
                                                           {"name": "grafana", "tools": 3, "in_catalog": True}]
    assert data["sessions"]["called_outside_scope"] == OUTSIDE
    assert data["sessions"]["called_not_deferred"] == []


def test_report_in_a_scope_names_the_scope(tmp_path: Path) -> None:
    out = tmp_path / "review.html"
    result = run_cli("report", TEAM, *LENGTHS, "--sessions", STATE, "--keep-called", "--scope", SUPPORT, "-o", out)
    assert result.returncode == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    # one paragraph names the called tools outside the scope (with their servers): not a second "Not counted" one
    assert f"<strong>Not keepable:</strong> {html.escape(KEEP_SENTENCE)}</p>" in page
    assert "<strong>Not counted:</strong>" not in page
    said = [p.split("</p>", 1)[0] for p in page.split("<p><strong>")[1:]]  # the report's warning paragraphs
    for name in OUTSIDE:
        assert sum(p.count(html.escape(name)) for p in said) == 1, name
    assert "does not defer" not in page and "not deferred tools of this catalog" not in page


def test_tuning_page_in_a_scope_names_the_scope() -> None:
    from tests.test_app_tuning_sessions import open_tuning
    from toolsearch.ui.common import md_escape

    at = open_tuning({"lengths": "32k,200k", "goal": "listed", "sessions": "state.db", "keepcalled": "True",
                      "scope": SUPPORT})
    warnings = [w.value for w in at.warning]
    # one warning names the called tools outside the scope, with their servers (as recommend --keep-called says)
    assert md_escape(KEEP_SENTENCE + ".") in warnings, warnings
    assert md_escape(SCOPE_SENTENCE[0].upper() + SCOPE_SENTENCE[1:] + ".") not in warnings, warnings
    for name in OUTSIDE:
        assert sum(w.count(md_escape(name)) for w in warnings) == 1, (name, warnings)
    assert not [w for w in warnings if "does not defer" in w or "of this catalog" in w], warnings


def test_sessions_page_in_a_scope_names_the_scope() -> None:
    from tests.test_app_sessions import open_page
    from toolsearch.ui.common import md_escape

    at = open_page({"scope": SUPPORT})
    at.selectbox(key="sessions_sample").set_value("state.db").run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    said = SCOPE_SENTENCE.replace("called", "also called", 1)
    assert md_escape(f"Not counted: {said}") in captions, [c for c in captions if "Not counted" in c]
    assert not [c for c in captions if "does not defer" in c]
