"""One ``threshold_pct`` and one ``listing_max_tokens`` for every context length a config serves.

A harness config holds a single ``tools.tool_search`` block for every model the user runs, so a
recommendation has to reach its goal at each of those context lengths at once. Built on the
listing ladder of :mod:`toolsearch.analysis.sweep` (the form depends on the budget alone, docs/reference.md §5.4, and
only gets better as the budget grows), so a recommendation costs one plan.

Why the answer is exact and tight: let B be the smallest budget that reaches the goal. Every
listed context length needs ``min(listing_max_tokens, pct leg) >= B`` (docs/reference.md §4). The smallest cap
is ``max(200, B)``; the percentage leg ``int(c × (pct / 100))`` grows with both the context
length and ``threshold_pct``, so the smallest ``threshold_pct`` on the 0.1 grid is the one that
gives the shortest listed context length a leg of B. Both are the smallest possible values, so
every length gets the smallest budget that reaches the goal, which is also the listing with the
fewest tokens among those that reach it (a larger budget can only pick an earlier, larger
candidate). 0.1 less or 1 token less gives a budget below B at some listed length.

With a goal per context length (for example names at 32K and full from 200K up), each length L
needs its own smallest budget B_L, and the settings need ``min(listing_max_tokens, pct leg at L)
>= B_L`` at every L: the smallest cap is ``max(200, max B_L)`` and the smallest ``threshold_pct``
the largest of the per-length smallest ones. Budgets only grow with the context length, so a
length can get more than its own goal asks (a longer length never gets a smaller budget than a
shorter one); the outcome table shows what each length gets.
"""

from __future__ import annotations

import itertools
import math
import unicodedata
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

import yaml

from ..engine import constants as C
from ..engine.catalog import MAX_NAMED_PROBLEMS
from ..engine.config import ToolSearchConfig, changed_keys
from ..engine.plan import Planner, listing_budget
from ..engine.wording import agree, cap_words, counted, settings_words
from .config_gate import read_settings_words
from .wording import share_cell
from .quantities import tools_array_too_large, tools_array_words
from .quantities import context_share, request_cost_words, context_words, form_word, length_arg, length_in_words, length_label, servers_without_tools  # noqa: F401  (servers_without_tools re-exported)
from ..engine.invisible import quoted, reveal_line
from .sessions import (NO_DEFERRED_CALLED_WORDS, NO_SESSION_READ_WORDS, CalledTool, UncountedCalls, called_not_listed, listing_evidence,
                       mcp_server_of, shown_name, shown_names)
from .sweep import FORM_RANK, Ladder

#: Goals in order from the most demanding to the least, with the worst form that still meets each.
GOAL_FORMS: dict[str, str] = {"full": "full", "names": "names", "listed": "mixed", "any": "groups"}
GOALS: tuple[str, ...] = tuple(GOAL_FORMS)
#: What each goal means, in words (CLI text and app).
GOAL_WORDS: dict[str, str] = {
    "full": "every tool with its short description (form full)",
    "names": "every server at names or better",
    "listed": "tool names listed (tier 1)",
    "any": "some listing (summary lines or better)",
}
#: Resolution of the recommended threshold_pct (%): the answer is exact to this step.
THRESHOLD_PCT_RESOLUTION = 0.1
_PCT_STEPS = round(C.THRESHOLD_PCT_MAX / THRESHOLD_PCT_RESOLUTION)

#: Per-length goals: ``((context length or None, goal), ...)`` in context-length order, only where
#: the goal differs from the default one.
LengthGoals = tuple[tuple["int | None", str], ...]


def length_goals_for(goal: str, length_goals: Mapping[int | None, str] | None,
                     context_lengths: Sequence[int | None]) -> LengthGoals:
    """Check and normalise per-length goals: the ``(length, goal)`` pairs of ``length_goals``
    that differ from ``goal``, in the order of ``context_lengths``.

    Raises:
        ValueError: an unknown goal, or a length that is not among ``context_lengths``.
    """
    for value in (goal, *(length_goals or {}).values()):
        if value not in GOAL_FORMS:
            raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {value!r}")
    lengths = list(context_lengths)
    stray = [c for c in (length_goals or {}) if c not in lengths]
    if stray:
        raise ValueError(f"a goal is given for {', '.join(length_label(c) for c in stray)}, which is not among "
                         f"the context lengths ({', '.join(length_label(c) for c in lengths)})")
    return tuple((c, length_goals[c]) for c in lengths if length_goals and c in length_goals
                 and length_goals[c] != goal)


def goal_at(goal: str, length_goals: LengthGoals, context_length: int | None) -> str:
    """The goal at one context length: its own from ``length_goals``, else ``goal``."""
    return dict(length_goals).get(context_length, goal)


def every_length_words(lengths: Sequence[int | None]) -> str:
    """``at every length``, or with one listed length that length (``at 200K``): "every length" over
    one length reads as if others had been weighed (as :func:`lengths_scope_words` for the verdict)."""
    return f"at {_length_word(lengths[0])}" if len(lengths) == 1 else "at every length"


def goal_statement(goal: str, length_goals: LengthGoals = (), except_servers: Sequence[str] = (),
                   keep_servers: Sequence[str] = (), context_lengths: Sequence[int | None] = ()) -> str:
    """The goal with its per-length goals and per-server requirements, in words, as ``recommend``,
    ``check``, the export block and the Tuning page say it: ``"every server at names or better"``,
    or with per-length goals ``"every server at names or better at 32K; every tool with its short
    description (form full) at 200K and 1M"`` (``context_lengths`` orders them; the lengths of
    ``length_goals`` alone without it). Kept servers (``--keep``) read ``"every server at names or better;
    kept named at every length: github, slack"``, with one goal or per-length goals (``at 200K`` with one
    listed length). Server names are catalog text: invisible characters are
    shown as markers, line breaks too (:func:`toolsearch.engine.invisible.reveal_line`): the words are
    one line, the heading of the verdict."""
    except_servers = [reveal_line(name) for name in except_servers]
    keep_servers = [reveal_line(name) for name in keep_servers]
    lengths = list(context_lengths) or [c for c, _ in length_goals]
    # the servers' requirements hold at every length, not only at the last one named
    everywhere = every_length_words(lengths)
    if length_goals:
        by_goal: dict[str, list[int | None]] = {}
        for c in lengths:
            by_goal.setdefault(goal_at(goal, length_goals, c), []).append(c)
        text = "; ".join(f"{GOAL_WORDS[g]} at {_and(_length_word(c) for c in cs)}" for g, cs in by_goal.items())
        if except_servers:
            text += f"; {everywhere}, {', '.join(except_servers)} may collapse"
    else:
        text = GOAL_WORDS[goal]
        if except_servers:
            text += f", except {', '.join(except_servers)} (may collapse)"
    if keep_servers:  # a list after a colon: "x, y kept named" read as more items of the goal's list
        text += f"; kept named {everywhere}: {', '.join(keep_servers)}"
    return text


def _and(words: Any) -> str:
    items = list(words)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _length_word(n: int | None) -> str:
    """A context length in a sentence (:func:`length_in_words`: ``32K``, ``1M``, and a length that is no
    whole number of thousands with its unit, ``128 tokens``, as the table beside it and ``check`` write it,
    so ``at 128`` does not read as a count of something else), with ``None`` as ``an unknown context
    length`` (after "at" in a list)."""
    return length_in_words(n) if n else "an unknown context length"


def at_length(n: int | None) -> str:
    """``at`` and a context length for sentences (:func:`_length_word`): ``32000`` → ``at 32K``;
    ``None`` (not known) → ``at an unknown context length``."""
    return f"at {_length_word(n)}"


#: A context length's outcome at tier 0 (no listing, no bridge: docs/reference.md §2).
TIER0_WORDS = "tool search not active · every schema sent"

#: Why no goal is reached with ``listing: off`` (the current settings are kept: none lists anything).
LISTING_OFF_REASON = "listing is off, so no listing is ever embedded"

#: What helps then, on every surface that gives :data:`LISTING_OFF_REASON` (``recommend``, ``check``,
#: the report, the exported block): the switch, not a budget, keeps the tools unnamed.
LISTING_OFF_ACTION = ("to list tools, remove listing: off from the tools.tool_search block (its default, auto, "
                      "embeds the listing)")

#: How each surface names the control that keeps room for the listing to grow
#: (:func:`headroom_action_words`): the words that ask for it and an example of a value.
HEADROOM_CONTROLS: Mapping[str, tuple[str, str]] = {
    "cli": ("rerun with --headroom PCT", "--headroom 10"),
    "app": ("set Headroom (%) above 0", "a headroom of 10"),
    "report": ("recommend again with --headroom PCT (the Tuning page's Headroom (%))", "a headroom of 10"),
}


def headroom_action_words(rec: "MultiRecommendation", surface: str = "cli") -> str:
    """What to do about a tight recommendation, in words, after :attr:`MultiRecommendation.growth_words`
    on the headroom line: ``"to keep room for the catalog to grow, rerun with --headroom PCT: --headroom 10
    keeps the budget at least 10% above the listing at every length"``. ``surface`` (``cli``, ``app``,
    ``report``; :data:`HEADROOM_CONTROLS`) names the control as that surface has it. ``""`` when the
    setting is not tight, a headroom was asked already, or nothing is listed (tool search not active,
    ``listing: off``, nothing that fits): no headroom changes those."""
    if (rec.headroom_pct or rec.growth_tokens or rec.inactive or not rec.contexts
            or rec.worst.listing_tokens == 0 or rec.reason == LISTING_OFF_REASON):
        return ""
    control, example = HEADROOM_CONTROLS[surface]
    return (f"to keep room for the catalog to grow, {control}: {example} keeps the budget at least 10% above the "
            f"listing {every_length_words([c.context_length for c in rec.contexts])}")


def request_cost_lines(rec: "MultiRecommendation", planner: Planner, config: ToolSearchConfig) -> list[str]:
    """What the requests cost with the recommended settings (``rec`` applied to ``config``) where that
    matters more than the listing, in the words ``plan``, the Overview page and the report use, one line
    per figure with the listed lengths it holds at: where the tools array alone is larger than the
    context length (:func:`~toolsearch.analysis.quantities.context_overflow_words`: ``"at 500 tokens: the
    tools array alone (699 tokens, chars4) is larger than the context length (500 tokens): no request
    with these settings fits the model"``; a length typed as ``128`` for ``128k`` shows up here), and
    where tool search makes each request larger than sending every schema up front
    (:func:`~toolsearch.analysis.quantities.costs_more_words`: ``"at 128K: tool search adds 653 tokens
    per request here; consider enabled: off"``). ``[]`` when neither holds at any listed length (the
    usual case). Tokens in ``rec``'s planning tokenizer."""
    settings = rec.apply(config)
    by_words: dict[str, list[int | None]] = {}
    for c in rec.contexts:
        plan = planner.plan(settings, c.context_length, tokenizer=rec.planning_tokenizer)
        for words in request_cost_words(plan, c.context_length):
            by_words.setdefault(words, []).append(c.context_length)
    return [f"at {_and(length_in_words(n) if n else _length_word(n) for n in lengths)}: {words}"
            for words, lengths in by_words.items()]

#: What a recommendation says when tool search is not active at any listed length.
INACTIVE_WORDS = ("tool search is not active (enabled: off, or nothing is deferrable): every tool is sent with its "
                  "full schema, so every goal holds; threshold_pct and listing_max_tokens change nothing here, and "
                  "the current settings are kept")


@dataclass(frozen=True)
class UnfitLength:
    """A listed context length no request fits, whatever threshold_pct and listing_max_tokens: the
    tools array with nothing listed (the visible tools and the bridge tools,
    :attr:`toolsearch.analysis.sweep.Ladder.bare_tools_tokens`) is larger than it
    (:func:`~toolsearch.analysis.quantities.tools_array_too_large`, the test the Overview page and
    ``plan`` make). ``recommend`` leaves it out of the answer and says so first; ``check`` fails there.

    Attributes:
        context_length: tokens.
        tools_tokens: the tools array with nothing listed, in ``tokenizer`` (tokens).
        tokenizer: the tokenizer that counted it.
        reserve_pct / reserve_tokens: the share of the length kept free of the tools array
            (:attr:`toolsearch.analysis.sweep.Ladder.reserve_pct`) and those tokens; 0 when nothing is
            reserved (the tools array alone is then larger than the length).
    """

    context_length: int
    tools_tokens: int
    tokenizer: str
    reserve_pct: float = 0.0
    reserve_tokens: int = 0

    @property
    def reason(self) -> str:
        """Why, in words: ``"no setting fits: the tools array alone (699 tokens, chars4) is larger than
        the context length (500 tokens) with nothing listed, so no request fits the model whatever
        threshold_pct and listing_max_tokens"``; ``check`` says it after ``at 500 tokens:``. With a
        reserve: ``"no setting fits: the tools array alone (699 tokens, chars4) leaves less than the 50%
        reserve (250 tokens) of the context length (500 tokens) with nothing listed, so …"``."""
        if self.reserve_tokens:
            array = (f"the tools array alone ({self.tools_tokens:,} tokens, {self.tokenizer}) leaves less than the "
                     f"{reserve_words(self.reserve_pct, self.reserve_tokens)} of the context length "
                     f"({length_label(self.context_length)})")
        else:
            array = tools_array_words(self.tools_tokens, self.tokenizer, self.context_length)
        return (f"no setting fits: {array} with nothing listed, so no request fits the model whatever "
                "threshold_pct and listing_max_tokens")

    @property
    def words(self) -> str:
        """:attr:`reason` as ``recommend``'s first finding says it: ``"at 500 tokens no setting fits: …;
        this length is left out of the answer"``."""
        return f"{at_length(self.context_length)} {self.reason}; this length is left out of the answer"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``context_length``, ``tools_tokens``, ``tokenizer``, ``reserve_tokens`` and ``reason``."""
        return {"context_length": self.context_length, "tools_tokens": self.tools_tokens,
                "tokenizer": self.tokenizer, "reserve_tokens": self.reserve_tokens, "reason": self.reason}


def reserved_words(reserve_pct: float) -> str:
    """A reserve among what was asked (``check``'s verdict, the report's headline, the Report page):
    ``"50% of each context length reserved"``."""
    return f"{reserve_pct:g}% of each context length reserved"


def reserve_words(reserve_pct: float, reserve_tokens: int) -> str:
    """A context length's reserve in words: ``"50% reserve (16,000 tokens)"`` (``reserve_pct`` of the
    length, :meth:`toolsearch.analysis.sweep.Ladder.reserve_tokens`)."""
    return f"{reserve_pct:g}% reserve ({counted(reserve_tokens, 'token')})"


def unfit_lengths(ladder: Ladder, context_lengths: Sequence[int | None]) -> tuple[UnfitLength, ...]:
    """The lengths of ``context_lengths`` (tokens; ``None`` = unknown, never unfit) that no request fits
    whatever the settings (:class:`UnfitLength`), each once, in the order given; ``()`` when every
    length fits a request with nothing listed."""
    found = dict.fromkeys(c for c in context_lengths if c is not None and c > 0
                          and (tools_array_too_large(ladder.bare_tools_tokens, c)
                               or ladder.bare_tools_tokens > ladder.request_space(c)))
    return tuple(UnfitLength(c, ladder.bare_tools_tokens, ladder.bare_tokenizer or ladder.planning_tokenizer,
                             ladder.reserve_pct, ladder.reserve_tokens(c))
                 for c in found)


#: What a recommendation says, instead of settings, when no listed length fits a request.
ALL_UNFIT_RESERVE_REASON = ("no listed context length fits a request that keeps its reserve, whatever threshold_pct and "
                            "listing_max_tokens: the current settings are kept; send fewer tools up front (defer more "
                            "of them), reserve less or list longer context lengths")
ALL_UNFIT_REASON = ("no listed context length fits a request, whatever threshold_pct and listing_max_tokens: "
                    "the current settings are kept; send fewer tools up front (defer more of them) or list "
                    "longer context lengths")


@dataclass(frozen=True)
class ContextOutcome:
    """What one context length gets with given settings.

    Attributes:
        context_length: tokens, or ``None`` for unknown (the percentage leg is then 10,000).
        budget: the listing budget in tokens (docs/reference.md §4).
        tier: 0, 1 or 2 (docs/reference.md §5.5).
        listing_form: ``full`` | ``names`` | ``mixed`` | ``groups`` | ``none``.
        listing_tokens: the listing's size in planning tokens (0 when nothing is listed).
        servers_named: servers at names or better; ``servers_total``: servers with deferred tools.
        tools_named: deferred tools the listing names.
        outcome: the listing in words by counts (:attr:`ListingCounts.label`).
        called_listed / called_total: with recorded sessions, how many of the distinct deferred
            tools the sessions called this listing names, out of how many (``None`` without sessions).
        searches_saved: with sessions, the ``tool_search`` calls the listing would have made
            unnecessary (see :func:`toolsearch.analysis.sessions.called_tools`).
    """

    context_length: int | None
    budget: int
    tier: int
    listing_form: str
    listing_tokens: int
    servers_named: int = 0
    servers_total: int = 0
    tools_named: int = 0
    outcome: str = ""
    called_listed: int | None = None
    called_total: int | None = None
    searches_saved: int | None = None

    @property
    def headroom_tokens(self) -> int:
        """Tokens the listing can grow before it no longer fits the budget."""
        return self.budget - self.listing_tokens

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with the keys above in that order, plus ``headroom_tokens``; the session
        keys only when sessions were given."""
        out = dict(self.__dict__)
        out["headroom_tokens"] = self.headroom_tokens
        if self.called_total is None:
            for key in ("called_listed", "called_total", "searches_saved"):
                out.pop(key)
        return out


@dataclass(frozen=True)
class UnnamedServer:
    """A server the recommended setting does not name at some listed context length.

    Attributes:
        name: the server; ``state``: ``summary`` or ``hidden`` at the worst length.
        tokens_needed: the smallest budget (tokens, headroom included) that names it, ``None``
            when no budget up to 60,000 does.
        reason: why, in words, e.g. ``"cloudflare: naming it needs a budget of 46,241 tokens, more
            than the whole 32K context (32,000 tokens)"``.
    """

    name: str
    state: str
    tokens_needed: int | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with the keys above."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class ShorterLength:
    """A context length recorded sessions ran at that is shorter than every listed context length:
    the recommendation was not asked about it, and a shorter context gets a smaller (never a larger)
    budget, so its listing may name less than any listed length's.

    Attributes:
        outcome: what the recommended settings give at that length (``called_listed`` and
            ``called_total`` count the tools the sessions recorded at it called).
        sessions: how many sessions recorded that length.
        called_not_named: the distinct deferred tools those sessions called that the listing there
            does not name, sorted.
    """

    outcome: ContextOutcome
    sessions: int
    called_not_named: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``context_length``, ``sessions``, ``budget``, ``listing_form``,
        ``listing_tokens``, ``servers_named``, ``servers_total``, ``tools_named``, ``outcome``,
        ``called_listed``, ``called_total`` and ``called_not_named``."""
        o = self.outcome
        return {"context_length": o.context_length, "sessions": self.sessions, "budget": o.budget,
                "listing_form": o.listing_form, "listing_tokens": o.listing_tokens,
                "servers_named": o.servers_named, "servers_total": o.servers_total, "tools_named": o.tools_named,
                "outcome": o.outcome, "called_listed": o.called_listed, "called_total": o.called_total,
                "called_not_named": list(self.called_not_named)}


@dataclass(frozen=True)
class MultiRecommendation:
    """The settings for a goal over several context lengths (see :func:`recommend_for_contexts`).

    Attributes:
        goal: the goal asked for (``full`` | ``names`` | ``listed`` | ``any``).
        reached: the settings reach ``goal`` (with its per-server requirements and headroom) at
            every listed context length.
        reached_goal: the most demanding of the four plain goals the settings reach everywhere
            (``None`` when none).
        threshold_pct: recommended ``threshold_pct`` (%), exact to 0.1.
        listing_max_tokens: recommended ``listing_max_tokens`` (tokens), exact to 1.
        budget_needed: the smallest budget (tokens) the recommended settings are chosen for at
            every length, or ``None`` (with per-length goals: the largest of ``length_budgets``,
            the cap it needs). When ``reached`` is false, the best reachable setting's budget (the
            largest of ``length_budgets`` when it keeps the goal at some lengths).
        goal_budget: the smallest budget (tokens) that reaches the goal, whatever the context
            lengths allow: ``budget_needed`` when ``reached``, the larger figure ``reason`` gives
            when a length is too short for it, ``None`` when no budget reaches it (with per-length
            goals: the largest of the lengths' own).
        contexts: one outcome per listed context length, in the order given.
        reason: why ``goal`` cannot be reached (empty when it is).
        planning_tokenizer: the tokenizer the ladder was measured with.
        except_servers: servers the goal lets collapse; ``keep_servers``: servers that must stay
            at names or better.
        headroom_pct: the budget is at least this much (%) above the listing at every length.
        unnamed: the servers not named at the worst length, each with why.
        growth_tokens: tokens the listing can grow at the tightest length before it changes
            form (the smallest ``budget - listing_tokens``).
        growth_tools: about how many more tools that is, at the listing's tokens per named tool.
        length_goals: per-length goals where they differ from ``goal`` (:data:`LengthGoals`).
        length_budgets: per listed length, the budget (tokens) the settings are chosen for there: the
            smallest its own goal needs, or, where that goal is out of reach, the best reachable
            listing's (``None`` where none is known); with one goal, ``budget_needed`` at every length.
        length_goal_budgets: per listed length, the smallest budget (tokens) its own goal needs,
            whatever that length allows (``None`` where no budget reaches it); with one goal,
            ``goal_budget`` at every length. Equal to ``length_budgets`` where the goal is reached.
        sessions_read: with recorded sessions as evidence (:func:`add_session_evidence`), how
            many sessions were read; ``None`` without.
        sessions_drift: with sessions that mention tools or servers this catalog lacks (they ran on
            another catalog), that difference in one sentence ending in :data:`SESSION_DRIFT_CONSEQUENCE`
            (:meth:`toolsearch.analysis.sessions.CatalogDrift.words`); empty otherwise.
        called_unnamed: with recorded sessions, per listed length (in the order of ``contexts``),
            the distinct deferred tools the sessions called that the recommended listing does not
            name, sorted; ``()`` without sessions.
        outside_scope: for a recommendation made for a session scope (:func:`add_whole_catalog`),
            per listed length what the same two settings give the whole catalog (every session
            outside the scope: the harness has one ``tools.tool_search`` block) and the servers
            not named there; ``()`` without a scope. ``scope``: that scope's name.
        sessions_note: with sessions recorded by a harness whose settings mean something else
            (:func:`toolsearch.analysis.sessions.released_hermes_words`), what that means for the
            evidence, in words; empty otherwise.
        keep_called: with ``--keep-called`` (the Tuning page's checkbox), which servers were kept
            named because the recorded sessions called them (:func:`keep_called`; they are in
            ``keep_servers`` too); ``None`` without.
        no_tools: the catalog's servers that register no tools (``tools: []``, a snapshot whose
            ``tools/list`` came back empty; :func:`servers_without_tools`): no setting names them and
            no goal counts them, so the counts alone ("1 of 1 servers named") would leave them out.
        shorter_lengths: with recorded sessions, the context lengths they recorded that are shorter
            than every listed one (:class:`ShorterLength`: what the recommended settings give there);
            ``()`` without sessions or when there is none.
        keep_forces: with ``keep_servers``, when keeping them named names other servers the goal
            alone would let collapse, which ones, why (the listing collapses the largest names block
            first) and what it costs, in words (:func:`_keep_forces_words`); empty otherwise.
        lower_goal: with one goal for every length out of reach because some lengths are too short
            for it while others are not (any goal), the whole goal as ``--goal`` takes it with, at every
            such length, the most demanding goal that length reaches (``names,32k=any``,
            ``full,3k=names``), verified to be reached (:func:`_lower_goal`, :func:`lower_goal_lines`);
            ``lower_goal_words``: that suggestion in a sentence, with what it costs, as ``check``
            says it; ``lower_goal_app_words``: the same as the Tuning page says it, the goal in words
            and its field's items in place of the command line (:func:`per_length_goal_how`); all
            empty otherwise (``lower_goal_words`` alone holds what else would reach the goal when a
            server kept named blocks it).
        core_only: the listed lengths where the goal is met only through tools that are not MCP
            servers' (kind ``core`` or ``plugin``): every MCP server there is a summary line or
            hidden, each length with the servers the listing names (:func:`with_core_only`); ``()`` when none.
        config_servers: with a harness config (``--config``) whose MCP servers disagree with the
            catalog's (servers the catalog lacks, servers set up otherwise than the catalog was
            listed with, catalog servers the config does not configure), one sentence per way they
            disagree (:meth:`toolsearch.live.config_agreement.ServerAgreement.sentences`): the
            figures count the servers as the catalog lists them. ``gate_refused``: then why
            ``check --strict`` refuses the gate line, and until when
            (:attr:`~toolsearch.live.config_agreement.ServerAgreement.gate_words`); both empty otherwise.
        unfit: the listed lengths no request fits whatever the settings (:class:`UnfitLength`), in the
            order given: left out of :attr:`contexts` and of the answer, which is for the other lengths;
            when every length is one (:attr:`all_unfit`), ``contexts`` has them all with the current
            settings, which are kept, and ``reached`` is false. ``()`` when every length fits.
        tools_tokens: per length of :attr:`contexts`, the model-visible tools array with the answer's
            listing (tokens, planning tokenizer: :meth:`toolsearch.analysis.sweep.Ladder.request_tokens`),
            the part of every request the settings decide; ``None`` where it is not weighed.
        reserve_pct: the share (%) of every context length the answer keeps free of the tools array
            (:attr:`toolsearch.analysis.sweep.Ladder.reserve_pct`, ``recommend --reserve``); 0: none.
    """

    goal: str
    reached: bool
    reached_goal: str | None
    threshold_pct: float
    listing_max_tokens: int
    budget_needed: int | None
    contexts: tuple[ContextOutcome, ...]
    reason: str
    planning_tokenizer: str
    except_servers: tuple[str, ...] = ()
    keep_servers: tuple[str, ...] = ()
    headroom_pct: float = 0.0
    unnamed: tuple[UnnamedServer, ...] = ()
    growth_tokens: int = 0
    growth_tools: int = 0
    length_goals: LengthGoals = ()
    length_budgets: tuple[int | None, ...] = ()
    goal_budget: int | None = None
    length_goal_budgets: tuple[int | None, ...] = ()
    sessions_read: int | None = None
    sessions_drift: str = ""
    sessions_note: str = ""
    sessions_not_deferred: UncountedCalls = UncountedCalls()
    called_unnamed: tuple[tuple[str, ...], ...] = ()
    outside_scope: tuple[tuple[ContextOutcome, tuple[str, ...]], ...] = ()
    scope: str = ""
    keep_called: KeepCalled | None = None
    shorter_lengths: tuple[ShorterLength, ...] = ()
    no_tools: tuple[str, ...] = ()
    keep_forces: str = ""
    lower_goal: str = ""
    lower_goal_words: str = ""
    lower_goal_app_words: str = ""
    config_servers: tuple[str, ...] = ()
    gate_refused: str = ""
    core_only: tuple[tuple[int | None, tuple[str, ...]], ...] = ()
    unfit: tuple[UnfitLength, ...] = ()
    tools_tokens: tuple[int | None, ...] = ()
    reserve_pct: float = 0.0

    @property
    def all_unfit(self) -> bool:
        """No listed length fits a request whatever the settings (:attr:`unfit` holds every one): there
        is no answer, the current settings are kept and :attr:`contexts` gives what they give."""
        return bool(self.unfit) and {u.context_length for u in self.unfit} >= {c.context_length for c in self.contexts}

    @property
    def worst(self) -> ContextOutcome:
        """The outcome of the listed context length with the fewest servers named (then tools)."""
        return min(self.contexts, key=lambda c: (c.servers_named, c.tools_named))

    @property
    def goal_words(self) -> str:
        """The goal with its per-length goals and per-server requirements, in words (headroom not
        included; :func:`goal_statement`)."""
        return goal_statement(self.goal, self.length_goals, self.except_servers, self.keep_servers,
                              [c.context_length for c in self.contexts])

    def goal_at(self, context_length: int | None) -> str:
        """The goal at one listed context length."""
        return goal_at(self.goal, self.length_goals, context_length)

    @property
    def beyond_goal(self) -> tuple[ContextOutcome, ...]:
        """The lengths whose listing gives more than their own goal asks, in the order of
        :attr:`contexts`: a listing larger than the budget that length's goal needs
        (:attr:`length_goal_budgets`, its per-server requirements and headroom included), so a
        later step of the ladder: a better form than the goal's, or a mixed listing naming more
        servers than a ``listed`` goal asks. One threshold_pct and one listing_max_tokens serve
        every length, so a length may get a larger budget than its own goal needs: with per-length
        goals (a longer length never gets a smaller budget, and the cap is shared), and with one
        goal too (the cap's smallest value). A form better than the goal's alone is not more: a
        kept server, or a catalog of one server, can make it the cheapest the goal allows. With
        headroom, a listing larger than the goal's but within the budget it needs is not counted."""
        needs = self.length_goal_budgets or tuple(self.goal_budget for _ in self.contexts)
        return tuple(c for c, need in zip(self.contexts, needs) if c.tier > 0 and c.listing_form != "none"
                     and need is not None and c.listing_tokens > need)

    @property
    def inactive(self) -> bool:
        """Tool search is not active at any listed length (tier 0: ``enabled: off``, or nothing is
        deferrable): every schema is sent, so every goal holds and the two settings change nothing
        (docs/reference.md §2). The recommendation then keeps the current settings, with a budget
        needed of 0 tokens."""
        return bool(self.contexts) and all(c.tier == 0 for c in self.contexts)

    @property
    def one_budget(self) -> bool:
        """Every listed length needs the same budget (``budget_needed``); else :attr:`budget_words`
        says each length's."""
        return len(set(self.length_budgets or (self.budget_needed,))) <= 1

    @property
    def budget_words(self) -> str:
        """The budget each length needs, in words: ``"1,473 tokens"`` when it is one figure for every
        length, else ``"1,473 tokens at 32K; 4,000 tokens at 200K and 1M"``; ``""`` when unknown."""
        budgets = self.length_budgets or tuple(self.budget_needed for _ in self.contexts)
        if not budgets or any(b is None for b in budgets):
            return ""
        if len(set(budgets)) == 1:
            return counted(budgets[0], "token")
        by_budget: dict[int, list[int | None]] = {}
        for c, b in zip(self.contexts, budgets):
            by_budget.setdefault(b, []).append(c.context_length)
        return "; ".join(f"{counted(b, 'token')} at {_and(_length_word(c) for c in cs)}" for b, cs in by_budget.items())

    @property
    def headroom_kept_pct(self) -> int | None:
        """The headroom (%, whole, rounded down) the settings keep where it is least, when that is
        less than the headroom asked at some listed length (a goal out of reach, whose best reachable
        setting stays below the next larger listing); ``None`` when the headroom asked is kept
        (or none was asked). ``--json`` gives it as ``headroom_kept_pct``."""
        short = [c for c in self.contexts if _short_of_room(c, self.headroom_pct)] if self.headroom_pct else []
        return min(c.headroom_tokens * 100 // c.listing_tokens for c in short) if short else None

    @property
    def headroom_least_at(self) -> tuple[int | None, ...]:
        """The listed lengths (tokens, ``None`` = unknown; shortest first) where the settings keep the
        headroom :attr:`headroom_kept_pct` gives, the least kept share; ``()`` when the headroom asked is
        kept. :attr:`headroom_words` (or the growth words after them) names these lengths; ``--json``
        gives them as ``headroom_least_at``."""
        kept = self.headroom_kept_pct
        if kept is None:
            return ()
        return tuple(sorted({c.context_length for c in self.contexts if _short_of_room(c, self.headroom_pct)
                             and c.headroom_tokens * 100 // c.listing_tokens == kept},
                            key=lambda n: (n is None, n or 0)))

    @property
    def headroom_words(self) -> str:
        """The headroom the growth line leads with: the headroom asked (``"10%"``), and, when the
        settings keep less room than that (:attr:`headroom_kept_pct`), the room they keep where it is
        least (the growth words that follow say where, or these name it when that is another length:
        ``"50% asked, 29% kept at 200K and 1M"``): ``"1000% asked, 148% kept"``, so the line does
        not claim room it lacks."""
        asked = f"{self.headroom_pct:g}%"
        kept = self.headroom_kept_pct
        if kept is None:
            return asked
        # the least room as a share and the least room in tokens (the growth words) can be at different
        # lengths (a short listing with a small budget, a long one near the cap): then each names its own
        least = list(self.headroom_least_at)
        fewest = min(c.headroom_tokens for c in self.contexts)
        tight = sorted({c.context_length for c in self.contexts if c.headroom_tokens == fewest},
                       key=lambda n: (n is None, n or 0))
        where = "" if least == tight else " at " + _and(_length_word(n) for n in least)
        return f"{asked} asked, {kept:,}% kept{where}"

    @property
    def growth_words(self) -> str:
        """What growth the setting absorbs, e.g. ``"absorbs 149 tokens of listing growth (about 17
        tools) at 32K before the listing changes"``."""
        if self.all_unfit:  # the current settings, kept: no answer whose room to weigh
            return "not weighed: no listed length fits a request, so the current settings are kept"
        if not self.contexts or self.worst.listing_tokens == 0:
            return "nothing is listed, so there is no listing growth to absorb"
        # every length with the least room (several share it when the budget is the same there), shortest
        # first: naming only one read as if the others had room to spare, and the words do not depend on
        # the order the lengths were listed in
        least = min(c.headroom_tokens for c in self.contexts)
        tight = sorted({c.context_length for c in self.contexts if c.headroom_tokens == least},
                       key=lambda n: (n is None, n or 0))
        where = ("at every listed length" if len(tight) == len(self.contexts) > 1
                 else "at " + _and(_length_word(n) for n in tight))
        if self.growth_tokens == 0:
            return f"tight: the budget equals the listing {where}, so any listing growth changes the listing there"
        if not self.worst.tools_named:  # only summary lines listed: no tokens-per-tool to count tools with
            tools = ""
        elif self.growth_tools == 0:
            tools = " (less than one tool)"
        else:
            tools = f" (about {counted(self.growth_tools, 'tool')})"
        return f"absorbs {counted(self.growth_tokens, 'token')} of listing growth{tools} {where} before the listing changes"

    @property
    def cap_floor_words(self) -> str | None:
        """Why ``listing_max_tokens`` is above the budget needed, when it is only because the cap has a
        smallest value (``LISTING_MAX_TOKENS_MIN``; the harness raises a smaller one to it): the lengths
        where ``threshold_pct`` gives more than the budget needed get that floor as their budget. ``None``
        otherwise (tool search not active, or the cap equal to the budget needed). Out of reach, the budget
        needed is the best reachable listing's, and the same floor holds for it."""
        floor = C.LISTING_MAX_TOKENS_MIN
        if (self.inactive or self.budget_needed is None or self.listing_max_tokens != floor
                or self.budget_needed >= floor):
            return None
        return (f"{cap_words(floor)} is its smallest value (a harness raises a smaller one to {floor}), above "
                f"the {counted(self.budget_needed, 'token')} needed: where threshold_pct's share of the context length "
                f"is larger, the budget is {floor} tokens")

    @property
    def goal_kept_at(self) -> tuple[int | None, ...]:
        """When the goal is out of reach, the listed lengths where the best reachable setting still
        reaches their goal (each given the budget its goal needs: the goal fits there), in the order of
        :attr:`contexts`; ``()`` when it is reached, or when no length keeps it."""
        if self.reached or not self.length_budgets or not self.length_goal_budgets:
            return ()
        # the room asked too: a length whose listing meets the goal with less room than asked (a longer
        # length never gets a smaller budget than a short one, whose listing may leave it less) has not kept it
        return tuple(c.context_length for c, b, g in zip(self.contexts, self.length_budgets, self.length_goal_budgets)
                     if b is not None and g is not None and b >= g and not _short_of_room(c, self.headroom_pct))

    @property
    def fallback_words(self) -> str:
        """How the settings were chosen when the goal is out of reach: ``"the fewest listing tokens"``,
        led by where the goal is kept (``"the goal kept at 200K, where it fits, and the fewest listing
        tokens"``, :attr:`goal_kept_at`), or, when nothing can be listed at the shortest length (no
        budget is left to save there), that the largest settings were taken so every other length gets
        its best form."""
        if self.reason == LISTING_OFF_REASON:
            return "the current settings, as no setting lists anything while the listing is off"
        if self.budget_needed is None and self.threshold_pct < C.THRESHOLD_PCT_MAX:
            # larger settings would choose a listing at the shortest length whose request does not fit it
            return ("the largest settings whose request fits every listed length, as nothing can be listed beside "
                    "the tools array at the shortest length and they give every other length its best form")
        if self.budget_needed is None:
            return ("the largest settings, as nothing can be listed at the shortest length and they give every "
                    "other length its best form")
        kept = self.goal_kept_at
        lead = (f"{'each length' + chr(39) + 's own goal' if self.length_goals else 'the goal'} kept at "
                f"{_and(_length_word(c) for c in kept)}, where it fits, and " if kept else "")
        if self.headroom_pct and any(_short_of_room(c, self.headroom_pct) for c in self.contexts):
            return (f"{lead}the listing that keeps the most room below the next larger listing (less than the "
                    f"{self.headroom_pct:g}% headroom asked)")
        return f"{lead}the fewest listing tokens"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``threshold_pct``, ``listing_max_tokens``, ``goal`` (the goal of the
        lengths without their own), ``contexts`` (each with its own ``goal``, ``budget_needed`` and
        ``goal_budget``: :attr:`length_budgets` and :attr:`length_goal_budgets`),
        ``goal_words``, then ``reached``,
        ``reached_goal``, ``budget_needed``, ``goal_budget``, ``reason``, ``planning_tokenizer``, ``except``,
        ``keep``, ``headroom_pct``, ``reserve_pct`` (:attr:`reserve_pct`), ``headroom_kept_pct`` (:attr:`headroom_kept_pct`; ``null`` when the
        headroom asked is kept), ``headroom_least_at`` (:attr:`headroom_least_at`: the lengths where that
        least headroom is kept; ``[]`` then), ``growth_tokens``, ``growth_tools``, ``unnamed``, ``large_share``
        (the lengths where the listing takes more than :data:`LARGE_SHARE_PCT` % of the context, each
        with ``context_length``, ``listing_tokens`` and ``share_pct``) and, with ``keep_called``,
        ``keep_called`` (:meth:`KeepCalled.to_dict`); ``config_servers`` (:attr:`config_servers`, ``[]``
        when the config's servers agree with the catalog's), ``gate_refused`` (``null`` then) and
        ``unfit_lengths`` (:attr:`unfit`: per listed length no request fits whatever the settings,
        ``context_length``, ``tools_tokens``, ``tokenizer`` and ``reason``; ``[]`` when every length fits)."""
        budgets = self.length_budgets or tuple(self.budget_needed for _ in self.contexts)
        # the goal's own need beside the figure the settings are chosen for: out of reach they differ,
        # and one key for both read as if the goal needed the best reachable listing's budget
        goal_budgets = self.length_goal_budgets or tuple(self.goal_budget for _ in self.contexts)
        return {"threshold_pct": self.threshold_pct, "listing_max_tokens": self.listing_max_tokens,
                "goal": self.goal,
                "contexts": [{**c.to_dict(), "goal": self.goal_at(c.context_length), "budget_needed": b,
                              "goal_budget": g, "tools_tokens": t}
                             for c, b, g, t in zip(self.contexts, budgets, goal_budgets,
                                                   self.tools_tokens or tuple(None for _ in self.contexts))],
                "goal_words": self.goal_words,
                "reached": self.reached, "reached_goal": self.reached_goal, "budget_needed": self.budget_needed,
                "goal_budget": self.goal_budget, "reason": self.reason, "planning_tokenizer": self.planning_tokenizer,
                "except": list(self.except_servers), "keep": list(self.keep_servers),
                "headroom_pct": self.headroom_pct, "reserve_pct": self.reserve_pct,
                "headroom_kept_pct": self.headroom_kept_pct,
                "headroom_least_at": list(self.headroom_least_at),
                "growth_tokens": self.growth_tokens, "growth_tools": self.growth_tools, "unnamed": [u.to_dict() for u in self.unnamed],
                "large_share": [{"context_length": c.context_length, "listing_tokens": c.listing_tokens,
                                 "share_pct": round(share, 1)} for c, share in large_shares(self)],
                "no_tools": list(self.no_tools), "keep_forces": self.keep_forces,
                "lower_goal": self.lower_goal or None,
                "core_only": [{"context_length": c, "servers": list(names)} for c, names in self.core_only],
                "config_servers": list(self.config_servers), "gate_refused": self.gate_refused or None,
                "unfit_lengths": [u.to_dict() for u in self.unfit],
                **({"keep_called": self.keep_called.to_dict()} if self.keep_called is not None else {})}

    def apply(self, config: ToolSearchConfig) -> ToolSearchConfig:
        """``config`` with the recommended threshold_pct and listing_max_tokens."""
        return config.with_overrides(threshold_pct=self.threshold_pct, listing_max_tokens=self.listing_max_tokens)


def outcomes(ladder: Ladder, threshold_pct: float, listing_max_tokens: int,
             context_lengths: Sequence[int | None]) -> tuple[ContextOutcome, ...]:
    """Budget, tier, form, listing tokens and counts at each context length (in the order given)
    for one ``threshold_pct`` (%) and ``listing_max_tokens`` (tokens), read off ``ladder``."""
    return tuple(_outcome_at(ladder, context, listing_budget(context, threshold_pct, listing_max_tokens)[0])
                 for context in context_lengths)


def _outcome_at(ladder: Ladder, context: int | None, budget: int) -> ContextOutcome:
    counts = ladder.counts_at(budget)
    tier = ladder.tier_at(budget)
    return ContextOutcome(context, budget, tier, ladder.form_at(budget), ladder.tokens_at(budget),
                          counts.servers_named, counts.servers_total, counts.tools_named,
                          TIER0_WORDS if tier == 0 else counts.label)


def smallest_threshold_pct(budget: int, context_length: int) -> float | None:
    """The smallest ``threshold_pct`` on the 0.1 grid (0.0..100.0) whose percentage leg at
    ``context_length`` tokens is at least ``budget`` tokens, with the docs/reference.md §4 arithmetic
    (``int(context_length × (pct / 100.0))``, truncation included). ``None`` when 100% is not
    enough. Binary search: the leg never shrinks as ``threshold_pct`` grows."""
    def leg(k: int) -> int:
        return int(context_length * ((k / 10) / 100.0))

    if leg(_PCT_STEPS) < budget:
        return None
    low, high = 0, _PCT_STEPS
    while low < high:
        mid = (low + high) // 2
        if leg(mid) >= budget:
            high = mid
        else:
            low = mid + 1
    return low / 10


def budget_with_headroom(tokens: int, headroom_pct: float) -> int:
    """The smallest budget (tokens) at least ``headroom_pct`` % above ``tokens`` (a listing's size):
    ``ceil(tokens × (1 + headroom_pct / 100))``, computed exactly (no float rounding). ``recommend``
    chooses budgets with it and ``check --headroom`` holds settings to it."""
    return -(-(tokens * round(Fraction(str(headroom_pct)) * 100 + 10_000)) // 10_000) if headroom_pct else tokens


def _most_headroom_reaching(ladder: Ladder, meets: Any, largest: int, headroom_pct: float) -> int | None:
    """The largest whole headroom (%) below ``headroom_pct`` with which a listing that ``meets`` the
    goal still fits in ``largest`` tokens (the largest budget every listed length can get), when the
    goal is out of reach with ``headroom_pct`` but reached with less; ``None`` when no headroom, 0
    included, reaches it (or none was asked)."""
    def fits(pct: int) -> bool:
        needs = [b for b, step in zip(_chosen_budgets(ladder, pct), ladder.steps) if b is not None and meets(step)]
        return bool(needs) and min(needs) <= largest

    high = math.ceil(headroom_pct) - 1
    if high < 0 or not fits(0):
        return None
    return _largest_holding(0, high, fits)


def _largest_holding(low: int, high: int, holds: Any) -> int:
    """The largest whole number in ``low..high`` for which ``holds`` is true, when it is true at ``low``
    and, once false, stays false for every larger number. Binary search."""
    while low < high:
        mid = (low + high + 1) // 2
        if holds(mid):
            low = mid
        else:
            high = mid - 1
    return low


def _chosen_budgets(ladder: Ladder, headroom_pct: float) -> list[int | None]:
    """For each ladder step, the smallest budget at which that step is the one chosen and the budget
    is at least ``headroom_pct`` % above its size; ``None`` when no budget does both (an earlier
    candidate fits first). Budgets above 60,000 are returned as they are: no setting reaches them."""
    out: list[int | None] = []
    earlier = float("inf")  # the smallest size of the candidates before this one
    for step in ladder.steps:
        budget = budget_with_headroom(step.tokens, headroom_pct)
        out.append(budget if budget < earlier else None)
        earlier = min(earlier, step.tokens)
    return out


def _most_room(ladder: Ladder, largest: int, meets: Any) -> int | None:
    """Without headroom kept, the listing a budget of at most ``largest`` tokens gives that meets the
    goal (``meets(step)``) and can keep the most room (%) below the next larger listing, fewest listing
    tokens first among equals; when none meets it, the one with the most servers and then tools named
    and the fewest listing tokens among those. Returned is the largest budget (at most ``largest``) that
    still gives that listing, the most room it can have before a larger listing is chosen. ``None`` when
    no listing fits in ``largest`` tokens.

    The room is compared as a share of the listing, as the headroom asked is: the smallest listing that
    meets the goal can have less room than a larger one whose next larger listing is far above it (at 8K
    on the team-workspace sample, a listing naming one server keeps 38%, every server named 148%), and
    the best reachable answer keeps as much of the headroom asked as the goal allows
    (:func:`_most_headroom_reaching` gives that figure, whole)."""
    chosen = _chosen_budgets(ladder, 0)
    valid = [(i, b) for i, b in enumerate(chosen) if b is not None and b <= largest]
    if not valid:
        return None

    def room_below_next(index: int) -> int:
        earlier = min((s.tokens for s in ladder.steps[:index]), default=None)
        return largest if earlier is None else min(largest, earlier - 1)

    meeting = [i for i, _ in valid if meets(ladder.steps[i])]
    if meeting:
        def share(index: int) -> tuple[Fraction, int]:
            tokens = ladder.steps[index].tokens
            kept = Fraction(room_below_next(index) - tokens, tokens) if tokens else Fraction(0)
            return kept, -tokens

        return room_below_next(max(meeting, key=share))
    best = ladder.counts_of(ladder.steps[valid[0][0]])
    same = [(b, i) for i, b in valid if (ladder.counts_of(ladder.steps[i]).servers_named,
                                         ladder.counts_of(ladder.steps[i]).tools_named)
            == (best.servers_named, best.tools_named)]
    _, index = min(same)
    return room_below_next(index)


def _settings_giving(ladder: Ladder, lengths: Sequence[int | None], alone: Sequence[MultiRecommendation],
                     headroom_pct: float, goal_of: Any, except_servers: Sequence[str],
                     keep_servers: Sequence[str]) -> tuple[float, int] | None:
    """The ``threshold_pct`` (0.1 grid) and ``listing_max_tokens`` that give every listed length what its
    own answer (``alone``, one single-length recommendation per length) gives it: where that answer
    reaches the length's goal (``goal_of(length)``, with the per-server requirements) with
    ``headroom_pct`` % of room, any listing that does so (a longer length never gets a smaller budget,
    so it may get a larger listing than its own); elsewhere (the lengths too short for the goal with
    its room) the same listing, with the most room below the next larger listing. Then the smallest
    settings. ``None`` when no setting does.

    The smallest ``threshold_pct`` that gives a short length its largest budget below the next larger
    listing can pass it (the 0.1 grid moves an 8K length's leg 8 tokens a step), which chose that
    larger listing with almost no room; so every ``threshold_pct`` is tried, each with the caps where a
    length's budget crosses a listing's size or its room."""
    bounds: list[tuple[int, int] | None] = []  # per length: the budgets keeping its own listing, or None
    short: list[int] = []  # positions of the lengths whose own answer keeps less room than asked
    for position, (c, r) in enumerate(zip(lengths, alone)):
        o = r.contexts[0]
        if o.tier == 0 or o.listing_tokens == 0:
            return None
        if r.reached:
            bounds.append(None)
            continue
        step = ladder.step_at(o.budget)
        index = next(i for i, candidate in enumerate(ladder.steps) if candidate is step)
        earlier = min((s.tokens for s in ladder.steps[:index]), default=None)
        high = min(_largest_budget([c], ladder)[0], C.LISTING_MAX_TOKENS_MAX, earlier - 1 if earlier is not None else C.LISTING_MAX_TOKENS_MAX)
        roomy = budget_with_headroom(o.listing_tokens, headroom_pct)
        if roomy > high:
            short.append(position)
            bounds.append((o.listing_tokens, high))
        else:
            bounds.append((roomy, high))
    memo: dict[tuple[int | None, int, bool], bool] = {}

    def holds(c: int | None, budget: int, roomy: bool) -> bool:
        key = (c, budget, roomy)
        if key not in memo:
            o = _outcome_at(ladder, c, budget)
            memo[key] = not requirement_failures(ladder, o, goal_of(c), except_servers, keep_servers) \
                and not (roomy and _short_of_room(o, headroom_pct)) and ladder.request_fits(c, budget)
        return memo[key]

    def fits(position: int, budget: int, roomy: bool, own: bool) -> bool:
        bound = bounds[position]
        if bound is None:
            return holds(lengths[position], budget, roomy)
        return bound[0] <= budget <= bound[1] if own or position not in short else holds(lengths[position], budget, False)

    top = C.LISTING_MAX_TOKENS_MAX
    # what a length is given changes only where a budget crosses a listing's size or its room, or a bound
    marks = sorted({0, top + 1} | {b for step in ladder.steps for b in (step.tokens, budget_with_headroom(step.tokens, headroom_pct))
                                   if 0 < b <= top}
                   | {b for bound in bounds if bound for b in (bound[0], bound[1] + 1) if 0 < b <= top})

    def good(position: int, roomy: bool, own: bool) -> list[tuple[int, int]]:
        """The budgets (0..60,000) that fit that length, as intervals."""
        out: list[tuple[int, int]] = []
        for start, stop in itertools.pairwise(marks):
            if fits(position, start, roomy, own):
                if out and out[-1][1] == start - 1:
                    out[-1] = (out[-1][0], stop - 1)
                else:
                    out.append((start, stop - 1))
        return out

    def caps_for(intervals: list[tuple[int, int]], leg: int) -> list[tuple[int, int]]:
        """The caps (200..60,000) giving a length whose percentage leg is ``leg`` a budget in ``intervals``."""
        low = C.LISTING_MAX_TOKENS_MIN
        out = [(max(a, low), min(b, leg - 1, top)) for a, b in intervals if max(a, low) <= min(b, leg - 1, top)]
        if leg <= top and any(a <= leg <= b for a, b in intervals):
            out.append((max(leg, low), top))
        return out

    def meet(left: list[tuple[int, int]], right: list[tuple[int, int]]) -> list[tuple[int, int]]:
        return [(max(a, c), min(b, d)) for a, b in left for c, d in right if max(a, c) <= min(b, d)]

    # First every length whose own answer keeps the room keeps it, beside the short lengths' own listings;
    # when no setting does (a longer length may need more than a short length's share allows), beside any
    # listing that meets a short length's goal (the goal kept with its room where it fits comes first);
    # else each still meets its goal, and the others' room is shared out before a short length's.
    for roomy, own in ((True, True), (True, False), (False, True)):
        best: tuple[Any, ...] | None = None
        spread = short if roomy else list(range(len(lengths)))
        fitting = [good(i, roomy, own) for i in range(len(lengths))]
        seen: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for k in range(_PCT_STEPS + 1):
            legs = [listing_budget(c, k / 10, top)[1] for c in lengths]
            feasible = [(C.LISTING_MAX_TOKENS_MIN, top)]
            for i, leg in enumerate(legs):
                key_i = (i, min(leg, top + 1))
                if key_i not in seen:
                    seen[key_i] = caps_for(fitting[i], leg)
                feasible = meet(feasible, seen[key_i])
                if not feasible:
                    break
            candidates = set()
            for a, b in feasible:
                capped = any(leg > b for leg in legs)
                candidates |= {a, b, b if capped else max([a] + [leg for leg in legs if leg <= b])}
            for cap in sorted(candidates):
                budgets = [listing_budget(c, k / 10, cap)[0] for c in lengths]
                sizes = {i: _outcome_at(ladder, lengths[i], budgets[i]).listing_tokens for i in spread}
                rooms = {i: Fraction(budgets[i] - sizes[i], sizes[i]) for i in spread if sizes[i]}
                # the short lengths' room; when the others cannot keep theirs, their room first: a cap that
                # gives a short length a token more room would hold every longer length to its listing too
                mine = min((rooms[i] for i in short if i in rooms), default=0)
                others = min((room for i, room in rooms.items() if i not in short), default=0)
                key = ((mine, others) if roomy else (others, mine)) + (sum(budgets[i] for i in spread), -k, -cap)
                if best is None or key > best[0]:
                    best = (key, k / 10, cap)
        if best is not None:
            return best[1], best[2]
    return None


def _largest_fitting(ladder: Ladder, lengths: Sequence[int | None]) -> tuple[float, int]:
    """The largest ``threshold_pct`` (0.1 grid) with the largest ``listing_max_tokens`` (60,000) whose
    request fits every listed length (:meth:`toolsearch.analysis.sweep.Ladder.request_fits`): the
    largest settings, 100 % and 60,000 tokens, unless the listing they choose at a short length makes
    its request longer than the context. Budgets only grow with ``threshold_pct``, so it is searched
    for; 0 % lists nothing and fits every length a request fits at all."""
    top = C.LISTING_MAX_TOKENS_MAX

    def fits(k: int) -> bool:
        return all(ladder.request_fits(c, listing_budget(c, k / 10, top)[0]) for c in lengths)

    return _largest_holding(0, _PCT_STEPS, fits) / 10, top


def _length_limit(ladder: Ladder | None, context_length: int) -> int:
    """The largest budget a known ``context_length`` (tokens) can use: the context length itself, or
    less where a larger listing would make the request longer than the context
    (:meth:`toolsearch.analysis.sweep.Ladder.request_limit`)."""
    limit = ladder.request_limit(context_length) if ladder is not None else None
    return context_length if limit is None else min(context_length, limit)


def _largest_budget(context_lengths: Sequence[int | None], ladder: Ladder | None = None) -> tuple[int, str, str]:
    """The largest budget every listed length can get at once (tokens), what limits it
    (``cap`` | ``unknown`` | ``context`` | ``request``) and that limit in words. ``request``: at the
    shortest length a larger budget would choose a listing whose tools array is longer than the
    context (``ladder``'s :meth:`~toolsearch.analysis.sweep.Ladder.request_limit`; not weighed without
    a ladder), so no request with it fits the model."""
    known = [c for c in context_lengths if c is not None and c > 0]
    limit, kind = C.LISTING_MAX_TOKENS_MAX, "cap"
    words = f"the largest listing_max_tokens ({C.LISTING_MAX_TOKENS_MAX:,} tokens)"
    if len(known) < len(context_lengths) and C.UNKNOWN_CONTEXT_PCT_LEG < limit:
        limit, kind = C.UNKNOWN_CONTEXT_PCT_LEG, "unknown"
        words = f"the budget of an unknown context length ({limit:,} tokens)"
    if known:
        shortest = min(known)
        usable = _length_limit(ladder, shortest)
        if usable < limit:
            limit, kind = usable, ("context" if usable == shortest else "request")
            words = _limit_words(shortest, usable, ladder.reserve_pct if ladder is not None else 0.0)
    return limit, kind, words


def _limit_words(context_length: int, usable: int, reserve_pct: float = 0.0) -> str:
    """The largest budget ``context_length`` can use (``usable`` tokens, :func:`_length_limit`), in
    words: ``"the whole 32K context (32,000 tokens)"``, or where the request limits it, ``"the largest
    budget whose request fits the 32K context (31,130 tokens)"``; with a reserve (``reserve_pct`` %),
    ``"the largest budget whose request fits the 32K context with its 50% reserve (14,907 tokens)"``."""
    short = context_words(context_length)  # "32K" reads as an adjective; "12,345" does not
    the_context = f"the {short} context" if short[-1] in "KM" else f"a context of {length_label(context_length)}"
    if reserve_pct:
        the_context += f" with its {reserve_pct:g}% reserve"
    if usable < context_length:
        return f"the largest budget whose request fits {the_context} ({counted(usable, 'token')})"
    return (f"the whole {short} context ({counted(usable, 'token')})" if short[-1] in "KM"
            else f"the whole context ({counted(usable, 'token')})")


def _requirement(ladder: Ladder, goal: str, except_servers: Sequence[str], keep_servers: Sequence[str]):
    """Predicate on a ladder step: the goal with its per-server requirements is met."""
    label = {s.name: s.label for s in ladder.servers}
    may_collapse = {label[s] for s in except_servers if s in label}
    keep = {label[s] for s in keep_servers if s in label}
    want = FORM_RANK[GOAL_FORMS[goal]]

    def meets(step: Any) -> bool:
        # Called for every step, and step k collapses k labels: a set of them per step grew with the
        # square of the servers. Without servers to keep nothing is walked, and the excepted-servers
        # test stops at the first collapsed label that is not excepted.
        if step is None:
            return False
        if keep and not keep.isdisjoint(step.collapsed):
            return False
        if goal == "names" and may_collapse and step.form in ("mixed", "groups"):
            return all(collapsed in may_collapse for collapsed in step.collapsed)
        return FORM_RANK[step.form] <= want

    return meets


def smaller_listing_keeps_headroom(ladder: Ladder, outcome: ContextOutcome, goal: str, headroom_pct: float,
                                    except_servers: Sequence[str] = (), keep_servers: Sequence[str] = ()) -> bool:
    """Whether a listing smaller than ``outcome``'s (one context length, read off ``ladder``) still
    meets ``goal`` with its per-server requirements and can be chosen by a budget at least
    ``headroom_pct`` % above it (a budget below the next larger listing's size, which would be
    chosen first). ``False`` when nothing is listed. This is what lets ``recommend --headroom``
    answer with a budget below the one the current listing needs.

    Raises:
        ValueError: an unknown goal.
    """
    if goal not in GOAL_FORMS:
        raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {goal!r}")
    step = ladder.step_at(outcome.budget) if outcome.tier != 0 else None
    if step is None:
        return False
    meets = _requirement(ladder, goal, except_servers, keep_servers)
    index = next(i for i, candidate in enumerate(ladder.steps) if candidate is step)
    chosen = _chosen_budgets(ladder, headroom_pct)
    return any(chosen[j] is not None and meets(ladder.steps[j]) for j in range(index + 1, len(ladder.steps)))


#: Collapsed servers a failure names before it says "and N more".
_NAMED_MAX = 10


@dataclass(frozen=True)
class RequirementMiss:
    """What a goal with its per-server requirements misses at one context length (see
    :func:`requirement_misses`).

    Attributes:
        lost: the ``keep_servers`` the listing collapsed to a summary line, in the order given.
        goal_missed: the goal itself (with ``except_servers`` relaxing it) is not met.
        needed: the form the goal needs (``full``, ``names``, ``mixed``, ``groups``).
        collapsed: with ``goal_missed``, the servers the listing collapsed that ``except_servers``
            does not cover, in the order the reference collapsed them (every one, uncapped).
        excepting: ``except_servers`` were given (the sentence then says "not excepted").
    """

    lost: tuple[str, ...] = ()
    goal_missed: bool = False
    needed: str = ""
    collapsed: tuple[str, ...] = ()
    excepting: bool = False

    @property
    def needs_words(self) -> str:
        """The goal's need in words: ``full``, ``names or better``…"""
        return f"{form_word(self.needed)}{' or better' if self.needed != 'full' else ''}"


def requirement_misses(ladder: Ladder, outcome: ContextOutcome, goal: str, except_servers: Sequence[str] = (),
                       keep_servers: Sequence[str] = ()) -> RequirementMiss | None:
    """What ``goal`` with its per-server requirements (as in :func:`recommend_for_contexts`) misses
    at one context length; ``None`` when it holds. ``outcome`` is that length's
    :class:`ContextOutcome` read off ``ladder``. Tier 0 (tool search not active) meets every goal.

    Raises:
        ValueError: an unknown goal.
    """
    if goal not in GOAL_FORMS:
        raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {goal!r}")
    if outcome.tier == 0:
        return None
    step = ladder.step_at(outcome.budget)
    if _requirement(ladder, goal, except_servers, keep_servers)(step):
        return None
    label = {s.name: s.label for s in ladder.servers}
    collapsed = set(step.collapsed) if step is not None else set()
    lost = tuple(name for name in keep_servers if label.get(name) in collapsed)
    if _requirement(ladder, goal, except_servers, ())(step):
        return RequirementMiss(lost=lost, needed=GOAL_FORMS[goal], excepting=bool(except_servers))
    name = {s.label: s.name for s in ladder.servers}
    others = tuple(name[lab] for lab in (step.collapsed if step is not None else ())
                   if lab in name and name[lab] not in except_servers)
    return RequirementMiss(lost=lost, goal_missed=True, needed=GOAL_FORMS[goal], collapsed=others,
                           excepting=bool(except_servers))


def collapsed_words(servers: Sequence[str], excepting: bool) -> str:
    """`` (collapsed to a summary line: a, b)`` (``collapsed and not excepted`` with
    ``--except``), at most :data:`_NAMED_MAX` names and then ``and N more``; ``""`` for none."""
    if not servers:
        return ""
    shown = ", ".join(map(reveal_line, servers[:_NAMED_MAX])) + (f" and {len(servers) - _NAMED_MAX} more"
                                               if len(servers) > _NAMED_MAX else "")
    return f" (collapsed and not excepted: {shown})" if excepting else f" (collapsed to a summary line: {shown})"


def lost_words(lost: Sequence[str]) -> str:
    """``a, b must stay named but are collapsed to a summary line`` (a name holding a line break with
    it as a marker: the sentence is one line, in JSON too)."""
    return f"{', '.join(map(reveal_line, lost))} must stay named but {'is' if len(lost) == 1 else 'are'} collapsed to a summary line"


def requirement_failures(ladder: Ladder, outcome: ContextOutcome, goal: str, except_servers: Sequence[str] = (),
                         keep_servers: Sequence[str] = ()) -> tuple[str, ...]:
    """Why ``goal`` with its per-server requirements (as in :func:`recommend_for_contexts`) does not
    hold at one context length, as short sentences (:func:`requirement_misses` in words); empty
    when it holds. ``outcome`` is that length's :class:`ContextOutcome` read off ``ladder``. Tier 0
    (tool search not active) meets every goal.

    Raises:
        ValueError: an unknown goal.
    """
    miss = requirement_misses(ladder, outcome, goal, except_servers, keep_servers)
    if miss is None:
        return ()
    failures = []
    if miss.lost:
        failures.append(f"{lost_words(miss.lost)} within a budget of {outcome.budget:,} tokens")
    if miss.goal_missed:
        # the servers the listing traded away, in the order the reference collapsed them
        failures.append(f"the listing is {outcome.outcome or form_word(outcome.listing_form)} (tier {outcome.tier}) within a "
                        f"budget of {outcome.budget:,} tokens; the goal needs {miss.needs_words}"
                        + collapsed_words(miss.collapsed, miss.excepting))
    return tuple(failures)


def _settings(budget: int, context_lengths: Sequence[int | None], current_pct: float) -> tuple[float, int]:
    """The smallest ``threshold_pct`` and ``listing_max_tokens`` giving every listed length a budget of
    at least ``budget`` (the caller checked that one exists)."""
    known = [c for c in context_lengths if c is not None and c > 0]
    cap = max(C.LISTING_MAX_TOKENS_MIN, budget)
    if not known:
        return current_pct, cap  # threshold_pct does not matter with only unknown lengths
    pct = smallest_threshold_pct(budget, min(known))
    assert pct is not None
    return pct, cap


def _unreachable_reason(need: int | None, largest: int, kind: str, words: str, headroom_pct: float,
                        single: bool = False) -> str:
    extra = f" (with {headroom_pct:g}% headroom)" if headroom_pct else ""
    if need is None:
        return f"no budget reaches it{extra}"
    # past the largest listing_max_tokens too, no longer context length reaches it: "the shortest" alone read
    # as if leaving that length out would do
    cap_too = (f", and more than the largest listing_max_tokens ({C.LISTING_MAX_TOKENS_MAX:,} tokens), which no "
               f"context length lifts" if kind in ("context", "request") and need > C.LISTING_MAX_TOKENS_MAX else "")
    if kind == "request":  # the words name the length: past that budget the request is longer than it
        return f"it needs a budget of {need:,} tokens{extra}, more than {words}{cap_too}"
    if kind == "context" and single:  # "the shortest" would point past the other lengths of a goal per length
        return f"it needs a budget of {need:,} tokens{extra}, more than {words}{cap_too}"
    if kind == "context":
        return (f"it needs a budget of {need:,} tokens{extra}, more than 100% of the shortest context length "
                f"({length_in_words(largest)}){cap_too}")
    if kind == "unknown":
        return (f"it needs a budget of {need:,} tokens{extra}; with an unknown context length the budget is at most "
                f"{C.UNKNOWN_CONTEXT_PCT_LEG:,}")
    return f"it needs a budget of {need:,} tokens{extra}, more than {words}"


def _keep_headroom(ladder: Ladder, pct: float, cap: int, lengths: Sequence[int | None],
                   outs: tuple[ContextOutcome, ...], headroom_pct: float) -> tuple[float, tuple[ContextOutcome, ...]]:
    """The smallest ``threshold_pct`` from ``pct`` up (0.1 steps) whose outcomes keep the headroom
    at every length without naming fewer servers or tools anywhere; ``pct`` when none does."""
    def kept(candidate: tuple[ContextOutcome, ...]) -> bool:
        return all((c.listing_tokens == 0 or c.budget >= budget_with_headroom(c.listing_tokens, headroom_pct))
                   and ladder.request_fits(c.context_length, c.budget) for c in candidate)

    if kept(outs):
        return pct, outs
    floor = min((c.servers_named, c.tools_named) for c in outs)
    for k in range(round(pct * 10) + 1, _PCT_STEPS + 1):
        candidate = outcomes(ladder, k / 10, cap, lengths)
        if kept(candidate) and min((c.servers_named, c.tools_named) for c in candidate) >= floor:
            return k / 10, candidate
    return pct, outs


def _short_of_room(o: ContextOutcome, headroom_pct: float) -> bool:
    return o.tier > 0 and o.listing_tokens > 0 and o.budget < budget_with_headroom(o.listing_tokens, headroom_pct)


def _smallest_holding(ladder: Ladder, pct: float, cap: int, lengths: Sequence[int | None], headroom_pct: float,
                      goal_of: Any, except_servers: Sequence[str], keep_servers: Sequence[str]
                      ) -> tuple[float, int, tuple[ContextOutcome, ...]] | None:
    """The smallest ``listing_max_tokens`` from ``cap`` up, then the smallest ``threshold_pct`` from
    ``pct`` up (0.1 steps), at which every length meets its own goal (``goal_of(length)``) with
    ``headroom_pct`` % of room; ``None`` when no setting does. With headroom a larger budget can
    choose a larger listing without that room, so raising threshold_pct alone is not always enough
    (the cap's floor of 200, or another length's larger goal)."""
    memo: dict[tuple[int | None, int], bool] = {}

    def holds(c: int | None, budget: int) -> bool:
        key = (c, budget)
        if key not in memo:
            o = _outcome_at(ladder, c, budget)
            memo[key] = not requirement_failures(ladder, o, goal_of(c), except_servers, keep_servers) \
                and not _short_of_room(o, headroom_pct) and ladder.request_fits(c, budget)
        return memo[key]

    # validity changes with the cap only where a budget crosses a listing's size or its room
    caps = sorted({cap} | {b for s in ladder.steps for b in (s.tokens, budget_with_headroom(s.tokens, headroom_pct))
                           if cap < b <= C.LISTING_MAX_TOKENS_MAX})
    known = [c for c in lengths if c is not None and c > 0]
    for limit in caps:
        for k in range(round(pct * 10), _PCT_STEPS + 1):
            budgets = [listing_budget(c, k / 10, limit)[0] for c in lengths]
            if all(holds(c, b) for c, b in zip(lengths, budgets)):
                return k / 10, limit, outcomes(ladder, k / 10, limit, lengths)
            if all(listing_budget(c, k / 10, limit)[0] >= limit for c in known):
                break  # every length already gets the cap: a larger threshold_pct changes nothing
    return None


def recommend_for_contexts(ladder: Ladder, config: ToolSearchConfig, context_lengths: Sequence[int | None],
                           goal: str, *, except_servers: Sequence[str] = (), keep_servers: Sequence[str] = (),
                           headroom_pct: float = 0.0,
                           length_goals: Mapping[int | None, str] | None = None) -> MultiRecommendation:
    """The ``threshold_pct`` and ``listing_max_tokens`` that reach ``goal`` at every context length
    in ``context_lengths`` with the fewest listing tokens; exact to 0.1 % and 1 token, and tight
    (0.1 less or 1 token less breaks the goal at some listed length, unless that value is at the
    bottom of its range, docs/reference.md §1.1).

    Goals: ``full`` (every tool with its short description), ``names`` (every server at names or
    better), ``listed`` (tier 1: form full, names or mixed), ``any`` (some listing: groups or
    better). Per-server requirements: ``except_servers`` may collapse to a summary line (relaxes
    ``names``), ``keep_servers`` must stay at names or better (with any goal).

    Headroom: the budget is at least ``headroom_pct`` % above the listing at every length (the
    budget chosen is ``ceil(listing × (1 + headroom_pct / 100))``), so the setting survives that
    much catalog growth. The listing chosen is the one with the fewest tokens that allows it.

    When the goal cannot be reached at every length, the answer (the best reachable setting) keeps
    the goal at every length where it fits and gives each length too short for it the listing naming
    the most servers and then tools that the length can hold (so the worst length names as many as any
    setting can), with the fewest listing tokens at every length: each length gets the budget a
    recommendation for it alone gives, as with per-length goals, so a length where the goal fits never
    lists less than the goal asks. ``reason`` says why the goal is out of reach, ``unnamed`` which
    servers are not named and why, and ``lower_goal`` the per-length goal that is reached. When no listing that
    reaches the goal keeps the headroom at a length but one fits there, the one among those that keeps the
    most room (as a share of the listing: :func:`_most_room`; else, when none reaches it, the one naming the
    most), with the largest budget that still gives it (less room than asked); a listing that keeps the
    room by naming less than the goal asks is not chosen where one that meets the goal fits. When nothing can be listed at all, the
    largest settings (100 %, 60,000 tokens), which give every length its best form; with
    ``listing: off`` (no setting lists anything), the current settings. When tool
    search is not active at all (tier 0: every schema is sent), the goal is reached with the
    current settings kept and a budget needed of 0 (:attr:`MultiRecommendation.inactive`).

    Args:
        ladder: :func:`toolsearch.analysis.sweep.listing_ladder` for the catalog, config and tokenizer.
        config: the current settings (only its threshold_pct is used, when every listed length
            is unknown and threshold_pct therefore does not matter).
        context_lengths: tokens (``None`` = unknown), at least one; outcomes keep this order.
        goal: one of :data:`GOALS`.
        except_servers / keep_servers: server names of the catalog (servers without deferred
            tools are accepted and change nothing).
        headroom_pct: 0 or more (%).
        length_goals: a goal per context length where it differs from ``goal`` (e.g.
            ``{200_000: "full", 1_000_000: "full"}`` with ``goal="names"``). Each length then gets
            at least the smallest budget its own goal needs (as a recommendation for that length
            alone would give it), and the settings are the smallest that give every length that
            budget; where a length's goal is out of reach, the length gets its best reachable
            listing, and ``reason`` names the length.

    Raises:
        ValueError: an unknown goal, an empty list of context lengths, a negative headroom, a
            server named in both ``except_servers`` and ``keep_servers``, or a per-length goal for
            a length not in ``context_lengths``.
    """
    if goal not in GOAL_FORMS:
        raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {goal!r}")
    if not context_lengths:
        raise ValueError("at least one context length is needed")
    if not headroom_pct >= 0 or headroom_pct > 1000:
        raise ValueError(f"headroom must be 0 to 1000 %, got {headroom_pct!r}")
    both = sorted(set(except_servers) & set(keep_servers))
    if both:
        raise ValueError(f"{', '.join(both)}: a server cannot be both an exception and kept")
    lengths = list(context_lengths)
    per_length = length_goals_for(goal, length_goals, lengths)
    except_servers, keep_servers = tuple(dict.fromkeys(except_servers)), tuple(dict.fromkeys(keep_servers))
    unfit = unfit_lengths(ladder, lengths)
    if unfit:
        # a length no request fits whatever the settings cannot drive the answer (its best reachable
        # listing would be the largest, in a request that does not fit anyway): the answer is for the others
        gone = {u.context_length for u in unfit}
        fit = [c for c in lengths if c not in gone]
        if fit:
            rec = recommend_for_contexts(ladder, config, fit, goal, except_servers=except_servers,
                                         keep_servers=keep_servers, headroom_pct=headroom_pct,
                                         length_goals={c: g for c, g in per_length if c not in gone})
            return replace(rec, unfit=unfit)
        kept = MultiRecommendation(goal, False, None, config.threshold_pct, config.listing_max_tokens, None,
                                   outcomes(ladder, config.threshold_pct, config.listing_max_tokens, lengths),
                                   ALL_UNFIT_RESERVE_REASON if any(u.reserve_tokens for u in unfit) else ALL_UNFIT_REASON,
                                   ladder.planning_tokenizer, except_servers, keep_servers,
                                   float(headroom_pct), length_goals=per_length,
                                   length_budgets=tuple(None for _ in lengths),
                                   length_goal_budgets=tuple(None for _ in lengths), unfit=unfit,
                                   reserve_pct=ladder.reserve_pct)
        return kept

    def result(reached: bool, reached_goal: str | None, pct: float, cap: int, budget: int | None,
               reason: str, budgets: tuple[int | None, ...] = (), *,
               goal_budget: int | None = None, goal_budgets: tuple[int | None, ...] = ()) -> MultiRecommendation:
        if reached:  # kept if no setting has the headroom: the budget reaches the goal, room or not
            goal_budget = budget
        outs = outcomes(ladder, pct, cap, lengths)
        spread = len(set(budgets)) > 1  # the lengths are given different budgets (the goal kept where it fits)
        if budget is not None and headroom_pct and (per_length or spread or cap == C.LISTING_MAX_TOKENS_MIN > budget):
            # Some length gets a budget above the one it needs (the cap's floor of 200, or another
            # length's larger goal), where a larger listing may fit with less headroom: raise
            # threshold_pct until none does.
            pct, outs = _keep_headroom(ladder, pct, cap, lengths, outs, headroom_pct)
        if reached and headroom_pct:
            found = _smallest_holding(ladder, pct, cap, lengths, headroom_pct,
                                      lambda c: goal_at(goal, per_length, c), except_servers, keep_servers)
            if found is None:
                # no (threshold_pct, listing_max_tokens) gives every length its goal and the room
                short = next((o for o in outs if _short_of_room(o, headroom_pct)), outs[0])
                reached, reason = False, (
                    f"no setting keeps {headroom_pct:g}% headroom at every length: the smallest that gives each "
                    f"length its goal gives {length_label(short.context_length)} a {short.listing_tokens:,}-token "
                    f"listing in a budget of {short.budget:,} tokens, less than {headroom_pct:g}% above it")
            else:
                if found[:2] != (pct, cap):
                    # No setting gives a length exactly the budget its goal needs (the cap's floor, or
                    # another length's larger goal): it gets a larger listing, and needs that
                    # listing's room. Say that figure, the one the settings were chosen for.
                    budgets = tuple(max(b if b is not None else 0, budget_with_headroom(o.listing_tokens, headroom_pct))
                                    for b, o in zip(budgets or tuple(budget for _ in lengths), found[2]))
                    budget = max(budgets)
                pct, cap, outs = found
        rec = MultiRecommendation(goal, reached, reached_goal, pct, cap, budget, outs, reason,
                                  ladder.planning_tokenizer, except_servers, keep_servers, float(headroom_pct),
                                  length_goals=per_length,
                                  length_budgets=budgets or tuple(budget for _ in lengths),
                                  goal_budget=budget if reached else goal_budget,
                                  length_goal_budgets=(budgets or tuple(budget for _ in lengths)) if reached
                                  else goal_budgets)
        return _finish(rec, ladder, config)

    if not ladder.activated:  # tier 0 everywhere: every schema is sent, every goal holds (as check judges)
        return result(True, None, config.threshold_pct, config.listing_max_tokens, 0, "")
    if not ladder.listing_enabled:  # no setting changes anything: keep the current ones
        return result(False, None, config.threshold_pct, config.listing_max_tokens, None, LISTING_OFF_REASON)
    def each_alone(goal_of: Any) -> tuple[list[MultiRecommendation], tuple[int | None, ...]]:
        """Each length alone, with its own goal (``goal_of(length)``): its answer and its budget."""
        alone = [recommend_for_contexts(ladder, config, [c], goal_of(c), except_servers=except_servers,
                                        keep_servers=keep_servers, headroom_pct=headroom_pct) for c in lengths]
        return alone, tuple(r.budget_needed for r in alone)

    def settings_for(budgets: Sequence[int]) -> tuple[float, int, int]:
        """The smallest settings giving each length its budget: ``(threshold_pct, listing_max_tokens,
        the largest budget)``."""
        known = [(c, b) for c, b in zip(lengths, budgets) if c is not None and c > 0]
        pct = max((smallest_threshold_pct(b, c) or C.THRESHOLD_PCT_MAX for c, b in known),
                  default=config.threshold_pct)
        need = max(budgets)
        return pct, max(C.LISTING_MAX_TOKENS_MIN, need), need

    if per_length:
        # Each length alone, with its own goal; then the smallest settings giving each its budget.
        alone, budgets = each_alone(lambda c: goal_at(goal, per_length, c))
        reasons = "; ".join(f"{at_length(c)}: {r.reason}" for c, r in zip(lengths, alone) if not r.reached)
        goals_need = [r.goal_budget for r in alone]
        goal_need = None if None in goals_need else max(goals_need)
        if any(b is None for b in budgets):
            return result(False, None, *_largest_fitting(ladder, lengths), None, reasons,
                          budgets, goal_budget=goal_need, goal_budgets=tuple(goals_need))
        pct, cap, need = settings_for([b for b in budgets if b is not None])
        if reasons and len(lengths) > 1:
            # a length's own goal out of reach: each length gets the listing its own answer gives it
            # (the smallest settings giving each its budget can pass a short length's largest budget
            # below the next larger listing, and choose that listing with almost no room)
            own = _settings_giving(ladder, lengths, alone, headroom_pct, lambda c: goal_at(goal, per_length, c),
                                   except_servers, keep_servers)
            if own is not None:
                pct, cap = own
        return result(not reasons, None, pct, cap, need, reasons, budgets,
                      goal_budget=goal_need, goal_budgets=tuple(goals_need))
    largest, kind, limit_words = _largest_budget(lengths, ladder)
    chosen = _chosen_budgets(ladder, headroom_pct)
    meets = _requirement(ladder, goal, except_servers, keep_servers)
    needs = [b for b, step in zip(chosen, ladder.steps) if b is not None and meets(step)]
    goal_budget = min(needs) if needs else None
    if goal_budget is not None and goal_budget <= largest:
        pct, cap = _settings(goal_budget, lengths, config.threshold_pct)
        return result(True, None, pct, cap, goal_budget, "")
    reason = _unreachable_reason(goal_budget, largest, kind, limit_words, headroom_pct, len(lengths) == 1)
    less = _most_headroom_reaching(ladder, meets, largest, headroom_pct)
    if less is not None:  # out of reach only for the headroom asked: say how much of it would do
        reason += f"; {less:g}% headroom or less reaches it"
    # the smallest budget a listing meeting the goal needs without the headroom: where it fits, the goal is
    # reachable, and the answer lists no less than the goal asks there (with less room than asked)
    plain = [b for b, step in zip(_chosen_budgets(ladder, 0), ladder.steps) if b is not None and meets(step)]
    plain_budget = min(plain) if plain else None
    if len(lengths) > 1:
        # Too short a length keeps the goal out of reach: the best reachable setting keeps the goal where it
        # fits (with its room where that fits) and gives each other length its own best reachable listing,
        # so a length where the goal fits never lists less than the goal asks, and a longer length where it
        # fits nowhere still names what it can (not only what the shortest length can).
        alone, budgets = each_alone(lambda c: goal)
        if all(b is not None for b in budgets):
            _, _, need = settings_for([b for b in budgets if b is not None])
            own = _settings_giving(ladder, lengths, alone, headroom_pct, lambda c: goal, except_servers, keep_servers)
            if own is not None:
                return result(False, None, own[0], own[1], need, reason, budgets, goal_budget=goal_budget,
                              goal_budgets=tuple(goal_budget for _ in lengths))
    valid = [(i, b) for i, b in enumerate(chosen) if b is not None and b <= largest]
    if headroom_pct and (not valid or (plain_budget is not None and plain_budget <= largest)):
        # No listing that meets the goal keeps the headroom within the shortest length's largest budget,
        # though one meets it there without (or none keeps the headroom at all): take the listing that
        # meets the goal with the most room below the next larger listing (else the one naming the most),
        # and give it that room, so it keeps the goal and what it can of the headroom asked; a listing
        # that keeps the room by naming less than the goal asks is not the answer, nor the largest settings.
        room = _most_room(ladder, largest, meets)
        if room is not None:
            pct, cap = _settings(room, lengths, config.threshold_pct)
            return result(False, None, pct, cap, room, reason, goal_budget=goal_budget)
    if not valid:
        return result(False, None, *_largest_fitting(ladder, lengths), None, reason,
                      goal_budget=goal_budget)
    best = ladder.counts_of(ladder.steps[valid[0][0]])
    same = [b for i, b in valid if (lambda c: (c.servers_named, c.tools_named))(ladder.counts_of(ladder.steps[i]))
            == (best.servers_named, best.tools_named)]
    budget = min(same)
    pct, cap = _settings(budget, lengths, config.threshold_pct)
    return result(False, None, pct, cap, budget, reason, goal_budget=goal_budget)


def _finish(rec: MultiRecommendation, ladder: Ladder, config: ToolSearchConfig) -> MultiRecommendation:
    """Fill ``reached_goal``, ``unnamed`` and the growth figures of ``rec`` from its outcomes
    (``config``: the current settings, for what a suggested per-length goal would cost)."""
    contexts = rec.contexts
    if rec.reached and not rec.length_goals:
        reached_goal: str | None = rec.goal
    else:
        forms = [c.listing_form for c in contexts]
        reached_goal = next((g for g in GOALS if all(FORM_RANK[f] <= FORM_RANK[GOAL_FORMS[g]] for f in forms)), None)
    worst = rec.worst
    step = ladder.step_at(worst.budget)
    states = ladder.states_of(step)
    chosen = _chosen_budgets(ladder, rec.headroom_pct)
    largest, limit_kind, limit_words = _largest_budget([c.context_length for c in contexts], ladder)
    label = {s.name: s.label for s in ladder.servers}
    # A label is named at every step before the one that collapses it (steps only add collapsed
    # labels), so the smallest budget naming it is the smallest chosen budget before that step.
    collapsed_at: dict[str, int] = {}
    for index, step in enumerate(ladder.steps):
        if step.collapsed and step.collapsed[-1] not in collapsed_at:
            collapsed_at[step.collapsed[-1]] = index
    before: list[int | None] = []  # before[j]: the smallest chosen budget of steps 0..j-1
    low: int | None = None
    for budget in chosen:
        before.append(low)
        if budget is not None and (low is None or budget < low):
            low = budget
    # the same without the headroom: what a length can name at all (with the headroom, a server's need can
    # pass every length that names it with less room, and "no listed length can name it" was said of one
    # named at 16K and longer)
    plain_before: list[int | None] = []
    plain_low: int | None = None
    for budget in (_chosen_budgets(ladder, 0) if rec.headroom_pct else chosen):
        plain_before.append(plain_low)
        if budget is not None and (plain_low is None or budget < plain_low):
            plain_low = budget
    # every length's states once: per server and length, they made the loop below grow with the
    # square of the servers
    states_at = {c.context_length: ladder.states_of(ladder.step_at(c.budget)) for c in contexts}
    # the largest budget each known length can use (the request can limit it below the whole context)
    usable = {c.context_length: _length_limit(ladder, c.context_length) for c in contexts
              if c.context_length is not None and c.context_length > 0}
    # the per-length goal that reaches where one goal for every length cannot: one for the whole answer
    lower = _lower_goal(rec, ladder, config)
    unnamed = []
    lowered_here: set[str] = set()  # unnamed servers the per-length goal names where it fits
    blocked: list[tuple[str, int]] = []  # kept servers no setting names at some length, with their need
    for name, state in states.items():
        if state in ("full", "names") or rec.inactive:  # tier 0: every schema is sent, no listing to name it
            continue
        at = collapsed_at.get(label[name])
        need = before[at] if at is not None else low
        # every length that leaves it unnamed, not only the worst: "at 32K" alone reads as if the
        # longer lengths named it
        unnamed_at = [c.context_length for c in contexts
                      if states_at[c.context_length].get(name) not in ("full", "names")]
        where = ("every listed length" if len(unnamed_at) == len(contexts) > 1
                 else _and(length_label(c) for c in unnamed_at))
        extra = f" (with {rec.headroom_pct:g}% headroom)" if rec.headroom_pct and need is not None else ""
        # a longer length may name it (its own goal, or a larger budget): where the words do not
        # say where it is unnamed, say where it is named, or the line reads as if no length named
        # it beside a row that does
        named_at = [c.context_length for c in contexts if c.context_length not in unnamed_at]
        named_words = _and(length_label(c) for c in named_at) if named_at else ""
        if rec.reason == LISTING_OFF_REASON:  # not a matter of budget: say why, not "no budget names it"
            why = f"{name}: {LISTING_OFF_REASON}"
        elif need is None:
            why = f"{name}: no budget names it"
        elif need > largest:
            # an excepted server says so first, as below: "more than the whole context" alone reads as a
            # goal missed, and the goal lets it collapse
            excepted = "may collapse (an exception to the goal); " if name in rec.except_servers else ""
            # every listed length too short to name it, not the shortest alone: "more than the whole 16K
            # context; named at 1M" left 32K, where it is not named either, without a reason
            # (only the lengths that leave it unnamed: with headroom, its need can pass a length that names it
            # without that room, and "more than the whole context at 200K; named at 200K" contradicted itself)
            too_short = sorted({c.context_length for c in contexts if c.context_length in unnamed_at
                                and c.context_length is not None and 0 < usable[c.context_length] < need})
            # where the request limits a length below its whole context (Ladder.request_limit), said apart
            fits = "the largest budget whose request fits the context" + (
                f" with its {ladder.reserve_pct:g}% reserve" if ladder.reserve_pct else "")
            parts = [f"{words} at {_and(length_label(n) for n in group)} ({_and(f'{usable[n]:,}' for n in group)} tokens)"
                     for words, group in ((fits,
                                           [n for n in too_short if usable[n] < n]),
                                          ("the whole context", [n for n in too_short if usable[n] == n])) if group]
            limit = (limit_words if len(too_short) < 2 or limit_kind not in ("context", "request")
                     else " and ".join(parts))
            # the longer lengths that leave it unnamed too: no listing_max_tokens gives them that budget
            capped = [n for n in unnamed_at if n is not None and n > 0 and n not in too_short
                      and need > C.LISTING_MAX_TOKENS_MAX] if limit_kind in ("context", "request") else []
            if capped:
                limit += (f", and more than the largest listing_max_tokens ({C.LISTING_MAX_TOKENS_MAX:,} tokens) at "
                          f"{_and(length_label(n) for n in capped)}")
            why = f"{name}: {excepted}naming it needs a budget of {need:,} tokens{extra}, more than {limit}"
            # the longer lengths that could name it and do not: the goal lets it collapse there (the
            # cheapest setting), which the words above, about the short lengths, left unsaid
            spare = [n for n in unnamed_at if n is not None and n > 0 and n not in too_short and n not in capped
                     ] if limit_kind in ("context", "request") and not excepted else []
            if spare:
                why += f"; the goal allows a summary line at {_and(length_label(n) for n in spare)}"
            why += f"; named at {named_words}" if named_at else ""
            if named_at and lower is not None:  # what keeps its lengths' goal and names it where it fits
                lowered_here.add(name)  # said on the first such line only (below)
            if name in rec.keep_servers:  # the goal asks for it named: say what would
                plain = plain_before[at] if at is not None else plain_low
                can = plain if plain is not None else need
                why += _kept_words(rec, name, can, ladder)
                blocked.append((name, can))
        elif name in rec.except_servers:
            only = f"; collapsed at {where} only, named at {named_words}" if named_at else ""
            why = (f"{name}: may collapse (an exception to the goal){only}; naming it needs a budget of {need:,} "
                   f"tokens{extra}")
        else:  # "at 32K" here already says the other lengths name it
            why = f"{name}: the goal allows a summary line at {where}; naming it needs a budget of {need:,} tokens{extra}"
        unnamed.append(UnnamedServer(name, state, need, why))
    unnamed.sort(key=lambda u: (-(u.tokens_needed or 10**9), u.name))
    # the per-length goal once, on the first line it answers: on every such line, eight servers unnamed at a
    # short length repeated the same long suggestion eight times
    first = next((i for i, u in enumerate(unnamed) if u.name in lowered_here), None)
    if first is not None and lower is not None:
        u = unnamed[first]
        kept_at = u.reason.find("; it is kept named,")  # the per-length goal comes before the kept words
        words = f"; {_lower_goal_words(lower)}"
        reason = u.reason + words if kept_at < 0 else u.reason[:kept_at] + words + u.reason[kept_at:]
        unnamed[first] = replace(u, reason=reason)
    growth = min(c.headroom_tokens for c in contexts) if worst.listing_tokens else 0
    # the tools counted at the lengths with that least room, at their own listing's tokens per named tool
    # (not the worst length's: a names listing at 200K costs more per tool than a mixed one at 32K); the
    # fewest where several share it
    tight = [c for c in contexts if c.headroom_tokens == growth and c.tools_named] if worst.tools_named else []
    tools = min((int(growth // (c.listing_tokens / c.tools_named)) for c in tight), default=0)
    return replace(rec, reached_goal=reached_goal, unnamed=tuple(unnamed), growth_tokens=growth, growth_tools=tools,
                   tools_tokens=tuple(ladder.request_tokens(c.budget) for c in contexts),
                   reserve_pct=ladder.reserve_pct,
                   keep_forces=_keep_forces_words(rec, ladder, config, states_at),
                   lower_goal=lower.suggested if lower else "",
                   lower_goal_words=(_lower_goal_words(lower) if lower
                                     else _kept_block_words(rec, blocked, ladder) if blocked else ""),
                   lower_goal_app_words=_lower_goal_words(lower, "app") if lower else "")


def _keep_forces_words(rec: MultiRecommendation, ladder: Ladder, config: ToolSearchConfig,
                       states_at: Mapping[int | None, Mapping[str, str]]) -> str:
    """With servers kept named (``rec.keep_servers``): the servers the kept ones keep named too, at
    some listed length, that the same goal without them leaves unnamed, and why. The listing
    collapses the largest names block first, so a kept server keeps every server after it in that
    order named; the words name the kept server that collapses first and the budget needed with and
    without the kept servers (the same figure as ``budget needed``; ``(with 10% headroom)`` after them
    when ``rec``'s headroom is in both, as ``check`` without ``--headroom`` gives smaller ones). ``""`` when keeping changes no
    other server's state, or without kept servers. ``states_at``: per length of ``rec``, each
    server's state there."""
    if not rec.keep_servers or rec.inactive or not ladder.listing_enabled:
        return ""
    alone = recommend_for_contexts(ladder, config, [c.context_length for c in rec.contexts], rec.goal,
                                   except_servers=rec.except_servers, headroom_pct=rec.headroom_pct,
                                   length_goals=dict(rec.length_goals))
    named = ("full", "names")
    label = {s.name: s.label for s in ladder.servers}
    kept = [name for name in rec.keep_servers if name in label]
    forced: list[str] = []
    for mine, theirs in zip(rec.contexts, alone.contexts):
        here = states_at[mine.context_length]
        if any(here.get(name) not in named for name in kept):
            # a kept server collapsed here (too short a length for it): what else is named here is the
            # best reachable setting's doing, not keeping it named
            continue
        before = ladder.states_of(ladder.step_at(theirs.budget)) if theirs.tier != 0 else {}
        for name, state in here.items():
            if (state in named and before.get(name) not in named and name not in rec.keep_servers
                    and name not in forced):
                forced.append(name)
    if not forced:
        return ""
    order = {label: i for i, label in enumerate(ladder.steps[-1].collapsed)} if ladder.steps else {}
    first = min(kept, key=lambda name: (order.get(label[name], len(order)), name))
    forced.sort(key=lambda name: (order.get(label.get(name), len(order)), name))
    words = (f"keeping {first} named keeps {_and(forced)} named too: the listing collapses the largest names block "
             f"first, and {first}'s is collapsed {agree(forced, 'before its', 'before any of theirs')}")
    if rec.reached and rec.budget_needed is not None and alone.budget_needed is not None:
        # out of reach, budget_needed is the best reachable listing's, not the kept servers' need
        # the headroom is in both figures: said, as check without --headroom gives smaller ones
        words += (f"; budget needed {rec.budget_needed:,} tokens with the kept servers, "
                  f"{alone.budget_needed:,} for the goal alone"
                  + (f" (with {rec.headroom_pct:g}% headroom)" if rec.headroom_pct else ""))
    return words


def keep_forces_lines(rec: MultiRecommendation | Any) -> list[str]:
    """:attr:`MultiRecommendation.keep_forces` (or a ``check`` result's, the same words) as a line of
    ``recommend``, ``check`` and the report, and a notice of the Tuning page; ``[]`` when keeping the
    servers changes no other server's state."""
    return [rec.keep_forces] if rec.keep_forces else []


def _kept_words(rec: MultiRecommendation, name: str, need: int, ladder: Ladder | None = None) -> str:
    """For a server the goal keeps named (``keep_servers``) that a budget of ``need`` tokens would
    name (without headroom: a length that names it with less room than asked can name it) but some
    listed length cannot give: what would reach the goal for it, after the reason. The lengths too
    short for it are left out of the context lengths (when a longer one can name it), or the server
    is no longer kept."""
    return f"; it is kept named, {_kept_block(rec, name, need, ladder)}"


def _kept_block(rec: MultiRecommendation, name: str, need: int, ladder: Ladder | None = None) -> str:
    """For a server kept named (``keep_servers``) that a budget of ``need`` tokens names, the words
    after "kept named": where no setting names it and what to do, as ``recommend``'s ``not named``
    line (:func:`_kept_words`) and ``check``'s suggestion (:func:`_kept_block_words`) both say it."""
    short = [c.context_length for c in rec.contexts if need > _largest_budget([c.context_length], ladder)[0]]
    fits = len(short) < len(rec.contexts)
    where = _and(_length_word(c) for c in short)
    return (f"which no setting does at {where}, whatever the goal there: "
            + (f"leave {where} out of the context lengths, or stop keeping it named" if fits
               else "no listed length can name it, so stop keeping it named"))


def _kept_block_words(rec: MultiRecommendation, blocked: Sequence[tuple[str, int]], ladder: Ladder | None = None) -> str:
    """``check``'s suggestion when servers kept named (``blocked``: each with the budget naming it)
    cannot be named at some listed length: no per-length goal reaches the goal there, so the words say
    what would (:func:`_kept_block`), in place of a lower goal that would fail too."""
    return "; ".join(f"{name} is kept named at every length, {_kept_block(rec, name, need, ladder)}" for name, need in blocked)


@dataclass(frozen=True)
class _LowerGoal:
    """A per-length goal for the lengths too short for the goal (:func:`_lower_goal`)."""

    fits: tuple[int | None, ...]  # the lengths where the goal fits
    short: tuple[int, ...]  # every length too short for it, each given the best goal it reaches
    items: str  # the per-length goals, "32k=any" or "16k=listed,32k=names"
    suggested: str  # the whole goal as --goal takes it, "names,32k=any"
    cost: str  # what that goal costs (suggestion_cost_words)
    statement: str = ""  # that whole goal in words (goal_statement), as the Tuning page gives it


def _lower_goal(rec: MultiRecommendation, ladder: Ladder, config: ToolSearchConfig) -> _LowerGoal | None:
    """With one goal for every length out of reach because some listed lengths are too short for it
    while others are not: the goal as ``--goal`` takes it with, at each length too short for it, the
    most demanding plain goal that length reaches (from the form the best reachable setting gives it,
    the best listing it can hold), e.g. ``full,3k=names``. Verified with :func:`recommend_for_contexts`
    on ``ladder`` (``config``: the current settings, for its cost): ``None`` when that goal is not
    reached either (a server kept named that a short length cannot name, said by :func:`_kept_block`),
    when no length fits the goal or some length lists nothing, and with per-length goals already."""
    if rec.reached or rec.length_goals or rec.goal_budget is None or rec.inactive or not ladder.listing_enabled:
        return None
    short = [c.context_length for c in rec.contexts if rec.goal_budget > _largest_budget([c.context_length], ladder)[0]]
    fits = tuple(c.context_length for c in rec.contexts if c.context_length not in short)
    if not short or not fits or any(c is None for c in short):
        return None
    lowest = GOALS.index(rec.goal) + 1  # a length too short for the goal gets a less demanding one
    goals: dict[int, str] = {}
    for c in rec.contexts:
        if c.context_length in short:
            # the most demanding goal that length reaches alone, with the headroom asked: the form of its best
            # reachable listing says which goal fits without the room, and with headroom a listing that meets
            # that goal may not keep the room while a less demanding one does (a per-length goal was then not
            # suggested, though one is reached)
            reachable = next((g for g in GOALS[lowest:] if FORM_RANK[c.listing_form] <= FORM_RANK[GOAL_FORMS[g]]
                              and recommend_for_contexts(ladder, config, [c.context_length], g,
                                                         except_servers=rec.except_servers,
                                                         keep_servers=rec.keep_servers,
                                                         headroom_pct=rec.headroom_pct).reached), None)
            if reachable is None:
                return None
            goals[c.context_length] = reachable
    keys = []
    for n, g in sorted(goals.items()):
        keys.append(f"{length_arg(n)}={g}")  # as --goal takes it: 32k=names, 200=listed, unknown=any
    items = ",".join(keys)
    alternative = recommend_for_contexts(
        ladder, config, [c.context_length for c in rec.contexts], rec.goal, except_servers=rec.except_servers,
        keep_servers=rec.keep_servers, headroom_pct=rec.headroom_pct, length_goals=goals)
    if not alternative.reached:
        return None
    # the whole goal as `--goal` takes it: "32k=listed" alone is refused there (the other lengths
    # would have no goal); the Tuning page's per-length field takes the items alone
    return _LowerGoal(fits, tuple(sorted(goals)), items, f"{rec.goal},{items}", suggestion_cost_words(alternative),
                      alternative.goal_words)


#: How the Tuning page names its field for per-length goals, where a suggested goal says what to enter.
LENGTH_GOALS_FIELD = "Other goal at some lengths"

#: The Tuning page's field for the goal of every length without one of its own.
GOAL_FIELD = "Goal (all other lengths)"


def per_length_goal_how(statement: str, items: str, suggested: str, surface: str = "cli") -> str:
    """How to ask for a suggested per-length goal, inside the parentheses of a suggestion: on the
    command line (``surface="cli"``) its items and the whole ``--goal`` (``"3k=names; on the command
    line --goal full,3k=names"``); on the Tuning page (``"app"``) the whole goal in the words of
    ``recommend``'s ``goal:`` line (``statement``: :func:`goal_statement`) and the items for the page's
    field (:data:`LENGTH_GOALS_FIELD`): ``"goal: every server at names or better at 3K; every tool with
    its short description (form full) at 200K · Other goal at some lengths: 3k=names"``. ``items``:
    the ``LENGTH=GOAL`` items, comma-separated; ``suggested``: the whole goal as ``--goal`` takes it."""
    shown = items.replace(",", ", ")
    if surface == "app":
        return f"goal: {statement} · {LENGTH_GOALS_FIELD}: {shown}"
    return f"{shown}; on the command line --goal {suggested}"


def _lower_goal_words(lower: _LowerGoal, surface: str = "cli") -> str:
    """:func:`_lower_goal`'s suggestion in words, as ``check`` gives it after the reason no setting
    reaches the goal and ``recommend`` after the reason (or a ``not named`` server's reason):
    ``a goal of its own for 3K keeps the goal at 200K (3k=names; on the command line --goal
    full,3k=names); that goal takes threshold_pct 49.1%, …``; ``surface="app"``: the Tuning page's
    words (:func:`per_length_goal_how`)."""
    own = "a goal of its own" if len(lower.short) == 1 else "a goal of their own"
    return (f"{own} for {_and(length_label(n) for n in lower.short)} keeps the goal at "
            f"{_and(length_label(c) for c in lower.fits)} "
            f"({per_length_goal_how(lower.statement, lower.items, lower.suggested, surface)}); {lower.cost}")


def suggestion_cost_words(rec: MultiRecommendation) -> str:
    """What the settings of ``rec`` cost, in words, for a goal suggested beside another answer: the two
    settings, then the listing at every listed length in tokens and as a share of that context length
    (:func:`toolsearch.analysis.quantities.context_share`, as the report and the large-share lines
    write it), e.g. ``that goal takes threshold_pct 22.4%, listing_max_tokens 44,789: a listing of
    38 tokens at 32K (0.1% of the context), 44,789 tokens at 200K (22.4% of the context) and 44,789
    tokens at 1M (4.5% of the context)``."""
    parts = []
    for c in rec.contexts:
        share = context_share(c.listing_tokens, c.context_length)
        parts.append(f"{c.listing_tokens:,} tokens {at_length(c.context_length)}"
                     + (f" ({share} of the context)" if share else ""))
    return (f"that goal takes {settings_words(rec.threshold_pct, rec.listing_max_tokens)}: "
            f"a listing of {_and(parts)}")


def _worse(before: ContextOutcome, after: ContextOutcome) -> bool:
    return (after.servers_named, after.tools_named, -FORM_RANK[after.listing_form]) < \
        (before.servers_named, before.tools_named, -FORM_RANK[before.listing_form])


def lowered_lengths(current: Sequence[ContextOutcome], recommended: Sequence[ContextOutcome]) -> list[int | None]:
    """The context lengths where ``recommended`` names fewer servers, or as many servers but fewer
    tools, or gives a worse form than ``current`` (same lengths, same order)."""
    return [a.context_length for a, b in zip(current, recommended) if _worse(a, b)]


def outcome_change(before: ContextOutcome, after: ContextOutcome) -> str:
    """How ``after`` compares with ``before`` at one context length, by counts: ``"lower: 9 → 1 of
    10 servers named"``, ``"better: 120 → 178 tools named"``, ``"lower form: full → names"``, or
    ``"same listing"`` (same form, servers and tools named); never "same" when servers are lost."""
    total = after.servers_total or before.servers_total
    if after.servers_named != before.servers_named:
        word = "lower" if after.servers_named < before.servers_named else "better"
        return f"{word}: {before.servers_named:,} → {after.servers_named:,} of {total:,} servers named"
    if after.tools_named != before.tools_named:
        word = "lower" if after.tools_named < before.tools_named else "better"
        return f"{word}: {before.tools_named:,} → {after.tools_named:,} tools named"
    if after.listing_form != before.listing_form:
        word = "lower" if FORM_RANK[after.listing_form] > FORM_RANK[before.listing_form] else "better"
        return f"{word} form: {form_word(before.listing_form)} → {form_word(after.listing_form)}"  # one level of parentheses where it is quoted
    return "same listing"


def no_longer_named(ladder: Ladder, before: ContextOutcome, after: ContextOutcome) -> tuple[str, ...]:
    """The servers ``before`` names (full or names) that ``after`` does not (one context length,
    both read off ``ladder``), in the order the listing collapses them."""
    def states(o: ContextOutcome) -> dict[str, str]:
        return ladder.states_of(ladder.step_at(o.budget)) if o.tier != 0 else {}

    was, now = states(before), states(after)
    lost = [name for name, state in was.items() if state in ("full", "names") and now.get(name) not in ("full", "names")]
    order = {label: i for i, label in enumerate(ladder.steps[-1].collapsed)} if ladder.steps else {}
    label = {s.name: s.label for s in ladder.servers}
    return tuple(sorted(lost, key=lambda name: (order.get(label.get(name), len(order)), name)))


def lowered_changes(ladder: Ladder, config: ToolSearchConfig, rec: MultiRecommendation) -> list[tuple[int | None, str]]:
    """Where ``rec`` lists less than the settings ``config`` has now: ``[(context length or None,
    change in words (:func:`outcome_change`), with the servers it no longer names
    (:func:`no_longer_named`: ``"lower: 10 → 9 of 10 servers named; no longer named: cloudflare"``)),
    ...]`` in the order of ``rec.contexts``: a count alone would trade a server away unnamed."""
    return [(c, change if not lost else f"{change}; no longer named: {', '.join(lost)}")
            for c, change, lost in lowered_servers(ladder, config, rec)]


def lowered_servers(ladder: Ladder, config: ToolSearchConfig,
                    rec: MultiRecommendation) -> list[tuple[int | None, str, tuple[str, ...]]]:
    """:func:`lowered_changes` with the servers apart: ``[(context length or None, change in words
    (:func:`outcome_change`), servers no longer named (:func:`no_longer_named`)), ...]``."""
    lengths = [c.context_length for c in rec.contexts]
    current = outcomes(ladder, config.threshold_pct, config.listing_max_tokens, lengths)
    lowered = set(lowered_lengths(current, rec.contexts))
    return [(a.context_length, outcome_change(a, b), no_longer_named(ladder, a, b)) for a, b in zip(current, rec.contexts)
            if a.context_length in lowered]


def raised_changes(ladder: Ladder, config: ToolSearchConfig, rec: MultiRecommendation) -> list[tuple[int | None, str]]:
    """Where ``rec`` lists more than the settings ``config`` has now: ``[(context length or None,
    change in words (:func:`outcome_change`: ``"better: 4 → 5 of 5 servers named"``)), ...]`` in the
    order of ``rec.contexts``; the counterpart of :func:`lowered_changes`, the same words the Tuning
    page's change column gives."""
    lengths = [c.context_length for c in rec.contexts]
    current = outcomes(ladder, config.threshold_pct, config.listing_max_tokens, lengths)
    changes = [(b.context_length, outcome_change(a, b)) for a, b in zip(current, rec.contexts)]
    return [(c, change) for c, change in changes if change.startswith("better")]


def raised_words(config: ToolSearchConfig, raised: Sequence[tuple[int | None, str]]) -> str:
    """Where ``rec`` lists more than the current settings (``raised`` from :func:`raised_changes`,
    not empty), in one line, as ``recommend`` prints it: ``lists more than the current settings
    (threshold_pct 2%, listing_max_tokens 1,000) at 32K (better: 4 → 5 of 5 servers named)``
    (``default`` settings when ``config`` has the defaults)."""
    defaults = (config.threshold_pct, config.listing_max_tokens) == (C.THRESHOLD_PCT_DEFAULT, C.LISTING_MAX_TOKENS_DEFAULT)
    settings = "default" if defaults else "current"
    return (f"lists more than the {settings} settings ({read_settings_words(config)}) "
            f"at {lowered_where(raised)}")


def headroom_listing_as_much(ladder: Ladder, config: ToolSearchConfig, rec: MultiRecommendation) -> int | None:
    """The smallest headroom (a whole %, at most :data:`~toolsearch.engine.constants.HEADROOM_PCT_MAX`)
    with which the same question as ``rec`` (goal, per-length goals, exceptions, kept servers, context
    lengths) is answered by settings that reach the goal and list no less than ``config`` at every
    listed length (:func:`lowered_servers` empty). ``None`` when no such headroom exists (up to the
    largest, the goal stops being reachable with the room asked first) or ``rec`` does not reach its
    goal; ``rec``'s own headroom (rounded up) when it already lists no less.

    Found with :func:`recommend_for_contexts` itself: probed at doubling headrooms, then bisected.
    While the goal is reached, a larger headroom never gives a length a smaller budget (the listing
    chosen is no smaller, and the budget is that listing times ``1 + headroom``), so the answer is
    exact; past the first headroom whose answer no longer reaches the goal, nothing larger does."""
    if not rec.reached:
        return None
    lengths = [c.context_length for c in rec.contexts]

    def answer(headroom: int) -> tuple[bool, bool]:  # (reached, lists no less than config)
        asked = recommend_for_contexts(ladder, config, lengths, rec.goal, except_servers=rec.except_servers,
                                       keep_servers=rec.keep_servers, headroom_pct=float(headroom),
                                       length_goals=dict(rec.length_goals))
        return asked.reached, asked.reached and not lowered_servers(ladder, config, asked)

    low = math.ceil(rec.headroom_pct)
    if answer(low)[1]:
        return low
    high = max(low, 5)
    while True:  # low: lists less; find a headroom that lists as much, or one that misses the goal
        high = min(high * 2, int(C.HEADROOM_PCT_MAX))
        reached, as_much = answer(high)
        if as_much:
            break
        if not reached or high >= C.HEADROOM_PCT_MAX:
            return None
        low = high
    while high - low > 1:  # answer(low) lists less, answer(high) lists as much
        middle = (low + high) // 2
        low, high = (low, middle) if answer(middle)[1] else (middle, high)
    return high


@dataclass(frozen=True)
class KeepingGoal:
    """The goal that keeps what the current settings list at the lengths where a recommendation
    lists less (:func:`keeping_goal`).

    Attributes:
        goal: the whole goal as ``--goal`` takes it, e.g. ``names,200k=full,1m=full``.
        lengths: the lengths where the recommendation lists less that this goal keeps as the current
            settings list them; ``still_lower``: those it does not (no plain goal keeps them).
        threshold_pct / listing_max_tokens: the settings that reach it; ``cost``: what they cost, in
            words (:func:`suggestion_cost_words`).
        statement: the goal in words (:func:`goal_statement`), as the Tuning page gives it.
    """

    goal: str
    lengths: tuple[int | None, ...]
    still_lower: tuple[int | None, ...]
    threshold_pct: float
    listing_max_tokens: int
    cost: str
    statement: str = ""

    def words(self, settings: str = "current", surface: str = "cli") -> str:
        """In words, as the ``lists less`` line ends: ``--goal names,200k=full,1m=full keeps what the
        default settings list at 200K and 1M; that goal takes threshold_pct 5.1%, …``; with
        ``surface="app"`` as the Tuning page says it, the goal in words and the items for its field in
        place of the command line (:func:`per_length_goal_how`): ``a per-length goal keeps what the
        default settings list at 200K and 1M (goal: … · Other goal at some lengths: 200k=full, 1m=full);
        that goal takes …``."""
        rest = f" (not at {_and(length_label(c) for c in self.still_lower)})" if self.still_lower else ""
        where = f"{_and(length_label(c) for c in self.lengths)}{rest}"
        if surface == "app":
            items = self.goal.partition(",")[2]
            if not items:  # one goal for every length: the goal field alone asks for it
                return (f"the goal {self.goal} keeps what the {settings} settings list at {where} "
                        f"(goal: {self.statement} · {GOAL_FIELD}: {self.goal}); {self.cost}")
            return (f"a per-length goal keeps what the {settings} settings list at {where} "
                    f"({per_length_goal_how(self.statement, items, self.goal, surface)}); {self.cost}")
        return f"--goal {self.goal} keeps what the {settings} settings list at {where}; {self.cost}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``goal``, ``context_lengths``, ``still_lower``, ``threshold_pct``,
        ``listing_max_tokens`` and ``cost`` (the words)."""
        return {"goal": self.goal, "context_lengths": list(self.lengths), "still_lower": list(self.still_lower),
                "threshold_pct": self.threshold_pct, "listing_max_tokens": self.listing_max_tokens, "cost": self.cost}


def keeping_goal(ladder: Ladder, config: ToolSearchConfig, rec: MultiRecommendation) -> KeepingGoal | None:
    """Where ``rec`` lists less than the settings ``config`` has now (:func:`lowered_servers`): the goal
    that keeps those lengths as ``config`` lists them. Each such length gets the most demanding plain
    goal the current listing there meets, where that asks more than its goal in ``rec``; the goal is
    verified with :func:`recommend_for_contexts` (same exceptions, kept servers and headroom). ``None``
    when ``rec`` lists no less anywhere, when no plain goal asks more there, or when that goal is not
    reached or keeps none of those lengths."""
    lengths = [c.context_length for c in rec.contexts]
    if rec.inactive or not ladder.listing_enabled:
        return None
    current = outcomes(ladder, config.threshold_pct, config.listing_max_tokens, lengths)
    lowered = lowered_lengths(current, rec.contexts)
    goals = dict(rec.length_goals)
    raised = []
    for now in current:
        c = now.context_length
        if c not in lowered or now.tier == 0:
            continue
        met = next((g for g in GOALS if FORM_RANK[now.listing_form] <= FORM_RANK[GOAL_FORMS[g]]), None)
        if met is not None and GOALS.index(met) < GOALS.index(rec.goal_at(c)):
            goals[c] = met
            raised.append(c)
    if not raised:
        return None
    every = {goals.get(c, rec.goal) for c in lengths}
    whole = every.pop() if len(every) == 1 else None  # one goal at every length: said as that goal alone
    asked = recommend_for_contexts(ladder, config, lengths, whole or rec.goal, except_servers=rec.except_servers,
                                   keep_servers=rec.keep_servers, headroom_pct=rec.headroom_pct,
                                   length_goals=None if whole else goals)
    if not asked.reached:
        return None
    still = set(lowered_lengths(current, asked.contexts))
    kept = tuple(c for c in lengths if c in lowered and c not in still)
    if not kept:
        return None
    goal = ",".join([asked.goal, *(f"{_length_arg(c)}={g}" for c, g in asked.length_goals)])
    return KeepingGoal(goal, kept, tuple(c for c in lengths if c in lowered and c in still), asked.threshold_pct,
                       asked.listing_max_tokens, suggestion_cost_words(asked), asked.goal_words)


def more_headroom_clause(headroom: int | None, settings: str = "current", where: str = "at every length") -> str:
    """What asking for more headroom would do where a reached recommendation lists less than the
    ``settings`` (``current`` or ``default``) settings, as a clause: ``headroom`` from
    :func:`headroom_listing_as_much`, the smallest that lists as much (``None``: none does), e.g.
    ``more headroom lists at least as much as the current settings at every length only from 149% headroom
    on``. ``recommend``'s "lists less" line, its ``--yaml`` block, its markdown and the report end
    with it (:func:`lowered_words`); the Tuning page says it as a sentence (:func:`more_headroom_words`).
    ``where``: :func:`every_length_words` of the lengths (``at 200K`` with one)."""
    if headroom is None:
        return (f"more headroom does not do it: no headroom up to {C.HEADROOM_PCT_MAX:,g}% gives a setting that meets "
                f"the goal and lists at least as much as the {settings} settings {where}")
    return f"more headroom lists at least as much as the {settings} settings {where} only from {headroom:,}% headroom on"


def more_headroom_words(headroom: int | None, where: str = "at every length") -> str:
    """:func:`more_headroom_clause` as one sentence (the Tuning page's advice): ``More headroom
    lists at least as much as the current settings at every length only from 149% headroom on.``"""
    clause = more_headroom_clause(headroom, where=where)
    return clause[0].upper() + clause[1:] + "."


def lowered_where(lowered: Sequence[tuple[int | None, str]]) -> str:
    """The lengths of :func:`lowered_changes` with their changes, as ``recommend`` and the Tuning
    page write them: ``200K (lower form: full → names), 1M (lower form: full → names)`` (each length
    as :func:`~toolsearch.analysis.quantities.length_label` writes it: ``200 tokens``, not ``200``)."""
    return ", ".join(f"{length_label(c)} ({change})" for c, change in lowered)


def with_core_only(rec: MultiRecommendation, ladder: Ladder, kinds: Mapping[str, str]) -> MultiRecommendation:
    """``rec`` with :attr:`MultiRecommendation.core_only` filled: the listed lengths where the goal
    holds, the listing names some servers (form ``mixed``), and every server it names is not an MCP
    server (``kinds``: each server's kind, ``mcp`` when not given) while some MCP server has deferred
    tools: a ``listed`` goal met by a built-in tool such as ``todo_list`` alone, every MCP server a
    summary line. Read off ``ladder``, the one ``rec`` was."""
    mcp = [s.name for s in ladder.servers if kinds.get(s.name, "mcp") == "mcp"]
    found = []
    for c in rec.contexts:
        goal = rec.goal_at(c.context_length)
        if not mcp or c.tier == 0 or c.listing_form != "mixed" or FORM_RANK["mixed"] > FORM_RANK[GOAL_FORMS[goal]]:
            continue
        named = [name for name, state in ladder.states_of(ladder.step_at(c.budget)).items()
                 if state in ("full", "names")]
        if named and all(kinds.get(name, "mcp") != "mcp" for name in named):
            found.append((c.context_length, tuple(named)))
    return replace(rec, core_only=tuple(found))


def core_only_lines(rec: MultiRecommendation) -> list[str]:
    """One line for :attr:`MultiRecommendation.core_only`, as ``recommend`` prints it and its
    ``--yaml`` block comments it: ``only built-in tools named at 8K, 32K and 200K: the goal is met by
    the tools of core alone (not an MCP server), and every MCP server is a summary line there; to have an MCP
    server's tools named, ask for it with --goal names or --keep SERVER (the answer then says whether those
    lengths can name it)``: the options ask for it, and whether a length can give it depends on the catalog
    and the headroom, so the line does not promise it; ``[]`` when there is none. The report carries it too."""
    if not rec.core_only:
        return []
    where = _and(length_label(c) for c, _ in rec.core_only)
    servers = list(dict.fromkeys(name for _, names in rec.core_only for name in names))
    return [f"only built-in tools named at {where}: the goal is met by the tools of {_and(servers)} alone (not an MCP "
            f"server), and every MCP server is a summary line there; to have an MCP server's tools named, ask for it "
            f"with --goal names or --keep SERVER (the answer then says whether {'that length' if len(rec.core_only) == 1 else 'those lengths'} can name it)"]


def no_tools_lines(rec: MultiRecommendation) -> list[str]:
    """One line naming the servers of :attr:`MultiRecommendation.no_tools`, as ``recommend`` prints it,
    its ``--yaml`` block comments it and the Tuning page shows it; ``[]`` when there is none."""
    if not rec.no_tools:
        return []
    it, its = ("it", "its") if len(rec.no_tools) == 1 else ("them", "their")
    line = (f"no tools: {', '.join(rec.no_tools)}: the catalog lists no tools for {it}, so no setting names {it} "
            f"and the servers counted leave {it} out; list {its} tools into the catalog again if there are any")
    return [line]


def config_servers_lines(rec: MultiRecommendation) -> list[str]:
    """One line per way the harness config's MCP servers disagree with the catalog's
    (:attr:`MultiRecommendation.config_servers`), as ``recommend`` prints it under its goal line,
    its ``--yaml`` block comments it under the verdict and its markdown lists it: ``config servers:
    config.yaml sets up 1 MCP server otherwise than the catalog was listed with ('weather': enabled:
    false): these figures count its tools as the catalog lists it; …``; ``[]`` when they agree."""
    return [f"config servers: {sentence}" for sentence in rec.config_servers]


def lowered_words(rec: MultiRecommendation, config: ToolSearchConfig,
                  lowered: Sequence[tuple[int | None, str]], ladder: Ladder | None = None) -> str:
    """Where ``rec`` lists less than the current settings (``config``; ``lowered`` from
    :func:`lowered_changes`, not empty), in one line, as ``recommend`` prints it and its
    ``--yaml`` block comments it: ``lists less than the default settings (threshold_pct 5%,
    listing_max_tokens 4,000) at 1M (full → names) · it is the best reachable setting``, each
    length as :func:`~toolsearch.analysis.quantities.length_label` writes it (as the block's ``# at 32K:`` lines)
    (``the current settings`` when ``config`` is not the defaults: a reader with no config yet
    would not know which settings are "current"). With ``ladder`` (the one ``rec`` was read off)
    and ``rec`` reached, it ends with the headroom that lists as much (:func:`more_headroom_clause`
    of :func:`headroom_listing_as_much`: the Tuning page's figure), e.g. ``· more headroom lists as
    much as the default settings at every length only from 149% headroom on``."""
    defaults = (config.threshold_pct, config.listing_max_tokens) == (C.THRESHOLD_PCT_DEFAULT, C.LISTING_MAX_TOKENS_DEFAULT)
    settings = "default" if defaults else "current"
    keeping = keeping_goal(ladder, config, rec) if ladder is not None else None
    return (f"lists less than the {settings} settings ({read_settings_words(config)}) "
            f"at {lowered_where(lowered)}"
            + (" · it is the cheapest setting that meets the goal" if rec.reached
               else " · it is the best reachable setting")
            + (f" · {keeping.words(settings)}" if keeping is not None else "")
            + (" · " + more_headroom_clause(headroom_listing_as_much(ladder, config, rec), settings,
                                            every_length_words([c.context_length for c in rec.contexts]))
               if ladder is not None and rec.reached else ""))


def lengths_scope_words(rec: MultiRecommendation) -> str:
    """The context lengths ``rec`` was chosen for, as the verdict names them: ``every listed context
    length`` for two or more, ``the context length 200K`` for one (``every`` over one length read as
    if others had been checked); where a listed length no request fits is left out (:attr:`MultiRecommendation.unfit`),
    the lengths the answer is for: ``the context lengths 32K and 200K``."""
    if len(rec.contexts) == 1:
        return f"the context length {length_label(rec.contexts[0].context_length)}"
    if rec.unfit and not rec.all_unfit:  # the answer leaves out a listed length: name the ones it is for
        return f"the context lengths {_and(length_label(c.context_length) for c in rec.contexts)}"
    return "every listed context length"


def verdict_words(rec: MultiRecommendation) -> str:
    """Whether ``rec`` reaches its goal at every listed context length, in words: ``reached at every
    listed context length`` or ``not reached at every listed context length`` (one length:
    ``reached at the context length 200K``, :func:`lengths_scope_words`), as the heading of
    ``recommend --format markdown``, the ``--yaml`` block's comment and :func:`verdict_line` say it.
    When the harness config's servers disagree with the catalog's (:attr:`MultiRecommendation.config_servers`),
    it ends ``for the catalog as listed``: the figures count servers the harness does not run as counted."""
    return f"{'' if rec.reached else 'not '}reached at {lengths_scope_words(rec)}{as_listed_words(rec)}"


def as_listed_words(rec: MultiRecommendation) -> str:
    """`` for the catalog as listed`` when the harness config's servers disagree with the catalog's
    (:attr:`MultiRecommendation.config_servers`), else ``""``: what ``recommend``'s verdict and
    ``check``'s suggested settings end with."""
    return " for the catalog as listed" if rec.config_servers else ""


def verdict_line(rec: MultiRecommendation) -> str:
    """:func:`verdict_words` as one sentence: the first line of ``toolsearch recommend``'s text
    output and the verdict above the report's recommendation (not reached: the lines that follow
    give the best reachable settings). Reached at the lengths a request fits, it names the listed
    lengths no request fits (:attr:`MultiRecommendation.unfit`): ``recommend`` then exits 1, as
    ``check`` fails there."""
    words = verdict_words(rec)
    if rec.all_unfit:  # no settings to give: the lines below say why
        return words[0].upper() + words[1:] + ": no setting fits a request there."
    if rec.unfit and rec.reached:  # reached where it can be, and not at every length listed (exit 1)
        return (words[0].upper() + words[1:] + f"; not at {_and(length_label(u.context_length) for u in rec.unfit)}, "
                "which no request fits whatever the settings.")
    return words[0].upper() + words[1:] + ("." if rec.reached else ": the settings below are the best reachable ones.")


def gate_line_text(label: str, command: str | None, words: str) -> str:
    """One of :func:`gate_lines`' lines as plain text, ``label: command  # words`` (no command:
    ``label: words``), as ``toolsearch recommend`` prints it under its table and the config
    block's comments carry it: the words follow as a shell comment, so everything after the label
    pastes into a shell as it is. Catalog text is as given: the caller escapes it for its medium."""
    if command is None:
        return f"{label}: {words}"
    return f"{label}: {command}" + (f"  # {words}" if words else "")


def more_than_goal(rec: MultiRecommendation) -> tuple[ContextOutcome, ...]:
    """The lengths :func:`beyond_goal_line` names (:attr:`MultiRecommendation.beyond_goal` when the goal
    is reached and tool search is active; ``()`` otherwise), as ``recommend``'s text, markdown,
    ``--yaml`` comments and ``--json`` (``more_than_goal``) give them."""
    return rec.beyond_goal if rec.reached and not rec.inactive else ()


def more_than_goal_dicts(rec: MultiRecommendation) -> list[dict[str, Any]]:
    """:func:`more_than_goal` for ``recommend --json``: per length, its goal, the listing it gets and
    the budget its own goal needs (tokens)."""
    needs = dict(zip((c.context_length for c in rec.contexts),
                     rec.length_goal_budgets or tuple(rec.goal_budget for _ in rec.contexts)))
    return [{"context_length": c.context_length, "goal": rec.goal_at(c.context_length), "listing_form": c.listing_form,
             "servers_named": c.servers_named, "servers_total": c.servers_total, "listing_tokens": c.listing_tokens,
             "goal_budget": needs[c.context_length]} for c in more_than_goal(rec)]


def beyond_goal_line(rec: MultiRecommendation) -> str:
    """Where the settings list more than a length's own goal asks (:attr:`MultiRecommendation.beyond_goal`),
    and why, in one line: each length with its form, and with its servers named when the form is
    the one its goal asks (``32K (mixed, 9 of 10 servers named)``); ``""`` where none does."""
    def listed(c: ContextOutcome) -> str:
        if FORM_RANK[c.listing_form] < FORM_RANK[GOAL_FORMS[rec.goal_at(c.context_length)]] or not c.servers_total:
            return form_word(c.listing_form)
        return f"{form_word(c.listing_form)}, {c.servers_named:,} of {c.servers_total:,} servers named"

    beyond = more_than_goal(rec)
    if not beyond:
        return ""
    return ("more than the goal asks at " + ", ".join(f"{length_label(c.context_length)} ({listed(c)})" for c in beyond)
            + ": one threshold_pct and one listing_max_tokens serve every length, and the budget never shrinks as "
              "the context length grows")


def lower_goal_lines(rec: MultiRecommendation, surface: str = "cli") -> list[str]:
    """The per-length goal that is reached where one goal for every length is not
    (:attr:`MultiRecommendation.lower_goal_words`), as a line of ``recommend``'s text and a comment of
    its ``--yaml`` block: ``per-length goal: a goal of its own for 3K keeps the goal at 200K (3k=names;
    on the command line --goal full,3k=names); that goal takes …``; with ``surface="app"`` as the
    Tuning page says it, the goal in words in place of the command line
    (:attr:`MultiRecommendation.lower_goal_app_words`). ``[]`` without one, or when a ``not named``
    line already carries it (said once: :func:`unnamed_reason`)."""
    if not rec.lower_goal or any(rec.lower_goal_words in u.reason for u in shown_unnamed(rec)):
        return []
    return [f"per-length goal: {rec.lower_goal_app_words if surface == 'app' else rec.lower_goal_words}"]


def shown_unnamed(rec: MultiRecommendation) -> tuple[UnnamedServer, ...]:
    """The servers ``recommend``'s text and the Tuning page name on a ``not named`` line: the first
    :data:`~toolsearch.engine.catalog.MAX_NAMED_PROBLEMS` of ``rec.unnamed`` (the rest are counted,
    :func:`more_unnamed_words`; ``--json`` and the ``--yaml`` block name every one)."""
    return rec.unnamed[:MAX_NAMED_PROBLEMS]


def more_unnamed_words(rec: MultiRecommendation) -> str:
    """The servers not named past :func:`shown_unnamed`, counted in one line: ``"… and 159 more servers not
    named at 32K"`` (the worst length, where every server of ``rec.unnamed`` is not named); ``""`` when
    every one is named on a line of its own."""
    more = len(rec.unnamed) - len(shown_unnamed(rec))
    if more <= 0:
        return ""
    return f"… and {more:,} more server{'' if more == 1 else 's'} not named {at_length(rec.worst.context_length)}"


def unnamed_reason(rec: MultiRecommendation, unnamed: UnnamedServer, surface: str = "cli") -> str:
    """Why a server is not named (``unnamed``, one of ``rec.unnamed``), as ``recommend``'s ``not
    named`` line gives it; with ``surface="app"``, the per-length goal the first such line carries
    in the Tuning page's words (:func:`lower_goal_lines`)."""
    if surface == "app" and rec.lower_goal_app_words and rec.lower_goal_words:
        return unnamed.reason.replace(rec.lower_goal_words, rec.lower_goal_app_words)
    return unnamed.reason


def worst_words(rec: MultiRecommendation) -> str:
    """Where the best reachable setting's fewest servers are named: ``every length`` when every listed
    length names as many, else the lengths that name that few (``1K``), or the one listed length."""
    if len(rec.contexts) == 1:
        return length_label(rec.worst.context_length)
    least = [c.context_length for c in rec.contexts
             if (c.servers_named, c.tools_named) == (rec.worst.servers_named, rec.worst.tools_named)]
    return "every length" if len(least) == len(rec.contexts) else _and(_length_word(c) for c in least)


def recommendation_lines(rec: MultiRecommendation, config: ToolSearchConfig,
                         lowered: Sequence[tuple[int | None, str]], ladder: Ladder | None = None,
                         surface: str = "cli", request_costs: Sequence[str] = ()) -> list[str]:
    """The recommendation in words, one line each, as ``toolsearch recommend`` prints it above its
    table and the design-review report shows it: the goal and lengths, the two settings (or why
    the goal is out of reach and the best reachable setting), the budget they are chosen for, where
    they list more than the goal asks, the headroom, where they list less than ``config`` (the
    current settings; ``lowered`` from :func:`lowered_changes`), every server left unnamed and,
    with recorded sessions, the called tools left unnamed (:func:`called_unnamed_lines`).
    ``ladder``: the one ``rec`` was read off, for the headroom that lists as much as ``config``
    (:func:`lowered_words`). ``surface`` (``cli`` or ``report``) names the headroom control a tight
    setting's line points to (:func:`headroom_action_words`). ``request_costs``: from :func:`request_cost_lines`,
    said after the headroom. Catalog text (server names) is as given: the caller escapes it for its medium."""
    lengths = ", ".join(length_label(c.context_length) for c in rec.contexts)
    lines = [f"goal: {rec.goal_words} · context lengths {lengths} · planning tokenizer {rec.planning_tokenizer}"]
    # the lengths no request fits whatever the settings: said first, once; the answer is for the others
    lines += [u.words for u in rec.unfit]
    if rec.all_unfit:
        return lines + [f"not reachable at {lengths_scope_words(rec)}: {rec.reason}"]
    lines += config_servers_lines(rec)  # what every figure below is for, before any of them
    lines += keep_called_lines(rec)
    lines += keep_forces_lines(rec)
    if rec.reached:
        # written as the config block below writes them (1.0, not 1)
        lines += [f"threshold_pct: {float(rec.threshold_pct)!r}", f"listing_max_tokens: {rec.listing_max_tokens}"]
        if rec.inactive:
            return lines + [INACTIVE_WORDS]
        lines += [  # the name the Tuning page's metric uses, for the same figure
                  f"budget needed{' at every length' if rec.one_budget and len(rec.contexts) > 1 else ''}: {rec.budget_words}"
                  + (f" (with {rec.headroom_pct:g}% headroom)" if rec.headroom_pct else "")]
        if rec.cap_floor_words:
            lines.append(rec.cap_floor_words)
        line = beyond_goal_line(rec)
        if line:
            lines.append(line)
    else:
        worst = rec.worst
        lines += [f"not reachable at {lengths_scope_words(rec)}: {rec.reason}"
                  + (f"; {LISTING_OFF_ACTION}" if rec.reason == LISTING_OFF_REASON else ""),
                  f"best reachable setting ({worst.servers_named:,} of {worst.servers_total:,} servers named at "
                  f"{worst_words(rec)}, {rec.fallback_words}): {settings_words(rec.threshold_pct, rec.listing_max_tokens)}"]
        lines += lower_goal_lines(rec)
    action = headroom_action_words(rec, surface)
    lines.append(f"headroom: {rec.headroom_words} · {rec.growth_words}" + (f" · {action}" if action else ""))
    if rec.reserve_pct:
        lines.append(f"reserve: {reserve_line_words(rec)}")
    lines += request_costs
    if ladder is not None and not rec.inactive:
        raised = raised_changes(ladder, config, rec)
        if raised:
            lines.append(raised_words(config, raised))
    if lowered:
        lines.append(lowered_words(rec, config, lowered, ladder))
    # the first servers by name, the rest counted: --json names every one
    lines += [f"not named: {server.reason}" for server in shown_unnamed(rec)]
    more = more_unnamed_words(rec)
    if more:
        lines.append(more)
    lines += core_only_lines(rec)
    lines += no_tools_lines(rec)
    return (lines + large_share_lines(rec) + called_unnamed_lines(rec) + shorter_length_lines(rec)
            + outside_scope_lines(rec))


#: Columns of the per-length outcome table (``recommend`` and the report), with sessions' two after.
OUTCOME_COLUMNS = ("context_length", "budget", "tier", "listing_form", "listing_tokens", "servers_named", "tools_named")
SESSION_COLUMNS = ("called_listed", "searches_saved")
#: What the two session columns count, in words (under the table, CLI and report).
SESSION_COLUMNS_WORDS = ("called_listed: of the deferred tools the sessions called, how many the listing names at "
                         "that length; searches_saved: tool_search calls made just before calling a named tool")


def sessions_line(rec: MultiRecommendation) -> str | None:
    """The line under the per-length table with recorded sessions (``recommend`` and the report):
    how many sessions were read and what the two session columns count; ``None`` without sessions."""
    if rec.sessions_read is None:
        return None
    return session_columns_line(rec.sessions_read, rec.contexts)


def session_columns_line(sessions_read: int, contexts: Sequence[ContextOutcome]) -> str:
    """:func:`sessions_line` for any per-length table with :data:`SESSION_COLUMNS` (``recommend``,
    ``check --keep-called``, the report): ``sessions_read`` sessions, ``contexts`` its rows."""
    none = bool(contexts) and all(not c.called_total for c in contexts)  # every row "0/0"
    return (f"sessions: {counted(sessions_read, 'session')} read; {SESSION_COLUMNS_WORDS}"
            + (f"; {NO_SESSION_READ_WORDS if not sessions_read else NO_DEFERRED_CALLED_WORDS}" if none else ""))


def with_listing_evidence(outcome: ContextOutcome, ladder: Ladder, called: Sequence[CalledTool]) -> ContextOutcome:
    """``outcome`` with ``called_listed``, ``called_total`` and ``searches_saved`` filled in: how the
    listing at its budget serves the tools ``called`` (:func:`toolsearch.analysis.sessions.listing_evidence`
    on the ladder's step there). The one place ``recommend --sessions``, ``check --keep-called`` and
    the report count them."""
    return replace(outcome, **listing_evidence(called, ladder.step_at(outcome.budget)))


def outcome_rows(rec: MultiRecommendation, sessions: bool = False) -> list[list[Any]]:
    """One row per listed context length (:data:`OUTCOME_COLUMNS`, then :data:`SESSION_COLUMNS`
    with ``sessions``): the length as the Tuning page's table writes it (:func:`length_label`:
    ``200K``, ``unknown``), the other numbers as numbers, the rest as text (``"5/5"``)."""
    rows: list[list[Any]] = []
    for c in rec.contexts:
        row: list[Any] = [length_label(c.context_length), c.budget, c.tier,
                          form_word(c.listing_form), c.listing_tokens, share_cell(c.servers_named, c.servers_total),
                          c.tools_named]
        if sessions:
            row += [share_cell(c.called_listed or 0, c.called_total or 0), c.searches_saved]
        rows.append(row)
    return rows


def not_deferred_words(uncounted: UncountedCalls) -> str:
    """The words on called tools the ``called_listed`` counts leave out, one sentence per reason
    (:meth:`toolsearch.analysis.sessions.UncountedCalls.sentences`: outside the session scope, or
    not deferred by this catalog: renamed since, from another catalog, or visible) joined by "; ";
    at most eight named per reason, as shown (:func:`toolsearch.analysis.sessions.shown_name`)."""
    return "; ".join(uncounted.sentences(also=True))


def add_session_evidence(rec: MultiRecommendation, ladder: Ladder, called: Sequence[CalledTool],
                         sessions_read: int | None = None, drift: str = "", note: str = "",
                         not_deferred: UncountedCalls = UncountedCalls(),
                         recorded_lengths: Mapping[str, int | None] | None = None) -> MultiRecommendation:
    """``rec`` with ``called_listed``, ``called_total`` and ``searches_saved`` filled in at every
    context length: how the recommended listing there serves the tools recorded sessions called
    (``called``: :func:`toolsearch.analysis.sessions.called_tools` for the same catalog and config),
    ``sessions_read`` (how many sessions ``called`` comes from) for :func:`sessions_line`, and
    ``drift`` (:attr:`MultiRecommendation.sessions_drift`: see :func:`session_drift_words`) and
    ``note`` (:attr:`MultiRecommendation.sessions_note`), and ``not_deferred``: the called tools
    those counts leave out and why (:func:`toolsearch.analysis.sessions.uncounted_calls`;
    :attr:`MultiRecommendation.sessions_not_deferred`). ``recorded_lengths``: each session's
    recorded context length by session id (:func:`toolsearch.analysis.sessions.recorded_lengths`),
    for :attr:`MultiRecommendation.shorter_lengths`."""
    contexts, unnamed = [], []
    for outcome in rec.contexts:
        contexts.append(with_listing_evidence(outcome, ladder, called))
        unnamed.append(tuple(called_not_listed(called, ladder.step_at(outcome.budget))))
    return replace(rec, contexts=tuple(contexts), sessions_read=sessions_read, sessions_drift=drift,
                   sessions_note=note, sessions_not_deferred=not_deferred, called_unnamed=tuple(unnamed),
                   shorter_lengths=_shorter_lengths(rec, ladder, called, recorded_lengths or {}))


def _shorter_lengths(rec: MultiRecommendation, ladder: Ladder, called: Sequence[CalledTool],
                     recorded: Mapping[str, int | None]) -> tuple[ShorterLength, ...]:
    """The recorded context lengths shorter than every listed one, shortest first, each with what
    the recommended settings give there. Only those: the budget never shrinks as the context length
    grows and a larger budget never lists less, so a length between or above the listed ones gets at
    least what the next shorter listed length gets."""
    listed = [c.context_length for c in rec.contexts if c.context_length]
    if not listed or len(listed) < len(rec.contexts):  # an unknown length gets the fallback budget: no order
        return ()
    by_length: dict[int, set[str]] = {}
    for session, n in recorded.items():
        if n and n < min(listed):
            by_length.setdefault(n, set()).add(session)
    out = []
    for n, sessions in sorted(by_length.items()):
        (outcome,) = outcomes(ladder, rec.threshold_pct, rec.listing_max_tokens, [n])
        step = ladder.step_at(outcome.budget)
        there = [c for c in called if c.session in sessions]
        out.append(ShorterLength(replace(outcome, **listing_evidence(there, step)), len(sessions),
                                 tuple(called_not_listed(there, step))))
    return tuple(out)


def shorter_length_lines(rec: MultiRecommendation, limit: int = 8) -> list[str]:
    """With recorded sessions, one line per context length they ran at that is shorter than every
    listed one (:attr:`MultiRecommendation.shorter_lengths`), e.g. ``"the sessions also ran at
    16K (3 sessions), shorter than every listed context length: there these settings give
    mixed · 8 of 11 servers named (100 tools) within a budget of 880 tokens; 3 of the 4 tools called there are
    not named (…); add 16k to the context lengths to tune for it"``. ``[]`` when there is none."""
    lines = []
    for s in rec.shorter_lengths:
        o = s.outcome
        line = (f"the sessions also ran at {length_label(o.context_length)} ({counted(s.sessions, 'session')}), "
                f"shorter than every listed context length: there these settings give {o.outcome} "
                f"within a budget of {o.budget:,} tokens")
        if s.called_not_named:
            tools = s.called_not_named
            shown = ", ".join(shown_names(tools[:limit])) + (f" and {len(tools) - limit:,} more" if len(tools) > limit else "")
            total = o.called_total or len(tools)
            if len(tools) < total:
                line += (f"; {len(tools):,} of the {total:,} tools called there "
                         f"{'is' if len(tools) == 1 else 'are'} not named ({shown})")
            else:
                line += (f"; {'the tool' if total == 1 else f'none of the {total:,} tools'} called there "
                         f"{'is not' if total == 1 else 'is'} named ({shown})")
        elif o.called_total:
            line += f"; every tool called there is named ({o.called_listed:,} of {o.called_total:,})"
        lines.append(line + f"; add {_length_arg(o.context_length)} to the context lengths to tune for it")
    return lines


@dataclass(frozen=True)
class CalledServer:
    """A server of the catalog whose deferred tools recorded sessions called.

    Attributes:
        name: the server's name; ``tools``: the distinct deferred tools of it the sessions called
            (wire names, sorted); ``sessions``: how many sessions called one of them.
    """

    name: str
    tools: tuple[str, ...]
    sessions: int

    @property
    def words(self) -> str:
        """``github (2 tools called)``, the name as given (the caller escapes it for its medium)."""
        return f"{self.name} ({counted(len(self.tools), 'tool')} called)"

    def to_dict(self) -> dict[str, Any]:
        """``name``, ``tools_called`` (how many), ``tools`` (as shown), ``sessions``."""
        return {"name": self.name, "tools_called": len(self.tools), "tools": shown_names(self.tools),
                "sessions": self.sessions}


@dataclass(frozen=True)
class KeepCalled:
    """What "keep the servers the sessions called named" (``--keep-called``) adds to a goal.

    Attributes:
        added: the servers kept named because the sessions called their tools, beyond those given
            to keep already, sorted by name (the same whatever order the catalog lists them in).
        given: called servers that were given to keep already (nothing added for them).
        excepted: called servers the goal lets collapse (``--except``, *May collapse*): the
            explicit exception wins, so they are not kept.
        not_keepable: called tools the session does not defer: outside the session scope, or not
            deferred by this catalog (another catalog, a renamed server or tool, a visible tool); no
            listing names them, so their servers cannot be kept; sorted.
        not_keepable_servers: the servers those tools' ``mcp__<server>__`` names give: ``(name, how
            many of the tools, whether the catalog has a server of that name)``; tools without such a
            prefix are counted in ``not_keepable`` only.
        uncounted: ``not_keepable`` split by why (:func:`toolsearch.analysis.sessions.uncounted_calls`).
        sessions_read: how many sessions the called tools come from, when known (``0``: the session
            sources held none, which is said instead of "called no tool").
    """

    added: tuple[CalledServer, ...]
    given: tuple[CalledServer, ...] = ()
    excepted: tuple[CalledServer, ...] = ()
    not_keepable: tuple[str, ...] = ()
    not_keepable_servers: tuple[tuple[str, int, bool], ...] = ()
    uncounted: UncountedCalls = UncountedCalls()
    sessions_read: int | None = None

    def keep_servers(self, keep_servers: Sequence[str]) -> tuple[str, ...]:
        """``keep_servers`` followed by the servers :attr:`added` (the keep set the goal gets)."""
        return tuple(dict.fromkeys([*keep_servers, *(s.name for s in self.added)]))

    def not_keepable_words(self) -> str:
        """The called tools no listing of this session names, in words ("" when none), one
        sentence per reason (:attr:`uncounted`: outside the session scope, then not deferred by
        this catalog) joined by ". ": how many, which servers their names give (marking those the
        catalog lacks), and the first eight."""
        known = {name: found for name, _, found in self.not_keepable_servers}
        sentences = []
        for names, scoped in ((self.uncounted.outside_scope, True), (self.uncounted.not_deferred, False)):
            if not names:
                continue
            many = len(names) != 1
            why = (f"outside the session scope {quoted(self.uncounted.scope)}" if scoped else
                   f"not {'deferred tools' if many else 'a deferred tool'} of this catalog (another catalog's, "
                   "renamed since, or visible)")
            prefixes: dict[str, int] = {}
            for name in names:
                prefix = mcp_server_of(name)
                if prefix is not None:
                    prefixes[prefix] = prefixes.get(prefix, 0) + 1
            servers = ", ".join(f"{shown_name(name)} ({counted(n, 'tool')}"
                                f"{'' if known.get(name, True) else ', not a server of this catalog'})"
                                for name, n in sorted(prefixes.items()))
            bare = len(names) - sum(prefixes.values())
            where = ([f"{'server' if len(prefixes) == 1 else 'servers'} {servers}"] if servers else []) \
                + ([f"{counted(bare, 'tool')} without a server in {'its' if bare == 1 else 'their'} name"] if bare else [])
            sentences.append(f"{counted(len(names), 'called tool')} {'are' if many else 'is'} {why}, "
                             f"so {'they keep' if many else 'it keeps'} no server named: {'; '.join(where)}: "
                             + ", ".join(shown_names(names[:8])) + (" …" if len(names) > 8 else ""))
        return ". ".join(sentences)

    def to_dict(self) -> dict[str, Any]:
        """``added``, ``given``, ``excepted`` (each a list of :meth:`CalledServer.to_dict`),
        ``not_keepable`` (the tools, as shown) and ``not_keepable_servers`` (``name``, ``tools``);
        in a session scope also ``outside_scope``: the tools of ``not_keepable`` the scope leaves out."""
        out = {"added": [s.to_dict() for s in self.added], "given": [s.to_dict() for s in self.given],
                "excepted": [s.to_dict() for s in self.excepted], "not_keepable": shown_names(self.not_keepable),
                "not_keepable_servers": [{"name": shown_name(name), "tools": n, "in_catalog": known}
                                         for name, n, known in self.not_keepable_servers]}
        if self.uncounted.scope:
            out["outside_scope"] = shown_names(self.uncounted.outside_scope)
        return out


def keep_called(called: Sequence[CalledTool], not_deferred: UncountedCalls | Sequence[str], servers: Sequence[str],
                keep_servers: Sequence[str] = (), except_servers: Sequence[str] = (),
                sessions_read: int | None = None) -> KeepCalled:
    """The servers to keep named because recorded sessions called their tools.

    Args:
        called: :func:`toolsearch.analysis.sessions.called_tools` for the catalog and config (the
            same called tools ``called_listed`` counts: one quantity).
        not_deferred: the called tools that function found the session does not defer, split by
            why (:func:`toolsearch.analysis.sessions.uncounted_calls`); a plain list counts as not
            deferred by this catalog.
        servers: the whole catalog's server names (which names of :attr:`KeepCalled.not_keepable_servers`
            it has; a server a session scope leaves out is still one of them).
        keep_servers: servers given to keep already; ``except_servers``: servers the goal lets
            collapse (an explicit exception wins over the sessions).
        sessions_read: how many sessions ``called`` comes from, when known (:attr:`KeepCalled.sessions_read`).
    """
    tools: dict[str, set[str]] = {}
    sessions: dict[str, set[str]] = {}
    for c in called:
        tools.setdefault(c.server, set()).add(c.tool)
        sessions.setdefault(c.server, set()).add(c.session)
    if not isinstance(not_deferred, UncountedCalls):
        not_deferred = UncountedCalls(tuple(sorted(set(not_deferred))))
    known = set(servers)
    found = [CalledServer(name, tuple(sorted(tools[name])), len(sessions[name])) for name in sorted(tools)]
    prefixes: dict[str, int] = {}
    for name in not_deferred.names:
        prefix = mcp_server_of(name)
        if prefix is not None:
            prefixes[prefix] = prefixes.get(prefix, 0) + 1
    return KeepCalled(tuple(s for s in found if s.name not in keep_servers and s.name not in except_servers),
                      tuple(s for s in found if s.name in keep_servers),
                      tuple(s for s in found if s.name in except_servers and s.name not in keep_servers),
                      not_deferred.names,
                      tuple((name, n, name in known) for name, n in sorted(prefixes.items())), not_deferred,
                      sessions_read)


def keep_called_lines(rec: MultiRecommendation | KeepCalled | None) -> list[str]:
    """With ``keep_called`` (``rec``'s, or ``rec`` itself), the servers kept named because the
    sessions called them, and those the goal lets collapse anyway, one line each (``recommend``,
    ``check``, the block's comments, the report, the Tuning page); none without. Server names as
    given: the caller escapes them."""
    kc = rec.keep_called if isinstance(rec, MultiRecommendation) else rec
    if kc is None:
        return []
    if kc.added:
        lines = [f"kept named because the sessions called them: {', '.join(s.words for s in kc.added)}"]
    elif kc.given:
        lines = ["kept named because the sessions called them: none beyond the servers already kept"]
    elif kc.sessions_read == 0:
        lines = ["kept named because the sessions called them: none (no session was read: the session sources "
                 "hold none)"]
    else:
        reach = (f"the session scope {quoted(kc.uncounted.scope)} reaches" if kc.uncounted.scope
                 else "this catalog defers")
        lines = [f"kept named because the sessions called them: none (the sessions called no tool {reach})"]
    if kc.excepted:
        lines.append("called in the sessions but allowed to collapse (an exception wins): "
                     + ", ".join(s.words for s in kc.excepted))
    return lines


def add_whole_catalog(rec: MultiRecommendation, whole: Ladder, scope: str) -> MultiRecommendation:
    """``rec``, recommended for session scope ``scope``, with :attr:`MultiRecommendation.outside_scope`
    filled in from ``whole`` (the whole catalog's ladder, same config and planning tokenizer):
    a harness config has one ``tools.tool_search`` block, so the scope's settings are also what
    every other session gets."""
    lengths = [c.context_length for c in rec.contexts]
    out = []
    for c in outcomes(whole, rec.threshold_pct, rec.listing_max_tokens, lengths):
        states = whole.states_of(whole.step_at(c.budget))
        lost = tuple(sorted(name for name, state in states.items() if state not in ("full", "names", "visible")))
        out.append((c, lost if c.tier else ()))  # tier 0: every schema is sent, nothing to name
    same = all((w.tier, w.listing_tokens, w.servers_named, w.servers_total, w.tools_named)
               == (c.tier, c.listing_tokens, c.servers_named, c.servers_total, c.tools_named)
               for (w, _), c in zip(out, rec.contexts))
    if same:  # a scope that reaches the whole catalog: nothing else to say
        return replace(rec, scope=scope)
    return replace(rec, outside_scope=tuple(out), scope=scope)


def outside_scope_lines(rec: MultiRecommendation) -> list[str]:
    """For a recommendation made for a session scope (:func:`add_whole_catalog`): one line per listed length saying
    what the same settings give the whole catalog and which servers they leave unnamed there,
    e.g. ``"whole catalog (sessions outside scope bot) at 32K: mixed · 2 of 9 servers named (55
    tools); not named: filesystem, grafana, ..."``; ``[]`` without :attr:`MultiRecommendation.outside_scope`."""
    return [f"whole catalog (sessions outside scope {rec.scope}) {at_length(c.context_length)}: {c.outcome}"
            + (f"; not named: {', '.join(lost)}" if lost else "")
            for c, lost in rec.outside_scope]


#: A recommended listing that takes more than this share (%) of a context length is said so: what
#: it takes is gone from every request's room for the conversation at that length.
LARGE_SHARE_PCT = 25.0


def listing_share_pct(outcome: ContextOutcome) -> float | None:
    """The listing's share of its context length in % (planning tokens over context tokens), or
    ``None`` for an unknown length."""
    if not outcome.context_length:
        return None
    return 100 * outcome.listing_tokens / outcome.context_length


def large_shares(rec: MultiRecommendation) -> list[tuple[ContextOutcome, float]]:
    """The listed lengths where the recommended listing takes more than :data:`LARGE_SHARE_PCT` %
    of the context, each with that share (%), in the order of ``rec.contexts``."""
    found = []
    for outcome in rec.contexts:
        share = listing_share_pct(outcome)
        if share is not None and share > LARGE_SHARE_PCT:
            found.append((outcome, share))
    return found


def large_share_lines(rec: MultiRecommendation, surface: str = "cli") -> list[str]:
    """One line per listed length where the recommended listing takes more than
    :data:`LARGE_SHARE_PCT` % of the context (:func:`large_shares`), e.g. ``"large share at 8K: the
    listing takes 3,655 tokens, 45.7% of the context, and the whole tools array 4,912, leaving 3,088
    tokens for the system prompt, the conversation and the reply; a lower goal for that length, or a reserve
    for the conversation (--reserve PCT), leaves it more room"``; ``[]`` when there is none. ``surface``:
    ``cli`` names the option, ``app`` the Tuning page's field; with a reserve, only the lower goal is named."""
    tools = dict(zip((c.context_length for c in rec.contexts), rec.tools_tokens))
    how = "the Reserve (%) field" if surface == "app" else "--reserve PCT"
    more = ("a lower goal for that length leaves more room for the conversation" if rec.reserve_pct
            else f"a lower goal for that length, or a reserve for the conversation ({how}), leaves it more room")
    return [f"large share {at_length(c.context_length)}: the listing takes {c.listing_tokens:,} tokens, "
            f"{context_share(c.listing_tokens, c.context_length)} of the context{_room_left(tools.get(c.context_length), c)}; "
            f"{more}"
            for c, _share in large_shares(rec)]


def reserve_line_words(rec: MultiRecommendation) -> str:
    """What the answer's reserve (``rec.reserve_pct``, ``recommend --reserve``) keeps, after ``reserve:``
    (``recommend``'s text and ``--yaml`` block; the Tuning page's caption): ``"50% of every context
    length kept free of the tools array, for the system prompt, the conversation and the reply · the
    tools array leaves 14,747 tokens at 32K, the least"`` (the length whose request leaves the fewest
    tokens, from :attr:`MultiRecommendation.tools_tokens`); ``""`` without a reserve."""
    if not rec.reserve_pct:
        return ""
    words = (f"{rec.reserve_pct:g}% of every context length kept free of the tools array, for the system prompt, "
             "the conversation and the reply")
    if any(c.context_length is None for c in rec.contexts):  # no size to take a share of
        words += " (none at an unknown length, whose size is not known)"
    left = [(c.context_length - t, c.context_length) for c, t in zip(rec.contexts, rec.tools_tokens)
            if t is not None and c.context_length and c.context_length > 0]
    if left:
        tokens, length = min(left)
        words += (f" · the tools array leaves {counted(max(tokens, 0), 'token')} {at_length(length)}"
                  + (", the least" if len(left) > 1 else ""))
    return words


def _room_left(tools_tokens: int | None, outcome: ContextOutcome) -> str:
    """After a large share's figure, what the whole tools array (``tools_tokens``, :attr:`MultiRecommendation.tools_tokens`)
    leaves of the context for everything else a request carries: ``", and the whole tools array 7,946,
    leaving 54 tokens for the system prompt, the conversation and the reply"``; ``""`` when not weighed."""
    if tools_tokens is None or not outcome.context_length:
        return ""
    left = max(outcome.context_length - tools_tokens, 0)
    return (f", and the whole tools array {tools_tokens:,}, leaving {counted(left, 'token')} for the system prompt, "
            "the conversation and the reply")


def called_unnamed_lines(rec: MultiRecommendation, limit: int = 8) -> list[str]:
    """With recorded sessions, one line per group of listed lengths whose recommended listing
    leaves the same called tools unnamed: how many, which (the first ``limit``, then how many
    more), and what that costs (the model searches for them), e.g. ``"called in the sessions but
    not named at 32K, 200K: 2 of 7 tools (mcp__github__create_issue, mcp__github__get_job_logs);
    the model has to search for them"``. ``[]`` without sessions or when every called tool is named."""
    if not rec.called_unnamed:
        return []
    groups: dict[tuple[str, ...], list[ContextOutcome]] = {}
    for c, tools in zip(rec.contexts, rec.called_unnamed):
        if tools:
            groups.setdefault(tools, []).append(c)
    lines = []
    for tools, cs in groups.items():
        shown = ", ".join(shown_names(tools[:limit])) + (f" and {len(tools) - limit:,} more" if len(tools) > limit else "")
        where = ", ".join(length_label(c.context_length) for c in cs)  # as the table's rows write them
        lines.append(f"called in the sessions but not named at {where}: {len(tools):,} of "
                     f"{counted(cs[0].called_total or 0, 'tool')} ({shown}); the model has to search for them")
    return lines


def called_named_line(rec: MultiRecommendation) -> str | None:
    """With recorded sessions and every called tool named at every listed length (no
    :func:`called_unnamed_lines`): one line that says the block was weighed against them, e.g.
    ``"sessions: 7 sessions read; every deferred tool they called (7) is named at 32K, 200K, 1M"``.
    ``None`` without sessions or when some called tool is left unnamed (that line says so)."""
    if rec.sessions_read is None or any(rec.called_unnamed):
        return None
    read = f"sessions: {counted(rec.sessions_read, 'session')} read"
    total = max((c.called_total or 0 for c in rec.contexts), default=0)
    if not total:
        return f"{read}; {NO_DEFERRED_CALLED_WORDS}"
    where = ", ".join(length_label(c.context_length) for c in rec.contexts)
    return f"{read}; every deferred tool they called ({total:,}) is named at {where}"


#: What a catalog drift means for the two session columns (said wherever they are shown).
SESSION_DRIFT_CONSEQUENCE = ("called_listed and searches_saved count this catalog's listing, not the one the "
                             "sessions ran on.")


def session_drift_words(drift: Any, catalog_name: str) -> str:
    """The catalog drift of recorded sessions (:class:`toolsearch.analysis.sessions.CatalogDrift`)
    in one sentence with :data:`SESSION_DRIFT_CONSEQUENCE`, as ``recommend`` warns it on stderr, the
    report prints it and the Tuning page shows it; empty when the sessions ran on this catalog."""
    return drift.words(catalog_name, consequence=SESSION_DRIFT_CONSEQUENCE) if drift.drifted else ""


def _comment_safe(text: str) -> str:
    """Catalog text for a YAML comment line: control and invisible format characters (newlines
    included) written as ``\\uXXXX``, so the comment cannot end early or hide text."""
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch
                   for ch in text)


def _comment_text(text: str) -> str:
    """Catalog text for a YAML comment line in the markers the CLI, the app and the goal words use
    (``⟨U+202E⟩``, :func:`toolsearch.engine.invisible.reveal`), so a server name reads the same on
    every line of the block), line breaks included (``⟨U+000A⟩``, ``⟨U+2028⟩``:
    :func:`toolsearch.engine.invisible.reveal_line`), so the comment cannot end early or hide text.
    Not for the gate line, which must run in bash (:func:`_shell_word`)."""
    return reveal_line(text)


def _shell_word(word: str) -> str:
    """``word`` quoted for a POSIX shell; a word holding a control or invisible format character
    (which a comment line may not carry raw, :func:`_comment_safe`) in bash's ``$'...'`` quoting
    with that character as ``\\uXXXX`` / ``\\UXXXXXXXX``, so the command still names it when run
    (inside ``'...'`` the escape would be read as the six characters themselves)."""
    import shlex  # noqa: PLC0415

    if not any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in word):
        return shlex.quote(word)
    out = []
    for ch in word:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        else:
            out.append("\\" + ch if ch in "\\'" else ch)
    return "$'" + "".join(out) + "'"


#: A context length as ``--context-lengths`` takes it (one function: :func:`.quantities.length_arg`).
_length_arg = length_arg


def _option_words(option: str, value: str) -> list[str]:
    """``[option, value]``, or ``[option=value]`` when the value starts with ``-``: argparse would
    take ``--except -x`` for two options and stop with "expected one argument"."""
    return [f"{option}={value}"] if value.startswith("-") else [option, value]


def snapshot_file(catalogs: Sequence[str]) -> str:
    """The catalog file the gate line reads in place of MCP client configs: ``catalog.yaml`` (the name
    docs/ci.md gives it), or ``snapshot.yaml`` when a catalog file of that name is among ``catalogs``."""
    return "catalog.yaml" if "catalog.yaml" not in catalogs else "snapshot.yaml"


def snapshot_command(catalogs: Sequence[str], client_configs: Sequence[str]) -> str:
    """The ``toolsearch snapshot`` command that saves the tools of the MCP client configs among
    ``catalogs`` (``client_configs``) as the catalog file the gate line reads
    (:func:`snapshot_file`), shell-quoted."""
    configs = [c for c in catalogs if c in client_configs]
    return " ".join(_shell_word(w) for w in ["toolsearch", "snapshot", *configs, "-o", snapshot_file(catalogs)])


def check_command(rec: MultiRecommendation, config_file: str = "config.yaml", *, tool_names: str = "prefixed",
                  profile: str | None = None, catalogs: Sequence[str] = (), client_configs: Sequence[str] = ()) -> str:
    """The ``toolsearch check`` command that gates a catalog on what ``rec`` promised: its context
    lengths, goal (per-length goals included), servers that may collapse or must stay named,
    planning tokenizer and reserve (``--reserve``), with the settings read from ``config_file`` (``--strict``: a
    warning in it, such as a misspelt key, fails the gate), and the tool naming and wording
    profile file the listing was measured with when they are not the defaults (they change its
    size). ``catalogs`` are the catalog files as the user gave them (``toolsearch recommend``'s
    sources); with none (the app, an uploaded file), ``CATALOG`` stands for them. The MCP client
    configs among them (``client_configs``) are replaced by the one catalog file
    :func:`snapshot_command` saves from them: the gate is ``--strict``, which starts no server and
    refuses a client config. Arguments that need it are shell-quoted (:func:`_shell_word`).

    The headroom is not in it: the headroom is the room growth may use before the listing changes,
    and ``check --headroom`` fails as soon as growth uses any of it (the first tool added), so the
    gate checks the goal and the margin is what lets the catalog grow without failing it."""
    goal = ",".join([rec.goal, *(f"{_length_arg(c)}={g}" for c, g in rec.length_goals)])
    read: list[str] = []
    for catalog in catalogs:
        catalog = snapshot_file(catalogs) if catalog in client_configs else catalog
        if catalog not in read:
            read.append(catalog)
    words = ["toolsearch", "check", *(read or ["CATALOG"]), "--config", config_file, "--strict",
             "--context-lengths", ",".join(_length_arg(c.context_length) for c in rec.contexts), "--goal", goal]
    for name in rec.except_servers:
        words += _option_words("--except", name)
    for name in rec.keep_servers:
        words += _option_words("--keep", name)
    if rec.planning_tokenizer != C.DEFAULT_TOKENIZER:
        words += ["--tokenizer", rec.planning_tokenizer]
    if rec.reserve_pct:  # a hard limit, unlike the headroom: a request that leaves less of a length fails
        words += ["--reserve", f"{rec.reserve_pct:g}"]
    if tool_names != "prefixed":
        words += ["--tool-names", tool_names]
    if profile:
        words += _option_words("--profile", profile)
    return " ".join("CATALOG" if not catalogs and i == 2 else _shell_word(w) for i, w in enumerate(words))


def gate_lines(rec: MultiRecommendation, *, tool_names: str = "prefixed", profile: str | None = None,
               scope: str | None = None, catalogs: Sequence[str] = (),
               client_configs: Sequence[str] = (), config_file: str = "config.yaml") -> list[tuple[str, str | None, str]]:
    """The lines that gate a build on ``rec``, as ``(label, command, words)``: ``recommend --yaml``
    writes each as a ``# label: command (words)`` comment, ``recommend --format markdown`` as a
    ``**Label:**`` line. When it is reached: a ``snapshot`` line first when ``catalogs`` hold MCP
    client configs (:func:`snapshot_command`), then the ``gate`` line (:func:`check_command`); with
    a session ``scope``, a ``gate`` line without a command that says why there is none. Not
    reached: no line (there is no promise to gate). ``config_file`` is the harness config the gate
    reads (the one the block is merged into). When ``check --strict`` would refuse the gate
    (:attr:`MultiRecommendation.gate_refused`: the config's servers disagree with the catalog's),
    a ``gate refused`` line without a command after the gate line says so, and until when; the gate
    line itself holds only the command, so it can be copied and run as it is."""
    if not rec.reached:
        return []
    if scope is not None:
        return [("gate", None, f"none for scope {scope}: toolsearch check judges the whole catalog")]
    out: list[tuple[str, str | None, str]] = []
    if any(c in client_configs for c in catalogs):  # check --strict starts no server: it reads their snapshot
        out.append(("snapshot", snapshot_command(catalogs, client_configs),
                    "run where the servers start; the gate reads the saved catalog and starts no server"))
    out.append(("gate", check_command(rec, config_file, tool_names=tool_names, profile=profile, catalogs=catalogs,
                                      client_configs=client_configs), ""))
    if rec.gate_refused:  # on a line of its own: the gate line stays a command that pastes as it is
        out.append(("gate refused", None, rec.gate_refused))
    return out


def export_block(rec: MultiRecommendation, config: ToolSearchConfig, *, catalog_name: str, fingerprint: str,
                 version: str, tool_names: str = "prefixed", profile: str | None = None,
                 scope: str | None = None, catalogs: Sequence[str] = (), client_configs: Sequence[str] = (),
                 config_file: str = "config.yaml",
                 lowered: Sequence[tuple[int | None, str]] = (), ladder: Ladder | None = None,
                 request_costs: Sequence[str] = ()) -> str:
    """The harness config block for a recommendation, with where it came from.

    A ``tools: tool_search:`` YAML document that always carries ``threshold_pct`` and
    ``listing_max_tokens`` (the recommendation's), plus ``enabled``, ``listing`` and ``defer`` when
    ``config`` sets them to something other than the defaults; it is never empty. Above it, YAML
    comments: the toolsearch ``version``, the catalog ``fingerprint`` and name, the context
    lengths, the goal (with exceptions, kept servers and headroom, and what keeping the kept servers
    keeps named besides, :func:`keep_forces_lines`), whether it is reached, the
    expected listing at each length (form and counts, listing and budget tokens), where it lists
    less than ``config`` (``lowered``, the words of :func:`lowered_words`), each server it
    does not name with why (``# not named:``, the words of :func:`recommendation_lines`), each length
    where the listing takes a large share of the context (:func:`large_share_lines`), with recorded
    sessions the called tools it leaves unnamed (:func:`called_unnamed_lines`), each shorter
    context length recorded sessions ran at (:func:`shorter_length_lines`) and, when it is
    reached, the ``toolsearch check`` command that gates a catalog on it (:func:`check_command`).

    Args:
        rec: from :func:`recommend_for_contexts`.
        config: the settings it was computed for (their enabled/listing/defer are carried over).
        catalog_name: shown literally, control characters escaped.
        fingerprint: a content key of the catalog (e.g. 16 hex digits of a sha256).
        version: the toolsearch version.
        tool_names, profile: the tool naming and wording profile file the listing was measured
            with, for the gate line (:func:`check_command`).
        catalogs: the catalog files as given, named by the gate line (none: ``CATALOG``).
        client_configs: the MCP client configs among ``catalogs``: a ``# snapshot:`` line above the
            gate line saves their tools as the catalog file the gate reads (:func:`snapshot_command`).
        scope: the name of the session scope the recommendation is for, if any: ``toolsearch
            check`` judges the whole catalog, so the comment says there is no gate line.
        lowered: from :func:`lowered_changes` (``ladder``, ``config``, ``rec``): the lengths where
            the block lists less than the settings it replaces; none, no such comment.
        ladder: the one ``rec`` was read off: that comment then ends with the headroom that lists
            as much as ``config`` (:func:`lowered_words`).
        request_costs: from :func:`request_cost_lines`: where tool search costs more than it saves, as
            ``recommend`` prints it.

    Returns:
        YAML text ending in a newline; ``yaml.safe_load`` of it gives
        ``{"tools": {"tool_search": {...}}}``.
    """
    applied = rec.apply(config)
    changed = changed_keys(applied)
    block: dict[str, Any] = {}
    for key, value in applied.to_block().items():
        if key in ("threshold_pct", "listing_max_tokens") or (key in changed and key in ("enabled", "listing", "defer")):
            block[key] = value
    lengths = ", ".join(length_label(c.context_length) for c in rec.contexts)
    lines = [f"# toolsearch {version} recommendation",
             f"# catalog: {_comment_text(catalog_name)} (fingerprint {fingerprint})",
             f"# context lengths: {lengths} · planning tokenizer {rec.planning_tokenizer}",
             f"# goal: {_comment_text(rec.goal_words)}",
             *(f"# {_comment_text(line)}" for line in keep_called_lines(rec)),
             # what keeping the kept servers named keeps named besides, as recommend prints it
             *(f"# {_comment_text(line)}" for line in keep_forces_lines(rec)),
             f"# headroom: {rec.headroom_words} · {rec.growth_words}",
             *([f"# reserve: {reserve_line_words(rec)}"] if rec.reserve_pct else []),
             f"# {verdict_words(rec)}" if rec.reached else f"# not reached: {_comment_text(rec.reason)}",
             # the lengths left out of the answer: no request fits them whatever the settings
             *(f"# {_comment_text(u.words)}" for u in rec.unfit),
             # what every figure below is for: the servers as the catalog lists them, not as the config sets them up
             *(f"# {_comment_text(line)}" for line in config_servers_lines(rec))]
    if rec.reason == LISTING_OFF_REASON:  # the block keeps listing: off; say what would list tools
        lines.append(f"# {LISTING_OFF_ACTION}")
    lines += [f"# {line}" for line in request_costs]  # the settings are right, but tool search itself costs more
    for c in rec.contexts:
        lines.append(f"# {at_length(c.context_length)}: {c.outcome}; listing {c.listing_tokens:,} of "
                     f"{c.budget:,} budget tokens")
    beyond = beyond_goal_line(rec)  # as `recommend` prints it: why a length gets more than its goal asks
    if beyond:
        lines.append(f"# {_comment_text(beyond)}")
    if ladder is not None and not rec.inactive:  # and what it adds to today's settings
        raised = raised_changes(ladder, config, rec)
        if raised:
            lines.append(f"# {_comment_text(raised_words(config, raised))}")
    if lowered:  # what the block takes away from today's settings, named in the file a reviewer reads
        lines.append(f"# {_comment_text(lowered_words(rec, config, lowered, ladder))}")
    # every server the block leaves unnamed, with why, as `recommend` prints it: the file a config
    # review sees must not trade a server away behind a count ("9 of 10 servers named")
    lines += [f"# not named: {_comment_text(server.reason)}" for server in rec.unnamed]
    lines += [f"# {_comment_text(line)}" for line in core_only_lines(rec)]
    lines += [f"# {_comment_text(line)}" for line in no_tools_lines(rec)]
    lines += [f"# {_comment_text(line)}" for line in lower_goal_lines(rec)]
    lines += [f"# {_comment_text(line)}" for line in large_share_lines(rec)]
    # the evidence against the block, as `recommend` prints it: the called tools it leaves unnamed
    lines += [f"# {_comment_text(line)}" for line in called_unnamed_lines(rec)]
    named = called_named_line(rec)  # or, when the sessions' tools are all named, that they were weighed
    if named:
        lines.append(f"# {_comment_text(named)}")
    lines += [f"# {_comment_text(line)}" for line in shorter_length_lines(rec)]
    # one block serves every session: say what the sessions outside the scope get
    lines += [f"# {_comment_text(line)}" for line in outside_scope_lines(rec)]
    for label, command, words in gate_lines(rec, tool_names=tool_names, profile=profile, scope=scope,
                                            catalogs=catalogs, client_configs=client_configs,
                                            config_file=config_file):
        lines.append("# " + (gate_line_text(label, _comment_safe(command), _comment_text(words)) if command
                             else gate_line_text(label, None, _comment_text(words))))
        if label == "gate" and command:  # the gate reads the harness config: this file is not it yet
            lines.append(f"# {_comment_text(gate_before_merge_words(config_file))}")
    body = yaml.safe_dump({"tools": {"tool_search": block}}, sort_keys=False, default_flow_style=False,
                          allow_unicode=True)
    if not rec.reached:  # not a block to ship: written as comments, so nothing merges or gates on it by mistake
        lines.append(f"# {not_reached_block_words(rec)}")
        body = "".join(f"# {line}\n" for line in body.splitlines())
    return "\n".join(lines) + "\n" + body


#: The comment above a block that does not reach its goal (:func:`export_block`), and what
#: ``recommend --yaml`` says on stderr about it.
NOT_REACHED_BLOCK_WORDS = ("the goal is not reached, so the block is commented out: uncomment it only to take the best "
                           "reachable setting as it is")


#: The same when no listed length fits a request: the block holds the current settings, not an answer.
ALL_UNFIT_BLOCK_WORDS = ("no listed context length fits a request, so the block is commented out: it holds the "
                         "current settings, kept, not a setting that reaches anything")


def not_reached_block_words(rec: "MultiRecommendation") -> str:
    """The comment above ``rec``'s block when its goal is not reached (:data:`NOT_REACHED_BLOCK_WORDS`, or
    :data:`ALL_UNFIT_BLOCK_WORDS` when no listed length fits a request and the block keeps the current settings)."""
    return ALL_UNFIT_BLOCK_WORDS if rec.all_unfit else NOT_REACHED_BLOCK_WORDS


def gate_before_merge_words(config_file: str = "config.yaml") -> str:
    """The comment under the block's ``# gate:`` line: the gate reads ``config_file`` (the harness
    config the block is merged into), so until then it is run with this file as ``--config``."""
    return f"until this block is merged into {config_file}, run the gate with --config set to this file"


@dataclass(frozen=True)
class FrontierPoint:
    """One listing a context length can get: the smallest budget that gives it and what it names.

    Attributes:
        budget: the smallest budget (tokens) at which this listing is the one chosen.
        listing_tokens: its size (planning tokens).
        listing_form: ``full`` | ``names`` | ``mixed`` | ``groups``.
        servers_named / servers_total / tools_named: as in :class:`ContextOutcome`.
        outcome: the counted label.
        called_listed: with recorded sessions, the called tools it names (``None`` without).
    """

    budget: int
    listing_tokens: int
    listing_form: str
    servers_named: int
    servers_total: int
    tools_named: int
    outcome: str
    called_listed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with the keys above."""
        return dict(self.__dict__)


def frontier(ladder: Ladder, context_length: int | None,
             called: Sequence[CalledTool] | None = None) -> list[FrontierPoint]:
    """Every listing some setting gives at ``context_length``, smallest first: the listing tokens
    per request against the servers (and tools) named, for a frontier chart.

    A listing is on it when some budget chooses it (no earlier degradation candidate is smaller)
    and that budget is within what the length can get (its whole length, at most 60,000 tokens;
    10,000 when unknown). With ``called`` (:func:`toolsearch.analysis.sessions.called_tools`),
    each point also says how many of the called tools it names.
    """
    if not (ladder.activated and ladder.listing_enabled):
        return []
    largest, _, _ = _largest_budget([context_length], ladder)
    points = []
    for step, budget in zip(ladder.steps, _chosen_budgets(ladder, 0.0)):
        if budget is None or budget > largest:
            continue
        counts = ladder.counts_of(step)
        listed = listing_evidence(called, step)["called_listed"] if called is not None else None
        points.append(FrontierPoint(budget, step.tokens, step.form, counts.servers_named, counts.servers_total,
                                    counts.tools_named, counts.label, listed))
    return sorted(points, key=lambda p: p.listing_tokens)
