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
