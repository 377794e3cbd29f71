"""A catalog the app's cache has let go of is freed, even while a browser session still keeps the
figures drawn from it.

The Costs page keeps its figures per browser session (toolsearch/ui/common.py ``figure``); the catalog
cache keeps at most ``max_entries`` registered catalogs. Here one session draws the Costs page on
a first catalog, then loads more catalogs than the cache holds; after a garbage collection the
first catalog's Inspector must be gone (a weak reference to it is dead), while the session's
figures of that catalog are still there to be reused.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import write_yaml
from toolsearch.ui import cache, common

ROOT = Path(__file__).resolve().parent.parent
#: The sidebar's catalog cache (toolsearch/ui/common.py ``_inspector``): max_entries.
CACHE_SIZE = 24


@pytest.fixture(autouse=True)
def router_mode(monkeypatch):
    """Run every AppTest run through app.py's router (see tests/test_app_search_costs.py)."""
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


@pytest.fixture
def samples(tmp_path, monkeypatch) -> list[str]:
    """CACHE_SIZE + 2 small catalogs, each with its own tools (so each is a distinct cache entry)."""
    folder = tmp_path / "samples"
    folder.mkdir()
    names = []
    for i in range(CACHE_SIZE + 2):
        name = f"catalog-{i:02d}"
        write_yaml(folder / f"{name}.yaml", {"name": name, "servers": [
            {"name": f"srv{i}", "tools": [{"name": f"tool_{j}", "description": f"Tool {j} of catalog {i}.",
                                           "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
                                          for j in range(3)]},
            {"name": "other", "tools": [{"name": "ping", "description": "Ping.",
                                         "inputSchema": {"type": "object", "properties": {}}}]}]})
        names.append(name)
    monkeypatch.setattr(common, "SAMPLES_DIR", folder)
    return names


def test_an_evicted_catalog_is_freed_while_its_figures_are_kept(samples, monkeypatch):
    made: list[weakref.ref] = []
    original = cache.Inspector

    class Recorded(original):  # records every inspector the sidebar's cache builds
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(weakref.ref(self))

    monkeypatch.setattr(cache, "Inspector", Recorded)  # the sidebar's catalog cache (toolsearch/ui/cache.py)
    common._inspector.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = samples[0]
    at.run()
    at.switch_page("toolsearch/ui/costs.py").run()
    assert not at.exception, at.exception
    assert len(made) == 1
    first = made[0]
    memo = at.session_state["_figure_memo"]
    kept = [key for key in memo if samples[0] in str(key)]
    assert {key[0] for key in kept} >= {"server_costs", "listing_budget", "collapse", "tool_tree"}

    at.switch_page("toolsearch/ui/overview.py").run()
    for name in samples[1:]:
        at.sidebar.selectbox(key="catalog").set_value(name).run()
        assert not at.exception, (name, at.exception)
    assert len(made) == len(samples)
    gc.collect()
    assert first() is None, "the first catalog's Inspector is still alive: " + repr(
        [type(r).__name__ for r in gc.get_referrers(first())][:10])
    # The session still has that catalog's figures (a return to it reuses them).
    assert [key for key in at.session_state["_figure_memo"] if samples[0] in str(key)] == kept
    # The last catalogs are still cached: not every inspector was dropped.
    assert made[-1]() is not None
