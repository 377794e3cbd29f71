"""The Tuning page's advice where a reached recommendation lists less than the current settings:
"more headroom" is said with the headroom that would actually list as much (computed by asking
the recommendation again), so a small change is not suggested where it takes about 150 %; where
no headroom does it, the advice says so."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolsearch.analysis.recommend import (headroom_listing_as_much, lowered_servers, more_headroom_clause, more_headroom_words,
                                           recommend_for_contexts)
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
LENGTHS = [32_000, 200_000, 1_000_000]


def _ladder(path: Path = TEAM):
    config = parse_config({})
    return listing_ladder(Inspector(load_source(path)).planner, config), config


def _as_much(ladder, config, goal: str, headroom: float) -> bool:
    rec = recommend_for_contexts(ladder, config, LENGTHS, goal, headroom_pct=headroom)
    return rec.reached and not lowered_servers(ladder, config, rec)


def test_the_headroom_is_the_smallest_that_lists_as_much():
    ladder, config = _ladder()
    rec = recommend_for_contexts(ladder, config, LENGTHS, "names")
    assert lowered_servers(ladder, config, rec)  # the cheapest "names" setting lists less at 200K and 1M
    needed = headroom_listing_as_much(ladder, config, rec)
    assert needed == 149  # names (1,473 tokens) × 2.49 reaches the full listing (3,656 tokens)
    assert _as_much(ladder, config, "names", needed) and not _as_much(ladder, config, "names", needed - 1)
    # every smaller whole headroom lists less: the least one, not just one that works
    assert not any(_as_much(ladder, config, "names", h) for h in range(0, needed, 7))
    # a recommendation that already lists as much needs no more than its own headroom
    same = recommend_for_contexts(ladder, config, LENGTHS, "names", headroom_pct=needed)
    assert headroom_listing_as_much(ladder, config, same) == needed
    # not reached: nothing to say about headroom
    assert headroom_listing_as_much(ladder, config, recommend_for_contexts(ladder, config, [1_000], "full")) is None


def test_the_words_name_the_headroom_or_say_none_does():
    assert more_headroom_words(149) == ("More headroom lists at least as much as the current settings at every length only "
                                        "from 149% headroom on.")
    assert more_headroom_words(None) == ("More headroom does not do it: no headroom up to 1,000% gives a setting "
                                         "that meets the goal and lists at least as much as the current settings at every length.")


def _tuning(query: dict[str, str], headroom: float | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    if headroom is not None:
        at.number_input(key="tuning_headroom").set_value(headroom).run()
        assert not at.exception, at.exception
    return at


def _lowered_warning(at: AppTest) -> list[str]:
    return [w.value for w in at.warning if w.value.startswith("The recommendation lists less")]


def test_the_tuning_page_states_the_headroom_and_it_works():
    ladder, config = _ladder()
    needed = headroom_listing_as_much(ladder, config, recommend_for_contexts(ladder, config, LENGTHS, "names"))
    at = _tuning({"lengths": "32k,200k,1m", "goal": "names"})
    warnings = _lowered_warning(at)
    clause = more_headroom_clause(needed, "default")  # the sidebar holds the defaults: said so, as the block says it
    assert len(warnings) == 1 and warnings[0].split("\n\n")[0].endswith(
        "to list more there, give those lengths a stricter goal (Other goal at some lengths) or keep the default "
        f"settings. {clause[0].upper()}{clause[1:]}."), warnings
    assert "149% headroom" in warnings[0]
    # asking for that headroom on the page: the recommendation lists as much, and the warning is gone
    assert not _lowered_warning(_tuning({"lengths": "32k,200k,1m", "goal": "names"}, headroom=float(needed)))
    assert _lowered_warning(_tuning({"lengths": "32k,200k,1m", "goal": "names"}, headroom=float(needed - 1)))
