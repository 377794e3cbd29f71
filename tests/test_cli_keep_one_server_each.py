"""``--keep`` and ``--except`` take one server each (repeatable). ``--keep github,slack``, written as
``--context-lengths`` and ``--goal`` take their lists, was refused as "no server named
'github,slack'" while the list of servers it printed holds both: the message says how to give them."""

from __future__ import annotations

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
