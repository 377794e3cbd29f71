"""A short secret of a config (4 or 5 characters: an ``env`` value ``API_KEY: "k9Q2"``, a header's
token) was searched for in what a server prints, in failure reasons and in warnings only where it
stood as a whole token, so a server that glued it to other text (``key_k9Q2``, ``k9Q2xyz``, a tool
named ``get_k9Q2``) showed it. A short value that looks generated (not one word of letters, not a
number) is now masked wherever it occurs, as values of 6 characters and more are
(:func:`toolsearch.engine.secrets.masked_anywhere`); a short word or number (``info``, ``true``,
``8080``), mostly a setting, is still masked as a whole token only, so ordinary words stay readable."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import run_cli_process, write_json, write_yaml

from toolsearch.engine import constants as C
from toolsearch.engine.secrets import (
    mask_leading_suffix,
    mask_trailing_prefix,
    masked_anywhere,
    scrub_text,
    secret_index,
    secret_list,
)
from toolsearch.live.mcpconfig import parse_config_data

M = C.SECRET_MASK
PY = sys.executable
CATALOG = str(Path(__file__).resolve().parent.parent / "sample_catalogs" / "five-servers.yaml")


@pytest.mark.parametrize("value", ["k9Q2", "ab12", "p@ss", "x9!k", "a b1", "12ab", "#a1b", "ab-cd", "v1.2x"])
def test_a_short_value_that_looks_generated_is_masked_anywhere(value: str) -> None:
    assert masked_anywhere(value)


@pytest.mark.parametrize("value", ["info", "true", "debug", "Prod", "1234", "8080", "0.75", "-1.5", "café"])
def test_a_short_word_or_number_is_masked_as_a_token_only(value: str) -> None:
    assert not masked_anywhere(value)


@pytest.mark.parametrize(("text", "shown"), [
    ("key=k9Q2;", f"key={M};"),             # beside punctuation: as before
    ("k9Q2xyz", f"{M}xyz"),                  # glued to letters after it
    ("key_k9Q2", f"key_{M}"),                # glued by an underscore (a registered tool name)
    ("xk9Q2z", f"x{M}z"),
    ("k9\nQ2x", f"{M}\nx"),                  # cut by a line break, glued
    ("information, info.", f"information, {M}."),  # a word value: as before
    ("port 18080 and 8080", f"port 18080 and {M}"),
])
def test_scrubbing_free_text(text: str, shown: str) -> None:
    values = ["k9Q2", "info", "8080"]
    assert scrub_text(text, secret_list(values)) == shown
    assert scrub_text(text, secret_index(values)) == shown  # the index masks exactly as the list


def test_a_cut_start_or_end_of_it_is_masked_glued_too() -> None:
    secrets = secret_list(["k9Q2x"])
    assert mask_trailing_prefix("prefixk9Q2", secrets) == f"prefix{M}"
    assert mask_leading_suffix("9Q2xsuffix", secrets) == f"{M}suffix"


def test_a_servers_stderr_and_the_snapshot_never_show_it(tmp_path) -> None:
    """The way a user meets it: a server that fails prints its key glued to other text."""
    script = ("import os, sys; k = os.environ['API_KEY']; t = os.environ['AUTH']\n"
              "sys.stderr.write(f'bad key_{k} ({k}xyz) token={t}; header {t}s\\n'); sys.exit(3)")
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "s": {"command": PY, "args": ["-c", script], "env": {"API_KEY": "k9Q2", "AUTH": "Tz4!", "LOG_LEVEL": "info"}}}})
    saved = tmp_path / "snap.yaml"
    runs = [run_cli_process("plan", config, "--timeout", "60"), run_cli_process("snapshot", config, "-o", saved,
                                                                                  "--timeout", "60")]
    out = "".join(done.stdout + done.stderr for done in runs) + saved.read_text(encoding="utf-8")
    assert "k9Q2" not in out and "Tz4" not in out, out
    assert f"(stderr: bad key_{M} ({M}xyz) token={M}; header {M}s)" in runs[0].stderr, runs[0].stderr


def test_a_harness_config_warning_never_shows_a_provider_key_glued_to_a_number(tmp_path) -> None:
    config = write_yaml(tmp_path / "config.yaml", {
        "model": {"api_key": "k9Q2"},
        "tools": {"tool_search": {"listing_max_tokens": "4000k9Q2"}}})
    done = run_cli_process("plan", CATALOG, "--config", config)
    assert done.returncode == 0, done.stderr
    assert "k9Q2" not in done.stdout + done.stderr, done.stderr
    assert f"'4000{M}'" in done.stderr, done.stderr


def test_an_entry_that_cannot_be_used_names_its_value_masked() -> None:
    (spec,) = parse_config_data({"mcpServers": {"s": {"command": "srv", "env": {"API_KEY": "k9Q2"},
                                                      "timeout": "k9Q2s"}}}, "mcp.json").servers
    assert spec.invalid is not None and "k9Q2" not in spec.invalid, spec.invalid
