"""A lone UTF-16 surrogate (half of a pair: a JSON file's ``"\\ud800"`` escape) in an MCP client
config. No program can be started with one and no HTTP request can carry one, so the entry that
holds one where it is started or reached with (command, args, cwd, env, URL, header) is unusable,
with a reason naming the file, the place and what was expected, never the value; the other
servers still work. A name that holds one is only shown, with the surrogate as a marker.

Before, ``toolsearch plan`` ended with a UnicodeEncodeError traceback (the secret masking encoded
the values as UTF-8), a stdio entry was started and failed with the bare UnicodeEncodeError, and
the Live servers page ended on a server name holding one (a table key).
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from toolsearch.engine.secrets import encoded_forms, scrub_text, secret_list
from toolsearch.live.mcpconfig import parse_config_data
from toolsearch.ui.tables import element_key, table_html

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SERVER = ROOT / "tests" / "mcp_test_server.py"

HEADER_SECRET = "Bearer ab\ud800cdefgh"
ARG_SECRET = "x\udc00yzwvut"
EXPECTED = "expected text without a lone surrogate (U+D800–U+DFFF) (the value is not shown: it may be a secret)"
CANNOT_START = "which no program can be started with"


def _repro() -> dict:
    return {"mcpServers": {"a": {"url": "https://h.example/mcp", "headers": {"Authorization": HEADER_SECRET}},
                           "b": {"command": "srv", "args": ["--token", ARG_SECRET]}}}


def _write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(data), encoding="utf-8")  # ensure_ascii: the surrogate as its \u escape
    return path


def test_secret_forms_of_a_value_with_a_lone_surrogate_are_computed() -> None:
    forms = encoded_forms(ARG_SECRET)
    assert ARG_SECRET in forms
    assert "x%ED%B0%80yzwvut" in forms  # percent-encoded as its code stands (no UTF-8 form)
    assert "78edb080797a77767574" in forms  # hex of the same bytes
    assert set(secret_list([ARG_SECRET])) == forms
    assert scrub_text(f"token {ARG_SECRET} end", secret_list([ARG_SECRET])) == "token •••• end"


@pytest.mark.parametrize(("entry", "place"), [
    ({"command": "sr\ud800v"}, "command: holds a lone surrogate (U+D800, half of a UTF-16 pair)"),
    ({"command": "srv", "args": ["--token", ARG_SECRET]}, "args[1]: holds a lone surrogate (U+DC00, half of a UTF-16 pair)"),
    ({"command": "srv", "args": f"--token {ARG_SECRET}"}, "args[1]: holds a lone surrogate (U+DC00, half of a UTF-16 pair)"),
    ({"command": "srv", "cwd": "/tmp/\ud800"}, "cwd: holds a lone surrogate (U+D800, half of a UTF-16 pair)"),
    ({"command": "srv", "env": {"API_KEY": "sk-\ud800abcdefgh"}},
     "env.API_KEY: holds a lone surrogate (U+D800, half of a UTF-16 pair)"),
    ({"command": "srv", "env": {"K\ud800": "v"}},
     "env.K⟨U+D800⟩ (its name): holds a lone surrogate (U+D800, half of a UTF-16 pair)"),
])
def test_a_stdio_entry_with_a_lone_surrogate_is_unusable_and_names_the_place(entry, place) -> None:
    config = parse_config_data({"mcpServers": {"b": entry, "ok": {"command": "srv", "args": ["--x"]}}}, "mcp.json")
    bad, ok = config.servers
    assert bad.invalid == f"mcp.json: mcpServers.b.{place}, {CANNOT_START}; {EXPECTED}"
    assert ok.invalid is None and ok.args == ("--x",)


def test_a_url_or_header_with_a_lone_surrogate_makes_a_remote_entry_unusable() -> None:
    config = parse_config_data({"mcpServers": {
        "u": {"url": "https://h.example/m\ud800cp"},
        "h": {"url": "https://h.example/mcp", "headers": {"Authorization": HEADER_SECRET}},
        "ok": {"url": "https://h.example/mcp"}}}, "mcp.json")
    url, header, ok = config.servers
    assert url.invalid == ("mcp.json: mcpServers.u.url: holds a lone surrogate (U+D800, half of a UTF-16 pair), "
                           "which no HTTP request can carry; expected a URL without a lone surrogate (U+D800–U+DFFF) "
                           "(the value is not shown: it may be a secret)")
    assert header.invalid == ("mcp.json: mcpServers.h.headers.Authorization: the value holds a lone surrogate (U+D800), "
                              "which HTTP cannot send; expected printable ASCII (the value is not shown: header values "
                              "are secrets)")
    assert ok.invalid is None


def test_a_variable_of_the_environment_is_checked_as_the_system_encodes_it() -> None:
    # a byte that is not UTF-8 in a variable (Python keeps it as U+DC80–U+DCFF) goes back as that byte
    config = parse_config_data({"mcpServers": {"b": {"command": "srv", "args": ["${ROOT}"], "env": {"K": "${BAD}"}}}},
                               "mcp.json", environ={"ROOT": "/home/j\udcf6rg", "BAD": "v\ud800"})
    (spec,) = config.servers
    assert spec.invalid == f"mcp.json: mcpServers.b.env.K: holds a lone surrogate (U+D800, half of a UTF-16 pair), {CANNOT_START}; {EXPECTED}"
    config = parse_config_data({"mcpServers": {"b": {"command": "srv", "args": ["${ROOT}"]}}}, "mcp.json",
                               environ={"ROOT": "/home/j\udcf6rg"})
    assert config.servers[0].invalid is None and config.servers[0].args == ("/home/j\udcf6rg",)


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_plan_names_each_unusable_entry_without_a_traceback(tmp_path, json_flag) -> None:
    path = _write(tmp_path, _repro())
    result = run_cli("plan", *json_flag, path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stdout == ""
    # the time a refusal took is the machine's (0.00 s when quiet, 0.02 s on a loaded one)
    said = [re.sub(r"failed after \d+\.\d\d s", "failed after 0.00 s", line) for line in result.stderr.splitlines()]
    assert said == [
        f"toolsearch: live: a: failed after 0.00 s: {path}: mcpServers.a.headers.Authorization: the value holds a lone "
        "surrogate (U+D800), which HTTP cannot send; expected printable ASCII (the value is not shown: header values "
        "are secrets)",
        f"toolsearch: live: b: failed after 0.00 s: {path}: mcpServers.b.args[1]: holds a lone surrogate (U+DC00, half "
        f"of a UTF-16 pair), {CANNOT_START}; {EXPECTED}",
        f"toolsearch: error: {path}: no server listed its tools (2 servers failed: 'a', 'b'; the reasons are above), so "
        "nothing was read from it; fix the servers, or give a catalog saved by toolsearch snapshot",
    ]


@pytest.mark.live
@pytest.mark.parametrize(("command", "status"), [(("plan",), 0), (("plan", "--json"), 0), (("lint",), 1),
                                                 # check refuses a catalog with failed servers
                                                 (("check", "--context-lengths", "128000", "--goal", "any"), 2)])
def test_the_other_servers_still_work_and_a_name_shows_its_surrogate(tmp_path, command, status) -> None:
    data = _repro()
    data["mcpServers"]["g\ud800ood"] = {"command": PY, "args": [str(SERVER)]}
    result = run_cli(*command, _write(tmp_path, data))
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == status, result.stderr
    assert "toolsearch: live: g⟨U+D800⟩ood: ok, 7 tools" in result.stderr
    assert "mcpServers.b.args[1]: holds a lone surrogate (U+DC00" in result.stderr
    out = result.stdout + result.stderr
    assert "cdefgh" not in out and "yzwvut" not in out
    if "--json" in command:
        assert [s["name"] for s in json.loads(result.stdout)["servers"]][0] == "g\ud800ood"
    else:
        assert "\ud800" not in result.stdout


def test_a_table_key_with_a_lone_surrogate_is_written_as_its_escape() -> None:
    assert element_key("live_tools:github") == "live_tools:github"
    assert element_key("live_tools:g\ud800ood") == "live_tools:g\\ud800ood"
    assert 'data-table="live_tools:g\\ud800ood"' in table_html([{"tool": "t"}], key="live_tools:g\ud800ood")


@pytest.mark.live
def test_the_live_page_takes_an_upload_with_lone_surrogates(tmp_path) -> None:
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.guard import launch_token

    data = _repro()
    data["mcpServers"]["g\ud800ood"] = {"command": PY, "args": [str(SERVER)]}
    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=180)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", json.dumps(data).encode(), "application/json"))
    at.run()
    assert not at.exception, at.exception
    try:
        at.button(key="live_connect").click().run()
        at.text_input(key="live_token_connect").input(launch_token())
        at.button(key="live_start_connect").click().run()
        assert not at.exception, at.exception
        tables = "\n".join(h.value for h in at.html)
        page = html.unescape(re.sub(r"<[^>]*>", "", tables))
        assert "mcpServers.b.args[1]: holds a lone surrogate (U+DC00, half of a UTF-16 pair)" in page
        assert "mcpServers.a.headers.Authorization: the value holds a lone surrogate (U+D800)" in page
        assert 'data-table="live_tools:g\\ud800ood"' in tables
        assert "cdefgh" not in page and "yzwvut" not in page
    finally:
        connections = at.session_state["live_connections"] if "live_connections" in at.session_state else None
        if connections is not None:
            connections.close()


def test_an_env_file_path_with_a_lone_surrogate_is_named_not_quoted_as_a_codec_error(tmp_path) -> None:
    """The path cannot name a file on this system: the warning says so in the words of the other
    places (not Python's ``'utf-8' codec can't encode`` text), and the server is still read."""
    config = parse_config_data({"mcpServers": {"s": {"command": "srv", "envFile": "vars\ud800.env"}}},
                               "mcp.json", base_dir=tmp_path)
    (spec,) = config.servers
    assert spec.invalid is None
    (warning,) = config.warnings
    assert warning == ("mcp.json: mcpServers.s.envFile: holds a lone surrogate (U+D800, half of a UTF-16 pair), which no "
                       "file name on this system can hold; expected a file path without one; not read, ignored")
    # a surrogate-escaped byte is a file name this system can hold: read as usual (here: absent)
    (missing,) = parse_config_data({"mcpServers": {"s": {"command": "srv", "envFile": "vars\udcff.env"}}},
                                   "mcp.json", base_dir=tmp_path).warnings
    assert "cannot read" in missing and "codec" not in missing
