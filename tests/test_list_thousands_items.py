"""A number written with a thousands separator after other items of a comma-separated list
(``--context-lengths 2000,4,500``) was read as several values (2000, 4 and 500 tokens) without a
word, because only a list that started with such a number was checked. Every list option refuses it
now, wherever it stands, in one line (exit 2) that names the option and the item; the app's Tuning
page reads the field with the same parser."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from conftest import run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.cli.textfmt import list_items, parse_context_lengths

ROOT = Path(__file__).resolve().parent.parent
FIVE = str(ROOT / "sample_catalogs" / "five-servers.yaml")


@pytest.mark.parametrize(("args", "option", "item"), [
    (("sweep", FIVE, "--context-lengths", "2000,4,500"), "--context-lengths", "4,500"),
    (("sweep", FIVE, "--context-lengths", "2000,4,000"), "--context-lengths", "4,000"),
    (("sweep", FIVE, "--context-lengths", "32k,128,000,1m"), "--context-lengths", "128,000"),
    (("recommend", FIVE, "--goal", "names", "--context-lengths", "32000,200,000"), "--context-lengths", "200,000"),
    (("harnesses", FIVE, "--context-lengths", "2000,4,000"), "--context-lengths", "4,000"),
    (("recommend", FIVE, "--context-lengths", "32k,1m", "--goal", "names,32k,128,000=full"), "--goal", "128,000"),
    (("sweep", FIVE, "--listing-max-tokens", "2000,4,000"), "--listing-max-tokens", "4,000"),
    (("sweep", FIVE, "--threshold-pcts", "2,1,000"), "--threshold-pcts", "1,000"),
    (("sweep", FIVE, "--threshold-pcts", "5,1,050"), "--threshold-pcts", "1,050"),
])
def test_a_thousands_separator_after_other_items_is_one_clear_error(args, option, item) -> None:
    done = run_cli(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert f"error: argument {option}: '{item}' reads as {' and '.join(item.split(','))}" in lines[0], lines
    assert "without a thousands separator" in lines[0]


def test_lists_without_a_thousands_separator_still_read() -> None:
    assert parse_context_lengths("32k,200k,1m") == [32_000, 200_000, 1_000_000]
    assert parse_context_lengths("100, 32k") == [100, 32_000]
    assert parse_context_lengths("2000, 4000") == [2000, 4000]
    assert list_items("1,2,5,10,100", "numbers of percent", "a number of percent") == ["1", "2", "5", "10", "100"]
    with pytest.raises(argparse.ArgumentTypeError, match="'4,000' reads as 4 and 000 tokens"):
        parse_context_lengths("2000,4,000")
    done = run_cli("sweep", FIVE, "--context-lengths", "32k,200k", "--threshold-pcts", "1,2,100",
                   "--listing-max-tokens", "100,300", "--json")
    assert done.returncode == 0, done.stderr


def test_tuning_page_refuses_the_same_list() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.text_input(key="tuning_contexts").set_value("32000,200,000").run()
    assert not at.exception, at.exception
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("'200,000' reads as 200 and 000 tokens" in e for e in errors), errors
