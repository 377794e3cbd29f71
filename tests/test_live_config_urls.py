"""Credentials written into a config's arguments or URL path, with no option naming them, never show.

Real configs carry them so: ``@modelcontextprotocol/server-postgres`` and ``server-redis`` take
``postgresql://user:password@host/db`` / ``redis://:password@host`` as a plain argument, some
servers take an API key (``sk-…``) as one, and Zapier's MCP URL has the key in its path
(``https://actions.zapier.com/mcp/sk-ak-…/sse``). The config table of the Live servers page showed
them as written, and what a server echoed of them was not masked.

The server is ``tests/argv_echo_mcp_server.py``: it echoes its whole command line in its server
info, tool names, descriptions, results, errors and stderr.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import literal_tables, toolsearch_command, write_json
from toolsearch.engine import constants as C
from toolsearch.live.mcpconfig import mask_arguments, parse_config_data, secret_arguments

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ECHO = ROOT / "tests" / "argv_echo_mcp_server.py"
MASK = C.SECRET_MASK
PG_PASSWORD = "PgS3cret-pw77"
REDIS_PASSWORD = "RedisS3cret-88"
API_KEY = "sk-proj-S3cretAbCdEf0123456789XyZ"
ZAPIER_KEY = "sk-ak-S3cretZapier0123456789abcdef"
PG_URL = f"postgresql://postgres:{PG_PASSWORD}@db.invalid:5432/prod"
REDIS_URL = f"redis://:{REDIS_PASSWORD}@127.0.0.1:6379"


def _clean(*texts: str) -> None:
    for text in texts:
        assert "S3cret" not in text, text[max(0, text.find("S3cret") - 200): text.find("S3cret") + 50]


def test_url_credentials_and_key_shapes_in_plain_arguments_are_secrets() -> None:
    args = ["-y", "@modelcontextprotocol/server-postgres", PG_URL, REDIS_URL, API_KEY, "--label", "risk-assessment",
            "https://example.com/docs?page=2", "postgresql://localhost/prod"]
    assert mask_arguments(args) == ["-y", "@modelcontextprotocol/server-postgres",
                                    f"postgresql://{MASK}@db.invalid:5432/prod", f"redis://{MASK}@127.0.0.1:6379",
                                    MASK, "--label", "risk-assessment", f"https://example.com/docs?page={MASK}",
                                    "postgresql://localhost/prod"]
    found = secret_arguments(args)
    assert {PG_PASSWORD, REDIS_PASSWORD, API_KEY} <= set(found)
    # The user name beside a password is a name ("postgres"), not masked in what the server sends.
    assert "postgres" not in found and "risk-assessment" not in found


def test_a_variable_assignment_whose_name_says_secret_is_masked() -> None:
    # `"command": "env", "args": ["API_KEY=…", "npx", "server"]`: the variable's value is a secret, as
    # an `env` value of the config is; ordinary variables and placeholders stay as written.
    args = ["API_KEY=plainS3cret42", "PGPASSWORD=hunter2S3cret", "DEBUG=1", "MAX_TOKENS=5", "TOKEN_FILE=/run/t",
            "GH_TOKEN=${GH_TOKEN}", "npx", "server"]
    assert mask_arguments(args) == [f"API_KEY={MASK}", f"PGPASSWORD={MASK}", "DEBUG=1", "MAX_TOKENS=5",
                                    "TOKEN_FILE=/run/t", "GH_TOKEN=${GH_TOKEN}", "npx", "server"]
    assert secret_arguments(args) == ["plainS3cret42", "hunter2S3cret"]


def test_a_connection_strings_password_is_masked() -> None:
    args = ["--connection-string", "Server=db;User Id=sa;Password=ConnS3cret93;",
            "jdbc:sqlserver://db:1433;databaseName=prod;password=JdbcS3cret77", "Password=${DB_PASSWORD}"]
    assert mask_arguments(args) == ["--connection-string", f"Server=db;User Id=sa;Password={MASK};",
                                    f"jdbc:sqlserver://db:1433;databaseName=prod;password={MASK}",
                                    "Password=${DB_PASSWORD}"]
    assert secret_arguments(args) == ["ConnS3cret93", "JdbcS3cret77"]
    spec = parse_config_data({"mcpServers": {"db": {"command": "mssql-mcp", "args": args}}}, "mcp.json").servers[0]
    _clean(spec.launch_preview()["command_line"], json.dumps(spec.redacted()), spec.scrub("login failed: ConnS3cret93"))


def test_a_key_in_a_remote_urls_path_is_a_secret() -> None:
    zapier, placeholder = parse_config_data({"mcpServers": {
        "zapier": {"url": f"https://actions.zapier.com/mcp/{ZAPIER_KEY}/sse"},
        "named": {"url": "https://actions.zapier.com/mcp/${ZAPIER_KEY}/sse"},
    }}, "mcp.json", environ={}).servers
    assert zapier.redacted()["url"] == f"https://actions.zapier.com/mcp/{MASK}/sse"
    assert zapier.launch_preview()["url"] == f"https://actions.zapier.com/mcp/{MASK}/sse"
    assert zapier.scrub(f"HTTP 401 from https://actions.zapier.com/mcp/{ZAPIER_KEY}/sse") == \
        f"HTTP 401 from https://actions.zapier.com/mcp/{MASK}/sse"
    _clean(repr(zapier), json.dumps(zapier.redacted()))
    # A placeholder names where the key comes from: shown as written.
    assert placeholder.redacted()["url"] == "https://actions.zapier.com/mcp/${ZAPIER_KEY}/sse"


def _config(tmp_path: Path) -> Path:
    return write_json(tmp_path / "mcp.json", {"mcpServers": {
        "pg": {"command": PY, "args": [str(ECHO), PG_URL, REDIS_URL, API_KEY, "--verbose"]}}})


@pytest.mark.live
def test_the_cli_never_shows_them_nor_what_the_server_echoes(tmp_path) -> None:
    config = _config(tmp_path)
    for args in (["plan", config, "--json"], ["describe", config, "mcp__pg__echo"],
                 ["call", config, "mcp__pg__echo", "-a", '{"text": "hi"}', "--json"], ["call", config, "mcp__pg__fail"]):
        result = subprocess.run([*toolsearch_command(), *map(str, args), "--timeout", "30"], capture_output=True,
                                text=True, encoding="utf-8", timeout=180)
        _clean(result.stdout, result.stderr)
        assert "toolsearch: live: pg: ok" in result.stderr, result.stderr
    described = subprocess.run([*toolsearch_command(), "describe", str(config), "mcp__pg__echo", "--json"],
                               capture_output=True, text=True, encoding="utf-8", timeout=180)
    description = json.loads(described.stdout)["tools"]["mcp__pg__echo"]["description"]
    assert f"postgresql://{MASK}@db.invalid:5432/prod redis://{MASK}@127.0.0.1:6379 {MASK} --verbose" in description


@pytest.mark.live
def test_the_live_page_never_shows_them(tmp_path) -> None:
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.guard import launch_token

    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=180)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", _config(tmp_path).read_bytes(),
                                                          "application/json"))
    at.run()
    assert not at.exception, at.exception
    table = literal_tables(at)["live_specs"]
    assert table.loc[0, "args"].endswith(f"postgresql://{MASK}@db.invalid:5432/prod redis://{MASK}@127.0.0.1:6379 "
                                         f"{MASK} --verbose")
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token()).run()
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    try:
        at.selectbox(key="live_tool").select("mcp__pg__fail").run()
        at.button(key="live_call").click().run()
        assert not at.exception, at.exception
        shown = "\n".join([
            *(c.value for c in at.code), *(t.value for t in at.text), *(m.value for m in at.markdown),
            *(c.value for c in at.caption), *(h.value for h in at.html),
            *(str(x.value) for x in [*at.warning, *at.error, *at.success, *at.info]),
            *(str(o.options) for o in at.selectbox), *(e.label for e in at.expander)])
        _clean(shown)
        assert f"postgresql://{MASK}@db.invalid" in shown
    finally:
        connections = at.session_state["live_connections"] if "live_connections" in at.session_state else None
        if connections is not None:
            connections.close()


def test_a_url_with_a_port_out_of_range_or_no_host_is_a_config_error_naming_the_place(tmp_path) -> None:
    """A URL with port 99999 was accepted and failed at connect as 'OverflowError: connect(): port
    must be 0-65535.' (a Python exception's words); one with credentials and no host
    (http://:pw@/x) was accepted too. Both are the config's place and what was expected, with the
    query value still masked, and nothing is connected."""
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "port": {"url": "http://127.0.0.1:99999/mcp?token=S3cretQuery123456"},
        "word": {"url": "http://127.0.0.1:abc/mcp"},
        "nohost": {"url": "http://:S3cretPassword123@/mcp"}}})
    result = subprocess.run([PY, "-m", "toolsearch", "plan", str(config)], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    _clean(result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "OverflowError" not in result.stdout + result.stderr, result.stderr
    # none of the three listed, so the file is refused (exit 2) after each server's failure line
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    reasons = sorted(re.sub(r"^toolsearch: live: (\w+): failed after [0-9.]+ s: ", r"\1: failed: ", line)
                     for line in result.stderr.splitlines() if line.startswith("toolsearch: live: "))
    assert reasons == sorted([
        f"port: failed: {config}: mcpServers.port.url: expected a port from 0 to 65535 after the host, got "
        f"'http://127.0.0.1:99999/mcp?token={MASK}'",
        f"word: failed: {config}: mcpServers.word.url: expected a port from 0 to 65535 after the host, got "
        "'http://127.0.0.1:abc/mcp'",
        f"nohost: failed: {config}: mcpServers.nohost.url: expected an http:// or https:// URL with a host, got "
        f"'http://{MASK}@/mcp'"]), result.stderr
