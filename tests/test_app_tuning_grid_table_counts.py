"""The Tuning page's heat map writes a mixed listing with its counts ("mixed 8/9"); the table under
it ("The grid as a table", the same grid points) wrote "mixed" alone, a figure shown two ways on one
page. Both now use the grid point's short label, as ``sweep`` does (Streamlit ``AppTest``)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import heat_cells, literal_tables

ROOT = Path(__file__).absolute().parent.parent


def test_the_grid_table_counts_a_mixed_listing_as_the_heat_map_does():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params.update({"ctx": "200K"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.session_state["tuning_grid_open"] = True
    at.run()
    assert not at.exception, at.exception
    table = literal_tables(at)["tuning_grid"]
    shown = {(row["context length"], row["threshold_pct (%)"]): row["form"] for _, row in table.iterrows()}
    assert shown[("8K", "5")] == "mixed 3/9" and shown[("32K", "5")] == "names"
    assert "mixed" not in shown.values()
    cells = {(int(c["data-context-length"]), float(c["data-y"])): c["text"] for c in heat_cells(at, "tuning_heatmap")}
    assert cells[(8_000, 5.0)] == "mixed 3/9" and cells[(32_000, 5.0)] == "names"
