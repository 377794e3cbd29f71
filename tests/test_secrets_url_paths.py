"""A key in the path of a configured URL (hosted MCP endpoints such as
``https://mcp.pipedream.net/<uuid>/github``, a webhook's last part) is a secret like a query value:
never shown in the config table, the launch confirmation, a failure line or what the server sends
back. A path part that reads as a name stays."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import free_port, run_cli_process, write_json
from toolsearch.engine import constants as C
from toolsearch.live.mcpconfig import parse_config_data

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile_mcp_server.py"
MASK = C.SECRET_MASK
UUID = "3c8e9b2a-5f1d-4e7a-9b6c-2d4f8a1e7c3b"
HOOK_KEY = "aB3dE5gH7jK9mN1pQ3sT5vW7"
HOOK = f"https://hooks.example.com/services/T0123ABCD/B0456EFGH/{HOOK_KEY}"


def test_keys_in_url_paths_are_masked_names_stay() -> None:
    config = parse_config_data({"mcpServers": {
        "pd": {"url": f"https://mcp.pipedream.net/{UUID}/github"},
        "hook": {"command": "npx", "args": ["notify", HOOK]},
        "named": {"url": "https://api.example.com/v1/projects/my-team-workspace-prod/mcp"}}}, "mcp.json")
    pd, hook, named = config.servers
    assert pd.redacted()["url"] == pd.launch_preview()["url"] == f"https://mcp.pipedream.net/{MASK}/github"
    assert hook.redacted()["args"] == ["notify", f"https://hooks.example.com/services/T0123ABCD/B0456EFGH/{MASK}"]
    assert HOOK_KEY not in hook.launch_preview()["command_line"]
    assert pd.scrub(f"no such workspace {UUID}") == f"no such workspace {MASK}"
    assert named.redacted()["url"] == "https://api.example.com/v1/projects/my-team-workspace-prod/mcp"


def test_a_server_that_echoes_the_key_of_its_url_shows_it_masked(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"hook": {
        "command": sys.executable, "args": [str(HOSTILE), "--dsn", HOOK]}}})
    for args in ((), ("--json",)):
        done = run_cli_process("plan", config, *args)
        assert done.returncode == 0, done.stderr
        assert HOOK_KEY not in done.stdout + done.stderr and "aB3dE5gH" not in done.stdout + done.stderr
        assert "sent back a value that matches a secret from the config" in done.stderr
    port = free_port()  # nothing listens there: the connect fails at once
    done = run_cli_process("plan", write_json(tmp_path / "pd.json", {"mcpServers": {"pd": {
        "url": f"http://127.0.0.1:{port}/{UUID}/github", "connect_timeout": 20}}}))
    assert done.returncode == 2 and UUID not in done.stderr
    assert f"cannot connect to http://127.0.0.1:{port}/{MASK}/github" in done.stderr


def test_the_live_page_shows_a_url_key_masked() -> None:
    import json

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    config = json.dumps({"mcpServers": {"pd": {"url": f"https://mcp.pipedream.net/{UUID}/github"},
                                        "hook": {"command": "npx", "args": ["notify", HOOK]}}}).encode()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", config, "application/json")).run()
    at.button(key="live_connect").click().run()  # the launch confirmation; nothing starts
    assert not at.exception, at.exception
    shown = "\n".join([*(c.value for c in at.code), *(t.value for t in at.text), *(m.value for m in at.markdown),
                       *(str(df.value.to_dict()) for df in at.dataframe), *(h.value for h in at.html),
                       *(str(x.value) for x in [*at.warning, *at.error, *at.info])])
    assert UUID not in shown and HOOK_KEY not in shown and "3c8e9b2a" not in shown
    assert f"https://mcp.pipedream.net/{MASK}/github" in shown
