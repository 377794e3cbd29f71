"""Scale work keeps the engine exact: the cached and shortcut paths give the same bytes as the
straightforward ones, on random catalogs; the synthetic catalog generator and its CLI command.

Timings are not tested here (benchmarks/engine.py prints them).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from conftest import run_cli
from test_schema import json_like
from toolsearch.engine import constants as C
from toolsearch.engine import schema as S
from toolsearch.engine.catalog import Catalog, Server, Tool, load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.listing import choose_listing, render_groups
from toolsearch.engine.plan import Planner, split_tools
from toolsearch.engine.profile import default_profile
from toolsearch.engine.registration import register_catalog
from toolsearch.analysis.synthetic import dump_catalog_json, large_catalog
from toolsearch.engine.tokens import chars4, compact_json, estimate_definitions, get_tokenizer

# --- schema passes: the shortcut path equals running every pass ------------------------------

def _stage_a_all_passes(schema):
    if not schema:
        return {"type": "object", "properties": {}}
    result = S._rewrite_definitions(schema)
    result = S._strip_nullable_unions(result)
    result = S._collapse_const_unions(result)
    S._repair_object_shape(result, is_root=True)
    if not isinstance(result, dict):
        return {"type": "object", "properties": {}}
    if result.get("type") == "object" and "properties" not in result:
        result["properties"] = {}
    return result


def _stage_b_all_passes(parameters):
    if not isinstance(parameters, dict):
        return {"type": "object", "properties": {}, "required": []}
    root = S._sanitize_node(S._copy_json(parameters))
    S._force_object_root(root)
    root = S._strip_nullable_unions(root)
    for key in S._ROOT_COMBINATORS:
        root.pop(key, None)
    S._drop_default_beside_ref(root)
    return root


@settings(max_examples=500, deadline=None)
@given(json_like)
@example({"type": ["string", ["null"]]})  # B1 turns this into anyOf [string, null]; B3 collapses it
@example({"properties": {"a": {"type": ["integer", ["null", "null"]], "title": "t"}}})
@example({"properties": {"a": {"$ref": "#/definitions/A", "default": 1}}, "definitions": {"A": {"type": "string"}}})
@example({"properties": {"a": {"anyOf": [{"const": "x"}, {"const": "y"}, {"type": "null"}]}}})
@example({"properties": {"a": {"oneOf": [{"type": "string"}, {"type": "null"}], "default": "d"}}})
@example({"const": {"default": None, "$ref": None}})  # B5 in a data position must not reach stage A
def test_schema_shortcuts_equal_all_passes(value) -> None:
    expected_a = _stage_a_all_passes(value)
    expected_b = _stage_b_all_passes(expected_a)
    assert json.dumps(S.normalize_mcp_input_schema(value)) == json.dumps(expected_a)
    assert json.dumps(S.sanitize_parameters(expected_a)) == json.dumps(expected_b)
    stage_a, parameters = S.register_input_schema(value)
    assert json.dumps(stage_a) == json.dumps(expected_a)
    assert json.dumps(parameters) == json.dumps(expected_b)


def test_sanitize_parameters_result_shares_nothing_with_its_input() -> None:
    given_value = {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}}
    result = S.sanitize_parameters(given_value)
    result["properties"]["a"]["enum"].append("z")
    assert given_value["properties"]["a"]["enum"] == ["x", "y"]


# --- the cached planner equals a fresh one and the straightforward sums -------------------------

WORDS = ["Create", "list", "issue", "send", "email", "the", "report", "e.g.", "etc.", "sync", "records.", "Post!"]
_schema_st = st.one_of(
    st.none(),
    st.just({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
    st.just({"type": "object", "properties": {"q": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}),
    st.just({"properties": {"n": {"type": ["integer", "null"]}, "m": {"$ref": "#/definitions/M", "default": 2}},
             "definitions": {"M": {"type": "number"}}}),
    json_like,
)
_tool_st = st.tuples(st.text("abcdefghij_", min_size=1, max_size=8),
                     st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join), _schema_st)
_server_st = st.tuples(st.sampled_from(["alpha", "beta", "gamma", "delta", "Kanban", "ops"]),
                       st.sampled_from(["mcp", "mcp", "plugin", "core"]),
                       st.lists(_tool_st, max_size=8, unique_by=lambda t: t[0]))
_catalog_st = st.lists(_server_st, min_size=1, max_size=5, unique_by=lambda s: s[0])
_setting_st = st.tuples(
    st.sampled_from([None, 8_000, 32_000, 128_000, 1_000_000]),  # context length
    st.sampled_from([0.1, 1, 5, 10, 100]),  # threshold_pct
    st.integers(C.LISTING_MAX_TOKENS_MIN, 3_000),  # listing_max_tokens
    st.sampled_from(["auto", "on", "off"]),  # listing
    st.sampled_from(["auto", "off"]),  # enabled
    st.sampled_from([None, ("mcp__alpha__a",), ("read_file",)]),  # defer
)


def _catalog(rows) -> Catalog:
    servers = tuple(Server(name=name, kind=kind, tools=tuple(Tool(n, d, s) for n, d, s in tools))
                    for name, kind, tools in rows)
    return Catalog("random", servers)


def _config(setting):
    _, pct, cap, listing, enabled, defer = setting
    data = {"threshold_pct": pct, "listing_max_tokens": cap, "listing": listing, "enabled": enabled}
    if defer is not None:
        data["defer"] = list(defer)
    return parse_config(data)


@settings(max_examples=120, deadline=None)
@given(rows=_catalog_st, settings_=st.lists(_setting_st, min_size=2, max_size=6),
       display=st.sampled_from([None, None, "o200k_base"]))
def test_cached_planner_equals_fresh_planner_and_plain_sums(rows, settings_, display) -> None:
    registration = register_catalog(_catalog(rows))
    reused = Planner(registration)
    for setting in settings_:
        config = _config(setting)
        plan = reused.plan(config, setting[0], "chars4", display)
        fresh = Planner(registration).plan(config, setting[0], "chars4", display)
        assert json.dumps(plan.to_dict()) == json.dumps(fresh.to_dict())

        # The same figures computed the plain way, tool by tool.
        tk = get_tokenizer(display or "chars4")
        all_defs = [t.definition for t in registration.tools if t.name not in C.BRIDGE_NAMES]
        visible, deferred = split_tools(registration.tools, config.defer)

        def tokens(defs):  # BPE: per definition, summed; chars4: rounded once over the sum (docs/reference.md §3)
            return sum(tk.count(compact_json(d)) for d in defs) if tk.exact else estimate_definitions(defs)

        # All schemas up front is the tier-0 tools array: BPE counts the whole array as one text.
        assert plan.eager_tokens == (tokens(all_defs) if not tk.exact
                                     else tk.count(compact_json(all_defs)) if all_defs else 0)
        assert plan.deferred_tokens == tokens([t.definition for t in deferred])
        assert plan.deferred_tokens_chars4 == estimate_definitions([t.definition for t in deferred])
        expected_tools_tokens = (0 if not plan.tools else tk.count(compact_json(plan.tools)) if tk.exact
                                 else chars4(sum(len(compact_json(t)) for t in plan.tools)))
        assert plan.tools_tokens == expected_tools_tokens
        if not plan.activated:
            assert plan.tools == [dict(d) for d in all_defs]
        for server in plan.servers:
            own = [t.definition for t in registration.tools if t.server == server.name]
            assert server.schema_tokens == tokens(own)
            assert server.tool_count == len(own)
        if plan.listing is not None:
            assert plan.listing_tokens == chars4(len(plan.listing))


_entries_st = st.lists(st.tuples(st.sampled_from(["a", "bb", "ccc", "Kanban", "zz-long-label"]),
                                 st.text("abcdefgh_", min_size=1, max_size=10),
                                 st.lists(st.sampled_from(WORDS), max_size=15).map(" ".join)),
                       min_size=1, max_size=30, unique_by=lambda e: e[1])


@settings(max_examples=200, deadline=None)
@given(entries=_entries_st, budget=st.integers(0, 800))
def test_chars4_running_sum_equals_measuring_each_candidate(entries, budget) -> None:
    profile = default_profile()
    groups = render_groups(entries, profile)
    header = profile.text("listing", "header")
    fast = choose_listing(groups, budget, header, None)
    measured = choose_listing(groups, budget, header, get_tokenizer("chars4").count)
    assert fast == measured


# --- stage A in one walk: the shortcut is taken and equals every pass --------------------------

_plain_keys = st.sampled_from(["type", "properties", "patternProperties", "required", "allOf", "not", "items",
                               "additionalProperties", "const", "enum", "default", "title", "description",
                               "$defs", "dependentSchemas", "prefixItems", "a b", "x"]) | st.text("abxyz ", max_size=5)
_plain_leaves = (st.none() | st.booleans() | st.integers(-3, 3)
                 | st.sampled_from(["object", "string", "integer", "null", "array", "a b", ""]))
_plain_json = st.recursive(
    _plain_leaves,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_plain_keys, children, max_size=5),
    max_leaves=40)
_plain_schema = st.dictionaries(_plain_keys, _plain_json, min_size=1, max_size=5)


@settings(max_examples=400, deadline=None)
@given(_plain_schema)
@example({"properties": {"a": {"type": "object", "required": True}}, "required": ["a", 3, "b"]})
@example({"type": "object", "properties": [{"type": "object"}], "default": {"properties": {"x": {}}}})
@example({"items": "string", "not": [{"type": "object"}], "const": {"required": ["q"], "type": ""}})
def test_one_walk_stage_a_equals_all_passes(value) -> None:
    """Schemas without anyOf/oneOf/$ref/definitions take the one-walk path, with equal bytes."""
    try:
        S._copy_and_repair(value, is_root=True)  # taken: raises nothing on such a schema...
    except S._NeedsAllPasses:
        assume(False)  # ...unless a "type" list holds a list (rare here)
    expected_a = _stage_a_all_passes(value)
    expected_b = _stage_b_all_passes(expected_a)
    assert json.dumps(S.normalize_mcp_input_schema(value)) == json.dumps(expected_a)
    stage_a, parameters = S.register_input_schema(value)
    assert json.dumps(stage_a) == json.dumps(expected_a)
    assert json.dumps(parameters) == json.dumps(expected_b)


def test_one_walk_stage_a_hands_keys_it_does_not_cover_to_every_pass() -> None:
    for schema in ({"properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}},
                   {"default": {"$ref": "#/definitions/x"}}, {"properties": {"oneOf": {}}},
                   {"items": [{"definitions": {}}]}, {"type": ["string", ["null"]]}):
        try:
            S._copy_and_repair(schema, is_root=True)
        except S._NeedsAllPasses:
            pass
        else:
            raise AssertionError(f"the one-walk path took {schema}")
        expected_a = _stage_a_all_passes(schema)
        assert json.dumps(S.register_input_schema(schema)) == json.dumps([expected_a, _stage_b_all_passes(expected_a)])


# --- a BPE planning tokenizer counts each block once, with the same results --------------------

_label_st = st.one_of(st.sampled_from(["alpha", "Kanban", "zz-long-label", "ops", "1st"]),
                      st.text("ab /.…\n\t-_:", min_size=1, max_size=5))  # odd starts: counted in full
_bpe_entries_st = st.lists(st.tuples(_label_st, st.text("abcdefgh_/.", min_size=1, max_size=10),
                                     st.lists(st.sampled_from(WORDS + ["…", "/x", "1.5", "(a)", "café"]),
                                              max_size=15).map(" ".join)),
                           min_size=1, max_size=25, unique_by=lambda e: e[1])


def _compose_candidate(header, groups, step) -> str:
    collapsed = set(step.collapsed)
    blocks = {"full": [g.full for g in groups], "names": [g.names_block for g in groups]}.get(
        step.form, [g.summary if g.label in collapsed else g.names_block for g in groups])
    return "\n".join([header, *blocks])


@settings(max_examples=120, deadline=None)
@given(entries=_bpe_entries_st, budgets=st.lists(st.integers(0, 700), min_size=1, max_size=4),
       name=st.sampled_from(["o200k_base", "cl100k_base"]))
def test_bpe_listing_counted_in_parts_equals_counting_each_candidate(entries, budgets, name) -> None:
    profile = default_profile()
    groups = render_groups(entries, profile)
    header = profile.text("listing", "header")
    tk = get_tokenizer(name)
    assert tk.exact
    cache: dict = {}
    for budget in budgets:  # one cache over several budgets, as the planner keeps it
        parts = choose_listing(groups, budget, header, tk.count, bpe=True, cache=cache)
        whole = choose_listing(groups, budget, header, tk.count)
        assert parts == whole
        for step in parts.steps:  # every candidate's count is its whole text's count
            assert step.tokens == tk.count(_compose_candidate(header, groups, step))


def test_bpe_listing_counts_each_block_once_on_a_large_catalog() -> None:
    registration = register_catalog(large_catalog(3_000, 40, seed=2))
    planner = Planner(registration)
    tk = get_tokenizer("o200k_base")
    calls = []

    def count(text: str) -> int:
        calls.append(text)
        return tk.count(text)

    groups = planner.deferral(None).groups
    budget = 40 * 30  # collapses most groups
    parts = choose_listing(groups, budget, planner.header, count, bpe=True, cache={})
    assert parts.form in ("mixed", "groups")
    assert len(parts.steps) > 20
    assert len(calls) <= 1 + 3 * len(groups)  # each segment once, not each candidate
    assert parts == choose_listing(groups, budget, planner.header, tk.count)
    plan = planner.plan(parse_config({"listing_max_tokens": budget}), 1_000_000, "o200k_base")
    assert plan.planning_tokenizer == "o200k_base"
    assert (plan.listing_form, plan.listing_tokens) == (parts.form, parts.tokens)
    assert plan.listing_tokens == tk.count(plan.listing)


# --- tier 0 shares the registered definitions; the tools array is built when read ---------------

def test_tier0_plans_share_the_definitions_and_build_fresh_arrays() -> None:
    registration = register_catalog(large_catalog(500, 5, seed=1))
    planner = Planner(registration)
    off = parse_config({"enabled": "off"})
    first, second = planner.plan(off, 200_000), planner.plan(off, 8_000)
    assert first.tier == second.tier == 0
    assert first.tool_definitions is second.tool_definitions  # shared, not copied per plan
    assert first.tool_definitions[0] is registration.tools[0].definition
    assert "_tools" not in first.__dict__  # nothing built until read
    assert first.tools == [dict(t.definition) for t in registration.tools]
    assert first.tools is first.tools  # built once
    first.tools[0]["function"] = "changed"
    first.tools.append({"x": 1})
    assert registration.tools[0].definition["function"] != "changed"
    assert second.tools == [dict(t.definition) for t in registration.tools]
    assert json.dumps(second.to_dict()) == json.dumps(Planner(registration).plan(off, 8_000).to_dict())
    on = planner.plan(parse_config({"listing": "off"}), 200_000)
    assert on.tier == 2 and [t["function"]["name"] for t in on.tools] == list(C.BRIDGE_NAMES)


# --- compact JSON through the C encoder without the cycle check: the same text ------------------

_any_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(_any_json)
def test_compact_json_equals_json_dumps(value) -> None:
    assert compact_json(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_compact_json_of_what_json_cannot_write_is_its_str() -> None:
    cyclic: dict = {"a": 1}
    cyclic["self"] = cyclic
    for value in (cyclic, {"s": {1, 2}}, {(1,): 2}, object):
        assert compact_json(value) == str(value)
    assert compact_json({1: 2, None: 3}) == '{"1":2,"null":3}'


# --- the collector is paused while a catalog is built, and restored -------------------------------

def test_gc_is_restored_after_loading_registering_and_planning(tmp_path) -> None:
    import gc

    from toolsearch.engine.gcpause import gc_paused

    out = tmp_path / "c.json"
    out.write_text(dump_catalog_json(large_catalog(50, 2, seed=0)), encoding="utf-8")
    assert gc.isenabled()
    seen = []
    with gc_paused():
        seen.append(gc.isenabled())
        with gc_paused():
            Planner(register_catalog(load_source(out))).plan(parse_config({}), 1000)
        seen.append(gc.isenabled())
    assert seen == [False, False] and gc.isenabled()
    gc.disable()
    try:
        register_catalog(load_source(out))
        assert not gc.isenabled()  # a caller's own choice is kept
    finally:
        gc.enable()


# --- synthetic catalogs --------------------------------------------------------------------------

def test_large_catalog_is_deterministic_and_sized() -> None:
    first = dump_catalog_json(large_catalog(1_000, 7, seed=3))
    assert first == dump_catalog_json(large_catalog(1_000, 7, seed=3))
    assert first != dump_catalog_json(large_catalog(1_000, 7, seed=4))
    catalog = large_catalog(1_000, 7, seed=3)
    assert [len(s.tools) for s in catalog.servers] == [143, 143, 143, 143, 143, 143, 142]
    names = [t.name for s in catalog.servers for t in s.tools]
    assert len(set(names)) == 1_000  # unique over the catalog
    registration = register_catalog(catalog)
    assert len(registration.tools) == 1_000
    assert not [p for p in registration.problems if p.severity != "info"]


def test_synth_cli_writes_a_catalog_every_command_reads(tmp_path) -> None:
    out = tmp_path / "big.json"
    result = run_cli("synth", "--tools", "2500", "--servers", "20", "--seed", "1", "-o", out)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith(f"toolsearch: wrote {out}: 20 servers, 2,500 tools, ")
    assert out.read_bytes().decode("utf-8") == dump_catalog_json(large_catalog(2500, 20, seed=1))
    catalog = load_source(out)
    assert (len(catalog.servers), catalog.tool_count) == (20, 2500)
    plan = json.loads(run_cli("plan", out, "--context-length", "200k", "--json").stdout)
    assert plan["deferred_count"] == 2500
    assert len(plan["servers"]) == 20
    assert sum(s["tool_count"] for s in plan["servers"]) == 2500
    again = run_cli("synth", "--tools", "2500", "--servers", "20", "--seed", "1")
    assert again.returncode == 0 and again.stdout == out.read_text(encoding="utf-8")


def test_synth_cli_rejects_bad_sizes(tmp_path) -> None:
    for args in (["--tools", "0"], ["--servers", "-3"], ["--tools", "many"]):
        result = run_cli("synth", *args, "-o", tmp_path / "x.json")
        assert result.returncode == 2
        assert len(result.stderr.strip().splitlines()) == 1
        assert "expected" in result.stderr
        assert not (tmp_path / "x.json").exists()


def test_synth_is_capped_at_the_largest_catalog_toolsearch_reads_back(tmp_path) -> None:
    """`synth --tools 1000000000` ran until memory ran out; a catalog over 64 MiB is refused by
    every reader anyway. The cap is the largest catalog whose file is still read back."""
    from toolsearch.engine.readers import MAX_INPUT_BYTES

    result = run_cli("synth", "--tools", str(C.SYNTH_MAX_TOOLS + 1), "-o", tmp_path / "x.json")
    assert result.returncode == 2 and not (tmp_path / "x.json").exists()
    assert result.stderr.strip().endswith(
        "argument --tools: expected at most 100,000 tools (a larger catalog file is over the size toolsearch "
        "reads back), got '100001'")
    with pytest.raises(ValueError, match="at most 100,000 tools"):
        large_catalog(C.SYNTH_MAX_TOOLS + 1)
    size = len(dump_catalog_json(large_catalog(C.SYNTH_MAX_TOOLS)).encode("utf-8"))
    assert MAX_INPUT_BYTES * 0.95 < size <= MAX_INPUT_BYTES
