"""The largest budget whose request fits a length is found by measuring every listing a budget up to it can
choose, not by a binary search: the tools array does not always grow with the listing (a listing with a
server collapsed is smaller and still makes a longer array, its description then naming the servers not
listed by name). The search took such a dip for the boundary, and ``recommend --reserve 50 --headroom 5`` at
1,822 tokens gave threshold_pct 7.6 with a 914-token tools array where 911 were allowed (its own gate
failed it)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conftest import inspector_of, run_cli
from toolsearch.analysis.recommend import recommend_for_contexts
from toolsearch.analysis.sweep import _first_budgets, listing_ladder, plan_at_budget
from toolsearch.engine.config import parse_config

SAMPLES = Path(__file__).resolve().parent.parent / "sample_catalogs"
#: eight small servers: (name, tools, tool-name length)
SHAPE = [("s0", 2, 5), ("s1", 1, 3), ("s2", 2, 6), ("s3", 2, 5), ("s4", 3, 8), ("s5", 2, 11), ("s6", 6, 13),
         ("s7", 2, 5)]


@pytest.fixture(scope="module")
def dip(tmp_path_factory) -> Path:
    servers = [{"name": name, "tools": [{"name": f"t{i}_{'x' * width}", "description": "Does it.",
                                         "inputSchema": {"type": "object", "properties": {}}} for i in range(count)]}
               for name, count, width in SHAPE]
    path = tmp_path_factory.mktemp("dip") / "dip.yaml"
    path.write_text(yaml.safe_dump({"name": "Dip", "servers": servers}))
    return path


def _arrays(inspector, config) -> dict[int, int]:
    ladder = listing_ladder(inspector.planner, config)
    starts = sorted({0, *(b for b in _first_budgets(ladder.steps) if b <= 60_000)})
    return {b: plan_at_budget(inspector.planner, config, b).tools_tokens for b in starts}


@pytest.mark.parametrize("catalog", ["dip", "hard-cases"])
def test_the_catalogs_have_a_dip(catalog: str, dip: Path) -> None:
    inspector = inspector_of([dip if catalog == "dip" else SAMPLES / "hard-cases.yaml"])
    arrays = list(_arrays(inspector, parse_config({})).values())
    assert any(b > a for a, b in zip(arrays, arrays[1:])) and any(b < a for a, b in zip(arrays, arrays[1:]))


@pytest.mark.parametrize("catalog", ["dip", "hard-cases"])
@pytest.mark.parametrize("reserve", [0, 25, 50])
def test_every_budget_up_to_the_limit_fits_and_the_next_does_not(catalog: str, reserve: int, dip: Path) -> None:
    inspector = inspector_of([dip if catalog == "dip" else SAMPLES / "hard-cases.yaml"])
    config = parse_config({})
    arrays = _arrays(inspector, config)
    ladder = listing_ladder(inspector.planner, config, reserve_pct=reserve)
    for length in range(800, 4_001, 37):
        space = length - ladder.reserve_tokens(length)
        if arrays[0] > space:
            continue
        limit = ladder.request_limit(length)
        assert all(tokens <= space for b, tokens in arrays.items() if b <= limit), (length, limit)
        if limit < length:  # the budget past it chooses a listing whose request does not fit
            assert plan_at_budget(inspector.planner, config, limit + 1).tools_tokens > space, (length, limit)


def test_the_reviewed_answer_keeps_the_reserve(dip: Path, tmp_path: Path) -> None:
    args = ("--context-lengths", "1822", "--goal", "listed", "--reserve", "50", "--headroom", "5")
    done = run_cli("recommend", str(dip), *args)
    lines = done.stdout.splitlines()
    assert ("not reachable at the context length 1,822 tokens: it needs a budget of 137 tokens (with 5% headroom), "
            "more than the largest budget whose request fits a context of 1,822 tokens with its 50% reserve (129 "
            "tokens); 3% headroom or less reaches it") in lines, done.stdout
    inspector = inspector_of([dip])
    ladder = listing_ladder(inspector.planner, parse_config({}), reserve_pct=50)
    for goal in ("listed", "any", "names"):
        for headroom in (0, 5, 10):
            rec = recommend_for_contexts(ladder, parse_config({}), [1822], goal, headroom_pct=headroom)
            sent = inspector.planner.plan(rec.apply(parse_config({})), 1822).tools_tokens
            assert sent <= 911, (goal, headroom, sent)
