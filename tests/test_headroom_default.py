"""The headroom a recommendation starts from is one fact: ``recommend --headroom`` and ``check
--headroom`` default to it, the Tuning page's Headroom (%) starts at it, and the README says so
(its 10 % example is a headroom given on purpose, the page's field set to 10)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from tests.test_app_tuning_sessions import open_tuning
from toolsearch.engine import constants as C

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
GATE = ("--context-lengths", "32k,200k,1m", "--goal", "names", "--json")


def test_every_surface_starts_at_the_same_headroom() -> None:
    assert C.HEADROOM_PCT_DEFAULT == 0.0  # the tight answer, as docs/tuning.md documents
    assert json.loads(run_cli("recommend", TEAM, *GATE).stdout)["headroom_pct"] == C.HEADROOM_PCT_DEFAULT
    assert json.loads(run_cli("check", TEAM, *GATE).stdout)["headroom_pct"] == C.HEADROOM_PCT_DEFAULT
    at = open_tuning()
    field = at.number_input(key="tuning_headroom")
    # no max of its own (the browser kept a value over it without a word): the help gives it, and a
    # value over it is refused under the field (tests/test_app_tuning_refused_values.py)
    assert field.value == C.HEADROOM_PCT_DEFAULT and f"at most {C.HEADROOM_PCT_MAX:g}%" in field.help
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"it starts at {C.HEADROOM_PCT_DEFAULT:g} % headroom" in readme
    assert "**Headroom (%)** 10 it gives the block of step 2" in readme
