"""Tuning page (Streamlit ``AppTest``): a context length no request fits whatever the settings is said
first and left out of the answer (the metrics, the table and the Apply button are for the other
lengths), the ``Not named`` list names the first servers and counts the rest, and a best reachable
listing that takes most of a length's context says so, as ``toolsearch recommend`` does."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import literal_tables
from test_recommend_unfit_lengths import UNFIT, fit_catalog, many_servers_catalog
from toolsearch.engine.catalog import MAX_NAMED_PROBLEMS
from toolsearch.ui import common
from toolsearch.ui.tuning import BEST_REACHABLE_BUDGET_LABEL

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def samples(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "samples"
    folder.mkdir()
    fit_catalog(folder)
    many_servers_catalog(folder)
    (folder / "queries").symlink_to(ROOT / "sample_catalogs" / "queries")
    monkeypatch.setattr(common, "SAMPLES_DIR", folder)
    return folder


def _tuning(catalog: str, lengths: str, goal: str = "names") -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=240)
    at.session_state["catalog"] = catalog
    at.query_params.update({"lengths": lengths, "goal": goal})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return at


def test_an_unfit_length_is_said_first_and_the_answer_is_for_the_others(samples):
    at = _tuning("fit", "2k, 200k")
    errors = [e.value for e in at.error]
    assert errors and errors[0] == common.md_escape(UNFIT[0].upper() + UNFIT[1:] + "."), errors
    metrics = {m.label: m.value for m in at.metric}
    # reached at 200K: the 2K length does not turn the answer into a "best reachable" one
    assert metrics["Recommended threshold_pct"] == "0.1%", metrics
    assert metrics["Recommended listing_max_tokens"] == "200 tokens", metrics
    assert not any(e.startswith("Not reachable") for e in errors), errors
    table = literal_tables(at)["tuning_multi_table"]
    assert list(table["context length"]) == ["200K"], table
    apply = at.button(key="tuning_apply_multi")
    apply.click().run()
    assert not at.exception, at.exception
    assert (at.session_state["threshold_pct"], at.session_state["listing_max_tokens"]) == (0.1, 200)


def test_not_named_names_the_first_servers_and_counts_the_rest(samples):
    at = _tuning("many", "2k")
    listing = next(m.value for m in at.markdown if m.value.startswith("**Not named:**"))
    items = [line for line in listing.splitlines() if line.startswith("- ")]
    assert len(items) == MAX_NAMED_PROBLEMS, len(items)
    assert listing.endswith("\n\n… and 150 more servers not named at 2K"), listing[-200:]


def test_a_best_reachable_listing_taking_most_of_a_length_says_so(samples):
    # every tool with its description does not fit 4K: the best reachable listing there names every server
    # in 2,833 tokens, 70.8% of the context, and the page says so as recommend's "large share" line does
    at = _tuning("many", "4k, 200k", goal="full")
    assert any(e.value.startswith("Not reachable at every listed context length") for e in at.error)
    shares = [w.value for w in at.warning if w.value.startswith("Large share")]
    assert shares == [common.md_escape("Large share at 4K: the listing takes 2,833 tokens, 70.8% of the context, and "
                                       "the whole tools array 3,707, leaving 293 tokens for the system prompt, the "
                                       "conversation and the reply; a lower goal for that length, or a reserve for "
                                       "the conversation (the Reserve (%) field), leaves it more room.")], shares


def test_nothing_listable_at_the_shortest_length_is_said_so(samples):
    # 2K fits the bridge tools but not the summary lines of 250 servers: the best reachable setting lists
    # nothing there, its budget is none (not "not reachable"), and it is not called "the fewest listing tokens"
    at = _tuning("many", "2k, 32k", goal="any")
    box = next(e.value for e in at.error if e.value.startswith("Not reachable at every listed context length"))
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[BEST_REACHABLE_BUDGET_LABEL] == "none", metrics
    assert "fewest listing tokens" not in box, box
    assert box.endswith("with the largest settings, as nothing can be listed at the shortest length and they give "
                        "every other length its best form."), box


def test_no_length_fits_gives_no_setting_to_apply(samples):
    at = _tuning("fit", "2k, 1500")
    errors = [e.value for e in at.error]
    assert errors[0] == common.md_escape(UNFIT[0].upper() + UNFIT[1:] + "."), errors
    assert errors[1].startswith(common.md_escape("At 1,500 tokens no setting fits: ")), errors
    assert any(e.startswith("Not reachable at every listed context length: no listed context length fits a request")
               for e in errors), errors
    assert at.button(key="tuning_apply_multi").disabled  # the current settings are kept: nothing to apply
