"""The per-strategy table names its figures the same on the Strategies page and in ``toolsearch
strategies`` (``tools shown up front``, ``callable up front``; the CLI said ``tools shown`` and
``callable``) and says "read before call" in the same words (the CLI said yes/no where the page
says guaranteed/not guaranteed), from one function (``strategies.read_before_call_words``)."""

from __future__ import annotations

from pathlib import Path

from conftest import inspector_of, literal_tables, run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.analysis.skills import load_skills
from toolsearch.analysis.strategies import (
    CALLABLE_COLUMN,
    TOOLS_SHOWN_COLUMN,
    StrategyModel,
    Task,
    read_before_call_words,
)

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
SKILLS = ROOT / "sample_skills"


def test_read_before_call_words() -> None:
    assert [read_before_call_words(v) for v in (True, False, None)] == ["guaranteed", "not guaranteed", "n/a"]


def test_cli_table_uses_the_page_names_and_words() -> None:
    done = run_cli("strategies", str(TEAM), "--skills", str(SKILLS), "--read", "incident-response")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    header = next(x for x in lines if x.startswith("strategy "))
    assert f"  {TOOLS_SHOWN_COLUMN}  " in header and header.rstrip().endswith(CALLABLE_COLUMN), header
    model = StrategyModel(inspector_of([TEAM]), load_skills(SKILLS))
    results = model.results(Task(skills_read=("incident-response",)))
    for result in results:
        row = next(x for x in lines if x.startswith(result.label + "  "))
        cells = row.split()
        assert cells[-2:] == [str(result.tools_upfront), str(result.callable_upfront)], row
        assert f"  {read_before_call_words(result.read_before_call)}  " in row, row


def test_page_table_has_the_same_columns() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("toolsearch/ui/strategies.py").run()
    assert not at.exception, at.exception
    table = literal_tables(at)["strat_table"]
    assert {TOOLS_SHOWN_COLUMN, CALLABLE_COLUMN, "read before call"} <= set(table.columns)
    assert set(table["read before call"]) <= {"guaranteed", "not guaranteed", "n/a"}
