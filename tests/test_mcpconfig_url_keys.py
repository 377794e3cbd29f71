"""Windsurf's ``serverUrl`` and Gemini CLI's ``httpUrl`` in a ``mcpServers`` entry (docs/reference.md
§29.8, §29.9) are read as ``url`` is: a remote server over Streamable HTTP, with the same checks and
the same masking of the credentials and query values in the URL.

They were refused as "expected 'command' ... or 'url'", so a Windsurf or Gemini CLI config listed
none of its remote servers. The live test reaches ``tests/mcp_test_server.py`` on 127.0.0.1 only.
"""

from __future__ import annotations

import json

import pytest

from conftest import run_cli_process, write_json
from test_live import serve
from toolsearch.engine import constants as C
from toolsearch.live.mcpconfig import parse_config_data

MASK = C.SECRET_MASK
ENV = {"URLTOK": "envS3cret-4242"}
URLS = {
    "userinfo": "https://admin:pwS3cret-77@mcp.example.net/mcp",
    "query": "https://mcp.example.net/mcp?token=qS3cret-123&debug",
    "interpolated": "https://mcp.example.net/mcp?api_key=${URLTOK}",
    "path key": "https://actions.example.net/mcp/sk-ak-S3cretPath0123456789abcdef/sse",
}


def _spec(key: str, url: str, **extra):
    (spec,) = parse_config_data({"mcpServers": {"s": {key: url, **extra}}}, "cfg.json", environ=ENV).servers
    return spec


@pytest.mark.parametrize("key", ["serverUrl", "httpUrl"])
@pytest.mark.parametrize("url", list(URLS.values()), ids=list(URLS))
def test_the_key_is_read_and_masked_as_url_is(key, url) -> None:
    plain, other = _spec("url", url), _spec(key, url, headers={"Authorization": "Bearer hS3cret-9"})
    assert other.invalid is None, other.invalid
    assert (other.transport, other.url) == ("http", plain.url)
    assert dict(other.headers) == {"Authorization": "Bearer hS3cret-9"}
    expected = {**plain.redacted(), "headers": {"Authorization": MASK}}
    assert other.redacted() == expected
    assert other.launch_preview() == {**plain.launch_preview(), "headers": {"Authorization": MASK}}
    assert other.launch_preview(expanded=False) == {**plain.launch_preview(expanded=False),
                                                    "headers": {"Authorization": MASK}}
    echoed = f"HTTP 401 from {plain.url} (token {plain.url.rsplit('=', 1)[-1]})"
    assert other.scrub(echoed) == plain.scrub(echoed)
    for text in (repr(other), json.dumps(other.redacted()), json.dumps(other.launch_preview()), other.scrub(echoed)):
        assert "S3cret" not in text, text
    assert MASK in other.redacted()["url"]


def test_a_declared_type_still_chooses_the_transport() -> None:
    assert _spec("serverUrl", "https://mcp.example.net/sse", type="sse").transport == "sse"
    assert _spec("httpUrl", "https://mcp.example.net/mcp", type="streamable-http").transport == "http"


def test_an_entry_with_several_url_keys_is_read_from_the_first_with_a_warning() -> None:
    config = parse_config_data({"mcpServers": {"g": {
        "httpUrl": "https://mcp.example.net/mcp?token=aS3cret-1", "url": "https://mcp.example.net/sse?token=bS3cret-2"}}},
        "cfg.json")
    (spec,) = config.servers
    assert (spec.transport, spec.url) == ("http", "https://mcp.example.net/mcp?token=aS3cret-1")
    assert config.warnings == ("cfg.json: mcpServers.g: has httpUrl and url; httpUrl is read, the others are ignored",)


def test_a_bad_url_under_the_key_is_that_servers_failure_naming_the_key() -> None:
    bad, nohost, good = parse_config_data({"mcpServers": {
        "bad": {"serverUrl": "ftp://u:pwS3cret-5@mcp.example.net/mcp?key=kS3cret-6"},
        "nohost": {"httpUrl": "http://:pwS3cret-7@/mcp"},
        "good": {"serverUrl": "https://mcp.example.net/mcp"}}}, "cfg.json").servers
    assert bad.invalid == ("cfg.json: mcpServers.bad.serverUrl: expected an http:// or https:// URL with a host, got "
                           f"'ftp://{MASK}@mcp.example.net/mcp?key={MASK}'")
    assert nohost.invalid == ("cfg.json: mcpServers.nohost.httpUrl: expected an http:// or https:// URL with a host, "
                              f"got 'http://{MASK}@/mcp'")
    assert good.invalid is None
    for spec in (bad, nohost):
        assert spec.transport == "http"
        for text in (spec.invalid, repr(spec), json.dumps(spec.redacted())):
            assert "S3cret" not in text, text
        # the entry is never used, but its values stay secrets of the file (masked in the others' output)
        assert any("S3cret" in value for value in good.peer_secrets)
    assert {"pwS3cret-5", "kS3cret-6", "pwS3cret-7"} <= set(good.peer_secrets)


def test_other_shapes_have_url_only() -> None:
    # Hermes' own block reads `url` (docs/reference.md §26.1): a `serverUrl` there is no URL.
    (spec,) = parse_config_data({"mcp_servers": {"s": {"serverUrl": "https://mcp.example.net/mcp"}}},
                                "config.yaml").servers
    assert spec.invalid == ("config.yaml: mcp_servers.s: expected 'command' (a non-empty string) for a stdio server, "
                            "or 'url' for a remote one")


@pytest.mark.live
def test_the_cli_lists_windsurf_and_gemini_remote_servers(tmp_path) -> None:
    token = "liveS3cret-0451"
    with serve("--name", "remote") as port:
        config = write_json(tmp_path / "mcp_config.json", {"mcpServers": {
            "windsurf": {"serverUrl": f"http://127.0.0.1:{port}/mcp?token={token}"},
            "gemini": {"httpUrl": f"http://u:{token}@127.0.0.1:{port}/mcp"}}})
        result = run_cli_process("plan", config, "--json", "--timeout", "60")
    assert result.returncode == 0, result.stderr
    assert token not in result.stdout + result.stderr
    servers = {s["name"]: (s["state"], s["tool_count"]) for s in json.loads(result.stdout)["servers"]}
    assert servers == {"windsurf": ("full", 7), "gemini": ("full", 7)}
    assert "toolsearch: live: windsurf: ok" in result.stderr and "toolsearch: live: gemini: ok" in result.stderr
