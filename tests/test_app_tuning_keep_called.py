"""The Tuning page's "Keep called servers named": with recorded sessions loaded,
ticking it adds the servers the sessions called to Must stay named, says which, and gives the
setting ``toolsearch recommend --sessions ... --keep-called`` gives (one function behind both)."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
STATE = ROOT / "sample_sessions" / "state.db"


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _cli(*extra: str) -> dict:
    result = run_cli("recommend", CATALOG, "--context-lengths", "32k,200k,1m", "--goal", "listed",
                     "--sessions", STATE, *extra, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_ticking_keep_called_keeps_the_called_servers_named_as_the_cli_does():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k,200k,1m", "goal": "listed"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    assert not [c for c in at.checkbox if c.key == "tuning_keep_called"]  # no sessions: nothing to keep
    at.multiselect(key="tuning_session_samples").set_value(["state.db"]).run()
    assert not at.exception, at.exception
    plain, cli_plain = _metrics(at), _cli()
    assert plain["Recommended threshold_pct"] == f"{cli_plain['threshold_pct']:g}%"
    assert plain["Servers named at every length"] == "1 of 9"

    at.checkbox(key="tuning_keep_called").check().run()
    assert not at.exception, at.exception
    cli = _cli("--keep-called")
    shown = _metrics(at)
    assert shown["Recommended threshold_pct"] == f"{cli['threshold_pct']:g}%"
    assert shown["Recommended listing_max_tokens"] == f"{cli['listing_max_tokens']:,} tokens"
    assert shown["Servers named at every length"] == "9 of 9"
    assert (cli["threshold_pct"], cli["listing_max_tokens"]) != (cli_plain["threshold_pct"],
                                                                 cli_plain["listing_max_tokens"])
    infos = [i.value.replace("\\", "") for i in at.info]
    assert ("Kept named because the sessions called them: github (2 tools called), grafana (3 tools called), "
            "linear (1 tool called), slack (1 tool called).") in infos
    # the exported block is recommend --keep-called --yaml's, gate line included
    block = next(c.value for c in at.code if c.value.startswith("# toolsearch"))
    assert "# kept named because the sessions called them: github (2 tools called)" in block
    assert "--goal listed --keep github --keep grafana --keep linear --keep slack" in block
    assert at.query_params["keepcalled"] == "True"


def test_a_link_carries_the_choice():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k,200k,1m", "goal": "listed", "sessions": "state.db",
                            "keepcalled": "True"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    assert at.checkbox(key="tuning_keep_called").value is True
    cli = _cli("--keep-called")
    assert _metrics(at)["Recommended listing_max_tokens"] == f"{cli['listing_max_tokens']:,} tokens"


def test_the_report_page_carries_the_kept_servers():
    """The Report page asks the Tuning question again, checkbox included: the built report has the
    setting and the line of ``report --keep-called``."""
    from tests.test_app_tuning_report import carried_caption, report_section  # noqa: PLC0415

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k,200k,1m", "goal": "listed", "sessions": "state.db",
                            "keepcalled": "True"})
    at.run()
    at.switch_page("toolsearch/ui/report.py").run()
    assert not at.exception, at.exception
    cli = _cli("--keep-called")
    assert carried_caption(at).startswith(
        f"Recommended settings across context lengths: threshold_pct {cli['threshold_pct']:g}%, listing_max_tokens "
        f"{cli['listing_max_tokens']:,}, for the Tuning page's goal (tool names listed (tier 1); kept named "
        "at every length: github, grafana, linear, slack; context lengths 32K, 200K, 1M, with the sessions of "
        "state.db, keeping the servers they called named)")
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    section = report_section(at.session_state["report_html"])
    cli = _cli("--keep-called")
    assert f"listing_max_tokens: {cli['listing_max_tokens']}" in section
    assert ("<li>kept named because the sessions called them: github (2 tools called), grafana (3 tools called), "
            "linear (1 tool called), slack (1 tool called)</li>") in section
