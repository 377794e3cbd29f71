"""A line of an ``envFile`` that is not ``KEY=VALUE`` is skipped with a warning naming its number.

Such a line was skipped without a word, so a variable written as ``TOKEN: abc`` (or a value that lost
its name) went missing with nothing saying why. The warning names the file and the line, never the
line's text: it may be a secret.
"""

from __future__ import annotations

from conftest import run_cli_process, write_json
from toolsearch.live.mcpconfig import load_mcp_config


def test_a_line_without_equals_is_skipped_with_its_number(tmp_path) -> None:
    (tmp_path / ".env").write_text("A=1\nsk-live-s3cret\n# comment\n\nTOKEN: abc\nB=2\n", encoding="utf-8")
    path = write_json(tmp_path / "mcp.json", {"mcpServers": {"s": {"command": "c", "envFile": ".env"}}})
    config = load_mcp_config(path)
    (spec,) = config.servers
    assert dict(spec.env) == {"A": "1", "B": "2"} and spec.invalid is None
    env = tmp_path / ".env"
    assert list(config.warnings) == [
        f"{path}: mcpServers.s.envFile: {env}: line 2: expected KEY=VALUE, got a line without '='; skipped",
        f"{path}: mcpServers.s.envFile: {env}: line 5: expected KEY=VALUE, got a line without '='; skipped",
    ]


def test_the_cli_warns_without_the_line(tmp_path) -> None:
    (tmp_path / ".env").write_text("A=1\nsk-live-s3cret\n", encoding="utf-8")
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "s": {"command": "toolsearch-no-such-command", "disabled": True, "envFile": ".env"}}})
    result = run_cli_process("plan", config)
    assert "Traceback" not in result.stderr, result.stderr
    assert (f"toolsearch: warning: {config}: mcpServers.s.envFile: {tmp_path / '.env'}: line 2: expected KEY=VALUE, "
            "got a line without '='; skipped") in result.stderr, result.stderr
    assert "s3cret" not in result.stderr + result.stdout


def test_a_line_without_a_name_is_skipped_not_the_server(tmp_path) -> None:
    # "=value" (or a name with a NUL) made the whole server invalid, blamed on its 'env'.
    (tmp_path / ".env").write_text("A=1\n=s3cret\nB\x00C=2\n", encoding="utf-8")
    path = write_json(tmp_path / "mcp.json", {"mcpServers": {"s": {"command": "c", "envFile": ".env"}}})
    config = load_mcp_config(path)
    (spec,) = config.servers
    assert spec.invalid is None and dict(spec.env) == {"A": "1"}
    env = tmp_path / ".env"
    assert list(config.warnings) == [
        f"{path}: mcpServers.s.envFile: {env}: line 2: expected a variable name before '=', got none; skipped",
        f"{path}: mcpServers.s.envFile: {env}: line 3: expected a variable name before '=', got one with a NUL "
        "character (U+0000); skipped",
    ]
