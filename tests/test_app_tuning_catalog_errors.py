"""Tuning page (Streamlit ``AppTest``): a catalog with a catalog error (the hard-cases sample: two tools
whose names sanitize alike, none of them registered) gets a recommendation for the catalog without
them, and an exported block whose ``# gate:`` command refuses the catalog, as ``toolsearch recommend``
does. The page says so beside the answer, naming the first error as the command line does; a catalog
without one gets no such warning. So does a live catalog a server is missing from because it did not
list its tools."""

from __future__ import annotations

from dataclasses import replace
from html import escape
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli
from toolsearch.engine.catalog import Problem, load_sources
from toolsearch.live.client import LIVE_ORIGIN
from toolsearch.ui.sources import LIVE

ROOT = Path(__file__).absolute().parent.parent
LENGTHS = "32k,200k,1m"


def _warnings(catalog: str) -> list[str]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": catalog, "lengths": LENGTHS, "goal": "names"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return [w.value.replace("\\", "") for w in at.warning if "catalog error" in w.value]


def test_a_catalog_error_is_said_beside_the_answer():
    cli = run_cli("recommend", "sample_catalogs/hard-cases.yaml", "--context-lengths", LENGTHS, "--goal", "names",
                  "--yaml", cwd=ROOT)
    assert cli.returncode == 2 and cli.stdout == ""  # the command line gives no block for it
    where = "sample_catalogs/hard-cases.yaml: server 'docs'"
    assert f"recommend: 1 catalog error ({where}; above)" in cli.stderr, cli.stderr
    (warning,) = _warnings("hard-cases")
    assert warning == (f"The catalog has 1 catalog error ({where}): these settings are for the catalog without what "
                       "was skipped, and toolsearch recommend and the block's # gate: command (toolsearch check) refuse "
                       "the catalog until the file is fixed."), warning


def test_no_warning_without_a_catalog_error():
    assert _warnings("team-workspace") == []


def test_a_server_that_did_not_list_its_tools_is_said_beside_the_answer():
    # a live catalog whose server 'down' failed to connect: the rest of the catalog is recommended for
    catalog = load_sources([ROOT / "sample_catalogs" / "five-servers.yaml"])
    catalog = replace(catalog, problems=(*catalog.problems, Problem(
        "error", f"{LIVE_ORIGIN}: server 'down'", "not connected: connection refused")))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": LENGTHS, "goal": "names"})
    at.session_state["live_catalog"] = catalog
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(LIVE).run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    warnings = [w.value.replace("\\", "") for w in at.warning if "did not list" in w.value]
    assert warnings == ["1 server did not list its tools ('down'): these settings are for the catalog without it, "
                        "and toolsearch recommend and the block's # gate: command (toolsearch check) refuse the "
                        "catalog until every server lists its tools."], warnings
    assert not [w for w in at.warning if "catalog error" in w.value]  # a server down is not a catalog error


def test_the_report_page_says_it_beside_the_recommendation_it_carries():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "hard-cases", "lengths": LENGTHS, "goal": "names"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    tuning = [w.value for w in at.warning if "catalog error" in w.value]
    at.switch_page("toolsearch/ui/report.py").run()
    assert not at.exception, at.exception
    assert [w.value for w in at.warning if "catalog error" in w.value] == tuning != []
    # the HTML report built there carries the same sentence under the recommendation's verdict
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    html = at.session_state["report_html"]
    section = html[html.index("Recommended settings across context lengths"):]
    (words,) = [w.value.replace("\\", "") for w in at.warning if "catalog error" in w.value]
    assert f"<p><strong>Warning:</strong> {escape(words)}</p>" in section[:section.index("<pre>")], section[:1500]


def test_a_report_without_a_catalog_error_carries_no_warning():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "team-workspace", "lengths": LENGTHS, "goal": "names"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.switch_page("toolsearch/ui/report.py").run()
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    assert "<strong>Warning:</strong>" not in at.session_state["report_html"]
