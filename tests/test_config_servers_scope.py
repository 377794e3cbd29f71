"""With ``--scope``, the warnings about ``--config``'s servers (and the catalog's servers with no
tools) spoke of the whole catalog: a session scope of one server heard of a disabled server, a server
the config lacks and a server the catalog lacks, none of which its figures count. They name and count
only the servers the scopes reach now, and one note counts the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

CATALOG = """name: t
servers:
  - name: alpha
    tools:
      - {name: a1, description: Alpha one., inputSchema: {type: object}}
  - name: beta
    tools:
      - {name: b1, description: Beta one., inputSchema: {type: object}}
  - name: gamma
    tools:
      - {name: g1, description: Gamma one., inputSchema: {type: object}}
  - name: empty
    tools: []
"""
CONFIG = """tools:
  tool_search: {threshold_pct: 3}
mcp_servers:
  alpha: {command: x}
  beta: {command: x, enabled: false}
  delta: {command: x}
  empty: {command: x}
"""
DELTA = ("toolsearch: warning: c.yaml configures 1 MCP server the catalog does not have ('delta'): these figures "
         "are for a catalog without it; list the servers' tools into the catalog again "
         "(toolsearch snapshot c.yaml -o CATALOG)")
EMPTY = ("toolsearch: warning: server 'empty' lists no tools in the catalog: it takes no room in the listing and no "
         "goal counts it; if it has tools, list them into the catalog again (toolsearch snapshot c.yaml -o CATALOG)")
BETA = ("toolsearch: warning: c.yaml sets up 1 MCP server otherwise than the catalog was listed with ('beta': "
        "enabled: false): these figures count its tools as the catalog lists it; drop the disabled server from the "
        "catalog files; or list the servers again (toolsearch snapshot c.yaml -o CATALOG)")
GAMMA = ("toolsearch: warning: c.yaml does not configure 1 MCP server the catalog has ('gamma'): these figures count "
         "it as registered, though the harness would not start it; drop it from the catalog files or add it to "
         "mcp_servers in c.yaml")


@pytest.fixture
def where(tmp_path: Path) -> Path:
    (tmp_path / "cat.yaml").write_text(CATALOG, encoding="utf-8")
    (tmp_path / "c.yaml").write_text(CONFIG, encoding="utf-8")
    return tmp_path


def _server_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "c.yaml" in line or "server" in line]


def test_without_a_scope_every_server_is_said(where: Path) -> None:
    done = run_cli("plan", "cat.yaml", "--config", "c.yaml", cwd=where)
    assert done.returncode == 0, done.stderr
    assert _server_lines(done.stderr) == [DELTA, EMPTY, BETA, GAMMA]


@pytest.mark.parametrize("command", [["plan"], ["search", "-q", "alpha"], ["sweep", "--csv"], ["strategies"]])
def test_a_scope_of_one_server_hears_only_of_it_and_a_count_of_the_rest(where: Path, command: list[str]) -> None:
    done = run_cli(*command, "cat.yaml", "--config", "c.yaml", "--scope", "s=alpha", cwd=where)
    assert done.returncode == 0, done.stderr
    assert _server_lines(done.stderr) == [
        ("toolsearch: note: the warnings about servers are for the servers scope 's' reaches; 4 more servers outside "
         "it have warnings of the whole catalog (run without --scope to see them)")]


def test_several_scopes_hear_of_the_servers_they_reach(where: Path) -> None:
    done = run_cli("plan", "cat.yaml", "--config", "c.yaml", "--scope", "s=alpha", "--scope", "t=gamma,delta",
                   cwd=where)
    assert done.returncode == 0, done.stderr
    assert _server_lines(done.stderr)[1:] == [
        DELTA, GAMMA,
        ("toolsearch: note: the warnings about servers are for the servers scopes 's', 't' reach; 2 more servers "
         "outside them have warnings of the whole catalog (run without --scope to see them)")]


def test_a_scope_that_reaches_every_server_hears_of_all_and_no_note(where: Path) -> None:
    done = run_cli("plan", "cat.yaml", "--config", "c.yaml", "--scope", "all=*", cwd=where)
    assert done.returncode == 0, done.stderr
    assert _server_lines(done.stderr) == [DELTA, EMPTY, BETA, GAMMA]


def test_a_scoped_report_notes_only_its_scopes_servers(where: Path) -> None:
    done = run_cli("report", "cat.yaml", "--config", "c.yaml", "--scope", "s=beta", "-o", "r.html", cwd=where)
    assert done.returncode == 0, done.stderr
    assert _server_lines(done.stderr)[0] == BETA
    assert "note: the warnings about servers are for the servers scope 's' reaches; 3 more servers" in done.stderr
    text = (where / "r.html").read_text(encoding="utf-8")
    assert "sets up 1 MCP server otherwise than the catalog was listed with" in text
    assert "the catalog does not have" not in text and "does not configure 1 MCP server" not in text
