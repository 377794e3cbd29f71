"""Every whole-number option of the command line reads a number the same way
(:func:`toolsearch.cli.textfmt.whole_number`): ``--context-lengths 1e6`` was accepted while
``--listing-max-tokens 1e6`` was refused, and ``--folds 1_0`` read while ``--tools 1,000`` did
not. Exponent notation, ``_``/``,`` separators and the ``k``/``m`` suffixes are read everywhere; a
number with a fraction is refused everywhere, naming the option and the value."""

from __future__ import annotations

import argparse

import pytest
from conftest import run_cli

from toolsearch.cli.commands import build_parser
from toolsearch.cli.textfmt import whole_number

#: (command, option) of every option that takes a whole number (a list option: every item)
WHOLE_NUMBER_OPTIONS = [
    ("plan", "--context-length"), ("plan", "--listing-max-tokens"),
    ("sweep", "--context-lengths"), ("sweep", "--listing-max-tokens"),
    ("recommend", "--context-lengths"), ("check", "--context-lengths"), ("check", "--max-listing-tokens"),
    ("harnesses", "--context-lengths"), ("sessions", "--context-length"), ("sessions", "--context-lengths"),
    ("strategies", "--context-length"), ("strategies", "--tool-tokens"), ("strategies", "--search-results"),
    ("synth", "--tools"), ("synth", "--servers"), ("synth", "--seed"),
    ("eval", "--folds"), ("eval", "--limit"), ("diff", "--context-length"), ("diff", "--listing-max-tokens"),
    ("search", "--limit"), ("explain", "--limit"),
]


def _option_type(command: str, option: str):
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    return sub.choices[command]._option_string_actions[option].type  # noqa: SLF001


def _as_int(value) -> int:
    return int(value[0] if isinstance(value, list) else value)


@pytest.mark.parametrize(("command", "option"), WHOLE_NUMBER_OPTIONS)
@pytest.mark.parametrize(("text", "number"), [("20", 20), ("2e1", 20), ("2.0E1", 20), ("0.02k", 20), ("2_0", 20)])
def test_every_whole_number_option_reads_the_same_spellings(command, option, text, number) -> None:
    assert _as_int(_option_type(command, option)(text)) == number


@pytest.mark.parametrize(("command", "option"), WHOLE_NUMBER_OPTIONS)
@pytest.mark.parametrize("text", ["2.5", "25e-1", "abc", "inf"])
def test_every_whole_number_option_refuses_a_fraction_or_a_word_naming_the_value(command, option, text) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as raised:
        _option_type(command, option)(text)
    assert f"got '{text}'" in str(raised.value)
    assert "whole number" in str(raised.value) or "positive number of tokens" in str(raised.value)


def test_listing_max_tokens_takes_exponent_notation_as_context_lengths_does() -> None:
    catalog = "sample_catalogs/five-servers.yaml"
    capped = run_cli("plan", catalog, "--listing-max-tokens", "1e6")
    assert capped.returncode == 0, capped.stderr
    # named as typed, as every settings warning names a flag's value
    assert "--listing-max-tokens 1e6 is outside 200..60,000, so it was clamped to 60,000 tokens" in capped.stderr
    assert "listing_max_tokens 60,000" in capped.stdout
    same = run_cli("plan", catalog, "--listing-max-tokens", "3e3", "--context-length", "1e6", "--json")
    assert same.stdout == run_cli("plan", catalog, "--listing-max-tokens", "3000", "--context-length", "1000000",
                                  "--json").stdout
    swept = run_cli("sweep", catalog, "--context-lengths", "1e6", "--listing-max-tokens", "1e6,4e3", "--csv")
    assert swept.returncode == 0, swept.stderr


def test_a_fraction_is_refused_with_the_option_and_the_number_it_is() -> None:
    done = run_cli("plan", "sample_catalogs/five-servers.yaml", "--listing-max-tokens", "4.0005k")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith(
        "argument --listing-max-tokens: expected a whole number of tokens from 200 to 60,000 (values outside are "
        "clamped), got '4.0005k', which is 4000.5 tokens")
    few = run_cli("eval", "sample_catalogs/five-servers.yaml", "x.yaml", "--folds", "2e0.5")
    assert few.returncode == 2 and few.stderr.strip().endswith("argument --folds: expected a whole number of at least 2, "
                                                               "got '2e0.5'")


def test_a_number_too_long_to_be_a_count_is_refused_before_it_is_built() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="got '1e999999999'"):
        whole_number("1e999999999", "expected a whole number")
    assert whole_number("-1e3", "expected a whole number") == -1000


def test_a_thousands_separator_in_a_list_of_caps_is_refused_as_in_a_list_of_lengths() -> None:
    """``sweep --listing-max-tokens 4,000`` read as two caps, 4 and 0 tokens (both clamped to 200
    with a warning each); a list of context lengths refuses the same spelling with how to write it."""
    done = run_cli("sweep", "sample_catalogs/five-servers.yaml", "--listing-max-tokens", "4,000")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().endswith(
        "argument --listing-max-tokens: '4,000' reads as 4 and 000 tokens, as a comma separates the values; write "
        "each value without a thousands separator, e.g. 4000 or 4k")
    assert _option_type("sweep", "--listing-max-tokens")("4000, 8k") == [4000, 8000]
    assert _option_type("sweep", "--listing-max-tokens")("100,300") == [100, 300]  # two caps, as before
    for text in ("12,050", "1,000,000", "4,000, 8000"):
        with pytest.raises(argparse.ArgumentTypeError, match="thousands separator"):
            _option_type("sweep", "--listing-max-tokens")(text)


def test_a_huge_listing_max_tokens_is_named_in_exponent_form_not_as_hundreds_of_digits() -> None:
    catalog = "sample_catalogs/five-servers.yaml"
    for command in ("plan", "sweep"):
        huge = run_cli(command, catalog, "--listing-max-tokens", "1e400")
        assert huge.returncode == 0, huge.stderr
        warning = next(line for line in huge.stderr.splitlines() if "--listing-max-tokens" in line)
        assert "1e400 is outside 200..60,000, so it was clamped to 60,000 tokens" in warning, warning
        assert "0" * 20 not in warning and len(warning) < 160, warning
    seventeen = run_cli("plan", catalog, "--listing-max-tokens", "12345678901234567")
    assert "--listing-max-tokens 12345678901234567 is outside" in seventeen.stderr, seventeen.stderr
