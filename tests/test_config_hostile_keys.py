"""Hostile keys in a harness config. A ``tools.tool_search`` block with thousands of unknown keys
named each one in a warning: 20,000 warnings on stderr for ``--config``, and 20,000 boxes in the app's
sidebar for an uploaded harness config, redrawn on every rerun; the first
:data:`~toolsearch.engine.constants.CONFIG_UNKNOWN_KEYS_NAMED` are now named, the rest counted in one.
The keys of a ``tools`` mapping without ``tool_search`` were named as written (a pasted token, a URL's
password, a 5,000-character key), and are now masked and cut as unknown keys are."""

from __future__ import annotations

from toolsearch.engine import constants as C
from toolsearch.engine.config import config_from_text, parse_config
from toolsearch.ui.harness_upload import harness_upload

KEYS = 5000
TEXT = "tools:\n  tool_search:\n    threshold_pct: 2\n" + "".join(f"    k{i}: 1\n" for i in range(KEYS))


def test_unknown_keys_past_the_cap_are_counted_in_one_warning() -> None:
    config = config_from_text(TEXT, "config.yaml")
    named = C.CONFIG_UNKNOWN_KEYS_NAMED
    assert len(config.warnings) == named + 1
    assert config.warnings[0] == "config.yaml: line 4: tools.tool_search.k0: unknown key, ignored"
    assert config.warnings[-1] == (f"config.yaml: line 2: tools.tool_search: {KEYS - named:,} more unknown keys, "
                                   f"ignored (counted, not named: the first {named:,} are named)")
    assert config.threshold_pct == 2.0
    upload = harness_upload(TEXT, "config.yaml")
    assert upload is not None and upload.config is not None and upload.config.warnings == config.warnings


def test_a_few_unknown_keys_are_each_named() -> None:
    block = {f"k{i}": 1 for i in range(C.CONFIG_UNKNOWN_KEYS_NAMED)}
    assert [w for w in parse_config(block).warnings] == [
        f"tools.tool_search.k{i}: unknown key, ignored" for i in range(C.CONFIG_UNKNOWN_KEYS_NAMED)]


def test_the_keys_of_tools_named_when_it_has_no_tool_search_key_are_masked_and_cut() -> None:
    # `toolsearch plan --config` said them as written: a pasted key or a URL's password on stderr
    text = ('{"tools": {"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789": 1, "https://u:UrlPw0rdS3cret@h.invalid/": 2, "'
            + "k" * 5000 + '": 3}}')
    (warning,) = config_from_text(text, "config.yaml").warnings
    assert "abcdefghijklmnopqrstuvwxyz0123456789" not in warning and "UrlPw0rdS3cret" not in warning
    assert warning.startswith(f"config.yaml: tools has no tool_search key (it has {C.SECRET_MASK}, "
                              f"https://{C.SECRET_MASK}@h.invalid/, 'kkk")
    assert len(warning) < 400
