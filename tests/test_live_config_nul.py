"""A NUL character (U+0000) in a config entry is that entry's problem, never a traceback.

An ``envFile`` path with a NUL made ``toolsearch plan CONFIG`` end in a traceback (``ValueError:
embedded null byte``), and the Live servers page fail the same way for a config uploaded from this
machine; a NUL in the command, an argument, the working directory or an ``env`` entry (or a ``=``
in a variable's name) failed only at start, as ``ValueError: embedded null byte``.
"""

from __future__ import annotations

import pytest

from conftest import run_cli_process, write_json
from toolsearch.live.mcpconfig import parse_config_data


@pytest.mark.parametrize("entry, place", [
    ({"command": "x\u0000y"}, "command"),
    ({"command": "x", "args": ["ok", "a\u0000b"]}, "args[1]"),
    ({"command": "x", "cwd": "/tmp\u0000"}, "cwd"),
    ({"command": "x", "env": {"A": "s3cret\u0000"}}, "env"),
    ({"command": "x", "env": {"A=B": "1"}}, "env"),
])
def test_a_nul_in_what_starts_the_program_makes_the_entry_invalid(entry, place) -> None:
    bad, good = parse_config_data({"mcpServers": {"bad": entry, "good": {"command": "y"}}}, "mcp.json").servers
    assert bad.invalid is not None and bad.invalid.startswith(f"mcp.json: mcpServers.bad.{place}: "), bad.invalid
    assert "s3cret" not in bad.invalid
    assert good.invalid is None


def test_an_env_file_path_with_a_nul_is_a_warning(tmp_path) -> None:
    config = parse_config_data({"mcpServers": {"s": {"command": "x", "envFile": "a\u0000b"}}}, "mcp.json",
                               base_dir=tmp_path)
    assert config.servers[0].invalid is None
    assert [w for w in config.warnings if "envFile: cannot read" in w and w.endswith("; ignored")], config.warnings


@pytest.mark.live
def test_the_cli_reports_them_without_a_traceback(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "file": {"command": "toolsearch-no-such-command", "envFile": "a\u0000b"},
        "command": {"command": "x\u0000y"}}})
    result = run_cli_process("plan", config)
    assert "Traceback" not in result.stderr, result.stderr
    assert "mcpServers.file.envFile: cannot read" in result.stderr
    assert "mcpServers.command.command: contains a NUL character (U+0000)" in result.stderr
