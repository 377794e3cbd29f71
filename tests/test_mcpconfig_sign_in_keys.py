"""Other clients' sign-in settings on a server entry (``oauth``, ``auth``, ``authProviderType``) are
not applied: toolsearch signs in to nothing, and said nothing, so a server that needs the sign-in
failed with "HTTP 401" and no word on why. The warning names the key, never its value (a client
secret lives there)."""

from __future__ import annotations

from conftest import run_cli, write_json
from toolsearch.live.mcpconfig import parse_config_text

WORDS = ("not applied (toolsearch does not sign in with OAuth; give a token in 'headers', e.g. Authorization: "
         "Bearer ${TOKEN}): a server that needs a sign-in refuses the connection (HTTP 401)")


def test_sign_in_keys_are_named_as_not_applied() -> None:
    text = ('{"mcpServers": {"a": {"type": "http", "url": "http://127.0.0.1:9/mcp", "oauth": {"clientId": "c", '
            '"clientSecret": "s3cr3t-client-value"}}, "b": {"type": "http", "url": "http://127.0.0.1:9/mcp", '
            '"authProviderType": "google_credentials"}, "c": {"command": "ok-mcp", "auth": {"CLIENT_ID": "x"}}, '
            '"d": {"command": "plain-mcp"}}}')
    parsed = parse_config_text(text, "mcp.json")
    assert list(parsed.warnings) == [f"mcp.json: mcpServers.a.oauth: {WORDS}",
                                     f"mcp.json: mcpServers.b.authProviderType: {WORDS}",
                                     f"mcp.json: mcpServers.c.auth: {WORDS}"]
    assert len(parsed.servers) == 4  # every server is still read


def test_the_command_line_says_so_without_the_secret(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "gh": {"command": str(tmp_path / "no-such-program"), "oauth": {"clientSecret": "s3cr3t-client-value"}}}})
    result = run_cli("plan", config)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"toolsearch: warning: {config}: mcpServers.gh.oauth: {WORDS}" in result.stderr.splitlines()
    assert "s3cr3t-client-value" not in result.stderr + result.stdout
