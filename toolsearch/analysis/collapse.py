"""Better collapse (a what-if): the optimal set of groups to show as summary lines.

The reference degradation (docs/reference.md §5.4) starts from the all-names listing and collapses groups to
summary lines one at a time, largest names block first, stopping at the first text that fits.
Because it only tries *prefixes* of that order it can

* collapse more groups than needed (an early group saves little, a later one would have been
  enough on its own), or
* miss a fitting choice and end in form ``none`` (the largest group has a long label, so its
  summary line is *longer* than its names block, while a smaller group would have shrunk).

This module computes, for the same groups, header, budget and planning tokenizer, the best
choice. It is **not** the reference behavior: the plan (what the model sees) never uses it; the
CLI and the app show it side by side with the reference, labeled as a what-if.

Scope. Steps 1 and 2 of docs/reference.md §5.4 are kept: if the full listing fits the result is ``full``, if the
all-names listing fits it is ``names``. Only steps 3–4 (which groups to collapse) are replaced.

Objective (lexicographic, over every subset ``S`` of groups shown as summaries, the others as
names, whose listing fits the budget):

1. fewest groups collapsed (most groups kept at names);
2. then fewest tool names hidden (most tool names shown);
3. then the smallest listing (characters for ``chars4``, tokens for a BPE tokenizer);
4. then, for determinism, the set whose positions in the reference collapse order (docs/reference.md §5.4:
   names-block length descending, label ascending), sorted ascending, are lexicographically
   smallest. The reference's own prefix is the smallest such set of its size, so whenever the
   reference choice is optimal on 1–3 it is the one returned.

No fitting subset: form ``none``. All groups collapsed: form ``groups``; otherwise ``mixed``.
The reference's choice is always one of the candidates, so the best choice is never worse.

Method. For ``chars4`` the listing length is additive, ``len(header) + Σ (1 + len(block))``, and
``ceil(len/4) <= B`` iff ``len <= 4B``. Collapsing group ``g`` saves
``w(g) = len(names_block) − len(summary)`` characters (negative when the summary is longer).
With ``need = len(all-names text) − 4B`` the problem is: choose ``S`` with ``Σ w ≥ need``.
A group with ``w <= 0`` never helps and always costs a kept group, so it is never in an optimal
``S``. The smallest feasible ``|S|`` is the smallest ``k`` whose ``k`` largest savings reach
``need``. Among sets of that size a 0/1 knapsack dynamic program over (groups taken, tool names
hidden) keeps, per state, the largest saving and then the smallest sorted position tuple (items
are added in descending position, so each new item is prepended and the order is kept under
extension). States: ``k × (hidden tool names + 1)``. Exact.

For BPE tokenizers (``o200k_base``, ``cl100k_base``) the same program runs on token costs:
``tokens(header + "\\n")`` plus, per group, ``tokens(block + "\\n")`` (``tokens(block)`` for the
last group in label order). That sum equals the token count of the composed text whenever no
block starts with whitespace or ``/``: both encodings' pre-tokenizers then always split right
after each joining newline (a newline can end a pre-token, never start one that continues into
a non-space character), and BPE merges never cross pre-token boundaries. The shipped profile
always satisfies this; the chosen text is re-counted with the real tokenizer in every case. With
a profile that breaks the condition the costs are an approximation: the result is marked
``exact=False``, and if the re-count does not fit, the reference choice is returned instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..engine import constants as C
from ..engine.config import ToolSearchConfig
from ..engine.listing import GroupBlocks, choose_listing, collapse_order
from ..engine.plan import Planner, listing_budget, tool_search_description
from ..engine.tokens import Tokenizer, get_tokenizer
from .quantities import form_word, tool_search_description_tokens

#: How the best choice compares with the reference, best news last.
VERDICTS = ("not_applicable", "same", "smaller_listing", "more_names", "fewer_collapsed", "missed_fit")

_VERDICT_TEXT = {
    "not_applicable": "No collapse decision here: {why}.",
    "same": "The reference choice is already the best one.",
    "smaller_listing": "Same servers kept at names and tool names shown, but a shorter listing "
                       "({ref_tokens:,} → {best_tokens:,} tokens).",
    "more_names": "Same number of servers collapsed to a summary line, but {gain:,} more tool names shown "
                  "({ref_names:,} → {best_names:,}).",
    "fewer_collapsed": "The reference collapses {ref_collapsed} servers to a summary line; {best_collapsed} would be "
                       "enough ({ref_kept} → {best_kept} servers kept at names, {ref_names:,} → {best_names:,} tool names).",
    "missed_fit": "The reference shows no listing (form none), but a fitting choice exists: form {best_form}, "
                  "{best_kept} of {groups} servers named, tool names shown: {best_names:,}.",
}


#: Each ``method`` of :func:`best_collapse` in plain words, for readers of the app: how the best
#: choice was found and whether it is proven the best (the CLI and JSON keep the short ``method``).
_METHOD_WORDS = {
    "none": "there is no listing, so there is no choice to make",
    "full fits": "the full listing (every server's tools with their short descriptions) fits the budget, so no "
                 "server is collapsed and there is no choice to make",
    "names fit": "every tool name fits the budget (form names), so no server is collapsed and there is no "
                 "choice to make",
    "knapsack (chars4, exact)": "every set of servers that could be collapsed to a summary line was weighed, "
                                "in characters as chars4 counts them: proven the best",
    "knapsack (BPE, additive token costs, exact)": "every set of servers that could be collapsed to a summary "
                                                   "line was weighed, in tokens, which add up server by server "
                                                   "here: proven the best",
    "knapsack (BPE, approximate token costs)": "every set of servers that could be collapsed to a summary line "
                                               "was weighed, in tokens counted server by server, which add up "
                                               "only approximately",
}


#: The words that introduce :func:`method_words` wherever the best collapse choice is shown (the
#: Compare & collapse page's caption, the ``collapse`` command's line), so both say it one way.
METHOD_HEADING = "how the best choice was found"


def method_words(method: str, exact: bool) -> str:
    """How the best collapse choice was found (``method`` of :class:`CollapseComparison`), in plain words,
    ending with whether it is proven the best (``exact``); an unknown ``method`` is returned as given."""
    words = _METHOD_WORDS.get(method, method)
    return words if exact else words.removesuffix(": proven the best") + ": not proven the best"

@dataclass(frozen=True)
class CollapseOutcome:
    """One listing choice (the reference's or the best one).

    Attributes:
        form: ``full`` | ``names`` | ``mixed`` | ``groups`` | ``none``.
        states: ``{label: "full" | "names" | "summary" | "hidden"}``.
        collapsed: labels shown as summary lines, in reference collapse order.
        kept: groups shown with their tool names (full or names).
        names_shown: tool names that appear in the listing.
        tokens: the listing's size in the planning tokenizer (0 for ``none``).
        characters: the listing's length in code points (0 for ``none``).
        text: the listing, or ``None`` for ``none``.
    """

    form: str
    states: Mapping[str, str]
    collapsed: tuple[str, ...]
    kept: int
    names_shown: int
    tokens: int
    characters: int
    text: str | None = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the listing text included)."""
        return {"form": self.form, "states": dict(self.states), "collapsed": list(self.collapsed),
                "kept": self.kept, "names_shown": self.names_shown, "tokens": self.tokens,
                "characters": self.characters, "listing": self.text}


@dataclass(frozen=True)
class ServerCollapse:
    """One server's row in the comparison.

    Attributes:
        server: server name; label: its group label (servers sharing a label share a group).
        deferred_count: its deferred tools (0: not in the listing, states ``visible``).
        names_units / summary_units: its group's names block and summary line on their own, in
            the planning units (characters for chars4, tokens for BPE; see
            :attr:`CollapseComparison.units`).
        reference / best: its state under each choice.
        names_tokens / summary_tokens: the same block and line in tokens (planning tokenizer), the
            plan's per-server ``names_tokens`` / ``summary_tokens`` figures.
    """

    server: str
    label: str
    deferred_count: int
    names_units: int
    summary_units: int
    reference: str
    best: str
    names_tokens: int = 0
    summary_tokens: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class CollapseComparison:
    """The reference choice and the best choice for one catalog, settings and budget.

    Attributes:
        budget: the listing budget in tokens (docs/reference.md §4).
        context_length, threshold_pct, listing_max_tokens: the settings that gave it.
        tokenizer: the planning tokenizer (decides "fits").
        units: ``characters`` (chars4) or ``tokens`` (BPE): what ``*_units`` fields count.
        applicable: False when nothing is listed (tier 0, or ``listing: off``).
        reference, best: the two choices.
        method: how the best choice was found (see the module docstring).
        exact: True when the best choice is provably optimal.
        verdict: one of :data:`VERDICTS`.
        summary: the verdict in words (no catalog text).
        servers: per-server rows, sorted by server name.
        groups: number of listing groups.
        reference_description_tokens / best_description_tokens: the ``tool_search``
            description built around each listing (docs/reference.md §5.6), planning tokenizer.
    """

    budget: int
    context_length: int | None
    threshold_pct: float
    listing_max_tokens: int
    tokenizer: str
    units: str
    applicable: bool
    reference: CollapseOutcome
    best: CollapseOutcome
    method: str
    exact: bool
    verdict: str
    summary: str
    servers: tuple[ServerCollapse, ...]
    groups: int
    reference_description_tokens: int
    best_description_tokens: int

    @property
    def differs(self) -> bool:
        """True when the best choice shows something other than the reference."""
        return self.verdict not in ("same", "not_applicable")

    def to_dict(self) -> dict[str, Any]:
        """The ``collapse --json`` object."""
        return {
            "what_if": True, "budget": self.budget, "context_length": self.context_length,
            "threshold_pct": self.threshold_pct, "listing_max_tokens": self.listing_max_tokens,
            "tokenizer": self.tokenizer, "units": self.units, "applicable": self.applicable,
            "verdict": self.verdict, "summary": self.summary, "method": self.method, "exact": self.exact,
            "groups": self.groups, "reference": self.reference.to_dict(), "best": self.best.to_dict(),
            "reference_description_tokens": self.reference_description_tokens,
            "best_description_tokens": self.best_description_tokens,
            "servers": [s.to_dict() for s in self.servers],
        }


@dataclass(frozen=True)
class _Costs:
    """Additive listing costs in planning units: text fits iff total <= capacity."""

    header: int
    names: tuple[int, ...]     # per group, label order
    summary: tuple[int, ...]
    capacity: int
    additive: bool             # the sum equals the real measure (always for chars4)


def _compose(header: str, blocks: Sequence[str]) -> str:
    return "\n".join([header, *blocks])


def _costs(groups: Sequence[GroupBlocks], header: str, budget: int, tokenizer: Tokenizer) -> _Costs:
    if not tokenizer.exact:
        # chars4: len(header) + Σ (1 + len(block)) <= 4B, the joining newline counted with its block.
        return _Costs(len(header), tuple(1 + len(g.names_block) for g in groups),
                      tuple(1 + len(g.summary) for g in groups), 4 * budget, True)
    last = len(groups) - 1
    count = tokenizer.count

    def cost(text: str, i: int) -> int:
        return count(text if i == last else text + "\n")

    additive = all(b[:1] and not b[0].isspace() and b[0] != "/"
                   for g in groups for b in (g.names_block, g.summary))
    return _Costs(count(header + "\n") if groups else count(header),
                  tuple(cost(g.names_block, i) for i, g in enumerate(groups)),
                  tuple(cost(g.summary, i) for i, g in enumerate(groups)), budget, additive)


def _optimal_subset(savings: Sequence[int], hidden: Sequence[int], positions: Sequence[int],
                    need: int) -> tuple[int, ...] | None:
    """The optimal set of group indices to collapse, or ``None`` when none reaches ``need``.

    Args:
        savings: units saved by collapsing each group (may be <= 0).
        hidden: tool names each group hides when collapsed.
        positions: each group's 0-based rank in the reference collapse order (all distinct).
        need: units that must be saved (> 0).

    Returns:
        Group indices, sorted by collapse position; the objective is the module's 1–4.
    """
    candidates = [i for i, s in enumerate(savings) if s > 0]
    ranked = sorted((savings[i] for i in candidates), reverse=True)
    total, k_min = 0, None
    for k, s in enumerate(ranked, 1):
        total += s
        if total >= need:
            k_min = k
            break
    if k_min is None:
        return None
    # dp[(taken, names hidden)] = (largest saving, smallest sorted position tuple)
    dp: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(0, 0): (0, ())}
    for i in sorted(candidates, key=lambda i: -positions[i]):
        updates: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for (taken, lost), (saved, pos) in dp.items():
            if taken == k_min:
                continue
            key = (taken + 1, lost + hidden[i])
            cand = (saved + savings[i], (positions[i], *pos))
            cur = updates.get(key) or dp.get(key)
            if cur is None or cand[0] > cur[0] or (cand[0] == cur[0] and cand[1] < cur[1]):
                updates[key] = cand
        dp.update(updates)
    feasible = [(lost, -saved, pos) for (taken, lost), (saved, pos) in dp.items()
                if taken == k_min and saved >= need]
    _, _, best = min(feasible)
    by_position = {positions[i]: i for i in candidates}
    return tuple(by_position[p] for p in best)


def _outcome(groups: Sequence[GroupBlocks], header: str, form: str, states: dict[str, str],
             order: Sequence[str], tokenizer: Tokenizer) -> CollapseOutcome:
    if form == "none":
        return CollapseOutcome("none", states, (), 0, 0, 0, 0, None)
    blocks = [g.full if states[g.label] == "full" else g.summary if states[g.label] == "summary"
              else g.names_block for g in groups]
    text = _compose(header, blocks)
    shown = [g for g in groups if states[g.label] in ("full", "names")]
    collapsed = tuple(label for label in order if states[label] == "summary")
    return CollapseOutcome(form, states, collapsed, len(shown), sum(len(g.names) for g in shown),
                           tokenizer.count(text), len(text), text)


def reference_collapse(groups: Sequence[GroupBlocks], budget: int, header: str,
                       tokenizer: str = C.DEFAULT_TOKENIZER) -> CollapseOutcome:
    """What the reference degradation (docs/reference.md §5.4, :func:`~toolsearch.engine.listing.choose_listing`)
    shows for ``budget`` tokens.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    tk = get_tokenizer(tokenizer)
    choice = choose_listing(groups, budget, header, tk.count if tk.exact else None)
    return _outcome(groups, header, choice.form, dict(choice.states), choice.collapse_order, tk)


def best_collapse(groups: Sequence[GroupBlocks], budget: int, header: str,
                  tokenizer: str = C.DEFAULT_TOKENIZER) -> tuple[CollapseOutcome, str, bool]:
    """The best listing choice for ``budget`` tokens (the module's objective; a what-if).

    Args:
        groups: rendered groups in label order (:func:`~toolsearch.engine.listing.render_groups`).
        budget: listing budget in tokens.
        header: the listing's first line.
        tokenizer: the planning tokenizer.

    Returns:
        ``(outcome, method, exact)``: ``method`` is ``"full fits"``, ``"names fit"``,
        ``"knapsack (chars4, exact)"``, ``"knapsack (BPE, additive token costs, exact)"`` or
        ``"knapsack (BPE, approximate token costs)"``; ``exact`` says whether the result is
        provably optimal.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    tk = get_tokenizer(tokenizer)
    order = [g.label for g in collapse_order(groups)]
    reference = choose_listing(groups, budget, header, tk.count if tk.exact else None)
    if reference.form in ("full", "names"):
        # Steps 1-2 are kept: nothing is collapsed, so there is no choice to improve.
        method = "full fits" if reference.form == "full" else "names fit"
        return _outcome(groups, header, reference.form, dict(reference.states), order, tk), method, True
    costs = _costs(groups, header, budget, tk)
    position = {label: i for i, label in enumerate(order)}
    need = costs.header + sum(costs.names) - costs.capacity
    chosen = _optimal_subset([n - s for n, s in zip(costs.names, costs.summary)],
                             [len(g.names) for g in groups], [position[g.label] for g in groups], need)
    exact = costs.additive
    if tk.exact:
        method = "knapsack (BPE, additive token costs, exact)" if exact else "knapsack (BPE, approximate token costs)"
    else:
        method = "knapsack (chars4, exact)"
    if chosen is None:
        outcome = _outcome(groups, header, "none", {g.label: "hidden" for g in groups}, order, tk)
    else:
        picked = {groups[i].label for i in chosen}
        states = {g.label: ("summary" if g.label in picked else "names") for g in groups}
        outcome = _outcome(groups, header, "groups" if len(picked) == len(groups) else "mixed", states, order, tk)
    if outcome.form != "none" and outcome.tokens > budget:
        # Only possible with approximate BPE costs: keep the reference choice, which fits.
        outcome = _outcome(groups, header, reference.form, dict(reference.states), order, tk)
        exact = False
    return outcome, method, exact


def _verdict(reference: CollapseOutcome, best: CollapseOutcome) -> str:
    if reference.form == "none" and best.form != "none":
        return "missed_fit"
    if best.kept > reference.kept:
        return "fewer_collapsed"
    if best.names_shown > reference.names_shown:
        return "more_names"
    if best.text != reference.text:
        return "smaller_listing"
    return "same"


def compare_collapse(planner: Planner, config: ToolSearchConfig, context_length: int | None = None,
                     tokenizer: str = C.DEFAULT_TOKENIZER) -> CollapseComparison:
    """Reference vs best collapse for a catalog at these settings (a what-if, docs/reference.md §4, §5.4).

    Args:
        planner: the catalog's planner (its groups and header are reused).
        config: effective settings; ``threshold_pct`` and ``listing_max_tokens`` set the budget.
        context_length: model context length in tokens; ``None``/0 = unknown (docs/reference.md §4 fallback).
        tokenizer: the planning tokenizer.

    Returns:
        A :class:`CollapseComparison`; when tool search is off, nothing is deferrable, or
        ``listing`` is ``off``, it is marked ``applicable=False`` with both choices ``none``.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    tk = get_tokenizer(tokenizer)
    deferral = planner.deferral(config.defer)
    groups = deferral.groups
    budget, _, _ = listing_budget(context_length, config.threshold_pct, config.listing_max_tokens)
    why = None
    if not config.active:
        why = "tool search is off (enabled: off)"
    elif not deferral.deferred:
        why = "nothing in the catalog is deferrable"
    elif not config.listing_enabled:
        why = "listing: off, so there is no listing"
    order = [g.label for g in collapse_order(groups)]
    if why is not None:
        hidden = _outcome(groups, planner.header, "none", {g.label: "hidden" for g in groups}, order, tk)
        reference = best = hidden
        method, exact, verdict = "none", True, "not_applicable"
        summary = _VERDICT_TEXT["not_applicable"].format(why=why)
    else:
        reference = reference_collapse(groups, budget, planner.header, tokenizer)
        best, method, exact = best_collapse(groups, budget, planner.header, tokenizer)
        verdict = _verdict(reference, best)
        summary = _VERDICT_TEXT[verdict].format(
            ref_tokens=reference.tokens, best_tokens=best.tokens, gain=best.names_shown - reference.names_shown,
            ref_names=reference.names_shown, best_names=best.names_shown, ref_collapsed=len(reference.collapsed),
            best_collapsed=len(best.collapsed), ref_kept=reference.kept, best_kept=best.kept,
            best_form=best.form, groups=len(groups))
    size = tk.count if tk.exact else len
    units = {g.label: (size(g.names_block), size(g.summary)) for g in groups}
    block_tokens = {g.label: (tk.count(g.names_block), tk.count(g.summary)) for g in groups}
    rows = []
    deferred_by_server: dict[str, int] = {}
    for tool in deferral.deferred:
        deferred_by_server[tool.server] = deferred_by_server.get(tool.server, 0) + 1
    with_tools = {t.server for t in planner.tools}
    for server in sorted(set(planner.registration.server_kinds) | with_tools):
        label = deferral.label_of_server.get(server)
        if label is None or not config.active:  # not in the listing (as in the plan's states)
            state = "visible" if server in with_tools else "hidden"
            rows.append(ServerCollapse(server, server, 0, 0, 0, state, state))
            continue
        n_units, s_units = units[label]
        rows.append(ServerCollapse(server, label, deferred_by_server.get(server, 0), n_units, s_units,
                                   reference.states.get(label, "hidden"), best.states.get(label, "hidden"),
                                   *block_tokens[label]))

    def description_tokens(outcome: CollapseOutcome) -> int:
        if not config.active or not deferral.deferred:
            return 0  # tier 0: there is no tool_search tool
        return tool_search_description_tokens(
            tool_search_description(len(deferral.deferred), outcome.form, outcome.text, planner.profile), tk.effective)

    return CollapseComparison(
        budget=budget, context_length=context_length, threshold_pct=config.threshold_pct,
        listing_max_tokens=config.listing_max_tokens, tokenizer=tk.effective,
        applicable=why is None, reference=reference, best=best, method=method, exact=exact, verdict=verdict,
        summary=summary, servers=tuple(rows), groups=len(groups), units="tokens" if tk.exact else "characters",
        reference_description_tokens=description_tokens(reference),
        best_description_tokens=description_tokens(best))


@dataclass(frozen=True)
class CollapseRow:
    """One context length in :func:`collapse_table`: reference vs best, in numbers."""

    context_length: int | None
    budget: int
    verdict: str
    reference_form: str
    best_form: str
    reference_kept: int
    best_kept: int
    reference_names: int
    best_names: int
    reference_tokens: int
    best_tokens: int
    servers_total: int = 0

    def form_label(self, which: str) -> str:
        """``"reference"`` or ``"best"`` listing form with its counts, never the form alone:
        ``"mixed · 9 of 10 servers named"``, ``"full · 10 of 10 servers named"``, ``"none"``."""
        form = self.reference_form if which == "reference" else self.best_form
        kept = self.reference_kept if which == "reference" else self.best_kept
        if form == "none" or not self.servers_total:
            return form_word(form)
        return f"{form_word(form)} · {kept:,} of {self.servers_total:,} servers named"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


def collapse_table(planner: Planner, config: ToolSearchConfig, context_lengths: Sequence[int | None],
                   tokenizer: str = C.DEFAULT_TOKENIZER) -> list[CollapseRow]:
    """:func:`compare_collapse` at each context length (in tokens; same config), one row each.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    rows = []
    for context in context_lengths:
        cmp = compare_collapse(planner, config, context, tokenizer)
        rows.append(CollapseRow(context, cmp.budget, cmp.verdict, cmp.reference.form, cmp.best.form,
                                cmp.reference.kept, cmp.best.kept, cmp.reference.names_shown,
                                cmp.best.names_shown, cmp.reference.tokens, cmp.best.tokens, cmp.groups))
    return rows
