"""docs/search-quality.md describes the Quality page's tuning-rule line as the page prints it: the
sentence toolsearch eval prints, with the same three-decimal shares, above the figures' tables."""

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
    assert line.endswith("agent, 1.000 query recall@5 with 1.000 empty")  # as eval prints it, not 100.00%
    doc = " ".join((ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8").split())
    assert "the Quality page prints the same line, above its tables" in doc
    assert "as percentages" not in doc
