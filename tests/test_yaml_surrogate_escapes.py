"""A lone surrogate in tool text (a server or a JSON catalog spelling ``"\\ud800"``, shown as
``⟨U+D800⟩``) is written by PyYAML, as ``toolsearch snapshot`` writes a catalog, as the escape
``"\\uD800"``. libyaml refuses that escape, so the whole snapshot (every server) could not be read
back: the YAML reader now reads it with PyYAML's own parser, within the same limits."""

from __future__ import annotations

import yaml

from conftest import run_cli


def _catalog(description: str) -> dict:
    return {"name": "snap", "servers": [
        {"name": "odd", "tools": [{"name": "half", "description": description, "inputSchema": {"type": "object"}}]},
        {"name": "docs", "tools": [{"name": "read_page", "description": "Read one page.",
                                    "inputSchema": {"type": "object"}}]}]}


def test_a_catalog_written_by_pyyaml_with_a_lone_surrogate_reads_back(tmp_path):
    path = tmp_path / "snap.yaml"
    path.write_text(yaml.safe_dump(_catalog("Half \ud800 a pair."), sort_keys=False, allow_unicode=True),
                    encoding="utf-8")
    assert '"Half \\uD800 a pair."' in path.read_text(encoding="utf-8")
    done = run_cli("plan", path)
    assert done.returncode == 0, done.stderr
    assert "- mcp__odd__half: Half ⟨U+D800⟩ a pair." in done.stdout
    assert "- mcp__docs__read_page: Read one page." in done.stdout


def test_the_limits_still_hold_for_such_a_file(tmp_path):
    path = tmp_path / "bomb.yaml"
    levels = "".join(f"b{i}: &b{i} [" + ", ".join([f"*b{i - 1}" if i else "*a"] * 10) + "]\n" for i in range(8))
    path.write_text('a: &a ["\\uD800"]\n' + levels, encoding="utf-8")
    done = run_cli("plan", path)
    assert done.returncode == 2
    assert "YAML aliases would expand to more than 1,000,000 nodes (limit); not read" in done.stderr


def test_a_snapshot_keeps_a_next_line_character_a_server_sent(tmp_path):
    """NEL (U+0085) is a line break to YAML: PyYAML wrote it raw in a single-quoted scalar, and
    reading the snapshot back folded it into a space, so the control character the server sent
    (shown live as ``⟨U+0085⟩``) was gone from the saved catalog and everything that reads it."""
    import subprocess
    import sys
    from pathlib import Path

    from conftest import toolsearch_command, write_json

    echo = Path(__file__).resolve().parent / "argv_echo_mcp_server.py"
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "echo": {"command": sys.executable, "args": [str(echo), "next\u0085line"]}}})
    snap = tmp_path / "snap.yaml"
    done = subprocess.run([*toolsearch_command(), "snapshot", str(config), "-o", str(snap), "--timeout", "30"],
                          capture_output=True, text=True, encoding="utf-8", timeout=180)
    assert done.returncode == 0, done.stderr
    assert "next\\Nline" in snap.read_text(encoding="utf-8")
    import json

    shown = run_cli("describe", snap, "mcp__echo__echo", "--json")
    assert shown.returncode == 0, shown.stderr
    assert "argv: next\x85line |" in json.loads(shown.stdout)["tools"]["mcp__echo__echo"]["description"]
