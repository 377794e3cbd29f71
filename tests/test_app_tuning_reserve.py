"""The Tuning page's *Reserve (%)* (Streamlit ``AppTest``): the share of every context length kept free of
the tools array gives the answer ``toolsearch recommend --reserve`` gives (the same settings, the same
``# reserve:`` and ``# gate:`` lines in the block), comes and goes with the link (``reserve=``), and a
value the command line refuses is refused under the field in its words."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli
from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
ARGS = ("sample_catalogs/team-workspace.yaml", "--context-lengths", "4k,32k", "--goal", "names")


def _tuning(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "team-workspace", "lengths": "4k,32k", "goal": "names", **query})
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return at


def _line(block: str, start: str) -> str:
    (line,) = [x for x in block.splitlines() if x.startswith(start)]
    return line


def test_the_reserve_from_a_link_gives_recommends_answer() -> None:
    at = _tuning({"reserve": "50"})
    assert at.number_input(key="tuning_reserve").value == 50
    cli = run_cli("recommend", *ARGS, "--reserve", "50", "--yaml", cwd=ROOT)
    data = json.loads(run_cli("recommend", *ARGS, "--reserve", "50", "--json", cwd=ROOT).stdout)
    assert not data["reached"] and data["threshold_pct"] == 18.5  # the 4K request keeps half the context
    block = at.code[0].value
    assert _line(block, "# reserve: ") == _line(cli.stdout, "# reserve: ")
    assert f"threshold_pct: {data['threshold_pct']}" in block and f"listing_max_tokens: {data['listing_max_tokens']}" in block
    caption = " ".join(str(c.value) for c in at.caption)
    assert "Reserve: 50% of every context length kept free of the tools array" in caption, caption
    # the answer without it is another one: the field changes it
    at.number_input(key="tuning_reserve").set_value(0).run()
    plain = json.loads(run_cli("recommend", *ARGS, "--json", cwd=ROOT).stdout)
    assert plain["reached"] and f"listing_max_tokens: {plain['listing_max_tokens']}" in at.code[0].value
    assert "# reserve: " not in at.code[0].value


def test_the_gate_line_carries_the_reserve_when_reached() -> None:
    at = _tuning({"lengths": "32k,200k", "reserve": "50"})
    cli = run_cli("recommend", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k,200k", "--goal",
                  "names", "--reserve", "50", "--yaml", cwd=ROOT)
    assert cli.returncode == 0, cli.stderr
    gate = _line(at.code[0].value, "# gate: ")
    assert gate == _line(cli.stdout, "# gate: ") and gate.endswith("--reserve 50"), gate


def test_a_reserve_the_command_line_refuses_is_refused_under_the_field() -> None:
    at = _tuning({"reserve": "20"})
    at.number_input(key="tuning_reserve").set_value(95).run()
    assert not at.exception, at.exception
    assert at.number_input(key="tuning_reserve").value == 20
    said = [str(w.value) for w in at.warning if "Reserve" in str(w.value)]
    assert said == [common.md_escape(common.reserve_error("95")[:-1] + "; the reserve stays 20%.")], said


def test_a_link_reserve_out_of_range_is_named_and_ignored() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"reserve": "95"})
    at.run()
    notices = [str(w.value) for w in at.warning if "ignored" in str(w.value)]
    assert notices == ["The link's value for reserve, “95”, is not valid here and was ignored; the default is used. "
                       "Reserve \\(%\\)\\: expected 0 to 90 \\(%\\), got '95'\\."], notices


def test_the_report_page_names_the_reserve_of_its_recommendation() -> None:
    at = _tuning({"reserve": "50"})
    at.switch_page("toolsearch/ui/report.py").run()
    assert not at.exception, at.exception
    said = " ".join(str(m.value) for m in [*at.markdown, *at.caption, *at.info])
    assert "50% of each context length reserved" in said, said
