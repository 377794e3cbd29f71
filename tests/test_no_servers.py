"""``--no-servers``: every command that reads catalog files can be told to read files only, for a
job that runs on files a pull request may change. An MCP client config among its files (a
``catalog.yaml`` turned into an ``mcpServers`` map, say) is then refused with one line and exit
status 2 before any of its servers starts: the config's one server here would write a file the
moment it started. Without the option the same config is started, as every command does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import run_cli, write_json, write_yaml

REFUSAL = ("an MCP client config, whose servers would be started (nothing was started); --no-servers starts no "
           "program: give {}the catalog 'toolsearch snapshot' saves from it instead")


def _config(tmp_path: Path, marker: Path) -> Path:
    """A client config whose one server, once started, writes ``marker`` and exits."""
    return write_json(tmp_path / "catalog.yaml", {"mcpServers": {"pr": {
        "command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w').write('started')"]}}})


def _catalog(tmp_path: Path) -> Path:
    return write_yaml(tmp_path / "base.yaml", {"servers": [{"name": "tickets", "tools": [
        {"name": "close_ticket", "description": "Close a ticket.", "inputSchema": {"type": "object"}}]}]})


def _queries(tmp_path: Path) -> Path:
    return write_yaml(tmp_path / "queries.yaml", {"tasks": [
        {"id": "close", "queries": ["close a ticket"], "expected": ["tickets__close_ticket"]}]})


# each command as a job would run it on the pull request's catalog (CAT), with what else it needs
COMMANDS = {
    "plan": ["plan", "CAT"],
    "search": ["search", "-q", "close ticket", "CAT"],
    "describe": ["describe", "CAT", "pr__anything"],
    "explain": ["explain", "-q", "close ticket", "CAT"],
    "call": ["call", "CAT", "pr__anything"],
    "sweep": ["sweep", "CAT"],
    "recommend": ["recommend", "CAT", "--context-lengths", "32k", "--goal", "names"],
    "check": ["check", "CAT", "--threshold-pct", "5", "--context-lengths", "32k", "--goal", "names"],
    "costs": ["costs", "CAT", "--csv"],
    "report": ["report", "CAT", "-o", "OUT"],
    "lint": ["lint", "CAT"],
    "lint-github": ["lint", "CAT", "--format", "github"],
    "eval": ["eval", "CAT", "QUERIES"],
    "collapse": ["collapse", "CAT"],
    "diff": ["diff", "BASE", "CAT"],
    "strategies": ["strategies", "CAT"],
    "harnesses": ["harnesses", "CAT", "--context-lengths", "32k"],
}


def _argv(words: list[str], tmp_path: Path, config: Path) -> list[str]:
    places = {"CAT": str(config), "BASE": str(_catalog(tmp_path)), "QUERIES": str(_queries(tmp_path)),
              "OUT": str(tmp_path / "report.html")}
    return [places.get(word, word) for word in words]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_servers_refuses_a_client_config_and_starts_nothing(tmp_path: Path, command: str) -> None:
    marker = tmp_path / "started.txt"
    config = _config(tmp_path, marker)
    done = run_cli(*_argv(COMMANDS[command], tmp_path, config), "--no-servers")
    assert done.returncode == 2, done.stderr
    message = f"{config}: {REFUSAL.format('')}"
    # on a pull request the refusal is an annotation too (--format github), else stdout stays empty
    assert done.stdout == (f"::error title=toolsearch lint%3A bad input::{message}\n" if command == "lint-github" else "")
    assert done.stderr.splitlines()[-1] == f"toolsearch: error: {message}"
    assert not marker.exists()
    assert not (tmp_path / "report.html").exists()


def test_no_servers_refuses_a_config_given_to_an_option_by_its_name(tmp_path: Path) -> None:
    """As ``--baseline`` of check and ``--catalog`` of sessions, the message names the option."""
    marker = tmp_path / "started.txt"
    config = _config(tmp_path, marker)
    done = run_cli("check", _catalog(tmp_path), "--baseline", config, "--no-servers", "--threshold-pct", "5",
                   "--context-lengths", "32k", "--goal", "names")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"toolsearch: error: {config}: {REFUSAL.format('--baseline ')}"
    store = Path(__file__).resolve().parent.parent / "sample_sessions" / "hermes-export.jsonl"
    done = run_cli("sessions", str(store), "--catalog", config, "--no-servers")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"toolsearch: error: {config}: {REFUSAL.format('--catalog ')}"
    assert not marker.exists()


def test_catalog_files_read_as_without_the_option(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path)
    plain, files_only = run_cli("plan", catalog, "--json"), run_cli("plan", catalog, "--json", "--no-servers")
    assert plain.returncode == files_only.returncode == 0
    assert files_only.stdout == plain.stdout and '"tickets"' in plain.stdout


def test_without_the_option_the_config_is_started_as_documented(tmp_path: Path) -> None:
    marker = tmp_path / "started.txt"
    done = run_cli("costs", _config(tmp_path, marker), "--timeout", "20")
    assert done.returncode == 2  # the server wrote its file and exited without listing
    assert marker.read_text() == "started"
