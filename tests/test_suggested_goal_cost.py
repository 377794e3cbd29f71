"""A goal suggested for an unreachable one (``--goal names,32k=any``) says what it would cost: its
two settings and the listing at every listed length, in tokens and as a share of that context
length, on the command line and on the Tuning page, from the same recommendation."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of, run_cli
from toolsearch.analysis.quantities import context_share
from toolsearch.analysis.recommend import recommend_for_contexts
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).absolute().parent.parent
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"


def _suggested() -> tuple[str, object]:
    """The cost sentence as computed by asking the suggested goal itself."""
    config = parse_config({})
    ladder = listing_ladder(inspector_of([CLOUDFLARE]).planner, config)
    rec = recommend_for_contexts(ladder, config, [32_000, 200_000, 1_000_000], "names",
                                 length_goals={32_000: "any"})
    assert rec.reached
    return (f"that goal takes threshold_pct {rec.threshold_pct:g}%, listing_max_tokens {rec.listing_max_tokens:,}: "
            f"a listing of {rec.contexts[0].listing_tokens:,} tokens at 32K "
            f"({context_share(rec.contexts[0].listing_tokens, 32_000)} of the context), "
            f"{rec.contexts[1].listing_tokens:,} tokens at 200K "
            f"({context_share(rec.contexts[1].listing_tokens, 200_000)} of the context) and "
            f"{rec.contexts[2].listing_tokens:,} tokens at 1M "
            f"({context_share(rec.contexts[2].listing_tokens, 1_000_000)} of the context)"), rec


def test_recommend_says_what_the_suggested_goal_costs():
    words, rec = _suggested()
    assert rec.listing_max_tokens > 40_000  # a large listing: the reason to say it
    result = run_cli("recommend", CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", "names")
    assert result.returncode == 1, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("not named: cloudflare"))
    assert line.endswith(f"(32k=any; on the command line --goal names,32k=any); {words}"), line
    assert "22.4% of the context" in line


def test_tuning_page_says_what_the_suggested_goal_costs():
    words, _ = _suggested()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "cloudflare-flat", "lengths": "32k, 200k, 1m", "goal": "names"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    shown = next(m.value for m in at.markdown if m.value.startswith("**Not named:**")).replace("\\", "")
    assert words in shown, shown
