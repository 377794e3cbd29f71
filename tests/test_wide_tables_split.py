"""The Search quality page's Per task table (a column per variant: eleven by default) and the
Sessions page's per-called-tool what-if (ten columns) scrolled sideways at 1024 px. Each is now
split into tables of few columns that show the same rows, so every cell is read without a
sideways scroll, and no figure is lost: the tables together hold every column of the one before.
The browser check is in tests/test_browser_layout.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import literal_tables
from toolsearch.analysis.variants import DEFAULT_VARIANTS

ROOT = Path(__file__).absolute().parent.parent
#: toolsearch/ui/sessions.py's two what-if tables (a page script: not imported here)
WHAT_IF_LISTED = ("session", "tool", "server", "context length", "budget (tokens)", "listed", "searches just before")
WHAT_IF_SMALLEST = ("session", "tool", "context length", "smallest budget", "threshold_pct", "listing_max_tokens")


def _quality_page():
    """toolsearch/ui/quality.py, imported when a test needs it: it is a view script, and importing
    it runs the page (an evaluation and a lint, about 1.7 s of CPU), which every test process would
    otherwise pay while collecting."""
    from toolsearch.ui import quality  # noqa: PLC0415

    return quality


def _open(page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize(("count", "sizes"), [(0, [0]), (1, [1]), (6, [6]), (7, [4, 3]), (11, [6, 5]), (13, [5, 5, 3])])
def test_variant_groups_are_as_few_and_as_even_as_can_be(count, sizes) -> None:
    quality = _quality_page()
    names = [f"v{i}" for i in range(count)]
    groups = quality.variant_groups(names)
    assert [len(g) for g in groups] == sizes and [n for g in groups for n in g] == names
    assert all(len(g) <= quality.TASK_TABLE_VARIANTS for g in groups)


def test_per_task_tables_hold_every_variant_once_beside_every_task() -> None:
    at = _open("toolsearch/ui/quality.py")
    tables = literal_tables(at)
    keys = [k for k in tables if k == "quality_tasks" or k.startswith("quality_tasks_")]
    assert keys == ["quality_tasks", "quality_tasks_2"], keys
    variants = [c for k in keys for c in tables[k].columns if c != "task"]
    assert variants == list(dict.fromkeys(DEFAULT_VARIANTS)), variants
    for key in keys:
        assert list(tables[key].columns)[0] == "task" and len(tables[key].columns) <= _quality_page().TASK_TABLE_VARIANTS + 1
        assert list(tables[key]["task"]) == list(tables["quality_tasks"]["task"])


def test_what_if_tables_show_the_same_rows_and_every_column() -> None:
    at = _open("toolsearch/ui/sessions.py")
    tables = literal_tables(at)
    listed, smallest = tables["sessions_whatif"], tables["sessions_whatif_smallest"]
    assert list(listed.columns) == list(WHAT_IF_LISTED) and list(smallest.columns) == list(WHAT_IF_SMALLEST)
    assert set(listed.columns) | set(smallest.columns) == {
        "session", "tool", "server", "context length", "budget (tokens)", "listed", "searches just before",
        "smallest budget", "threshold_pct", "listing_max_tokens"}
    assert len(listed) == len(smallest) >= 8
    shared = ["session", "tool", "context length"]
    assert listed[shared].values.tolist() == smallest[shared].values.tolist()
    assert max(len(listed.columns), len(smallest.columns)) <= 7
