"""Property tests (hypothesis) for the engine's invariants.

What is monotone, precisely (docs/reference.md §5.4): the *form rank* full < names < mixed < groups < none never
increases when the budget grows, and the groups collapsed at a larger budget are a prefix of those
collapsed at a smaller one. The listing *length* is not monotone (a summary can be longer than a
names block), so it is not claimed; what always holds is ``tokens(listing) <= budget`` whenever a
listing exists. Input order never changes the output bytes (docs/reference.md §5.2, §10).
"""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import compact, registration
from toolsearch.engine import constants as C
from toolsearch.engine.bridge import Bridge
from toolsearch.engine.catalog import Catalog, Server, Tool
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.listing import choose_listing, collapse_order, render_groups, short_description
from toolsearch.engine.plan import Planner, listing_budget
from toolsearch.engine.registration import make_tool
from toolsearch.engine.tokens import get_tokenizer

RANK = {form: i for i, form in enumerate(("full", "names", "mixed", "groups", "none"))}
LABELS = ["alpha", "beta", "gamma", "a", "zz-very-long-server-label-for-testing", "Kanban"]
WORDS = ["Create", "list", "issue", "send", "email", "the", "report", "e.g.", "etc.", "v1.2", "Dr.", "sync",
         "records", "across", "regions.", "Post!", "why?", "x" * 30, "—", "Grüße"]

names_st = st.text("abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=14).filter(
    lambda n: n not in C.BRIDGE_NAMES)   # bridge names are stripped from the input (docs/reference.md §2 rule 1)
description_st = st.lists(st.sampled_from(WORDS), max_size=25).map(" ".join)
entries_st = st.lists(
    st.tuples(st.sampled_from(LABELS), names_st, description_st), min_size=1, max_size=40,
    unique_by=lambda e: e[1])

settings.register_profile("toolsearch", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("toolsearch")


def _tools(entries):
    return [make_tool(name, description, server=label) for label, name, description in entries]


def _groups(entries, profile):
    return render_groups(entries, profile)


@given(entries=entries_st, budgets=st.lists(st.integers(0, 2500), min_size=2, max_size=6, unique=True))
@settings(max_examples=150)
def test_form_rank_is_monotone_in_budget(profile, entries, budgets) -> None:
    header = profile.text("listing", "header")
    groups = _groups(entries, profile)
    choices = [choose_listing(groups, b, header) for b in sorted(budgets)]
    ranks = [RANK[c.form] for c in choices]
    assert ranks == sorted(ranks, reverse=True)
    order = tuple(g.label for g in collapse_order(groups))
    # "none" shows nothing: count it as every group collapsed (and more), so it sits below all others.
    collapsed = [order if c.form == "none" else
                 tuple(label for label in c.collapse_order if c.states.get(label) == "summary") for c in choices]
    for smaller, larger, c_small, c_large in zip(collapsed, collapsed[1:], choices, choices[1:]):
        assert smaller == order[: len(smaller)]
        assert larger == smaller[: len(larger)]


@given(entries=entries_st, budget=st.integers(0, 3000))
@settings(max_examples=150)
def test_listing_fits_its_budget_and_is_measured_exactly(profile, entries, budget) -> None:
    header = profile.text("listing", "header")
    groups = _groups(entries, profile)
    choice = choose_listing(groups, budget, header)
    if choice.text is None:
        assert (choice.form, choice.tokens) == ("none", 0)
        assert all(not step.fits for step in choice.steps)
        return
    assert choice.tokens == math.ceil(len(choice.text) / 4) <= budget
    assert choice.text.startswith(header + "\n")
    assert choice.steps[-1].fits and not any(s.fits for s in choice.steps[:-1])
    # the form says which blocks are shown
    states = set(choice.states.values())
    expected = {"full": {"full"}, "names": {"names"}, "groups": {"summary"}}.get(choice.form)
    if expected is not None:
        assert states == expected
    else:
        assert states == {"summary", "names"} and choice.form == "mixed"
    assert len(choice.text.split("\n")) >= 1 + len(groups)


@given(entries=entries_st.filter(lambda e: len(e) <= 12), budget=st.integers(0, 600))
@settings(max_examples=30)
def test_bpe_listing_fits_its_budget(profile, entries, budget) -> None:
    tk = get_tokenizer("o200k_base")
    header = profile.text("listing", "header")
    choice = choose_listing(_groups(entries, profile), budget, header, tk.count)
    if choice.text is not None:
        assert choice.tokens == tk.count(choice.text) <= budget


@given(entries=entries_st, seed=st.integers(0, 2**32 - 1),
       context=st.one_of(st.none(), st.integers(1, 400_000)), pct=st.floats(0, 100))
@settings(max_examples=80)
def test_input_order_does_not_change_plan_bytes(entries, seed, context, pct) -> None:
    tools = _tools(entries)
    shuffled = list(tools)
    random.Random(seed).shuffle(shuffled)
    config = parse_config({"threshold_pct": pct})
    a = Planner(registration(tools)).plan(config, context)
    b = Planner(registration(shuffled)).plan(config, context)
    assert a.tool_search_description == b.tool_search_description
    assert compact(a.tools) == compact(b.tools)
    assert (a.listing_form, a.tier, a.listing_tokens) == (b.listing_form, b.tier, b.listing_tokens)


catalog_st = st.lists(
    st.tuples(st.sampled_from(["github", "slack", "my-api", "core"]), names_st, description_st,
              st.sampled_from(["mcp", "plugin", "core"])),
    min_size=1, max_size=30, unique_by=lambda e: (e[0], e[1]))


@given(rows=catalog_st, seed=st.integers(0, 2**32 - 1), context=st.one_of(st.none(), st.integers(1, 300_000)))
@settings(max_examples=60)
def test_catalog_order_does_not_change_plan_or_search_bytes(rows, seed, context) -> None:
    def build(order_rows):
        servers: dict[tuple[str, str], list[Tool]] = {}
        for server, name, description, kind in order_rows:
            servers.setdefault((server, kind), []).append(Tool(name, description))
        return Catalog("c", tuple(Server(s, k, tuple(t)) for (s, k), t in servers.items()))

    # one kind per server name, as a real catalog has
    kinds: dict[str, str] = {}
    rows = [(s, n, d, kinds.setdefault(s, k)) for s, n, d, k in rows]
    shuffled = list(rows)
    random.Random(seed).shuffle(shuffled)
    one, two = Inspector(build(rows)), Inspector(build(shuffled))
    config = parse_config({})
    a, b = one.plan(config, context), two.plan(config, context)
    assert a.tool_search_description == b.tool_search_description
    assert compact(a.tools) == compact(b.tools)
    query = {"queries": [rows[0][1], "create issue", rows[-1][2] or "x"]}
    assert one.bridge(config).tool_search(query) == two.bridge(config).tool_search(query)


@given(entries=entries_st, contexts=st.lists(st.integers(0, 500_000), min_size=2, max_size=5, unique=True),
       pct=st.floats(0, 100), cap=st.integers(0, 70_000))
@settings(max_examples=60)
def test_plan_form_rank_is_monotone_in_context_length(entries, contexts, pct, cap) -> None:
    planner = Planner(registration(_tools(entries)))
    config = parse_config({"threshold_pct": pct, "listing_max_tokens": cap})
    plans = [planner.plan(config, c) for c in sorted(contexts) if c > 0]
    assume(len(plans) >= 2)
    budgets = [p.budget for p in plans]
    assert budgets == sorted(budgets)
    ranks = [RANK[p.listing_form] for p in plans]
    assert ranks == sorted(ranks, reverse=True)
    for plan in plans:
        assert plan.tier == (1 if plan.listing_form in ("full", "names", "mixed") else 2)
        assert plan.deferred_count == len(entries)
        if plan.listing is not None:
            assert plan.listing_tokens <= plan.budget
            assert plan.tool_search_description.endswith("\n\n" + plan.listing)


@given(context=st.one_of(st.none(), st.integers(-10, 10_000_000)), pct=st.floats(0, 100),
       cap=st.integers(C.LISTING_MAX_TOKENS_MIN, C.LISTING_MAX_TOKENS_MAX))
def test_budget_is_bounded(context, pct, cap) -> None:
    budget, leg, _ = listing_budget(context, pct, cap)
    assert 0 <= budget <= cap
    assert budget == min(cap, leg)
    if context is None or context <= 0:
        assert leg == 10_000
    else:
        assert leg == int(context * (pct / 100.0))


@given(text=st.text(max_size=300))
def test_short_description_shape(text) -> None:
    out = short_description(text)
    collapsed = " ".join(text.split())
    assert len(out) <= 61
    assert out == out.strip() or out.endswith(C.ELLIPSIS)
    if out.endswith(C.ELLIPSIS) and not collapsed.startswith(out):
        assert collapsed.startswith(out[:-1])
        assert len(out) - 1 <= 60
        assert out[-2:-1] not in (",", ";", ":", " ")
    else:
        assert collapsed.startswith(out)
    if not collapsed:
        assert out == ""


@given(entries=entries_st, queries=st.lists(st.lists(st.sampled_from(WORDS + ["zzz"]), min_size=1, max_size=5)
                                            .map(" ".join), min_size=1, max_size=7),
       limit=st.integers(-3, 40))
@settings(max_examples=80)
def test_search_response_invariants(entries, queries, limit) -> None:
    tools = _tools(entries)
    bridge = Bridge(tools)
    response = bridge.tool_search({"queries": queries, "limit": limit})
    assert response["queries"] == queries
    assert response["total_available"] == len(tools)
    effective = max(1, min(25, limit))
    union = []
    for group, query in zip(response["results"], queries):
        assert group["query"] == query
        assert len(group["matches"]) <= effective
        assert len(set(group["matches"])) == len(group["matches"])
        if not group["matches"]:
            assert sum(s["tool_count"] for s in group["available_sources"]) == len(tools)
        for name in group["matches"]:
            if name not in union:
                union.append(name)
        ex = bridge.index.explain(query, effective)
        for name in group["matches"]:
            exact = name.lower() == query.strip().lower()
            candidate = next(c for c in ex.candidates if c.name == name)
            assert exact or (candidate.has_gate and len(candidate.matched_terms) >= ex.required)
    assert list(response["tools"]) == union


_EVIDENCE = st.tuples(st.floats(0, 1), st.integers(0, 6), st.integers(0, 6),
                      st.one_of(st.just(math.inf), st.floats(1, 5)),
                      st.one_of(st.just(math.inf), st.floats(-1, 1)), st.one_of(st.just(math.inf), st.floats(0, 1)))


@given(rows=st.lists(_EVIDENCE, min_size=1, max_size=20), share=st.sampled_from([0.0, 0.15, 0.2, 0.6]),
       terms=st.integers(0, 3), ratio=st.sampled_from([0.0, 1.1, 1.5, 2.0]), cosine=st.floats(-1, 1),
       margin=st.sampled_from([0.0, 0.05, 0.15]), semantic=st.booleans())
def test_evidence_abstains_on_arrays_is_the_rule_applied_to_each_row(rows, share, terms, ratio, cosine, margin, semantic):
    """Tuning applies the abstention thresholds to many searches at once (NumPy columns); each
    entry equals the rule applied to that one search."""
    import numpy as np

    from toolsearch.engine.search import SearchOptions, evidence_abstains

    opts = SearchOptions(min_best_share=share, min_best_terms=terms, min_score_ratio=ratio,
                         ranker="semantic" if semantic else "bm25", min_cosine=cosine, min_cosine_margin=margin)
    columns = np.array(rows, dtype=float).T
    assert evidence_abstains(opts, *columns).tolist() == [evidence_abstains(opts, *row) for row in rows]
    assert all(isinstance(evidence_abstains(opts, *row), bool) for row in rows)
