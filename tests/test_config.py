"""The ``tools.tool_search`` block (docs/reference.md §1) and the budget formula (docs/reference.md §4).

Conformance cases 1–8 of docs/reference.md §13, plus the parsing rules of §1.1–§1.6 and the float-rounding
facts of §4.
"""

from __future__ import annotations

import pytest
from pathlib import Path

from toolsearch.engine import constants as C
from toolsearch.engine.config import (
    ToolSearchConfig,
    dump_config_block,
    load_config,
    normalize_tri_state,
    parse_config,
    parse_defer,
    parse_float,
    parse_int,
)
from toolsearch.engine.errors import ConfigError
from toolsearch.engine.plan import listing_budget

CURATED = (
    "computer_use", "session_search", "image_generate", "todo_list", "process_manage",
    "cronjob_manage", "drive_preview", "gui_tour", "desktop_preview", "annotate_preview",
    "show_tip", "setup_mcp", "desktop_project", "close_terminal", "apply_layout",
    "read_terminal", "read_window_below", "focus_pane",
)


# --- case 1: null config --------------------------------------------------------------------

def test_case1_null_config_gives_every_default() -> None:
    config = parse_config(None)
    assert config.enabled == "auto"
    assert config.threshold_pct == 5.0 and isinstance(config.threshold_pct, float)
    assert config.search_default_limit == 5
    assert config.max_search_limit == 25
    assert config.listing == "auto"
    assert config.listing_max_tokens == 4000
    assert set(config.defer) == set(CURATED)
    assert len(config.defer) == 18
    assert config.defer_is_default is True
    assert config.warnings == ()


def test_curated_defer_set_keeps_clarify_eager() -> None:
    # docs/reference.md §1.7: the A/B of PR #97979 kept clarify out of the curated set.
    assert "clarify" not in parse_config(None).defer
    assert "todo_list" in parse_config(None).defer


def test_empty_mapping_equals_null_config() -> None:
    assert parse_config({}) == parse_config(None) == ToolSearchConfig()


# --- case 2: legacy top-level shapes ----------------------------------------------------------

@pytest.mark.parametrize("value, enabled", [
    (True, "auto"), (False, "off"), (None, "auto"), ("off", "auto"), (0, "auto"), ("false", "auto"),
    ([], "auto"), (1, "auto"),
])
def test_case2_legacy_non_mapping_values(value, enabled) -> None:
    config = parse_config(value)
    assert config.enabled == enabled
    assert config.listing == "auto"
    assert config.threshold_pct == 5.0
    assert config.listing_max_tokens == 4000
    assert config.defer_is_default is True


@pytest.mark.parametrize("value, shown", [("off", "'off'"), (0, "0"), ("false", "'false'"), ([], "[]"), (5, "5")])
def test_a_non_mapping_tool_search_block_that_reads_as_on_is_said(value, shown) -> None:
    """`tool_search: "off"` (quoted) or `tool_search: 0` turns tool search on, as the reference reads
    it; it was read without a word, so a user who meant off never learned it stayed on."""
    assert parse_config(value).warnings == (
        f"tools.tool_search: {shown} is not a mapping of settings, so it was read as enabled: auto with "
        "every setting at its default (only false turns tool search off)",)
    assert parse_config(True).warnings == parse_config(False).warnings == parse_config(None).warnings == ()


# --- case 3: tri-state ------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    ("maybe", "auto"), ("YES", "on"), ("1", "on"), ("true", "on"), ("No", "off"), ("0", "off"),
    ("false", "off"), (True, "on"), (False, "off"), (1, "on"), (0, "off"), (None, "auto"),
    ("  On  ", "on"), ("OFF", "off"), ("auto", "auto"), ("none", "auto"), ("", "auto"), (2, "auto"),
])
def test_case3_tri_state_normaliser(raw, expected) -> None:
    assert normalize_tri_state(raw) == expected
    assert parse_config({"enabled": raw}).enabled == expected
    assert parse_config({"listing": raw}).listing == expected


def test_case3_mapping_with_boolean_true_is_on_and_active() -> None:
    config = parse_config({"enabled": True})
    assert config.enabled == "on"
    assert config.active is True


def test_auto_is_an_alias_of_on_and_only_off_disables() -> None:
    assert parse_config({"enabled": "auto"}).active is True
    assert parse_config({"enabled": "off"}).active is False
    assert parse_config({"listing": "on"}).listing_enabled is True
    assert parse_config({"listing": "auto"}).listing_enabled is True
    assert parse_config({"listing": "off"}).listing_enabled is False


# --- case 4: threshold_pct ------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    (150, 100.0), (-5, 0.0), ("abc", 5.0), ("7.5", 7.5), (True, 1.0), (False, 0.0), (10, 10.0),
    (None, 5.0), (float("nan"), 5.0), (float("inf"), 100.0), ([1], 5.0),
])
def test_case4_threshold_pct(raw, expected) -> None:
    value = parse_config({"threshold_pct": raw}).threshold_pct
    assert value == expected
    assert isinstance(value, float)


# --- case 5: search limits ------------------------------------------------------------------------

def test_case5_max_999_and_default_999_clamp_to_50() -> None:
    config = parse_config({"max_search_limit": 999, "search_default_limit": 999})
    assert (config.max_search_limit, config.search_default_limit) == (50, 50)


def test_case5_max_3_pulls_the_default_down_to_3() -> None:
    config = parse_config({"max_search_limit": 3})
    assert (config.max_search_limit, config.search_default_limit) == (3, 3)


def test_case5_max_0_becomes_1() -> None:
    config = parse_config({"max_search_limit": 0})
    assert (config.max_search_limit, config.search_default_limit) == (1, 1)


@pytest.mark.parametrize("raw, expected", [
    (3.9, 3), ("3.9", 5), ("10", 10), (True, 1), ("abc", 5), (0, 1), (-4, 1), (30, 25), (None, 5),
])
def test_search_default_limit_int_parsing(raw, expected) -> None:
    assert parse_config({"search_default_limit": raw}).search_default_limit == expected


@pytest.mark.parametrize("raw, expected", [("x", 25), ("40", 40), (7.9, 7), (False, 1), (51, 50)])
def test_max_search_limit_int_parsing(raw, expected) -> None:
    assert parse_config({"max_search_limit": raw}).max_search_limit == expected


# --- case 6: listing_max_tokens ---------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    (100, 200), (100000, 60000), ("x", 4000), (250.7, 250), ("5000", 5000), (200, 200), (60000, 60000),
])
def test_case6_listing_max_tokens(raw, expected) -> None:
    assert parse_config({"listing_max_tokens": raw}).listing_max_tokens == expected


# --- plain int/float parsing (docs/reference.md §1.1) ------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    (3.9, 3), (-3.9, -3), ("3.9", 99), ("12", 12), (" 12 ", 12), (True, 1), (False, 0), (None, 99),
    ("", 99), (float("nan"), 99), (float("inf"), 99), ({}, 99),
])
def test_parse_int(raw, expected) -> None:
    assert parse_int(raw, 99) == expected


@pytest.mark.parametrize("raw, expected", [("7.5", 7.5), (True, 1.0), ("x", -1.0), (3, 3.0), (None, -1.0)])
def test_parse_float(raw, expected) -> None:
    assert parse_float(raw, -1.0) == expected


# --- case 7: defer ---------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    (["terminal"], {"terminal"}),
    ([], set()),
    ([" a ", "", "b"], {"a", "b"}),
    (("x", "y"), {"x", "y"}),
    ({"z"}, {"z"}),
    ([1, " 2 ", None], {"1", "2", "None"}),
])
def test_case7_defer_list_replaces_the_curated_set(raw, expected) -> None:
    config = parse_config({"defer": raw})
    assert set(config.defer) == expected
    assert config.defer_is_default is False
    assert config.warnings == ()


def test_case7_defer_absent_or_null_is_curated() -> None:
    assert set(parse_config({"defer": None}).defer) == set(CURATED)
    assert parse_defer(None) == (tuple(sorted(CURATED)), True, None)


@pytest.mark.parametrize("raw", ["todo_list", 5, {"todo_list": True}])
def test_case7_scalar_defer_warns_and_uses_the_curated_set(raw) -> None:
    config = parse_config({"defer": raw})
    assert set(config.defer) == set(CURATED)
    assert config.defer_is_default is True
    assert len(config.warnings) == 1
    assert "tools.tool_search.defer" in config.warnings[0]
    assert "expected a YAML list" in config.warnings[0]


def test_defer_is_sorted_whatever_the_input_order() -> None:
    assert parse_config({"defer": ["b", "a", "c"]}).defer == ("a", "b", "c")


# --- warnings for replaced values ---------------------------------------------------------------

@pytest.mark.parametrize("text", ["off", "on", "false", "true", "no", "yes", "0", "1", "'off'", "Auto"])
def test_a_documented_tri_state_spelling_is_no_warning(tmp_path, text) -> None:
    """``enabled: off`` (a YAML boolean when unquoted) warned "False was read as 'off'", so
    ``check --strict`` refused a config that says exactly what it means; only a value that is
    replaced (``maybe`` → ``auto``) warns."""
    path = _write(tmp_path, f"tools:\n  tool_search:\n    enabled: {text}\n    listing: {text}\n")
    assert load_config(path).warnings == ()
    bad = load_config(_write(tmp_path, "tools:\n  tool_search:\n    enabled: maybe\n"))
    assert bad.warnings == (f"{path}: line 3: tools.tool_search.enabled: 'maybe' is not auto, on or off, so it was read as 'auto'",)


def test_a_credential_pasted_as_a_key_is_masked_in_the_warning() -> None:
    """A token pasted on a line of its own with a colon becomes a key of the block; the
    "unknown key" warning printed it whole, while a value in the same place is masked."""
    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    assert parse_config({token: 1}).warnings == ("tools.tool_search.••••: unknown key, ignored",)


def test_a_misspelt_key_names_the_key_it_resembles() -> None:
    """"unknown key, ignored" left the reader to find which key was meant; a key close to one the
    block has says which, and a key like none of them says nothing more."""
    warnings = parse_config({"threshhold_pct": 3, "listing_max_token": 2000, "Listing": "off", "bogus": 1,
                             "max_listing_tokens": 3000}).warnings
    assert warnings == (
        "tools.tool_search.threshhold_pct: unknown key, ignored; did you mean threshold_pct?",
        "tools.tool_search.listing_max_token: unknown key, ignored; did you mean listing_max_tokens?",
        "tools.tool_search.Listing: unknown key, ignored; did you mean listing?",
        "tools.tool_search.bogus: unknown key, ignored",
        "tools.tool_search.max_listing_tokens: unknown key, ignored; did you mean listing_max_tokens?")


def test_replaced_values_are_reported_and_good_values_are_not() -> None:
    config = parse_config({"threshold_pct": 150, "listing_max_tokens": "x", "bogus": 1})
    text = "\n".join(config.warnings)
    assert "tools.tool_search.threshold_pct: 150 is outside 0..100, so it was clamped to 100%" in text
    assert "tools.tool_search.listing_max_tokens: 'x' is not a whole number, so the default 4,000 tokens is used" in text
    assert "tools.tool_search.bogus: unknown key, ignored" in text
    assert len(config.warnings) == 3
    assert parse_config({"threshold_pct": 5, "enabled": "on", "listing_max_tokens": 4000}).warnings == ()


# --- with_overrides / file loading -----------------------------------------------------------------

def test_with_overrides_reparses_and_ignores_none() -> None:
    base = parse_config({"defer": ["x"], "threshold_pct": 10})
    changed = base.with_overrides(threshold_pct="250", listing_max_tokens=None, enabled="No")
    assert changed.threshold_pct == 100.0
    assert changed.listing_max_tokens == 4000
    assert changed.enabled == "off"
    assert changed.defer == ("x",)
    assert changed.defer_is_default is False


def test_load_config_reads_the_tool_search_block(tmp_path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("model: x\ntools:\n  tool_search:\n    enabled: off\n    threshold_pct: 12\n"
                    "    defer: [terminal]\n", encoding="utf-8")
    config = load_config(path)
    assert config.enabled == "off"       # YAML 1.1: bare off is a boolean false
    assert config.threshold_pct == 12.0
    assert config.defer == ("terminal",)


@pytest.mark.parametrize("text, enabled", [
    ("tools:\n  tool_search: false\n", "off"),
    ("tools:\n  tool_search: off\n", "off"),
    ("tools:\n  tool_search: 'off'\n", "auto"),
    ("tools:\n  tool_search: true\n", "auto"),
    ("tools: {}\n", "auto"),
    ("other: 1\n", "auto"),
    ("", "auto"),
])
def test_load_config_legacy_and_missing_blocks(tmp_path, text, enabled) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    assert config.enabled == enabled
    assert config.listing_max_tokens == 4000


def test_load_config_bad_yaml_names_file_line_and_column(tmp_path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("tools:\n  tool_search: [1,\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}: line 3, column 1: not valid YAML")


def test_load_config_missing_file_and_wrong_shapes(tmp_path) -> None:
    with pytest.raises(ConfigError, match="cannot read config file"):
        load_config(tmp_path / "nope.yaml")
    (tmp_path / "list.yaml").write_text("- a\n- b\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"top level: expected a mapping .*got a list"):
        load_config(tmp_path / "list.yaml")
    (tmp_path / "tools.yaml").write_text("tools: [a]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"tools: expected a mapping"):
        load_config(tmp_path / "tools.yaml")


def test_dump_config_block_round_trips(tmp_path) -> None:
    config = parse_config({"enabled": "on", "threshold_pct": 7.5, "defer": ["b", "a"], "listing": "off"})
    path = tmp_path / "out.yaml"
    path.write_text(dump_config_block(config), encoding="utf-8")
    assert load_config(path) == config


def test_dump_config_block_has_only_changed_keys() -> None:
    assert dump_config_block(parse_config({})) == "tools:\n  tool_search: {}\n"
    changed = parse_config({}).with_overrides(threshold_pct=2.3, listing_max_tokens=2954)
    assert changed.defer_is_default  # an override keeps defer "not set"
    assert dump_config_block(changed) == "tools:\n  tool_search:\n    threshold_pct: 2.3\n    listing_max_tokens: 2954\n"
    # a value equal to the default is not written; defer only when the user set a list
    same = parse_config({"threshold_pct": 5.0, "listing": "off", "defer": ["x"]})
    assert dump_config_block(same) == "tools:\n  tool_search:\n    listing: \'off\'\n    defer:\n    - x\n"
    # against another base: only what differs from it
    base = parse_config({"threshold_pct": 2, "enabled": "on"})
    assert dump_config_block(base.with_overrides(threshold_pct=3), base) == "tools:\n  tool_search:\n    threshold_pct: 3.0\n"


# --- case 8 and docs/reference.md §4: the budget -----------------------------------------------------------------

@pytest.mark.parametrize("context, pct, cap, budget", [
    (200_000, 5, 4000, 4000),
    (40_000, 5, 4000, 2000),
    (None, 5, 4000, 4000),
    (0, 5, 4000, 4000),
    (-100, 5, 4000, 4000),
    (1000, 5, 4000, 50),
    (None, 5, 60000, 10000),
    (None, 0, 60000, 10000),     # the fallback does not depend on threshold_pct
    (200_000, 0, 4000, 0),
    (1_000_000, 100, 60000, 60000),
])
def test_case8_budget(context, pct, cap, budget) -> None:
    assert listing_budget(context, pct, cap)[0] == budget


@pytest.mark.parametrize("context, pct, pct_leg", [
    (100_000, 29, 28_999),
    (200_000, 29, 57_999),
    (200_000, 57, 113_999),
    (200_000, 58, 115_999),
    (200_000, 5, 10_000),
    (1000, 5, 50),
])
def test_budget_float_rounding_facts(context, pct, pct_leg) -> None:
    # docs/reference.md §4: pct / 100.0 first, in binary floating point, then multiply and truncate.
    budget, leg, _ = listing_budget(context, pct, 60000)
    assert leg == pct_leg
    assert budget == min(60000, pct_leg)


def test_budget_winner_names_the_deciding_leg() -> None:
    assert listing_budget(200_000, 5, 4000)[2] == "listing_max_tokens"
    assert listing_budget(40_000, 5, 4000)[2] == "threshold_pct"
    assert listing_budget(None, 5, 60000)[2] == "unknown-context fallback"
    assert listing_budget(80_000, 5, 4000)[2] == "listing_max_tokens"  # tie: the cap wins


def test_budget_bounds_from_clamped_config() -> None:
    low = parse_config({"listing_max_tokens": 1})
    assert listing_budget(10**9, 100, low.listing_max_tokens)[0] == C.LISTING_MAX_TOKENS_MIN
    high = parse_config({"listing_max_tokens": 10**9, "threshold_pct": 100})
    assert listing_budget(10**9, high.threshold_pct, high.listing_max_tokens)[0] == 60000
    assert listing_budget(None, high.threshold_pct, high.listing_max_tokens)[0] == 10000


def test_numeric_strings_that_parse_unchanged_give_no_warning() -> None:
    # Command-line overrides arrive as strings: "50" read as 50.0 replaced nothing.
    config = parse_config({"threshold_pct": "50", "listing_max_tokens": "5000", "max_search_limit": " 10 "})
    assert (config.threshold_pct, config.listing_max_tokens, config.max_search_limit) == (50.0, 5000, 10)
    assert config.warnings == ()
    replaced = parse_config({"search_default_limit": "3.9", "threshold_pct": "150"})
    assert replaced.warnings == ("tools.tool_search.threshold_pct: '150' is outside 0..100, so it was clamped to 100%",
                                 "tools.tool_search.search_default_limit: '3.9' is not a whole number, so the default 5 is used")


@pytest.mark.parametrize("text, where", [
    ("tools:\n  toolsearch:\n    threshold_pct: 1\n", "tools has no tool_search key (it has toolsearch)"),
    ("tools: {}\n", "tools has no tool_search key"),
    ("model: x\n", "no tools key"),
    ("", "no tools key"),
])
def test_load_config_without_the_block_says_the_defaults_apply(tmp_path, text, where) -> None:
    """A misspelt key or the wrong file gives the defaults, as the reference does, but not silently."""
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    assert config.warnings == (f"{path}: {where}, so the tools.tool_search defaults apply (threshold_pct 5%, "
                               "listing_max_tokens 4,000)",)
    assert load_config(_write(tmp_path, "tools:\n  tool_search: {threshold_pct: 3}\n")).warnings == ()


@pytest.mark.parametrize("text", ["tools:\n  tool_search:\n", "tools:\n  tool_search:\nthreshold_pct: 3\n"])
def test_an_empty_block_says_the_defaults_apply_and_check_strict_refuses_it(tmp_path, text) -> None:
    """A tools.tool_search key without a value (settings never written, or indented out of it) is read as
    the defaults, as the reference reads it, with the same warning as a missing block, so that
    `check --strict` does not gate the defaults as if someone had chosen them."""
    from conftest import run_cli

    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    assert (config.enabled, config.threshold_pct, config.listing_max_tokens) == ("auto", 5.0, 4000)
    assert config.warnings == (f"{path}: line 2: tools.tool_search is empty, so the tools.tool_search defaults apply "
                               "(threshold_pct 5%, listing_max_tokens 4,000)",)
    team = Path(__file__).absolute().parent.parent / "sample_catalogs" / "team-workspace.yaml"
    args = ("check", team, "--config", path, "--context-lengths", "32k", "--goal", "names")
    assert run_cli(*args).returncode == 0
    strict = run_cli(*args, "--strict")
    assert strict.returncode == 2 and "tools.tool_search is empty" in strict.stderr
    assert load_config(_write(tmp_path, "tools:\n  tool_search: true\n")).warnings == ()  # true: turned on, on purpose
    # {} is how a recommendation writes the defaults: chosen, so the gate checks it
    assert load_config(_write(tmp_path, dump_config_block(parse_config({})))).warnings == ()


def _write(tmp_path, text: str):
    path = tmp_path / "ok.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_check_with_a_catalog_as_config_warns_even_with_a_flag() -> None:
    """`check --config` given a catalog file (no tools.tool_search) warns on stderr; a flag that sets
    one value keeps the warning (the other values are still the defaults)."""
    from pathlib import Path
    from conftest import run_cli
    team = Path(__file__).absolute().parent.parent / "sample_catalogs" / "team-workspace.yaml"
    for flags in ((), ("--listing-max-tokens", "2000")):
        done = run_cli("check", team, "--config", team, "--context-lengths", "32k", "--goal", "names", *flags)
        assert done.returncode == 0, done.stderr
        assert f"toolsearch: warning: {team}: no tools key, so the tools.tool_search defaults apply" in done.stderr


def test_a_boolean_for_a_number_is_read_as_the_reference_reads_it_and_said() -> None:
    """search_default_limit: true is 1 to the reference (int(True)); the value is kept, and a
    warning says it, since true == 1 in Python hid it before."""
    config = parse_config({"search_default_limit": True, "max_search_limit": False})
    assert (config.search_default_limit, config.max_search_limit) == (1, 1)
    assert config.warnings == ("tools.tool_search.max_search_limit: false counts as 0 and is outside 1..50, so it was clamped to 1",
                               "tools.tool_search.search_default_limit: true was read as 1")
    assert parse_config({"search_default_limit": 1}).warnings == ()


def test_load_config_warnings_name_the_file_and_the_line(tmp_path) -> None:
    """A gate's "unknown key, ignored" did not say which file or where; flags given on top replace
    the file's warning about their key, and warn under the key alone (they are not in the file)."""
    path = _write(tmp_path, "model: x\ntools:\n  web: {}\n  tool_search:\n    treshold_pct: 3\n"
                            "    listing_max_tokens: 50\n")
    assert load_config(path).warnings == (
        f"{path}: line 6: tools.tool_search.listing_max_tokens: 50 is outside 200..60,000, so it was clamped to 200 tokens",
        f"{path}: line 5: tools.tool_search.treshold_pct: unknown key, ignored; did you mean threshold_pct?")
    assert load_config(_write(tmp_path, "tools:\n  tool_search: 'yes'\n")).warnings[0].startswith(
        f"{path}: line 2: tools.tool_search: 'yes' is not a mapping of settings")


def test_a_warning_never_quotes_a_credential_or_a_whole_long_value(tmp_path):
    """A warning about a bad value quoted it whole: an API key pasted into tools.tool_search
    (defer: sk-…, a misplaced line) went to the terminal and the CI log as it was, and a value of
    a megabyte was printed in full. Credential shapes are masked and long values cut."""
    key = "sk-proj-" + "A1b2C3d4" * 5
    path = tmp_path / "config.yaml"
    path.write_text(f"tools:\n  tool_search:\n    defer: {key}\n    threshold_pct: 'ghp_{'x1' * 18}'\n"
                    f"    listing_max_tokens: '{'9x' * 5000}'\n", encoding="utf-8")
    config = load_config(path)
    text = "\n".join(config.warnings)
    assert key not in text and "ghp_" not in text and "9x" * 100 not in text
    assert f"{path}: line 3: tools.tool_search.defer: expected a YAML list of tool names (e.g. defer: [todo_list]), " \
           "got a string '••••'; using the curated default set" in config.warnings
    assert f"{path}: line 4: tools.tool_search.threshold_pct: '••••' is not a number, so the default 5% is used" in config.warnings
    assert any(w.startswith(f"{path}: line 5: tools.tool_search.listing_max_tokens: '9x9x") and "…" in w
               and len(w) < len(str(path)) + 190 for w in config.warnings)  # the value cut short


@pytest.mark.parametrize("raw, warning", [
    ("five", "'five' is not a number, so the default 5% is used"),
    (-5, "-5 is outside 0..100, so it was clamped to 0%"),
    (True, "true was read as 1%"),
])
def test_a_threshold_pct_warning_says_what_happened(raw, warning):
    """A word was said to be "read as 5.0", as though 'five' had been understood: the default was used."""
    config = parse_config({"threshold_pct": raw})
    assert config.warnings == (f"tools.tool_search.threshold_pct: {warning}",)


def test_a_default_limit_that_is_not_a_number_says_the_default_and_its_clamp():
    config = parse_config({"max_search_limit": 3, "search_default_limit": "lots"})
    assert config.search_default_limit == 3
    assert config.warnings == (("tools.tool_search.search_default_limit: 'lots' is not a whole number, so the default 5 "
                                "is used, clamped to 3 by max_search_limit"),)


def test_a_fraction_for_a_whole_number_key_says_it_was_truncated(tmp_path: Path) -> None:
    """3.5 for listing_max_tokens is truncated to 3 and then clamped: "3.5 is outside 200..60,000"
    alone hid the truncation; 350.5, inside the range, was "read as 350" without saying why."""
    from conftest import run_cli

    path = tmp_path / "config.yaml"
    path.write_text("tools:\n  tool_search:\n    listing_max_tokens: 3.5\n    max_search_limit: 2.5\n", encoding="utf-8")
    done = run_cli("plan", Path(__file__).resolve().parent.parent / "sample_catalogs" / "five-servers.yaml",
                   "--config", path)
    assert done.returncode == 0, done.stderr
    assert sorted(done.stderr.splitlines()[:2]) == [
        f"toolsearch: warning: {path}: line 3: tools.tool_search.listing_max_tokens: 3.5 is not a whole number "
        "and was truncated to 3 tokens, which is outside 200..60,000, so it was clamped to 200 tokens",
        f"toolsearch: warning: {path}: line 4: tools.tool_search.max_search_limit: 2.5 is not a whole number, "
        "so it was truncated to 2"]
