"""Usage errors a first-time user meets, each in toolsearch's own words on one line (exit 2)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
import yaml

from conftest import run_cli
from toolsearch.cli.commands import build_parser
from toolsearch.engine.readers import yaml_error_text

ROOT = Path(__file__).resolve().parent.parent
CATALOG = str(ROOT / "sample_catalogs" / "five-servers.yaml")
CONTEXT_LENGTH = "expected a positive number of tokens from 1 to 10,000,000,000 (e.g. 200000, 200k, 1m) or 'unknown'"


def test_a_negative_number_is_the_value_of_the_option_before_it() -> None:
    done = run_cli("recommend", CATALOG, "--context-lengths", "-32k", "--goal", "names")
    assert done.returncode == 2
    assert done.stderr == f"toolsearch recommend: error: argument --context-lengths: {CONTEXT_LENGTH}, got '-32k'\n"


@pytest.mark.parametrize("value", ["-32k", "-5", "-1.5", "-5,000", "-32k,128k", "-.5"])
def test_a_negative_number_gets_the_same_message_with_or_without_equals(value: str) -> None:
    apart = run_cli("recommend", CATALOG, "--context-lengths", value, "--goal", "names")
    joined = run_cli("recommend", CATALOG, f"--context-lengths={value}", "--goal", "names")
    assert apart.returncode == joined.returncode == 2
    assert apart.stderr == joined.stderr
    assert "expected one argument" not in apart.stderr


@pytest.mark.parametrize("args", [["plan", CATALOG, "--context-length", "-32k"],
                                  ["sweep", CATALOG, "--context-lengths", "-32k"],
                                  ["check", CATALOG, "--goal", "names", "--context-lengths", "-32k"],
                                  ["harnesses", CATALOG, "--context-lengths", "-32k"]])
def test_every_command_takes_a_negative_number_for_a_value(args: list[str]) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert "expected one argument" not in done.stderr
    assert f"{CONTEXT_LENGTH}, got '-32k'" in done.stderr


def test_a_negative_cap_is_clamped_as_with_an_equals_sign() -> None:
    apart, joined = run_cli("plan", CATALOG, "--listing-max-tokens", "-5k"), run_cli("plan", CATALOG, "--listing-max-tokens=-5k")
    assert apart.returncode == joined.returncode == 0
    assert apart.stdout == joined.stdout and apart.stderr == joined.stderr
    assert "--listing-max-tokens -5k is outside 200..60,000, so it was clamped to 200 tokens" in apart.stderr


def test_options_still_read_as_options() -> None:
    done = run_cli("search", CATALOG, "-q", "issue", "--limit", "1", "--json")
    assert done.returncode == 0, done.stderr


def test_every_command_parser_reads_negative_numbers_as_values() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name, command in commands.items():
        assert command._parse_optional("-32k") is None, name
        assert command._parse_optional("--help") is not None, name


def test_no_command_lists_the_commands_as_help_does() -> None:
    done = run_cli()
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0] == "toolsearch: error: expected a COMMAND, one of:"
    assert lines[-1] == "Run 'toolsearch COMMAND --help' for a command's options and examples."
    listed = " ".join(line.strip() for line in lines[1:-1])
    helped = " ".join(run_cli("--help").stdout.split())
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for action in commands._get_subactions():
        assert f"{action.dest} {' '.join(action.help.split())}" in " ".join(listed.split())
        assert f"{action.dest} {' '.join(action.help.split())}" in helped
    assert lines[1].startswith("  plan  ")


@pytest.mark.parametrize("args, expected", [
    (["plan"], "toolsearch plan: error: the following arguments are required: SOURCE; expected SOURCE: a catalog "
               "file (YAML/JSON) or an MCP client config"),
    (["lint"], "toolsearch lint: error: the following arguments are required: CATALOG; expected CATALOG: a catalog "
               "file (YAML/JSON) or an MCP client config"),
    (["describe"], "toolsearch describe: error: the following arguments are required: SOURCE... NAME; expected "
                   "SOURCE... NAME: a catalog file (YAML/JSON) or an MCP client config, then the tool names"),
    (["diff"], "toolsearch diff: error: the following arguments are required: A, B; expected A and B: each a "
               "catalog file (YAML/JSON)"),
    (["snapshot"], "toolsearch snapshot: error: the following arguments are required: CONFIG; expected CONFIG: an "
                   "MCP client config file"),
])
def test_a_missing_file_says_what_the_file_is(args: list[str], expected: str) -> None:
    done = run_cli(*args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", expected + "\n")


def test_an_unknown_option_near_no_real_one_names_none_and_points_to_help() -> None:
    done = run_cli("lint", CATALOG, "--rule", "nope")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("toolsearch: error: unrecognized arguments: --rule nope; '--rule' is not an option of "
                           "toolsearch lint ('toolsearch lint --help' lists its options)\n")


def test_a_misspelt_option_still_names_the_one_meant() -> None:
    done = run_cli("lint", CATALOG, "--fromat", "json", "--frob")
    assert done.stderr == ("toolsearch: error: unrecognized arguments: --fromat json --frob; did you mean '--format' "
                           "for '--fromat'?; '--frob' is not an option of toolsearch lint ('toolsearch lint --help' "
                           "lists its options)\n")


def test_a_clamped_threshold_is_said_once_as_a_percentage() -> None:
    done = run_cli("plan", CATALOG, "--threshold-pct", "-1")
    assert done.returncode == 0
    said = "--threshold-pct -1 is outside 0..100, so it was clamped to 0%"
    assert f"toolsearch: warning: {said}\n" in done.stderr
    assert "clamped" not in done.stdout  # stderr has it; the plan's note lines do not repeat it
    assert "context length: unknown; threshold_pct 0%, listing_max_tokens 4,000\n" in done.stdout


INDENTED = ("the indentation differs from the lines above: indent each key as the other keys of its mapping, and "
            "each '-' item as the other items of its list")
QUOTE = "a value containing ': ' must be quoted: write key: 'a: b', not key: a: b"


@pytest.mark.parametrize("text, place, words", [
    ("servers:\n  - name: a\n    tools:\n      - name: t\n    description: d\n   kind: x\n", "line 6, column 4", INDENTED),
    ("servers:\n  - name: a\n    tools:\n      - name: t\n        description: x: y: z\n", "line 5, column 23", QUOTE),
    ("servers:\n  - name: a\n     kind: mcp\n", "line 3, column 10",
     "the indentation differs from the lines above: this line is indented deeper than the one before it, so it reads "
     "as more of that value; indent a key as the other keys of its mapping, or quote a value containing ': '"),
])
def test_a_catalog_yaml_mistake_is_said_in_plain_words(tmp_path: Path, text: str, place: str, words: str) -> None:
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(text, encoding="utf-8")
    done = run_cli("plan", catalog)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"toolsearch: error: {catalog}: {place}: not valid YAML or JSON ({words})\n"


@pytest.mark.parametrize("text, place, words", [
    ("tools:\n  tool_search:\n    threshold_pct: 5\n   listing_max_tokens: 3\n", "line 4, column 4", INDENTED),
    ("tools:\n  tool_search:\n    threshold_pct: 5: 6\n", "line 3, column 21", QUOTE),
])
def test_a_config_yaml_mistake_is_said_in_plain_words(tmp_path: Path, text: str, place: str, words: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(text, encoding="utf-8")
    done = run_cli("plan", CATALOG, "--config", config)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"toolsearch: error: {config}: {place}: not valid YAML ({words})\n"


@pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="libyaml's own words")
def test_libyaml_words_for_indentation_are_said_plainly_too() -> None:
    with pytest.raises(yaml.YAMLError) as raised:
        yaml.load("a:\n    b: 1\n   c: 2\n", Loader=yaml.CSafeLoader)
    assert yaml_error_text(raised.value) == f"line 3, column 4: not valid YAML ({INDENTED})"
