"""One reading of a threshold_pct or listing_max_tokens value written by hand, on the command line
and in an app link (``read_budget_value``): a number written out, however large (``1e400``,
``1e5000``, ``4e4299``), is clamped with the warning that names it as typed; only text that is no
finite number is refused. The config file is read as the harness reads it: ``listing_max_tokens:
1e400`` is no whole number to its plain integer conversion, and the warning says why. An app link
``?cap=1e400`` no longer stops every page with an OverflowError."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
CATALOG = str(ROOT / "sample_catalogs" / "five-servers.yaml")
CLAMPED_CAP = "is outside 200..60,000, so it was clamped to 60,000 tokens"


@pytest.mark.parametrize("typed", ["1e400", "1e5000", "4e4299", "1e20"])
def test_the_command_line_clamps_a_huge_cap_and_names_it_as_typed(typed) -> None:
    done = run_cli("plan", CATALOG, "--listing-max-tokens", typed, "--json")
    assert done.returncode == 0, done.stderr
    assert f"toolsearch: warning: --listing-max-tokens {typed} {CLAMPED_CAP}" in done.stderr.splitlines(), done.stderr


def test_the_command_line_clamps_a_huge_threshold_pct() -> None:
    done = run_cli("plan", CATALOG, "--threshold-pct", "1e400")
    assert done.returncode == 0, done.stderr
    assert "toolsearch: warning: --threshold-pct 1e400 is outside 0..100, so it was clamped to 100%" in done.stderr
    assert run_cli("plan", CATALOG, "--threshold-pct", "inf").returncode == 2


def test_the_config_file_reads_the_cap_as_the_harness_does_and_says_why(tmp_path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    listing_max_tokens: 1e400\n    threshold_pct: 1e400\n", encoding="utf-8")
    done = run_cli("plan", CATALOG, "--config", config)
    assert done.returncode == 0, done.stderr
    assert (f"toolsearch: warning: {config}: line 3: tools.tool_search.listing_max_tokens: '1e400' is not a whole "
            "number as the harness reads this key (digits only, no exponent or suffix), so the default 4,000 tokens "
            "is used") in done.stderr.splitlines(), done.stderr
    assert (f"toolsearch: warning: {config}: line 4: tools.tool_search.threshold_pct: '1e400' is outside 0..100, so "
            "it was clamped to 100%") in done.stderr.splitlines(), done.stderr


@pytest.mark.parametrize("query, note", [
    ({"cap": "1e400"}, f"The link's cap: listing_max_tokens 1e400 {CLAMPED_CAP}"),
    ({"cap": "4e4299"}, f"The link's cap: listing_max_tokens 4e4299 {CLAMPED_CAP}"),
    ({"pct": "1e400"}, "The link's pct: threshold_pct 1e400 is outside 0..100, so it was clamped to 100%"),
])
def test_a_link_with_a_huge_budget_value_is_clamped_not_a_traceback(query, note) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    said = " ".join(m.value for m in [*at.warning, *at.info, *at.caption, *at.sidebar.warning, *at.sidebar.info,
                                      *at.sidebar.caption])
    assert note.replace(".", "\\.").replace("%", "%") in said or note in said, said
    key = "listing_max_tokens" if "cap" in query else "threshold_pct"
    assert at.session_state[key] == (60_000 if "cap" in query else 100.0)
