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


KEYED = ('tools:\n  tool_search:\n    threshold_pct: 2\n    "a:b": 1\n'
         '    sk-proj-abcdefghijklmnopqrstuvwxyz0123456789: 2\n    "' + "k" * 100 + '": 3\n'
         "    listing_max_tokens: 5\n    ? \"q: r\"\n    : 4\n")


def test_a_warning_names_its_own_keys_line() -> None:
    """A key holding ``:``, a key masked as a credential and a key cut for being long were placed by
    reading the warning's text back, found no line and named ``tool_search``'s line (2); each warning
    names its key's own line now, from the YAML nodes' marks, in the app's upload as with ``--config``."""
    warnings = config_from_text(KEYED, "config.yaml").warnings
    lines = {w.split(": tools.tool_search.", 1)[1].split(":", 1)[0][:8]: w.split(": ", 2)[1] for w in warnings}
    assert lines == {"a": "line 4", C.SECRET_MASK: "line 5", "'kkkkkkk": "line 6",
                     "listing_": "line 7", "q": "line 8"}, warnings
    assert warnings[1] == "config.yaml: line 4: tools.tool_search.a:b: unknown key, ignored"
    upload = harness_upload(KEYED, "config.yaml")
    assert upload is not None and upload.config is not None and upload.config.warnings == warnings


def test_a_warning_about_a_key_names_its_line_with_config(tmp_path) -> None:
    from pathlib import Path

    from conftest import run_cli

    path = tmp_path / "config.yaml"
    path.write_text(KEYED, encoding="utf-8")
    done = run_cli("plan", Path(__file__).resolve().parent.parent / "sample_catalogs" / "five-servers.yaml",
                   "--config", path)
    assert done.returncode == 0, done.stderr
    assert f"toolsearch: warning: {path}: line 4: tools.tool_search.a:b: unknown key, ignored" in done.stderr.splitlines()
    assert f"toolsearch: warning: {path}: line 8: tools.tool_search.q: r: unknown key, ignored" in done.stderr.splitlines()
