"""A Gemini CLI settings file (``.gemini/settings.json``) reads a remote server's ``url`` as an SSE
endpoint and its ``httpUrl`` as Streamable HTTP (docs/reference.md §29.9). toolsearch read every
``url`` without a ``type`` as Streamable HTTP, so each SSE server of a Gemini CLI file failed to
connect; now such a file (by its place, or by a key only Gemini CLI writes) is read as Gemini CLI
reads it, with a line that says so. The live test reaches ``tests/mcp_test_server.py`` on
127.0.0.1 only.
"""

from __future__ import annotations

import json

import pytest

from conftest import run_cli_process, write_json
from test_live import serve
from toolsearch.live.mcpconfig import gemini_settings, gemini_settings_path, parse_config_data

URL = "https://mcp.example.net/sse"


def _transports(data, origin: str, **kwargs) -> tuple[dict[str, str], tuple[str, ...]]:
    config = parse_config_data(data, origin, **kwargs)
    return {spec.name: spec.transport for spec in config.servers}, config.warnings


@pytest.mark.parametrize("origin", ["/home/u/.gemini/settings.json", ".gemini/settings.json",
                                    "C:\\Users\\u\\.gemini\\settings.json"])
def test_a_url_in_gemini_settings_is_sse_and_said(origin) -> None:
    servers, warnings = _transports({"mcpServers": {"events": {"url": URL}}}, origin)
    assert servers == {"events": "sse"}
    assert warnings == (f"{origin}: mcpServers.events.url: read as SSE, as Gemini CLI reads 'url' in its settings "
                        "(give \"type\": \"http\", or use 'httpUrl', for Streamable HTTP)",)


def test_the_same_entry_elsewhere_stays_streamable_http() -> None:
    for origin in (".mcp.json", "/home/u/.cursor/mcp.json", "/home/u/gemini/settings.json", "settings.json"):
        assert _transports({"mcpServers": {"events": {"url": URL}}}, origin) == ({"events": "http"}, ())


@pytest.mark.parametrize("key", ["httpUrl", "includeTools", "excludeTools", "authProviderType"])
def test_a_key_only_gemini_writes_marks_the_file(key) -> None:
    value = "https://mcp.example.net/mcp" if key == "httpUrl" else ["x"] if key.endswith("Tools") else "google"
    other = {key: value} if key == "httpUrl" else {"command": "srv", key: value}
    data = {"mcpServers": {"events": {"url": URL}, "other": other}}
    assert gemini_settings("upload.json", data)
    servers, _ = _transports(data, "upload.json")
    assert servers["events"] == "sse"
    assert servers["other"] == ("http" if key == "httpUrl" else "stdio")


def test_a_declared_type_or_another_url_key_wins() -> None:
    servers, warnings = _transports({"mcpServers": {
        "typed": {"url": URL, "type": "http"}, "both": {"httpUrl": URL, "url": URL},
        "stdio": {"command": "srv"}}}, ".gemini/settings.json")
    assert servers == {"typed": "http", "both": "http", "stdio": "stdio"}
    assert not any("read as SSE" in w for w in warnings)


def test_the_path_rule_reads_no_disk_and_other_shapes_keep_their_rules() -> None:
    assert gemini_settings_path("/x/.gemini/settings.json") and not gemini_settings_path("/x/.gemini/other.json")
    assert _transports({"mcp_servers": {"s": {"url": URL}}}, ".gemini/settings.json")[0] == {"s": "http"}
    assert _transports({"mcpServers": {"s": {"url": URL}}}, "mcp.json", gemini_file=True)[0] == {"s": "sse"}


@pytest.mark.live
def test_the_cli_reaches_a_gemini_sse_server_from_the_settings_folder(tmp_path) -> None:
    folder = tmp_path / ".gemini"
    folder.mkdir()
    with serve("--name", "events", "--sse") as port:
        write_json(folder / "settings.json", {"mcpServers": {"events": {"url": f"http://127.0.0.1:{port}/sse"}}})
        # run from inside the folder with the bare file name, as a user in ~/.gemini would
        result = run_cli_process("plan", "settings.json", "--json", "--timeout", "60", cwd=folder)
    assert result.returncode == 0, result.stderr
    servers = {s["name"]: (s["state"], s["tool_count"]) for s in json.loads(result.stdout)["servers"]}
    assert servers["events"][0] == "full" and servers["events"][1] > 0
    assert "settings.json: mcpServers.events.url: read as SSE" in result.stderr
    assert "toolsearch: live: events: ok" in result.stderr
