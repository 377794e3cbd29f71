"""MCP client config files → ServerSpec (docs/reference.md §26, §29): shapes, interpolation, secrets, errors.

No server is started here (see test_live.py for that).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from conftest import run_cli, write_json, write_yaml
from toolsearch.engine import constants as C
from toolsearch.engine.catalog import Catalog, Server, Tool
from toolsearch.engine.errors import ConfigError
from toolsearch.live.mcpconfig import (config_kind, interpolate, load_mcp_config, parse_config_data, parse_config_text,
                                  redact_url, sniff_file, spec_from_fields)
from toolsearch.engine.registration import register_catalog

MASK = C.SECRET_MASK
ENV = {"TOKEN": "tok-123456", "REGION": "eu-west", "EMPTY": ""}


def parse(data, origin="cfg.json", **kwargs):
    kwargs.setdefault("environ", ENV)
    return parse_config_data(data, origin, **kwargs)


# --- shapes -----------------------------------------------------------------------------------

def test_claude_desktop_stdio_entry() -> None:
    config = parse({"mcpServers": {"recipes": {"command": "npx", "args": ["-y", "@acme/recipes-mcp"],
                                               "env": {"RECIPES_DB": "/Users/pat/recipes.sqlite"}}}})
    assert config.kind == "mcpServers"
    (spec,) = config.servers
    assert (spec.name, spec.transport, spec.command, spec.args) == ("recipes", "stdio", "npx", ("-y", "@acme/recipes-mcp"))
    assert dict(spec.env) == {"RECIPES_DB": "/Users/pat/recipes.sqlite"}
    assert (spec.enabled, spec.url, spec.headers, spec.origin) == (True, None, {}, "cfg.json: mcpServers.recipes")


def test_claude_code_types_headers_and_default_values() -> None:
    config = parse({"mcpServers": {
        "inventory": {"type": "stdio", "command": "node", "args": ["./inv.js"],
                      "env": {"INVENTORY_REGION": "${INVENTORY_REGION:-eu}", "R": "${REGION:-us}"}},
        "tickets": {"type": "http", "url": "https://mcp.tickets.example.net/mcp",
                    "headers": {"Authorization": "Bearer ${TOKEN}"}, "alwaysLoad": True},
        "events": {"type": "sse", "url": "https://events.example.net/sse"},
    }})
    inventory, tickets, events = config.servers
    assert dict(inventory.env) == {"INVENTORY_REGION": "eu", "R": "eu-west"}  # docs/reference.md §29.2 ${VAR:-default}
    assert (tickets.transport, tickets.url) == ("http", "https://mcp.tickets.example.net/mcp")
    assert dict(tickets.headers) == {"Authorization": "Bearer tok-123456"}
    assert events.transport == "sse"


def test_cursor_context_names_and_env_prefix(tmp_path) -> None:
    workspace = tmp_path / "proj"
    config = parse({"mcpServers": {"notes": {
        "command": "uvx", "args": ["acme-notes-mcp", "--root", "${workspaceFolder}", "--name",
                                   "${workspaceFolderBasename}", "${userHome}${/}x${pathSeparator}y"],
        "env": {"NOTES_TOKEN": "${env:TOKEN}"}}}}, workspace=workspace)
    (spec,) = config.servers
    assert spec.args == ("acme-notes-mcp", "--root", str(workspace), "--name", "proj",
                         f"{Path.home()}{os.sep}x{os.sep}y")
    assert dict(spec.env) == {"NOTES_TOKEN": "tok-123456"}
    assert spec.unresolved == ()


def test_vscode_servers_mapping_inputs_stay_literal() -> None:
    data = {"inputs": [{"type": "promptString", "id": "tickets-key", "password": True}],
            "servers": {"tickets": {"type": "http", "url": "https://t.example.net/mcp",
                                    "headers": {"Authorization": "Bearer ${input:tickets-key}"}},
                        "notes": {"type": "stdio", "command": "uvx", "args": ["acme-notes-mcp"]}}}
    assert config_kind(data) == "servers"
    tickets, notes = parse(data).servers
    assert dict(tickets.headers) == {"Authorization": "Bearer ${input:tickets-key}"}
    assert tickets.unresolved == ("input:tickets-key",)
    assert (notes.transport, notes.command) == ("stdio", "uvx")


def test_vscode_settings_mcp_servers_block() -> None:
    data = {"editor.fontSize": 13, "mcp": {"servers": {"x": {"command": "x-mcp"}}}}
    assert config_kind(data) == "mcp.servers"
    assert [s.name for s in parse(data).servers] == ["x"]


def test_hermes_block_url_wins_sse_filters_timeouts_and_enabled() -> None:
    text = """
model: some-model
mcp_servers:
  notes:
    command: uvx
    args: ["acme-notes-mcp"]
    tools:
      exclude: ["delete_*"]
  tickets:
    url: "https://mcp.tickets.example.net/mcp"
    command: ignored
    headers:
      Authorization: "Bearer ${TOKEN}"
    connect_timeout: 30
    timeout: 120
  events:
    url: "https://events.example.net/sse"
    transport: sse
  old:
    command: old-mcp
    enabled: "no"
  defaults:
    command: d
    args: ["${REGION:-x}"]
"""
    config = parse_config_text(text, "config.yaml", environ=ENV)
    assert config.kind == "mcp_servers"
    notes, tickets, events, old, defaults = config.servers
    assert notes.tools == {"exclude": ["delete_*"]} and notes.registration_config() == {"tools": {"exclude": ["delete_*"]}}
    assert (tickets.transport, tickets.command, tickets.connect_timeout, tickets.timeout) == ("http", None, 30.0, 120.0)
    assert config.warnings == ("config.yaml: mcp_servers.tickets: has both url and command; url wins (HTTP)",)
    assert events.transport == "sse"
    assert old.enabled is False and [s.name for s in config.enabled] == ["notes", "tickets", "events", "defaults"]
    # docs/reference.md §26.2: Hermes has no ${VAR:-default}; the whole body is a name, so it stays literal.
    assert (defaults.args, defaults.unresolved) == (("${REGION:-x}",), ("REGION:-x",))


def test_unset_and_empty_variables_stay_literal_and_keys_are_not_interpolated() -> None:
    (spec,) = parse({"mcpServers": {"s": {"command": "c", "args": ["${MISSING}", "${EMPTY}", "$TOKEN", "${ TOKEN }"],
                                          "env": {"${TOKEN}": "v"}}}}).servers
    assert spec.args == ("${MISSING}", "${EMPTY}", "$TOKEN", "tok-123456")
    assert spec.unresolved == ("MISSING", "EMPTY")
    assert dict(spec.env) == {"${TOKEN}": "v"}


def test_yaml_boolean_server_names_are_warned_about() -> None:
    config = parse_config_text("mcp_servers:\n  off:\n    command: x\n", "config.yaml")
    assert [s.name for s in config.servers] == ["False"]
    assert config.warnings == ("config.yaml: mcp_servers.False: the server name was read as true/false (false) "
                               "(YAML reads on/off/yes/no as booleans); quote it to keep the name",)


def test_interpolate_directly() -> None:
    assert interpolate("a ${X} ${env:X} ${Y}", {"X": "1"}, {}) == ("a 1 1 ${Y}", ["Y"])
    assert interpolate("${Y:-d}", {}, {}, defaults=True) == ("d", [])
    assert interpolate("${Y:-d}", {}, {}, defaults=False) == ("${Y:-d}", ["Y:-d"])


def test_disabled_flag_and_args_string_forms() -> None:
    a, b, c = parse({"mcpServers": {
        "a": {"command": "x", "disabled": True},
        "b": {"command": "x", "args": "--root '/my dir' -v"},
        "c": {"command": "x", "args": '["--port", 8080]'},
    }}).servers
    assert a.enabled is False
    assert b.args == ("--root", "/my dir", "-v")
    assert c.args == ("--port", "8080")


def test_env_file_is_read_relative_to_the_config(tmp_path) -> None:
    (tmp_path / ".env").write_text("# comment\nexport A=1\nB='two words'\n", encoding="utf-8")
    path = write_json(tmp_path / "mcp.json", {"mcpServers": {"s": {"command": "c", "envFile": ".env",
                                                                   "env": {"B": "override"}}}})
    (spec,) = load_mcp_config(path).servers
    assert dict(spec.env) == {"A": "1", "B": "override"}
    missing = write_json(tmp_path / "m.json", {"mcpServers": {"s": {"command": "c", "envFile": "nope.env"}}})
    config = load_mcp_config(missing)
    assert config.warnings[0].startswith(f"{missing}: mcpServers.s.envFile: cannot read nope.env")


def test_env_file_is_read_within_the_input_limit(tmp_path, monkeypatch) -> None:
    # An envFile is read as every other input: one over the size limit (or /dev/zero, which never
    # ends) is refused with a warning naming it, and the server keeps its own env.
    from toolsearch.engine import readers
    monkeypatch.setattr(readers, "MAX_INPUT_BYTES", 1000)
    (tmp_path / "big.env").write_text("A=1\n" * 500, encoding="utf-8")
    path = write_json(tmp_path / "mcp.json", {"mcpServers": {"s": {"command": "c", "envFile": "big.env",
                                                                   "env": {"B": "2"}}}})
    config = load_mcp_config(path)
    (spec,) = config.servers
    assert dict(spec.env) == {"B": "2"} and spec.invalid is None
    assert config.warnings[0].startswith(f"{path}: mcpServers.s.envFile: {tmp_path / 'big.env'}: 2,000 bytes, "
                                         "over the 1,000 bytes limit"), config.warnings


# --- secrets ---------------------------------------------------------------------------------

def test_redacted_view_masks_env_and_header_values_and_shows_templates() -> None:
    stdio, remote = parse({"mcpServers": {
        "notes": {"command": "uvx", "args": ["--token", "${TOKEN}"], "env": {"NOTES_TOKEN": "${TOKEN}", "X": "plain"}},
        "tickets": {"url": "https://user:pa55word@t.example.net/mcp?k=1", "headers": {"Authorization": "Bearer ${TOKEN}"}},
    }}).servers
    assert stdio.redacted() == {"name": "notes", "transport": "stdio", "enabled": True, "command": "uvx",
                                "args": ["--token", "${TOKEN}"], "env": {"NOTES_TOKEN": MASK, "X": MASK}}
    assert remote.redacted() == {"name": "tickets", "transport": "http", "enabled": True,
                                 "url": f"https://{MASK}@t.example.net/mcp?k={MASK}", "headers": {"Authorization": MASK}}
    for spec in (stdio, remote):
        for text in (repr(spec), str(spec), json.dumps(spec.redacted())):
            assert "tok-123456" not in text and "pa55word" not in text and "plain" not in text
    assert remote.scrub("401 for Bearer tok-123456 (pa55word)") == f"401 for {MASK} ({MASK})"
    assert remote.scrub("token tok-123456 rejected") == f"token {MASK} rejected"
    assert redact_url("http://127.0.0.1:8000/mcp") == "http://127.0.0.1:8000/mcp"


def test_interpolated_values_and_url_query_values_are_secrets() -> None:
    env = {"URLTOK": "urlTOKEN-12345", "ARGTOK": "argTOKEN-67890", "PORT_SUFFIX": "mcp"}
    query, userinfo, literal, path = parse({"mcpServers": {
        "q": {"url": "http://127.0.0.1:9/mcp?api_key=${URLTOK}"},
        "u": {"url": "http://admin:${URLTOK}@127.0.0.1:9/mcp"},
        "lit": {"url": "http://127.0.0.1:9/mcp?token=abc&debug"},
        "b": {"command": "/nonexistent/${ARGTOK}/bin", "args": ["--key=${ARGTOK}"]},
    }}, environ=env).servers
    assert (query.interpolated, path.interpolated) == (("urlTOKEN-12345",), ("argTOKEN-67890",))
    assert query.redacted()["url"] == f"http://127.0.0.1:9/mcp?api_key={MASK}"
    assert userinfo.redacted()["url"] == f"http://{MASK}@127.0.0.1:9/mcp"
    assert literal.redacted()["url"] == f"http://127.0.0.1:9/mcp?token={MASK}&debug"
    assert redact_url("https://h/cb#access_token=xyz&state=1") == f"https://h/cb#access_token={MASK}&state={MASK}"
    # Values from ${...} are masked wherever they turn up in a message, even without a URL around them.
    assert path.scrub("cannot start '/nonexistent/argTOKEN-67890/bin'") == f"cannot start '/nonexistent/{MASK}/bin'"
    assert path.scrub("stderr: bad token argTOKEN-67890") == f"stderr: bad token {MASK}"
    assert query.scrub("cannot connect to http://127.0.0.1:9/mcp?api_key=urlTOKEN-12345 (refused)") == \
        f"cannot connect to http://127.0.0.1:9/mcp?api_key={MASK} (refused)"
    assert literal.scrub("GET http://127.0.0.1:9/mcp?token=abc&debug failed") == \
        f"GET http://127.0.0.1:9/mcp?token={MASK}&debug failed"
    for spec in (query, userinfo, literal, path):
        for text in (repr(spec), json.dumps(spec.redacted())):
            assert "urlTOKEN" not in text and "argTOKEN" not in text and "abc" not in text


def test_messages_about_a_bad_entry_never_show_secrets() -> None:
    env = {"SECRET": "s3cr3t-value-42"}
    bad_url, bad_timeout = parse({"mcpServers": {
        "x": {"url": "ftp://host/${SECRET}/x"},
        "y": {"command": "c", "timeout": "${SECRET}"},
    }}, environ=env).servers
    assert bad_url.invalid.startswith("cfg.json: mcpServers.x.url: expected an http:// or https:// URL")
    assert bad_timeout.invalid.startswith("cfg.json: mcpServers.y.timeout: expected a number of seconds")
    for spec in (bad_url, bad_timeout):
        assert "s3cr3t" not in spec.invalid and MASK in spec.invalid
        assert "s3cr3t" not in repr(spec)


@pytest.mark.parametrize("url", ["user:hunter2pw@example.com/mcp", "http:\\\\u:hunter2pw@example.com/mcp",
                                 "http://u:hunter2pw@[::1/mcp?key=hunter2pw"])
def test_a_url_python_cannot_read_keeps_its_credentials_masked(url, tmp_path) -> None:
    # No scheme, backslashes for slashes, an unclosed IPv6 host: the entry is that server's
    # failure (not a traceback), and the message masks the credentials by their shape.
    bad, good = parse({"mcpServers": {"x": {"url": url}, "ok": {"command": "good"}}}).servers
    assert bad.invalid.startswith("cfg.json: mcpServers.x.url: expected an http:// or https:// URL"), bad.invalid
    assert good.invalid is None
    for text in (bad.invalid, repr(bad), json.dumps(bad.redacted(), ensure_ascii=False)):
        assert "hunter2pw" not in text and MASK in text, text
    assert redact_url(url).count(MASK) >= 1
    config = write_json(tmp_path / "cfg.json", {"mcpServers": {"x": {"url": url}}})
    result = run_cli("plan", config)
    assert "Traceback" not in result.stderr and "hunter2pw" not in result.stdout + result.stderr
    assert "mcpServers.x.url: expected an http:// or https:// URL" in result.stderr, result.stderr


def test_a_secret_of_one_server_is_masked_in_what_another_server_sends_back() -> None:
    # Two servers of one file: the token in 'a's env is a secret from the config in 'b's output
    # too (say 'b' reads the same token from its own files and echoes it).
    a, b = parse({"mcpServers": {"a": {"command": "x", "env": {"GH": "ghtok-a1b2c3d4"}},
                                 "b": {"url": "https://h/mcp", "headers": {"Authorization": "Bearer hdr-9z8y7x"}}}}).servers
    assert b.scrub("echo ghtok-a1b2c3d4 and hdr-9z8y7x") == f"echo {MASK} and {MASK}"
    assert a.scrub("got hdr-9z8y7x") == f"got {MASK}"
    for spec in (a, b):
        assert "ghtok" not in repr(spec) and "hdr-9z" not in repr(spec)
        assert "ghtok" not in json.dumps(spec.redacted()) and "hdr-9z" not in json.dumps(spec.redacted())


# --- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("data, fragment", [
    ({"mcpServers": {"x": "npx"}}, "cfg.json: mcpServers.x: expected a mapping with 'command' or 'url', got a string"),
    ({"mcpServers": {"x": {"args": ["a"]}}}, "cfg.json: mcpServers.x: expected 'command' (a non-empty string)"),
    ({"mcpServers": {"x": {"command": "c", "args": ["a", {"b": 1}]}}}, "cfg.json: mcpServers.x.args[1]: expected a string, got a mapping"),
    ({"mcpServers": {"x": {"command": "c", "args": 3}}}, "cfg.json: mcpServers.x.args: expected a list of strings, got a whole number"),
    ({"mcpServers": {"x": {"command": "c", "env": ["A=1"]}}}, "cfg.json: mcpServers.x.env: expected a mapping"),
    ({"mcpServers": {"x": {"type": "websocket", "url": "ws://h"}}}, "cfg.json: mcpServers.x.type: expected stdio, http or sse, got 'websocket'"),
    ({"servers": {"x": {"type": "http", "url": "ftp://h/x"}}}, "cfg.json: servers.x.url: expected an http:// or https:// URL"),
    ({"mcp_servers": {"x": {"url": "https://h/mcp", "headers": {"A": None}}}}, "cfg.json: mcp_servers.x.headers.A: expected a string, got null"),
    ({"mcp_servers": {"x": {"command": "c", "connect_timeout": "soon"}}}, "cfg.json: mcp_servers.x.connect_timeout: expected a number of seconds"),
    ({"mcp_servers": {"x": {"command": "c", "tools": ["a"]}}}, "cfg.json: mcp_servers.x.tools: expected a mapping"),
    ({"mcpServers": {"x": {"url": "not a url"}}}, "cfg.json: mcpServers.x.url: expected an http:// or https:// URL"),
    ({"mcpServers": {"x": {"url": "https://h/mcp", "headers": {"Authorization": "Bearer s3cr\u00e9t"}}}},
     "cfg.json: mcpServers.x.headers.Authorization: the value holds a non-ASCII character (U+00E9), which HTTP cannot send"),
    ({"mcpServers": {"x": {"url": "https://h/mcp", "headers": {"X-Key": "k1\r\nX-Evil: 1"}}}},
     "cfg.json: mcpServers.x.headers.X-Key: the value holds a line break (U+000D)"),
    ({"mcpServers": {"x": {"url": "https://h/mcp", "headers": {"X Key": "k1"}}}},
     "cfg.json: mcpServers.x.headers: expected header names of letters, digits and !#$%&'*+-.^_`|~, got 'X Key'"),
])
def test_a_bad_entry_is_that_servers_failure_naming_file_and_place(data, fragment) -> None:
    # One bad entry never makes the file unusable: it is a spec marked invalid, next to a good one.
    data = {key: {**value, "ok": {"command": "good"}} for key, value in data.items()}
    bad, good = parse(data).servers
    assert bad.name == "x" and bad.invalid is not None and bad.invalid.startswith(fragment), bad.invalid
    assert "s3cr" not in bad.invalid and "k1" not in bad.invalid  # a header's value is never in the message
    assert bad.redacted()["invalid"] == bad.invalid
    assert (good.name, good.command, good.invalid) == ("ok", "good", None)
    from toolsearch.live.mcpconfig import parse_server
    with pytest.raises(ConfigError) as info:  # one entry on its own (the app's form) still raises
        parse_server("x", data[next(iter(data))]["x"], next(iter(data)), "cfg.json: x", environ=ENV)
    assert str(info.value).startswith("cfg.json: x")


@pytest.mark.parametrize("data", [{"servers": [{"name": "catalog"}]}, {"mcpServers": "oops"}, [1, 2], "text"])
def test_a_top_level_without_a_servers_map_is_fatal(data) -> None:
    with pytest.raises(ConfigError, match=r"^cfg.json: (top level: expected an MCP client config|mcpServers must map "
                                          r"server names to entries, got a string)"):
        parse(data)


def test_bad_text_and_unreadable_file(tmp_path) -> None:
    with pytest.raises(ConfigError, match=r"^mcp.json: line 1, column 17: not valid JSON or YAML"):
        parse_config_text('{"mcpServers": {', "mcp.json")
    with pytest.raises(ConfigError, match="nope.json: cannot read file"):
        load_mcp_config(tmp_path / "nope.json")


def test_detection_and_sniffing(tmp_path) -> None:
    assert config_kind({"servers": [{"name": "x", "tools": []}]}) is None  # a catalog
    assert config_kind({"tools": []}) is None
    assert config_kind({"mcp_servers": None}) == "mcp_servers"
    assert sniff_file(write_json(tmp_path / "a.json", {"mcpServers": {}})) is True
    assert sniff_file(write_yaml(tmp_path / "b.yaml", {"servers": [{"name": "x", "tools": []}]})) is False
    assert sniff_file(tmp_path / "missing.json") is False


def test_form_fields_give_the_same_spec() -> None:
    spec = spec_from_fields(" notes ", command="uvx", args="acme-notes --root '/a b'", env={"T": "x"})
    assert (spec.name, spec.transport, spec.args, dict(spec.env)) == ("notes", "stdio", ("acme-notes", "--root", "/a b"), {"T": "x"})
    remote = spec_from_fields("r", url="http://127.0.0.1:9/sse", transport="sse", headers={"A": "b"})
    assert (remote.transport, dict(remote.headers)) == ("sse", {"A": "b"})
    with pytest.raises(ConfigError, match="server name"):
        spec_from_fields("  ", command="x")


def test_tools_filter_from_a_config_reaches_registration() -> None:
    (spec,) = parse({"mcp_servers": {"notes": {"command": "c", "tools": {"include": ["read_*"], "resources": False}}}}).servers
    server = Server("notes", tools=(Tool("read_note"), Tool("delete_note")), capabilities={"tools": {}, "resources": {}},
                    config=spec.registration_config())
    names = [t.name for t in register_catalog(Catalog("c", (server,))).tools]
    assert names == ["mcp__notes__read_note"]  # include wins; resources: false drops the utilities


# --- CLI: a bad config is a user mistake (exit 2, one line), and nothing starts -----------------

def test_cli_bad_config_is_one_line_exit_2(tmp_path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"mcpServers": {', encoding="utf-8")
    deep = tmp_path / "deep.json"
    deep.write_text('{"mcpServers": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    deep_yaml = write_yaml(tmp_path / "deep.yaml", {"mcpServers": {"x": {"command": "c"}}})
    deep_yaml.write_text("mcpServers: &a {x: *a}\n", encoding="utf-8")  # a recursive alias: endless nesting
    cases = [(broken, r"line \d+, column \d+: not valid"), (deep, r"mcpServers\[0\]\[0\](\[0\])*…\[0\]: nested more than 256 levels deep"),
             (deep_yaml, r"line 1, column \d+: an alias refers to a node that contains it \(a recursive alias\)")]
    for path, fragment in cases:
        for command in (["plan", path], ["snapshot", path], ["search", path, "-q", "x"]):
            result = run_cli(*command)
            assert result.returncode == 2, (command, result.stderr)
            assert re.match(f"toolsearch: error: {re.escape(str(path))}: {fragment}", result.stderr), result.stderr
            assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_cli_a_bad_entry_fails_alone_and_starts_nothing(tmp_path) -> None:
    path = write_json(tmp_path / ".mcp.json", {"mcpServers": {"x": {"command": "c", "args": 5}}})
    result = run_cli("plan", path, "--json")
    # The entry is that server's failure, said on its own line; as it is the file's only server,
    # nothing was read from the file, which is then refused (a config where another server lists
    # keeps working: test_live.test_plan_lists_failed_and_skipped_servers_with_their_reason).
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert re.fullmatch(rf"toolsearch: live: x: failed after 0\.\d\d s: {re.escape(str(path))}: mcpServers\.x\.args: "
                        r"expected a list of strings, got a whole number\n"
                        rf"toolsearch: error: {re.escape(str(path))}: no server listed its tools \(1 server failed: "
                        r"'x'; the reason is above\), so nothing was read from it; [^\n]*\n", result.stderr), result.stderr


def test_cli_many_bad_entries_are_said_as_a_catalog_file_says_its_problems_and_the_refusal_names_twelve(tmp_path) -> None:
    # 500 broken entries: the refusal named every one again on its last line (a config of 200,000
    # made a line of megabytes); and each had a line of its own (200,000 lines): now the first 100
    # have one, and one line counts the others, as a catalog file's problems are said
    path = write_json(tmp_path / "mcp.json", {"mcpServers": {f"s{i}": 5 for i in range(500)}})
    result = run_cli("plan", path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert [line.split(":")[2] for line in lines if line.startswith("toolsearch: live: s")] == [
        f" s{i}" for i in range(100)]
    # the file's warnings are said as it is read, before any server starts
    assert lines[0] == (f"toolsearch: warning: {path}: 400 more entries skipped past the first 100 problems of this "
                        "file (counted, not named)")
    names = ", ".join(f"'s{i}'" for i in range(12))
    assert lines[-1].startswith(f"toolsearch: error: {path}: no server listed its tools (500 servers failed: {names} "
                                "and 488 more; the reasons are above), so nothing was read from it; "), lines[-1]


def test_cli_snapshot_refuses_a_catalog_file(tmp_path) -> None:
    path = write_yaml(tmp_path / "cat.yaml", {"servers": [{"name": "x", "tools": []}]})
    result = run_cli("snapshot", path)
    assert result.returncode == 2
    assert result.stderr.startswith(f"toolsearch: error: {path}: top level: expected an MCP client config")


# --- JSONC and structure errors ----------------------------------------------------------------------

def test_vscode_files_with_comments_and_trailing_commas_parse(tmp_path) -> None:
    from toolsearch.live.client import read_source

    settings = tmp_path / "settings.json"
    settings.write_text('// VS Code user settings\n{\n  /* editor */ "editor.fontSize": 14,\n  "mcp": {"servers": {\n'
                        '    "time": {"type": "stdio", "command": "uvx", "args": ["mcp-server-time", "--x=a//b"],},'
                        ' // trailing comma\n  },},\n}\n', encoding="utf-8")
    mcp = tmp_path / "mcp.json"
    mcp.write_text('{\n  // the servers\n  "servers": {"notes": {"command": "notes-server" /* local */}}\n}\n',
                   encoding="utf-8")
    parsed = load_mcp_config(settings)
    assert [(s.name, s.command, s.args) for s in parsed.servers] == [("time", "uvx", ("mcp-server-time", "--x=a//b"))]
    assert [s.name for s in load_mcp_config(mcp).servers] == ["notes"]
    kind, config = read_source(mcp)
    assert kind == "config" and [s.name for s in config.servers] == ["notes"]


@pytest.mark.parametrize("text, message", [
    ('{"mcpServers": []}', "mcpServers must map server names to entries, got a list"),
    ('{"mcp_servers": "x"}', "mcp_servers must map server names to entries, got a string"),
    ('[{"mcpServers": {}}]', "top level: expected an MCP client config with 'mcpServers', 'servers' (a mapping) or "
                             "'mcp_servers', got a list"),
])
def test_structure_errors_say_what_was_expected(tmp_path, text, message) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_mcp_config(path)
    assert str(caught.value) == f"{path}: {message}"


@pytest.mark.parametrize("text, what", [('{"mcpServers": null}', "null"), ('{"mcpServers": {}}', "an empty map")])
def test_no_servers_is_a_warning(tmp_path, text, what) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(text, encoding="utf-8")
    parsed = load_mcp_config(path)
    assert parsed.servers == () and parsed.warnings == (f"{path}: mcpServers: no servers ({what}); nothing to connect",)
    result = run_cli("plan", path)
    assert result.returncode == 0
    assert f"toolsearch: warning: {path}: mcpServers: no servers ({what}); nothing to connect" in result.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"mcpServers": []}', encoding="utf-8")
    failed = run_cli("plan", bad)
    assert (failed.returncode, failed.stderr) == (2, f"toolsearch: error: {bad}: mcpServers must map server names to "
                                                     "entries, got a list\n")


def test_hermes_timeouts_mcp_are_the_defaults(tmp_path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("timeouts:\n  mcp:\n    tool_call: 12\n    connect: 7.5\n"
                    "mcp_servers:\n  a: {command: x}\n  b: {command: y, timeout: 3, connect_timeout: 4}\n",
                    encoding="utf-8")
    parsed = load_mcp_config(path)
    assert [(s.name, s.timeout, s.connect_timeout) for s in parsed.servers] == [("a", 12.0, 7.5), ("b", 3.0, 4.0)]
    path.write_text("timeouts: {mcp: {tool_call: soon}}\nmcp_servers:\n  a: {command: x}\n", encoding="utf-8")
    parsed = load_mcp_config(path)
    assert parsed.servers[0].timeout is None
    assert parsed.warnings == (f"{path}: timeouts.mcp.tool_call: expected a number of seconds, got 'soon'; ignored",)


@pytest.mark.parametrize("text, expected", [
    ('/* servers\n{"mcpServers": {}}\n',
     "line 3, column 1: not valid JSON with comments (unexpected end of input; "
     "is a /* comment or a string left open?)"),
    ('// the servers\n{"mcpServers": {"a": {"command": "x"}},, }\n',
     "line 2, column 41: not valid JSON with comments (unexpected"),
])
def test_a_file_opening_with_a_comment_gets_the_jsonc_error_not_a_yaml_one(tmp_path, text, expected) -> None:
    """A file whose first characters are a // or /* comment is JSONC or nothing: its error is
    the JSONC reader's, with line and column, not YAML's (which reads it as something else)."""
    path = tmp_path / "mcp.jsonc"
    path.write_text(text, encoding="utf-8")
    result = run_cli("plan", path)
    assert result.returncode == 2
    assert result.stderr.startswith(f"toolsearch: error: {path}: {expected}"), result.stderr
    assert "YAML" not in result.stderr and "Traceback" not in result.stderr
