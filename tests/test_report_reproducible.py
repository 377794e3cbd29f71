"""``toolsearch report`` writes the same bytes for the same inputs: each chart has a fixed id (plotly
draws a random one per call) and ``SOURCE_DATE_EPOCH`` fixes the generated time (docs/ci.md)."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "five-servers.yaml"


def test_two_reports_of_the_same_inputs_are_byte_identical_with_source_date_epoch(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    paths = [tmp_path / "a.html", tmp_path / "b.html"]
    for path in paths:
        done = run_cli("report", CATALOG, "--context-length", "32k", "-o", path)
        assert done.returncode == 0, done.stderr
    first, second = (p.read_bytes() for p in paths)
    assert first == second
    text = first.decode("utf-8")
    assert "<dt>generated</dt><dd>2026-01-01 00:00 UTC</dd>" in text
    assert re.findall(r'<div id="([^"]+)" class="plotly-graph-div"', text) == ["toolsearch-chart-0", "toolsearch-chart-1"]


def test_a_source_date_epoch_that_is_not_whole_seconds_is_ignored(tmp_path: Path, monkeypatch) -> None:
    from toolsearch.analysis.review import generated_now  # noqa: PLC0415

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    assert generated_now() == "1970-01-01 00:00 UTC"
    for bad in ("soon", "-5", "1.5", "", "99999999999999999999"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", bad)
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", generated_now()) and not generated_now().startswith("1970")


def test_a_source_date_epoch_the_report_cannot_use_is_said(tmp_path: Path, monkeypatch) -> None:
    """A build that sets ``SOURCE_DATE_EPOCH`` to compare two reports byte for byte, with a value the
    report ignores (``1.5``, ``soon``), got two different times and no word why: ``report`` says it
    on stderr and still writes the report (exit 0). An empty value is as unset: nothing is said."""
    for bad in ("soon", "1.5", "99999999999999999999"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", bad)
        done = run_cli("report", CATALOG, "--context-length", "32k", "-o", tmp_path / "r.html")
        assert done.returncode == 0, done.stderr
        assert done.stderr.splitlines()[0] == (
            f"toolsearch: warning: SOURCE_DATE_EPOCH='{bad}' is not a whole number of seconds since 1970 within the "
            "dates a report can carry, so the report carries the current time")
    for fine in ("", "1767225600"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", fine)
        done = run_cli("report", CATALOG, "--context-length", "32k", "-o", tmp_path / "r.html")
        assert done.returncode == 0 and "SOURCE_DATE_EPOCH" not in done.stderr, done.stderr
