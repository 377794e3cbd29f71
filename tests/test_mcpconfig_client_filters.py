"""Gemini CLI's per-server tool filters (``includeTools``, ``excludeTools``) are not the harness's
(``tools.include`` / ``tools.exclude``): toolsearch does not apply them, and said nothing, so a
config that hid a server's tools from Gemini CLI was counted with every tool without a word."""

from __future__ import annotations

from conftest import run_cli, write_json
from toolsearch.live.mcpconfig import parse_config_text

WORDS = ("not applied (a Gemini CLI filter; the harness filters with tools.include and tools.exclude): "
         "every tool the server lists is counted")


def test_gemini_filters_are_named_as_not_applied() -> None:
    text = ('{"mcpServers": {"gh": {"command": "gh-mcp", "excludeTools": ["delete_repo"]},'
            ' "fs": {"command": "fs-mcp", "includeTools": ["read_file"]}, "ok": {"command": "ok-mcp"}}}')
    parsed = parse_config_text(text, "settings.json")
    assert list(parsed.warnings) == [f"settings.json: mcpServers.gh.excludeTools: {WORDS}",
                                     f"settings.json: mcpServers.fs.includeTools: {WORDS}"]
    assert [spec.tools for spec in parsed.servers] == [{}, {}, {}]


def test_the_command_line_says_so_too(tmp_path) -> None:
    config = write_json(tmp_path / "settings.json", {"mcpServers": {
        "gh": {"command": str(tmp_path / "no-such-program"), "excludeTools": ["delete_repo"]}}})
    result = run_cli("plan", config)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"toolsearch: warning: {config}: mcpServers.gh.excludeTools: {WORDS}" in result.stderr.splitlines()
