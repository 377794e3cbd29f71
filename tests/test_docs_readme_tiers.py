"""The README's front page defines the tier every output names (sweep, recommend and check print a
``tier`` column; the app's bar starts with it); the sentence was missing, and a reader of the
3-command walkthrough met "tier 1" with no word on what it means. This checks the sentence
against the engine: each form it names gives that tier."""

from __future__ import annotations

from pathlib import Path

from conftest import inspector_of
from toolsearch.analysis.quantities import form_word
from toolsearch.engine.catalog import load_text
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent


def _tiers() -> dict[str, set[int]]:
    """``{form word: {tiers}}`` over plans that reach every form, and tier 0 with tool search off."""
    team = inspector_of([ROOT / "sample_catalogs" / "team-workspace.yaml"])
    # one server alone goes from names straight to its summary line (form groups, shown "summary")
    tools = "".join(f"  - name: a_rather_long_tool_name_number_{i:03d}\n    description: Tool {i}.\n"
                    "    inputSchema: {type: object}\n" for i in range(60))
    single = Inspector(load_text(f"servers:\n- name: one\n  tools:\n{tools}", "single.yaml"))
    plans = [team.plan(parse_config({"threshold_pct": pct}), ctx) for ctx in (8_000, 32_000, 200_000)
             for pct in (0.5, 2, 5, 10)]
    plans += [single.plan(parse_config({"threshold_pct": pct}), 8_000) for pct in (0.5, 2, 5, 30)]
    plans += [team.plan(parse_config({"listing": "off"}), 200_000)]
    found: dict[str, set[int]] = {}
    for plan in plans:
        found.setdefault(form_word(plan.listing_form), set()).add(plan.tier)
    off = team.plan(parse_config({"enabled": "off"}), 200_000)
    assert (off.tier, off.activated) == (0, False)
    return found


def test_the_readme_says_which_forms_give_which_tier() -> None:
    found = _tiers()
    assert found == {"full": {1}, "names": {1}, "mixed": {1}, "summary": {2}, "none": {2}}, found
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    one = " or ".join([", ".join(f"`{f}`" for f in ("full", "names")), "`mixed`"])
    two = "`summary` or `none`"
    assert (f"Every output names the outcome's *tier*: 0 when tool search is off or nothing is deferred (every "
            f"schema is sent), 1 when the listing names tools (form {one}), 2 when it has at most one summary line "
            f"per server (form {two}); [docs/reference.md](docs/reference.md) §5.5.") in readme
