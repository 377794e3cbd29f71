"""Does a catalog meet a disclosure goal at every context length a config serves? (``toolsearch check``)

A gate for a build: with the config's ``threshold_pct`` and ``listing_max_tokens``, each listed
context length gets a budget, a tier and a listing form (read off the listing ladder of
:mod:`toolsearch.analysis.sweep`, as :mod:`toolsearch.analysis.recommend` does). The goal holds at a
length when the form is the goal's form or better, and, with a listing-size limit, when the
listing is no larger. When tool search is not active at all (tier 0) every tool is sent with its
full schema, which is more than any goal asks, so the goal holds there.

With a baseline catalog (the catalog before a change), each length also says what changed: tier,
form, listing tokens, and how much of the model-visible prefix a prompt cache filled with the
baseline's tools array could still reuse (:func:`toolsearch.analysis.cachediff.compare`), and
whether the change made disclosure worse there (:func:`worse_than_baseline`); with
``fail_on_worse`` that fails the check too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from ..engine.config import ToolSearchConfig
from ..engine.inspector import Inspector
from ..engine.invisible import reveal_line
from .cachediff import Side, compare
from .recommend import reserved_words, GOAL_FORMS, GOALS, ContextOutcome, LengthGoals, MultiRecommendation, budget_with_headroom, \
    smaller_listing_keeps_headroom, with_listing_evidence, \
    _NAMED_MAX, at_length, collapsed_words, goal_at, goal_statement, length_goals_for, lost_words, outcomes, \
    recommend_for_contexts, requirement_misses, servers_without_tools, unfit_lengths
from .quantities import form_word, length_label, request_overflow_words, tools_array_too_large
from .sweep import FORM_RANK, Ladder, listing_ladder
from .wording import MISS_WORDS

__all__ = ["GOALS", "MISS_WORDS", "BaselineChange", "CheckResult", "LengthCheck", "Miss", "ServerWorse",
           "check_catalog", "checked_words", "failure_items", "failure_lines", "goal_failures", "headroom_failures",
           "missed_conditions", "verdict_words", "worse_lines", "worse_than_baseline"]

#: A server's state, best (0) to worst: what "a server is listed worse" compares
#: (:func:`worse_than_baseline`). ``visible``: every tool sent with its schema (tier 0).
STATE_RANK: dict[str, int] = {"visible": 0, "full": 1, "names": 2, "summary": 3, "hidden": 4}


def goal_failures(outcome: ContextOutcome, goal: str, max_listing_tokens: int | None = None) -> tuple[str, ...]:
    """Why ``goal`` does not hold for ``outcome`` (one context length), as short sentences; empty
    when it holds. Tier 0 (tool search not active) meets every goal. With ``max_listing_tokens``
    (tokens, in the outcome's planning tokenizer), a listing larger than that fails too.

    Raises:
        ValueError: an unknown goal.
    """
    if goal not in GOAL_FORMS:
        raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {goal!r}")
    if outcome.tier == 0:
        return ()
    failures = []
    needed = GOAL_FORMS[goal]
    if FORM_RANK[outcome.listing_form] > FORM_RANK[needed]:
        shown = outcome.outcome or form_word(outcome.listing_form)  # "mixed · 9 of 10 servers named (178 tools)"
        failures.append(f"the listing is {shown}, tier {outcome.tier}, within a budget of "
                        f"{outcome.budget:,} tokens; the goal needs {form_word(needed)}"
                        f"{' or better' if needed != 'full' else ''}")
    if max_listing_tokens is not None and outcome.listing_tokens > max_listing_tokens:
        failures.append(f"the listing is {outcome.listing_tokens:,} tokens, above the limit of "
                        f"{max_listing_tokens:,}")
    return tuple(failures)


def headroom_failures(outcome: ContextOutcome, headroom_pct: float, goal: str | None = None, ladder: Any = None,
                      except_servers: Sequence[str] = (), keep_servers: Sequence[str] = ()) -> tuple[str, ...]:
    """Why ``outcome`` (one context length) leaves less than ``headroom_pct`` % of room above its
    listing, as one short sentence; empty when it leaves enough, when ``headroom_pct`` is 0, or when
    nothing is listed (tier 0, or no listing at all). The room needed is
    :func:`toolsearch.analysis.recommend.budget_with_headroom`, the rule ``recommend --headroom`` uses.
    With ``goal`` (that length's goal) and a listing in a better form than the goal asks, the
    sentence also says that a smaller budget, with the room above a smaller listing, holds too:
    that is what ``recommend`` picks, so its settings are smaller than the budget named first. With
    ``ladder`` (the :class:`~toolsearch.analysis.sweep.Ladder` the outcome was read off) and the
    per-server lists, it says so only when such a listing exists
    (:func:`toolsearch.analysis.recommend.smaller_listing_keeps_headroom`): a smaller listing the goal
    accepts may still need a budget at which the larger one is chosen."""
    miss = _headroom_miss(outcome, headroom_pct, goal, ladder, except_servers, keep_servers)
    return () if miss is None else (miss.sentence,)


def _headroom_miss(outcome: ContextOutcome, headroom_pct: float, goal: str | None = None, ladder: Any = None,
                   except_servers: Sequence[str] = (), keep_servers: Sequence[str] = ()) -> Miss | None:
    """:func:`headroom_failures` as a :class:`Miss` (``figure``: the budget it needs; ``detail``:
    the clause on a smaller listing, or ``""``); ``None`` when there is room enough."""
    if not headroom_pct or outcome.tier == 0 or outcome.listing_tokens == 0:
        return None
    needed = budget_with_headroom(outcome.listing_tokens, headroom_pct)
    if outcome.budget >= needed:
        return None
    smaller = ""
    if goal in GOAL_FORMS and FORM_RANK[outcome.listing_form] < FORM_RANK[GOAL_FORMS[goal]] and (
            ladder is None
            or smaller_listing_keeps_headroom(ladder, outcome, goal, headroom_pct, except_servers, keep_servers)):
        smaller = (f", or a smaller one with {headroom_pct:g}% above a smaller listing the goal still accepts "
                   f"(the goal needs {form_word(GOAL_FORMS[goal])}; this listing is {form_word(outcome.listing_form)})")
    return Miss("headroom", f"the budget of {outcome.budget:,} tokens leaves {outcome.headroom_tokens:,} tokens above "
                            f"the {outcome.listing_tokens:,}-token listing; {headroom_pct:g}% headroom needs a budget "
                            f"of at least {needed:,}{smaller}", detail=smaller, figure=needed,
                words=f"{headroom_pct:g}%")


@dataclass(frozen=True)
class Miss:
    """One condition the check misses at one context length.

    Attributes:
        kind: ``fit`` (no request fits the length: whatever the settings, the tools array with nothing
            listed is larger, :class:`toolsearch.analysis.recommend.UnfitLength`; or with these settings,
            the listing makes it larger, :meth:`toolsearch.analysis.sweep.Ladder.request_limit`), ``reserve``
            (with these settings the tools array fits but leaves less of the length than ``--reserve``
            asks), ``keep`` (servers that must stay named are collapsed), ``goal`` (the listing's form is
            below the goal's), ``size`` (the listing is over ``--max-listing-tokens``) or
            ``headroom`` (less room above the listing than ``--headroom`` asks) or ``worse`` (the
            change made disclosure worse than the baseline, :func:`worse_than_baseline`).
        sentence: the sentence :attr:`LengthCheck.failures` holds for it.
        servers: ``keep``: the kept servers collapsed; ``goal``: the servers collapsed that no
            ``--except`` covers, in collapse order; ``worse``: the servers listed worse.
        detail: ``goal``: what the goal needs in words; ``headroom``: the clause on a smaller listing;
            ``worse``: the whole sentence (two lengths with the same one are one condition).
        figure: ``size``: the limit; ``headroom``: the budget it needs (tokens); ``fit``, ``reserve``: the
            context length.
        words: ``goal``: ``"except"`` when ``--except`` was given; ``headroom``: the percentage.
    """

    kind: str
    sentence: str
    servers: tuple[str, ...] = ()
    detail: str = ""
    figure: int = 0
    words: str = ""

    @property
    def condition(self) -> tuple[Any, ...]:
        """What makes two lengths' misses the same condition, said once for both
        (:func:`failure_lines`)."""
        if self.kind == "keep":
            return (self.kind, self.servers)
        if self.kind == "headroom":
            return (self.kind, self.detail, self.words)
        if self.kind == "worse":
            return (self.kind, self.detail)
        return (self.kind, self.detail, self.figure, self.words)


@dataclass(frozen=True)
class ServerWorse:
    """A server listed worse than in the baseline at one context length (states as
    :meth:`toolsearch.analysis.sweep.Ladder.states_of` gives them: ``full``, ``names``,
    ``summary``, ``hidden``)."""

    name: str
    before: str
    after: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``name``, ``before``, ``after``."""
        return {"name": self.name, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class BaselineChange:
    """What changed at one context length against the baseline catalog (with the baseline's settings).

    Attributes:
        before: the baseline's outcome (budget, tier, form, listing tokens).
        cache_hit: the new tools array is byte-identical to the baseline's (a prompt cache serves it).
        reusable_tokens: leading tokens of the new tools array identical to the baseline's.
        total_tokens: tokens of the new tools array (same tokenizer).
        first_cause: the first structural difference that changes the prefix, in words, or ``""``.
        more_causes: how many further such differences there are (``toolsearch diff`` lists them).
        worse_servers: the servers of both catalogs the model sees worse than in the baseline, in
            the new catalog's server order (:func:`worse_than_baseline`).
    """

    before: ContextOutcome
    cache_hit: bool
    reusable_tokens: int
    total_tokens: int
    first_cause: str
    more_causes: int = 0
    worse_servers: tuple[ServerWorse, ...] = ()

    @property
    def worse(self) -> bool:
        """Disclosure is worse than the baseline's at this length (:func:`worse_than_baseline`)."""
        return bool(self.worse_servers)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"before": self.before.to_dict(), "cache_hit": self.cache_hit,
                "reusable_tokens": self.reusable_tokens, "total_tokens": self.total_tokens,
                "first_cause": self.first_cause, "more_causes": self.more_causes,
                "worse": self.worse, "worse_servers": [w.to_dict() for w in self.worse_servers]}


@dataclass(frozen=True)
class LengthCheck:
    """The goal at one context length: the outcome, why it fails (empty: it holds), the change
    against the baseline (``None`` without one), and the goal checked there."""

    outcome: ContextOutcome
    failures: tuple[str, ...]
    change: BaselineChange | None = None
    goal: str = ""
    #: the ``--except`` servers the listing collapses to a summary line here, in collapse order
    #: (the goal holds without them; a reader should see which ones it let go)
    excepted_collapsed: tuple[str, ...] = ()
    #: the same failures as :class:`Miss` values, in the same order (what :func:`failure_lines` groups)
    misses: tuple[Miss, ...] = ()
    #: the change made disclosure worse than the baseline here (a ``worse`` :class:`Miss`), or
    #: ``None``; it is among :attr:`misses` and :attr:`failures` only with ``fail_on_worse``
    worse: Miss | None = None
    #: the model-visible tools array with this length's listing (tokens, the ladder's tokenizer:
    #: :meth:`toolsearch.analysis.sweep.Ladder.request_tokens`), what ``no request fits`` and
    #: ``reserve missed`` judge; ``None`` where it is not weighed
    tools_tokens: int | None = None

    @property
    def holds(self) -> bool:
        """The goal holds at this length."""
        return not self.failures

    @property
    def failing_servers(self) -> tuple[str, ...]:
        """The servers whose collapse to a summary line makes the goal fail here: the ``--keep``
        servers collapsed, then the collapsed servers no ``--except`` covers, in collapse order,
        each once; empty where the goal holds or fails for another reason (size, headroom,
        baseline). The row of ``check``'s table names them beside the excepted ones, so it never
        names only the servers the goal let go."""
        return tuple(dict.fromkeys(s for m in self.misses if m.kind in ("keep", "goal") for s in m.servers))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: the outcome's keys, ``goal``, ``tools_tokens``, ``holds``, ``failures``,
        ``failing_servers``, ``excepted_collapsed`` and ``baseline`` (or null)."""
        return {**self.outcome.to_dict(), "goal": self.goal, "tools_tokens": self.tools_tokens, "holds": self.holds, "failures": list(self.failures),
                "failing_servers": list(self.failing_servers), "excepted_collapsed": list(self.excepted_collapsed),
                "baseline": self.change.to_dict() if self.change else None}


@dataclass(frozen=True)
class CheckResult:
    """The check over every listed context length (see :func:`check_catalog`).

    Attributes:
        goal, max_listing_tokens: what was asked; ``except_servers`` / ``keep_servers``: the
            per-server requirements asked with it (as ``recommend --except`` / ``--keep``);
            ``headroom_pct``: the room (%) the budget must leave above the listing at every length
            (as ``recommend --headroom``).
        threshold_pct, listing_max_tokens: the settings checked (%, tokens).
        planning_tokenizer: the tokenizer that decides whether a listing fits.
        lengths: one :class:`LengthCheck` per context length, in the order given.
        suggestion: when the goal fails somewhere, the settings that reach it everywhere
            (:func:`toolsearch.analysis.recommend.recommend_for_contexts`); else ``None``. Its
            ``reached`` is false, with the reason, when no setting reaches the goal everywhere or
            when the smallest listing that does is over ``max_listing_tokens``.
        length_goals: per-length goals where they differ from ``goal``
            (:data:`toolsearch.analysis.recommend.LengthGoals`).
        baseline_config: the settings the baseline catalog was planned with (the config before
            the change), or ``None`` without a baseline.
        fail_on_worse: a change that makes disclosure worse than the baseline fails the check.
        keep_forces: with ``keep_servers``, the servers keeping them named keeps named too and what
            it costs, in words, as ``recommend`` says it
            (:attr:`toolsearch.analysis.recommend.MultiRecommendation.keep_forces`); ``""`` otherwise.
        reserve_pct: the share (%) of every context length the tools array had to leave free (as
            ``recommend --reserve``); 0: none.
    """

    goal: str
    max_listing_tokens: int | None
    threshold_pct: float
    listing_max_tokens: int
    planning_tokenizer: str
    lengths: tuple[LengthCheck, ...]
    suggestion: MultiRecommendation | None
    except_servers: tuple[str, ...] = ()
    keep_servers: tuple[str, ...] = ()
    headroom_pct: float = 0.0
    length_goals: LengthGoals = ()
    baseline_config: ToolSearchConfig | None = None
    fail_on_worse: bool = False
    keep_forces: str = ""
    reserve_pct: float = 0.0

    @property
    def goal_words(self) -> str:
        """The goal with its per-length goals and per-server requirements, in words (as
        ``recommend`` says it: :func:`toolsearch.analysis.recommend.goal_statement`)."""
        return goal_statement(self.goal, self.length_goals, self.except_servers, self.keep_servers,
                              [c.outcome.context_length for c in self.lengths])

    @property
    def passed(self) -> bool:
        """The goal holds at every listed context length."""
        return all(c.holds for c in self.lengths)

    def to_dict(self) -> dict[str, Any]:
        """The ``check --format json`` object (``missed``: :func:`missed_conditions`)."""
        return {"passed": self.passed, "goal": self.goal, "goal_words": self.goal_words,
                "except": list(self.except_servers), "keep": list(self.keep_servers), "headroom_pct": self.headroom_pct,
                "reserve_pct": self.reserve_pct, "max_listing_tokens": self.max_listing_tokens, "fail_on_worse": self.fail_on_worse,
                "keep_forces": self.keep_forces,
                "threshold_pct": self.threshold_pct,
                "listing_max_tokens": self.listing_max_tokens, "planning_tokenizer": self.planning_tokenizer,
                "baseline_settings": None if self.baseline_config is None else {
                    "threshold_pct": self.baseline_config.threshold_pct,
                    "listing_max_tokens": self.baseline_config.listing_max_tokens,
                    "enabled": self.baseline_config.enabled, "listing": self.baseline_config.listing},
                "missed": list(missed_conditions(self)),
                "contexts": [c.to_dict() for c in self.lengths],
                "suggestion": self.suggestion.to_dict() if self.suggestion else None}


def _change(baseline: Inspector, inspector: Inspector, config: ToolSearchConfig, context_length: int | None,
            tokenizer: str, before: ContextOutcome, baseline_config: ToolSearchConfig,
            worse: tuple[ServerWorse, ...] = ()) -> BaselineChange:
    diff = compare(Side(baseline, baseline_config, context_length, tokenizer, "baseline"),
                   Side(inspector, config, context_length, tokenizer, "new"))
    cause = diff.causes[0].message if diff.causes else ""
    return BaselineChange(before=before, cache_hit=diff.cache_hit, reusable_tokens=diff.reusable.tokens,
                          total_tokens=diff.reusable.total_tokens_b, first_cause=str(cause),
                          more_causes=max(len(diff.causes) - 1, 0), worse_servers=worse)


def server_states(ladder: Ladder, outcome: ContextOutcome) -> dict[str, str]:
    """Server name → its state at one context length (``outcome`` read off ``ladder``): ``visible``
    for a server whose tools are all sent with their schemas (every server at tier 0), else the
    listing's ``full``, ``names``, ``summary`` or ``hidden``; every server with a registered tool."""
    states = dict.fromkeys(ladder.registered, "visible")
    if outcome.tier != 0:
        states.update(ladder.states_of(ladder.step_at(outcome.budget)))
    return states


def worse_than_baseline(ladder: Ladder, outcome: ContextOutcome, baseline_ladder: Ladder,
                        before: ContextOutcome) -> tuple[ServerWorse, ...]:
    """The servers a change makes the model see worse at one context length.

    A server's state, best to worst (:data:`STATE_RANK`): ``visible`` (its schemas sent; at tier 0,
    every server), ``full`` (listed with short descriptions), ``names``, ``summary`` (one summary
    line), ``hidden`` (not in the listing). Disclosure is worse when a server both catalogs have
    (by name, with at least one registered tool on each side) is in a worse state than in the
    baseline. So a higher tier (docs/reference.md §5.5) is worse whenever it costs such a server:
    0 → 1 (its schemas were sent, now it is deferred), 1 → 2 (its tool names were listed, now at
    most a summary line). A server only one side has is not compared (a new server is judged by
    the goal), so a tier that rises only with servers the baseline did not have (a baseline with no
    catalog yet) is not worse; and the listing's size alone never is: more tools in the same states
    is growth.

    Args:
        ladder, outcome: the new catalog's listing ladder and its outcome at this length.
        baseline_ladder, before: the baseline's, at the same length.

    Returns:
        The servers in a worse state, in the new catalog's order; empty when none is.
    """
    now, then = server_states(ladder, outcome), server_states(baseline_ladder, before)
    return tuple(ServerWorse(name, then[name], state) for name, state in now.items()
                 if name in then and STATE_RANK[state] > STATE_RANK[then[name]])


def _tier_words(outcome: ContextOutcome) -> str:
    """``tier 1 (names)``; ``tier 0 (every schema sent)``."""
    return "tier 0 (every schema sent)" if outcome.tier == 0 else \
        f"tier {outcome.tier} ({form_word(outcome.listing_form)})"


def _worse_miss(change: BaselineChange, outcome: ContextOutcome) -> Miss | None:
    """The ``worse`` :class:`Miss` of one length: one sentence with the tier before and after (when
    it rose) and each server seen worse with its state before and after (at most ten, then ``and N
    more``; a name holding a line break with it as a marker: the sentence is one line, in JSON too)."""
    if not change.worse:
        return None
    parts = []
    if outcome.tier > change.before.tier:
        parts.append(f"{_tier_words(change.before)} → {_tier_words(outcome)}")
    servers = change.worse_servers
    if servers:
        shown = ", ".join(f"{reveal_line(w.name)} ({form_word(w.before)} → {form_word(w.after)})"
                          for w in servers[:_NAMED_MAX])
        more = f" and {len(servers) - _NAMED_MAX} more" if len(servers) > _NAMED_MAX else ""
        parts.append(f"{'server' if len(servers) == 1 else 'servers'} listed worse: {shown}{more}")
    sentence = "worse than the baseline: " + "; ".join(parts)
    return Miss("worse", sentence, tuple(w.name for w in servers), detail=sentence)


def _within_limit(suggestion: MultiRecommendation, max_listing_tokens: int | None) -> MultiRecommendation:
    """``suggestion`` (the cheapest setting that reaches the goal: at each length the smallest
    listing the goal allows) marked not reached when that listing is still over
    ``max_listing_tokens`` somewhere: then no setting passes the check, and its settings must not be
    offered as ones that do."""
    if max_listing_tokens is None or not suggestion.reached:
        return suggestion
    over = [o for o in suggestion.contexts if o.tier != 0 and o.listing_tokens > max_listing_tokens]
    if not over:
        return suggestion
    where = ", ".join(f"{o.listing_tokens:,} tokens {at_length(o.context_length)}" for o in over)
    return replace(suggestion, reached=False,
                   reason=f"the smallest listing that reaches the goal is {where}, above the limit of "
                          f"{max_listing_tokens:,} tokens (--max-listing-tokens)")


def check_catalog(inspector: Inspector, config: ToolSearchConfig, context_lengths: Sequence[int | None], goal: str,
                  tokenizer: str, *, max_listing_tokens: int | None = None,
                  baseline: Inspector | None = None, except_servers: Sequence[str] = (),
                  keep_servers: Sequence[str] = (), headroom_pct: float = 0.0,
                  length_goals: Mapping[int | None, str] | None = None,
                  baseline_config: ToolSearchConfig | None = None,
                  called: Sequence[Any] | None = None, fail_on_worse: bool = False,
                  reserve_pct: float = 0.0) -> CheckResult:
    """Check ``goal`` at every context length with ``config``'s threshold_pct and listing_max_tokens.

    Args:
        inspector: the registered catalog to check.
        config: the settings (threshold_pct %, listing_max_tokens tokens, enabled, listing, defer).
        context_lengths: tokens (``None`` = unknown), at least one; results keep this order.
        goal: one of :data:`GOALS` (``full``, ``names``, ``listed``, ``any``).
        tokenizer: the planning tokenizer.
        max_listing_tokens: also require the listing to be at most this many tokens.
        baseline: the catalog before a change, registered the same way; adds a
            :class:`BaselineChange` per length.
        baseline_config: the settings before the change (the old harness config), for the
            baseline; ``None``: ``config``, so only the catalog changed. A change of settings
            alone then shows as a change of listing and prompt-cache prefix.
        except_servers / keep_servers: per-server requirements, as in
            :func:`toolsearch.analysis.recommend.recommend_for_contexts` (servers that may collapse
            to a summary line under goal ``names``; servers that must stay at names or better).
        headroom_pct: 0 to 1000 (%): where something is listed, the budget must be at least this
            much above the listing (:func:`toolsearch.analysis.recommend.budget_with_headroom`), the
            room ``recommend --headroom`` chose; the suggestion keeps it too.
        length_goals: a goal per context length where it differs from ``goal`` (as
            :func:`toolsearch.analysis.recommend.recommend_for_contexts` takes them); each length
            is checked against its own goal, and the suggestion reaches each length's goal.
        called: the deferred tools recorded sessions called
            (:func:`toolsearch.analysis.sessions.called_tools`, as ``check --keep-called`` reads
            them): each length's outcome then has ``called_listed``, ``called_total`` and
            ``searches_saved``, counted as ``recommend --sessions`` counts them
            (:func:`toolsearch.analysis.recommend.with_listing_evidence`).
        fail_on_worse: a length where the change makes disclosure worse than the baseline
            (:func:`worse_than_baseline`) fails too, with a ``worse`` :class:`Miss`. The
            suggestion answers the other misses only: it is ``None`` when only this one fails.
        reserve_pct: 0 to 90 (%): the share of every context length the tools array must leave free
            (:attr:`toolsearch.analysis.sweep.Ladder.reserve_pct`, ``recommend --reserve``); a length whose
            request leaves less fails with a ``fit`` :class:`Miss`, and the suggestion keeps it too.

    Raises:
        ValueError: an unknown goal, no context length, a headroom outside 0 to 1000 %, a
            per-length goal for a length not in ``context_lengths``, ``fail_on_worse``
            without a baseline, or a reserve outside 0 to 90 %.
        TokenizerError: an unknown tokenizer name.
    """
    if goal not in GOAL_FORMS:
        raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {goal!r}")
    if not context_lengths:
        raise ValueError("at least one context length is needed")
    if not 0 <= headroom_pct <= 1000:
        raise ValueError(f"headroom must be 0 to 1000 %, got {headroom_pct!r}")
    if fail_on_worse and baseline is None:
        raise ValueError("fail_on_worse needs a baseline: worse than what?")
    lengths = list(context_lengths)
    per_length = length_goals_for(goal, length_goals, lengths)
    ladder = listing_ladder(inspector.planner, config, tokenizer, reserve_pct)
    now = outcomes(ladder, config.threshold_pct, config.listing_max_tokens, lengths)
    if called is not None:
        now = tuple(with_listing_evidence(o, ladder, called) for o in now)
    before: tuple[ContextOutcome, ...] = ()
    old = config if baseline_config is None else baseline_config
    if baseline is not None:
        old_ladder = listing_ladder(baseline.planner, old, tokenizer)
        before = outcomes(old_ladder, old.threshold_pct, old.listing_max_tokens, lengths)
    except_servers, keep_servers = tuple(dict.fromkeys(except_servers)), tuple(dict.fromkeys(keep_servers))

    def misses(o: ContextOutcome) -> tuple[Miss, ...]:
        here = goal_at(goal, per_length, o.context_length)
        found = []
        # no request fits this length whatever the settings: said as recommend says it, which leaves it out
        unfit = unfit_lengths(ladder, [o.context_length])
        found += [Miss("fit" if tools_array_too_large(u.tools_tokens, u.context_length) else "reserve", u.reason,
                       figure=u.context_length) for u in unfit]
        request = ladder.request_tokens(o.budget)
        if (not unfit and request is not None and o.context_length is not None and o.context_length > 0
                and (tools_array_too_large(request, o.context_length) or request > ladder.request_space(o.context_length))):
            # the listing these settings choose makes the request longer than the context (less its reserve):
            # recommend never answers with such a budget (Ladder.request_limit), so check fails it too
            found.append(Miss("fit" if tools_array_too_large(request, o.context_length) else "reserve",
                              request_overflow_words(request, ladder.bare_tokenizer or ladder.planning_tokenizer,
                                                            o.context_length, ladder.reserve_pct,
                                                            ladder.reserve_tokens(o.context_length)),
                              figure=o.context_length or 0))
        # read off the ladder, so a failure names the servers the listing collapsed
        req = requirement_misses(ladder, o, here, except_servers, keep_servers)
        if req is not None and req.lost:
            found.append(Miss("keep", f"{lost_words(req.lost)} within a budget of {o.budget:,} tokens", req.lost))
        if req is not None and req.goal_missed:
            found.append(Miss("goal", f"the listing is {o.outcome or form_word(o.listing_form)}, tier {o.tier}, within a budget "
                                      f"of {o.budget:,} tokens; the goal needs {req.needs_words}"
                                      + collapsed_words(req.collapsed, req.excepting),
                              req.collapsed, req.needs_words, words="except" if req.excepting else ""))
        if o.tier != 0 and max_listing_tokens is not None and o.listing_tokens > max_listing_tokens:
            found.append(Miss("size", f"the listing is {o.listing_tokens:,} tokens, above the limit of "
                                      f"{max_listing_tokens:,}", figure=max_listing_tokens))
        room = _headroom_miss(o, headroom_pct, here, ladder, except_servers, keep_servers)
        return (*found, *(() if room is None else (room,)))

    name_of = {s.label: s.name for s in ladder.servers}

    def excepted_collapsed(o: ContextOutcome) -> tuple[str, ...]:
        step = ladder.step_at(o.budget) if o.tier != 0 and except_servers else None
        return tuple(name_of[lab] for lab in (step.collapsed if step is not None else ())
                     if name_of.get(lab) in except_servers)

    found = [misses(o) for o in now]
    changes = [_change(baseline, inspector, config, o.context_length, tokenizer, before[i], old,
                       worse_than_baseline(ladder, o, old_ladder, before[i]))
               if baseline is not None else None for i, o in enumerate(now)]
    worse = [_worse_miss(change, o) if change is not None else None for change, o in zip(changes, now)]
    gated = [(*found[i], worse[i]) if fail_on_worse and worse[i] is not None else found[i] for i in range(len(now))]
    checks = tuple(LengthCheck(o, tuple(m.sentence for m in gated[i]), changes[i],
                               goal_at(goal, per_length, o.context_length), excepted_collapsed(o), gated[i], worse[i],
                               ladder.request_tokens(o.budget))
                   for i, o in enumerate(now))
    suggestion = None
    # the recommendation for this goal, as recommend computes it: the suggestion when the goal fails,
    # and with servers kept named, what keeping them keeps named besides (said whether or not it fails)
    rec = (recommend_for_contexts(ladder, config, lengths, goal, except_servers=except_servers,
                                  keep_servers=keep_servers, headroom_pct=headroom_pct, length_goals=dict(per_length))
           if any(found) or keep_servers else None)
    if any(found) and rec is not None:  # a setting answers the goal's conditions; none answers "worse than before"
        suggestion = replace(_within_limit(rec, max_listing_tokens), no_tools=servers_without_tools(inspector))
    return CheckResult(goal=goal, max_listing_tokens=max_listing_tokens, threshold_pct=config.threshold_pct,
                       listing_max_tokens=config.listing_max_tokens, planning_tokenizer=ladder.planning_tokenizer,
                       lengths=checks, suggestion=suggestion, except_servers=except_servers,
                       keep_servers=keep_servers, headroom_pct=headroom_pct, length_goals=per_length,
                       baseline_config=old if baseline is not None else None, fail_on_worse=fail_on_worse,
                       keep_forces=rec.keep_forces if rec is not None else "", reserve_pct=ladder.reserve_pct)


def _joined(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _each(values: Sequence[str]) -> str:
    """The value when every length has the same, else each length's value, in order."""
    return values[0] if len(set(values)) == 1 else _joined(values)


def _numbers(lengths: Sequence[int | None]) -> str:
    """``4K, 8K and 16K``: each length as :func:`length_label` writes it (``12,345 tokens``,
    ``unknown``), the unit said once when every one of them needs it (``4,600 and 4,800 tokens``)."""
    labels = [length_label(n) for n in lengths]
    if all(n and not label.endswith(("K", "M")) for n, label in zip(lengths, labels)):
        return f"{_joined([f'{n:,}' for n in lengths])} {'token' if list(lengths) == [1] else 'tokens'}"
    return _joined(labels)


def _at_lengths(lengths: Sequence[int | None]) -> str:
    """``at 32K``, ``at 4K, 8K and 16K``, ``at 4,600 and 4,800 tokens`` (:func:`_numbers`: each
    length as ``recommend`` and the table above the lines write it), ``at an unknown context
    length`` (and ``… and at 32K``)."""
    known = [n for n in lengths if n]
    parts = (["an unknown context length"] if len(known) < len(lengths) else []) + (
        [_numbers(known)] if known else [])
    return "at " + " and at ".join(parts)


def _budgets(outcomes_: Sequence[ContextOutcome]) -> str:
    values = [f"{o.budget:,}" for o in outcomes_]
    return f"a budget of {values[0]} tokens" if len(set(values)) == 1 else f"budgets of {_joined(values)} tokens"


def _collapsed_by_length(misses: Sequence[tuple[ContextOutcome, Miss]]) -> str:
    """The servers collapsed at several lengths, each named once: those collapsed at every one of
    them first, then ``also at 4K and 8K: …`` (a shorter length's budget collapses more)."""
    lengths = [o.context_length for o, _ in misses]
    where: dict[str, list[int | None]] = {}
    for _, m in sorted(misses, key=lambda pair: -len(pair[1].servers)):  # the longest list gives the order
        for server in m.servers:
            where.setdefault(server, [])
    for o, m in misses:
        for server in m.servers:
            where[server].append(o.context_length)
    if not where:
        return ""
    groups: list[tuple[tuple[int | None, ...], list[str]]] = []
    for server, at in where.items():
        key = tuple(n for n in lengths if n in at)
        if groups and groups[-1][0] == key:
            groups[-1][1].append(server)
        else:
            groups.append((key, [server]))
    parts, shown = [], 0
    for key, servers in groups:
        take = servers[:max(_NAMED_MAX - shown, 0)]
        if not take:
            break
        shown += len(take)
        names = ", ".join(map(reveal_line, take))  # a sentence is one line (JSON failures too)
        parts.append(names if list(key) == lengths else f"{'also ' if parts else ''}at {_numbers(key)}: {names}")
    text = "; ".join(parts)
    if shown < len(where):
        text += f" and {len(where) - shown} more"
    return (f" (collapsed and not excepted: {text})" if misses[0][1].words == "except"
            else f" (collapsed to a summary line: {text})")


def _grouped(kind: str, misses: Sequence[tuple[ContextOutcome, Miss]]) -> str:
    """One sentence for one condition missed at several lengths (in the order given)."""
    outs = [o for o, _ in misses]
    first = misses[0][1]
    if kind == "worse":  # the same sentence at every one of them (its condition)
        return first.sentence
    if kind == "keep":
        return f"{lost_words(first.servers)} within {_budgets(outs)}"
    if kind == "goal":
        named = ""
        if len({o.servers_total for o in outs}) == 1 and outs[0].servers_total:
            named = f"; {_each([f'{o.servers_named:,}' for o in outs])} of {outs[0].servers_total:,} servers named"
        by_form: dict[tuple[str, int], list[ContextOutcome]] = {}
        for o in outs:
            by_form.setdefault((o.listing_form, o.tier), []).append(o)
        if len(by_form) > 1:
            # each form with its lengths: "none and mixed (tier 2 and 1; …)" left the reader to pair them up
            parts = []
            for (form, tier), group in by_form.items():
                total = group[0].servers_total
                counts = (f"; {_each([f'{o.servers_named:,}' for o in group])} of {total:,} servers named"
                          if total and len({o.servers_total for o in group}) == 1 else "")
                parts.append(f"{form_word(form)} {_at_lengths([o.context_length for o in group])} "
                             f"(tier {tier}{counts}; {_budgets(group)})")
            return (f"the listing is {_joined(parts)}; the goal needs {first.detail}"
                    + _collapsed_by_length(misses))
        return (f"the listing is {_each([form_word(o.listing_form) for o in outs])} "
                f"(tier {_each([str(o.tier) for o in outs])}{named}) within {_budgets(outs)}; the goal needs "
                f"{first.detail}" + _collapsed_by_length(misses))
    if kind == "size":
        return (f"the listing is {_each([f'{o.listing_tokens:,}' for o in outs])} tokens, above the limit of "
                f"{first.figure:,}")
    # headroom: the budgets, the room they leave and what the headroom needs, each length in order
    if len({(o.budget, o.listing_tokens, m.figure) for o, m in misses}) == 1:
        return first.sentence
    return (f"the budgets of {_joined([f'{o.budget:,}' for o in outs])} tokens leave "
            f"{_joined([f'{o.headroom_tokens:,}' for o in outs])} tokens above the listings of "
            f"{_joined([f'{o.listing_tokens:,}' for o in outs])} tokens; {first.words} headroom needs budgets of "
            f"at least {_joined([f'{m.figure:,}' for _, m in misses])}{first.detail}")


def _condition_lines(pairs: Sequence[tuple[ContextOutcome, Miss]]) -> tuple[tuple[str, str], ...]:
    """``(kind, line)`` per condition among ``pairs`` (one length's outcome and one of its misses,
    in the lengths' order), each line naming the lengths it is missed at."""
    groups: dict[tuple[Any, ...], list[tuple[ContextOutcome, Miss]]] = {}
    for outcome, miss in pairs:
        groups.setdefault(miss.condition, []).append((outcome, miss))
    lines = []
    for condition, misses in groups.items():
        text = misses[0][1].sentence if len(misses) == 1 else _grouped(condition[0], misses)
        lines.append((condition[0], f"{_at_lengths([o.context_length for o, _ in misses])}: {text}"))
    return tuple(lines)


def failing_at(result: CheckResult) -> str:
    """Where the check fails, for its verdict: the lengths it fails at when it holds at others, as
    :func:`failure_lines` words them (``at 16K``, ``at 4K and 12,345 tokens``); ``at every length``
    when it fails at each of several; ``""`` when it passes or only one length is checked."""
    failing = [c.outcome.context_length for c in result.lengths if not c.holds]
    if not failing or len(result.lengths) == 1:
        return ""
    return "at every length" if len(failing) == len(result.lengths) else _at_lengths(failing)


def failure_items(result: CheckResult) -> tuple[tuple[str, str], ...]:
    """:func:`failure_lines` with each line's :attr:`Miss.kind` (``keep``, ``goal``, ``size``,
    ``headroom``, ``worse``), as ``(kind, line)`` pairs in the same order."""
    return _condition_lines([(c.outcome, m) for c in result.lengths for m in c.misses])


def failure_lines(result: CheckResult) -> tuple[str, ...]:
    """Why the check fails, one line per condition missed, each naming the context lengths it is
    missed at (``at 4K, 8K and 16K: github must stay named but …``), in the order
    the lengths and their failures come; empty when it passes. A condition missed at one length
    reads as that length's :attr:`LengthCheck.failures` sentence; at several, one sentence gives
    each length's figures in the order of the lengths (the table above it gives the rest)."""
    return tuple(line for _, line in failure_items(result))


def missed_conditions(result: CheckResult) -> tuple[str, ...]:
    """The kinds of condition the check misses, as :data:`MISS_WORDS` says them, each once, in the
    order :func:`failure_lines` gives them (``("goal missed", "listing over the limit")``); empty
    when it passes. Every format's verdict names them (``--format json``: ``missed``)."""
    return tuple(dict.fromkeys(MISS_WORDS[kind] for kind, _ in failure_items(result)))


def checked_words(result: CheckResult) -> str:
    """Everything the check asks at each length, in words: the goal (:attr:`CheckResult.goal_words`),
    then ``listing at most 3,000 tokens``, ``10% headroom`` and ``no worse than the baseline``
    when they were asked (``--max-listing-tokens``, ``--headroom``, ``--fail-on-worse``)."""
    words = result.goal_words
    if result.max_listing_tokens is not None:
        words += f"; listing at most {result.max_listing_tokens:,} tokens"
    if result.headroom_pct:
        words += f"; {result.headroom_pct:g}% headroom"
    if result.reserve_pct:
        words += f"; {reserved_words(result.reserve_pct)}"
    if result.fail_on_worse:
        words += "; no worse than the baseline"
    return words


def verdict_words(result: CheckResult, lengths: bool = True) -> str:
    """What the verdict line says after ``toolsearch check passed:`` / ``failed …:``: when it passes,
    what was checked (:func:`checked_words`); when it fails, the conditions missed
    (:func:`missed_conditions`) first, then ``· checked`` and what was checked, so a line never
    reads as if the conditions that held were the ones missed. With ``lengths``, the context lengths
    checked end it (``at 32K, 200K``; ``; at 32K, 200K`` after the servers kept named), unless per-length
    goals name them already."""
    words = checked_words(result)
    if lengths and not result.length_goals:  # per-length goals name their lengths
        labels = ", ".join(length_label(c.outcome.context_length) for c in result.lengths)
        known = all(c.outcome.context_length for c in result.lengths)
        # after the kept servers' list, " at 32K" would read as one more server's requirement
        words += ("; " if result.keep_servers else " ") + (f"at {labels}" if known else f"at the context lengths {labels}")
    missed = missed_conditions(result)
    return f"{_joined(missed)} · checked {words}" if missed else words


def worse_lines(result: CheckResult) -> tuple[str, ...]:
    """Where the change makes disclosure worse than the baseline, one line per sentence naming
    the lengths it holds at, as :func:`failure_lines` words them; with or without
    ``fail_on_worse`` (empty without a baseline or when nothing got worse)."""
    return tuple(line for _, line in _condition_lines([(c.outcome, c.worse) for c in result.lengths
                                                       if c.worse is not None]))
