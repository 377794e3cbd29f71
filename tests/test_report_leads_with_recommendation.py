"""A report that carries a recommendation leads with it: the line under the title gives the two
recommended settings, its section comes first, and the settings the figures are computed at are
labeled as the current ones (a reader skimming the top must not take ``tool_search: {}`` for the
block to ship). Without a recommendation the report is as before."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import inspector_of, run_cli
from toolsearch.analysis.recommend import recommend_for_contexts
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
QUICK = ("--no-lint", "--no-strategies", "-q", "create issue")


def _headings(text: str) -> list[str]:
    return re.findall(r"<h2>([^<]*)</h2>", text)


def test_report_leads_with_the_recommendation(tmp_path):
    out = tmp_path / "review.html"
    done = run_cli("report", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10",
                   *QUICK, "-o", out)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    config = parse_config({})
    rec = recommend_for_contexts(listing_ladder(inspector_of([TEAM]).planner, config), config,
                                 [32_000, 200_000, 1_000_000], "names", headroom_pct=10)
    assert (rec.threshold_pct, rec.listing_max_tokens) != (5, 4000)
    lead = re.search(r'<h1>[^<]*</h1>\n<p class="lead"><strong>([^<]*)</strong></p>', text).group(1)
    assert lead == (f"Recommended: threshold_pct {rec.threshold_pct:g}%, listing_max_tokens {rec.listing_max_tokens:,} "
                    "(every server at names or better; context lengths 32K, 200K, 1M; 10% headroom)")
    # the defaults are the "default settings" here, as the recommendation's own lines call them
    assert re.search(r'<p class="sub">Figures below at the default settings: context length', text)
    headings = _headings(text)
    assert headings[0] == "Recommended settings across context lengths"
    assert headings[:4] == ["Recommended settings across context lengths", "About this report", "Catalog",
                            "Default settings (the figures below are computed at these)"]
    assert "Settings" not in headings
    current = text[text.index("<h2>Default settings"):text.index("<h2>Listing budget</h2>")]
    assert ("Default settings (threshold_pct 5%, listing_max_tokens 4,000), not the recommended ones: the listing, "
            "budget, tier, server and cost figures below are computed at these") in current
    assert "The default <code>tools.tool_search</code> block" in current
    # the block to ship comes before the current one
    assert text.index(f"listing_max_tokens: {rec.listing_max_tokens}") < text.index("tool_search: {}")
    assert "<dt>default settings</dt>" in text and "current settings" not in current.lower()


def test_report_at_the_recommended_settings_says_they_are_the_recommended_ones(tmp_path):
    config = parse_config({})
    rec = recommend_for_contexts(listing_ladder(inspector_of([TEAM]).planner, config), config,
                                 [32_000, 200_000], "names")
    out = tmp_path / "review.html"
    done = run_cli("report", TEAM, "--context-lengths", "32k,200k", "--goal", "names", "--threshold-pct",
                   f"{rec.threshold_pct:g}", "--listing-max-tokens", str(rec.listing_max_tokens), *QUICK, "-o", out)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert (f"Current settings (threshold_pct {rec.threshold_pct:g}%, listing_max_tokens {rec.listing_max_tokens:,}): "
            "the recommended ones; the figures below are computed at them.") in text


def test_report_without_a_recommendation_keeps_its_order(tmp_path):
    out = tmp_path / "plain.html"
    done = run_cli("report", TEAM, "--context-length", "32k", *QUICK, "-o", out)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert 'class="lead"' not in text and "<h2>Current settings" not in text and "Figures below at" not in text
    assert _headings(text)[:4] == ["About this report", "Catalog", "Settings",
                                   "Recommended settings across context lengths"]
