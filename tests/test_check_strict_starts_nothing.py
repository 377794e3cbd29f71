"""``check --strict`` gates files a pull request may change, so it starts no program: a catalog
file turned into an MCP client config (``mcpServers``) is refused, in one line and exit status 2,
before any of its servers starts, as the catalog and as ``--baseline``. Without ``--strict`` the
servers are started and listed, as every command does with a config."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import run_cli, write_json, write_yaml

GATE = ("--threshold-pct", "5", "--context-lengths", "32k", "--goal", "names")


def _config(tmp_path: Path, marker: Path) -> Path:
    """A client config whose one server, once started, writes ``marker`` and exits."""
    return write_json(tmp_path / "catalog.yaml", {"mcpServers": {"pr": {
        "command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w').write('started')"]}}})


def _catalog(tmp_path: Path) -> Path:
    return write_yaml(tmp_path / "base.yaml", {"servers": [{"name": "tickets", "tools": [
        {"name": "close_ticket", "description": "Close a ticket.", "inputSchema": {"type": "object"}}]}]})


def test_a_strict_check_refuses_a_client_config_as_the_catalog_and_starts_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "started.txt"
    config = _config(tmp_path, marker)
    done = run_cli("check", config, "--strict", *GATE)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"toolsearch: error: {config}: an MCP client config, whose servers would be started (nothing was started); "
        "check --strict starts no server: give the catalog 'toolsearch snapshot' saves from it, or drop --strict"]
    assert not marker.exists()


def test_a_strict_check_refuses_a_client_config_as_the_baseline_and_starts_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "started.txt"
    config = _config(tmp_path, marker)
    done = run_cli("check", _catalog(tmp_path), "--baseline", config, "--strict", *GATE)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1] == (
        f"toolsearch: error: {config}: an MCP client config, whose servers would be started (nothing was started); "
        "check --strict starts no server: give --baseline the catalog 'toolsearch snapshot' saves from it, or drop "
        "--strict")
    assert not marker.exists()


def test_without_strict_the_config_is_started_as_documented(tmp_path: Path) -> None:
    marker = tmp_path / "started.txt"
    done = run_cli("check", _config(tmp_path, marker), *GATE, "--timeout", "20")
    assert done.returncode == 2  # the server wrote its file and exited without listing
    assert marker.read_text() == "started"
