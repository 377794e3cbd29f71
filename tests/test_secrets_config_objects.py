"""An MCP client config entry may hold an object where a word or a number belongs: a ``transport``
object as the MCP registry's ``server.json`` writes one (``{"type": "sse", "url": …, "headers": …}``),
settings pasted under ``type``, ``timeout``, ``enabled`` or ``protocol``. The reason the server
cannot be used quoted that object in full, its ``Authorization`` header or token included, on stderr
and in a snapshot's ``failed`` list. It now names only the object's type; a word or number is still
quoted as written."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli, write_json

TOKEN = "Kestrel-secret-5519"


def _config(tmp_path: Path) -> Path:
    return write_json(tmp_path / "mcp.json", {"mcpServers": {
        "remote": {"transport": {"type": "sse", "url": "https://mcp.example/sse",
                                 "headers": {"Authorization": f"Bearer {TOKEN}"}}},
        "typed": {"type": {"kind": "http", "apiKey": TOKEN}, "url": "https://mcp.example/mcp"},
        "slow": {"url": "https://mcp.example/mcp", "timeout": {"token": TOKEN}},
        "words": {"url": "https://mcp.example/mcp", "timeout": "30s"},
    }})


def test_an_object_in_place_of_a_setting_is_named_by_its_type(tmp_path) -> None:
    config = _config(tmp_path)
    snapshot = tmp_path / "snapshot.yaml"
    done = run_cli("snapshot", config, "-o", snapshot)
    assert done.returncode == 1, done.stderr
    written = snapshot.read_text(encoding="utf-8")
    assert "Kestrel" not in done.stdout + done.stderr + written
    reasons = sorted(line.split(" s: ", 1)[1] for line in done.stderr.splitlines() if line.startswith("toolsearch: live: "))
    assert reasons == [
        f"{config}: mcpServers.remote.type: expected stdio, http or sse, got a mapping",
        f"{config}: mcpServers.slow.timeout: expected a number of seconds, got a mapping",
        f"{config}: mcpServers.typed.type: expected stdio, http or sse, got a mapping",
        f"{config}: mcpServers.words.timeout: expected a number of seconds, got '30s'",
    ]
