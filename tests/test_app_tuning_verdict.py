"""The Tuning page says whether its recommendation reaches the goal at every listed context length
in the sentence ``toolsearch recommend`` opens with; out of reach, the page's error box says it and
no success line is shown."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli
from test_app_tuning_report import open_page

ROOT = Path(__file__).absolute().parent.parent


def _first_line(*args: str) -> str:
    done = run_cli("recommend", *args, "--goal", "names", cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.splitlines()[0]


def test_a_reached_goal_is_said_as_recommend_says_it():
    first = _first_line("sample_catalogs/team-workspace.yaml", "--context-lengths", "32k,200k,1m", "--headroom", "10")
    assert first == "Reached at every listed context length."
    tuning = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,200k,1m", "headroom": "10"})
    assert [s.value for s in tuning.success] == [first]


def test_a_goal_out_of_reach_gets_no_success_line():
    first = _first_line("sample_catalogs/team-workspace.yaml", "sample_catalogs/cloudflare-flat.yaml",
                        "--context-lengths", "32k,200k,1m")
    assert first.startswith("Not reached at every listed context length")
    tuning = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,200k,1m", "with": "cloudflare-flat"})
    assert not [s.value for s in tuning.success if "reached" in s.value.lower()]
    assert any(e.value.startswith("Not reachable at every listed context length") for e in tuning.error)
