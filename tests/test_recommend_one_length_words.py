"""With one context length, ``recommend`` and the Tuning page name that length where they would say
"every listed context length": "Reached at every listed context length" over one length read as if
several had been checked. Two or more lengths keep the words."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli
from test_app_tuning_report import open_page

ROOT = Path(__file__).absolute().parent.parent


def _lines(*args: str) -> list[str]:
    done = run_cli("recommend", *args, "--goal", "names", cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.splitlines()


def test_one_reached_length_is_named():
    lines = _lines("sample_catalogs/team-workspace.yaml", "--context-lengths", "200k")
    assert lines[0] == "Reached at the context length 200K."
    assert "budget needed: 1,473 tokens" in lines, lines
    assert not any(line.startswith("budget needed at every length") for line in lines), lines
    several = _lines("sample_catalogs/team-workspace.yaml", "--context-lengths", "32k,200k")
    assert several[0] == "Reached at every listed context length."


def test_one_length_out_of_reach_is_named_on_both_surfaces():
    lines = _lines("sample_catalogs/cloudflare-flat.yaml", "--context-lengths", "32k")
    assert lines[0] == "Not reached at the context length 32K: the settings below are the best reachable ones."
    reason = next(x for x in lines if x.startswith("not reachable at the context length 32K: "))
    assert any(x.startswith("best reachable setting (0 of 1 servers named at 32K, ") for x in lines), lines
    tuning = open_page("toolsearch/ui/tuning.py", {"lengths": "32k", "with": "cloudflare-flat"})
    box = next(e.value for e in tuning.error if e.value.startswith("Not reachable at"))
    assert box.startswith("Not reachable at the context length 32K: "), box
    # the page's catalog is the default sample with cloudflare-flat added: its reason is the same rule's
    assert "every listed context length" not in box, box
    assert reason  # the CLI gives the reason on its own line
