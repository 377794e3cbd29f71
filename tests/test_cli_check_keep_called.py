"""``check --sessions SRC --keep-called``: the gate asks what ``recommend --keep-called`` asked,
every server whose tools the recorded sessions called at names or better, through the same code
(:func:`toolsearch.cli.common.keep_for`). The shipped sessions (state.db) call github, grafana,
linear and slack tools; the goal ``listed`` alone is met by settings that collapse all four."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
STATE = ROOT / "sample_sessions" / "state.db"
LENGTHS = ("--context-lengths", "32k,200k,1m", "--goal", "listed")
CALLED = ["github", "grafana", "linear", "slack"]


def _recommend(*extra: object) -> dict:
    result = run_cli("recommend", TEAM, *LENGTHS, *extra, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _settings(rec: dict) -> tuple[str, ...]:
    return ("--threshold-pct", f"{rec['threshold_pct']:g}", "--listing-max-tokens", str(rec["listing_max_tokens"]))


def test_check_keep_called_gates_what_recommend_keep_called_asked() -> None:
    plain, kept = _recommend(), _recommend("--sessions", STATE, "--keep-called")
    # the goal alone is met by the plain recommendation; the called servers are not
    assert run_cli("check", TEAM, *LENGTHS, *_settings(plain)).returncode == 0
    failed = run_cli("check", TEAM, *LENGTHS, *_settings(plain), "--sessions", STATE, "--keep-called")
    assert failed.returncode == 1, failed.stderr
    assert "Traceback" not in failed.stderr
    lines = failed.stdout.splitlines()
    assert lines[0] == ("toolsearch check failed at every length: a server to keep collapsed · checked tool names "
                        "listed (tier 1); kept named at every length: github, grafana, linear, slack; at 32K, 200K, 1M")
    assert lines[2] == ("kept named because the sessions called them: github (2 tools called), grafana (3 tools called), "
                        "linear (1 tool called), slack (1 tool called)")
    # one line for the condition, naming every length it is missed at, with each length's budget
    assert ("at 32K, 200K and 1M: github, grafana, linear, slack must stay named but are collapsed "
            f"to a summary line within budgets of 160, {plain['listing_max_tokens']} and {plain['listing_max_tokens']} "
            "tokens") in lines
    # the settings it suggests are recommend --keep-called's
    assert (f"settings that reach it at every length: threshold_pct {kept['threshold_pct']:g}%, "
            f"listing_max_tokens {kept['listing_max_tokens']:,}") in lines[-1]
    passed = run_cli("check", TEAM, *LENGTHS, *_settings(kept), "--sessions", STATE, "--keep-called")
    assert passed.returncode == 0, (passed.stdout, passed.stderr)
    assert passed.stdout.startswith("toolsearch check passed: ")


def test_check_keep_called_is_the_gate_lines_keep() -> None:
    """The same verdict and JSON as the # gate: line's --keep options, plus where they came from and
    recommend --sessions' per-length session counts."""
    kept = _recommend("--sessions", STATE, "--keep-called")
    by_hand = run_cli("check", TEAM, *LENGTHS, *_settings(kept), *[w for s in CALLED for w in ("--keep", s)], "--json")
    called = run_cli("check", TEAM, *LENGTHS, *_settings(kept), "--sessions", STATE, "--keep-called", "--json")
    assert by_hand.returncode == called.returncode == 0, called.stderr
    data, hand = json.loads(called.stdout), json.loads(by_hand.stdout)
    assert [s["name"] for s in data.pop("keep_called")["added"]] == CALLED
    counts = [{key: c.pop(key) for key in ("called_listed", "called_total", "searches_saved")} for c in data["contexts"]]
    assert counts == [{"called_listed": 7, "called_total": 7, "searches_saved": 9}] * 3
    assert data == hand
    markdown = run_cli("check", TEAM, *LENGTHS, *_settings(kept), "--sessions", STATE, "--keep-called",
                       "--format", "markdown")
    assert markdown.returncode == 0, markdown.stderr
    assert "- kept named because the sessions called them: github (2 tools called), grafana (3 tools called), " \
           "linear (1 tool called), slack (1 tool called)" in markdown.stdout.splitlines()


def test_check_sessions_and_keep_called_need_each_other() -> None:
    alone = run_cli("check", TEAM, *LENGTHS, "--keep-called")
    assert (alone.returncode, alone.stdout) == (2, "")
    assert alone.stderr == ("toolsearch: error: check: --keep-called: needs --sessions SRC: the servers it keeps named "
                            "are those whose tools the recorded sessions called\n")
    sessions = run_cli("check", TEAM, *LENGTHS, "--sessions", STATE)
    assert (sessions.returncode, sessions.stdout) == (2, "")
    assert sessions.stderr == ("toolsearch: error: check: --sessions: only with --keep-called: check reads recorded "
                               "sessions for the servers they called, which then must stay named\n")


def test_check_help_names_keep_called() -> None:
    text = " ".join(run_cli("check", "--help").stdout.split())
    assert "--sessions SRC [SRC ...]" in text
    assert ("with --sessions: every server whose tools the sessions called must stay at names or better, as if given "
            "with --keep (as recommend --keep-called, whose # gate: line names them with --keep instead)") in text
