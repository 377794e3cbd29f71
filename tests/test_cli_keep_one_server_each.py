"""``--keep`` and ``--except`` take one server each (repeatable). ``--keep github,slack``, written as
``--context-lengths`` and ``--goal`` take their lists, was refused as "no server named
'github,slack'" while the list of servers it printed holds both: the message says how to give them."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli

CATALOG = "sample_catalogs/team-workspace.yaml"
SERVERS = "github, linear, slack, notion, sentry, grafana, filesystem, playwright, core"


@pytest.mark.parametrize("command, option, value, fix", [
    ("recommend", "--keep", "github,slack", "--keep github --keep slack"),
    ("check", "--except", "github, slack", "--except github --except slack"),
    ("report", "--keep", "linear,sentry,core", "--keep linear --keep sentry --keep core"),
])
def test_a_comma_list_of_servers_is_told_to_repeat_the_option(command, option, value, fix, tmp_path):
    out = ["-o", str(tmp_path / "r.html")] if command == "report" else []
    done = run_cli(command, CATALOG, "--context-lengths", "32k", "--goal", "listed", option, value, *out, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"toolsearch: error: {command}: {option}: no server named '{value}' in the "
                                            f"catalog (servers: {SERVERS}); one server per {option}: {fix}")


def test_a_list_with_an_unknown_server_gets_no_such_advice(tmp_path):
    done = run_cli("recommend", CATALOG, "--context-lengths", "32k", "--goal", "listed", "--keep", "github,nosuch",
                   cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == ("toolsearch: error: recommend: --keep: no server named 'github,nosuch' in "
                                            f"the catalog (servers: {SERVERS})")


@pytest.mark.parametrize("command, option, value, guess", [
    ("recommend", "--keep", "gihtub", "github"),
    ("check", "--except", "Slack", "slack"),
    ("check", "--keep", "play-wright", "playwright"),
])
def test_a_misspelt_server_gets_the_nearest_name(command, option, value, guess, tmp_path):
    """A typo in a server name was answered with the catalog's servers (at most twelve of them) and no
    guess: the nearest name, or the one that differs only in case, is said."""
    done = run_cli(command, CATALOG, "--context-lengths", "32k", "--goal", "listed", option, value, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"toolsearch: error: {command}: {option}: no server named '{value}' in the "
                                            f"catalog (servers: {SERVERS}); did you mean '{guess}'?")


def test_a_misspelt_server_beyond_the_twelve_shown_is_still_guessed(tmp_path):
    servers = [f"server-{i:02d}" for i in range(20)] + ["warehouse"]
    catalog = {"servers": [{"name": name, "tools": [{"name": "ping", "description": "Ping it.",
                                                     "inputSchema": {"type": "object"}}]} for name in servers]}
    (tmp_path / "catalog.json").write_text(json.dumps(catalog), encoding="utf-8")
    done = run_cli("recommend", "catalog.json", "--context-lengths", "32k", "--goal", "listed", "--keep", "warehose",
                   cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].endswith("and 9 more); did you mean 'warehouse'?")


@pytest.mark.parametrize("command", ["recommend", "check"])
def test_a_server_given_to_both_options_is_told_which_does_what(command, tmp_path):
    done = run_cli(command, CATALOG, "--context-lengths", "32k", "--goal", "listed", "--except", "slack",
                   "--keep", "slack", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"toolsearch: error: {command}: slack: a server cannot be given to both "
                                            "--except and --keep (--except lets it collapse, --keep keeps it named); "
                                            "give it to the one you mean")
