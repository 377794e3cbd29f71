"""Does a catalog meet a disclosure goal at every context length a config serves? (``toolsearch check``)

A gate for a build: with the config's ``threshold_pct`` and ``listing_max_tokens``, each listed
context length gets a budget, a tier and a listing form (read off the listing ladder of
:mod:`toolsearch.analysis.sweep`, as :mod:`toolsearch.analysis.recommend` does). The goal holds at a
length when the form is the goal's form or better, and, with a listing-size limit, when the
listing is no larger. When tool search is not active at all (tier 0) every tool is sent with its
full schema, which is more than any goal asks, so the goal holds there.

With a baseline catalog (the catalog before a change), each length also says what changed: tier,
form, listing tokens, and how much of the model-visible prefix a prompt cache filled with the
baseline's tools array could still reuse (:func:`toolsearch.analysis.cachediff.compare`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from ..engine.config import ToolSearchConfig
from ..engine.inspector import Inspector
from .cachediff import Side, compare
from .recommend import GOAL_FORMS, GOALS, ContextOutcome, LengthGoals, MultiRecommendation, budget_with_headroom, \
    smaller_listing_keeps_headroom, \
    at_length, goal_at, goal_statement, length_goals_for, outcomes, recommend_for_contexts, requirement_failures
from .quantities import form_word
from .sweep import FORM_RANK, listing_ladder

__all__ = ["GOALS", "LengthCheck", "BaselineChange", "CheckResult", "goal_failures", "headroom_failures",
           "check_catalog"]


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
        failures.append(f"the listing is {shown} (tier {outcome.tier}) within a budget of "
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
    if not headroom_pct or outcome.tier == 0 or outcome.listing_tokens == 0:
        return ()
    needed = budget_with_headroom(outcome.listing_tokens, headroom_pct)
    if outcome.budget >= needed:
        return ()
    smaller = ""
    if goal in GOAL_FORMS and FORM_RANK[outcome.listing_form] < FORM_RANK[GOAL_FORMS[goal]] and (
            ladder is None
            or smaller_listing_keeps_headroom(ladder, outcome, goal, headroom_pct, except_servers, keep_servers)):
        smaller = (f", or a smaller one with {headroom_pct:g}% above a smaller listing the goal still accepts "
                   f"(the goal needs {form_word(GOAL_FORMS[goal])}; this listing is {form_word(outcome.listing_form)})")
    return (f"the budget of {outcome.budget:,} tokens leaves {outcome.headroom_tokens:,} tokens above the "
            f"{outcome.listing_tokens:,}-token listing; {headroom_pct:g}% headroom needs a budget of at least "
            f"{needed:,}{smaller}",)


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
    """

    before: ContextOutcome
    cache_hit: bool
    reusable_tokens: int
    total_tokens: int
    first_cause: str
    more_causes: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"before": self.before.to_dict(), "cache_hit": self.cache_hit,
                "reusable_tokens": self.reusable_tokens, "total_tokens": self.total_tokens,
                "first_cause": self.first_cause, "more_causes": self.more_causes}


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

    @property
    def holds(self) -> bool:
        """The goal holds at this length."""
        return not self.failures

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: the outcome's keys, ``holds``, ``failures``, ``excepted_collapsed`` and
        ``baseline`` (or null)."""
        return {**self.outcome.to_dict(), "goal": self.goal, "holds": self.holds, "failures": list(self.failures),
                "excepted_collapsed": list(self.excepted_collapsed),
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
        """The ``check --format json`` object."""
        return {"passed": self.passed, "goal": self.goal, "goal_words": self.goal_words,
                "except": list(self.except_servers), "keep": list(self.keep_servers), "headroom_pct": self.headroom_pct,
                "max_listing_tokens": self.max_listing_tokens, "threshold_pct": self.threshold_pct,
                "listing_max_tokens": self.listing_max_tokens, "planning_tokenizer": self.planning_tokenizer,
                "baseline_settings": None if self.baseline_config is None else {
                    "threshold_pct": self.baseline_config.threshold_pct,
                    "listing_max_tokens": self.baseline_config.listing_max_tokens,
                    "enabled": self.baseline_config.enabled, "listing": self.baseline_config.listing},
                "contexts": [c.to_dict() for c in self.lengths],
                "suggestion": self.suggestion.to_dict() if self.suggestion else None}


def _change(baseline: Inspector, inspector: Inspector, config: ToolSearchConfig, context_length: int | None,
            tokenizer: str, before: ContextOutcome, baseline_config: ToolSearchConfig) -> BaselineChange:
    diff = compare(Side(baseline, baseline_config, context_length, tokenizer, "baseline"),
                   Side(inspector, config, context_length, tokenizer, "new"))
    cause = diff.causes[0].message if diff.causes else ""
    return BaselineChange(before=before, cache_hit=diff.cache_hit, reusable_tokens=diff.reusable.tokens,
                          total_tokens=diff.reusable.total_tokens_b, first_cause=str(cause),
                          more_causes=max(len(diff.causes) - 1, 0))


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
                  baseline_config: ToolSearchConfig | None = None) -> CheckResult:
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

    Raises:
        ValueError: an unknown goal, no context length, a headroom outside 0 to 1000 %, or a
            per-length goal for a length not in ``context_lengths``.
        TokenizerError: an unknown tokenizer name.
    """
    if goal not in GOAL_FORMS:
        raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {goal!r}")
    if not context_lengths:
        raise ValueError("at least one context length is needed")
    if not 0 <= headroom_pct <= 1000:
        raise ValueError(f"headroom must be 0 to 1000 %, got {headroom_pct!r}")
    lengths = list(context_lengths)
    per_length = length_goals_for(goal, length_goals, lengths)
    ladder = listing_ladder(inspector.planner, config, tokenizer)
    now = outcomes(ladder, config.threshold_pct, config.listing_max_tokens, lengths)
    before: tuple[ContextOutcome, ...] = ()
    old = config if baseline_config is None else baseline_config
    if baseline is not None:
        before = outcomes(listing_ladder(baseline.planner, old, tokenizer), old.threshold_pct,
                          old.listing_max_tokens, lengths)
    except_servers, keep_servers = tuple(dict.fromkeys(except_servers)), tuple(dict.fromkeys(keep_servers))

    def failures(o: ContextOutcome) -> tuple[str, ...]:
        here = goal_at(goal, per_length, o.context_length)
        room = headroom_failures(o, headroom_pct, here, ladder, except_servers, keep_servers)
        # read off the ladder, so a failure names the servers the listing collapsed
        size = () if o.tier == 0 or max_listing_tokens is None or o.listing_tokens <= max_listing_tokens else (
            f"the listing is {o.listing_tokens:,} tokens, above the limit of {max_listing_tokens:,}",)
        return (*requirement_failures(ladder, o, here, except_servers, keep_servers), *size, *room)

    name_of = {s.label: s.name for s in ladder.servers}

    def excepted_collapsed(o: ContextOutcome) -> tuple[str, ...]:
        step = ladder.step_at(o.budget) if o.tier != 0 and except_servers else None
        return tuple(name_of[lab] for lab in (step.collapsed if step is not None else ())
                     if name_of.get(lab) in except_servers)

    checks = tuple(LengthCheck(o, failures(o),
                               _change(baseline, inspector, config, o.context_length, tokenizer, before[i], old)
                               if baseline is not None else None, goal_at(goal, per_length, o.context_length),
                               excepted_collapsed(o))
                   for i, o in enumerate(now))
    suggestion = None
    if not all(c.holds for c in checks):
        suggestion = recommend_for_contexts(ladder, config, lengths, goal, except_servers=except_servers,
                                            keep_servers=keep_servers, headroom_pct=headroom_pct,
                                            length_goals=dict(per_length))
        suggestion = _within_limit(suggestion, max_listing_tokens)
    return CheckResult(goal=goal, max_listing_tokens=max_listing_tokens, threshold_pct=config.threshold_pct,
                       listing_max_tokens=config.listing_max_tokens, planning_tokenizer=ladder.planning_tokenizer,
                       lengths=checks, suggestion=suggestion, except_servers=except_servers,
                       keep_servers=keep_servers, headroom_pct=headroom_pct, length_goals=per_length,
                       baseline_config=old if baseline is not None else None)
