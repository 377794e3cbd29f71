"""Where the goal that keeps what the current settings list gives every listed length the same goal,
``recommend`` and the Tuning page say that goal alone (``--goal full``; the page's *Goal (all other
lengths)*), where they gave one item per length (``--goal names,32k=full,128k=full,200k=full,1m=full``)
that asks the same thing in more words; a goal that differs by length keeps its items."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
FIVE = ROOT / "sample_catalogs" / "five-servers.yaml"
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
LENGTHS = "32k,128k,200k,1m"


def test_one_goal_at_every_length_is_said_alone() -> None:
    text = run_cli("recommend", FIVE, "--context-lengths", LENGTHS, "--goal", "names").stdout
    (line,) = [s for s in text.splitlines() if s.startswith("lists less than")]
    assert " · --goal full keeps what the default settings list at 32K, 128K, 200K and 1M; that goal takes " in line
    data = json.loads(run_cli("recommend", FIVE, "--context-lengths", LENGTHS, "--goal", "names", "--json").stdout)
    assert data["keeping_goal"]["goal"] == "full"
    # the goal said is the one that keeps them: recommend for it lists as much as the defaults
    kept = json.loads(run_cli("recommend", FIVE, "--context-lengths", LENGTHS, "--goal", "full", "--json").stdout)
    assert kept["reached"] and not kept["lower_than_current"]
    assert (kept["threshold_pct"], kept["listing_max_tokens"]) == (data["keeping_goal"]["threshold_pct"],
                                                                  data["keeping_goal"]["listing_max_tokens"])


def test_a_goal_that_differs_by_length_keeps_its_items() -> None:
    text = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names").stdout
    assert "--goal names,200k=full,1m=full keeps what the default settings list at 200K and 1M" in text


def test_the_tuning_page_names_the_goal_field() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "five-servers", "lengths": LENGTHS, "goal": "names"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    (warning,) = [str(w.value).replace("\\", "") for w in at.warning if "lists less than" in str(w.value)]
    assert "to list more there, choose a stricter goal (Goal (all other lengths)) or keep the default" in warning
    assert "The goal full keeps what the default settings list at 32K, 128K, 200K and 1M (goal: " in warning, warning
    assert " · Goal (all other lengths): full); that goal takes threshold_pct " in warning, warning
    assert "Other goal at some lengths: " not in warning
