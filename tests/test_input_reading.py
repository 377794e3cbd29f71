"""Inputs read as the user meant them, or refused with one line: command-line settings, catalog
shapes, schema losses at registration, same-named sources, scopes, paginated listings."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli, write_json, write_yaml

CATALOG = {"name": "Tiny", "servers": [
    {"name": "github", "tools": [
        {"name": "create_issue", "description": "Open a new issue in a repository.",
         "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}]},
    {"name": "core", "kind": "core", "tools": [{"name": "terminal", "description": "Run a shell command."}]},
]}


@pytest.fixture
def tiny(tmp_path):
    return write_yaml(tmp_path / "tiny.yaml", CATALOG)


def one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stdout == ""
    return lines[0]


def ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


# --- command-line settings -------------------------------------------------------------------

CONTEXT_RANGE = "expected a positive number of tokens from 1 to 10,000,000,000 (e.g. 200000, 200k, 1m) or 'unknown'"
PCT_RANGE = "expected a number of percent from 0 to 100 (values outside are clamped)"
CAP_RANGE = "expected a whole number of tokens from 200 to 60,000 (values outside are clamped)"


@pytest.mark.parametrize("command, extra", [
    ("plan", []), ("sweep", []), ("collapse", []), ("strategies", []),
])
@pytest.mark.parametrize("value", ["0", "-5", "1000000000000", "abc", "nan"])
def test_context_length_not_a_positive_number_is_refused(tiny, command, extra, value) -> None:
    flag = "--context-lengths" if command == "sweep" else "--context-length"
    line = one_line_error(run_cli(command, tiny, *extra, f"{flag}={value}"))
    assert line == f"toolsearch {command}: error: argument {flag}: {CONTEXT_RANGE}, got {value!r}"


def test_context_length_refused_in_recommend_and_sessions(tiny, tmp_path) -> None:
    line = one_line_error(run_cli("recommend", tiny, "--context-lengths", "32k,0", "--goal", "any"))
    assert line == f"toolsearch recommend: error: argument --context-lengths: {CONTEXT_RANGE}, got '0'"
    line = one_line_error(run_cli("sessions", tmp_path, "--catalog", tiny, "--context-length=-5"))
    assert line == f"toolsearch sessions: error: argument --context-length: {CONTEXT_RANGE}, got '-5'"


@pytest.mark.parametrize("command, flag, value, expected", [
    ("plan", "--threshold-pct", "abc", PCT_RANGE),
    ("plan", "--threshold-pct", "nan", PCT_RANGE),
    ("plan", "--listing-max-tokens", "abc", CAP_RANGE),
    ("plan", "--listing-max-tokens", "3.9", CAP_RANGE),
    ("sweep", "--threshold-pcts", "abc", PCT_RANGE),
    ("sweep", "--listing-max-tokens", "lots", CAP_RANGE),
    ("collapse", "--threshold-pct", "abc", PCT_RANGE),
    ("diff", "--listing-max-tokens", "abc", CAP_RANGE),
])
def test_setting_that_is_not_a_number_is_refused(tiny, command, flag, value, expected) -> None:
    extra = [tiny] if command == "diff" else []
    line = one_line_error(run_cli(command, tiny, *extra, f"{flag}={value}"))
    assert line == f"toolsearch {command}: error: argument {flag}: {expected}, got {value!r}"


def test_out_of_range_settings_are_clamped_with_a_warning(tiny) -> None:
    result = run_cli("plan", tiny, "--threshold-pct", "150", "--listing-max-tokens", "5", "--context-length", "8k",
                     "--json")
    data = json.loads(ok(result))
    assert (data["config"]["threshold_pct"], data["config"]["listing_max_tokens"], data["budget"]) == (100.0, 200, 200)
    assert result.stderr.splitlines() == [
        # the option typed, not a config key the user never wrote
        "toolsearch: warning: --threshold-pct 150 is outside 0..100, so it was clamped to 100%",
        "toolsearch: warning: --listing-max-tokens 5 is outside 200..60,000, so it was clamped to 200 tokens",
    ]
    result = run_cli("sweep", tiny, "--threshold-pcts", "2,150", "--listing-max-tokens", "70000",
                     "--context-lengths", "8k", "--json")
    rows = json.loads(ok(result))
    assert [(r["threshold_pct"], r["listing_max_tokens"]) for r in rows] == [(2.0, 60000), (100.0, 60000)]
    assert result.stderr.splitlines() == [
        "toolsearch: warning: --listing-max-tokens value 70000 is outside 200..60,000, so it was clamped to 60,000 tokens",
        "toolsearch: warning: --threshold-pcts value 150 is outside 0..100, so it was clamped to 100%",
    ]


def test_a_side_flag_of_diff_is_named_as_typed(tiny) -> None:
    result = run_cli("diff", tiny, tiny, "--threshold-pct-b", "150", "--listing-max-tokens", "5")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "toolsearch: warning (A): --listing-max-tokens 5 is outside 200..60,000, so it was clamped to 200 tokens",
        "toolsearch: warning (B): --threshold-pct-b 150 is outside 0..100, so it was clamped to 100%",
        "toolsearch: warning (B): --listing-max-tokens 5 is outside 200..60,000, so it was clamped to 200 tokens",
    ]
    file = tiny.parent / "cfg.yaml"
    file.write_text("tools:\n  tool_search:\n    threshold_pct: 150\n", encoding="utf-8")
    kept = run_cli("plan", tiny, "--config", file)  # a value from the file keeps the file's key
    assert kept.stderr.splitlines() == [
        f"toolsearch: warning: {file}: line 3: tools.tool_search.threshold_pct: 150 is outside 0..100, so it was "
        "clamped to 100%"]


def test_valid_settings_still_read(tiny) -> None:
    data = json.loads(ok(run_cli("plan", tiny, "--threshold-pct", "2.5%", "--listing-max-tokens", "4_000",
                                 "--context-length", "1m", "--json")))
    assert (data["config"]["threshold_pct"], data["config"]["listing_max_tokens"], data["context_length"],
            data["budget"]) == (2.5, 4000, 1_000_000, 4000)


# --- catalog shapes: a flat list of MCP tools ----------------------------------------------------

FLAT_MCP = [
    {"server": "github", "name": "create_issue", "description": "Open an issue in a repository.",
     "inputSchema": {"type": "object", "properties": {"title": {"type": "string", "description": "Issue title"}},
                     "required": ["title"]},
     "annotations": {"readOnlyHint": False}},
    {"server": {"name": "slack"}, "name": "post_message", "description": "Post a message to a channel.",
     "inputSchema": {"type": "object", "properties": {"channel": {"type": "string"}}}},
    {"server": "github", "name": "list_issues", "description": "List the issues of a repository.",
     "inputSchema": {"type": "object", "properties": {"state": {"type": "string", "enum": ["open", "closed"]}}},
     "x-vendor": {"tier": "gold"}},
]


def test_flat_list_of_mcp_tools_is_grouped_by_server(tmp_path) -> None:
    path = write_json(tmp_path / "export.json", FLAT_MCP)
    data = json.loads(ok(run_cli("plan", path, "--json")))
    assert [(s["name"], s["kind"], s["tool_count"]) for s in data["servers"]] == [("github", "mcp", 2),
                                                                                 ("slack", "mcp", 1)]
    names = sorted(t["function"]["name"] for t in data["tools"] if t["function"]["name"].startswith("mcp__"))
    assert names == []  # deferred: only the bridge tools are in the array
    assert "mcp__github__create_issue" in data["listing"] and "mcp__slack__post_message" in data["listing"]
    described = json.loads(ok(run_cli("describe", path, "mcp__github__create_issue", "mcp__github__list_issues",
                                      "--json")))
    assert described == {"tools": {
        "mcp__github__create_issue": {"description": "Open an issue in a repository.", "parameters": {
            "type": "object", "properties": {"title": {"type": "string", "description": "Issue title"}},
            "required": ["title"]}},
        "mcp__github__list_issues": {"description": "List the issues of a repository.", "parameters": {
            "type": "object", "properties": {"state": {"type": "string", "enum": ["open", "closed"]}},
            "required": []}},
    }}


def test_flat_list_keeps_unknown_keys_and_reports_missing_servers(tmp_path) -> None:
    from toolsearch.engine.catalog import catalog_to_data, load_source

    items = [*FLAT_MCP, {"name": "ping", "inputSchema": {"type": "object"}}]
    catalog = load_source(write_json(tmp_path / "export.json", items))
    data = catalog_to_data(catalog)
    assert [(s["name"], s["kind"], [t["name"] for t in s["tools"]]) for s in data["servers"]] == [
        ("github", "mcp", ["create_issue", "list_issues"]), ("slack", "mcp", ["post_message"]),
        ("export", "mcp", ["ping"])]
    assert data["servers"][0]["tools"][1]["x-vendor"] == {"tier": "gold"}
    assert data["servers"][0]["tools"][0]["annotations"] == {"readOnlyHint": False}
    assert [str(p) for p in catalog.problems] == [
        f"info: {tmp_path / 'export.json'}: [3]: 1 tool without a 'server' key; put in server 'export' (the file name)"]


def test_mixed_list_is_refused_with_one_line(tmp_path) -> None:
    items = [FLAT_MCP[0], {"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}]
    path = write_json(tmp_path / "mixed.json", items)
    line = one_line_error(run_cli("plan", path))
    assert line == (f"toolsearch: error: {path}: [1]: expected one shape for the whole list: MCP tools (each with "
                    "inputSchema, grouped by their server key, like [0]) or a function array (each with parameters "
                    "or function, like [1]), not both")


@pytest.mark.parametrize("servers, got", [(5, "a whole number"), (None, "nothing"), ("github", "a string")])
def test_a_servers_key_that_is_neither_a_list_nor_a_mapping_says_what_it_expects(tmp_path, servers, got) -> None:
    """Before, ``servers: 5`` was called an MCP client config "to connect to live"."""
    path = write_yaml(tmp_path / "catalog.yaml", {"name": "x", "servers": servers})
    line = one_line_error(run_cli("check", path, "--context-lengths", "32k", "--goal", "any"))
    assert line == (f"toolsearch: error: {path}: servers: expected a list of servers (a catalog) or a mapping of "
                    f"server names to their settings (an MCP client config); got {got}")


def test_function_array_is_still_a_plugin_toolset(tmp_path) -> None:
    path = write_json(tmp_path / "functions.json", [
        {"type": "function", "function": {"name": "lookup", "description": "Look a word up.",
                                          "parameters": {"type": "object", "properties": {"w": {"type": "string"}}}}}])
    data = json.loads(ok(run_cli("plan", path, "--json")))
    assert [(s["name"], s["kind"]) for s in data["servers"]] == [("functions", "plugin")]


# --- scopes: an empty session tool list is no list ------------------------------------------------

def test_describe_core_tool_under_an_empty_scope_says_call_it_directly(tiny) -> None:
    from toolsearch.engine.profile import default_profile

    text = default_profile().text
    result = run_cli("describe", tiny, "terminal", "--scope", "none=", "--json")
    assert result.returncode == 1  # refused: not a deferred tool
    assert json.loads(result.stdout) == {"tools": {}, "errors": {"terminal": text("errors", "not_deferrable",
                                                                                 name="terminal")}}
    # a scope that lists other tools but not the core one still says "not available in this session"
    result = run_cli("describe", tiny, "terminal", "--scope", "gh=github", "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"tools": {}, "errors": {"terminal": text("errors", "not_in_session",
                                                                                 name="terminal")}}


# --- schema losses at registration ----------------------------------------------------------------

LOSSY = {"name": "Lossy", "servers": [{"name": "records", "tools": [
    {"name": "by_id", "description": "Look a record up by id or by slug.",
     "inputSchema": {"anyOf": [
         {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
         {"type": "object", "properties": {"slug": {"type": "string"}}, "required": ["slug"]}]}},
    {"name": "either", "description": "Fetch a record by one of two keys.",
     "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}, "slug": {"type": "string"}},
                     "oneOf": [{"required": ["id"]}, {"required": ["slug"]}]}},
    {"name": "assign", "description": "Assign a record to a user.",
     "inputSchema": {"type": "object",
                     "properties": {"owner": {"$ref": "#/definitions/User"}, "team": {"$ref": "#/$defs/Team"}},
                     "definitions": {"User": {"type": "string"}}}},
    {"name": "plain", "description": "Count the records.",
     "inputSchema": {"type": "object", "properties": {"kind": {"type": "string"}}}},
]}]}


def test_schema_losses_are_lint_findings_with_fixes(tmp_path) -> None:
    path = write_yaml(tmp_path / "lossy.yaml", LOSSY)
    result = run_cli("lint", path, "--json")
    assert result.returncode == 1, result.stderr  # an error finding
    findings = [f for f in json.loads(result.stdout)["findings"] if f["rule"].startswith("schema-")]
    assert [(f["rule"], f["severity"], f["tool"], f["field"]) for f in findings] == [
        ("schema-root-dropped", "error", "by_id", "inputSchema.anyOf"),
        ("schema-root-dropped", "warning", "either", "inputSchema.oneOf"),
        ("schema-ref-unresolved", "warning", "assign", "parameters.properties.team.$ref"),
        ("schema-ref-unsupported", "warning", "assign", "parameters"),
    ]
    assert findings[0]["message"] == ("the root anyOf is removed at registration and the parameters are declared only "
                                      "in it (id, slug): the model sees a tool with no parameters")
    assert findings[0]["fix"].startswith("Declare every parameter in the root 'properties'")
    assert "'#/$defs/Team' points to nothing" in findings[2]["message"]
    assert "1 $ref pointer (#/$defs/User)" in findings[3]["message"]
    assert all(f["fix"] for f in findings)


def test_plan_notes_schema_losses_in_text_and_json(tmp_path) -> None:
    path = write_yaml(tmp_path / "lossy.yaml", LOSSY)
    data = json.loads(ok(run_cli("plan", path, "--json")))
    assert [(x["name"], x["rule"], x["severity"]) for x in data["schema_losses"]] == [
        ("mcp__records__assign", "schema-ref-unresolved", "warning"),
        ("mcp__records__assign", "schema-ref-unsupported", "warning"),
        ("mcp__records__by_id", "schema-root-dropped", "error"),
        ("mcp__records__either", "schema-root-dropped", "warning"),
    ]
    assert {"tier", "listing_form", "servers", "tools", "notes"} <= set(data)  # the contract keys are all there
    text = ok(run_cli("plan", path))
    assert ("note: schema loss: mcp__records__by_id: inputSchema.anyOf: the root anyOf is removed at registration "
            "and the parameters are declared only in it (id, slug): the model sees a tool with no parameters") in text
    clean = json.loads(ok(run_cli("plan", write_yaml(tmp_path / "tiny.yaml", CATALOG), "--json")))
    assert clean["schema_losses"] == []


def test_describe_sent_compares_what_the_server_sent_with_what_the_model_receives(tmp_path) -> None:
    path = write_yaml(tmp_path / "lossy.yaml", LOSSY)
    result = run_cli("describe", path, "mcp__records__by_id", "mcp__records__plain", "--sent", "--json")
    data = json.loads(ok(result))
    by_id = data["tools"]["mcp__records__by_id"]
    assert by_id["sent"] == LOSSY["servers"][0]["tools"][0]["inputSchema"]
    assert by_id["received"] == {"type": "object", "properties": {}, "required": []}
    assert [loss["rule"] for loss in by_id["losses"]] == ["schema-root-dropped"]
    plain = data["tools"]["mcp__records__plain"]
    assert (plain["received"]["required"], plain["losses"]) == ([], [])
    text = run_cli("describe", path, "mcp__records__by_id", "mcp__records__nope", "--sent")
    assert text.returncode == 1
    assert "received by the model (parameters after registration):" in text.stdout
    assert "lost at registration: error: inputSchema.anyOf:" in text.stdout
    assert "mcp__records__nope: no registered tool has this name" in text.stdout


def test_output_schema_finding_names_the_output_schema(tmp_path) -> None:
    path = write_yaml(tmp_path / "out.yaml", {"servers": [{"name": "weather", "tools": [
        {"name": "forecast", "description": "Get the weather forecast for a city.",
         "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
         "outputSchema": {"type": "array", "items": {"type": "string"}}}]}]})
    finding = next(f for f in json.loads(run_cli("lint", path, "--json").stdout)["findings"]
                   if f["rule"] == "sdk-rejects")
    assert "outputSchema" in finding["message"]
    assert finding["fix"] == 'Fix the outputSchema: it must be an object schema with "type": "object" (or leave it out).'
    assert "inputSchema" not in finding["fix"]


# --- a core toolset and an MCP server with one name -------------------------------------------------

SHARED = {"name": "Shared", "servers": [
    {"name": "web", "kind": "core", "tools": [{"name": "web_search", "description": "Search the web."},
                                              {"name": "web_extract", "description": "Extract a web page."}]},
    {"name": "web", "kind": "mcp", "tools": [
        {"name": "fetch", "description": "Fetch a URL.",
         "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}}}]},
]}
SHARED_WARNING = ("server 'web': the name is used by sources of 2 kinds (mcp, core): the harness keeps them apart "
                  "as toolsets 'mcp-web', 'web', shown as separate rows, but they share the listing label 'web', so "
                  "their deferred tools are listed in one group")


def test_core_toolset_and_mcp_server_with_one_name_are_two_rows_and_a_warning(tmp_path) -> None:
    path = write_yaml(tmp_path / "shared.yaml", SHARED)
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    defer: [web_search]\n", encoding="utf-8")
    result = run_cli("plan", path, "--config", config, "--json")
    data = json.loads(ok(result))
    assert [(s["name"], s["kind"], s["tool_count"], s["deferred_count"], s["visible_count"], s["state"])
            for s in data["servers"]] == [("web", "core", 2, 1, 1, "full"), ("web", "mcp", 1, 1, 0, "full")]
    assert result.stderr == f"toolsearch: catalog warning: {SHARED_WARNING}\n"
    assert {"severity": "warning", "where": "server 'web'", "message": SHARED_WARNING.split(": ", 1)[1]} \
        in data["problems"]
    # the listing is the reference's: one group for the label
    assert "web tools (2):\n- mcp__web__fetch: Fetch a URL.\n- web_search: Search the web." in data["listing"]
    text = ok(run_cli("plan", path))
    assert [line.split()[:3] for line in text.splitlines() if line.startswith(("web  ", "web core", "web mcp"))] == [
        ["web", "core", "2"], ["web", "mcp", "1"]]


def test_lint_flags_a_server_name_shared_by_two_kinds(tmp_path) -> None:
    path = write_yaml(tmp_path / "shared.yaml", SHARED)
    findings = json.loads(ok(run_cli("lint", path, "--json")))["findings"]
    assert [(f["rule"], f["severity"], f["server"]) for f in findings] == [("server-name-shared", "warning", "web")]
    assert findings[0]["fix"].startswith("Rename the MCP server in the client config")


# --- an empty-string nextCursor -------------------------------------------------------------------

def _loopy_config(tmp_path):
    import sys
    from pathlib import Path

    server = Path(__file__).resolve().parent / "mcp_test_server.py"
    return write_json(tmp_path / "mcp.json", {"mcpServers": {"loopy": {
        "command": sys.executable, "args": [str(server), "--empty-next-cursor", "--page-size", "4"]}}})


EMPTY_CURSOR = ("tools/list returned an empty-string nextCursor: read as the last page, but clients that treat any "
                "string as a cursor ask for the first page again and loop")


def test_live_server_with_an_empty_next_cursor_is_flagged_in_plan_and_lint(tmp_path) -> None:
    config = _loopy_config(tmp_path)
    result = run_cli("plan", config, "--timeout", "60", "--json")
    data = json.loads(ok(result))
    assert [(s["name"], s["tool_count"]) for s in data["servers"]] == [("loopy", 7)]
    assert "flagged: empty-string nextCursor (loops some clients)" in result.stderr
    assert (f"toolsearch: catalog warning: live: server 'loopy': tools/list page 2: {EMPTY_CURSOR}"
            in result.stderr.splitlines())
    result = run_cli("lint", config, "--timeout", "60", "--json")
    findings = json.loads(ok(result))["findings"]
    assert [(f["rule"], f["severity"], f["server"]) for f in findings] == [("next-cursor-empty", "warning", "loopy")]
    assert findings[0]["message"] == f"live: server 'loopy': tools/list page 2: {EMPTY_CURSOR}"
    assert findings[0]["fix"].startswith("Fix the server: leave nextCursor out (or null) on the last tools/list page")


def test_lint_takes_a_timeout_like_plan(tmp_path) -> None:
    config = _loopy_config(tmp_path)
    line = one_line_error(run_cli("lint", config, "--timeout", "soon"))
    assert line == "toolsearch lint: error: argument --timeout/--connect-timeout: expected a positive number of seconds, got 'soon'"
    result = run_cli("lint", config, "--timeout", "0.01", "--json")
    assert "no answer within 0.01 s while connecting" in result.stderr
    # its only server did not list: nothing was read from the config, which is refused
    assert (result.returncode, result.stdout) == (2, "")
    assert f"toolsearch: error: {config}: no server listed its tools (1 server failed:" in result.stderr


def test_recorded_tools_list_with_an_empty_next_cursor_is_flagged(tmp_path) -> None:
    path = write_json(tmp_path / "recorded.json", {"tools": [
        {"name": "ping", "description": "Check the server answers.", "inputSchema": {"type": "object"}}],
        "nextCursor": ""})
    result = run_cli("plan", path)
    assert f"toolsearch: catalog warning: {path}: nextCursor: {EMPTY_CURSOR}" in result.stderr.splitlines()
    findings = json.loads(run_cli("lint", path, "--json").stdout)["findings"]
    assert [(f["rule"], f["server"]) for f in findings] == [("next-cursor-empty", "recorded")]


def test_mcp_tool_with_parameters_instead_of_input_schema_is_reported(tmp_path) -> None:
    path = write_json(tmp_path / "listing.json", {"server": "kb", "tools": [
        {"name": "find", "description": "Find an article.", "parameters": {"type": "object"}}]})
    result = run_cli("plan", path)
    assert result.returncode == 0
    assert (f"toolsearch: catalog warning: {path}: tools[0].parameters: an MCP tool carries its schema in "
            "'inputSchema', not 'parameters'; registered with no parameters ('parameters' is kept as an unknown key)"
            in result.stderr.splitlines())


def test_describe_sent_escapes_format_characters(tmp_path) -> None:
    path = write_yaml(tmp_path / "bidi.yaml", {"servers": [{"name": "s", "tools": [
        {"name": "t", "description": "A tool.",
         "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "a\u202eb"}}}}]}]})
    for extra in ([], ["--json"]):
        result = run_cli("describe", path, "mcp__s__t", "--sent", *extra)
        assert result.returncode == 0, result.stderr
        assert "\u202e" not in result.stdout
        # text: the marker the app shows in a schema; --json: the JSON escape of the exact response
        assert ("\\u202e" if extra else "⟨U+202E⟩") in result.stdout


def test_a_tool_with_nan_or_infinity_is_skipped_with_a_word_and_json_output_stays_valid(tmp_path) -> None:
    """JSON has no NaN or Infinity, but Python's parser reads them (and 1e999 as infinity), and YAML
    has .nan and .inf: such a tool made `plan --json` and `describe` print invalid JSON (a bare
    NaN), which a harness would also send. The tool is skipped with a line naming the place."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"servers": [{"name": "s", "tools": ['
                   '{"name": "nan", "inputSchema": {"type": "object", "properties": {"x": {"maximum": NaN}}}},'
                   '{"name": "big", "inputSchema": {"type": "object", "properties": {"x": {"default": 1e999}}}},'
                   '{"name": "good", "description": "Fine."}]}]}', encoding="utf-8")
    yml = tmp_path / "bad.yaml"
    yml.write_text("servers:\n- name: y\n  tools:\n  - name: inf\n    annotations: {weight: -.inf}\n", encoding="utf-8")
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in JSON output")

    result = run_cli("describe", bad, yml, "mcp__s__nan", "mcp__y__inf", "mcp__s__good", "--json")
    assert result.returncode == 1, result.stderr  # the two dropped tools are not found
    described = result.stdout
    assert list(json.loads(described, parse_constant=refuse)["tools"]) == ["mcp__s__good"]
    result = run_cli("plan", bad, yml)
    assert result.returncode == 0, result.stderr
    assert "mcp__s__good" in result.stdout and "mcp__s__nan" not in result.stdout
    assert result.stderr.splitlines() == [
        f"toolsearch: catalog error: {bad}: servers[0].tools[0].inputSchema.properties.x.maximum: NaN is not a "
        "JSON number (a request carrying this tool would not be valid JSON); tool skipped",
        f"toolsearch: catalog error: {bad}: servers[0].tools[1].inputSchema.properties.x.default: Infinity is not "
        "a JSON number (a request carrying this tool would not be valid JSON); tool skipped",
        f"toolsearch: catalog error: {yml}: servers[0].tools[0].annotations.weight: -Infinity is not a JSON "
        "number (a request carrying this tool would not be valid JSON); tool skipped"]


@pytest.mark.parametrize("flag, value, expected", [
    ("--context-lengths", ",,,", "expected comma-separated context lengths, got ',,,'"),
    ("--threshold-pcts", " , ", "expected comma-separated numbers of percent, got ' , '"),
    ("--listing-max-tokens", ",", "expected comma-separated whole numbers of tokens, got ','"),
])
def test_sweep_refuses_an_empty_list(tiny, flag, value, expected) -> None:
    """`sweep --context-lengths ,,,` printed an empty table with exit status 0."""
    assert one_line_error(run_cli("sweep", tiny, f"{flag}={value}")).endswith(f"argument {flag}: {expected}")


EMPTY_ITEM = ("item 2 of '8000,,32000' is empty: expected a context length such as 32000 or 32k between each two "
              "commas (two commas in a row, or a comma at an end, leave an item out)")


@pytest.mark.parametrize("args, flag", [
    (("sweep", "{c}", "--context-lengths", "8000,,32000"), "--context-lengths"),
    (("recommend", "{c}", "--goal", "names", "--context-lengths", "8000,,32000"), "--context-lengths"),
    (("check", "{c}", "--goal", "names", "--context-lengths", "8000,,32000"), "--context-lengths"),
    (("report", "{c}", "-o", "{o}", "--context-lengths", "8000,,32000"), "--context-lengths"),
    (("harnesses", "{c}", "--context-lengths", "8000,,32000"), "--context-lengths"),
    (("sessions", "{s}", "--catalog", "{c}", "--context-lengths", "8000,,32000"), "--context-lengths"),
], ids=lambda value: value[0] if isinstance(value, tuple) else "")
def test_an_empty_item_in_a_list_of_context_lengths_is_refused_naming_its_place(tiny, tmp_path, args, flag) -> None:
    """`--context-lengths 8000,,32000` planned at 8000 and 32000 without a word about the item
    between the commas: refused, saying which item and what was expected."""
    sessions = Path(__file__).resolve().parent.parent / "sample_sessions" / "hermes-export.jsonl"
    line = one_line_error(run_cli(*[a.format(c=tiny, o=tmp_path / "r.html", s=sessions) for a in args]))
    assert line == f"toolsearch {args[0]}: error: argument {flag}: {EMPTY_ITEM}"


def test_an_empty_item_in_the_other_number_lists_is_refused_too(tiny) -> None:
    line = one_line_error(run_cli("sweep", tiny, "--context-lengths", "32k,200k,"))
    assert line.endswith("item 3 of '32k,200k,' is empty: expected a context length such as 32000 or 32k between "
                         "each two commas (two commas in a row, or a comma at an end, leave an item out)")
    line = one_line_error(run_cli("sweep", tiny, "--threshold-pcts", ",1,2"))
    assert line.endswith("argument --threshold-pcts: item 1 of ',1,2' is empty: expected a number of percent such "
                         "as 2.5 between each two commas (two commas in a row, or a comma at an end, leave an item out)")
    line = one_line_error(run_cli("sweep", tiny, "--listing-max-tokens", "4000, ,8000"))
    assert "argument --listing-max-tokens: item 2 of '4000, ,8000' is empty: expected a whole number of tokens" in line


GOAL_ITEM = ("is empty: expected a goal (full, names, listed, any) or LENGTH=GOAL such as 200k=full between each two "
             "commas (two commas in a row, or a comma at an end, leave an item out)")


@pytest.mark.parametrize("command, value, position", [
    ("recommend", "names,,1m=full", 2), ("check", "names,1m=full,", 3), ("report", ",names", 1),
    ("recommend", "names, ,1m=full", 2),
])
def test_an_empty_item_in_goal_is_refused_naming_its_place(tiny, tmp_path, command, value, position) -> None:
    """`--goal "names,,1m=full"` was read as `names,1m=full` without a word, while every other list
    option refuses an empty item: refused the same way, naming the item."""
    extra = ("-o", tmp_path / "r.html") if command == "report" else ()
    line = one_line_error(run_cli(command, tiny, "--context-lengths", "32k,1m", "--goal", value, *extra))
    assert line == f"toolsearch {command}: error: argument --goal: item {position} of '{value}' {GOAL_ITEM}"
    assert not (tmp_path / "r.html").exists()


def test_goal_without_any_item_keeps_its_message(tiny) -> None:
    line = one_line_error(run_cli("check", tiny, "--context-lengths", "32k", "--goal", ","))
    assert line == ("toolsearch check: error: argument --goal: expected a goal (full, names, listed, any) or "
                    "LENGTH=GOAL items, got ','")


@pytest.mark.parametrize("args, flag, value, digit", [
    (("plan", "{c}"), "--context-length", "١٢٠٠٠", "'١' is arabic-indic digit one"),
    (("plan", "{c}"), "--threshold-pct", "１２", "'１' is fullwidth digit one"),
    (("plan", "{c}"), "--listing-max-tokens", "4٠00", "'٠' is arabic-indic digit zero"),
    (("plan", "{c}"), "--timeout", "１", "'１' is fullwidth digit one"),
    (("sweep", "{c}"), "--context-lengths", "१२८k", "'१' is devanagari digit one"),
    (("recommend", "{c}", "--context-lengths", "32k", "--goal", "names"), "--headroom", "١٠", "'١' is arabic-indic digit one"),
    (("check", "{c}", "--context-lengths", "32k", "--goal", "names"), "--max-listing-tokens", "٣", "'٣' is arabic-indic digit three"),
    (("strategies", "{c}"), "--tool-tokens", "５", "'５' is fullwidth digit five"),
    (("synth",), "--seed", "١", "'١' is arabic-indic digit one"),
    (("synth",), "--tools", "５", "'５' is fullwidth digit five"),
], ids=lambda value: value if isinstance(value, str) and value.startswith("--") else "")
def test_digits_of_other_scripts_are_refused_by_the_number_options(tiny, args, flag, value, digit) -> None:
    """Python's int() and float() read ١٢٠٠٠ (Arabic-Indic) and １２ (fullwidth) as 12000 and 12, so
    the number options took them without a word; every output writes 0-9. Refused, naming the digit."""
    line = one_line_error(run_cli(*[a.format(c=tiny) for a in args], flag, value))
    assert line == (f"toolsearch {args[0]}: error: argument {flag}: expected a number written with the digits 0-9, "
                    f"got '{value}' ({digit})")


def test_digits_of_other_scripts_in_a_goal_length_and_eval_limit_are_refused(tiny) -> None:
    line = one_line_error(run_cli("check", tiny, "--context-lengths", "32k", "--goal", "names,٣٢k=full"))
    assert line.endswith("argument --goal: '٣٢k=full': expected a number written with the digits 0-9, got '٣٢k' "
                         "('٣' is arabic-indic digit three)")
    queries = Path(__file__).resolve().parent.parent / "sample_catalogs" / "queries" / "team-workspace.yaml"
    line = one_line_error(run_cli("eval", tiny, queries, "--limit", "٣"))
    assert line.endswith("argument --limit: expected a number written with the digits 0-9, got '٣' "
                         "('٣' is arabic-indic digit three)")


def test_a_blank_server_name_is_kept_with_a_warning(tmp_path) -> None:
    """A server named "" registered its tools as mcp____TOOL under a blank group heading, without
    a word."""
    path = write_yaml(tmp_path / "blank.yaml", {"servers": [{"name": " ", "tools": [{"name": "t"}]}]})
    result = run_cli("plan", path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"toolsearch: catalog warning: {path}: servers[0].name: expected a non-empty server name; the server is "
        "kept, but its tools are listed under a blank group heading"]


def test_json_with_an_escaped_emoji_reads_as_json_in_every_yaml_reader(tmp_path):
    """json.dumps writes a character past U+FFFF as a surrogate pair ("\\ud83d\\ude00"). JSON is
    YAML, but libyaml refuses those escapes ("found invalid Unicode character escape code", told
    as an unclosed string) and PyYAML's own parser reads two lone surrogates: a JSON scope file,
    events file or wording profile with an emoji in it could not be read. JSON text is read as
    JSON by every reader."""
    from toolsearch.engine import readers
    from toolsearch.engine.errors import ToolsearchError

    data = {"scopes": {"bot \U0001F600": ["github"]}}
    assert readers.load_yaml(json.dumps(data), "scopes.json") == data
    assert readers.load_yaml(" " + json.dumps([1, {"a": "\U000E0041"}]), "x.json") == [1, {"a": "\U000E0041"}]
    with pytest.raises(ToolsearchError, match="the key 'a' is given twice"):
        readers.load_yaml('{"a": 1, "a": 2}', "dup.json")
    with pytest.raises(ToolsearchError, match="nested more than 256 levels"):
        readers.load_yaml("[" * 300 + "]" * 300, "deep.json")


def test_a_bad_escape_in_a_yaml_string_is_not_called_an_unclosed_string():
    """Every error inside a double-quoted YAML string was reported as "a quoted string starts
    here and is not closed", at the opening quote, also when the string was closed and the
    problem was an escape such as "\\q": the message sent the user looking for a missing quote."""
    from toolsearch.engine import readers
    from toolsearch.engine.errors import ToolsearchError

    text = 'servers:\n  - name: s\n    description: "tab\\there \\q"\n'
    with pytest.raises(ToolsearchError) as info:
        readers.load_yaml(text, "c.yaml")
    assert str(info.value) == ("c.yaml: line 3, column 30: not valid YAML (found unknown escape character 'q', "
                               "in the quoted string that starts at line 3, column 18)")
    with pytest.raises(ToolsearchError) as info:
        readers.load_yaml('a: "open\nb: 1\n', "d.yaml")
    assert "a quoted string starts here and is not closed" in str(info.value)


def test_a_name_yaml_reads_as_a_date_a_boolean_or_a_number_is_named_as_such(tmp_path):
    """Unquoted in YAML, a server named 2024-01-01 is a date and a tool named on is a boolean: the
    problem said only "expected the server name as a string", with nothing about what was read or
    how to keep it. It now says what the value was read as and to quote it; a missing name reads
    as before."""
    path = tmp_path / "names.yaml"
    path.write_text("servers:\n  - name: 2024-01-01\n    tools: []\n  - name: s\n    tools:\n      - name: on\n"
                    "      - name: 1.0\n      - name: ' '\n      - description: no name\n      - name: ok\n",
                    encoding="utf-8")
    result = run_cli("plan", path)
    assert result.returncode == 0
    quote = "(put the name in quotes to keep it as text)"
    assert result.stderr.splitlines() == [
        f"toolsearch: catalog error: {path}: servers[0].name: expected the server name as a string, got the date "
        f"2024-01-01 {quote}; server skipped",
        f"toolsearch: catalog error: {path}: servers[1].tools[0]: expected a non-empty string 'name', got the boolean "
        f"true {quote}; tool skipped",
        f"toolsearch: catalog error: {path}: servers[1].tools[1]: expected a non-empty string 'name', got the number "
        f"1.0 {quote}; tool skipped",
        f"toolsearch: catalog error: {path}: servers[1].tools[2]: expected a non-empty string 'name', got a blank "
        "string; tool skipped",
        f"toolsearch: catalog error: {path}: servers[1].tools[3]: expected a non-empty string 'name'; tool skipped"]


def test_a_tab_used_as_indentation_is_named_with_the_fix(tmp_path):
    """PyYAML's "found character '\\t' that cannot start any token" does not say what to do: the
    message adds that YAML takes spaces there, for a harness config and a catalog alike."""
    from conftest import run_cli

    config = tmp_path / "config.yaml"
    config.write_text("tools:\n\ttool_search:\n\t\tthreshold_pct: 3\n", encoding="utf-8")
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text("servers:\n  - name: a\n\ttools: []\n", encoding="utf-8")
    team = Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml"
    done = run_cli("check", team, "--config", config, "--context-lengths", "32k", "--goal", "names")
    assert done.returncode == 2
    assert done.stderr == (f"toolsearch: error: {config}: line 2, column 1: not valid YAML (found character '\\t' "
                           "that cannot start any token; YAML allows no tab here: indent with spaces)\n")
    done = run_cli("plan", catalog)
    assert done.returncode == 2
    assert f"{catalog}: line 3, column 1: not valid YAML or JSON (found character '\\t' that cannot start any token; " \
           "YAML allows no tab here: indent with spaces)" in done.stderr


def test_a_long_wrong_value_is_quoted_cut_in_the_warning(tmp_path):
    """A server's 'kind' of 200,000 characters (or a flat tool's 'server' that is a long list)
    was quoted whole: one warning line of 200,000 characters. It is cut as every message cuts a
    long name or value (with its length), and the rest of the catalog is read."""
    path = write_json(tmp_path / "long.json", {"servers": [
        {"name": "s", "kind": "x" * 200_000, "tools": [{"name": "t", "inputSchema": {"type": "object"}}]}]})
    result = run_cli("plan", path, "--json")
    assert result.returncode == 0 and json.loads(result.stdout)["deferred_count"] == 1, result.stderr
    assert result.stderr == (f"toolsearch: catalog warning: {path}: servers[0].kind: expected one of mcp, plugin, core, "
                             f"got '{'x' * 79}…' (200,000 characters); using mcp\n")
    flat = write_json(tmp_path / "flat.json", [{"name": "t", "server": list(range(50_000)),
                                                "inputSchema": {"type": "object"}}])
    result = run_cli("plan", flat)
    assert result.returncode == 0, result.stderr
    (line,) = [ln for ln in result.stderr.splitlines() if "[0].server" in ln]
    assert len(line) < 400 and "got [0, 1, 2, 3" in line and "… (338,890 characters); the tool is put in server 'flat'" in line, line
