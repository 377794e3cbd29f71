"""The Quality page lists the query file's expected names that are not deferred tools; cut at 20,
the list says how many it left out (it stopped at 20 without a word, under a count of 25)."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_quality_page_says_how_many_unknown_names_it_does_not_list() -> None:
    from streamlit.testing.v1 import AppTest

    from toolsearch.ui.quality import UNKNOWN_SHOWN, UPLOAD

    names = [f"mcp__nowhere__tool_{i:02d}" for i in range(UNKNOWN_SHOWN + 5)]
    tasks = {"tasks": [{"id": "a", "query": "send a message", "expected": names}]}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    at.selectbox(key="quality_file:team-workspace").set_value(UPLOAD).run()
    at.file_uploader(key="quality_upload").set_value(
        ("q.yaml", yaml.safe_dump(tasks).encode(), "application/x-yaml")).run()
    at.multiselect(key="quality_variants").set_value(["reference"]).run()
    assert not at.exception, at.exception
    assert any(w.value.startswith("25 expected names not among the deferred tools") for w in at.warning)
    listed = next(t.value for t in at.text if t.value.startswith(names[0]))
    assert listed.splitlines() == [*names[:UNKNOWN_SHOWN], "and 5 more"]
