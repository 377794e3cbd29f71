"""Context lengths in sentences are written compact (``32K``, ``1M``: ``recommend.context_words``)
on the Tuning page as in ``toolsearch recommend``, from one function each: the page's warning that
the recommendation lists less than the current settings wrote ``1,000,000 tokens`` where
``recommend`` wrote ``1M`` (``recommend.lowered_where`` now writes both), and the not-reachable
reason ended ``(32,000 tokens)`` on both surfaces (now ``(32K)``; ``recommend.length_in_words``)."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.analysis.recommend import length_in_words, lowered_where

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_catalogs"


def _tuning(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return at


def test_length_words() -> None:
    assert [length_in_words(n) for n in (32_000, 1_000_000, 1, 200, 12_345)] == [
        "32K", "1M", "1 token", "200 tokens", "12,345 tokens"]
    assert lowered_where([(200_000, "lower form: full → names"), (None, "same listing")]) == (
        "200K (lower form: full → names), unknown (same listing)")


def test_the_lowered_listing_warning_names_the_lengths_as_recommend_does() -> None:
    lengths = "32k,128k,200k,1m"
    done = run_cli("recommend", str(SAMPLES / "team-workspace.yaml"), "--context-lengths", lengths, "--goal", "names")
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("lists less than the default settings"))
    where = re.search(r"\) at (.*) · it is the cheapest", line).group(1)
    assert "1M (lower form: full → names)" in where and "000 tokens" not in where, where
    at = _tuning({"lengths": lengths, "goal": "names"})
    # its first paragraph; the second gives the goal that keeps those lengths (tested with keeping_goal)
    warnings = [w.value.split("\n\n")[0] for w in at.warning if w.value.startswith("The recommendation lists less")]
    # the sidebar holds the defaults: "default settings", as recommend's line above says it
    assert warnings == [(f"The recommendation lists less than the default settings at {where}. It is the cheapest "
                         "setting that still meets the goal. One setting serves every length: to list more there, give "
                         "those lengths a stricter goal (Other goal at some lengths) or keep the default settings. More "
                         "headroom lists at least as much as the default settings at every length only from 149% headroom on.")], \
        warnings


def test_the_not_reachable_reason_writes_the_shortest_length_compact() -> None:
    done = run_cli("recommend", str(SAMPLES / "cloudflare-flat.yaml"), "--context-lengths", "32k,200k,1m",
                   "--goal", "full")
    assert done.returncode == 1, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("not reachable at every listed context length: "))
    reason = line.removeprefix("not reachable at every listed context length: ")
    # the full listing (81,251 tokens) is past the largest listing_max_tokens too, which the reason then adds
    assert reason.endswith("more than 100% of the shortest context length (32K), and more than the largest "
                           "listing_max_tokens (60,000 tokens), which no context length lifts"), reason
    at = _tuning({"catalog": "cloudflare-flat", "lengths": "32k,200k,1m", "goal": "full"})
    errors = [e.value for e in at.error]
    assert any(e.startswith(f"Not reachable at every listed context length: {reason}.") for e in errors), errors


def test_the_not_reachable_box_says_where_the_fewest_are_named_as_recommend_does() -> None:
    # every tool in full fits no length; 200K and 1M name cloudflare, 8K and 32K cannot: the box said "the
    # most servers that can be named at every length (0 of 1)", as if no length named it
    lengths = "8k,32k,200k,1m"
    done = run_cli("recommend", str(SAMPLES / "cloudflare-flat.yaml"), "--context-lengths", lengths, "--goal", "full")
    line = next(x for x in done.stdout.splitlines() if x.startswith("best reachable setting ("))
    assert line.startswith("best reachable setting (0 of 1 servers named at 8K and 32K, "), line
    at = _tuning({"catalog": "cloudflare-flat", "lengths": lengths, "goal": "full"})
    boxes = [e.value for e in at.error if e.value.startswith("Not reachable")]
    assert len(boxes) == 1 and "The values above name 0 of 1 servers at 8K and 32K, with " in boxes[0], boxes
