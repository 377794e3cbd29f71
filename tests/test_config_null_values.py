"""A setting written with no value (``threshold_pct:``, YAML null) is unreadable, so the default applies
(docs/reference.md §1.1): that is said, with the key and the default used, and ``check --strict`` refuses
the config for it, where it passed on the default without a word. The gate refusal in ``--json`` shows a
config warning's invisible characters as markers, as the text does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli
from toolsearch.engine.config import parse_config

TEAM = str(Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml")


@pytest.mark.parametrize("key, default", [("threshold_pct", "5%"), ("listing_max_tokens", "4,000 tokens"),
                                          ("max_search_limit", "25"), ("search_default_limit", "5"),
                                          ("enabled", "auto"), ("listing", "auto")])
def test_a_null_setting_is_said(key: str, default: str) -> None:
    config = parse_config({key: None})
    assert config.warnings == (f"tools.tool_search.{key}: null (no value), so the default {default} is used",)
    assert parse_config({}).warnings == ()


def test_check_strict_refuses_a_config_with_a_null_setting(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("tools:\n  tool_search:\n    threshold_pct:\n    listing_max_tokens: 3000\n")
    done = run_cli("check", TEAM, "--config", str(path), "--strict", "--context-lengths", "32k", "--goal", "names")
    assert done.returncode == 2, done.stdout
    assert (f"toolsearch: warning: {path}: line 3: tools.tool_search.threshold_pct: null (no value), so the default "
            "5% is used") in done.stderr.splitlines(), done.stderr
    data = json.loads(run_cli("recommend", TEAM, "--config", str(path), "--context-lengths", "32k", "--goal",
                              "names", "--json").stdout)
    assert "threshold_pct: null (no value)" in data["gate_refused"]


def test_the_json_gate_refusal_marks_invisible_characters(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text('tools:\n  tool_search:\n    "list\\u200bing": 3\n    "\\e[31mred": 1\n', encoding="utf-8")
    data = json.loads(run_cli("recommend", TEAM, "--config", str(path), "--context-lengths", "32k", "--goal",
                              "names", "--json").stdout)
    refused = data["gate_refused"]
    assert "list⟨U+200B⟩ing" in refused and "⟨U+001B⟩[31mred" in refused, refused
    assert "\u200b" not in refused and "\x1b" not in refused


def test_the_markdown_gate_refusal_marks_a_line_break_in_a_key(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text('tools:\n  tool_search:\n    "line\\nbreak # x": 4\n', encoding="utf-8")
    done = run_cli("recommend", TEAM, "--config", str(path), "--context-lengths", "32k", "--goal", "names",
                   "--format", "markdown")
    refused = next(x for x in done.stdout.splitlines() if x.startswith("**Gate refused:**"))
    assert "tools.tool\\_search.line⟨U+000A⟩break # x: unknown key, ignored" in refused, refused
