"""Token estimation (docs/reference.md §3), the listing and its degradation (docs/reference.md §5), classification and assembly
(docs/reference.md §2, §5.5, §5.6, §6, §10): conformance cases 8–30, 33, 35, 38 and 81 of docs/reference.md §13.

Numbers that depend on wording are computed from the active profile's text, never hard-coded.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from conftest import ceil4, compact, registration
from toolsearch.engine import constants as C
from toolsearch.engine.catalog import Catalog, Server, Tool
from toolsearch.engine.config import parse_config
from toolsearch.engine.errors import TokenizerError
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.listing import choose_listing, collapse_order, render_groups, short_description
from toolsearch.engine.plan import Planner, bridge_definitions, is_deferrable, split_tools, tool_search_description
from toolsearch.engine.registration import make_tool
from toolsearch.engine.tokens import compact_json, estimate_definitions, get_tokenizer

MINIMAL = {"type": "function", "function": {"name": "a", "description": "x",
                                            "parameters": {"type": "object", "properties": {}}}}


def minimal(name: str = "a", description: str = "x", parameters=None) -> dict:
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": parameters or {"type": "object", "properties": {}}}}


# --- docs/reference.md §3, cases 9–12: estimation ------------------------------------------------------------------

def test_case9_single_minimal_definition() -> None:
    assert len(compact_json(MINIMAL)) == 108
    assert estimate_definitions([MINIMAL]) == 27


def test_case10_sum_before_rounding() -> None:
    defs = [minimal("abc"), minimal("abc")]
    assert [len(compact_json(d)) for d in defs] == [110, 110]
    assert estimate_definitions(defs) == 55
    assert sum(estimate_definitions([d]) for d in defs) == 56


def test_case11_non_ascii_counts_as_characters() -> None:
    definition = minimal("wetter", "Grüße – ü")
    assert len(compact_json(definition)) == 121
    assert len(json.dumps(definition, separators=(",", ":"))) == 141   # escaped would be longer
    assert estimate_definitions([definition]) == 31


def test_case12_proportionality() -> None:
    params = {"type": "object", "properties": {"p": {"type": "string", "description": "Parameter text. " * 10}}}
    defs = [minimal(f"tool_{i}", "A longer description sentence. " * 20, params) for i in range(10)]
    assert estimate_definitions(defs) > 10 * estimate_definitions([MINIMAL])


def test_estimate_key_order_and_unserialisable_values() -> None:
    assert compact_json({"b": 1, "a": [1, "é"]}) == '{"b":1,"a":[1,"é"]}'
    weird = {"x": {1, 2}}
    assert compact_json(weird) == str(weird)
    assert estimate_definitions([weird]) == math.ceil(len(str(weird)) / 4)
    assert estimate_definitions([]) == 0


# --- tokenizers ----------------------------------------------------------------------------------

SAMPLE = "Grüße aus Köln — 東京の天気は？ mcp__github__create_issue"


def test_chars4_is_ceil_len_over_4() -> None:
    tk = get_tokenizer("chars4")
    assert (tk.name, tk.effective, tk.note, tk.exact) == ("chars4", "chars4", None, False)
    assert [tk.count("x" * n) for n in (0, 1, 4, 5, 8, 9)] == [0, 1, 1, 2, 2, 3]
    assert tk.count(SAMPLE) == 13                      # 50 code points
    assert tk.count_json({"a": "é"}) == 3             # '{"a":"é"}' is 9 code points


@pytest.mark.parametrize("name, sample, hello", [("o200k_base", 19, 2), ("cl100k_base", 22, 2)])
def test_bpe_tokenizers_load_offline_with_known_counts(name, sample, hello) -> None:
    tk = get_tokenizer(name)
    assert (tk.effective, tk.note, tk.exact) == (name, None, True)
    assert tk.count(SAMPLE) == sample
    assert tk.count("hello world") == hello
    assert tk.count("<|endoftext|>") > 1               # special tokens are plain text here


def test_bpe_tokenizer_loads_with_the_network_blocked(tmp_path) -> None:
    code = (
        "import socket\n"
        "def refuse(*a, **k):\n    raise OSError('network used')\n"
        "socket.socket.connect = refuse\nsocket.create_connection = refuse\n"
        "from toolsearch.engine.tokens import get_tokenizer\n"
        f"t = get_tokenizer('o200k_base'); print(t.effective, t.count({SAMPLE!r}))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "TMPDIR": str(tmp_path), "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "o200k_base 19"


def test_unknown_tokenizer_raises() -> None:
    with pytest.raises(TokenizerError, match="unknown tokenizer 'gpt2'"):
        get_tokenizer("gpt2")


# --- docs/reference.md §5.1, cases 35 and 38: short description -------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Open an issue. Second sentence dropped.", "Open an issue."),
    ("List repos! Supports pagination.", "List repos!"),
    ("What does this do? It lists channels.", "What does this do?"),
    ("  multiple   spaces\n\nand newlines.  Next.", "multiple spaces and newlines."),
    ("Use e.g. this tool. More.", "Use e.g. this tool."),
    ("That is, i.e. the id. More.", "That is, i.e. the id."),
    ("Files, logs etc. are kept. More.", "Files, logs etc. are kept."),
    ("Ask Dr. Who. More.", "Ask Dr."),
    ("Compare A vs. B. More.", "Compare A vs."),
    ("E.g. this one. More.", "E.g."),
    ("Release v1.2 is out. More.", "Release v1.2 is out."),
    ("Calls api.github.com for data. More.", "Calls api.github.com for data."),
    ("No terminator at all", "No terminator at all"),
    ("Ends at the end.", "Ends at the end."),
    ("Question?!", "Question?!"),
    ("Tabs\tand\ttabs. x", "Tabs and tabs."),
    ("", ""),
    ("   \n  ", ""),
])
def test_short_description_first_sentence(text, expected) -> None:
    assert short_description(text) == expected


def test_short_description_none_is_empty() -> None:
    assert short_description(None) == ""


def test_short_description_60_character_rules() -> None:
    exactly_60 = "a" * 59 + "."
    assert short_description(exactly_60) == exactly_60
    # cut back to the last space within the first 60 characters, strip ",;: ", add "…"
    text = "Create, update and delete records in the warehouse, quickly: then report."
    assert text[:60] == "Create, update and delete records in the warehouse, quickly:"
    assert short_description(text) == "Create, update and delete records in the warehouse…"
    # no space in the first 60 characters: hard cut
    assert short_description("x" * 80) == "x" * 60 + "…"
    # trailing ",;:" before the last space are stripped
    text = "word " * 10 + "alpha;; beta gamma delta epsilon"
    head = text[:60]
    assert short_description(text) == head[: head.rfind(" ")].rstrip(",;: ") + "…"
    out = short_description("b" * 40 + ",;: " + "c" * 40)
    assert out == "b" * 40 + "…"
    assert len(short_description("z " * 100)) <= 61


def test_short_description_sentence_is_cut_after_choosing_it() -> None:
    long_first = "This description has a very long first sentence that goes well past sixty characters. Next."
    assert short_description(long_first) == "This description has a very long first sentence that goes…"
    assert len(short_description(long_first)) == 58


# --- docs/reference.md §5.2–§5.3: rendering ---------------------------------------------------------------------

def _groups(tools, profile):
    return render_groups(((t.label, t.name, t.description) for t in tools), profile)


def test_case25_full_render(profile) -> None:
    tools = [
        make_tool("slack_post", "Post a message to a channel.", server="slack"),
        make_tool("github_merge_pr", "", server="github"),
        make_tool("github_create_issue", "Open a new issue in a GitHub repository.", server="github"),
    ]
    header = profile.text("listing", "header")
    choice = choose_listing(_groups(tools, profile), 4000, header)
    assert choice.form == "full"
    assert choice.text == "\n".join([
        header,
        "github tools (2):",
        "- github_create_issue: Open a new issue in a GitHub repository.",
        "- github_merge_pr",
        "slack tools (1):",
        "- slack_post: Post a message to a channel.",
    ])
    assert choice.tokens == ceil4(choice.text)
    assert choice.states == {"github": "full", "slack": "full"}


def test_case26_empty_description_has_no_colon(profile) -> None:
    (group,) = _groups([make_tool("bare_tool", "", server="s")], profile)
    assert group.full.splitlines()[1] == "- bare_tool"


def test_case27_deterministic_in_input_order(profile) -> None:
    tools = [make_tool(f"t{i}", f"Desc {i}. More.", kind="unregistered") for i in range(20)]
    header = profile.text("listing", "header")
    a = choose_listing(_groups(tools, profile), 4000, header)
    b = choose_listing(_groups(list(reversed(tools)), profile), 4000, header)
    assert (a.text, a.form) == (b.text, b.form)
    assert a.text.splitlines()[1] == "other tools (20):"
    # code-point sort: t10 comes before t2
    assert a.text.splitlines()[2:5] == ["- t0: Desc 0.", "- t1: Desc 1.", "- t10: Desc 10."]


def test_case28_names_block(profile) -> None:
    (group,) = _groups([make_tool("save_issue", "Save.", server="linear"), make_tool("get_team", "Get.", server="linear")],
                       profile)
    assert group.names_block == "linear tools (2):\nget_team, save_issue"
    assert group.names == ("get_team", "save_issue")


def test_heading_and_summary_shapes(profile) -> None:
    (group,) = _groups([make_tool(f"n{i}", "d", server="grafana") for i in range(12)], profile)
    heading = group.full.splitlines()[0]
    assert heading == "grafana tools (12):"
    assert len(heading) == len("grafana") + 2 + 10
    assert group.summary == "grafana (12 tools — names not listed; discover via `tool_search`)"
    assert len(group.summary) == len("grafana") + 2 + 56


def test_catalog_text_that_looks_like_a_placeholder_is_kept_as_written(profile) -> None:
    # Each placeholder is filled once, from the template: a server named "{count}" or a tool
    # named "a{description}b" is text, not another placeholder to fill.
    (group,) = _groups([make_tool("a{description}b", "Open a ticket.", server="{count}"),
                        make_tool("{label}", "", server="{count}")], profile)
    assert group.full.splitlines() == ["{count} tools (2):", "- a{description}b: Open a ticket.", "- {label}"]
    assert group.summary == "{count} (2 tools — names not listed; discover via `tool_search`)"
    assert profile.text("registration", "default_description", tool="{server}", server="github") == \
        "MCP tool {server} from server github"


def test_case33_labels_and_group_merging(profile) -> None:
    assert make_tool("a", server="github").label == "github"
    assert make_tool("b", kind="plugin", server="kanban").label == "kanban"
    assert make_tool("c", kind="unregistered").label == "other"
    merged = _groups([make_tool("m", "d", server="x"), make_tool("p", "d", kind="plugin", server="x")], profile)
    assert [(g.label, g.names) for g in merged] == [("x", ("m", "p"))]


def test_groups_sort_by_code_point_label_and_tools_by_name(profile) -> None:
    tools = [make_tool("b", "d", server="beta"), make_tool("a", "d", server="Zed"), make_tool("z", "d", server="alpha"),
             make_tool("y", "d", server="alpha")]
    assert [g.label for g in _groups(tools, profile)] == ["Zed", "alpha", "beta"]
    assert _groups(tools, profile)[1].names == ("y", "z")


# --- docs/reference.md §5.4: degradation -------------------------------------------------------------------------

def _case30_tools():
    big = [make_tool(f"big_{i:03d}", "Synchronize enterprise credentials across regions. " * 3, server="big")
           for i in range(200)]
    small = [make_tool(f"small_{i:03d}", "Ping.", server="small") for i in range(3)]
    return big + small


def test_case30_big_server_next_to_a_small_one(profile) -> None:
    header = profile.text("listing", "header")
    groups = _groups(_case30_tools(), profile)
    choice = choose_listing(groups, 120, header)
    assert choice.form == "mixed"
    assert choice.text == "\n".join([
        header,
        "big (200 tools — names not listed; discover via `tool_search`)",
        "small tools (3):",
        "small_000, small_001, small_002",
    ])
    assert "names not listed" in choice.text
    assert "- small_000" not in choice.text
    assert choice.states == {"big": "summary", "small": "names"}
    assert [s.form for s in choice.steps] == ["full", "names", "mixed"]
    assert choice.steps[-1].collapsed == ("big",)


def test_degradation_thresholds_follow_the_profile_text(profile) -> None:
    header = profile.text("listing", "header")
    groups = _groups(_case30_tools(), profile)
    big, small = groups
    full_len = len("\n".join([header, big.full, small.full]))
    names_len = len("\n".join([header, big.names_block, small.names_block]))
    mixed_len = len("\n".join([header, big.summary, small.names_block]))
    groups_len = len("\n".join([header, big.summary, small.summary]))
    assert choose_listing(groups, ceil4(full_len), header).form == "full"
    assert choose_listing(groups, ceil4(full_len) - 1, header).form == "names"
    assert choose_listing(groups, ceil4(names_len), header).form == "names"
    assert choose_listing(groups, ceil4(names_len) - 1, header).form == "mixed"
    assert choose_listing(groups, ceil4(mixed_len), header).form == "mixed"
    assert choose_listing(groups, ceil4(mixed_len) - 1, header).form == ("groups" if groups_len < mixed_len else "none")
    assert choose_listing(groups, ceil4(groups_len), header).tokens <= ceil4(groups_len)
    none = choose_listing(groups, min(ceil4(groups_len), ceil4(mixed_len)) - 1, header)
    assert (none.form, none.text, none.tokens) == ("none", None, 0)
    assert none.states == {"big": "hidden", "small": "hidden"}


def test_mixed_shows_uncollapsed_groups_as_names_never_full(profile) -> None:
    header = profile.text("listing", "header")
    tools = [make_tool(f"huge_{i:03d}", "A description. " * 4, server="huge") for i in range(100)]
    tools += [make_tool("tiny_one", "Tiny tool that does a thing.", server="tiny")]
    groups = _groups(tools, profile)
    huge, tiny = groups
    budget = ceil4(len("\n".join([header, huge.summary, tiny.full])))   # full tiny would fit…
    choice = choose_listing(groups, budget, header)
    assert choice.form == "mixed"
    assert choice.text == "\n".join([header, huge.summary, tiny.names_block])   # …but names are shown


def test_single_group_goes_from_names_straight_to_groups(profile) -> None:
    header = profile.text("listing", "header")
    groups = _groups([make_tool(f"op_{i:03d}", "Operation.", server="solo") for i in range(60)], profile)
    (solo,) = groups
    names_tokens = ceil4(len(header) + 1 + len(solo.names_block))
    groups_tokens = ceil4(len(header) + 1 + len(solo.summary))
    assert groups_tokens < names_tokens
    for budget in range(groups_tokens, names_tokens):
        choice = choose_listing(groups, budget, header)
        assert choice.form == "groups"
        assert choice.text == header + "\n" + solo.summary
    assert choose_listing(groups, groups_tokens - 1, header).form == "none"


def test_case32_names_to_none_jump_when_summaries_are_longer(profile) -> None:
    header = profile.text("listing", "header")
    tools = [make_tool(f"{c}1", "Does one thing.", server=c) for c in "abc"]
    groups = _groups(tools, profile)
    assert all(len(g.summary) > len(g.names_block) for g in groups)
    names_tokens = ceil4(len("\n".join([header, *(g.names_block for g in groups)])))
    assert choose_listing(groups, names_tokens, header).form == "names"
    choice = choose_listing(groups, names_tokens - 1, header)
    assert choice.form == "none"
    # every collapse was still tried, and each made the text grow
    assert [s.form for s in choice.steps] == ["full", "names", "mixed", "mixed", "groups"]
    tokens = [s.tokens for s in choice.steps[1:]]
    assert tokens == sorted(tokens) and len(set(tokens)) == len(tokens)


def test_greedy_prefix_can_miss_a_fitting_subset(profile) -> None:
    # docs/reference.md §5.4: the largest group has a long label whose summary outgrows its names block, a
    # smaller group would shrink; only prefixes of the size order are tried.
    header = profile.text("listing", "header")
    long_label = "l" * 400
    tools = [make_tool("x", "d", kind="plugin", server=long_label)]
    tools += [make_tool(f"short_tool_{i:02d}", "d", server="b") for i in range(20)]
    groups = _groups(tools, profile)
    by = {g.label: g for g in groups}
    order = [g.label for g in collapse_order(groups)]
    assert order == [long_label, "b"]
    assert len(by[long_label].summary) > len(by[long_label].names_block)
    subset_len = len("\n".join([header, by["b"].summary, by[long_label].names_block]))
    budget = ceil4(subset_len)
    assert ceil4(len("\n".join([header, by["b"].names_block, by[long_label].names_block]))) > budget
    choice = choose_listing(groups, budget, header)
    assert choice.form == "none"


def test_collapse_order_ties_break_by_label(profile) -> None:
    tools = [make_tool("t1", "d", server=label) for label in ("bb", "aa", "cc")]
    tools.append(make_tool("t1_longer_name", "d", kind="plugin", server="zz"))
    order = [g.label for g in collapse_order(_groups(tools, profile))]
    assert order == ["zz", "aa", "bb", "cc"]


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_bpe_counting_decides_fits_on_the_real_text(profile, name) -> None:
    tk = get_tokenizer(name)
    header = profile.text("listing", "header")
    groups = _groups(_case30_tools(), profile)
    full_text = "\n".join([header, *(g.full for g in groups)])
    exact = tk.count(full_text)
    assert choose_listing(groups, exact, header, tk.count).form == "full"
    assert choose_listing(groups, exact, header, tk.count).tokens == exact
    assert choose_listing(groups, exact - 1, header, tk.count).form != "full"


# --- docs/reference.md §2: classification ------------------------------------------------------------------------

def test_case14_unregistered_tool_stays_visible() -> None:
    tool = make_tool("xx_unknown_tool", "Does x.", kind="unregistered")
    assert is_deferrable(tool, set(C.DEFAULT_DEFER)) is False
    visible, deferred = split_tools([tool], C.DEFAULT_DEFER)
    assert (visible, deferred) == ([tool], [])


def test_case15_plugin_toolset_is_deferrable() -> None:
    assert is_deferrable(make_tool("card_move", kind="plugin", server="kanbanplus"), set()) is True
    assert is_deferrable(make_tool("anything", server="github"), None) is True


def test_defer_set_rules() -> None:
    core = make_tool("todo_list", kind="core", server="todo")
    clarify = make_tool("clarify", kind="core", server="core")
    unknown = make_tool("mystery", kind="unregistered")
    assert is_deferrable(core, set(C.DEFAULT_DEFER)) is True          # curated default
    assert is_deferrable(clarify, set(C.DEFAULT_DEFER)) is False
    assert is_deferrable(core, set()) is False                        # defer: [] → core stays
    assert is_deferrable(core, None) is False                         # no defer set: rule 2 skipped
    assert is_deferrable(unknown, {"mystery"}) is True                # even unregistered names
    assert is_deferrable(make_tool("", kind="plugin", server="p"), {""}) is False   # nameless: never


def test_bridge_names_are_dropped_before_classification() -> None:
    tools = [make_tool("tool_search", kind="core"), make_tool("terminal", kind="core"),
             make_tool("tool_call", server="x"), make_tool("m", server="x")]
    visible, deferred = split_tools(tools, ())
    assert [t.name for t in visible] == ["terminal"]
    assert [t.name for t in deferred] == ["m"]


# --- assembly ------------------------------------------------------------------------------------------

def _plan(tools, context=None, **config):
    return Planner(registration(tools)).plan(parse_config(config), context)


def test_case18_pure_core_is_a_pass_through() -> None:
    tools = [make_tool("terminal", "Run.", kind="core"), make_tool("read_file", "Read.", kind="core")]
    plan = _plan(tools, enabled="on")
    assert (plan.activated, plan.tier, plan.listing_form) == (False, 0, "none")
    assert plan.tools == [t.definition for t in tools]
    assert plan.tool_search_description is None
    assert [s.state for s in plan.servers] == ["visible"]


def test_case19_one_tiny_mcp_tool_activates(profile) -> None:
    tool = make_tool("mcp__w__ping", "Ping a host.", server="w")
    plan = _plan([tool], threshold_pct=10)
    names = [t["function"]["name"] for t in plan.tools]
    assert names == ["tool_search", "tool_describe", "tool_call"]
    assert (plan.activated, plan.tier, plan.listing_form) == (True, 1, "full")
    assert plan.deferred_count == 1


def test_case20_feature_off_never_activates() -> None:
    tool = make_tool("big", "x" * 4_000_000, server="s")
    plan = _plan([tool], enabled="off")
    assert plan.deferred_tokens >= 1_000_000
    assert (plan.activated, plan.tier) == (False, 0)
    assert [t["function"]["name"] for t in plan.tools] == ["big"]


def test_case21_stale_bridge_is_stripped() -> None:
    tools = [make_tool("terminal", kind="core"), make_tool("tool_search", "stale", kind="core")]
    plan = _plan(tools, enabled="off")
    assert [t["function"]["name"] for t in plan.tools] == ["terminal"]
    plan_on = _plan(tools + [make_tool("m", server="x")])
    assert [t["function"]["name"] for t in plan_on.tools] == ["terminal", "tool_search", "tool_describe", "tool_call"]
    assert "stale" not in compact(plan_on.tools)


def test_case22_output_order() -> None:
    tools = [make_tool("A", kind="core"), make_tool("M1", server="m"), make_tool("B", kind="core"),
             make_tool("M2", server="m")]
    plan = _plan(tools)
    assert [t["function"]["name"] for t in plan.tools] == ["A", "B", "tool_search", "tool_describe", "tool_call"]
    assert plan.tools[0] == tools[0].definition and plan.tools[1] == tools[2].definition


def test_case23_listing_off(profile) -> None:
    tools = [make_tool(f"mcp_x_{i}", f"Tool number {i}.", server="x") for i in range(30)]
    plan = _plan(tools, 1000, enabled="on", listing="off")
    assert (plan.activated, plan.listing_form, plan.tier) == (True, "none", 2)
    assert plan.listing is None
    assert "mcp_x_0" not in plan.tool_search_description
    assert plan.tool_search_description == profile.text("tool_search", "description", count=30)
    assert [s.state for s in plan.servers] == ["hidden"]


def test_case24_deferred_count_in_the_first_sentence(profile) -> None:
    tools = [make_tool(f"t{i}", "d", server="x") for i in range(31)]
    plan30 = _plan(tools[:30], listing="off")
    plan31 = _plan(tools, listing="off")
    first = plan30.tool_search_description.split(". ")[0]
    assert "30" in first and "31" not in first
    assert "31" in plan31.tool_search_description.split(". ")[0]
    assert plan30.tools[0] != plan31.tools[0]


def test_case8_threshold_zero_gives_tier_2_form_none(profile) -> None:
    plan = _plan([make_tool("m", "d", server="x")], 200_000, threshold_pct=0)
    assert (plan.budget, plan.activated, plan.tier, plan.listing_form) == (0, True, 2, "none")
    assert plan.tool_search_description == profile.text("tool_search", "description", count=1)


def test_core_tools_defer_only_when_named(profile) -> None:
    tools = [make_tool("terminal", kind="core", server="shell"), make_tool("todo_list", "Todo.", kind="core", server="todo"),
             make_tool("m", "Mcp.", server="x")]
    default = _plan(tools)
    assert [t["function"]["name"] for t in default.tools][:1] == ["terminal"]
    assert default.deferred_count == 2
    assert "todo tools (1):" in default.listing
    none_deferred = _plan(tools, defer=[])
    assert [t["function"]["name"] for t in none_deferred.tools][:2] == ["terminal", "todo_list"]
    assert none_deferred.deferred_count == 1
    only_terminal = _plan(tools, defer=["terminal"])
    assert only_terminal.deferred_count == 2
    assert [t["function"]["name"] for t in only_terminal.tools][:1] == ["todo_list"]


@pytest.mark.parametrize("budget_key, form, tier", [
    ("full", "full", 1), ("names", "names", 1), ("mixed", "mixed", 1), ("groups", "groups", 2), ("none", "none", 2),
])
def test_tiers_and_framing_per_form(profile, budget_key, form, tier) -> None:
    tools = _case30_tools()
    planner = Planner(registration(tools))
    header = profile.text("listing", "header")
    big, small = planner.deferral(C.DEFAULT_DEFER).groups
    texts = {
        "full": [big.full, small.full], "names": [big.names_block, small.names_block],
        "mixed": [big.summary, small.names_block], "groups": [big.summary, small.summary],
    }
    if budget_key == "groups":
        # make groups reachable: it needs the all-summary text to be the first fit
        tools = [make_tool(f"a_{i:03d}", "d", server="aa") for i in range(80)] + \
                [make_tool(f"b_{i:03d}", "d", server="bb") for i in range(70)]
        planner = Planner(registration(tools))
        a, b = planner.deferral(C.DEFAULT_DEFER).groups
        texts["groups"] = [a.summary, b.summary]
    if budget_key == "none":
        plan = planner.plan(parse_config({"threshold_pct": 0}), 1000)
    else:
        budget = ceil4("\n".join([header, *texts[budget_key]]))
        # threshold_pct 100 → the pct leg is the context length itself
        plan = planner.plan(parse_config({"threshold_pct": 100, "listing_max_tokens": 60000}), budget)
        assert plan.budget == budget
    assert (plan.listing_form, plan.tier) == (form, tier)
    base = profile.text("tool_search", "description", count=plan.deferred_count)
    if form == "none":
        assert plan.tool_search_description == base
        return
    assert plan.listing == "\n".join([header, *texts[budget_key]])
    assert plan.listing_tokens == ceil4(plan.listing) <= plan.budget
    framing = {
        "full": profile.text("framing", "listed"), "names": profile.text("framing", "listed"),
        "mixed": profile.text("framing", "listed") + " " + profile.text("framing", "mixed_extra"),
        "groups": profile.text("framing", "groups"),
    }[form]
    assert plan.tool_search_description == f"{base}\n\n{framing}\n\n{plan.listing}"
    assert plan.tools[-3]["function"]["description"] == plan.tool_search_description


def test_bridge_schemas_fixed_key_order(profile) -> None:
    search, describe, call = bridge_definitions("DESC", profile)
    assert compact(search) == (
        '{"type":"function","function":{"name":"tool_search","description":"DESC","parameters":'
        '{"type":"object","properties":{"queries":{"type":"array","items":{"type":"string"},"description":'
        + json.dumps(profile.text("tool_search", "queries"), ensure_ascii=False)
        + '},"limit":{"type":"integer","description":'
        + json.dumps(profile.text("tool_search", "limit"), ensure_ascii=False)
        + '}},"required":["queries"]}}}')
    assert describe["function"]["parameters"]["required"] == ["names"]
    assert list(describe["function"]["parameters"]["properties"]["names"]) == ["type", "items", "description"]
    item = call["function"]["parameters"]["properties"]["calls"]["items"]
    assert list(item["properties"]) == ["name", "arguments"]
    assert item["required"] == ["name", "arguments"]
    assert call["function"]["parameters"]["required"] == ["calls"]
    # The limit text does not change with config.
    a = Planner(registration([make_tool("m", server="x")])).plan(parse_config({"max_search_limit": 3}))
    b = Planner(registration([make_tool("m", server="x")])).plan(parse_config({}))
    assert a.tools == b.tools


def test_tool_search_description_helper(profile) -> None:
    base = profile.text("tool_search", "description", count=4)
    assert tool_search_description(4, "none", None, profile) == base
    assert tool_search_description(4, "full", None, profile) == base


def test_case81_same_input_same_bytes() -> None:
    tools = _case30_tools()
    config = parse_config({"threshold_pct": 1})
    one = Planner(registration(tools)).plan(config, 12_000)
    two = Planner(registration([make_tool(t.name, t.description, server=t.server) for t in tools])).plan(config, 12_000)
    assert one.listing_form == "mixed"
    assert compact(one.tools) == compact(two.tools)


def test_500_deferred_tools_keep_the_tool_search_schema_bounded(profile) -> None:
    # docs/reference.md §3: the reference guards the whole tool_search schema under 4,500 estimated tokens.
    tools = [make_tool(f"tool_{i:03d}", "Does a specific thing for the user. More text.", server=f"s{i % 7}")
             for i in range(500)]
    plan = _plan(tools)
    assert plan.listing_tokens <= 4000
    bare = bridge_definitions(profile.text("tool_search", "description", count=500), profile)[0]
    search_tokens = ceil4(compact(plan.tools[0]))
    # bounded by the bare bridge + framing + the listing budget (plus JSON escapes of newlines)
    slack = ceil4(profile.text("framing", "listed") + profile.text("framing", "mixed_extra")) + 2 * 40
    assert search_tokens <= ceil4(compact(bare)) + 4000 + slack
    assert search_tokens < 4500


# --- plan details: tokenizers, negative context, server rows --------------------------------------------

def test_plan_with_a_bpe_planning_tokenizer_counts_the_listing_exactly() -> None:
    planner = Planner(registration(_case30_tools()))
    plan = planner.plan(parse_config({}), None, tokenizer="o200k_base")
    tk = get_tokenizer("o200k_base")
    assert plan.planning_tokenizer == "o200k_base"
    assert plan.listing_tokens == tk.count(plan.listing) <= plan.budget


def test_negative_context_length_falls_back_with_a_note() -> None:
    plan = _plan([make_tool("m", "d", server="x")], -5, threshold_pct=50, listing_max_tokens=60000)
    assert plan.budget == 10_000
    assert plan.budget_winner == "unknown-context fallback"
    assert plan.notes == ("context length -5 is negative: treated as unknown (docs/reference.md §4 fallback)",)


def test_server_rows_through_the_inspector(profile) -> None:
    catalog = Catalog("t", (
        Server("github", "mcp", (Tool("create_issue", "Open an issue.", {"type": "object"}), Tool("list", "List."))),
        Server("shell", "core", (Tool("terminal", "Run."),)),
        Server("empty", "mcp", ()),
    ))
    plan = Inspector(catalog).plan(parse_config({}), 200_000)
    rows = {s.name: s for s in plan.servers}
    assert list(rows) == ["empty", "github", "shell"]
    gh = rows["github"]
    group_full = "github tools (2):\n- mcp__github__create_issue: Open an issue.\n- mcp__github__list: List."
    assert (gh.kind, gh.tool_count, gh.deferred_count, gh.state) == ("mcp", 2, 2, "full")
    assert gh.full_tokens == ceil4(group_full)
    assert gh.names_tokens == ceil4("github tools (2):\nmcp__github__create_issue, mcp__github__list")
    assert gh.summary_tokens == ceil4("github (2 tools — names not listed; discover via `tool_search`)")
    defs = [{"type": "function", "function": {"name": "mcp__github__create_issue", "description": "Open an issue.",
                                               "parameters": {"type": "object", "properties": {}, "required": []}}},
            {"type": "function", "function": {"name": "mcp__github__list", "description": "List.",
                                               "parameters": {"type": "object", "properties": {}, "required": []}}}]
    assert gh.schema_tokens == ceil4(sum(len(compact(d)) for d in defs)) == plan.deferred_tokens
    assert (rows["shell"].state, rows["shell"].kind, rows["shell"].full_tokens) == ("visible", "core", 0)
    assert (rows["empty"].state, rows["empty"].tool_count) == ("hidden", 0)
    assert plan.listing == profile.text("listing", "header") + "\n" + group_full


def test_the_degradation_steps_do_not_grow_with_the_square_of_the_servers() -> None:
    """Step k collapses the first k servers, and each step kept its own tuple of them: n²/2
    labels for n servers. A catalog file of 2.5 MB with 20,000 one-tool servers took 1.7 GB and
    the 64 MiB reading limit bounded nothing. The steps now share one collapse order; each still
    reads (and compares) as the tuple it stands for, and the steps table names the first and last
    few of a long list."""
    import tracemalloc

    from toolsearch.engine.listing import COLLAPSED_NAMED_MAX, GroupBlocks, collapsed_words

    n = 3000
    groups = [GroupBlocks(label=f"s{k:05d}", names=("t",), full=f"s{k:05d} tools (1):\n- t: x" + "y" * (k % 7),
                          names_block=f"s{k:05d} tools (1):\nt", summary=f"s{k:05d} (1 tool)") for k in range(n)]
    tracemalloc.start()
    try:
        choice = choose_listing(groups, 1, "header")
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert choice.form == "none" and len(choice.steps) == n + 2
    assert held < 5_000_000, f"{held:,} bytes held for {n:,} steps"  # one tuple per step: over 36 MB
    order = choice.collapse_order
    last = choice.steps[-1].collapsed
    assert last == tuple(order) and tuple(order) == last and len(last) == n and last[-1] == order[-1]
    assert choice.steps[2].collapsed == (order[0],) and order[1] not in choice.steps[2].collapsed
    assert list(last[:3]) == list(order[:3]) and hash(last) == hash(tuple(order))
    assert collapsed_words(order[:COLLAPSED_NAMED_MAX]) == ", ".join(order[:COLLAPSED_NAMED_MAX])
    assert collapsed_words(last) == (", ".join(order[:5]) + f", … {n - 10:,} more …, " + ", ".join(order[-5:]))
    assert len(collapsed_words(last)) < 200


def test_a_collapsed_prefix_slices_like_its_tuple() -> None:
    """A slice of a step's collapsed labels reads only the labels it returns (a steps table reads the
    first and last five at every step) and equals the same slice of the tuple, any step included."""
    from toolsearch.engine.listing import CollapsedPrefix

    order = tuple(f"s{k}" for k in range(9))
    for count in (0, 1, 5, 9):
        prefix, plain = CollapsedPrefix(order, count), order[:count]
        for start in (None, -12, -3, 0, 2, 7, 12):
            for stop in (None, -12, -2, 0, 3, 9, 12):
                for step in (None, 1, 2, -1, -3):
                    cut = slice(start, stop, step)
                    assert prefix[cut] == plain[cut], (count, cut)
