"""A list of context lengths written with thousands separators, as toolsearch itself prints them
(``context lengths 32,000, 200,000, 1,000,000``): the comma separates lengths, so ``32,000`` would
be the lengths 32 and 0 (``'000' is not a number``) and ``32,128`` the lengths 32 and 128 tokens.
Every command and the Tuning page refuse it with how to write it instead. And, as --context-lengths and
--goal, --headroom given twice is refused rather than the last one taken without a word."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"


@pytest.mark.parametrize("args", [
    ("recommend", TEAM, "--goal", "names", "--context-lengths"),
    ("check", TEAM, "--goal", "names", "--context-lengths"),
    ("report", TEAM, "--goal", "names", "-o", "review.html", "--context-lengths"),
    ("sweep", TEAM, "--context-lengths"),
    ("harnesses", TEAM, "--context-lengths"),
])
def test_thousands_separators_are_refused_with_how_to_write_the_length(args, tmp_path) -> None:
    args = tuple(str(tmp_path / a) if a == "review.html" else a for a in args)
    result = run_cli(*args, "32,000, 200,000, 1,000,000")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert "'32,000' reads as 32 and 000 tokens" in result.stderr, result.stderr
    assert "e.g. 32000 or 32k" in result.stderr, result.stderr


def test_two_lengths_without_a_space_are_not_read_as_tiny_contexts() -> None:
    result = run_cli("recommend", TEAM, "--goal", "names", "--context-lengths", "32,128")
    assert result.returncode == 2, result.stdout
    assert "'32,128' reads as 32 and 128 tokens" in result.stderr, result.stderr
    # still accepted: suffixes, plain numbers, a comma followed by a space
    for ok in ("32k,128k,1m", "32000,128000", "unknown,32k", "100, 32k"):
        result = run_cli("recommend", TEAM, "--goal", "any", "--context-lengths", ok, "--json")
        assert result.returncode in (0, 1), (ok, result.stderr)


def test_tuning_page_refuses_thousands_separators_with_how_to_write_them() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.text_input(key="tuning_contexts").set_value("32,000, 128,000, 1,000,000").run()
    assert not at.exception, at.exception
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("'32,000' reads as 32 and 000 tokens" in e and "32000 or 32k" in e for e in errors), errors


@pytest.mark.parametrize("command", [
    ("recommend", TEAM, "--context-lengths", "32k,1m", "--goal", "names"),
    ("check", TEAM, "--context-lengths", "32k,1m", "--goal", "names"),
    ("report", TEAM, "--context-lengths", "32k,1m", "--goal", "names", "-o", "review.html"),
])
def test_headroom_given_twice_is_refused_like_the_other_tuning_options(command, tmp_path) -> None:
    # --context-lengths and --goal given twice are refused; --headroom 10 --headroom 20 took 20 silently
    command = tuple(str(tmp_path / a) if a == "review.html" else a for a in command)
    result = run_cli(*command, "--headroom", "10", "--headroom", "20")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "argument --headroom: given more than once, where only the last would count" in result.stderr
    once = run_cli(*command, "--headroom", "10")
    assert once.returncode in (0, 1) and "given more than once" not in once.stderr, once.stderr


def test_a_goal_per_length_written_with_thousands_separators_says_how_to_write_it() -> None:
    result = run_cli("recommend", TEAM, "--context-lengths", "32k,1m", "--goal", "names,32,000=full")
    assert result.returncode == 2
    assert "argument --goal: '32,000' reads as 32 and 000 tokens" in result.stderr, result.stderr
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.text_input(key="tuning_length_goals").set_value("32,000=full").run()
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("'32,000' reads as 32 and 000 tokens" in e for e in errors), errors
    # a suggestion ends the sentence with its question mark alone
    at.text_input(key="tuning_length_goals").set_value("1m=fulll").run()
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any(e.endswith("did you mean 'full'?") for e in errors), errors


@pytest.mark.parametrize("text, item", [("32k,,1m", 2), ("32k,", 2), (",32k", 1)])
def test_tuning_page_refuses_an_empty_item_with_the_command_line_message(text, item) -> None:
    """The Tuning page reads its context lengths with --context-lengths' own parser: an empty item
    is refused with the same message, not skipped without a word."""
    cli = run_cli("sweep", TEAM, "--context-lengths", text)
    assert cli.returncode == 2, cli.stdout
    message = cli.stderr.strip().split("argument --context-lengths: ")[1]
    assert message.startswith(f"item {item} of '{text}' is empty"), message
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.text_input(key="tuning_contexts").set_value(text).run()
    assert not at.exception, at.exception
    errors = [e.value.replace("\\", "") for e in at.error]
    assert f"Context lengths: {message}." in errors, errors


def test_the_page_and_the_command_line_read_the_same_numbers() -> None:
    """1e6, 1_000_000 and a space before the suffix are read alike on both surfaces (README)."""
    from toolsearch.cli.textfmt import parse_context_lengths as cli_lengths
    from toolsearch.ui.common import parse_context_lengths as page_lengths

    for text in ("1e6, 32 k, 1_000_000", "unknown, 200k, 1.5k"):
        assert page_lengths(text) == (cli_lengths(text), None)
    assert page_lengths("1e6, 32 k, 1_000_000")[0] == [1_000_000, 32_000]


def test_the_other_goals_field_refuses_an_empty_item_as_goal_does() -> None:
    """The Tuning page's "Other goals" field reads its items with --goal's parser: an empty item is
    refused with the same message, not skipped."""
    from toolsearch.ui.common import parse_length_goals

    cli = run_cli("recommend", TEAM, "--context-lengths", "200k,1m", "--goal", "200k=full,,1m=full")
    assert cli.returncode == 2, cli.stdout
    message = cli.stderr.strip().split("argument --goal: ")[1]
    assert message.startswith("item 2 of '200k=full,,1m=full' is empty"), message
    assert parse_length_goals("200k=full,,1m=full") == ({}, f"Other goals: {message}.")
    assert parse_length_goals("200k=full, 1m=full") == ({200_000: "full", 1_000_000: "full"}, None)
