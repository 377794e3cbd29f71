"""Cache-stability diff (``toolsearch.analysis.cachediff``) and the better-collapse what-if
(``toolsearch.analysis.collapse``): engine, CLI (``diff``, ``collapse``) and the "Compare & collapse" page.

Expected offsets are derived by hand from the wording profile's texts and the docs/reference.md §5.3 / §5.6
composition (base, blank line, framing, blank line, header, one block per group), then located in
the compact JSON with ``json.dumps`` of the description prefix. Expected collapse choices are
derived from block lengths written out with the docs/reference.md §5.3 formulas (heading = len(label) +
digits(N) + 10; summary = len(label) + digits(N) + 56 for the shipped profile).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import inspector_of, literal_tables, run_cli, write_yaml
from toolsearch.cli import diff as cli_diff
from toolsearch.analysis.cachediff import Side, compare, first_difference
from toolsearch.engine.catalog import catalog_from_data
from toolsearch.analysis.collapse import best_collapse, collapse_table, compare_collapse, reference_collapse
from toolsearch.analysis.quantities import form_word
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.listing import GroupBlocks
from toolsearch.engine.profile import default_profile, profile_from_text
from toolsearch.engine.tokens import compact_json, get_tokenizer

ROOT = Path(__file__).absolute().parent.parent
SAMPLES = ROOT / "sample_catalogs"
EXAMPLES = ROOT / "docs" / "examples"
PROFILE = default_profile()
DEFAULTS = parse_config({})
#: Compact JSON before the tool_search description when no tool is visible.
ARRAY_HEAD = '[{"type":"function","function":{"name":"tool_search","description":"'


def inspector(servers: list[dict], naming: str = "as-is", profile=None) -> Inspector:
    return Inspector(catalog_from_data({"name": "hand-made", "servers": servers}, "hand-made.yaml"), naming, profile)


def server(name: str, *tools: tuple[str, str], kind: str = "mcp") -> dict:
    return {"name": name, "kind": kind, "tools": [{"name": n, "description": d} for n, d in tools]}


def side(i: Inspector, context: int | None = 200_000, config=DEFAULTS, label: str = "A", tokenizer: str = "chars4") -> Side:
    return Side(i, config, context, tokenizer, label, "hand-made.yaml")


def base(count: int) -> str:
    return PROFILE.text("tool_search", "description", count=count)


def listed_prefix(count: int) -> str:
    """Description text before the first group block (forms full/names: the 'listed' framing)."""
    return base(count) + "\n\n" + PROFILE.text("framing", "listed") + "\n\n" + PROFILE.text("listing", "header") + "\n"


def array_offset(description_prefix: str) -> int:
    """Offset in the compact tools array (no visible tools) of a description position."""
    return len(ARRAY_HEAD) + len(json.dumps(description_prefix, ensure_ascii=False)) - 2


ALPHA = server("alpha", ("a1", "Open an issue. Details follow."), ("a2", "List issues."))
BETA = server("beta", ("b1", "Post a message."))


# --- first_difference ------------------------------------------------------------------------

def test_first_difference_positions():
    d = first_difference("ab\ncdé€x", "ab\ncdé€y", context=3)
    assert (d.offset, d.byte_offset, d.line, d.column) == (7, 10, 2, 5)  # é is 2 bytes, € 3 bytes
    assert (d.before, d.after_a, d.after_b, d.truncated_before) == ("dé€", "x", "y", True)
    assert first_difference("same", "same") is None
    d = first_difference("abc", "abcdef", context=2)
    assert (d.offset, d.after_a, d.after_b, d.more_b) == (3, "", "de", True)
    assert d.render().splitlines() == ["A │ …bc⟨end⟩", "B │ …bcde…", "  │    ^ first difference"]
    # the label goes before the caret only where there is room for it (here there is not)
    assert d.render(label_before_caret=True) == d.render()


def test_caret_label_before_the_caret_ends_the_line_at_the_caret():
    """The app's code box is narrower than the excerpts beside the sidebar (1024 px): with the label
    after the caret, "^ first difference" was cut after "^ first diffe"; before it, the line ends at
    the caret, under the first differing character."""
    a, b = "x" * 60 + "alpha and more text", "x" * 60 + "beta and more text"
    d = first_difference(a, b)
    lines = d.render(label_before_caret=True).splitlines()
    column = lines[0].index("…") + 1 + len(d.before)  # the first character after the shared part
    assert lines[0][column] == "a" and lines[1][column] == "b"
    assert lines[2].rstrip().endswith("first difference ^") and len(lines[2]) == column + 1
    assert d.render().splitlines()[2] == lines[2][:4] + " " * (column - 4) + "^ first difference"  # the CLI's


# --- cache diff: hand-made cases ---------------------------------------------------------------

def test_same_input_is_identical_and_a_cache_hit():
    i = inspector([ALPHA, BETA])
    reordered = inspector([BETA, ALPHA])  # docs/reference.md §5.2: input order never changes the bytes
    diff = compare(side(i), side(reordered, label="B"))
    text = compact_json(i.plan(DEFAULTS, 200_000).tools)
    assert diff.identical and diff.cache_hit
    assert diff.tools is None and diff.description is None
    assert diff.causes == ()
    r = diff.reusable
    # Tokens are the plan's "Tools array with tool search" (chars4 leaves out the array's brackets and
    # commas); characters are the serialized array's.
    tools_tokens = i.plan(DEFAULTS, 200_000).tools_tokens
    assert tools_tokens < math.ceil(len(text) / 4)
    assert (r.characters, r.bytes, r.tokens, r.total_tokens_b) == (len(text), len(text.encode()), tools_tokens,
                                                                   tools_tokens)
    assert r.share_of_b == 1.0


def test_changed_deferred_count_differs_in_the_first_sentence():
    a = inspector([ALPHA, BETA])
    b = inspector([ALPHA, server("beta", ("b1", "Post a message."), ("b2", "Edit a message."))])
    diff = compare(side(a), side(b, label="B"))
    at = PROFILE.sections["tool_search"]["description"].index("{count}")  # "3" vs "4"
    assert not diff.cache_hit
    assert diff.tools.first.offset == array_offset(base(3)[:at]) == len(ARRAY_HEAD) + at
    assert (diff.tools.path_a, diff.tools.tool_a) == ("tools[0].function.description", "tool_search")
    assert (diff.tools.string_line, diff.tools.string_column) == (1, at + 1)
    assert (diff.description.offset, diff.description.line, diff.description.column) == (at, 1, at + 1)
    assert diff.region_a == diff.region_b == "base text: the deferred count (first sentence)"
    assert diff.description.after_a.startswith("3 ") and diff.description.after_b.startswith("4 ")
    kinds = [c.kind for c in diff.causes]
    assert kinds == ["deferred_count", "tool_added"]
    assert diff.causes[0].detail == {"a": 3, "b": 4}
    assert diff.causes[1].detail == {"server": "beta", "tools": ["b2"]}
    assert diff.reusable.characters == diff.tools.first.offset
    assert diff.reusable.tokens == diff.tools.first.offset // 4


def test_adding_a_server():
    a = inspector([ALPHA, BETA])
    b = inspector([ALPHA, BETA, server("gamma", ("g1", "Ping."))])
    diff = compare(side(a), side(b, label="B"))
    at = PROFILE.sections["tool_search"]["description"].index("{count}")
    assert diff.tools.first.offset == len(ARRAY_HEAD) + at
    assert [c.kind for c in diff.causes] == ["server_added", "deferred_count"]
    assert diff.causes[0].detail == {"server": "gamma", "tools": 1}
    assert diff.causes[0].message == "server 'gamma' added: only on B (1 tool)."


def test_removing_a_server_names_the_side_it_is_on():
    a = inspector([ALPHA, BETA, server("gamma", ("g1", "Ping."), ("g2", "Pong."))])
    b = inspector([ALPHA, BETA])
    diff = compare(side(a, label="old"), side(b, label="new"))
    removed = [c for c in diff.causes if c.kind == "server_removed"]
    assert [c.detail for c in removed] == [{"server": "gamma", "tools": 2}]
    assert removed[0].message == "server 'gamma' removed: only on old (2 tools)."


def test_adding_a_server_with_the_same_count_differs_in_the_listing():
    a = inspector([ALPHA, BETA])
    b = inspector([server("alpha", ("a1", "Open an issue. Details follow.")), BETA, server("gamma", ("g1", "Ping."))])
    diff = compare(side(a), side(b, label="B"))
    prefix = listed_prefix(3) + "alpha tools ("  # "2" vs "1"
    assert diff.description.offset == len(prefix)
    assert diff.tools.first.offset == array_offset(prefix)
    assert diff.region_a == diff.region_b == "listing group 'alpha' (full)"
    assert [c.kind for c in diff.causes] == ["server_added", "tool_removed"]
    assert "(its group heading or summary count changes too)" in diff.causes[1].message


def test_renamed_tool():
    a = inspector([server("alpha", ("create_issue", "Open an issue."), ("list_issues", "List issues."))])
    b = inspector([server("alpha", ("open_issue", "Open an issue."), ("list_issues", "List issues."))])
    diff = compare(side(a), side(b, label="B"))
    prefix = listed_prefix(2) + "alpha tools (2):\n- "  # "create_issue" vs "list_issues" (sorted by name)
    assert diff.description.offset == len(prefix)
    assert diff.tools.first.offset == array_offset(prefix)
    assert diff.description.line == prefix.count("\n") + 1 and diff.description.column == 3
    assert [c.kind for c in diff.causes] == ["tool_renamed"]
    assert diff.causes[0].detail == {"renamed": [{"a": "create_issue", "b": "open_issue", "server": "alpha"}]}
    assert diff.causes[0].message == ("1 tool renamed (same server, same description or schema): "
                                      "create_issue → open_issue.")


def test_edited_first_sentence():
    a = inspector([server("alpha", ("a1", "Open an issue. Details follow."))])
    b = inspector([server("alpha", ("a1", "Open a ticket. Details follow."))])
    diff = compare(side(a), side(b, label="B"))
    prefix = listed_prefix(1) + "alpha tools (1):\n- a1: Open a"  # "n issue." vs " ticket."
    assert diff.description.offset == len(prefix)
    assert diff.tools.first.offset == array_offset(prefix)
    assert [c.kind for c in diff.causes] == ["first_sentence"]
    assert diff.causes[0].detail == {"tools": ["a1"], "a": ["Open an issue."], "b": ["Open a ticket."]}
    assert diff.causes[0].message == ("1 listed tool has an edited first sentence (shown in full-form listing "
                                      "lines): a1.")


def test_edit_after_the_first_sentence_keeps_the_cache():
    a = inspector([server("alpha", ("a1", "Open an issue. Details follow."))])
    b = inspector([server("alpha", ("a1", "Open an issue. Other details."))])
    diff = compare(side(a), side(b, label="B"))
    assert diff.cache_hit and diff.causes == ()
    assert [c.kind for c in diff.notes] == ["description_tail"]
    assert diff.notes[0].message == ("1 deferred tool changed only after the first sentence (not in the prefix; "
                                     "tool_describe returns it): a1.")


def test_context_length_change_flips_the_form():
    tools = [(f"a{k}", f"Synchronize enterprise credentials across regions number {k}.") for k in range(1, 9)]
    i = inspector([server("alpha", *tools)])
    assert (i.plan(DEFAULTS, 200_000).listing_form, i.plan(DEFAULTS, 2_000).listing_form) == ("full", "names")
    diff = compare(side(i, 200_000), side(i, 2_000, label="B"))
    prefix = listed_prefix(8) + "alpha tools (8):\n"  # "- a1: …" vs "a1, a2, …"
    assert diff.description.offset == len(prefix)
    assert diff.tools.first.offset == array_offset(prefix)
    assert (diff.region_a, diff.region_b) == ("listing group 'alpha' (full)", "listing group 'alpha' (names)")
    assert [c.kind for c in diff.causes] == ["form", "server_states"]
    assert diff.causes[0].message == ("listing form full → names (tier 1 on both) at budget 4,000 → 100 tokens "
                                      "(context length 200K → 2K).")


def test_context_length_change_to_mixed_differs_at_the_framing():
    i = inspector_of([SAMPLES / "team-workspace.yaml"])
    a, b = i.plan(DEFAULTS, 200_000), i.plan(DEFAULTS, 8_000)
    assert (a.listing_form, b.listing_form) == ("full", "mixed")
    diff = compare(side(i, 200_000), side(i, 8_000, label="B"))
    n = a.deferred_count
    prefix = base(n) + "\n\n" + PROFILE.text("framing", "listed")  # B adds the mixed sentence
    assert diff.description.offset == len(prefix)
    assert (diff.region_a, diff.region_b) == ("listing header", "framing paragraph (form mixed)")
    visible = compact_json(a.tools[: a.visible_count])[:-1] + ","
    assert diff.tools.first.offset == len(visible) + array_offset(prefix) - 1


def test_budget_change_without_a_form_change_is_a_hit():
    i = inspector([ALPHA, BETA])
    diff = compare(side(i, 200_000), side(i, 100_000, label="B"))
    assert diff.cache_hit
    assert [c.kind for c in diff.notes] == ["budget"]
    assert diff.notes[0].message == ("context length 200K → 100K: the same budget (4,000 tokens), "
                                     "so the listing is chosen the same way.")


def test_budget_change_within_mixed_changes_server_states():
    i = inspector_of([SAMPLES / "team-workspace.yaml"])
    diff = compare(side(i, 8_000), side(i, 8_000, config=parse_config({"listing_max_tokens": 300}), label="B"))
    assert [c.kind for c in diff.causes] == ["server_states"]
    assert diff.causes[0].message == ("1 server changes state in the listing: filesystem names → summary (form mixed "
                                      "on both, at budget 400 → 300 tokens (listing_max_tokens 4,000 → 300)).")
    assert (diff.region_a, diff.region_b) == ("listing group 'filesystem' (names)", "listing group 'filesystem' (summary)")
    assert diff.notes == ()


def test_counts_in_cause_messages_agree_in_number():
    """Several tools or servers read as plurals ("2 deferred tools", "2 servers change"), one as a singular."""
    a = inspector([server("alpha", ("a1", "Open an issue."), ("a2", "List issues.")),
                   server("beta", ("b1", "Post a message."))])
    b = inspector([server("alpha", ("a1", "Open an issue. Longer now."), ("a2", "List issues. Longer too.")),
                   server("beta", ("b1", "Post a message."), ("b2", "Edit a message."), ("b3", "Pin a message."))])
    diff = compare(side(a), side(b, label="B"))
    by_kind = {c.kind: c.message for c in (*diff.causes, *diff.notes)}
    assert by_kind["tool_added"] == ("server 'beta': 2 deferred tools added: b2, b3 "
                                     "(its group heading or summary count changes too).")
    assert by_kind["description_tail"] == ("2 deferred tools changed only after the first sentence (not in the "
                                           "prefix; tool_describe returns it): a1, a2.")
    i = inspector_of([SAMPLES / "team-workspace.yaml"])
    diff = compare(side(i, 8_000), side(i, 8_000, config=parse_config({"listing_max_tokens": 200}), label="B"))
    assert [c.message for c in diff.causes] == [
        "2 servers change state in the listing: filesystem names → summary, sentry names → summary (form mixed "
        "on both, at budget 400 → 200 tokens (listing_max_tokens 4,000 → 200))."]


def test_visible_tool_added_differs_at_the_first_tool():
    a = inspector([ALPHA])
    b = inspector([server("shell", ("terminal", "Run a command."), kind="core"), ALPHA])
    diff = compare(side(a), side(b, label="B"))
    assert diff.tools.first.offset == len('[{"type":"function","function":{"name":"t')  # "ool_search" vs "erminal"
    assert diff.tools.path_a == diff.tools.path_b == "tools[0].function.name"
    assert (diff.tools.string_line, diff.tools.string_column) == (1, 2)
    assert (diff.tools.tool_a, diff.tools.tool_b) == ("tool_search", "terminal")
    assert diff.description is None  # the tool_search descriptions are equal
    assert [c.kind for c in diff.causes] == ["server_added", "visible_tools"]


def test_defer_change_moves_a_tool_to_visible():
    i = inspector([ALPHA, server("shell", ("terminal", "Run a command."), ("todo_list", "Keep a task list."),
                                 kind="core")])
    diff = compare(side(i), side(i, config=parse_config({"defer": []}), label="B"))
    assert [c.kind for c in diff.causes] == ["defer", "deferred_count", "visible_tools"]
    assert diff.causes[0].detail == {"moved": ["todo_list"]}
    assert diff.causes[0].message == "defer list differs: 1 tool changes between deferred and visible (todo_list)."
    assert diff.causes[2].detail == {"a": ["terminal"], "b": ["terminal", "todo_list"], "changed": []}
    # visible tools come first: "terminal" is identical, then B continues with todo_list
    terminal = compact_json(i.plan(DEFAULTS, 200_000).tools[:1])[:-1]
    assert diff.tools.first.offset == len(terminal + ',{"type":"function","function":{"name":"to')
    assert (diff.tools.tool_a, diff.tools.tool_b) == ("tool_search", "todo_list")


def test_wording_profile_and_naming_changes():
    text = (Path(__file__).parent.parent / "toolsearch" / "engine" / "profiles" / "default.yaml").read_text(encoding="utf-8")
    other = profile_from_text(text.replace("Deferred tools below:", "Deferred tools:").replace(
        "name: toolsearch default", "name: edited"), "edited.yaml")
    a = inspector([ALPHA])
    diff = compare(side(a), side(inspector([ALPHA], profile=other), label="B"))
    assert diff.region_a == diff.region_b == "listing header"
    assert [c.kind for c in diff.causes] == ["profile"]
    assert diff.causes[0].detail["changed"] == ["listing.header"]
    assert diff.causes[0].message == "wording profile 'toolsearch default' → 'edited': 1 text differs (listing.header)."
    diff = compare(side(a), side(inspector([ALPHA], naming="prefixed"), label="B"))
    assert [c.kind for c in diff.causes] == ["naming"]
    assert diff.description.after_b.startswith("mcp__alpha__a1")


def test_reusable_tokens_with_a_bpe_tokenizer():
    i = inspector_of([SAMPLES / "team-workspace.yaml"])
    diff = compare(side(i, 200_000, tokenizer="o200k_base"), side(i, 32_000, label="B", tokenizer="o200k_base"))
    tk = get_tokenizer("o200k_base")
    text_a = compact_json(i.plan(DEFAULTS, 200_000, "o200k_base").tools)
    common = tk.count(text_a[: diff.reusable.characters])
    assert diff.reusable.tokenizer == "o200k_base"
    assert common - 3 <= diff.reusable.tokens <= common
    assert diff.reusable.total_tokens_a == tk.count(text_a)


# --- collapse: hand-made catalogs with exact states ---------------------------------------------

def names_block_len(label: str, names: list[str]) -> int:
    return len(label) + len(str(len(names))) + 10 + 1 + sum(map(len, names)) + 2 * (len(names) - 1)


def summary_len(label: str, names: list[str]) -> int:
    return len(label) + len(str(len(names))) + 56


def at_budget(budget: int):
    return parse_config({"threshold_pct": 100}), budget  # budget = int(budget × 1.0) (docs/reference.md §4)


def test_missed_fit_example_reference_shows_nothing():
    i = inspector_of([EXAMPLES / "collapse-missed-fit.yaml"], "as-is")
    erp = i.catalog.servers[0].name
    git = [t.name for t in i.catalog.servers[1].tools]
    header = len(PROFILE.text("listing", "header"))
    n_erp, s_erp = names_block_len(erp, ["ping"]), summary_len(erp, ["ping"])
    n_git, s_git = names_block_len("git", git), summary_len("git", git)
    assert n_erp > n_git and s_erp > n_erp and s_git < n_git  # docs/reference.md §5.4's example shape
    names = header + 1 + n_erp + 1 + n_git
    config, ctx = at_budget(70)
    assert math.ceil(names / 4) > 70                                  # names does not fit
    assert math.ceil((names - n_erp + s_erp) / 4) > 70                # erp collapsed: grows
    assert math.ceil((names - n_erp + s_erp - n_git + s_git) / 4) > 70  # both collapsed
    assert math.ceil((names - n_git + s_git) / 4) <= 70               # git alone fits
    cmp = compare_collapse(i.planner, config, ctx)
    assert cmp.verdict == "missed_fit" and cmp.exact
    assert (cmp.reference.form, dict(cmp.reference.states)) == ("none", {erp: "hidden", "git": "hidden"})
    assert (cmp.best.form, dict(cmp.best.states)) == ("mixed", {erp: "names", "git": "summary"})
    assert (cmp.best.kept, cmp.best.names_shown, cmp.best.collapsed) == (1, 1, ("git",))
    assert cmp.best.tokens == math.ceil((names - n_git + s_git) / 4)
    assert {s.server: (s.reference, s.best) for s in cmp.servers} == {erp: ("hidden", "names"), "git": ("hidden", "summary")}
    assert i.plan(config, ctx).listing_form == "none"  # the reference plan itself is unchanged


def test_reference_collapses_more_servers_than_needed():
    i = inspector_of([EXAMPLES / "collapse-more-servers.yaml"], "as-is")
    wh = i.catalog.servers[0].name
    config, ctx = at_budget(76)
    cmp = compare_collapse(i.planner, config, ctx)
    assert cmp.verdict == "fewer_collapsed"
    assert dict(cmp.reference.states) == {"git": "summary", "jq": "names", wh: "summary"}
    assert cmp.reference.collapsed == (wh, "git")  # its names block is the largest, so it goes first
    assert dict(cmp.best.states) == {"git": "summary", "jq": "names", wh: "names"}
    assert (cmp.reference.form, cmp.best.form) == ("mixed", "mixed")
    assert (cmp.reference.kept, cmp.best.kept) == (1, 2)
    assert (cmp.reference.names_shown, cmp.best.names_shown) == (1, 2)
    assert cmp.summary == ("The reference collapses 2 servers to a summary line; 1 would be enough (1 → 2 servers kept "
                           "at names, 1 → 2 tool names).")


def test_same_number_collapsed_but_more_names_shown():
    many = [f"a{k:04d}" for k in range(1, 21)]              # 20 short names: big block, big saving
    few = ["b" * 59 + "1", "b" * 59 + "2"]                 # 2 long names: smaller block
    i = inspector([server("a", *[(n, "Do a.") for n in many]), server("b", *[(n, "Do b.") for n in few]),
                   server("c", ("c1", "Do c."))])
    header = len(PROFILE.text("listing", "header"))
    na, nb, nc = names_block_len("a", many), names_block_len("b", few), names_block_len("c", ["c1"])
    sa, sb = summary_len("a", many), summary_len("b", few)
    names = header + 3 + na + nb + nc
    assert na > nb and math.ceil((names - nb + sb) / 4) <= 81 < math.ceil(names / 4)
    config, ctx = at_budget(81)
    cmp = compare_collapse(i.planner, config, ctx)
    assert cmp.verdict == "more_names"
    assert dict(cmp.reference.states) == {"a": "summary", "b": "names", "c": "names"}
    assert dict(cmp.best.states) == {"a": "names", "b": "summary", "c": "names"}
    assert (cmp.reference.names_shown, cmp.best.names_shown) == (3, 21)
    assert cmp.best.characters == names - nb + sb and cmp.reference.characters == names - na + sa


def test_full_and_names_are_kept_and_not_applicable_cases():
    i = inspector_of([SAMPLES / "team-workspace.yaml"])
    for ctx, form in ((200_000, "full"), (32_000, "names")):
        cmp = compare_collapse(i.planner, DEFAULTS, ctx)
        assert (cmp.verdict, cmp.reference.form, cmp.best.form) == ("same", form, form)
    off = compare_collapse(i.planner, parse_config({"listing": "off"}), 8_000)
    assert (off.verdict, off.applicable, off.best.form) == ("not_applicable", False, "none")
    tier0 = compare_collapse(i.planner, parse_config({"enabled": "off"}), 8_000)
    assert tier0.verdict == "not_applicable" and {s.reference for s in tier0.servers} == {"visible"}


@pytest.mark.parametrize("catalog", ["team-workspace", "unreal-editor", "japanese", "five-servers", "hard-cases"])
@pytest.mark.parametrize("tokenizer", ["chars4", "o200k_base"])
def test_reference_side_equals_the_plan(catalog, tokenizer):
    i = inspector_of([SAMPLES / f"{catalog}.yaml"])
    for ctx in (2_000, 4_000, 8_000, 16_000, 32_000):
        plan = i.plan(DEFAULTS, ctx, tokenizer)
        cmp = compare_collapse(i.planner, DEFAULTS, ctx, tokenizer)
        assert (cmp.reference.form, cmp.reference.text, cmp.reference.tokens) == (plan.listing_form, plan.listing,
                                                                                  plan.listing_tokens)
        assert {s.server: s.reference for s in cmp.servers} == {s.name: s.state for s in plan.servers}
        assert cmp.best.form == "none" or cmp.best.tokens <= cmp.budget
        assert (-cmp.best.kept, -cmp.best.names_shown) <= (-cmp.reference.kept, -cmp.reference.names_shown)


def test_collapse_table_rows():
    i = inspector_of([SAMPLES / "team-workspace.yaml"])
    rows = collapse_table(i.planner, DEFAULTS, [8_000, 200_000])
    assert [(r.budget, r.verdict, r.reference_form, r.best_form) for r in rows] == [
        (400, "more_names", "mixed", "mixed"), (4_000, "same", "full", "full")]
    assert (rows[0].reference_names, rows[0].best_names) == (25, 35)


# --- collapse: brute-force cross-checks ---------------------------------------------------------

def objective(states: dict[str, str], groups: list[GroupBlocks], length: int, order: list[str]) -> tuple:
    collapsed = [g for g in groups if states[g.label] == "summary"]
    positions = tuple(sorted(order.index(g.label) for g in collapsed))
    return (len(collapsed), sum(len(g.names) for g in collapsed), length, positions)


def brute_force(groups: list[GroupBlocks], budget: int, header: str, count=None) -> tuple[str, dict[str, str]]:
    """Every subset, the module's objective, fits by the real measure."""
    measure = count or (lambda text: math.ceil(len(text) / 4))
    full = "\n".join([header, *(g.full for g in groups)])
    if measure(full) <= budget:
        return "full", {g.label: "full" for g in groups}
    names = "\n".join([header, *(g.names_block for g in groups)])
    if measure(names) <= budget:
        return "names", {g.label: "names" for g in groups}
    order = [g.label for g in sorted(groups, key=lambda g: (-len(g.names_block), g.label))]
    best = None
    for picks in itertools.product([False, True], repeat=len(groups)):
        if not any(picks):
            continue
        states = {g.label: "summary" if p else "names" for g, p in zip(groups, picks)}
        text = "\n".join([header, *(g.summary if p else g.names_block for g, p in zip(groups, picks))])
        size = measure(text)
        if size <= budget:
            key = objective(states, groups, len(text) if count is None else size, order)
            if best is None or key < best[0]:
                best = (key, states)
    if best is None:
        return "none", {g.label: "hidden" for g in groups}
    return ("groups" if all(s == "summary" for s in best[1].values()) else "mixed"), best[1]


group_spec = st.tuples(st.integers(1, 40), st.integers(1, 160), st.integers(1, 120))


@settings(max_examples=300, deadline=None)
@given(specs=st.lists(group_spec, min_size=1, max_size=7), header=st.integers(1, 100), budget=st.integers(0, 260))
def test_best_collapse_matches_brute_force_chars4(specs, header, budget):
    groups = [GroupBlocks(label=f"g{k}", names=tuple(f"t{j}" for j in range(n)), full="F" * (names + n),
                          names_block="N" * names, summary="S" * summary)
              for k, (n, names, summary) in enumerate(specs)]
    head = "H" * header
    outcome, method, exact = best_collapse(groups, budget, head)
    form, states = brute_force(groups, budget, head)
    assert exact
    assert (outcome.form, dict(outcome.states)) == (form, states)
    reference = reference_collapse(groups, budget, head)
    assert (-outcome.kept, -outcome.names_shown) <= (-reference.kept, -reference.names_shown)
    if reference.form != "none" and (outcome.kept, outcome.names_shown) == (reference.kept, reference.names_shown):
        assert outcome.characters <= reference.characters


@pytest.fixture(scope="module")
def team_groups():
    i = inspector_of([SAMPLES / "team-workspace.yaml"])
    return i.planner.deferral(DEFAULTS.defer).groups, i.planner.header


@settings(max_examples=60, deadline=None)
@given(picks=st.lists(st.booleans(), min_size=9, max_size=9), tokenizer=st.sampled_from(["o200k_base", "cl100k_base"]))
def test_bpe_token_costs_are_additive(team_groups, picks, tokenizer):
    """The module's claim: tokens(header + blocks joined by newlines) = Σ per-block costs."""
    groups, header = team_groups
    tk = get_tokenizer(tokenizer)
    blocks = [g.summary if p else g.names_block for g, p in zip(groups, picks)]
    additive = tk.count(header + "\n") + sum(tk.count(b + "\n") for b in blocks[:-1]) + tk.count(blocks[-1])
    assert tk.count("\n".join([header, *blocks])) == additive


@pytest.mark.parametrize("budget", [400, 800, 1_000])
def test_best_collapse_bpe_matches_brute_force(team_groups, budget):
    groups, header = team_groups
    tk = get_tokenizer("o200k_base")
    outcome, method, exact = best_collapse(groups, budget, header, "o200k_base")
    assert exact and method == "knapsack (BPE, additive token costs, exact)"
    assert (outcome.form, dict(outcome.states)) == brute_force(groups, budget, header, tk.count)


# --- CLI ---------------------------------------------------------------------------------------

def cli_wired() -> bool:
    from toolsearch.cli import commands as cli  # noqa: PLC0415

    parser = cli.build_parser()
    return any("diff" in (getattr(a, "choices", None) or {}) for a in parser._actions)


needs_wiring = pytest.mark.skipif(not cli_wired(), reason="toolsearch.cli.commands does not wire cli_diff.add_parsers yet")
TEAM = str(SAMPLES / "team-workspace.yaml")


def test_run_diff_json_shape(capsys):
    status = cli_diff.main(["diff", TEAM, TEAM, "--context-length", "200k", "--context-length-b", "32k", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 1
    assert set(out) == {"identical", "cache_hit", "a", "b", "tools_array", "tool_search_description",
                        "reusable_prefix", "causes", "notes", "explanation", "rug_pulls"}
    assert out["rug_pulls"] == []  # the same catalog on both sides
    i = inspector_of([TEAM])
    expected = compare(Side(i, DEFAULTS, 200_000, label="A", source=TEAM), Side(i, DEFAULTS, 32_000, label="B", source=TEAM))
    assert out == {**json.loads(json.dumps(expected.to_dict(), ensure_ascii=False)), "rug_pulls": []}
    assert (out["a"]["listing_form"], out["b"]["listing_form"]) == ("full", "names")
    assert [c["kind"] for c in out["causes"]] == ["form", "server_states"]
    assert set(out["tools_array"]) >= {"offset", "byte_offset", "line", "column", "path_a", "path_b", "before",
                                       "after_a", "after_b", "string_line", "string_column"}
    assert set(out["reusable_prefix"]) == {"characters", "bytes", "tokens", "tokenizer", "total_characters_a",
                                           "total_characters_b", "total_tokens_a", "total_tokens_b", "share_of_b"}


def test_run_diff_identical_exits_0(capsys):
    status = cli_diff.main(["diff", TEAM, TEAM, "--threshold-pct-b", "5"])
    out = capsys.readouterr().out
    assert status == 0 and "prompt cache: HIT" in out


def test_run_diff_catalogs_and_side_flags(tmp_path, capsys):
    a = write_yaml(tmp_path / "a.yaml", {"servers": [ALPHA, BETA]})
    b = write_yaml(tmp_path / "b.yaml", {"servers": [ALPHA, BETA, server("gamma", ("g1", "Ping."))]})
    status = cli_diff.main(["diff", str(a), str(b), "--tool-names", "as-is", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 1
    assert out["tools_array"]["offset"] == len(ARRAY_HEAD) + PROFILE.sections["tool_search"]["description"].index("{count}")
    assert [c["kind"] for c in out["causes"]] == ["server_added", "deferred_count"]
    status = cli_diff.main(["diff", str(a), str(a), "--tool-names-b", "prefixed", "--tool-names", "as-is"])
    assert status == 1 and "tool naming as-is → prefixed" in capsys.readouterr().out


def test_run_errors_are_one_line(capsys):
    assert cli_diff.main(["diff", TEAM, "missing.yaml"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing.yaml" in err[0]


def test_run_collapse_json_shape(capsys):
    example = str(EXAMPLES / "collapse-missed-fit.yaml")
    status = cli_diff.main(["collapse", example, "--tool-names", "as-is", "--context-length", "70",
                            "--threshold-pct", "100", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    i = Inspector.from_files([example], "as-is")
    expected = compare_collapse(i.planner, parse_config({"threshold_pct": 100}), 70)
    assert out == json.loads(json.dumps(expected.to_dict(), ensure_ascii=False))
    assert out["what_if"] is True and out["verdict"] == "missed_fit"
    assert (out["reference"]["form"], out["best"]["form"], out["budget"]) == ("none", "mixed", 70)
    assert set(out["servers"][0]) == {"server", "label", "deferred_count", "names_units", "summary_units",
                                      "reference", "best", "names_tokens", "summary_tokens"}


def test_run_collapse_text(capsys):
    assert cli_diff.main(["collapse", TEAM, "--context-length", "8k"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("WHAT-IF, not the reference behavior")
    assert "verdict: Same number of servers collapsed to a summary line, but 10 more tool names shown (25 → 35)." in out


@needs_wiring
def test_console_script_diff_and_collapse(tmp_path):
    result = run_cli("diff", TEAM, TEAM, "--context-length", "200k", "--context-length-b", "8k", "--json")
    assert result.returncode == 1, result.stderr
    out = json.loads(result.stdout)
    assert out["cache_hit"] is False and out["b"]["listing_form"] == "mixed"
    result = run_cli("diff", TEAM, TEAM)
    assert result.returncode == 0 and "prompt cache: HIT" in result.stdout
    result = run_cli("collapse", str(EXAMPLES / "collapse-more-servers.yaml"), "--tool-names", "as-is",
                     "--context-length", "76", "--threshold-pct", "100", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["verdict"] == "fewer_collapsed"
    result = run_cli("diff", TEAM, str(tmp_path / "nope.yaml"))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


# --- the page (AppTest) --------------------------------------------------------------------------

def open_page(query: dict[str, str]):
    from streamlit.testing.v1 import AppTest  # noqa: PLC0415

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/cache_diff.py").run()
    assert not at.exception, at.exception
    return at


def metrics(at) -> list[tuple[str, str]]:
    return [(m.label, m.value) for m in at.metric]


def test_page_shows_the_engine_diff_and_collapse():
    at = open_page({"ctx": "8K"})
    i = inspector_of([TEAM])
    markdown = "\n".join(m.value for m in at.markdown)
    assert "Prompt cache: HIT" in markdown  # side B starts equal to the sidebar
    at.selectbox(key="cmp_b_ctx").set_value("200K").run()
    assert not at.exception, at.exception
    diff = compare(Side(i, DEFAULTS, 8_000, label="A"), Side(i, DEFAULTS, 200_000, label="B"))
    markdown = "\n".join(m.value for m in at.markdown)
    assert "Prompt cache: MISS" in markdown
    shown = metrics(at)
    r = diff.reusable
    assert shown[:3] == [("Reusable prefix (characters)", f"{r.characters:,}"),
                         ("Reusable prefix (tokens, chars4)", f"{r.tokens:,}"),
                         ("Share of B served from the cache", f"{100 * r.share_of_b:.1f}%")]
    codes = [c.value for c in at.code]
    assert codes[0] == diff.tools.first.render(label_before_caret=True)
    assert codes[1] == diff.description.render(label_before_caret=True)
    texts = [t.value for t in at.text]
    assert f"A: {diff.region_a}" in texts[1] and f"B: {diff.region_b}" in texts[1]
    assert texts[2] == "\n".join(f"• {c.kind.replace('_', ' ')}: {c.message}" for c in diff.causes)

    cmp = compare_collapse(i.planner, DEFAULTS, 8_000)
    assert f"Verdict: {cmp.summary}" in [t.value for t in at.text]  # literal text, never markdown
    # how the best choice was found, in words (the page said "method: knapsack (chars4, exact)")
    assert cmp.method == "knapsack (chars4, exact)" and cmp.exact
    [how] = [c.value for c in at.caption if "How the best choice was found" in c.value]
    assert how == (f"Budget {cmp.budget:,} tokens (chars4). How the best choice was found: every set of servers "
                   "that could be collapsed to a summary line was weighed, in characters as chars4 counts them: "
                   "proven the best.")
    assert not any("method:" in c.value for c in at.caption)
    collapse_metrics = shown[3:]
    assert collapse_metrics == [
        ("Form", form_word(cmp.reference.form)), ("Servers named", f"{cmp.reference.kept} of {cmp.groups}"),
        ("Tool names shown", f"{cmp.reference.names_shown:,}"), ("Listing", f"{cmp.reference.tokens:,} tokens"),
        ("Form", form_word(cmp.best.form)), ("Servers named", f"{cmp.best.kept} of {cmp.groups}"),
        ("Tool names shown", f"{cmp.best.names_shown:,}"), ("Listing", f"{cmp.best.tokens:,} tokens")]
    tables = literal_tables(at)
    table = tables["cd_collapse_servers"]
    assert dict(zip(table["server"], zip(table["reference"], table["best (what-if)"]))) == {
        s.server: (s.reference, s.best) for s in cmp.servers}
    # sizes in tokens as on every page, then (chars4 adds servers up in characters) in characters, labeled
    assert cmp.units == "characters"
    assert list(table.columns[2:6]) == ["names block (tokens)", "summary line (tokens)", "names block (characters)",
                                        "summary line (characters)"]
    assert list(table["names block (tokens)"]) == [f"{s.names_tokens:,}" for s in cmp.servers]
    assert list(table["names block (characters)"]) == [f"{s.names_units:,}" for s in cmp.servers]
    assert [c.value for c in at.code][2:4] == [cmp.reference.text, cmp.best.text]
    # the best collapse per context length moved to the Tuning page: one line here points there
    assert "cd_collapse_presets" not in tables
    assert any("Tuning page" in c.value for c in at.caption)
    # B's threshold_pct input uses the sidebar's format (5, 4.7: tests/test_app_budget_box_format.py)
    assert at.number_input(key="cmp_b_pct").proto.format == at.number_input(key="threshold_pct_exact").proto.format == "%g"


def test_page_naming_change_on_side_b():
    at = open_page({})
    at.selectbox(key="cmp_b_naming").set_value("as-is").run()
    assert not at.exception, at.exception
    i = inspector_of([TEAM])
    diff = compare(Side(i, DEFAULTS, 200_000, label="A"), Side(inspector_of([TEAM], "as-is"), DEFAULTS, 200_000,
                                                                 label="B"))
    causes = [t.value for t in at.text][2].splitlines()
    assert causes == [f"• {c.kind.replace('_', ' ')}: {c.message}" for c in diff.causes]
    assert causes[0].startswith("• naming: tool naming prefixed → as-is")


def test_diff_keeps_the_config_files_warnings_beside_a_settings_flag(tmp_path):
    """diff --config FILE --threshold-pct N re-read the settings without the file's warnings: a
    misspelt key went unsaid as soon as a flag was given (plan, check and the rest kept it)."""
    catalog = write_yaml(tmp_path / "catalog.yaml", {"servers": [{"name": "s", "tools": [
        {"name": "t", "description": "A tool.", "inputSchema": {"type": "object"}}]}]})
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    treshold_pct: 3\n", encoding="utf-8")
    warning = f"toolsearch: warning (A): {config}: line 3: tools.tool_search.treshold_pct: unknown key, ignored; did you mean threshold_pct?"
    for flags in ((), ("--threshold-pct", "3")):
        done = run_cli("diff", catalog, catalog, "--config", config, *flags)
        assert warning in done.stderr.splitlines(), (flags, done.stderr)


def test_collapse_method_in_words_says_whether_the_choice_is_proven():
    """Every method :func:`best_collapse` can report reads as a sentence without the code's words
    (knapsack, BPE, "full fits"), and says "not proven the best" exactly when it is not exact."""
    from toolsearch.analysis.collapse import method_words

    methods = ["none", "full fits", "names fit", "knapsack (chars4, exact)",
               "knapsack (BPE, additive token costs, exact)", "knapsack (BPE, approximate token costs)"]
    for method in methods:
        for exact in (True, False):
            words = method_words(method, exact)
            assert not any(jargon in words for jargon in ("knapsack", "BPE", "full fits", "names fit", "method")), words
            assert words.endswith(": not proven the best") == (not exact), (method, exact, words)
    assert method_words("full fits", True) == ("the full listing (every server's tools with their short descriptions) "
                                               "fits the budget, so no server is collapsed and there is no choice "
                                               "to make")
    at = open_page({"ctx": "200K"})
    cmp = compare_collapse(inspector_of([TEAM]).planner, DEFAULTS, 200_000)
    assert cmp.method == "full fits"
    assert f"Budget 4,000 tokens (chars4). How the best choice was found: {method_words('full fits', True)}." in [
        c.value for c in at.caption]


def test_renames_among_many_tools_are_found_as_before_and_each_tool_is_looked_at_a_few_times(monkeypatch):
    """Every removed tool was compared with every added one of its server (and every removed one):
    two catalogs of 20,000 tools took minutes. Tools are grouped by their value first; a rename is
    still one removed and one added tool whose description (else schema) no other tool of their side
    shares, and ``1`` and ``1.0`` in a schema are still the same value."""
    from toolsearch.engine.registration import RegisteredTool

    n = 600
    olds = [(f"old_{i}", f"Tool {i}.") for i in range(n)] + [("twin_a", "Same."), ("twin_b", "Same.")]
    news = [(f"new_{i}", f"Tool {i}.") for i in range(n)] + [("twin_c", "Same.")]
    a = {"name": "alpha", "tools": [{"name": t, "description": d} for t, d in olds]
         + [{"name": "by_schema", "description": "One.", "inputSchema": {"type": "object", "properties": {"x": {"maximum": 1}}}}]}
    b = {"name": "alpha", "tools": [{"name": t, "description": d} for t, d in news]
         + [{"name": "schema_kept", "description": "Two.", "inputSchema": {"type": "object", "properties": {"x": {"maximum": 1.0}}}}]}
    reads = [0]
    original = RegisteredTool.description.fget

    def counted(self):
        reads[0] += 1
        return original(self)

    ia, ib = inspector([a]), inspector([b])
    monkeypatch.setattr(RegisteredTool, "description", property(counted))
    diff = compare(side(ia), side(ib, label="B"))
    assert reads[0] < 20 * n  # each tool a few times: comparing each with each read it about 2n times
    (renamed,) = [c for c in diff.causes if c.kind == "tool_renamed"]
    by_name = sorted(range(n), key=lambda i: f"old_{i}")  # the removed tools' order: by name
    assert renamed.detail["renamed"] == ([{"a": f"old_{i}", "b": f"new_{i}", "server": "alpha"} for i in by_name]
                                         + [{"a": "by_schema", "b": "schema_kept", "server": "alpha"}])
    assert [(c.kind, c.detail["tools"]) for c in diff.causes if c.kind in ("tool_added", "tool_removed")] == [
        ("tool_added", ["twin_c"]), ("tool_removed", ["twin_a", "twin_b"])]
