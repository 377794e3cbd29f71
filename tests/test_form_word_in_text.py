"""The listing form in which every server is a summary line is ``groups`` in JSON (the reference's
name) and "summary" in every sentence a reader sees: cache-diff causes, outcome changes, the
plan's strategy line, review lines."""

from __future__ import annotations

from pathlib import Path

from conftest import inspector_of
from toolsearch.analysis.cachediff import Side, compare
from toolsearch.analysis.recommend import outcome_change, outcomes
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

FLAT = Path(__file__).resolve().parent.parent / "sample_catalogs" / "cloudflare-flat.yaml"


def _flat() -> Inspector:
    return inspector_of([FLAT], "prefixed")


def test_cache_diff_causes_name_the_summary_form():
    flat = _flat()
    none = Side(flat, parse_config({"threshold_pct": 0}), 200_000, "chars4", "A", "flat")
    summary = Side(flat, parse_config({}), 200_000, "chars4", "B", "flat")
    assert flat.plan(summary.config, 200_000).listing_form == "groups"
    messages = [c.message for c in compare(none, summary).causes]
    form = [m for m in messages if m.startswith("listing form")]
    assert form and form[0].startswith("listing form none → summary ("), messages
    assert not [m for m in messages if "groups" in m], messages


def test_outcome_change_names_the_summary_form():
    ladder = listing_ladder(_flat().planner, parse_config({}))
    (before,) = outcomes(ladder, 0.0, 4000, [200_000])
    (after,) = outcomes(ladder, 5.0, 4000, [200_000])
    assert (before.listing_form, after.listing_form) == ("none", "groups")
    assert outcome_change(before, after) == "better form: none → summary"
