"""A context length that labels a row or a caption is written one way on the Tuning page and in
``recommend`` (and ``sweep``): compact, as the product's sentences write it (``32K``, ``1M``:
:func:`toolsearch.analysis.quantities.length_label`). The Tuning page's "Sidebar: context length
200,000 tokens" caption and its table's "200,000 tokens" cells, and ``recommend``'s table's
``200,000``, sat under sentences that say ``at 200K``."""

from __future__ import annotations

from pathlib import Path

from conftest import literal_tables, run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.analysis.quantities import length_label

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"


def test_length_label() -> None:
    assert [length_label(n) for n in (32_000, 200_000, 1_000_000, 12_345, 1, None)] == [
        "32K", "200K", "1M", "12,345 tokens", "1 token", "unknown"]


def test_recommend_and_the_tuning_page_label_each_length_alike() -> None:
    done = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("context_length "))
    printed = [line.split("  ")[0] for line in lines[head + 2:head + 5]]
    assert printed == ["32K", "200K", "1M"], lines[head:]
    sweep = run_cli("sweep", TEAM, "--context-lengths", "32k,1m", "--threshold-pcts", "5")
    assert [line.split("  ")[0] for line in sweep.stdout.splitlines()[2:]] == ["32K", "1M"], sweep.stdout

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k,200k,1m", "goal": "names", "ctx": "200K"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    rows = literal_tables(at)["tuning_multi_table"].to_dict("records")
    assert [r["context length"] for r in rows] == printed
    sidebar = [c.value for c in at.caption if c.value.startswith("Sidebar: ")]
    assert len(sidebar) == 1 and sidebar[0].startswith("Sidebar: context length 200K · threshold_pct 5%, listing_max_tokens 4,000 · "), sidebar
