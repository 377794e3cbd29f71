"""docs/search-quality.md describes the Quality page's tuning-rule line as the page prints it: the
sentence toolsearch eval prints, with the shares as percentages (the page's one format), above the
figures' tables."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def test_the_page_line_is_described_as_printed():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    assert not at.exception, at.exception
    line = next(t.value for t in at.text if t.value.startswith("in sample, best by the tuning rule"))
    assert line.endswith("agent, 100.00% query recall@5 with 100.00% empty")  # percentages, not 1.000
    doc = " ".join((ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8").split())
    assert "the Quality page prints the same line with its shares as percentages, above its tables" in doc
