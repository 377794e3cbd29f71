"""A harness config with a warning of its own (a misspelt key) makes ``check --strict`` refuse the
gate ``recommend`` prints: ``recommend`` says so beside its gate line on every surface (text,
``--json``, ``--yaml``, markdown), naming the file, the line and the key it was probably meant to be,
and where the settings it compares with hold a default in place of that key, it says which. ``check
--format markdown`` says a refusal on standard output too, so a job that posts it as a comment posts why."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from conftest import run_cli

from toolsearch.engine.config import load_config, parse_config

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
TYPO = "tools:\n  tool_search:\n    threshold_pct: 5.1\n    listing_max_token: 1621\n"
WARNING = "line 4: tools.tool_search.listing_max_token: unknown key, ignored; did you mean listing_max_tokens?"
ARGS = ["--context-lengths", "32k,128k,200k", "--goal", "names", "--headroom", "10"]


def _typo(tmp_path: Path) -> Path:
    path = tmp_path / "typo.yaml"
    path.write_text(TYPO, encoding="utf-8")
    return path


def _refused(path: Path) -> str:
    return (f"check --strict refuses it while {path} has 1 warning ({WARNING}): fix it there (merging this block "
            "replaces only the keys the block sets)")


def _current(path: Path) -> str:
    return (f"current settings (threshold_pct 5.1%, listing_max_tokens 4,000 — listing_max_tokens is the default: "
            f"{path} gives none it can use ({WARNING}))")


def test_the_words_name_the_file_the_line_and_the_closest_key(tmp_path):
    from toolsearch.analysis.config_gate import (
        config_warning_gate_words,
        defaulted_keys,
        read_settings_words,
    )

    path = _typo(tmp_path)
    config = load_config(path)
    assert config_warning_gate_words(config) == _refused(path)
    assert defaulted_keys(config) == ["listing_max_tokens"]
    assert read_settings_words(config) == _current(path)[len("current settings ("):-1]
    # a key set to the default on purpose is not one, nor a config without warnings
    (tmp_path / "set.yaml").write_text(TYPO + "    listing_max_tokens: 4000\n", encoding="utf-8")
    assert defaulted_keys(load_config(tmp_path / "set.yaml")) == []
    assert config_warning_gate_words(parse_config({"threshold_pct": 5.1})) == ""
    assert read_settings_words(parse_config({"threshold_pct": 5.1})) == "threshold_pct 5.1%, listing_max_tokens 4,000"


def test_recommend_text_says_the_gate_is_refused_and_which_value_is_the_default(tmp_path):
    path = _typo(tmp_path)
    done = run_cli("recommend", TEAM, "--config", path, *ARGS)
    assert done.returncode == 0, done.stderr  # the answer stands; the gate is what is refused
    lines = done.stdout.splitlines()
    assert lines[-2].startswith("gate: toolsearch check ") and lines[-1] == f"gate refused: {_refused(path)}"
    assert any(line.startswith(f"lists less than the {_current(path)} at 128K") for line in lines), lines


def test_recommend_json_and_markdown_say_it_too(tmp_path):
    path = _typo(tmp_path)
    data = json.loads(run_cli("recommend", TEAM, "--config", path, *ARGS, "--json").stdout)
    assert data["gate_refused"] == _refused(path)
    assert data["current"] == {"threshold_pct": 5.1, "listing_max_tokens": 4000,
                               "default_in_place_of_config": ["listing_max_tokens"]}
    markdown = run_cli("recommend", TEAM, "--config", path, *ARGS, "--format", "markdown").stdout
    assert "**Gate refused:** check --strict refuses it while" in markdown


def test_recommend_yaml_block_says_it_and_its_gate_fails_as_said(tmp_path):
    path = _typo(tmp_path)
    done = run_cli("recommend", TEAM, "--config", path, *ARGS, "--yaml")
    assert done.returncode == 0, done.stderr
    block = done.stdout.splitlines()
    assert f"# gate refused: {_refused(path)}" in block
    assert any(line.startswith(f"# lists less than the {_current(path)} at 128K") for line in block), block
    # merged into the file, the misspelt key stays: the gate is refused as said
    merged = yaml.safe_load(path.read_text(encoding="utf-8"))
    merged["tools"]["tool_search"].update(yaml.safe_load(done.stdout)["tools"]["tool_search"])
    path.write_text(yaml.safe_dump(merged), encoding="utf-8")
    gate = next(line for line in block if line.startswith("# gate: toolsearch check "))
    argv = gate[len("# gate: toolsearch "):].split()
    checked = run_cli(*argv)
    assert checked.returncode == 2 and "check --strict: the config has 1 warning" in checked.stderr


def test_check_markdown_says_a_refusal_on_standard_output(tmp_path):
    path = _typo(tmp_path)
    done = run_cli("check", TEAM, "--config", path, "--strict", "--context-lengths", "32k,128k,200k", "--goal", "names",
                   "--format", "markdown")
    assert done.returncode == 2
    assert done.stdout.splitlines() == [
        "### toolsearch check did not run (exit 2)", "",
        f"- warning: {path}: {WARNING}".replace("_", "\\_"),
        ("- error: check --strict: the config has 1 warning (above); fix it, or drop --strict to check the settings "
         "as read")]
