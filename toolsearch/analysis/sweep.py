"""Plans over a grid of context lengths × threshold_pct (× listing_max_tokens), and the
tuning questions a reviewer asks (which budget, threshold_pct and context length reach a form).
"""

from __future__ import annotations

import math
from fractions import Fraction
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..engine import constants as C
from ..engine.config import ToolSearchConfig
from ..engine.listing import DegradationStep
from ..engine.plan import Plan, Planner, listing_budget
from ..engine.wording import counted
from .quantities import form_word

DEFAULT_CONTEXT_LENGTHS: tuple[int, ...] = C.CONTEXT_PRESETS
DEFAULT_THRESHOLD_PCTS: tuple[float, ...] = (1.0, 2.0, 5.0, 10.0, 20.0)


@dataclass(frozen=True)
class SweepRow:
    """One grid point: the settings and what the plan chose.

    ``states`` maps server name → state (full | names | summary | hidden | visible) for every server
    with at least one registered tool: a server that lists no tools has no state here, as ``counts``
    leaves it out (the plan's table shows it as ``hidden`` with 0 tools; the warning names it), so a
    ``hidden`` state is always one of ``counts.servers_hidden``. ``counts`` says the listing by counts
    (:class:`ListingCounts`; ``None`` only for rows built by hand).
    """

    context_length: int | None
    threshold_pct: float
    listing_max_tokens: int
    budget: int
    budget_winner: str
    tier: int
    listing_form: str
    listing_tokens: int
    tools_tokens: int
    states: dict[str, str]
    counts: ListingCounts | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: the attributes, ``counts`` as :meth:`ListingCounts.to_dict`."""
        return {**self.__dict__, "counts": self.counts.to_dict() if self.counts is not None else None}


def sweep(planner: Planner, config: ToolSearchConfig, context_lengths: Sequence[int | None] = DEFAULT_CONTEXT_LENGTHS,
          threshold_pcts: Sequence[float] = DEFAULT_THRESHOLD_PCTS,
          listing_max_tokens: Sequence[int] | None = None, tokenizer: str = C.DEFAULT_TOKENIZER) -> list[SweepRow]:
    """Plan every combination (listing caps outermost, then threshold_pct, then context length).

    Values are parsed and clamped like config values (docs/reference.md §1.1). Returns one row per combination.

    Args:
        planner: the catalog's planner.
        config: the settings the swept values replace.
        context_lengths: context lengths in tokens (``None`` = unknown, docs/reference.md §4 fallback).
        threshold_pcts: ``threshold_pct`` values, in percent of the context length.
        listing_max_tokens: listing caps in tokens (default: ``config``'s).
        tokenizer: the planning tokenizer; the rows' token figures are in it.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    caps = list(listing_max_tokens) if listing_max_tokens else [config.listing_max_tokens]
    rows = []
    for cap in caps:
        for pct in threshold_pcts:
            point = config.with_overrides(threshold_pct=pct, listing_max_tokens=cap)
            for context in context_lengths:
                plan = planner.plan(point, context, tokenizer)
                rows.append(SweepRow(
                    context_length=context, threshold_pct=point.threshold_pct,
                    listing_max_tokens=point.listing_max_tokens, budget=plan.budget,
                    budget_winner=plan.budget_winner, tier=plan.tier, listing_form=plan.listing_form,
                    listing_tokens=plan.listing_tokens, tools_tokens=plan.tools_tokens,
                    # a server with no tools is in no count (the warning names it): no "hidden" it is not counted as
                    states={s.name: s.state for s in plan.servers if s.tool_count}, counts=plan_counts(plan)))
    return rows


# --- Tuning: what every budget gives, without re-planning (app Tuning page, report) ----------
#
# The listing form depends on the budget alone (docs/reference.md §5.4): the degradation tries a fixed list of
# candidates (full, names, then one more collapsed server at a time, ending with all summaries)
# and keeps the first whose size is <= budget. Sizes do not depend on the budget, so one plan at
# budget 0 (where nothing fits and every candidate is measured) answers "which form at budget B"
# for every B. The first fitting candidate can only move earlier as B grows, so the form's rank
# (full < names < mixed < groups < none) never gets worse with a larger budget: searches over the
# budget or the context length may bisect.

#: Context lengths (tokens) and threshold_pct values (%) of the Tuning heatmap and the report.
HEATMAP_CONTEXT_LENGTHS: tuple[int, ...] = (
    8_000, 16_000, 32_000, 64_000, 100_000, 128_000, 200_000, 256_000, 400_000, 512_000, 1_000_000)
HEATMAP_THRESHOLD_PCTS: tuple[float, ...] = (0.5, 1.0, 2.0, 3.0, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0)
#: listing_max_tokens values (tokens) of the Tuning heatmap's context length × cap view.
HEATMAP_LISTING_MAX_TOKENS: tuple[int, ...] = (
    500, 1_000, 1_500, 2_000, 3_000, 4_000, 6_000, 8_000, 12_000, 20_000, 40_000, 60_000)


def heat_rows(values: Iterable[float]) -> list[float]:
    """The rows of a heat table of the listing form over context length × threshold_pct (or ×
    listing_max_tokens), top to bottom: each value once, the largest on top, as a chart's y axis
    rises. The Tuning page's heat table and the report's take their row order from here, so the two
    read the same way (a larger budget, so a fuller listing, up and to the right)."""
    return sorted(set(values), reverse=True)


#: Resolution of recommended settings: exact to 0.1 % and 1 token (the app's number inputs).
THRESHOLD_PCT_STEP = 0.1
LISTING_MAX_TOKENS_STEP = 1
#: Rank of each listing form, best (0, ``full``) to worst (4, ``none``).
FORM_RANK: dict[str, int] = {form: rank for rank, form in enumerate(C.FORMS)}
#: Forms of tier 1 (a listing with tool names); ``groups`` and ``none`` are tier 2.
TIER1_FORMS: tuple[str, ...] = ("full", "names", "mixed")


def plan_at_budget(planner: Planner, config: ToolSearchConfig, budget: int,
                   tokenizer: str = C.DEFAULT_TOKENIZER, display_tokenizer: str | None = None) -> Plan:
    """The plan whose listing budget is exactly ``budget`` tokens.

    The budget is produced through the ordinary docs/reference.md §4 arithmetic with synthetic settings
    (``threshold_pct=100``, ``listing_max_tokens=60000``, context length = ``budget``; for 0:
    ``threshold_pct=0`` at context length 1), so everything that depends on the budget is what
    :meth:`Planner.plan` gives; ``context_length``, ``pct_leg`` and ``config`` of the result
    are the synthetic ones.

    Raises:
        ValueError: ``budget`` outside 0..``LISTING_MAX_TOKENS_MAX``.
        TokenizerError: an unknown tokenizer name.
    """
    if not 0 <= budget <= C.LISTING_MAX_TOKENS_MAX:
        raise ValueError(f"budget must be 0..{C.LISTING_MAX_TOKENS_MAX:,} tokens, got {budget:,}")
    if budget == 0:
        point, context = config.with_overrides(threshold_pct=0.0), 1
    else:
        point = config.with_overrides(threshold_pct=100.0, listing_max_tokens=C.LISTING_MAX_TOKENS_MAX)
        context = budget
    plan = planner.plan(point, context, tokenizer, display_tokenizer)
    assert plan.budget == budget, (plan.budget, budget)
    return plan


@dataclass(frozen=True)
class LadderServer:
    """A server with deferred tools, as the listing groups it.

    Attributes:
        name: the server name; ``label``: its listing group label; ``deferred_count``: its
            deferred tools (the tools the listing can name).
    """

    name: str
    label: str
    deferred_count: int


@dataclass(frozen=True)
class ListingCounts:
    """A listing outcome described by counts, never by its form alone.

    Attributes:
        form: ``full`` | ``names`` | ``mixed`` | ``groups`` | ``none``.
        servers_full / servers_names / servers_summary / servers_hidden: servers with deferred
            tools in each state (they add up to ``servers_total``).
        servers_total: servers with at least one deferred tool.
        tools_named: deferred tools whose name the listing shows (servers at full or names).
        tools_total: deferred tools.
        listing_tokens: the listing's size (planning tokens; 0 when nothing is listed).
    """

    form: str
    servers_full: int
    servers_names: int
    servers_summary: int
    servers_hidden: int
    servers_total: int
    tools_named: int
    tools_total: int
    listing_tokens: int = 0

    @property
    def servers_named(self) -> int:
        """Servers at names or better (full or names)."""
        return self.servers_full + self.servers_names

    @property
    def label(self) -> str:
        """The outcome in words, e.g. ``"mixed · 9 of 10 servers named (178 tools)"``,
        ``"groups · 0 of 10 servers named (10 summary lines)"``, ``"none · nothing listed"``."""
        form = form_word(self.form)
        if self.servers_total == 0:
            return f"{form} · nothing deferred"
        if self.form == "none":
            return f"none · nothing listed (0 of {self.servers_total:,} servers named)"
        text = f"{form} · {self.servers_named:,} of {self.servers_total:,} servers named"
        if self.servers_named:
            return f"{text} ({counted(self.tools_named, 'tool')})"
        return f"{text} ({counted(self.servers_summary, 'summary line')})"

    @property
    def short_label(self) -> str:
        """A cell-sized form of :attr:`label`, the one ``sweep``'s table, the Tuning page's grids and
        the report's heat map show: ``"mixed 9/10"`` with its counts; otherwise the form word alone
        (``"full"``, ``"names"``, ``"summary"``, ``"none"``), since full and names name every server
        and summary and none name none."""
        if self.form == "mixed" and self.servers_total:
            return f"mixed {self.servers_named}/{self.servers_total}"
        return form_word(self.form)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: the attributes, ``servers_named`` and ``label``."""
        return {**self.__dict__, "servers_named": self.servers_named, "label": self.label}


def listing_counts(form: str, states: Mapping[str, str], deferred: Mapping[str, int],
                   listing_tokens: int = 0) -> ListingCounts:
    """:class:`ListingCounts` from per-server states.

    Args:
        form: the listing form.
        states: server name → ``full`` | ``names`` | ``summary`` | ``hidden`` (other states,
            e.g. ``visible``, and servers without deferred tools are not counted).
        deferred: server name → deferred tools; servers with 0 are not counted.
        listing_tokens: the listing's size in tokens, carried along.
    """
    tally = {"full": 0, "names": 0, "summary": 0, "hidden": 0}
    named = total_tools = 0
    for server, count in deferred.items():
        if count <= 0:
            continue
        state = states.get(server, "hidden")
        state = state if state in tally else "hidden"
        tally[state] += 1
        total_tools += count
        if state in ("full", "names"):
            named += count
    return ListingCounts(form, tally["full"], tally["names"], tally["summary"], tally["hidden"], sum(tally.values()),
                         named, total_tools, listing_tokens)


def plan_counts(plan: Plan) -> ListingCounts:
    """:class:`ListingCounts` of a plan (its servers' states and deferred tools)."""
    return listing_counts(plan.listing_form, {s.name: s.state for s in plan.servers},
                          {s.name: s.deferred_count for s in plan.servers}, plan.listing_tokens)


@dataclass(frozen=True)
class Ladder:
    """Every listing candidate the degradation tries, in order, with its size (docs/reference.md §5.4).

    Attributes:
        activated: tool search is active (``enabled`` not off and something is deferrable);
            when False every budget gives tier 0, form ``none``.
        listing_enabled: ``listing`` is not off; when False every budget gives form ``none``.
        steps: the candidates in degradation order (``form``, ``collapsed`` labels, ``tokens``
            in the planning tokenizer). ``fits`` is always False: they were measured at budget 0.
        planning_tokenizer: the tokenizer that measured them.
        servers: the servers with deferred tools, as the listing groups them.
        registered: the name of every server with at least one registered tool (deferred or
            visible), in the plan's order: the servers a model sees in some way.
        bare_tools_tokens: the model-visible tools array with nothing listed (the plan at budget 0:
            the visible tools and the bridge tools), in ``bare_tokenizer``: the smallest request any
            threshold_pct and listing_max_tokens give. A context length shorter than it fits no request
            whatever the settings (:func:`toolsearch.analysis.quantities.tools_array_too_large`).
        request_tokens_at: budget (tokens) → the model-visible tools array with the listing that budget
            chooses (tokens, ``bare_tokenizer``): what a request sends before any message. ``None``
            when the request is not weighed (a ladder built by hand to test the budget arithmetic
            alone); :func:`listing_ladder` always sets it. See :meth:`request_limit`.
        reserve_pct: the share (%, 0 to 90) of every context length kept free of the tools array, for
            the system prompt, the conversation and the reply (``recommend --reserve``): a request
            fits a length when its tools array leaves at least that much (:meth:`request_space`).
            0 (the default): the tools array may take the whole context.
    """

    activated: bool
    listing_enabled: bool
    steps: tuple[DegradationStep, ...]
    planning_tokenizer: str
    servers: tuple[LadderServer, ...] = ()
    registered: tuple[str, ...] = ()
    bare_tools_tokens: int = 0
    bare_tokenizer: str = ""
    request_tokens_at: Callable[[int], int] | None = field(default=None, compare=False, repr=False)
    reserve_pct: float = 0.0
    _limits: dict[int, int] = field(default_factory=dict, init=False, compare=False, repr=False)

    def states_of(self, step: DegradationStep | None) -> dict[str, str]:
        """Server name → ``full`` | ``names`` | ``summary`` | ``hidden`` when ``step`` is the
        chosen candidate (``None``: nothing listed), for the servers in :attr:`servers`."""
        out = {}
        collapsed = set(step.collapsed) if step is not None else set()
        for server in self.servers:
            if step is None:
                out[server.name] = "hidden"
            elif step.form == "full":
                out[server.name] = "full"
            else:
                out[server.name] = "summary" if server.label in collapsed else "names"
        return out

    def counts_of(self, step: DegradationStep | None) -> ListingCounts:
        """:class:`ListingCounts` when ``step`` is the chosen candidate (``None``: nothing listed)."""
        return listing_counts(step.form if step is not None else "none", self.states_of(step),
                              {s.name: s.deferred_count for s in self.servers}, step.tokens if step else 0)

    def counts_at(self, budget: int) -> ListingCounts:
        """:class:`ListingCounts` of the listing at ``budget`` tokens."""
        return self.counts_of(self.step_at(budget))

    def step_at(self, budget: int) -> DegradationStep | None:
        """The candidate chosen at ``budget`` tokens (the first that fits), or ``None``."""
        if not (self.activated and self.listing_enabled):
            return None
        for step in self.steps:
            if step.tokens <= budget:
                return step
        return None

    def form_at(self, budget: int) -> str:
        """The listing form at ``budget`` tokens: ``full`` | ``names`` | ``mixed`` | ``groups`` | ``none``."""
        step = self.step_at(budget)
        return step.form if step else "none"

    def tier_at(self, budget: int) -> int:
        """The tier at ``budget`` tokens: 0 (inactive), 1 (tool names listed) or 2 (docs/reference.md §5.5)."""
        if not self.activated:
            return 0
        return 1 if self.form_at(budget) in TIER1_FORMS else 2

    def tokens_at(self, budget: int) -> int:
        """The listing's size in tokens at ``budget`` (0 when nothing is listed)."""
        step = self.step_at(budget)
        return step.tokens if step else 0

    def request_tokens(self, budget: int) -> int | None:
        """The model-visible tools array (tokens, :attr:`bare_tokenizer`) with the listing ``budget``
        tokens choose: the visible tools and the bridge tools, the listing inside ``tool_search``'s
        description (docs/reference.md §3, §5.6). ``None`` when the request is not weighed."""
        return None if self.request_tokens_at is None else self.request_tokens_at(budget)

    def reserve_tokens(self, context_length: int | None) -> int:
        """The tokens of ``context_length`` kept free of the tools array: :attr:`reserve_pct` of it,
        rounded up (0 when the length is unknown or nothing is reserved)."""
        if not context_length or context_length <= 0 or not self.reserve_pct:
            return 0
        return math.ceil(Fraction(str(self.reserve_pct)) * context_length / 100)

    def request_space(self, context_length: int) -> int:
        """The tokens of ``context_length`` a request's tools array may take: the whole length less
        :meth:`reserve_tokens`."""
        return context_length - self.reserve_tokens(context_length)

    def request_fits(self, context_length: int | None, budget: int) -> bool:
        """Whether the request with the listing ``budget`` tokens choose fits ``context_length``
        (tokens): its tools array is at most that long (the test
        :func:`toolsearch.analysis.quantities.tools_array_too_large` makes). ``True`` when the length
        is unknown or the request is not weighed."""
        limit = self.request_limit(context_length)
        return limit is None or budget <= limit

    def request_limit(self, context_length: int | None) -> int | None:
        """The largest budget (tokens) whose request still fits
        ``context_length``: past it the budget chooses a listing whose tools array (:meth:`request_tokens`)
        is longer than the context (less :meth:`reserve_tokens`), so no request with it fits the model,
        whatever the listing lists.
        A budget is at most the context length and at most 60,000 tokens (docs/reference.md §4), so the
        limit is the context length itself when every listing a budget can choose there fits beside the
        rest of the tools array. ``None`` when
        the length is unknown (or not positive) or the request is not weighed. Below it every budget fits
        too, as long as something fits with nothing listed.

        The tools array does not always grow with the listing: a listing with a server collapsed can be
        smaller than the one before it and still make a longer array (the description then says which
        servers are not listed by name). So every listing a budget up to the length can choose is
        measured, smallest budget first, up to the first whose request does not fit; a larger budget
        past that one may fit again, but the limit stays below it, so every budget up to the limit fits.
        """
        if self.request_tokens_at is None or not context_length or context_length <= 0:
            return None
        if context_length in self._limits:
            return self._limits[context_length]
        # the budgets at which another listing is chosen, smallest first: the tools array changes only there
        starts = sorted({b for b in _first_budgets(self.steps) if b <= min(context_length, C.LISTING_MAX_TOKENS_MAX)})
        space = self.request_space(context_length)
        first_over = next((b for b in starts if self.request_tokens(b) > space), None)
        limit = self._limits[context_length] = context_length if first_over is None else first_over - 1
        return limit

    def sizes(self) -> dict[str, int]:
        """Size in tokens of the uniform candidates: ``full``, ``names`` and ``groups`` (every
        server as a summary line). Empty when there is no listing to degrade."""
        if not (self.activated and self.listing_enabled):
            return {}
        out: dict[str, int] = {}
        for step in self.steps:
            if step.form in ("full", "names", "groups"):
                out[step.form] = step.tokens
        return out


def _first_budgets(steps: Sequence[DegradationStep]) -> list[int]:
    """For each candidate that some budget chooses, the smallest such budget (its size): the budgets at
    which the chosen listing changes. A candidate no budget chooses (an earlier one is as small) is left out."""
    out, earlier = [], math.inf
    for step in steps:
        if step.tokens < earlier:
            out.append(step.tokens)
        earlier = min(earlier, step.tokens)
    return out


def names_budget(steps: Sequence[DegradationStep]) -> int | None:
    """The smallest budget (tokens, the planning tokenizer that measured ``steps``) whose listing names at
    least one tool (tier 1: form ``full``, ``names`` or ``mixed``), from a plan's or a ladder's degradation
    ``steps``; ``None`` when no step names a tool. Every tier-1 step comes before the summary-only one,
    so the first step that fits a budget at least this large names a tool."""
    return min((s.tokens for s in steps if s.form in ("full", "names", "mixed")), default=None)


def listing_ladder(planner: Planner, config: ToolSearchConfig, tokenizer: str = C.DEFAULT_TOKENIZER,
                   reserve_pct: float = 0.0) -> Ladder:
    """Measure every listing candidate once (one plan at budget 0) for ``config`` and ``tokenizer``.

    Only ``enabled``, ``listing`` and ``defer`` of ``config`` matter; threshold_pct and
    listing_max_tokens do not change the ladder. ``reserve_pct``: :attr:`Ladder.reserve_pct`.

    Raises:
        TokenizerError: an unknown tokenizer name.
        ValueError: ``reserve_pct`` outside 0..:data:`~toolsearch.engine.constants.RESERVE_PCT_MAX`.
    """
    if not 0 <= reserve_pct <= C.RESERVE_PCT_MAX:
        raise ValueError(f"reserve must be 0 to {C.RESERVE_PCT_MAX:g} %, got {reserve_pct!r}")
    plan = plan_at_budget(planner, config, 0, tokenizer)
    servers = tuple(LadderServer(s.name, s.label, s.deferred_count) for s in plan.servers if s.deferred_count > 0)
    ladder = Ladder(activated=plan.activated, listing_enabled=config.listing_enabled,
                    steps=tuple(plan.steps), planning_tokenizer=plan.planning_tokenizer, servers=servers,
                    registered=tuple(s.name for s in plan.servers if s.tool_count > 0),
                    bare_tools_tokens=plan.tools_tokens, bare_tokenizer=plan.display_tokenizer,
                    reserve_pct=float(reserve_pct))
    measured: dict[int, int] = {}  # chosen listing's size → its tools array: the array depends on the listing alone

    def request_tokens_at(budget: int) -> int:
        if ladder.step_at(budget) is None:
            return plan.tools_tokens
        size = ladder.tokens_at(budget)  # the budget that chooses the same listing (no budget passes 60,000)
        if size not in measured:
            measured[size] = plan_at_budget(planner, config, size, tokenizer).tools_tokens
        return measured[size]

    object.__setattr__(ladder, "request_tokens_at", request_tokens_at)
    return ladder


def at_least(form: str) -> Callable[[str], bool]:
    """Predicate "the listing form is ``form`` or better" (``FORM_RANK`` order).

    Raises:
        ValueError: an unknown form.
    """
    if form not in FORM_RANK:
        raise ValueError(f"form must be one of {C.FORMS}, got {form!r}")
    goal = FORM_RANK[form]
    return lambda got: FORM_RANK[got] <= goal


def smallest_budget(ladder: Ladder, predicate: Callable[[str], bool],
                    high: int = C.LISTING_MAX_TOKENS_MAX) -> int | None:
    """The smallest budget in 0..``high`` tokens whose listing form satisfies ``predicate``.

    ``predicate`` takes a form and must be monotone in the budget (once true, true for every
    larger budget), as :func:`at_least` predicates are. Binary search over the budget.
    Returns ``None`` when even ``high`` does not satisfy it.
    """
    if not predicate(ladder.form_at(high)):
        return None
    low = 0
    while low < high:
        mid = (low + high) // 2
        if predicate(ladder.form_at(mid)):
            high = mid
        else:
            low = mid + 1
    return low


def smallest_context_length(budget: int, threshold_pct: float, listing_max_tokens: int,
                            high: int = C.CONTEXT_LENGTH_MAX) -> int | None:
    """The smallest context length in 1..``high`` tokens whose docs/reference.md §4 budget is >= ``budget``.

    Returns ``None`` when no context length reaches it (``listing_max_tokens`` below
    ``budget``, or ``threshold_pct`` too small even at ``high``).
    """
    def reaches(context: int) -> bool:
        return listing_budget(context, threshold_pct, listing_max_tokens)[0] >= budget

    if not reaches(high):
        return None
    low = 1
    while low < high:
        mid = (low + high) // 2
        if reaches(mid):
            high = mid
        else:
            low = mid + 1
    return low


def threshold_pct_for_budget(budget: int, context_length: int | None,
                             step: float = THRESHOLD_PCT_STEP) -> float | None:
    """The smallest threshold_pct on a ``step`` grid (%) whose percentage leg at
    ``context_length`` is >= ``budget`` tokens (docs/reference.md §4 arithmetic, truncation included).

    Returns ``None`` when the context length is unknown (the leg is then a fixed 10,000) or
    when even 100% is not enough.
    """
    if context_length is None or context_length <= 0:
        return None
    k = max(0, math.floor(budget * 100 / (context_length * step)) - 1)
    while k * step <= C.THRESHOLD_PCT_MAX:
        pct = round(k * step, 10)
        if int(context_length * (pct / 100.0)) >= budget:
            return pct
        k += 1
    return None


def listing_max_tokens_for_budget(budget: int, step: int = LISTING_MAX_TOKENS_STEP) -> int | None:
    """The smallest listing_max_tokens on a ``step`` grid that is >= ``budget`` tokens, within
    200..60000 (docs/reference.md §1.1 clamp); ``None`` above 60000."""
    if budget > C.LISTING_MAX_TOKENS_MAX:
        return None
    return max(C.LISTING_MAX_TOKENS_MIN, min(C.LISTING_MAX_TOKENS_MAX, -(-budget // step) * step))


@dataclass(frozen=True)
class Recommendation:
    """The settings that reach a listing form ``goal`` (or better) for one context length.

    Attributes:
        goal: the form to reach or beat (``FORM_RANK`` order).
        budget: the smallest budget that reaches it, in tokens; ``None`` when no budget in
            0..60000 does (listing off, tool search off, or the listing is larger).
        threshold_pct: the smallest threshold_pct (%, on the step grid) that gives at least
            ``budget`` at ``context_length``; ``None`` when the context length is unknown or
            100% is not enough.
        listing_max_tokens: the smallest cap (tokens, on the step grid) >= ``budget``.
        reachable: the goal can be reached at ``context_length`` by changing threshold_pct and
            listing_max_tokens only (for an unknown context length: ``budget`` <= 10,000).
        met: the current config already reaches it at ``context_length``.
        context_length_from: the smallest context length (tokens) that reaches it with the
            current threshold_pct and listing_max_tokens; ``None`` when none does.
    """

    goal: str
    budget: int | None
    threshold_pct: float | None
    listing_max_tokens: int | None
    reachable: bool
    met: bool
    context_length_from: int | None

    @property
    def context_length_below(self) -> int | None:
        """The largest context length (tokens) that does *not* reach the goal at the current
        settings: ``context_length_from - 1``; ``None`` if every or no context length reaches it."""
        if self.context_length_from is None or self.context_length_from <= 1:
            return None
        return self.context_length_from - 1

    def apply(self, config: ToolSearchConfig) -> ToolSearchConfig:
        """``config`` with the recommended threshold_pct and listing_max_tokens (the ones that
        are known); unchanged when the goal is not reachable."""
        if not self.reachable:
            return config
        return config.with_overrides(threshold_pct=self.threshold_pct, listing_max_tokens=self.listing_max_tokens)


def recommend(ladder: Ladder, config: ToolSearchConfig, context_length: int | None, goal: str) -> Recommendation:
    """What it takes to reach listing form ``goal`` or better (see :class:`Recommendation`).

    Args:
        ladder: from :func:`listing_ladder` for the same catalog, config and tokenizer.
        config: the current settings (threshold_pct and listing_max_tokens are used for
            ``met`` and ``context_length_from``).
        context_length: tokens, or ``None`` for unknown.
        goal: ``full`` | ``names`` | ``mixed`` | ``groups``.

    Raises:
        ValueError: an unknown form.
    """
    predicate = at_least(goal)
    budget = smallest_budget(ladder, predicate)
    current, _, _ = listing_budget(context_length, config.threshold_pct, config.listing_max_tokens)
    met = predicate(ladder.form_at(current))
    if budget is None:
        return Recommendation(goal, None, None, None, False, met, None)
    pct = threshold_pct_for_budget(budget, context_length)
    cap = listing_max_tokens_for_budget(budget)
    known = context_length is not None and context_length > 0
    reachable = cap is not None and (pct is not None if known else budget <= C.UNKNOWN_CONTEXT_PCT_LEG)
    return Recommendation(goal=goal, budget=budget, threshold_pct=pct, listing_max_tokens=cap,
                          reachable=reachable, met=met,
                          context_length_from=smallest_context_length(budget, config.threshold_pct,
                                                                      config.listing_max_tokens))


@dataclass(frozen=True)
class GridPoint:
    """One grid point of a fast sweep: the settings, the budget and the listing it gives.

    Same meaning as the fields of :class:`SweepRow` (budget and listing in planning tokens),
    without the per-server states and the tools array size.
    """

    context_length: int | None
    threshold_pct: float
    listing_max_tokens: int
    budget: int
    budget_winner: str
    tier: int
    listing_form: str
    listing_tokens: int
    servers_named: int = 0
    servers_total: int = 0
    tools_named: int = 0

    @property
    def counts(self) -> ListingCounts:
        """The outcome by counts (servers in summary/hidden not split: use the ladder for that)."""
        return ListingCounts(self.listing_form, 0, self.servers_named, self.servers_total - self.servers_named, 0,
                             self.servers_total, self.tools_named, 0, self.listing_tokens)

    @property
    def label(self) -> str:
        """e.g. ``"mixed · 9 of 10 servers named (178 tools)"`` (:attr:`ListingCounts.label`)."""
        return self.counts.label

    @property
    def short_label(self) -> str:
        """e.g. ``"mixed 9/10"`` (:attr:`ListingCounts.short_label`)."""
        return self.counts.short_label

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


def form_grid(ladder: Ladder, config: ToolSearchConfig,
              context_lengths: Sequence[int | None] = HEATMAP_CONTEXT_LENGTHS,
              threshold_pcts: Sequence[float] = HEATMAP_THRESHOLD_PCTS,
              listing_max_tokens: Sequence[int] | None = None) -> list[GridPoint]:
    """Like :func:`sweep` (same order, same clamping, same tier/form/budget/listing tokens) but
    read off a :class:`Ladder`, so a grid of any size costs one plan."""
    caps = list(listing_max_tokens) if listing_max_tokens else [config.listing_max_tokens]
    rows = []
    # Counted once per chosen step: many cells choose the same one, and counting walks every
    # server (110 cells of 20,000 one-tool servers took seconds).
    counted: dict[int, ListingCounts] = {}
    for cap in caps:
        for pct in threshold_pcts:
            point = config.with_overrides(threshold_pct=pct, listing_max_tokens=cap)
            for context in context_lengths:
                budget, _, winner = listing_budget(context, point.threshold_pct, point.listing_max_tokens)
                step = ladder.step_at(budget)
                counts = counted.get(id(step))
                if counts is None:
                    counts = counted[id(step)] = ladder.counts_of(step)
                rows.append(GridPoint(
                    context_length=context, threshold_pct=point.threshold_pct,
                    listing_max_tokens=point.listing_max_tokens, budget=budget, budget_winner=winner,
                    tier=ladder.tier_at(budget), listing_form=ladder.form_at(budget),
                    listing_tokens=ladder.tokens_at(budget), servers_named=counts.servers_named,
                    servers_total=counts.servers_total, tools_named=counts.tools_named))
    return rows


def curve_context_lengths(ladder: Ladder, threshold_pct: float, listing_max_tokens: int,
                          low: int = 8_000, high: int = 1_000_000, points: int = 49) -> list[int]:
    """Context lengths (tokens, ascending) for a listing-vs-budget line over ``low..high``.

    ``points`` log-spaced lengths plus, for every candidate size and for the cap, the first
    context length whose budget reaches it and the one before, so a line through the points
    shows each change of form exactly where it happens.
    """
    low, high = max(1, low), max(low, high)
    grid = {round(low * (high / low) ** (i / (points - 1))) for i in range(points)} if points > 1 else {low}
    grid |= {low, high}
    for target in {s.tokens for s in ladder.steps} | {listing_max_tokens}:
        first = smallest_context_length(target, threshold_pct, listing_max_tokens, high)
        if first is not None:
            grid |= {c for c in (first - 1, first) if low <= c <= high}
    return sorted(grid)


def curve_bounds(ladder: Ladder, threshold_pct: float, listing_max_tokens: int,
                 low: int = 8_000, high: int = 1_000_000) -> tuple[int, int]:
    """A context-length range (tokens) for the listing-vs-budget line that shows every change of
    form the settings can reach.

    Starts from ``low..high`` and widens it: down to half the first context length whose budget
    reaches the smallest candidate, up to twice the one whose budget reaches the largest (at most
    ``C.CONTEXT_LENGTH_MAX``). Candidates the cap never lets fit do not widen it.
    """
    firsts = [c for c in (smallest_context_length(s.tokens, threshold_pct, listing_max_tokens)
                          for s in ladder.steps) if c is not None]
    if firsts:
        low = min(low, max(1, min(firsts) // 2))
        high = max(high, min(C.CONTEXT_LENGTH_MAX, max(firsts) * 2))
    return low, high
