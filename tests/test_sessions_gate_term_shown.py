"""A gate term is shown the same way on the Sessions page, in ``toolsearch sessions``, in
``toolsearch explain`` and on the Search page: the query word and its stem (``engineer → engin``,
``gate_term_text``), not the bare stem on some surfaces and word and stem on others.
"""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import literal_tables, run_cli
from toolsearch.analysis.quantities import gate_term_text

ROOT = Path(__file__).absolute().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
STORE = ROOT / "sample_sessions" / "state.db"
#: the sample store's searches that came back empty
FAILED = ["grafana dashboard latency", "page the on-call engineer", "rotate kubernetes secret"]


def _explained(query: str) -> str:
    data = json.loads(run_cli("explain", str(CATALOG), "-q", query, "--json").stdout)
    return gate_term_text(data["gate_word"], data["gate"])


def _app(page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "team-workspace"})
    at.run()
    at.switch_page(f"toolsearch/ui/{page}.py").run()
    assert not at.exception, at.exception
    return at


def test_gate_term_is_word_and_stem_on_every_surface():
    expected = {q: _explained(q) for q in FAILED}
    assert expected["page the on-call engineer"] == "engineer → engin"

    data = json.loads(run_cli("sessions", str(STORE), "--catalog", str(CATALOG), "--json").stdout)
    failed = {f["query"]: f for f in data["aggregates"]["top_failed"]}
    assert {q: gate_term_text(failed[q]["gate_word"], failed[q]["gate"]) for q in FAILED} == expected
    assert {q: failed[q]["why"] for q in FAILED} == {q: f"the gate term '{t}' occurs in no tool"
                                                     for q, t in expected.items()}
    text = run_cli("sessions", str(STORE), "--catalog", str(CATALOG)).stdout
    for t in expected.values():
        assert f"the gate term '{t}' occurs in no tool" in text

    sessions = literal_tables(_app("sessions"))["sessions_failed"]
    assert dict(zip(sessions["query"], sessions["gate term"])) == expected

    search = _app("search")
    search.text_area(key="search_queries").set_value("\n".join(FAILED)).run()
    assert not search.exception, search.exception
    whys = [t.value for t in search.text if t.value.startswith("Why:")]
    for query, shown in expected.items():
        assert any(f"Gate term '{shown}' in 0 tools" in w for w in whys), (query, whys)
