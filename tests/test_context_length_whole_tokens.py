"""A context length is a whole number of tokens: ``128000.5`` was cut to 128,000 without a word;
``0.1k`` must read as 100 tokens (not refused because 0.1 has no exact binary form)."""

from __future__ import annotations

import argparse

import pytest
from conftest import run_cli

from toolsearch.cli.textfmt import parse_context_length
from toolsearch.ui.common import parse_context_lengths


@pytest.mark.parametrize(("text", "tokens"), [("0.1k", 100), ("1.5k", 1_500), ("2.5k", 2_500), ("1e6", 1_000_000),
                                               ("0.0015m", 1_500), ("1_000", 1_000), ("200K", 200_000)])
def test_written_lengths_that_are_whole_tokens_are_read_exactly(text, tokens):
    assert parse_context_length(text) == tokens


@pytest.mark.parametrize(("text", "said"), [("128000.5", "got '128000.5'"),
                                             ("1.0000001m", "got '1.0000001m', which is 1000000.1 tokens"),
                                             ("1.0005k", "got '1.0005k', which is 1000.5 tokens")])
def test_a_part_of_a_token_is_refused_naming_the_value(text, said):
    with pytest.raises(argparse.ArgumentTypeError, match="whole number of tokens") as raised:
        parse_context_length(text)
    assert said in str(raised.value)


def test_the_command_line_and_the_app_refuse_a_fractional_length():
    done = run_cli("recommend", "sample_catalogs/five-servers.yaml", "--context-lengths", "32k,128000.5")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith(
        "argument --context-lengths: expected a whole number of tokens (e.g. 128000, 128k, 1.5k), got '128000.5'")
    lengths, error = parse_context_lengths("32k, 128000.5")
    assert lengths == [] and error is not None and "whole number of tokens" in error and "'128000.5'" in error
