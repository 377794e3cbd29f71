"""Disclosure strategies side by side: when does the model get a tool's schema?

Six answers, computed for the same registered catalog (sample file or live servers), the same
skills and the same task:

``all_upfront``
    Every schema in ``tools`` from the first request.
``tiered``
    The reference behavior: visible tools plus the three bridge tools, with the listing embedded in
    ``tool_search`` (the :class:`~toolsearch.engine.plan.Plan` from the :class:`~toolsearch.engine.plan.Planner`);
    searches and describes go through the real :class:`~toolsearch.engine.bridge.Bridge`.
``anthropic_search``
    Provider tool search, Anthropic style: deferred tools stay out of the prompt prefix; a search
    (regex ``pattern`` ≤ 200 characters, or BM25 ``query`` ≤ 500 characters) returns up to 5
    tool references whose definitions are appended inline, so the cached prefix survives. At least
    one tool stays non-deferred; at most 10,000 tools are deferred.
``openai_search``
    Provider tool search, OpenAI style: a deferred function still shows its name and description
    up front (only its parameters are deferred); a namespace or MCP server shows only its own
    name and description until searched (fewer than 10 functions per namespace recommended);
    loaded tools are appended at the end of the context.
``skill_linked``
    Deep Agents style: skills are listed by name and description; a skill's body is read on
    demand; the tools named in its ``metadata.include_tools`` become callable only once it was
    read (before that, a call fails as an unknown tool). Compaction drops the read and the
    tools with it. Pinned skills are in the input from the start, with their tools. If the model
    can take tools mid-conversation without touching ``tools``, the cache survives; otherwise the
    tools are appended to ``tools`` and the cache breaks there.
``combined``
    Skill-linked tools that are also deferred for provider search (Anthropic style): a search can
    find them without the skill being read, so the read-before-call guarantee is lost.

How the prompt is measured: it is a list of pieces (:class:`Piece`) — the tool definitions in
``tools`` (one piece, measured as one array like the plan's tools array, so "all up front" without
skills is exactly the plan's ``eager_tokens``), name + description stubs, namespace entries, the
tiered tools array, search tools, skill listing lines, skill bodies, bridge responses, loaded
definitions — each piece counted on its own with the chosen tokenizer. The *prefix* is the part before
the conversation (tools and system prompt: skill listing, pinned bodies); the cached prefix
*holds* after an event when the prefix pieces are exactly the same as before it. Compaction
always rewrites the conversation after the prefix; it breaks the cache only where it changes the
prefix. Task results and timelines are deterministic for the same inputs.

Events (see :func:`parse_events`): ``search``, ``describe``, ``read_skill``, ``call``,
``compaction``, ``add_server``, ``remove_server``. A server named by ``add_server`` (before any
``remove_server`` of it) is not connected until that event.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import yaml

from ..engine.invisible import quoted, reveal_line, yaml_kind
from ..engine import constants as C
from ..engine import readers
from ..engine.bridge import Bridge
from ..engine.catalog import Catalog, Problem
from ..engine.config import ToolSearchConfig
from ..engine.errors import ToolsearchError
from ..engine.inspector import Inspector
from ..engine.plan import Plan, split_tools
from ..engine.registration import RegisteredTool
from ..engine.search import SearchIndex, doc_for
from .skills import Skill, SkillSet
from ..engine.tokens import chars4, compact_json, get_tokenizer, tools_array_tokens
from .quantities import bridge_response, form_word
from .wording import agree, counted

# --- names ----------------------------------------------------------------------------------

ALL_UPFRONT = "all_upfront"
TIERED = "tiered"
ANTHROPIC = "anthropic_search"
OPENAI = "openai_search"
SKILL_LINKED = "skill_linked"
COMBINED = "combined"
#: The strategies in display order.
STRATEGIES: tuple[str, ...] = (ALL_UPFRONT, TIERED, ANTHROPIC, OPENAI, SKILL_LINKED, COMBINED)
STRATEGY_LABELS: dict[str, str] = {
    ALL_UPFRONT: "All up front",
    TIERED: "Tiered listing + bridge tools",
    ANTHROPIC: "Provider search (Anthropic)",
    OPENAI: "Provider search (OpenAI)",
    SKILL_LINKED: "Skill-linked tools",
    COMBINED: "Combined (skill-linked + search)",
}
#: One sentence per strategy: what it trades.
STRATEGY_SUMMARIES: dict[str, str] = {
    ALL_UPFRONT: "Every schema is sent on every request: no discovery round trips, the largest prefix.",
    TIERED: "Visible tools plus three bridge tools whose listing names the deferred tools; schemas come from "
            "tool_describe and calls go through tool_call.",
    ANTHROPIC: "Deferred tools are out of the prefix; a search loads up to 5 definitions inline, so the cache "
               "survives.",
    OPENAI: "Deferred functions keep name and description up front, namespaces only their own; loaded tools "
            "are appended at the end of the context.",
    SKILL_LINKED: "A skill's tools are callable only after the skill was read; compaction drops them again.",
    COMBINED: "Skill-linked tools that a provider search can also find: cheaper to reach, but a tool can be "
              "called without its skill being read.",
}

EVENT_KINDS: tuple[str, ...] = ("search", "describe", "read_skill", "call", "compaction", "add_server", "remove_server")
SEARCH_VARIANTS: tuple[str, ...] = C.ANTHROPIC_SEARCH_VARIANTS
#: The Anthropic tool search tools as they appear in ``tools`` (never deferred themselves).
ANTHROPIC_SEARCH_TOOLS: dict[str, dict[str, str]] = {
    "bm25": {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"},
    "regex": {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"},
}
#: The OpenAI hosted tool search entry in ``tools``.
OPENAI_SEARCH_TOOL: dict[str, str] = {"type": "tool_search"}

# Piece forms (what a piece of the prompt is).
SCHEMA = "schema"                      # a full tool definition in ``tools``
STUB = "name + description"            # OpenAI deferred function: parameters deferred
NAMESPACE = "namespace"                # OpenAI namespace / MCP server: own name + description
TOOLS_ARRAY = "tools array"            # tiered: visible tools + bridge tools with the listing
SEARCH_TOOL = "search tool"            # the provider's tool search tool
SKILL_LINE = "skill listing"           # one skill's name + description line
PINNED_BODY = "pinned skill body"      # a pinned skill's body, in the input from the start
SKILL_BODY = "skill body"              # a skill body read during the conversation
LOADED = "loaded schema"               # a definition added during the conversation
RESPONSE = "bridge response"           # a tool_search / tool_describe response (tiered)
#: Forms that put tools in front of the model.
TOOL_FORMS = frozenset({SCHEMA, STUB, NAMESPACE, TOOLS_ARRAY, SEARCH_TOOL, LOADED})


class StrategyError(ToolsearchError):
    """An events file, a task or a strategy setting that cannot be used (names file and place)."""


# --- events and tasks ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Event:
    """One conversation event.

    Attributes:
        kind: one of :data:`EVENT_KINDS`.
        arg: the query or pattern (``search``), tool names (``describe``: a tuple), a skill
            (``read_skill``), a tool wire name (``call``), a server name (``add_server``,
            ``remove_server``); ``None`` for ``compaction``.
        place: its index in the events file (``[3]``), when read from one: messages about it name
            that place even when an earlier event was skipped. Not part of the event's value.
    """

    kind: str
    arg: str | tuple[str, ...] | None = None
    place: int | None = field(default=None, compare=False, repr=False)

    def label(self) -> str:
        """Short text, e.g. ``read_skill pdf`` or ``compaction``."""
        if self.arg is None:
            return self.kind
        arg = ", ".join(self.arg) if isinstance(self.arg, tuple) else self.arg
        return f"{self.kind} {arg}"

    def to_data(self) -> Any:
        """The events-file form: ``"compaction"`` or ``{kind: arg}``."""
        if self.arg is None:
            return self.kind
        return {self.kind: list(self.arg) if isinstance(self.arg, tuple) else self.arg}


#: Most events one timeline may hold: each is replayed under every strategy, and 6,000 took 35 s
#: on the command line (the Strategies page draws each as a row too), so an uploaded file of
#: 60,000 held the page for minutes. A long conversation has a few hundred; the shipped timeline 12.
MAX_EVENTS = 5_000


def parse_events(data: Any, origin: str, warnings: list[str] | None = None) -> tuple[Event, ...]:
    """Events from parsed YAML: a list whose items are ``compaction`` or one-key mappings.

    Example::

        - {read_skill: pdf}
        - {call: mcp__github__create_issue}
        - {search: "github issue"}
        - {describe: [mcp__github__create_issue]}
        - compaction
        - {add_server: sentry}
        - {remove_server: sentry}

    A mapping with an ``events`` list is accepted too. ``None`` (an empty file) gives no events.

    With ``warnings`` (a list), a bad event (an unknown kind, a bad argument) is skipped and its
    message, ending ``; event skipped``, appended to it; the other events are read.

    Raises:
        StrategyError: not a list, an unknown event, or a bad argument (the last two only without
            ``warnings``); the message names ``origin`` and the item (``[3].call``). Also an
            :class:`~toolsearch.engine.errors.InputLimitError`: more than :data:`MAX_EVENTS` events.
    """
    if data is None:
        return ()
    prefix = ""
    if isinstance(data, Mapping) and "events" in data:
        data, prefix = data["events"], "events"
    if not isinstance(data, list):
        raise StrategyError(f"{origin}: top level: expected a list of events such as '- {{call: NAME}}' or "
                            f"'- compaction', got {yaml_kind(data)}")
    if len(data) > MAX_EVENTS:  # refused before any event is checked
        raise readers.limit_error(StrategyError, f"{origin}: {len(data):,} events, over the limit of {MAX_EVENTS:,} "
                                                 "per timeline; keep the events of one conversation")
    events = []
    for index, item in enumerate(data):
        try:
            events.append(replace(_parse_event(item, f"{origin}: {prefix}[{index}]"), place=index))
        except StrategyError as exc:
            if warnings is None:
                raise
            warnings.append(f"{exc}; event skipped")
    return tuple(events)


def _parse_event(item: Any, where: str) -> Event:
    """One item of an events list (see :func:`parse_events`); :class:`StrategyError` naming ``where``."""
    if isinstance(item, str):
        kind, arg = item.strip(), None
    elif isinstance(item, Mapping) and len(item) == 1:
        ((kind, arg),) = item.items()
        kind = str(kind).strip()
    else:
        got = f"a mapping with {len(item)} keys" if isinstance(item, Mapping) else yaml_kind(item)
        raise StrategyError(f"{where}: expected one event such as 'compaction' or {{call: NAME}}, got {got}")
    if kind not in EVENT_KINDS:
        raise StrategyError(f"{where}: unknown event {quoted(kind)}; expected one of {', '.join(EVENT_KINDS)}")
    where = f"{where}.{kind}"
    if kind == "compaction":
        if arg not in (None, True, ""):
            raise StrategyError(f"{where}: compaction takes no argument, got {quoted(arg)}")
        return Event(kind)
    elif kind == "describe":
        names = [arg] if isinstance(arg, str) else arg
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip() for n in names):
            raise StrategyError(f"{where}: expected a tool name or a non-empty list of tool names")
        return Event(kind, tuple(n.strip() for n in names))
    else:
        if not isinstance(arg, str) or not arg.strip():
            what = {"search": "a query (or regex pattern)", "read_skill": "a skill name", "call": "a tool wire name",
                    "add_server": "a server name", "remove_server": "a server name"}[kind]
            raise StrategyError(f"{where}: expected {what} as a non-empty string, got {quoted(arg)}")
        return Event(kind, arg.strip() if kind != "search" else arg)


def events_from_text(text: str, origin: str, warnings: list[str] | None = None) -> tuple[Event, ...]:
    """Parse events YAML text. Raises :class:`StrategyError` (file, line and column for bad YAML);
    with ``warnings``, a bad event is skipped with a warning instead (:func:`parse_events`)."""
    return parse_events(readers.load_yaml(text, origin, StrategyError), origin, warnings)


def load_events(path: str | Path, warnings: list[str] | None = None) -> tuple[Event, ...]:
    """Read an events file. Raises :class:`StrategyError` naming the file and the place; with
    ``warnings``, a bad event is skipped with a warning instead (:func:`parse_events`)."""
    path = Path(path)
    return events_from_text(readers.read_text(path, StrategyError), str(path), warnings)


def dump_events(events: Iterable[Event]) -> str:
    """Events as YAML, one flow-style item per line (``- {call: NAME}``, ``- compaction``)."""
    lines = []
    for event in events:
        data = event.to_data()
        if isinstance(data, str):
            lines.append(f"- {data}")
        else:
            lines.append("- " + yaml.safe_dump(data, default_flow_style=True, sort_keys=False,
                                               allow_unicode=True, width=10_000).rstrip("\n"))
    return "\n".join(lines) + ("\n" if lines else "")


@dataclass(frozen=True)
class Task:
    """What a task does: the skills it reads (in order), then the tools it uses (in order)."""

    skills_read: tuple[str, ...] = ()
    tools_used: tuple[str, ...] = ()


def task_from_events(events: Iterable[Event]) -> Task:
    """The task an event sequence performs: distinct ``read_skill`` and ``call`` names, in order."""
    skills: dict[str, None] = {}
    tools: dict[str, None] = {}
    for event in events:
        if event.kind == "read_skill":
            skills[str(event.arg)] = None
        elif event.kind == "call":
            tools[str(event.arg)] = None
    return Task(tuple(skills), tuple(tools))


def task_summary(task: Task) -> str:
    """What a task does in words: ``"1 skill read, 2 tools used"`` (singular and plural right)."""
    return f"{counted(len(task.skills_read), 'skill read')}, {counted(len(task.tools_used), 'tool used', 'tools used')}"


# --- settings -------------------------------------------------------------------------------------

def _names_words(names: Sequence[str], shown: int = 6) -> str:
    """``'a', 'b' and 3 more`` for a note (names quoted with their invisible characters shown)."""
    words = ", ".join(quoted(n) for n in names[:shown])
    return words + (f" and {len(names) - shown} more" if len(names) > shown else "")


@dataclass(frozen=True)
class Namespace:
    """An OpenAI namespace: its own name and description, and the deferred functions in it."""

    name: str
    description: str
    tools: tuple[str, ...]


@dataclass(frozen=True)
class StrategySettings:
    """Inputs every strategy shares and the per-strategy switches.

    Attributes:
        tokenizer: counts every piece (``chars4``, ``o200k_base``, ``cl100k_base``).
        tool_tokens: uniform size of every tool definition (tokens) instead of measuring each
            one, e.g. 500 for a worked example; ``None`` measures.
        config: the ``tools.tool_search`` block for the tiered strategy.
        context_length: context length (tokens) for the tiered budget; ``None`` = unknown.
        planning_tokenizer: the tiered listing's planning tokenizer (default: ``tokenizer``).
        non_deferred: tools kept non-deferred by the provider strategies (wire names); ``None``
            keeps the ones the reference keeps visible (core tools, unregistered tools, minus the
            ``defer`` set), and for ``combined`` also not the skill-linked ones.
        search_variant: Anthropic search tool, ``bm25`` (query) or ``regex`` (pattern).
        anthropic_search_results: tool references per Anthropic search.
        openai_search_results: functions one OpenAI search loads.
        group_servers: OpenAI: each MCP server's deferred tools as one MCP-server entry (name +
            description only); False: every deferred tool as a function (name + description).
        namespaces: OpenAI namespaces defined by hand; their tools leave their server's group.
        pinned_skills: skills whose bodies and tools are in the input from the start
            (skill-linked and combined).
        mid_conversation_tools: skill-linked: the model takes tool definitions mid-conversation
            without touching ``tools`` (cache survives); False appends them to ``tools``.
    """

    tokenizer: str = C.DEFAULT_TOKENIZER
    tool_tokens: int | None = None
    config: ToolSearchConfig = field(default_factory=ToolSearchConfig)
    context_length: int | None = None
    planning_tokenizer: str | None = None
    non_deferred: tuple[str, ...] | None = None
    search_variant: str = "bm25"
    anthropic_search_results: int = C.ANTHROPIC_SEARCH_RESULTS_DEFAULT
    openai_search_results: int = C.OPENAI_SEARCH_RESULTS_ASSUMED
    group_servers: bool = True
    namespaces: tuple[Namespace, ...] = ()
    pinned_skills: tuple[str, ...] = ()
    mid_conversation_tools: bool = False

    def __post_init__(self) -> None:
        if self.search_variant not in SEARCH_VARIANTS:
            raise StrategyError(f"search variant: expected one of {', '.join(SEARCH_VARIANTS)}, got {quoted(self.search_variant)}")
        if self.tool_tokens is not None and self.tool_tokens < 0:
            raise StrategyError(f"tool tokens: expected a whole number ≥ 0, got {self.tool_tokens}")
        for name in ("anthropic_search_results", "openai_search_results"):
            if getattr(self, name) < 1:
                raise StrategyError(f"{name.replace('_', ' ')}: expected at least 1, got {getattr(self, name)}")


# --- results ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    """One separately counted piece of the prompt.

    Attributes:
        key: identity for cache comparison (two prompts share a prefix when their prefix keys
            are equal, in order).
        name: a tool, skill, namespace or server name, or a short label.
        form: what it is (:data:`SCHEMA`, :data:`STUB`, :data:`SKILL_BODY`…).
        tokens: its size in the settings' tokenizer.
        members: for a piece that holds several tools (the tiered tools array): ``(name, form)``.
    """

    key: str
    name: str
    form: str
    tokens: int
    members: tuple[tuple[str, str], ...] = ()


class _Pieces(list):
    """One strategy run's conversation pieces since the last rewrite (a compaction, a server
    removed): only ever appended to, so a step's :class:`Conversation` is the first pieces of this
    one list, with the running token total and the places of the tool pieces kept as they come."""

    def __init__(self, pieces: Iterable[Piece] = ()) -> None:
        super().__init__()
        self.totals: list[int] = [0]  # tokens of the first i pieces
        self.tool_places: list[int] = []  # indexes of the pieces whose form is in TOOL_FORMS
        for piece in pieces:
            self.append(piece)

    def append(self, piece: Piece) -> None:  # type: ignore[override]
        if piece.form in TOOL_FORMS:
            self.tool_places.append(len(self))
        super().append(piece)
        self.totals.append(self.totals[-1] + piece.tokens)

    def _refused(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("conversation pieces are only appended to; assign a new list to rewrite them")

    extend = insert = remove = pop = clear = sort = reverse = __setitem__ = __delitem__ = __iadd__ = _refused  # type: ignore[assignment]


class Conversation(Sequence[Piece]):
    """A strategy's conversation pieces after one step: the first ``len`` pieces of its run's
    append-only list, shared with every step before the next rewrite instead of copied per step (a
    copy per step, and a sum over it, grew with the square of the events: 5,000 searches took 15 s).

    Behaves as the tuple of those pieces (indexing, slicing to a tuple, iteration, equality, hash).

    Attributes:
        tokens: the pieces' tokens, added up.
    """

    __slots__ = ("_pieces", "_length", "_tools", "tokens")

    def __init__(self, pieces: _Pieces) -> None:
        self._pieces = pieces
        self._length = len(pieces)
        self._tools = len(pieces.tool_places)
        self.tokens: int = pieces.totals[self._length]

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self._pieces[i] for i in range(self._length)[index])
        return self._pieces[range(self._length)[index]]

    def __iter__(self) -> Iterator[Piece]:
        return itertools.islice(self._pieces, self._length)

    def tool_pieces(self) -> list[Piece]:
        """The pieces whose form is in :data:`TOOL_FORMS`, in order (without reading the others)."""
        return [self._pieces[i] for i in self._pieces.tool_places[:self._tools]]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Conversation):
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


@dataclass(frozen=True)
class StrategyState:
    """What one strategy looks like after one event.

    Attributes:
        strategy: the strategy id.
        outcome: ``start``, ``ok``, ``failed`` or ``n/a`` (the strategy has no such action).
        message: what happened, in words.
        prefix / conversation: the prompt's pieces (see the module docstring); the conversation
            is a :class:`Conversation` (a tuple of pieces shared with the steps before it).
        callable: tool wire names a call would succeed for now, in catalog order.
        cache_holds: the prefix pieces are the same as before the event.
        cache_note: why the cache holds or breaks.
        added_tokens: prompt tokens after minus before (negative after compaction).
    """

    strategy: str
    outcome: str
    message: str
    prefix: tuple[Piece, ...]
    conversation: Conversation
    callable: tuple[str, ...]
    cache_holds: bool
    cache_note: str
    added_tokens: int

    @property
    def prefix_tokens(self) -> int:
        """Tokens of the prefix (tools and system prompt)."""
        return sum(p.tokens for p in self.prefix)

    @property
    def prompt_tokens(self) -> int:
        """Tokens of the whole prompt: prefix plus conversation pieces."""
        return self.prefix_tokens + self.conversation.tokens

    @property
    def visible_tools(self) -> tuple[tuple[str, str], ...]:
        """``(name, form)`` of everything that puts tools in front of the model, in prompt order."""
        out: list[tuple[str, str]] = []
        for piece in (*self.prefix, *self.conversation.tool_pieces()):
            if piece.form not in TOOL_FORMS:
                continue
            out.extend(piece.members or ((piece.name, piece.form),))
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "outcome": self.outcome, "message": self.message, "prompt_tokens": self.prompt_tokens,
            "prefix_tokens": self.prefix_tokens, "added_tokens": self.added_tokens,
            "cache_holds": self.cache_holds, "cache_note": self.cache_note,
            "visible_tools": [{"name": n, "form": f} for n, f in self.visible_tools],
            "callable_tools": list(self.callable),
        }


@dataclass(frozen=True)
class TimelineStep:
    """Step ``index`` of a timeline: the event (``None`` for the start) and every strategy's state."""

    index: int
    event: Event | None
    states: tuple[StrategyState, ...]

    def state(self, strategy: str) -> StrategyState:
        """The state of one strategy."""
        return next(s for s in self.states if s.strategy == strategy)


@dataclass(frozen=True)
class ToolRoundTrips:
    """How one tool of the task was reached under one strategy.

    Attributes:
        tool: its wire name.
        round_trips: model turns the strategy needed before the first call (search, describe,
            a skill read it requires); each step is counted once, for the first tool that needs it.
        steps: those steps in words.
        via: how the tool became callable.
        called: the call succeeded.
        message: the call's outcome in words.
    """

    tool: str
    round_trips: int
    steps: tuple[str, ...]
    via: str
    called: bool
    message: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the attributes under their own names."""
        return {"tool": self.tool, "round_trips": self.round_trips, "steps": list(self.steps), "via": self.via,
                "called": self.called, "message": self.message}


@dataclass(frozen=True)
class StrategyResult:
    """One strategy for one task.

    Attributes:
        strategy / label: id and display name.
        upfront_tokens: the prompt before the first turn (tokens).
        task_tokens: the prompt once the task's skills were read and its tools reached (tokens).
        round_trips: discovery round trips over the task (sum of :attr:`per_tool`).
        cache_breaks: events of the task after which the cached prefix did not hold.
        per_tool: per tool of the task.
        read_before_call: whether a skill-linked tool is guaranteed to be called only after its
            skill was read (``None`` when no skill links a tool of the catalog).
        upfront_breakdown: up-front tokens per piece form.
        tools_upfront: tool entries in front of the model before the first turn.
        callable_upfront: tools callable before the first turn.
        notes: rules applied and assumptions made.
    """

    strategy: str
    label: str
    upfront_tokens: int
    task_tokens: int
    round_trips: int
    cache_breaks: int
    per_tool: tuple[ToolRoundTrips, ...]
    read_before_call: bool | None
    upfront_breakdown: Mapping[str, int]
    tools_upfront: int
    callable_upfront: int
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The ``strategies --json`` object (``strategy``, ``upfront_tokens``, ``task_tokens`` first)."""
        return {
            "strategy": self.strategy, "upfront_tokens": self.upfront_tokens, "task_tokens": self.task_tokens,
            "label": self.label, "round_trips": self.round_trips, "cache_breaks": self.cache_breaks,
            "read_before_call": self.read_before_call, "tools_upfront": self.tools_upfront,
            "callable_upfront": self.callable_upfront, "upfront_breakdown": dict(self.upfront_breakdown),
            "per_tool": [t.to_dict() for t in self.per_tool], "notes": list(self.notes),
        }


# --- the model ------------------------------------------------------------------------------------

def _hash(value: Any) -> str:
    return hashlib.sha256(compact_json(value).encode("utf-8", "surrogatepass")).hexdigest()[:16]  # a lone surrogate hashed as it stands


def query_for(tool: RegisteredTool) -> str:
    """The keyword query a model would write for a tool: its group label and name words
    (``github create issue`` for ``mcp__github__create_issue``)."""
    words = re.sub(r"[_.:\-]+", " ", tool.raw_name).split()
    label = [tool.label] if tool.label and tool.label != C.UNREGISTERED_LABEL and tool.label not in words else []
    return " ".join(label + words)


class StrategyModel:
    """The six strategies over one registered catalog, skills and settings.

    Args:
        inspector: the registered catalog (any source: file, upload, live servers).
        skills: the skills (``None`` = none).
        settings: shared inputs and per-strategy switches.

    Raises:
        TokenizerError: an unknown tokenizer name.

    Per-tool sizes, skill sizes, links and search indexes are computed once per model;
    :meth:`results` and :meth:`timeline` only simulate.
    """

    def __init__(self, inspector: Inspector, skills: SkillSet | None = None,
                 settings: StrategySettings | None = None) -> None:
        self.inspector = inspector
        self.settings = settings or StrategySettings()
        self.skillset = skills or SkillSet()
        s = self.settings
        self.tokenizer = get_tokenizer(s.tokenizer)
        tk = self.tokenizer
        self.tools: list[RegisteredTool] = [t for t in inspector.registration.tools if t.name not in C.BRIDGE_NAMES]
        self.by_name = {t.name: t for t in self.tools}
        self.order = {t.name: i for i, t in enumerate(self.tools)}
        measured = inspector.planner.tool_tokens(s.tokenizer)
        self.tool_tokens = {n: (s.tool_tokens if s.tool_tokens is not None else measured[n]) for n in self.by_name}
        self.server_names: tuple[str, ...] = tuple(srv.name for srv in inspector.catalog.servers)
        self.skills: dict[str, Skill] = self.skillset.by_name()
        self.listing_tokens = {n: sk.listing_token_count(tk) for n, sk in self.skills.items()}
        self.body_tokens = {n: sk.body_token_count(tk) for n, sk in self.skills.items()}
        problems: list[Problem] = []
        # A scoped session (Deep Agents' per-user resolvers): tools of the catalog outside the
        # scope are never disclosed, even when a skill links them (docs/reference.md §2 "the session's own tool list").
        self.scope = inspector.scope
        self.outside_scope: frozenset[str] = frozenset(
            t.name for t in inspector.full_registration.tools if t.name not in self.by_name) if self.scope else frozenset()
        #: ``{skill: linked tools the scope does not allow}`` (empty without a scope).
        self.withheld: dict[str, tuple[str, ...]] = {}
        self.links: dict[str, tuple[str, ...]] = {}
        linked_by: dict[str, list[str]] = {}
        for skill in self.skillset.skills:
            known = [t for t in skill.include_tools if t in self.by_name]
            withheld = [t for t in skill.include_tools if t in self.outside_scope]
            unknown = [t for t in skill.include_tools if t not in self.by_name and t not in self.outside_scope]
            if withheld:
                self.withheld[skill.name] = tuple(withheld)
                problems.append(Problem("info", f"{skill.origin}: metadata.include_tools",
                                        f"scope {quoted(self.scope.name)} does not allow {', '.join(withheld)}: "
                                        f"reading skill {quoted(skill.name)} does not disclose "
                                        f"{agree(withheld, 'it', 'them')} in this session"))
            if unknown:
                problems.append(Problem("warning", f"{skill.origin}: metadata.include_tools",
                                        f"skill {quoted(skill.name)} names {', '.join(unknown)}, "
                                        f"{agree(unknown, 'not a tool', 'not tools')} of this catalog; "
                                        "ignored (include_tools takes tool wire names, e.g. mcp__github__create_issue)"))
            self.links[skill.name] = tuple(known)
            for tool in known:
                linked_by.setdefault(tool, []).append(skill.name)
            if skill.allowed_tools:
                problems.append(Problem("info", f"{skill.origin}: allowed-tools",
                                        f"skill {quoted(skill.name)} pre-approves {', '.join(skill.allowed_tools)}: "
                                        "pre-approval only, it neither shows nor unlocks any tool"))
        self.linked_by = {t: tuple(v) for t, v in linked_by.items()}
        self.pinned = tuple(p for p in s.pinned_skills if p in self.skills)
        for name in s.pinned_skills:
            if name not in self.skills:
                problems.append(Problem("warning", "settings: pinned skills", f"{quoted(name)} is not a loaded skill; ignored"))
        for name in s.non_deferred or ():
            if name not in self.by_name:
                problems.append(Problem("warning", "settings: non-deferred tools",
                                        f"{quoted(name)} is not a tool of this catalog; ignored"))
        self.reference_visible = frozenset(t.name for t in split_tools(self.tools, s.config.defer)[0])
        self.all_servers = frozenset(self.server_names)
        self.problems: tuple[Problem, ...] = tuple(problems)
        self._schema_pieces = {n: Piece(f"tool:{n}", n, SCHEMA, self.tool_tokens[n]) for n in self.by_name}
        self._skill_lines = tuple(Piece(f"skill:{n}", n, SKILL_LINE, self.listing_tokens[n]) for n in self.skills)
        self._arrays: dict[tuple[str, ...], Piece] = {}
        self._tiered: dict[frozenset, tuple[Plan, Bridge, Piece]] = {}
        self._indexes: dict[tuple[str, ...], SearchIndex] = {}
        self._present: dict[frozenset, list[RegisteredTool]] = {}

    # -- shared helpers ---------------------------------------------------------------------------
    def count_json(self, value: Any) -> int:
        """Tokens of ``value`` as compact JSON in the settings' tokenizer."""
        return self.tokenizer.count(compact_json(value))

    def present_tools(self, present: frozenset) -> list[RegisteredTool]:
        """Tools of connected servers (unregistered tools are always present), catalog order (one
        list per set of servers, shared: read it, do not change it)."""
        cached = self._present.get(present)
        if cached is None:
            cached = self._present[present] = [t for t in self.tools if not t.server or t.server in present]
        return cached

    def withheld_note(self, skill: str) -> str:
        """``scope support withholds mcp__billing__refund (not disclosed)``, or ``""``."""
        withheld = self.withheld.get(skill)
        if not withheld or self.scope is None:
            return ""
        return f"scope {self.scope.name} withholds {', '.join(withheld)} (not disclosed)"

    def outside_scope_message(self, tool: str) -> str:
        """Why a catalog tool outside the session's scope cannot be used."""
        name = self.scope.name if self.scope is not None else ""
        return f"{tool} is outside scope {name}: not available in this session"

    def schema_array(self, names: Sequence[str]) -> list[Piece]:
        """The full definitions of ``names`` in ``tools``: one piece measured as one tools array
        (:func:`~toolsearch.engine.tokens.tools_array_tokens`, or the uniform size per tool when the
        settings give one), with one member per tool; no piece for no names. Cached per name list."""
        if not names:
            return []
        key = tuple(names)
        piece = self._arrays.get(key)
        if piece is None:
            if self.settings.tool_tokens is not None:
                tokens = self.settings.tool_tokens * len(key)
            else:
                tokens = tools_array_tokens([self.by_name[n].definition for n in key], self.tokenizer)
            piece = self._arrays[key] = Piece(f"tools:{_hash(list(key))}", "tool definitions", SCHEMA, tokens,
                                               tuple((n, SCHEMA) for n in key))
        return [piece]

    def schema_piece(self, name: str, form: str = SCHEMA) -> Piece:
        """Tool ``name``'s full definition as one piece (its size in tokens of the settings'
        tokenizer), keyed as ``form`` when that is not :data:`SCHEMA`. Raises ``KeyError`` for a
        name that is not a catalog tool."""
        piece = self._schema_pieces[name]
        return piece if form == SCHEMA else replace(piece, key=f"{form}:{name}", form=form)

    def skill_lines(self) -> tuple[Piece, ...]:
        """The skills listing: one piece per skill."""
        return self._skill_lines

    def body_piece(self, skill: str, form: str = SKILL_BODY) -> Piece:
        """Skill ``skill``'s body as one piece (its size in tokens of the settings' tokenizer).
        Raises ``KeyError`` for an unknown skill."""
        return Piece(f"{form}:{skill}", skill, form, self.body_tokens[skill])

    def tiered(self, present: frozenset) -> tuple[Plan, Bridge, Piece]:
        """The reference plan, bridge and tools-array piece for the connected servers (cached)."""
        cached = self._tiered.get(present)
        if cached is not None:
            return cached
        s = self.settings
        if present == self.all_servers:
            inspector = self.inspector
        else:
            # Servers outside the scope stay registered (the registry), outside the session.
            catalog = self.inspector.scoped(None).catalog
            sub = Catalog(catalog.name, tuple(srv for srv in catalog.servers
                                              if srv.name in present or srv.name not in self.all_servers),
                          catalog.problems, catalog.sources, catalog.extra)
            inspector = Inspector(sub, self.inspector.naming, self.inspector.profile).scoped(self.inspector.scope)
        plan = inspector.plan(s.config, s.context_length, s.planning_tokenizer or s.tokenizer, s.tokenizer)
        bridge = inspector.bridge(s.config)
        members = []
        bridge_defs = []
        for definition in plan.tools:
            name = definition["function"]["name"]
            if name in C.BRIDGE_NAMES:
                members.append((name, "bridge tool"))
                bridge_defs.append(definition)
            else:
                members.append((name, SCHEMA))
        if s.tool_tokens is None:
            tokens = plan.tools_tokens
        else:
            texts = [compact_json(d) for d in bridge_defs]
            bridge_tokens = (self.tokenizer.count(compact_json(bridge_defs)) if self.tokenizer.exact
                             else chars4(sum(len(x) for x in texts))) if bridge_defs else 0
            tokens = s.tool_tokens * (len(members) - len(bridge_defs)) + bridge_tokens
        piece = Piece(f"tools-array:{_hash(plan.tools)}", "tools array", TOOLS_ARRAY, tokens, tuple(members))
        self._tiered[present] = (plan, bridge, piece)
        return plan, bridge, piece

    def index(self, names: Sequence[str]) -> SearchIndex:
        """A BM25 index (the reference search, docs/reference.md §7) over these tools (cached per name set)."""
        key = tuple(names)
        cached = self._indexes.get(key)
        if cached is None:
            docs = [doc_for(t.name, "" if t.toolset is None else t.label, t.description, t.parameters)
                    for t in (self.by_name[n] for n in key)]
            cached = self._indexes[key] = SearchIndex(docs)
        return cached

    def provider_split(self, present: frozenset, exclude_linked: bool,
                       anthropic_rules: bool = True) -> tuple[list[str], list[str], list[str]]:
        """``(non_deferred, deferred, notes)`` for a provider strategy, catalog order.

        Enforces the Anthropic rules: at least :data:`~toolsearch.engine.constants.ANTHROPIC_MIN_NON_DEFERRED`
        tool non-deferred (the first tool in catalog order is kept when none is), and at most
        :data:`~toolsearch.engine.constants.ANTHROPIC_MAX_DEFERRED_TOOLS` deferred (the rest stay
        non-deferred). ``anthropic_rules=False`` (OpenAI) applies neither.
        """
        tools = [t.name for t in self.present_tools(present)]
        s = self.settings
        if s.non_deferred is None:
            keep = {n for n in tools if n in self.reference_visible}
            if exclude_linked:
                keep -= set(self.linked_by)
        else:
            keep = set(s.non_deferred) & set(tools)
        notes = []
        non_deferred = [n for n in tools if n in keep]
        deferred = [n for n in tools if n not in keep]
        if not anthropic_rules:
            return non_deferred, deferred, notes
        if tools and len(non_deferred) < C.ANTHROPIC_MIN_NON_DEFERRED:
            unlinked = [n for n in deferred if n not in self.linked_by] if exclude_linked else []
            first = (unlinked or deferred)[0]
            deferred.remove(first)
            non_deferred = [first]
            which = "the first tool not linked to a skill" if unlinked else "the first tool in catalog order"
            notes.append(f"at least {C.ANTHROPIC_MIN_NON_DEFERRED} tool must stay non-deferred: {reveal_line(first)} is kept "
                         f"non-deferred ({which})")
        if len(deferred) > C.ANTHROPIC_MAX_DEFERRED_TOOLS:
            overflow = deferred[C.ANTHROPIC_MAX_DEFERRED_TOOLS:]
            deferred = deferred[:C.ANTHROPIC_MAX_DEFERRED_TOOLS]
            keep_set = set(non_deferred) | set(overflow)
            non_deferred = [n for n in tools if n in keep_set]
            notes.append(f"at most {C.ANTHROPIC_MAX_DEFERRED_TOOLS:,} tools can be deferred: the last "
                         f"{len(overflow):,} in catalog order stay non-deferred")
        return non_deferred, deferred, notes

    def openai_groups(self, deferred: Sequence[str]) -> tuple[list[tuple[Namespace, str]], list[str], list[str]]:
        """OpenAI grouping of deferred tools: ``([(namespace, kind)], functions, notes)``.

        ``kind`` is ``namespace`` (defined in the settings) or ``mcp server`` (a server's deferred
        tools grouped as one entry). Grouped tools show nothing of their own until searched; the
        other deferred tools are functions with name and description up front.
        """
        s = self.settings
        deferred_set = set(deferred)
        taken: set[str] = set()
        groups: list[tuple[Namespace, str]] = []
        notes: list[str] = []
        for ns in s.namespaces:
            members = tuple(n for n in ns.tools if n in deferred_set and n not in taken)
            # Names the namespace cannot hold are said, not dropped: a mistyped name (or one of
            # another catalog) and a tool an earlier namespace already holds.
            unknown = [n for n in dict.fromkeys(ns.tools) if n not in self.by_name]
            repeated = [n for n in dict.fromkeys(ns.tools) if n in deferred_set and n in taken]
            if unknown:
                notes.append(f"namespace {quoted(ns.name)}: {_names_words(unknown)} {agree(unknown, 'is', 'are')} "
                             f"not {agree(unknown, 'a tool', 'tools')} of this catalog, so not in it"
                             + ("" if members else "; the namespace holds no tool and is left out"))
            if repeated:
                notes.append(f"namespace {quoted(ns.name)}: {_names_words(repeated)} {agree(repeated, 'is', 'are')} "
                             f"already in an earlier namespace and {agree(repeated, 'stays', 'stay')} there")
            if members:
                groups.append((Namespace(ns.name, ns.description, members), "namespace"))
                taken.update(members)
        if s.group_servers:
            by_server: dict[str, list[str]] = {}
            for name in deferred:
                tool = self.by_name[name]
                if name not in taken and tool.kind == "mcp":
                    by_server.setdefault(tool.server, []).append(name)
            for server, members in sorted(by_server.items()):
                label = self.by_name[members[0]].label
                description = self.inspector.profile.text("listing", "summary_line", label=label, count=len(members))
                groups.append((Namespace(server, description, tuple(members)), "mcp server"))
                taken.update(members)
        large = [f"{ns.name} ({len(ns.tools)})" for ns, _ in groups if len(ns.tools) >= C.OPENAI_NAMESPACE_MAX_FUNCTIONS]
        if large:
            shown = ", ".join(large[:6]) + (f" and {len(large) - 6} more" if len(large) > 6 else "")
            notes.append(f"{counted(len(large), 'namespace')} {agree(large, 'holds', 'hold')} "
                         f"{C.OPENAI_NAMESPACE_MAX_FUNCTIONS} or more functions: {shown}; "
                         f"OpenAI recommends fewer than {C.OPENAI_NAMESPACE_MAX_FUNCTIONS} per namespace")
        functions = [n for n in deferred if n not in taken]
        return groups, functions, notes

    # -- running -------------------------------------------------------------------------------------
    def _sim(self, strategy: str, present: frozenset) -> "_Sim":
        return _SIMS[strategy](self, present)

    def _apply(self, sim: "_Sim", event: Event) -> StrategyState:
        before_prefix = sim.prefix()
        before_tokens = sum(p.tokens for p in before_prefix) + sim.conversation.totals[-1]
        outcome, message = sim.apply(event)
        return self._state(sim, outcome, message, before_prefix, before_tokens)

    def _state(self, sim: "_Sim", outcome: str, message: str, before_prefix: Sequence[Piece] | None,
               before_tokens: int | None) -> StrategyState:
        prefix = tuple(sim.prefix())
        conversation = Conversation(sim.conversation)
        can_call = sim.callable()
        callable_now = tuple(t.name for t in self.tools if t.name in can_call)
        if before_prefix is None:
            holds, note = True, "first request: the prefix is written to the cache"
        else:
            old = [p.key for p in before_prefix]
            new = [p.key for p in prefix]
            holds = old == new
            note = sim.cache_note if holds else _diff_note(before_prefix, prefix)
        tokens = sum(p.tokens for p in prefix) + conversation.tokens
        added = 0 if before_tokens is None else tokens - before_tokens
        sim.cache_note = "prefix unchanged"
        return StrategyState(sim.strategy, outcome, message, prefix, conversation, callable_now, holds, note, added)

    def _held_back(self, events: Sequence[Event]) -> frozenset:
        held: set[str] = set()
        seen: set[str] = set()
        for event in events:
            if event.kind in ("add_server", "remove_server") and event.arg not in seen:
                seen.add(str(event.arg))
                if event.kind == "add_server" and event.arg in self.all_servers:
                    held.add(str(event.arg))
        return frozenset(held)

    def timeline_start_note(self, events: Sequence[Event]) -> str:
        """Why a timeline's step 0 can be below the up-front figures: the servers an ``add_server``
        event connects later are not connected at the start. ``""`` when no server is held back;
        otherwise one sentence starting with a space (to append to a caption)."""
        held = sorted(self._held_back(events))
        if not held:
            return ""
        return (f" Step 0 starts without {', '.join(held)} ({agree(held, 'it is', 'they are')} connected later by "
                "add_server), so its prompt is smaller than the up-front figures of the per-strategy table, "
                "which count every server.")

    def timeline(self, events: Sequence[Event], strategies: Sequence[str] = STRATEGIES) -> tuple[TimelineStep, ...]:
        """Run the events under every strategy. Step 0 is the start (before the first turn).

        Servers first named by ``add_server`` start disconnected. Unknown names make an event
        fail (it is shown, not raised).
        """
        present = self.all_servers - self._held_back(events)
        sims = [self._sim(s, present) for s in strategies]
        steps = [TimelineStep(0, None, tuple(self._state(sim, "start", "before the first turn", None, None)
                                             for sim in sims))]
        for index, event in enumerate(events, 1):
            steps.append(TimelineStep(index, event, tuple(self._apply(sim, event) for sim in sims)))
        return tuple(steps)

    def check_task(self, task: Task, origin: str = "task") -> None:
        """Raise :class:`StrategyError` if the task names a skill or tool that does not exist."""
        for name in task.skills_read:
            if name not in self.skills:
                known = ", ".join(list(self.skills)[:8]) or "none loaded"
                raise StrategyError(f"{origin}: skill {quoted(name)} is not loaded (skills: {known})")
        for name in task.tools_used:
            if name not in self.by_name and name not in self.outside_scope:
                raise StrategyError(f"{origin}: {quoted(name)} is not a tool of this catalog (use the wire name, "
                                    "e.g. mcp__github__create_issue)")

    def check_events(self, events: Sequence[Event], origin: str = "events") -> None:
        """Raise :class:`StrategyError` for an event naming an unknown tool, skill or server.

        The message names ``origin`` and the item (``events.yaml: [3].call``). :meth:`timeline`
        itself does not check: there an unknown name makes the event fail.
        """
        for index, event in enumerate(events):
            where = f"{origin}: [{index if event.place is None else event.place}].{event.kind}"
            if event.kind in ("call", "describe"):
                for name in (event.arg if isinstance(event.arg, tuple) else (event.arg,)):
                    if name not in self.by_name and name not in self.outside_scope:
                        raise StrategyError(f"{where}: {quoted(name)} is not a tool of this catalog (use the wire name, "
                                            "e.g. mcp__github__create_issue)")
            elif event.kind == "read_skill" and event.arg not in self.skills:
                known = ", ".join(list(self.skills)[:8]) or "none loaded"
                raise StrategyError(f"{where}: skill {quoted(event.arg)} is not loaded (skills: {known})")
            elif event.kind in ("add_server", "remove_server") and event.arg not in self.all_servers:
                scope = self.inspector.scope
                if scope is not None and event.arg in {t.server for t in self.inspector.full_registration.tools}:
                    raise StrategyError(f"{where}: server {quoted(event.arg)} is outside the session scope {quoted(scope.name)} "
                                        f"(it reaches {', '.join(self.server_names) or 'no server'})")
                raise StrategyError(f"{where}: {quoted(event.arg)} is not a server of this catalog "
                                    f"(servers: {', '.join(self.server_names[:8])})")

    def result(self, strategy: str, task: Task = Task()) -> StrategyResult:
        """Run ``task`` under one strategy: the skills read first, then each tool reached and called."""
        sim = self._sim(strategy, self.all_servers)
        start = self._state(sim, "start", "", None, None)
        breaks = 0

        def do(event: Event) -> StrategyState:
            nonlocal breaks
            state = self._apply(sim, event)
            breaks += 0 if state.cache_holds else 1
            return state

        for skill in task.skills_read:
            do(Event("read_skill", skill))
        sim.task_reads = set(task.skills_read)
        per_tool = []
        for tool in task.tools_used:
            if tool in self.outside_scope:
                state = do(Event("call", tool))
                per_tool.append(ToolRoundTrips(tool, 0, (), "outside the scope", False, state.message))
                continue
            steps, via = sim.discover(tool, do)
            state = do(Event("call", tool))
            per_tool.append(ToolRoundTrips(tool, len(steps), tuple(steps), via, state.outcome == "ok", state.message))
        final = sim.prefix(), sim.conversation
        breakdown: dict[str, int] = {}
        for piece in start.prefix:
            breakdown[piece.form] = breakdown.get(piece.form, 0) + piece.tokens
        return StrategyResult(
            strategy=strategy, label=STRATEGY_LABELS[strategy], upfront_tokens=start.prompt_tokens,
            task_tokens=sum(p.tokens for p in final[0]) + sum(p.tokens for p in final[1]),
            round_trips=sum(t.round_trips for t in per_tool), cache_breaks=breaks, per_tool=tuple(per_tool),
            read_before_call=sim.read_before_call() if self.linked_by else None, upfront_breakdown=breakdown,
            tools_upfront=len(start.visible_tools), callable_upfront=len(start.callable), notes=tuple(sim.notes()),
        )

    def results(self, task: Task = Task(), strategies: Sequence[str] = STRATEGIES) -> tuple[StrategyResult, ...]:
        """:meth:`result` for every strategy, in :data:`STRATEGIES` order.

        Raises:
            StrategyError: the task names an unknown skill or tool.
        """
        self.check_task(task)
        return tuple(self.result(s, task) for s in strategies)


def _atoms(pieces: Sequence[Piece]) -> list[tuple[str, str]]:
    """``(key, name)`` per piece, with a tools-array piece of definitions taken apart into its tools
    (so a note names the tools that came or went, not "tool definitions")."""
    out: list[tuple[str, str]] = []
    for p in pieces:
        if p.form == SCHEMA and p.members:
            out.extend((f"tool:{name}", name) for name, _ in p.members)
        else:
            out.append((p.key, p.name))
    return out


def _diff_note(before: Sequence[Piece], after: Sequence[Piece]) -> str:
    before_atoms, after_atoms = _atoms(before), _atoms(after)
    old = {k for k, _ in before_atoms}
    new = {k for k, _ in after_atoms}
    added = [n for k, n in after_atoms if k not in old]
    removed = [n for k, n in before_atoms if k not in new]

    def names(items: list[str]) -> str:
        shown = ", ".join(items[:3])
        return shown + (f" and {len(items) - 3} more" if len(items) > 3 else "")

    parts = []
    if added:
        parts.append(f"added {names(added)}")
    if removed:
        parts.append(f"removed {names(removed)}")
    if not parts:
        parts.append("reordered")
    return "cache breaks: the prefix changed (" + "; ".join(parts) + ")"


# --- strategy simulators -------------------------------------------------------------------------------

class _Sim:
    """State of one strategy during a conversation. Subclasses define prefix, callable and actions."""

    strategy = ""

    def __init__(self, model: StrategyModel, present: frozenset):
        self.m = model
        self.present = frozenset(present)
        self.conversation = _Pieces()    # appended to; a rewrite assigns a new list
        self.read: list[str] = []          # skills whose body is in the conversation
        self.task_reads: set[str] = set()  # skills the task itself read (result())
        self.attributed: set[str] = set()  # reads already counted as a round trip
        self.cache_note = "prefix unchanged"

    @property
    def conversation(self) -> _Pieces:
        """The conversation pieces since the last rewrite (append only; assign to rewrite)."""
        return self._conversation

    @conversation.setter
    def conversation(self, pieces: Iterable[Piece]) -> None:
        self._conversation = pieces if isinstance(pieces, _Pieces) else _Pieces(pieces)

    # -- to override ------------------------------------------------------------------------------
    def prefix(self) -> list[Piece]:
        raise NotImplementedError

    def callable(self) -> set[str]:
        raise NotImplementedError

    def notes(self) -> list[str]:
        return []

    def read_before_call(self) -> bool:
        return False

    def search(self, query: str) -> tuple[str, str]:
        return "n/a", "no search tool in this strategy; nothing changes"

    def describe(self, names: tuple[str, ...]) -> tuple[str, str]:
        return "n/a", "no describe tool in this strategy; nothing changes"

    def on_read(self, skill: str) -> str:
        return ""

    def on_compaction(self) -> str:
        return ""

    def call_failure(self, tool: str) -> str | None:
        """Why a call of a present, registered tool fails now, or ``None`` when it succeeds."""
        return None if tool in self.callable() else f"{tool} is not callable in this strategy"

    def call_note(self, tool: str) -> str:
        return ""

    def discover(self, tool: str, do: Callable[[Event], StrategyState]) -> tuple[list[str], str]:
        """Steps (each a round trip) this strategy needs before ``tool`` can be called."""
        return [], "callable from the start"

    # -- shared ---------------------------------------------------------------------------------------
    def tools(self) -> list[RegisteredTool]:
        return self.m.present_tools(self.present)

    def present_names(self) -> set[str]:
        return {t.name for t in self.tools()}

    def prompt_tokens(self) -> int:
        return sum(p.tokens for p in self.prefix()) + self.conversation.totals[-1]

    def apply(self, event: Event) -> tuple[str, str]:
        kind, arg = event.kind, event.arg
        if kind == "search":
            return self.search(str(arg))
        if kind == "describe":
            return self.describe(tuple(arg) if isinstance(arg, tuple) else (str(arg),))
        if kind == "read_skill":
            return self.read_skill(str(arg))
        if kind == "call":
            return self.call(str(arg))
        if kind == "compaction":
            return self.compaction()
        if kind == "add_server":
            return self.add_server(str(arg))
        return self.remove_server(str(arg))

    def read_skill(self, name: str) -> tuple[str, str]:
        if name not in self.m.skills:
            return "failed", f"unknown skill {quoted(name)}"
        if name in self.m.pinned and self.pins_skills:
            return "ok", f"{name} is pinned: its body is already in the input"
        if name in self.read:
            return "ok", f"{name} is already in the conversation; nothing added"
        self.read.append(name)
        self.conversation.append(self.m.body_piece(name))
        extra = self.on_read(name)
        return "ok", f"read {name}: body {self.m.body_tokens[name]:,} tokens" + (f"; {extra}" if extra else "")

    pins_skills = False

    def call(self, tool: str) -> tuple[str, str]:
        registered = self.m.by_name.get(tool)
        if registered is None and tool in self.m.outside_scope:
            return "failed", self.m.outside_scope_message(tool)
        if registered is None:
            return "failed", f"unknown tool {quoted(tool)}: not a tool of this catalog"
        if registered.server and registered.server not in self.present:
            return "failed", f"unknown tool {quoted(tool)}: server {registered.server} is not connected"
        why = self.call_failure(tool)
        if why is not None:
            return "failed", why
        note = self.call_note(tool)
        return "ok", f"called {tool}" + (f" ({note})" if note else "")

    def compaction(self) -> tuple[str, str]:
        dropped = self.conversation.totals[-1]
        reads = list(self.read)
        self.conversation = []
        self.read = []
        extra = self.on_compaction()
        message = f"compaction dropped {dropped:,} tokens of conversation pieces"
        if reads:
            message += f" (skill reads: {', '.join(reads)})"
        self.cache_note = "conversation rewritten; the prefix is unchanged"
        return "ok", message + (f"; {extra}" if extra else "")

    def add_server(self, server: str) -> tuple[str, str]:
        if server not in self.m.all_servers:
            return "failed", f"unknown server {quoted(server)}: not a server of this catalog"
        if server in self.present:
            return "failed", f"server {server} is already connected"
        self.present = self.present | {server}
        count = sum(1 for t in self.tools() if t.server == server)
        return "ok", f"server {server} connected ({counted(count, 'tool')})"

    def remove_server(self, server: str) -> tuple[str, str]:
        if server not in self.present:
            return "failed", f"server {quoted(server)} is not connected"
        self.present = self.present - {server}
        pieces = self.conversation
        # only tool pieces can be loaded definitions: the others are not read (a conversation of
        # thousands of search responses is not walked at every removal)
        gone = [pieces[i] for i in pieces.tool_places if pieces[i].form == LOADED
                and self.m.by_name.get(pieces[i].name) is not None and self.m.by_name[pieces[i].name].server == server]
        if gone:
            self.conversation = [p for p in pieces if p not in gone]
        self.forget(server)
        message = f"server {server} disconnected"
        if gone:
            message += f"; {counted(len(gone), 'loaded definition')} of its tools dropped from the conversation"
        return "ok", message

    def forget(self, server: str) -> None:
        """Drop per-tool state of a removed server's tools."""


class _AllUpfront(_Sim):
    strategy = ALL_UPFRONT

    def prefix(self) -> list[Piece]:
        return self.m.schema_array([t.name for t in self.tools()]) + list(self.m.skill_lines())

    def notes(self) -> list[str]:
        tokens = sum(p.tokens for p in self.m.schema_array([t.name for t in self.tools()]))
        return [f"the tool definitions are one tools array of {counted(tokens, 'token')}, measured like the plan's "
                "“all schemas up front” (the same number without skills)"]

    def callable(self) -> set[str]:
        return self.present_names()

    def discover(self, tool, do):
        return [], "in tools from the first request"


class _Tiered(_Sim):
    strategy = TIERED

    def __init__(self, model, present):
        super().__init__(model, present)
        self.described: set[str] = set()

    def plan(self) -> tuple[Plan, Bridge, Piece]:
        return self.m.tiered(self.present)

    def prefix(self) -> list[Piece]:
        return [self.plan()[2], *self.m.skill_lines()]

    def callable(self) -> set[str]:
        # Visible tools directly; every deferred tool through tool_call.
        return self.present_names()

    def deferred(self) -> set[str]:
        plan, bridge, _ = self.plan()
        return set(bridge.deferred_by_name) if plan.activated else set()

    def notes(self) -> list[str]:
        plan = self.plan()[0]
        return [f"reference plan: tier {plan.tier}, listing form {form_word(plan.listing_form)}, budget {plan.budget:,} tokens",
                "each deferred tool is described on its own (a real model may batch up to "
                f"{C.MAX_DESCRIBE_NAMES_PER_CALL} names in one tool_describe)"]

    def _response(self, kind: str, label: str, response: Mapping[str, Any]) -> Piece:
        return Piece(f"{kind}:{len(self.conversation)}:{label}", f"{kind} {label}", RESPONSE,
                     bridge_response(response, self.m.settings.tokenizer))

    def search(self, query: str) -> tuple[str, str]:
        bridge = self.plan()[1]
        response = bridge.tool_search({"queries": [query]})
        if "error" in response:
            return "failed", f"tool_search error: {response['error']}"
        piece = self._response("tool_search", query, response)
        self.conversation.append(piece)
        matches = response["results"][0]["matches"]
        found = ", ".join(matches) if matches else "no matches"
        return "ok", f"tool_search: {found} (response {counted(piece.tokens, 'token')})"

    def describe(self, names: tuple[str, ...]) -> tuple[str, str]:
        bridge = self.plan()[1]
        response = bridge.tool_describe({"names": list(names)})
        if "error" in response:
            return "failed", f"tool_describe error: {response['error']}"
        piece = self._response("tool_describe", ", ".join(names), response)
        self.conversation.append(piece)
        self.described.update(response.get("tools", {}))
        message = (f"tool_describe: {counted(len(response.get('tools', {})), 'schema')} "
                   f"(response {counted(piece.tokens, 'token')})")
        missed = list(response.get("not_found", [])) + list(response.get("errors", {}))
        if missed:
            message += f"; not described: {', '.join(missed)}"
        return ("ok" if response.get("tools") else "failed"), message

    def on_compaction(self) -> str:
        self.described = set()
        return ""

    def call_note(self, tool: str) -> str:
        if tool not in self.deferred():
            return "visible: called directly"
        if tool in self.described:
            return "deferred: through tool_call"
        return "deferred: through tool_call, without its schema (not described in the conversation)"

    def discover(self, tool, do):
        if tool not in self.present_names():
            return [], "not connected"
        if tool not in self.deferred():
            return [], "visible: in tools from the first request"
        if tool in self.described:
            return [], "described earlier"
        plan, bridge, _ = self.plan()
        state = next((s.state for s in plan.servers if s.name == self.m.by_name[tool].server), "hidden")
        steps = []
        if state not in ("full", "names"):
            query = query_for(self.m.by_name[tool])
            do(Event("search", query))
            steps.append(f"tool_search {quoted(query)}")
        do(Event("describe", (tool,)))
        steps.append(f"tool_describe {tool}")
        how = "listed by name in tool_search" if state in ("full", "names") else f"not listed (server state {state})"
        return steps, f"{how}: {' → '.join(s.split(' ')[0] for s in steps)} → tool_call"


class _Provider(_Sim):
    """Shared by the Anthropic, OpenAI and combined strategies: a search loads definitions."""

    exclude_linked = False
    load_form = LOADED

    def __init__(self, model, present):
        super().__init__(model, present)
        self.loaded: list[str] = []                 # in load order
        self.loaded_by_search: set[str] = set()

    def split(self) -> tuple[list[str], list[str], list[str]]:
        return self.m.provider_split(self.present, self.exclude_linked)

    def always(self) -> set[str]:
        """Tools callable without loading."""
        return set(self.split()[0])

    def callable(self) -> set[str]:
        present = self.present_names()
        return (self.always() | set(self.loaded)) & present

    def limit(self) -> int:
        return self.m.settings.anthropic_search_results

    def run_search(self, query: str, deferred: list[str]) -> tuple[list[str] | None, str]:
        """``(matches, error)`` for one search over the deferred tools."""
        return [name for name, _ in self.m.index(deferred).search(query, self.limit())], ""

    def load(self, names: Iterable[str], by_search: bool) -> list[str]:
        new = [n for n in names if n not in self.loaded]
        for name in new:
            self.loaded.append(name)
            self.conversation.append(self.m.schema_piece(name, self.load_form))
        if by_search:
            self.loaded_by_search.update(new)
        return new

    def search(self, query: str) -> tuple[str, str]:
        deferred = self.split()[1]
        matches, error = self.run_search(query, deferred)
        if matches is None:
            return "failed", error
        new = self.load(matches, by_search=True)
        self.cache_note = "loaded definitions are added to the conversation; the prefix is unchanged"
        if not matches:
            return "ok", "search: no matches"
        return "ok", (f"search: {', '.join(matches)}; {counted(len(new), 'definition')} loaded "
                      f"({counted(sum(self.m.tool_tokens[n] for n in new), 'token')})")

    def on_compaction(self) -> str:
        dropped = len(self.loaded)
        self.loaded = []
        self.loaded_by_search = set()
        return f"{counted(dropped, 'loaded definition')} must be searched again" if dropped else ""

    def forget(self, server: str) -> None:
        self.loaded = [n for n in self.loaded if self.m.by_name[n].server != server]

    def call_failure(self, tool: str) -> str | None:
        if tool in self.callable():
            return None
        return f"{tool} is deferred and not loaded: a search has to find it first"

    def call_note(self, tool: str) -> str:
        if tool in self.always():
            return "non-deferred"
        return "loaded by search"

    def discover(self, tool, do):
        if tool not in self.present_names():
            return [], "not connected"
        if tool in self.callable():
            return [], "non-deferred" if tool in self.always() else "loaded earlier"
        registered = self.m.by_name[tool]
        steps = []
        for query in self.queries(registered):
            do(Event("search", query))
            steps.append(f"search {quoted(query)}")
            if tool in self.callable():
                return steps, "found by search" + (" (second search with the exact name)" if len(steps) > 1 else "")
        return steps, "not found by search"

    def queries(self, tool: RegisteredTool) -> list[str]:
        """The keyword query for the tool, then its exact wire name."""
        return [query_for(tool), tool.name]


class _Anthropic(_Provider):
    strategy = ANTHROPIC

    def search_tool(self) -> Piece:
        spec = ANTHROPIC_SEARCH_TOOLS[self.m.settings.search_variant]
        return Piece(f"search-tool:{spec['name']}", spec["name"], SEARCH_TOOL, self.m.count_json(spec))

    def prefix(self) -> list[Piece]:
        return (self.m.schema_array(self.split()[0]) + [self.search_tool()]
                + list(self.m.skill_lines()))

    def notes(self) -> list[str]:
        s = self.m.settings
        limit = (f"pattern ≤ {C.ANTHROPIC_REGEX_PATTERN_MAX_CHARS} characters" if s.search_variant == "regex"
                 else f"query ≤ {C.ANTHROPIC_BM25_QUERY_MAX_CHARS} characters")
        return [*self.split()[2], f"{s.search_variant} search ({limit}), {self.limit()} results per search; "
                                  "BM25 ranking is toolsearch's reference search, standing in for the provider's"]

    def run_search(self, query, deferred):
        s = self.m.settings
        if s.search_variant == "regex":
            if len(query) > C.ANTHROPIC_REGEX_PATTERN_MAX_CHARS:
                return None, (f"regex pattern of {len(query)} characters: at most "
                              f"{C.ANTHROPIC_REGEX_PATTERN_MAX_CHARS} are allowed")
            try:
                pattern = re.compile(query)
            except re.error as exc:
                return None, f"not a valid regular expression ({exc})"
            matches = []
            for name in deferred:
                if pattern.search(_regex_text(self.m.by_name[name])):
                    matches.append(name)
                    if len(matches) == self.limit():
                        break
            return matches, ""
        if len(query) > C.ANTHROPIC_BM25_QUERY_MAX_CHARS:
            return None, f"BM25 query of {len(query)} characters: at most {C.ANTHROPIC_BM25_QUERY_MAX_CHARS} are allowed"
        return super().run_search(query, deferred)

    def queries(self, tool):
        if self.m.settings.search_variant == "regex":
            return [re.escape(tool.raw_name), "^" + re.escape(tool.name) + "$"]
        return super().queries(tool)


def _regex_text(tool: RegisteredTool) -> str:
    """What the Anthropic regex variant searches: name, description, argument names and descriptions."""
    parts = [tool.name, tool.description]
    props = tool.parameters.get("properties") if isinstance(tool.parameters, Mapping) else None
    if isinstance(props, Mapping):
        for key, value in props.items():
            parts.append(str(key))
            if isinstance(value, Mapping) and isinstance(value.get("description"), str):
                parts.append(value["description"])
    return "\n".join(parts)


class _OpenAI(_Provider):
    strategy = OPENAI

    def limit(self) -> int:
        return self.m.settings.openai_search_results

    def split(self) -> tuple[list[str], list[str], list[str]]:
        return self.m.provider_split(self.present, False, anthropic_rules=False)

    def prefix(self) -> list[Piece]:
        non_deferred, deferred, _ = self.split()
        groups, functions, _ = self.m.openai_groups(deferred)
        pieces = self.m.schema_array(non_deferred)
        for name in functions:
            tool = self.m.by_name[name]
            pieces.append(Piece(f"stub:{name}", name, STUB,
                                self.m.count_json({"name": name, "description": tool.description})))
        for ns, kind in groups:
            pieces.append(Piece(f"namespace:{ns.name}:{_hash(ns.tools)}", ns.name, NAMESPACE,
                                self.m.count_json({"name": ns.name, "description": ns.description}),
                                ((ns.name, f"{kind}: {counted(len(ns.tools), 'function')}"),)))
        pieces.append(Piece("search-tool:openai", "tool_search", SEARCH_TOOL, self.m.count_json(OPENAI_SEARCH_TOOL)))
        return pieces + list(self.m.skill_lines())

    def notes(self) -> list[str]:
        deferred = self.split()[1]
        notes = self.m.openai_groups(deferred)[2]
        return [*notes, f"{self.limit()} functions loaded per search (OpenAI publishes no default; assumed), "
                        "appended at the end of the context"]

    def call_failure(self, tool):
        if tool in self.callable():
            return None
        return f"{tool} is deferred: its parameters are not loaded until a tool search loads it"


class _SkillLinked(_Sim):
    strategy = SKILL_LINKED
    pins_skills = True

    def __init__(self, model, present):
        super().__init__(model, present)
        self.unlocked: list[str] = []           # tools unlocked by reads, in unlock order
        self.unlocked_by: dict[str, str] = {}
        self.ever_read: set[str] = set()

    def pinned_tools(self) -> list[str]:
        present = self.present_names()
        out: dict[str, None] = {}
        for skill in self.m.pinned:
            for tool in self.m.links[skill]:
                if tool in present:
                    out[tool] = None
        return sorted(out, key=self.m.order.__getitem__)

    def unlinked(self) -> list[str]:
        return [t.name for t in self.tools() if t.name not in self.m.linked_by]

    def prefix(self) -> list[Piece]:
        pinned = self.pinned_tools()
        in_tools = [*self.unlinked(), *pinned]
        if not self.m.settings.mid_conversation_tools:
            present = self.present_names()
            in_tools += [n for n in self.unlocked if n in present and n not in pinned]
        pieces = self.m.schema_array(in_tools)
        pieces += list(self.m.skill_lines())
        pieces += [self.m.body_piece(s, PINNED_BODY) for s in self.m.pinned]
        return pieces

    def callable(self) -> set[str]:
        present = self.present_names()
        return (set(self.unlinked()) | set(self.pinned_tools()) | set(self.unlocked)) & present

    def read_before_call(self) -> bool:
        return True

    def notes(self) -> list[str]:
        notes = []
        if self.m.withheld and self.m.scope is not None:
            withheld = sorted({t for tools in self.m.withheld.values() for t in tools}, key=str)
            shown = ", ".join(map(reveal_line, withheld[:6])) + (f" and {len(withheld) - 6} more" if len(withheld) > 6 else "")
            notes.append(f"scope {reveal_line(self.m.scope.name)} allows only its own tools: "
                         f"{counted(len(withheld), 'skill-linked tool')} {agree(withheld, 'is', 'are')} "
                         f"never disclosed ({shown})")
        if self.m.pinned:
            notes.append(f"pinned skills in the input from the start: {', '.join(map(reveal_line, self.m.pinned))}")
        notes.append("tools of a read skill are added mid-conversation without touching tools (cache survives)"
                     if self.m.settings.mid_conversation_tools else
                     "tools of a read skill are appended to tools: the cache breaks at each read that adds tools")
        return notes

    def on_read(self, skill: str) -> str:
        self.ever_read.add(skill)
        present = self.present_names()
        pinned = set(self.pinned_tools())
        new = sorted((t for t in self.m.links.get(skill, ()) if t in present and t not in self.unlocked and t not in pinned),
                     key=self.m.order.__getitem__)
        for tool in new:
            self.unlocked.append(tool)
            self.unlocked_by[tool] = skill
            if self.m.settings.mid_conversation_tools:
                self.conversation.append(self.m.schema_piece(tool, LOADED))
        withheld = self.m.withheld_note(skill)
        if not new:
            return "no tools unlocked" + (f"; {withheld}" if withheld else "")
        where = ("added mid-conversation" if self.m.settings.mid_conversation_tools else "appended to tools")
        return (f"{counted(len(new), 'tool')} unlocked, {where} "
                f"({counted(sum(self.m.tool_tokens[t] for t in new), 'token')})"
                + (f"; {withheld}" if withheld else ""))

    def on_compaction(self) -> str:
        dropped = list(self.unlocked)
        self.unlocked = []
        self.unlocked_by = {}
        if not dropped:
            return ""
        where = "" if self.m.settings.mid_conversation_tools else ", removed from tools"
        return f"{counted(len(dropped), 'unlocked tool')} {agree(dropped, 'is', 'are')} no longer callable{where}"

    def forget(self, server: str) -> None:
        self.unlocked = [n for n in self.unlocked if self.m.by_name[n].server != server]

    def call_failure(self, tool: str) -> str | None:
        if tool in self.callable():
            return None
        skills = self.m.linked_by.get(tool, ())
        again = [s for s in skills if s in self.ever_read]
        when = " since the last compaction" if again else ""
        return (f"unknown tool {tool}: it becomes callable after reading skill {' or '.join(skills)}, "
                f"which has not been read{when}")

    def call_note(self, tool: str) -> str:
        if tool in self.unlocked_by:
            return f"unlocked by reading skill {self.unlocked_by[tool]}"
        if tool in self.pinned_tools():
            return "linked to a pinned skill"
        return "not linked to a skill"

    def discover(self, tool, do):
        if tool not in self.present_names():
            return [], "not connected"
        if tool in self.callable():
            skill = self.unlocked_by.get(tool)
            if skill is None:
                return [], ("linked to a pinned skill" if tool in self.pinned_tools() else "not linked to a skill")
            if skill in self.task_reads and skill not in self.attributed:
                self.attributed.add(skill)
                return [f"read_skill {skill}"], f"unlocked by reading skill {skill} (a read this strategy requires)"
            return [], f"unlocked by skill {skill}, read earlier"
        skill = self.m.linked_by[tool][0]
        do(Event("read_skill", skill))
        self.attributed.add(skill)
        return [f"read_skill {skill}"], f"unlocked by reading skill {skill} (not among the task's reads)"


class _Combined(_Anthropic):
    strategy = COMBINED
    pins_skills = True
    exclude_linked = True

    def __init__(self, model, present):
        super().__init__(model, present)
        self.loaded_by_read: dict[str, str] = {}

    def pinned_tools(self) -> list[str]:
        present = self.present_names()
        out: dict[str, None] = {}
        for skill in self.m.pinned:
            for tool in self.m.links[skill]:
                if tool in present:
                    out[tool] = None
        return sorted(out, key=self.m.order.__getitem__)

    def split(self):
        non_deferred, deferred, notes = super().split()
        pinned = set(self.pinned_tools())
        if pinned:
            kept = pinned | set(non_deferred)
            non_deferred = [n for n in (t.name for t in self.tools()) if n in kept]
            deferred = [n for n in deferred if n not in pinned]
        return non_deferred, deferred, notes

    def prefix(self) -> list[Piece]:
        return super().prefix() + [self.m.body_piece(s, PINNED_BODY) for s in self.m.pinned]

    def read_before_call(self) -> bool:
        return False

    def notes(self) -> list[str]:
        notes = super().notes()
        linked = [t for t in self.split()[1] if t in self.m.linked_by]
        if linked:
            notes.append(f"{counted(len(linked), 'skill-linked tool')} {agree(linked, 'is', 'are')} deferred for search: "
                         f"a search can load {agree(linked, 'it', 'them')} before "
                         f"{agree(linked, 'its skill is', 'their skills are')} read, so the read-before-call "
                         "guarantee is lost")
        return notes

    def on_read(self, skill: str) -> str:
        deferred = set(self.split()[1])
        new = self.load(sorted((t for t in self.m.links.get(skill, ()) if t in deferred), key=self.m.order.__getitem__),
                        by_search=False)
        for tool in new:
            self.loaded_by_read[tool] = skill
        self.cache_note = "loaded definitions are added to the conversation; the prefix is unchanged"
        withheld = self.m.withheld_note(skill)
        if not new:
            return "no tools loaded" + (f"; {withheld}" if withheld else "")
        return (f"{counted(len(new), 'linked tool')} loaded inline "
                f"({counted(sum(self.m.tool_tokens[t] for t in new), 'token')})"
                + (f"; {withheld}" if withheld else ""))

    def on_compaction(self) -> str:
        self.loaded_by_read = {}
        return super().on_compaction()

    def forget(self, server: str) -> None:
        super().forget(server)
        self.loaded_by_read = {t: s for t, s in self.loaded_by_read.items() if self.m.by_name[t].server != server}

    def call_note(self, tool: str) -> str:
        skills = self.m.linked_by.get(tool, ())
        if tool in self.loaded_by_read:
            return f"loaded by reading skill {self.loaded_by_read[tool]}"
        if tool in self.pinned_tools():
            return "linked to a pinned skill"
        if skills and not any(s in self.read for s in skills):
            how = "it is non-deferred" if tool in self.always() else "search made it callable"
            return (f"called without reading skill {' or '.join(skills)}: {how}, "
                    "so the read-before-call guarantee is lost")
        return super().call_note(tool)

    def call_failure(self, tool: str) -> str | None:
        if tool in self.callable():
            return None
        skills = self.m.linked_by.get(tool, ())
        if skills:
            return (f"{tool} is deferred and not loaded: reading skill {' or '.join(skills)} loads it, "
                    "and so does a search that finds it")
        return super().call_failure(tool)

    def discover(self, tool, do):
        if tool in self.loaded_by_read:
            skill = self.loaded_by_read[tool]
            if skill in self.task_reads and skill not in self.attributed:
                self.attributed.add(skill)
                return [f"read_skill {skill}"], f"loaded by reading skill {skill}"
            return [], f"loaded by skill {skill}, read earlier"
        steps, via = super().discover(tool, do)
        skills = self.m.linked_by.get(tool, ())
        if steps and skills and tool in self.loaded_by_search:
            via += (f" without reading skill {' or '.join(skills)}: the read-before-call guarantee is lost")
        return steps, via


_SIMS: dict[str, type[_Sim]] = {
    ALL_UPFRONT: _AllUpfront, TIERED: _Tiered, ANTHROPIC: _Anthropic, OPENAI: _OpenAI,
    SKILL_LINKED: _SkillLinked, COMBINED: _Combined,
}


def compare(inspector: Inspector, skills: SkillSet | None = None, task: Task = Task(),
            settings: StrategySettings | None = None) -> tuple[StrategyResult, ...]:
    """Every strategy for one task (see :meth:`StrategyModel.results`)."""
    return StrategyModel(inspector, skills, settings).results(task)


# --- other harnesses' switches on the timeline ---------------------------------------------

@dataclass(frozen=True)
class HarnessSwitchStep:
    """Claude Code's ``auto`` and Qwen Code's threshold after one event of a timeline.

    Attributes:
        index: the step (0 = the start).
        event: the event (``None`` at the start).
        mcp_tokens: the connected MCP and plugin tools' definitions (tokens in the planning tokenizer,
            :func:`switch_tokenizer`, as the harness rows count them).
        claude_code: Claude Code defers at the next request (re-decided on every request).
        qwen_code: Qwen Code defers (decided at session start and again after a compaction only).
        qwen_pending: what Qwen Code would decide now; differs from ``qwen_code`` until the next
            session start or compaction.
        note: what changed, in words.
    """

    index: int
    event: Event | None
    mcp_tokens: int
    claude_code: bool
    qwen_code: bool
    qwen_pending: bool
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``step`` is :attr:`index`; ``mcp_tokens`` in tokens)."""
        return {"step": self.index, "event": self.event.to_data() if self.event else None,
                "mcp_tokens": self.mcp_tokens, "claude_code": self.claude_code, "qwen_code": self.qwen_code,
                "qwen_pending": self.qwen_pending, "note": self.note}


#: The per-strategy table's column headings that the Strategies page and ``toolsearch strategies``
#: share (one name per figure): the strategy's tool entries and callable tools before the first turn.
TOOLS_SHOWN_COLUMN = "tools shown up front"
CALLABLE_COLUMN = "callable up front"


def read_before_call_words(value: bool | None) -> str:
    """:attr:`StrategyResult.read_before_call` in words, as the Strategies page and ``toolsearch
    strategies`` print it: ``guaranteed``, ``not guaranteed``, or ``n/a`` (no skill-linked tools)."""
    return "n/a" if value is None else ("guaranteed" if value else "not guaranteed")


def switch_tokenizer(settings: StrategySettings) -> str:
    """The tokenizer :func:`harness_switches` counts the MCP tokens with: the planning tokenizer
    (``settings.planning_tokenizer``, else ``settings.tokenizer``), the one the harness rows of the
    Harnesses page and ``toolsearch harnesses`` decide with."""
    return settings.planning_tokenizer or settings.tokenizer


def harness_switches(model: StrategyModel, events: Sequence[Event], claude_setting: str = "auto",
                     qwen_threshold_pct: float = 10.0) -> tuple[HarnessSwitchStep, ...]:
    """Claude Code's ``ENABLE_TOOL_SEARCH`` rule and Qwen Code's ``tools.toolSearch.threshold`` along
    the events, at the model's context length.

    A server added or removed mid-session changes the MCP tokens; Claude Code re-decides at the
    next request, so its switch can flip at that step. Qwen Code decided at session start and only
    decides again after a compaction (or ``/clear``), so a server added mid-session changes nothing
    until then (``qwen_pending`` shows what it would decide). Failed events change nothing.

    Returns:
        One step per event plus the start; ``()`` when the context length is unknown (both rules
        are percentages of it).

    Raises:
        HarnessError: a bad ``claude_setting``.
    """
    from . import harnesses as H  # noqa: PLC0415 - harnesses imports nothing from here

    length = model.settings.context_length
    if not length or length < 1:
        return ()
    setting = H.parse_claude_setting(claude_setting)
    # The harness decisions count with the planning tokenizer, as the Harnesses page and
    # ``toolsearch harnesses`` do: the same switch at the same length is one answer on both pages.
    tokenizer = switch_tokenizer(model.settings)
    present = model.all_servers - model._held_back(events)

    decided: dict[frozenset, tuple[int, bool, bool]] = {}  # most events leave the servers as they were

    def decide(servers: frozenset) -> tuple[int, bool, bool]:
        if servers not in decided:
            figures = H.catalog_figures(model.inspector.planner, model.present_tools(servers), tokenizer)
            has = bool(figures.deferrable)
            decided[servers] = (figures.claude_deferrable_tokens,
                                H.claude_code_active(setting, figures.claude_deferrable_tokens, length, has),
                                H.qwen_code_active(qwen_threshold_pct, figures.deferrable_tokens, length, has))
        return decided[servers]

    tokens, claude, qwen = decide(present)
    steps = [HarnessSwitchStep(0, None, tokens, claude, qwen, qwen, "session start: both decide")]
    for index, event in enumerate(events, 1):
        note = ""
        if event.kind == "add_server" and event.arg in model.all_servers and event.arg not in present:
            present = present | {str(event.arg)}
        elif event.kind == "remove_server" and event.arg in present:
            present = present - {str(event.arg)}
        tokens, claude_now, pending = decide(present)
        if event.kind == "compaction":
            if pending != qwen:
                note = "compaction: Qwen Code decides again and flips"
            qwen = pending
        if claude_now != claude:
            note = (note + "; " if note else "") + "Claude Code flips at the next request"
        if pending != qwen:
            note = (note + "; " if note else "") + "Qwen Code keeps its start-of-session decision until the next one"
        claude = claude_now
        steps.append(HarnessSwitchStep(index, event, tokens, claude, qwen, pending, note))
    return tuple(steps)
