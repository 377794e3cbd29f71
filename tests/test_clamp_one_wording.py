"""A budget value out of range reads the same on every surface: the command line's warning, a
config file's warning and the app's note (sidebar box and link) end in the same words, with the
range and the value used written with thousands separators (``200..60,000``, ``60,000 tokens``)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli
from toolsearch.engine.config import clamped_words, parse_config

ROOT = Path(__file__).resolve().parent.parent
CATALOG = str(ROOT / "sample_catalogs" / "five-servers.yaml")
CAP_WORDS = "is outside 200..60,000, so it was clamped to 60,000 tokens"
PCT_WORDS = "is outside 0..100, so it was clamped to 100%"


def test_the_clamp_words_write_the_range_with_separators() -> None:
    assert clamped_words("listing_max_tokens", 60000) == CAP_WORDS
    assert clamped_words("listing_max_tokens", 200) == "is outside 200..60,000, so it was clamped to 200 tokens"
    assert clamped_words("threshold_pct", 100.0) == PCT_WORDS
    assert parse_config({"listing_max_tokens": 70000}).warnings == (
        f"tools.tool_search.listing_max_tokens: 70000 {CAP_WORDS}",)


def test_the_command_line_and_the_app_say_the_same_words() -> None:
    cli = run_cli("plan", CATALOG, "--listing-max-tokens", "70000", "--threshold-pct", "150")
    assert cli.returncode == 0, cli.stderr
    assert f"toolsearch: warning: --listing-max-tokens 70000 {CAP_WORDS}\n" in cli.stderr
    assert f"toolsearch: warning: --threshold-pct 150 {PCT_WORDS}\n" in cli.stderr

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"cap": "70000"})
    at.run()
    assert not at.exception, at.exception
    said = [w.value for w in at.warning]
    assert f"The link's cap: listing_max_tokens 70000 {CAP_WORDS}, as the harness clamps such a config value." in said, said
    at.sidebar.number_input(key="threshold_pct_exact").set_value(150.0).run()
    assert not at.exception, at.exception
    notes = [i.value for i in at.sidebar.info]
    assert f"threshold_pct 150 {PCT_WORDS}, as the harness clamps such a config value." in notes, notes
