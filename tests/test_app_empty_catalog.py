"""A catalog with no tools at all (an export step that wrote nothing) is said in one set of words
on every surface: ``plan`` warns, ``check``, ``lint`` and ``recommend`` refuse, and the app's
pages show the warning above their figures (tier 0 is not a finding about the catalog)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import run_cli, write_yaml
from toolsearch.analysis.quantities import empty_catalog_words
from toolsearch.engine.catalog import load_source

ROOT = Path(__file__).resolve().parent.parent
EMPTY = {"servers": [{"name": "onlyempty", "tools": []}]}


@pytest.fixture(autouse=True)
def router_mode(monkeypatch):
    """Run the AppTest through app.py's st.navigation router (as a served app does)."""
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


def test_plan_warns_of_a_catalog_with_no_tools_in_the_refusals_words(tmp_path):
    empty = write_yaml(tmp_path / "allempty.yaml", EMPTY)
    plan = run_cli("plan", empty)
    assert plan.returncode == 0, plan.stderr
    assert plan.stderr == (f"toolsearch: warning: {empty}: no tools, so every figure is for an empty catalog "
                           "(tier 0: nothing to defer or list); give the catalog the harness serves\n")
    assert plan.stderr == f"toolsearch: warning: {empty_catalog_words(load_source(empty))}\n"
    for command, so in (("check", "every goal would hold with nothing judged"),
                        ("recommend", "every goal would hold with nothing judged"),
                        ("lint", "there is nothing to lint, and no findings would read as a clean catalog")):
        extra = () if command == "lint" else ("--context-lengths", "32k", "--goal", "names")
        done = run_cli(command, empty, *extra)
        assert (done.returncode, done.stdout) == (2, ""), done.stdout
        assert done.stderr == f"toolsearch: error: {command}: {empty}: no tools, so {so}; give the catalog the harness serves\n"
    one_of_two = write_yaml(tmp_path / "two.yaml", {"servers": [*EMPTY["servers"], {"name": "web", "tools": [
        {"name": "fetch", "description": "Fetch a URL.", "inputSchema": {"type": "object"}}]}]})
    assert "no tools, so" not in run_cli("plan", one_of_two).stderr  # one empty server: its own warning


def test_the_app_warns_of_a_catalog_with_no_tools(tmp_path, monkeypatch):
    from toolsearch.ui import common

    folder = tmp_path / "samples"
    folder.mkdir()
    write_yaml(folder / "allempty.yaml", EMPTY)
    monkeypatch.setattr(common, "SAMPLES_DIR", folder)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.session_state["catalog"] = "allempty"
    at.run()
    assert not at.exception, at.exception
    warnings = [w.value for w in at.warning]
    assert [w for w in warnings if "no tools, so" in w] == [common.md_escape(
        "sample_catalogs/allempty.yaml: no tools, so every figure is for an empty catalog (tier 0: nothing to "
        "defer or list); give the catalog the harness serves.")], warnings
