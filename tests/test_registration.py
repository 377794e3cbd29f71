"""Catalog loading and MCP registration (DESIGN.md catalog format; docs/reference.md §21, §22, §24, §25.1, §30).

Conformance examples 1–15 and 33–42 of docs/reference.md §30, the three accepted catalog shapes, lenient
loading of bad items, and the "2L per tool" term of the utility-tool token table (docs/reference.md §24.3).
"""

from __future__ import annotations

import hashlib
import json

import pytest

from conftest import compact, write_json, write_yaml
from toolsearch.engine.catalog import (
    Catalog,
    Server,
    Tool,
    catalog_from_data,
    catalog_to_data,
    combine,
    dump_catalog,
    load_source,
    load_sources,
    load_text,
)
from toolsearch.engine.errors import CatalogError
from toolsearch.engine.registration import (
    clamp_tool_name,
    filter_tool_names,
    make_tool,
    mcp_prefixed_tool_name,
    parse_bool_like,
    register_catalog,
    sanitize_name_part,
    strip_tag_characters,
)

# --- docs/reference.md §30 cases 1–13: naming ------------------------------------------------------------------

NAMING_CASES = [
    (1, "weather", "get_forecast", "mcp__weather__get_forecast"),
    (2, "jira-cloud", "create.issue", "mcp__jira_cloud__create_issue"),
    (3, "Team Notes", "Add Page!", "mcp__Team_Notes__Add_Page_"),
    (4, "café", "thé", "mcp__caf___th_"),
    (5, "box", "📦ship", "mcp__box___ship"),
    (6, "", "ping", "mcp____ping"),
    (7, "crm", "export contacts (CSV) → drive", "mcp__crm__export_contacts__CSV____drive"),
    (8, "crm", "export_contacts_with_custom_fields_to_spreadsheet_ver2",
     "mcp__crm__export_contacts_with_custom_fields_to_spreadsheet_ver2"),
    (9, "crm", "export_contacts_with_custom_fields_to_spreadsheet_ver2s",
     "mcp__crm__export_contacts_with_custom_fields_to_spreads_068efbe0"),
    (10, "northwind-logistics-prod", "recalculate_shipment_routing_for_delayed_orders",
     "mcp__northwind_logistics_prod__recalculate_shipment_rou_a6932d66"),
    (11, "warehouse-robotics-fleet-telemetry-eu-north-1-st", "ping_all_robots",
     "mcp__warehouse_robotics_fleet_telemetry_eu_north_1_st___6b7d4dfb"),
    (12, "customer-success-analytics-warehouse-replica-for-quarterly-reporting", "run",
     "mcp__customer_success_analytics_warehouse_replica_for_q_ee3bf7d1"),
    (13, "orders-archive-replica-eu-central-1-primary-readonly", "q",
     "mcp__orders_archive_replica_eu_central_1_primary_readonly__q"),
]


@pytest.mark.parametrize("case, server, tool, expected", NAMING_CASES, ids=[f"case{c[0]}" for c in NAMING_CASES])
def test_reg_naming_conformance(case, server, tool, expected) -> None:
    assert mcp_prefixed_tool_name(server, tool) == expected


def test_case1_length_and_cases_8_to_12_are_exactly_64() -> None:
    assert len(mcp_prefixed_tool_name("weather", "get_forecast")) == 26
    for _, server, tool, expected in NAMING_CASES[7:12]:
        assert len(expected) == 64
    assert len(NAMING_CASES[12][3]) == 60


def test_clamp_uses_sha256_of_the_whole_unclamped_name() -> None:
    full = "mcp__" + "x" * 70
    digest = hashlib.sha256(full.encode("utf-8")).hexdigest()[:8]
    assert clamp_tool_name(full) == full[:55] + "_" + digest
    assert clamp_tool_name("a" * 64) == "a" * 64
    assert clamp_tool_name("a" * 65) == "a" * 55 + "_" + hashlib.sha256(b"a" * 65).hexdigest()[:8]


def test_sanitize_name_part() -> None:
    assert sanitize_name_part(None) == ""
    assert sanitize_name_part("a-b.c d/e:f") == "a_b_c_d_e_f"
    assert sanitize_name_part("__x__") == "__x__"
    # a two-code-point emoji sequence gives two underscores (one per code point)
    assert sanitize_name_part("\u2764\ufe0f") == "__"


# --- docs/reference.md §22 / case 14–15: descriptions -----------------------------------------------------------

def test_case15_tag_stripping() -> None:
    assert strip_tag_characters("Hi\U000E0041\U000E0042 there") == "Hi there"
    assert strip_tag_characters("x\U000E007F") == "x"
    flag = "Flag \U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F ok"
    assert strip_tag_characters(flag) == flag
    assert strip_tag_characters("  ") == "  "
    # a black flag with tags but no terminator is not a valid sequence: the tags go
    assert strip_tag_characters("\U0001F3F4\U000E0067\U000E0062!") == "\U0001F3F4!"
    assert strip_tag_characters("\U000E0000a\U000E0020") == "a"


def _mcp_catalog(tools, name="srv", **server_keys) -> Catalog:
    return Catalog("t", (Server(name=name, kind="mcp", tools=tuple(tools), **server_keys),))


def test_case14_default_description_uses_raw_names(profile) -> None:
    reg = register_catalog(_mcp_catalog([Tool("do.it")], name="my-srv"))
    (tool,) = reg.tools
    assert tool.name == "mcp__my_srv__do_it"
    expected = profile.text("registration", "default_description", tool="do.it", server="my-srv")
    assert tool.description == expected
    assert "do.it" in tool.description and "my-srv" in tool.description
    assert "do_it" not in tool.description and "my_srv" not in tool.description


def test_empty_description_gets_the_default_but_whitespace_is_kept(profile) -> None:
    reg = register_catalog(_mcp_catalog([Tool("a", ""), Tool("b", "  "), Tool("c", "Hi\U000E0041.")]))
    by = {t.raw_name: t.description for t in reg.tools}
    assert by["a"] == profile.text("registration", "default_description", tool="a", server="srv")
    assert by["b"] == "  "
    assert by["c"] == "Hi."


def test_tag_strip_applies_to_the_top_level_description_only() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string", "description": "x\U000E0041y"}}}
    reg = register_catalog(_mcp_catalog([Tool("t", "d\U000E0041e", schema)]))
    (tool,) = reg.tools
    assert tool.description == "de"
    assert tool.parameters["properties"]["q"]["description"] == "x\U000E0041y"


def test_plugin_and_core_tools_keep_their_names_and_go_through_stage_b_only() -> None:
    catalog = Catalog("t", (
        Server("kanban", "plugin", (Tool("board.move", "Move a card."),)),
        Server("core", "core", (Tool("terminal", None, {"type": "object", "properties": {"cmd": {"type": "string"}}}),)),
    ))
    reg = register_catalog(catalog)
    by = reg.by_name()
    assert set(by) == {"board.move", "terminal"}
    assert by["board.move"].toolset == "kanban" and by["board.move"].label == "kanban"
    assert by["terminal"].description == ""
    assert compact(by["terminal"].definition) == (
        '{"type":"function","function":{"name":"terminal","description":"",'
        '"parameters":{"type":"object","properties":{"cmd":{"type":"string"}},"required":[]}}}')


def test_as_is_naming_keeps_mcp_catalog_names() -> None:
    reg = register_catalog(_mcp_catalog([Tool("create.issue", "x")], name="gh"), naming="as-is")
    assert [t.name for t in reg.tools] == ["create.issue"]
    assert reg.tools[0].toolset == "mcp-gh"
    with pytest.raises(ValueError):
        register_catalog(_mcp_catalog([]), naming="weird")


def test_registration_is_sorted_by_wire_name_and_keeps_raw_names() -> None:
    reg = register_catalog(_mcp_catalog([Tool("zeta", "z"), Tool("alpha", "a"), Tool("mid-x", "m")], name="s"))
    assert [t.name for t in reg.tools] == ["mcp__s__alpha", "mcp__s__mid_x", "mcp__s__zeta"]
    assert [t.raw_name for t in reg.tools] == ["alpha", "mid-x", "zeta"]
    assert all(t.server == "s" and t.kind == "mcp" and t.source == "mcp" for t in reg.tools)


# --- docs/reference.md §25.1, cases 33–38: include / exclude ---------------------------------------------------

FILTER_NAMES = ["get_user", "getuser", "list_users", "docs", "docs_search", "delete_user"]


@pytest.mark.parametrize("config, kept, warns", [
    ({"include": ["get_*"]}, ["get_user"], 0),                                          # 33
    ({"include": []}, [], 0),                                                           # 34
    ({"include": ["docs"], "exclude": ["docs"]}, ["docs"], 0),                          # 35
    ({"exclude": ["docs"]}, ["get_user", "getuser", "list_users", "docs_search", "delete_user"], 0),  # 36
    ({"exclude": "*_user"}, ["getuser", "list_users", "docs", "docs_search"], 0),        # 37
    ({"include": {"a": 1}}, FILTER_NAMES, 1),                                           # 38
    ({"include": "docs*"}, ["docs", "docs_search"], 0),
    ({"include": ["Docs"]}, [], 0),                                                     # case-sensitive
    ({"include": ["get?ser"]}, ["getuser"], 0),
    ({"include": ["[gl]*"]}, ["get_user", "getuser", "list_users"], 0),
    ({"exclude": 5}, FILTER_NAMES, 1),
    ({"include": {"a": 1}, "exclude": ["docs"]}, ["get_user", "getuser", "list_users", "docs_search", "delete_user"], 1),
    (None, FILTER_NAMES, 0),
])
def test_filters_cases_33_to_38(config, kept, warns) -> None:
    result, warnings = filter_tool_names(FILTER_NAMES, config)
    assert result == kept
    assert len(warnings) == warns


def test_case38_warning_names_the_key() -> None:
    _, warnings = filter_tool_names(FILTER_NAMES, {"include": {"a": 1}})
    assert warnings == ["tools.include: expected a list or a string, got a mapping; ignored"]


def test_filters_match_raw_names_in_registration_and_never_drop_utilities() -> None:
    tools = [Tool(n, "d") for n in FILTER_NAMES] + [Tool("get-item", "d")]
    catalog = _mcp_catalog(tools, name="svc", capabilities={"resources": {}},
                           config={"tools": {"include": ["get_*", "get-*"]}})
    names = [t.name for t in register_catalog(catalog).tools]
    assert names == ["mcp__svc__get_item", "mcp__svc__get_user", "mcp__svc__list_resources",
                     "mcp__svc__read_resource"]


def test_include_empty_with_resources_leaves_only_resource_utilities() -> None:
    catalog = _mcp_catalog([Tool("a", "d")], name="svc", capabilities={"resources": {}},
                           config={"tools": {"include": []}})
    assert [t.name for t in register_catalog(catalog).tools] == ["mcp__svc__list_resources", "mcp__svc__read_resource"]


# --- docs/reference.md §21.5, cases 39–40: collisions ------------------------------------------------------------

def test_case39_two_natives_on_one_wire_name_are_both_skipped() -> None:
    reg = register_catalog(_mcp_catalog([Tool("read-file", "a"), Tool("read_file", "b"), Tool("ok", "c")], name="fs"))
    assert [t.name for t in reg.tools] == ["mcp__fs__ok"]
    errors = [p for p in reg.problems if p.severity == "error"]
    assert len(errors) == 1
    assert "'read-file', 'read_file'" in errors[0].message and "mcp__fs__read_file" in errors[0].message


def test_case40_native_tool_beats_the_generated_utility() -> None:
    reg = register_catalog(_mcp_catalog([Tool("read_resource", "Native reader.")], name="docs",
                                        capabilities={"resources": {}}))
    by = reg.by_name()
    assert sorted(by) == ["mcp__docs__list_resources", "mcp__docs__read_resource"]
    assert by["mcp__docs__read_resource"].description == "Native reader."
    assert by["mcp__docs__read_resource"].utility is False
    assert by["mcp__docs__list_resources"].utility is True


def test_same_tool_listed_twice_keeps_the_first() -> None:
    reg = register_catalog(_mcp_catalog([Tool("a", "first"), Tool("a", "second")]))
    assert [(t.name, t.description) for t in reg.tools] == [("mcp__srv__a", "first")]


def test_cross_server_collision_first_registration_wins() -> None:
    catalog = Catalog("t", (
        Server("my_api", "mcp", (Tool("ping", "from underscore"),)),
        Server("my-api", "mcp", (Tool("ping", "from hyphen"),)),
    ))
    reg = register_catalog(catalog)
    assert [(t.name, t.server) for t in reg.tools] == [("mcp__my_api__ping", "my-api")]
    warnings = [p.message for p in reg.problems if p.severity == "warning"]
    assert warnings == ["tool name 'mcp__my_api__ping' is already registered by server 'my-api'; "
                        "the registry keeps the first and skips this one"]
    # Servers register in name order, so the input order does not change the winner.
    flipped = register_catalog(Catalog("t", tuple(reversed(catalog.servers))))
    assert [(t.name, t.server) for t in flipped.tools] == [("mcp__my_api__ping", "my-api")]


# --- docs/reference.md §24, case 41: utilities ---------------------------------------------------------------------

@pytest.mark.parametrize("capabilities, config, expected", [
    ({"tools": {}, "prompts": {}}, {}, ["get_prompt", "list_prompts"]),
    ({"tools": {}, "prompts": {}}, {"tools": {"prompts": "off"}}, []),
    ({"tools": {}, "prompts": {}}, {"tools": {"prompts": False}}, []),
    ({"resources": {}, "prompts": {}}, {}, ["get_prompt", "list_prompts", "list_resources", "read_resource"]),
    ({"resources": {}, "prompts": {}}, {"tools": {"resources": "no"}}, ["get_prompt", "list_prompts"]),
    ({"resources": None, "tools": {}}, {}, []),
    ({"tools": {}}, {}, []),
])
def test_case41_utilities_follow_capabilities_and_config(capabilities, config, expected) -> None:
    catalog = _mcp_catalog([], name="u", capabilities=capabilities, config=config)
    reg = register_catalog(catalog)
    assert sorted(t.raw_name for t in reg.tools) == expected
    assert all(t.utility and t.name == "mcp__u__" + t.raw_name for t in reg.tools)


def test_utility_schemas_have_the_fixed_shape(profile) -> None:
    reg = register_catalog(_mcp_catalog([], name="gh", capabilities={"resources": {}, "prompts": {}}))
    by = {t.raw_name: t for t in reg.tools}
    assert compact(by["list_resources"].parameters) == '{"type":"object","properties":{},"required":[]}'
    assert compact(by["read_resource"].parameters) == (
        '{"type":"object","properties":{"uri":{"type":"string","description":'
        + json.dumps(profile.text("registration", "uri"), ensure_ascii=False) + '}},"required":["uri"]}')
    get_prompt = by["get_prompt"].parameters
    assert list(get_prompt) == ["type", "properties", "required"]
    assert get_prompt["required"] == ["name"]
    assert list(get_prompt["properties"]["arguments"]) == [
        "type", "description", "properties", "additionalProperties", "required"]
    assert get_prompt["properties"]["arguments"]["required"] == []
    for key, tool in by.items():
        assert list(tool.definition["function"]) == ["name", "description", "parameters"]
        assert tool.description == profile.text("registration", key, server="gh")
        assert tool.description.endswith("'gh'.")


def test_utility_token_table_has_2L_per_tool() -> None:
    # docs/reference.md §24.3: the constants depend on wording, the 2L-per-tool term does not.
    def sizes(server: str) -> dict[str, int]:
        reg = register_catalog(_mcp_catalog([], name=server, capabilities={"resources": {}, "prompts": {}}))
        return {t.raw_name: len(compact(t.definition)) for t in reg.tools}

    short, long = sizes("gh"), sizes("github-enterprise")     # L = 2 and L = 17
    assert set(short) == {"list_resources", "read_resource", "list_prompts", "get_prompt"}
    for key in short:
        assert long[key] - short[key] == 2 * (17 - 2)
    assert sum(long.values()) - sum(short.values()) == 8 * (17 - 2)


# --- case 42: toolsets and labels -----------------------------------------------------------------

@pytest.mark.parametrize("server, toolset, label, name", [
    ("mcp-foo", "mcp-mcp-foo", "mcp-foo", "mcp__mcp_foo__t"),
    ("my.api", "mcp-my.api", "my.api", "mcp__my_api__t"),
    ("github", "mcp-github", "github", "mcp__github__t"),
])
def test_case42_toolset_label_and_names(server, toolset, label, name) -> None:
    (tool,) = register_catalog(_mcp_catalog([Tool("t", "d")], name=server)).tools
    assert (tool.toolset, tool.label, tool.name, tool.source_name) == (toolset, label, name, toolset)


def test_make_tool_kinds() -> None:
    mcp = make_tool("a", server="github")
    plugin = make_tool("b", kind="plugin", server="kanban")
    core = make_tool("c", kind="core", server="files")
    unreg = make_tool("d", kind="unregistered")
    assert (mcp.toolset, mcp.label, mcp.source, mcp.source_name) == ("mcp-github", "github", "mcp", "mcp-github")
    assert (plugin.toolset, plugin.label, plugin.source) == ("kanban", "kanban", "plugin")
    assert (core.toolset, core.label, core.source) == ("files", "files", "plugin")
    assert (unreg.toolset, unreg.label, unreg.source, unreg.source_name) == (None, "other", "other", "")


@pytest.mark.parametrize("value, expected", [
    (None, (True, True)), (True, (True, True)), (0, (False, True)), (2, (True, True)),
    (" Yes ", (True, True)), ("OFF", (False, True)), ("no", (False, True)), ("maybe", (True, False)),
    ([], (True, False)),
])
def test_parse_bool_like(value, expected) -> None:
    assert parse_bool_like(value) == expected


# --- catalog loading: the three shapes ------------------------------------------------------------

def test_catalog_yaml_shape(tmp_path) -> None:
    path = write_yaml(tmp_path / "cat.yaml", {
        "name": "Five", "owner": "me",
        "servers": [
            {"name": "github", "tools": [
                {"name": "create_issue", "description": "Open.", "inputSchema": {"type": "object"},
                 "annotations": {"readOnlyHint": False}, "x-extra": [1, 2]}],
             "region": "eu", "capabilities": {"tools": {}}},
            {"name": "kb", "kind": "plugin", "tools": [{"name": "search"}]},
        ]})
    catalog = load_source(path)
    assert catalog.name == "Five"
    assert catalog.extra == {"owner": "me"}
    assert [(s.name, s.kind) for s in catalog.servers] == [("github", "mcp"), ("kb", "plugin")]
    gh = catalog.servers[0]
    assert gh.extra == {"region": "eu"}
    assert gh.capabilities == {"tools": {}}
    tool = gh.tools[0]
    assert (tool.name, tool.description, tool.input_schema) == ("create_issue", "Open.", {"type": "object"})
    assert tool.extra == {"annotations": {"readOnlyHint": False}, "x-extra": [1, 2]}
    assert catalog.servers[1].tools[0].description is None
    assert catalog.problems == ()


def test_unknown_keys_round_trip_through_catalog_to_data(tmp_path) -> None:
    data = {
        "name": "RT", "owner": "me",
        "servers": [{"name": "github", "kind": "mcp", "capabilities": {"resources": {}}, "region": "eu",
                     "tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object"},
                                "annotations": {"readOnlyHint": True}, "title": "T"}]}],
    }
    catalog = catalog_from_data(data, "rt.yaml")
    out = catalog_to_data(catalog)
    assert out == data
    assert catalog_from_data(out, "rt.yaml") == catalog
    path = tmp_path / "again.yaml"
    path.write_text(dump_catalog(catalog), encoding="utf-8")
    assert catalog_to_data(load_source(path)) == data


def test_tools_list_json_takes_the_server_key(tmp_path) -> None:
    path = write_json(tmp_path / "recorded.json", {
        "server": "linear", "capabilities": {"prompts": {}},
        "tools": [{"name": "save_issue", "description": "Save.", "inputSchema": {"type": "object"}}]})
    catalog = load_source(path)
    assert [(s.name, s.kind) for s in catalog.servers] == [("linear", "mcp")]
    assert catalog.servers[0].capabilities == {"prompts": {}}
    assert [t.name for t in catalog.servers[0].tools] == ["save_issue"]


def test_tools_list_json_without_server_uses_the_file_stem_and_jsonrpc_envelope(tmp_path) -> None:
    path = write_json(tmp_path / "notion-export.json", {"jsonrpc": "2.0", "id": 1,
                                                        "result": {"tools": [{"name": "a"}], "nextCursor": "abc"}})
    catalog = load_source(path)
    assert [s.name for s in catalog.servers] == ["notion-export"]
    assert [str(p) for p in catalog.problems] == [
        f"warning: {path}: nextCursor: this tools/list page has a next cursor; later pages are not in the file"]


def test_openai_function_array(tmp_path) -> None:
    path = write_json(tmp_path / "funcs.json", [
        {"type": "function", "function": {"name": "get_weather", "description": "Weather.",
                                           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
         "strict": True},
        {"name": "bare", "description": "Bare form.", "parameters": {"type": "object"}},
    ])
    catalog = load_source(path)
    (server,) = catalog.servers
    assert (server.name, server.kind) == ("funcs", "plugin")
    weather, bare = server.tools
    assert weather.input_schema == {"type": "object", "properties": {"city": {"type": "string"}}}
    assert weather.extra == {"strict": True}
    assert (bare.name, bare.input_schema) == ("bare", {"type": "object"})
    names = [t.name for t in register_catalog(catalog).tools]
    assert names == ["bare", "get_weather"]


def test_mcp_client_config_is_refused_with_a_clear_message(tmp_path) -> None:
    path = write_json(tmp_path / "claude_desktop_config.json", {"mcpServers": {"x": {"command": "npx"}}})
    with pytest.raises(CatalogError, match="is an MCP client config"):
        load_source(path)


@pytest.mark.parametrize("text, fragment", [
    ("42\n", "top level: expected a catalog"),
    ("", "got an empty document"),
    ("[1, 2, 3]\n", "[0]: expected a function array (a list of tool objects), got a list whose first item is a whole number"),
    ('["a"]\n', "[0]: expected a function array"),
])
def test_unusable_documents_raise(text, fragment) -> None:
    with pytest.raises(CatalogError) as info:
        load_text(text, "x.json")
    assert str(info.value).startswith("x.json: ")
    assert fragment in str(info.value)


def test_empty_function_array_is_an_empty_catalog() -> None:
    catalog = load_text("[]", "empty.json")
    assert catalog.tool_count == 0 and catalog.problems == ()


def test_malformed_yaml_names_line_and_column(tmp_path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("servers:\n  - name: a\n    tools: [\n", encoding="utf-8")
    with pytest.raises(CatalogError) as info:
        load_source(path)
    assert str(info.value).startswith(f"{path}: line 4, column 1: not valid YAML or JSON")


def test_unreadable_and_non_utf8_files(tmp_path) -> None:
    with pytest.raises(CatalogError, match="cannot read file"):
        load_source(tmp_path / "missing.yaml")
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"name: caf\xe9\n")
    with pytest.raises(CatalogError, match=r": line 1, column 10 \(byte 9\): not UTF-8 text"):
        load_source(path)


# --- bad items load leniently --------------------------------------------------------------------

def test_bad_items_are_reported_by_place_and_the_rest_loads(tmp_path) -> None:
    path = write_yaml(tmp_path / "mixed.yaml", {"servers": [
        {"name": "a", "tools": [
            {"description": "no name"},
            {"name": "t1", "inputSchema": "string"},
            {"name": "t2", "description": 42},
            "just a string",
            {"name": "t3", "inputSchema": {"properties": {"x": {"type": "string"}}}},
        ]},
        "not a mapping",
        {"name": "b", "tools": [{"name": "ok"}], "kind": "weird"},
        {"name": 7, "tools": []},
        {"name": "c", "tools": {"name": "x"}},
    ]})
    catalog = load_source(path)
    assert [s.name for s in catalog.servers] == ["a", "b", "c"]
    assert [t.name for t in catalog.servers[0].tools] == ["t1", "t2", "t3"]
    assert catalog.servers[0].tools[1].description is None
    assert catalog.servers[1].kind == "mcp"
    problems = [(p.severity, p.where) for p in catalog.problems]
    f = str(path)
    assert problems == [
        ("error", f"{f}: servers[0].tools[0]"),
        ("warning", f"{f}: servers[0].tools[1].inputSchema"),
        ("warning", f"{f}: servers[0].tools[2].description"),
        ("error", f"{f}: servers[0].tools[3]"),
        ("info", f"{f}: servers[0].tools[4].inputSchema"),
        ("error", f"{f}: servers[1]"),
        ("warning", f"{f}: servers[2].kind"),
        ("error", f"{f}: servers[3].name"),
        ("error", f"{f}: servers[4].tools"),
    ]
    messages = {p.where.split(": ", 1)[1]: p.message for p in catalog.problems}
    assert messages["servers[0].tools[0]"] == "expected a non-empty string 'name'; tool skipped"
    assert messages["servers[0].tools[2].description"] == "expected a string, got a whole number; treated as missing"
    assert messages["servers[1]"].startswith("expected a server mapping with name and tools, got a string")
    # The non-object schema still registers, as an empty object schema.
    reg = register_catalog(catalog)
    t1 = reg.by_name()["mcp__a__t1"]
    assert compact(t1.parameters) == '{"type":"object","properties":{},"required":[]}'
    assert reg.problems[: len(catalog.problems)] == catalog.problems


# --- combining sources ----------------------------------------------------------------------------

def test_combine_two_files_merges_a_server_defined_twice(tmp_path) -> None:
    one = write_yaml(tmp_path / "one.yaml", {"name": "One", "servers": [
        {"name": "github", "tools": [{"name": "search", "description": "Search code."}]},
        {"name": "slack", "tools": [{"name": "post"}]}]})
    two = write_json(tmp_path / "two.json", {"server": "github", "tools": [{"name": "search"}, {"name": "x"}]})
    catalog = load_sources([one, two])
    assert catalog.name == "One + github"
    assert catalog.sources == (str(one), str(two))
    # A harness keys servers by name: both github definitions are one server (docs/reference.md §5.2, docs/reference.md §21.5).
    assert [s.name for s in catalog.servers] == ["github", "slack"]
    assert [t.name for t in catalog.servers[0].tools] == ["search", "search", "x"]
    assert catalog.duplicate_tool_names() == {}
    assert [str(p) for p in catalog.problems] == [
        f"warning: server 'github': defined 2 times ({one}, {two}); a harness keys servers by name, "
        "so their tools are merged into one server"]
    registration = register_catalog(catalog)
    assert [t.name for t in registration.tools] == ["mcp__github__search", "mcp__github__x", "mcp__slack__post"]
    # the first copy (by origin) is kept: its description survives
    assert registration.by_name()["mcp__github__search"].description == "Search code."
    assert any("listed more than once" in p.message for p in registration.problems)


def test_duplicate_tool_names_across_servers_in_one_file(tmp_path) -> None:
    path = write_yaml(tmp_path / "dup.yaml", {"servers": [
        {"name": "b", "tools": [{"name": "ping"}]}, {"name": "a", "tools": [{"name": "ping"}, {"name": "ping"}]}]})
    catalog = load_sources([path])
    assert catalog.duplicate_tool_names() == {"ping": ["a", "b"]}
    assert [p.message for p in catalog.problems if p.severity == "info"] == [
        "defined by several servers (a, b); kept apart"]


def test_combine_with_a_name_and_tool_count() -> None:
    a = catalog_from_data({"servers": [{"name": "s", "tools": [{"name": "x"}, {"name": "y"}]}]}, "a.yaml")
    b = catalog_from_data([{"name": "z"}], "b.json")
    combined = combine([a, b], name="Both")
    assert combined.name == "Both"
    assert combined.tool_count == 3
    assert [(s.name, s.kind) for s in combined.servers] == [("s", "mcp"), ("b", "plugin")]
